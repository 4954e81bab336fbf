#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every user-facing string ships in both languages: the zh_CN catalogue
# covers every msgid in the sources, with nothing fuzzy or untranslated.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for t in xgettext msgcmp msgfmt; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
cd "$SRC" || exit 1

missing=""
for f in src/*.c src/*/*.c ui/*.c; do
	[ -f "$f" ] || continue
	grep -qE '\b[_NP]_\(' "$f" || continue
	grep -qx "$f" po/POTFILES.in || missing="$missing $f"
done
check "every source file with strings is in po/POTFILES.in" [ -z "$missing" ]
[ -z "$missing" ] || echo "   missing:$missing"

xgettext --keyword=_ --keyword=N_ --keyword=P_:1,2 --from-code=UTF-8 --language=C \
	-o "$TMP/gpuwiz.pot" $(cat po/POTFILES.in) 2>"$TMP/xg.err"
check "xgettext reads the sources" [ -s "$TMP/gpuwiz.pot" ]
check "zh_CN.po has every msgid of the sources" msgcmp po/zh_CN.po "$TMP/gpuwiz.pot"
stats=$(msgfmt -c --statistics -o /dev/null po/zh_CN.po 2>&1)
echo "   $stats"
check "zh_CN.po passes msgfmt -c" msgfmt -c -o /dev/null po/zh_CN.po

# A count's words come from P_() (ngettext), never from a stub such as
# "GPU(s)" or "box(es)": no msgid or msgid_plural of the sources holds one.
msgcat --no-wrap "$TMP/gpuwiz.pot" 2>/dev/null |
	grep -E '^msgid(_plural)? ' | grep -E '[[:alpha:]]\((s|es|ies)\)' >"$TMP/stubs"
check "no plural stub like GPU(s) in a msgid (P_ instead)" [ ! -s "$TMP/stubs" ]
[ -s "$TMP/stubs" ] && sed 's/^/   /' "$TMP/stubs"
# P_ is a keyword wherever a catalogue template is made
for f in po/refresh.sh po/Makevars; do
	check "$f: xgettext knows P_ (singular, plural)" grep -qF -- '--keyword=P_:1,2' "$f"
done
# The one plural rule of each catalogue: Chinese has one form.
check "zh_CN.po: Plural-Forms nplurals=1; plural=0" \
	grep -qF '"Plural-Forms: nplurals=1; plural=0;\n"' po/zh_CN.po
check "zh_CN.po: every plural entry has its msgstr[0]" sh -c \
	"msgattrib --no-wrap --translated po/zh_CN.po | grep -c '^msgid_plural' | grep -qx \"\$(grep -c '^msgid_plural' '$TMP/gpuwiz.pot')\""
check "zh_CN.po: nothing fuzzy or untranslated" sh -c "! echo '$stats' | grep -qE 'fuzzy|untranslated'"
finish

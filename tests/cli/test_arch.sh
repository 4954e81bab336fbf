#!/bin/sh
# The architecture's limits (doc/design.md, section 2.4), so that they hold
# after every change: file sizes, cyclomatic complexity (pmccabe), no
# branching on the kind of host above the host layer, the layers' include
# rules, and every document the code cites present in the tree.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1

files=$(find src ui -name '*.[ch]' | sort)
cfiles=$(find src ui -name '*.c' | sort)

# ---- sizes ----------------------------------------------------------------
wc -l $files | grep -v ' total$' >"$TMP/sizes"
over1000=$(awk '$1 > 1000 { print $2 }' "$TMP/sizes")
n600=$(awk '$1 > 600' "$TMP/sizes" | wc -l)
check "no file in src/ or ui/ over 1,000 lines" [ -z "$over1000" ]
[ -z "$over1000" ] || echo "   over:" $over1000
check "at most 4 files over 600 lines ($n600)" [ "$n600" -le 4 ]

# ---- complexity (pmccabe's second column: traditional McCabe) -------------
if command -v pmccabe >/dev/null 2>&1; then
	pmccabe $cfiles >"$TMP/mccabe" 2>/dev/null
	over40=$(awk '$2 > 40' "$TMP/mccabe")
	n25=$(awk '$2 > 25' "$TMP/mccabe" | wc -l)
	check "no function over cyclomatic complexity 40" [ -z "$over40" ]
	[ -z "$over40" ] || printf '   %s\n' "$over40"
	check "at most 15 functions over 25 ($n25)" [ "$n25" -le 15 ]
else
	nok "pmccabe is installed (tests/deps.sh installs it)"
fi

# ---- the kind of host is the host layer's business -------------------------
# (src/wizard/wizard_mode.c is the table of the wizard's routes: the one
# place where they are data, looked up by mode)
front=$(find src/cli src/wizard src/session ui src/main.c -name '*.c' |
	grep -v '^src/wizard/wizard_mode\.c$' | sort)
grep -nE '(\b(if|while|switch|case)\b|\?).*((->|\.)(vs|runner|esxi_vm|vs_inv)\b|GW_MODE_(LINUX|ESXI_SSH|VSPHERE|OFFLINE)|GW_HOST_(LINUX|ESXI|VSPHERE)\b|gw_host_kind_of)|(==|!=) *GW_(MODE|HOST)_(LINUX|ESXI_SSH|ESXI|VSPHERE|OFFLINE)\b' \
	$front | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' >"$TMP/kind" || :
nkind=$(wc -l <"$TMP/kind")
check "at most 12 branches on the connection kind above the host layer ($nkind)" \
	[ "$nkind" -le 12 ]
[ "$nkind" -le 12 ] || sed 's/^/   /' "$TMP/kind"
check "ui/ branches on no connection kind" \
	sh -c "! grep -q '^ui/' '$TMP/kind'"

# ---- layers ----------------------------------------------------------------
check "ui/ sees the wizard through wizard.h only" \
	sh -c "! grep -ln '#include \"wizard_int.h\"' ui/*.c ui/*.h"
check "ui/ includes no back end" \
	sh -c "! grep -lnE '#include \"(runner|vsphere|vsapply|samplehost|linux|host_int)\\.h\"' ui/*.c ui/*.h"
check "src/core includes nothing of the host, session or front ends" \
	sh -c "! grep -nE '#include \"(host|host_int|runner|vsphere|session|cli|wizard|wizard_int)\\.h\"' src/core/*.c src/core/*.h"
check "the front ends include no back end's private header" \
	sh -c "! grep -nE '#include \"(host_int|runner_int|vsphere_int|esxi_int|linux_int|samplehost_int)\\.h\"' src/cli/*.c src/wizard/*.c src/session/*.c ui/*.c"

# ---- probes and parsers return data: only src/report and the front ends print
grep -nE '(^|[^_a-z])(printf|puts|putchar)\(|fputs\([^,]*, *stdout|fprintf\(stdout|fwrite\([^;]*stdout' \
	src/core/*.c src/host/*.c src/session/*.c >"$TMP/prints" || :
check "src/core, src/host and src/session write nothing to stdout" [ ! -s "$TMP/prints" ]
sed 's/^/   /' "$TMP/prints"

# ---- citations ---------------------------------------------------------------
check "no code cites files outside the tree" \
	sh -c "! grep -rnE 'shared/(docs|data|fixtures|seeds)|\\.\\./shared' src ui"
check "no code cites the design or domain notes of the old layout" \
	sh -c "! grep -rnE '(^|[^/])\\b(design|domain)\\.md' src ui | grep -v 'doc/design\\.md'"
# every "doc/design.md, section N[.M]" names a heading of doc/design.md
grep -rhoE 'doc/design\.md,? (section|sections) [0-9]+(\.[0-9]+)?' src ui tests Makefile.am 2>/dev/null |
	grep -oE '[0-9]+(\.[0-9]+)?$' | sort -u >"$TMP/cited"
missing=""
while read -r n; do
	case $n in
	*.*) grep -qE "^### $n " doc/design.md || missing="$missing $n" ;;
	*) grep -qE "^## $n\. " doc/design.md || missing="$missing $n" ;;
	esac
done <"$TMP/cited"
check "every cited section of doc/design.md exists ($(wc -l <"$TMP/cited") cited)" \
	[ -z "$missing" ]
[ -z "$missing" ] || echo "   missing:$missing"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_locale.sh: LANG=zh_CN.UTF-8 on a machine without that locale: gpuwiz
# says so in one line on stderr (the messages are English: the C library
# cannot give the catalogue's language) and names the ways out; --lang
# zh_CN shows Chinese all the same.  No line when the locale is there, for
# English, for a language without a catalogue, or when LC_ALL overrides.
# The machine without the locale: LOCPATH naming a directory that holds
# C.utf8 alone (glibc looks only there then).
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
: "${GPUWIZ_LOCALEDIR:?GPUWIZ_LOCALEDIR must point at a locale dir holding zh_CN/LC_MESSAGES/gpuwiz.mo}"
for d in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8; do
	[ -d "$d" ] && break
done
[ -d "$d" ] || { echo "SKIP: no compiled C.UTF-8 locale directory in /usr/lib/locale"; exit 77; }
mkdir -p "$TMP/loc" && cp -r "$d" "$TMP/loc/" || exit 99
# bare ENV... ARGS: gpuwiz without the zh_CN locale
bare() { run env -u LC_ALL -u LANGUAGE LOCPATH="$TMP/loc" "$@"; }

bare LANG=zh_CN.UTF-8 "$GPUWIZ" mmio --gpu l40s
check "no zh_CN locale: the command runs (exit 0)" [ "$rc" -eq 0 ]
check "no zh_CN locale: one line on stderr" err_one_line
check "the line names the locale and says English" errhas 'gpuwiz: the zh_CN.UTF-8 locale is not installed, so the messages are in English'
check "the line names the ways out: locale-gen, deps.sh, --lang zh_CN" sh -c \
	"grep -qF 'locale-gen' '$err' && grep -qF 'deps.sh' '$err' && grep -qF -- '--lang zh_CN)' '$err'"
check "stdout is the English explanation" has 'power of two'
bare LANG=zh_CN.UTF-8 "$GPUWIZ" --lang zh_CN mmio --gpu l40s
check "--lang zh_CN: Chinese without the locale" has '计算'
check "--lang zh_CN: no line" [ ! -s "$err" ]
bare LC_MESSAGES=zh_CN.utf8 "$GPUWIZ" --version
check "LC_MESSAGES=zh_CN.utf8 names it too" errhas 'the zh_CN.utf8 locale is not installed'
bare LANG=zh_CN.UTF-8 LC_ALL=C.UTF-8 "$GPUWIZ" --version
check "LC_ALL=C.UTF-8 over LANG: no line" [ ! -s "$err" ]
bare LANG=en_US.UTF-8 "$GPUWIZ" --version
check "English (en_US.UTF-8, missing): no line" [ ! -s "$err" ]
bare LANG=fr_FR.UTF-8 "$GPUWIZ" --version
check "a language without a catalogue: no line" [ ! -s "$err" ]
# with the locale generated (tests/deps.sh through deps.sh): no line
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	run env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" mmio --gpu l40s
	check "zh_CN.UTF-8 installed: Chinese, no line" sh -c "[ ! -s '$err' ] && grep -q '计算' '$out'"
fi
# the first README command (deps.sh) makes the locale; tests/deps.sh runs it
check "deps.sh generates zh_CN.UTF-8" sh -c \
	"grep -q 'locale-gen' '$SRC/deps.sh' && grep -qx '	ca-certificates openssh-client man-db locales' '$SRC/deps.sh'"
check "tests/deps.sh has no locale step of its own" sh -c "! grep -q 'locale-gen\\|locale.gen' '$SRC/tests/deps.sh'"
finish

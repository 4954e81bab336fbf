#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The licence (doc/design.md, "Licence and build options"): COPYING is the
# GNU GPL version 3; every source file the project wrote says so in its
# first two lines (SPDX-License-Identifier: GPL-3.0-or-later); --version
# names it (GPLv3+) in English and in Simplified Chinese.  The walk is of
# the source tree ($GW_SRCDIR: a git checkout or make distcheck's unpacked
# tarball), never of git's index.
#
#   sh tests/cli/test_licence.sh [DIR]   checks DIR's files instead (for a
#                                        check that the walk can fail)
. "$(dirname "$0")/lib.sh"
SRC=${1:-${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
SPDX='SPDX-License-Identifier: GPL-3.0-or-later'

# ---- COPYING -------------------------------------------------------------
if [ $# -eq 0 ]; then
	check "COPYING is there" [ -s "$SRC/COPYING" ]
	check "COPYING is the GNU GPL, version 3 (29 June 2007)" sh -c \
		"sed -n 1,3p '$SRC/COPYING' | tr -s ' ' | grep -qx ' *GNU GENERAL PUBLIC LICENSE' &&
		 sed -n 1,3p '$SRC/COPYING' | grep -q 'Version 3, 29 June 2007'"
	check "COPYING ends with the GPL's own closing lines" \
		grep -q '^<https://www.gnu.org/licenses/why-not-lgpl.html>.$' "$SRC/COPYING"
	# Debian's base-files ships the text: byte for byte where it is here
	if [ -f /usr/share/common-licenses/GPL-3 ]; then
		check "COPYING is /usr/share/common-licenses/GPL-3, byte for byte" \
			cmp -s "$SRC/COPYING" /usr/share/common-licenses/GPL-3
	fi
fi

# ---- the SPDX line ---------------------------------------------------------
# The project's sources: C, the .def lists, Go, shell, Python, the build
# files and the man page's source, and every other file that starts with
# "#!".  Not the test data (tests/fixtures, the fuzz seeds and regression
# inputs: provenance lists cover them), not what autotools, gettext or a
# build made (a build tree is any folder with a config.status), not git's.
sources() {
	find "$SRC" \
		\( -path "$SRC/.git" -o -path "$SRC/tests/fixtures" \
		   -o -path "$SRC/tests/fuzz/answers-seeds" -o -path "$SRC/tests/fuzz/linux-seeds" \
		   -o -path "$SRC/tests/fuzz/regressions" -o -path "$SRC/tests/fuzz/work" \
		   -o -path "$SRC/autom4te.cache" -o -path "$SRC/build-aux" -o -path "$SRC/m4" \
		   -o -path "$SRC/po" -o -path "$SRC/tests/locale" -o -path "$SRC/tests/tmp" \
		   -o -name __pycache__ \) -prune -o \
		-type d ! -path "$SRC" -exec test -e '{}/config.status' \; -prune -o \
		-type f -print | sed "s|^$SRC/||" | LC_ALL=C sort |
	while IFS= read -r f; do
		case $f in
		# generated at the top of an in-tree build
		configure|config.status|config.h|config.log|aclocal.m4|libtool|stamp-h1|doc/gpuwiz.1|*~) continue ;;
		*.c|*.h|*.def|*.go|*.sh|*.py|Makefile.am|*/Makefile.am|configure.ac|doc/gpuwiz.1.in)
			echo "$f" ;;
		*)
			[ "$(head -c 2 "$SRC/$f" 2>/dev/null)" = '#!' ] && echo "$f" ;;
		esac
	done
	# po/'s own script (po/ is gettext's otherwise)
	[ -f "$SRC/po/refresh.sh" ] && echo po/refresh.sh
}
sources >"$TMP/sources"
n=$(wc -l <"$TMP/sources")
if [ $# -eq 0 ]; then
	check "the walk finds the project's sources ($n files)" [ "$n" -gt 300 ]
	for f in src/cli/cli.c src/host/vsphere_api.def tests/vcsim/main.go configure.ac \
		Makefile.am doc/gpuwiz.1.in data/gen-gpus-ini.py tests/cli/lib.sh .ci/run \
		po/refresh.sh; do
		check "the walk takes $f" grep -qx "$f" "$TMP/sources"
	done
	check "the walk leaves out the fixtures and the fuzz seeds" sh -c \
		"! grep -qE '^tests/(fixtures|fuzz/(answers-seeds|linux-seeds|regressions))/' '$TMP/sources'"
fi
missing=""
while IFS= read -r f; do
	head -n 2 "$SRC/$f" | grep -qF "$SPDX" || missing="$missing $f"
done <"$TMP/sources"
check "every source file has '$SPDX' in its first two lines" [ -z "$missing" ]
[ -z "$missing" ] || echo "   without it:$missing"

# ---- no placeholder contact; the catalogue's header ---------------------------
if [ $# -eq 0 ]; then
	# (the name in two pieces, so that this file does not name it)
	grep -rlI "example"'\.invalid' "$SRC" --exclude-dir=.git --exclude-dir=_build \
		--exclude-dir=autom4te.cache --exclude='*~' >"$TMP/placeholder" 2>/dev/null
	check "no file of the tree names the placeholder contact host" [ ! -s "$TMP/placeholder" ]
	sed 's/^/   /' "$TMP/placeholder"
	version=$(sed -n 's/^AC_INIT(\[gpuwiz\], \[\([^]]*\)\].*/\1/p' "$SRC/configure.ac")
	bugs=$(sed -n 's/^AC_INIT(\[gpuwiz\], \[[^]]*\], \[\([^]]*\)\].*/\1/p' "$SRC/configure.ac")
	holder=$(sed -n 's/^COPYRIGHT_HOLDER = //p' "$SRC/po/Makevars")
	check "configure.ac: AC_INIT's version read ($version)" [ -n "$version" ]
	check "po/Makevars: a copyright holder ($holder)" [ -n "$holder" ]
	for po in "$SRC/po/zh_CN.po" "$SRC/po/gpuwiz.pot"; do
		# the .pot is made by make (distributed) or po/refresh.sh
		[ -f "$po" ] || continue
		b=po/$(basename "$po")
		sed -n '1,/^$/p' "$po" >"$TMP/header"
		check "$b: the copyright holder in the header" \
			grep -qE "^# Copyright \(C\) ([0-9]{4}|YEAR) $holder\.?\$" "$TMP/header"
		check "$b: distributed under the same license as the gpuwiz package" \
			grep -qx '# This file is distributed under the same license as the gpuwiz package.' "$TMP/header"
		check "$b: Report-Msgid-Bugs-To is AC_INIT's address ('$bugs')" \
			grep -qxF "\"Report-Msgid-Bugs-To: $bugs\\n\"" "$TMP/header"
	done
	check "po/zh_CN.po: the package and AC_INIT's version" \
		grep -qxF "\"Project-Id-Version: gpuwiz $version\\n\"" "$SRC/po/zh_CN.po"
fi

# ---- the walk fails where a line is missing -----------------------------------
if [ $# -eq 0 ]; then
	t=$TMP/tree
	mkdir -p "$t/src" "$t/tests/fixtures" "$t/tests/fuzz/regressions"
	printf '/* %s */\nint x;\n' "$SPDX" >"$t/src/ok.c"
	printf '#!/bin/sh\n# %s\n' "$SPDX" >"$t/ok-script"
	printf 'int y;\n' >"$t/src/bad.c"
	printf '#!/bin/sh\necho\n# %s\n' "$SPDX" >"$t/late-script"
	printf 'int z;\n' >"$t/tests/fixtures/data.c"
	printf 'int z;\n' >"$t/tests/fuzz/regressions/crash.c"
	sh "$0" "$t" >"$TMP/neg.out" 2>&1
	neg=$?
	check "a tree with a file without the line fails" [ $neg -ne 0 ]
	check "... naming that file and the script with the line too late" sh -c \
		"grep -q 'without it:.*src/bad.c' '$TMP/neg.out' && grep -q 'late-script' '$TMP/neg.out'"
	check "... and not the fixture, the fuzz input or the good files" sh -c \
		"! grep -qE 'fixtures/data.c|crash.c|ok.c|ok-script' '$TMP/neg.out'"
fi

# ---- --version ---------------------------------------------------------------
if [ $# -eq 0 ]; then
	run "$GPUWIZ" --version
	check "--version: exit 0" [ $rc -eq 0 ]
	check "--version: the GNU licence line" \
		grep -qx 'License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.' "$out"
	check "--version: the free-software line" \
		grep -qx 'This is free software: you are free to change and redistribute it.' "$out"
	zh_checks
	if [ "$ZH" = 1 ]; then
		zh "$GPUWIZ" --version
		check "zh_CN --version: exit 0" [ $rc -eq 0 ]
		check "zh_CN --version: the first two lines untranslated" sh -c \
			"sed -n 1p '$out' | grep -qE '^gpuwiz [0-9.]+\$' && sed -n 2p '$out' | grep -q '^Copyright (C) '"
		check "zh_CN --version: the licence line names GPLv3+ and the URL, in Chinese" sh -c \
			"sed -n 3p '$out' | grep -qF 'GPLv3+' && sed -n 3p '$out' | grep -qF '<https://gnu.org/licenses/gpl.html>' &&
			 sed -n 3p '$out' | grep -q '许可证'"
		check "zh_CN --version: the free-software line in Chinese" sh -c \
			"sed -n 4p '$out' | grep -q '自由软件'"
	fi
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The man page (doc/design.md, section 8.1): every option of the command table, the exit
# codes, the environment the sources read, and FILES with the configured
# directories (doc/gpuwiz.1 is made from doc/gpuwiz.1.in by make).
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd)
MAN=$BUILD/doc/gpuwiz.1
check "doc/gpuwiz.1 is built" [ -s "$MAN" ]
check "no @variable@ left in it" sh -c "! grep -q '@[a-zA-Z_]*@' '$MAN'"

# section NAME of the page, as lines
section() { sed -n "/^\\.SH \"*$1\"*\$/,/^\\.SH /p" "$MAN"; }

# ---- every option ----------------------------------------------------------
# the rows of optdefs[] in src/cli/opts.c: [OPT_GPU] = ITEM("gpu", ...),
# [OPT_UVM] = FLAG(...), ...
sed -n 's/^[[:space:]]*\[OPT_[A-Z0-9_]*\] = \(ITEM\|FLAG\|FN\|STR\)("\([a-z0-9-]*\)".*/\2/p' \
	"$SRC/src/cli/opts.c" >"$TMP/opts"
echo version >>"$TMP/opts"   # cli.c takes --version before the table
check "the option table read (more than 30 options)" [ "$(wc -l <"$TMP/opts")" -gt 30 ]
section OPTIONS | sed 's/\\-/-/g' >"$TMP/options"
missing=""
for o in $(cat "$TMP/opts"); do
	grep -qE "^\\.(B|BI|BR|TQ).*--$o( |\"|\$)" "$TMP/options" || missing="$missing --$o"
done
check "OPTIONS documents every option of src/cli/opts.c" [ -z "$missing" ]
[ -z "$missing" ] || echo "   missing:$missing"

# ---- exit codes --------------------------------------------------------------
section "EXIT STATUS" >"$TMP/exit"
for c in 0 1 2 129 130 143; do
	check "EXIT STATUS lists $c" grep -qE "^\\.B[R]? .*\\b$c\\b" "$TMP/exit"
done
# 131 (SIGQUIT) only once doc/design.md's exit table has it
if grep -q '131' "$SRC/doc/design.md"; then
	check "EXIT STATUS lists 131 (doc/design.md has it)" grep -q '131' "$TMP/exit"
fi

# ---- environment -------------------------------------------------------------
section ENVIRONMENT | sed 's/\\-/-/g' >"$TMP/env"
# every getenv("NAME") of the sources, except the ones every program reads
grep -rhoE 'getenv\("[A-Z_]+"\)' "$SRC/src" "$SRC/ui" | sed 's/getenv("\(.*\)")/\1/' |
	sort -u | grep -vxE 'HOME|PATH' >"$TMP/getenv"
missing=""
for v in $(cat "$TMP/getenv") LANG NO_COLOR; do
	grep -qE "^\\.BR? .*\\b$v\\b" "$TMP/env" || missing="$missing $v"
done
check "ENVIRONMENT names every variable the sources read" [ -z "$missing" ]
[ -z "$missing" ] || echo "   missing:$missing"

# ---- FILES: the configured prefix --------------------------------------------
prefix=$(sed -n "s/^prefix='\\(.*\\)'\$/\\1/p" "$BUILD/config.log" | head -n 1)
section FILES >"$TMP/files"
check "FILES: the table under the configured prefix ($prefix)" \
	grep -qx "\\.I $prefix/share/gpuwiz/gpus.ini" "$TMP/files"
check "FILES: the sample hosts there too" grep -qx "\\.I $prefix/share/gpuwiz/hosts/" "$TMP/files"

# ---- SEE ALSO: pages a Linux system has; BUGS: no placeholder -----------------
# ESXi's commands have no manual pages on Linux: named in plain text
section "SEE ALSO" | sed 's/\\-/-/g' >"$TMP/seealso"
check "SEE ALSO names pages" grep -qE '^\.BR [a-z]' "$TMP/seealso"
check "SEE ALSO: no ESXi command as a page (esxcli, vim-cmd, vmkfstools, vsish)" sh -c \
	"! grep -qE '^\.BR? \"?(esxcli|vim-cmd|vmkfstools|vsish|localcli)\"? +\(' '$TMP/seealso'"
sed -n 's/^\.BR \([a-z][a-z0-9_.-]*\) (\([1-8]\)).*/\1 \2/p' "$TMP/seealso" >"$TMP/pages"
# each page is one of a package Debian ships (openssh-client, pciutils,
# ansible-core), and, where man finds pages here, one it finds
check "SEE ALSO: only pages of known Linux packages" sh -c \
	"! grep -vxE 'ssh 1|lspci 8|ansible-playbook 1' '$TMP/pages'"
if command -v man >/dev/null 2>&1 && man -w ssh >/dev/null 2>&1; then
	while read -r page sec; do
		man -w "$sec" "$page" >/dev/null 2>&1 || echo "# NOTE: $page($sec) is not installed here"
	done <"$TMP/pages"
fi
bug=$(sed -n 's/^AC_INIT(\[gpuwiz\], \[[^]]*\], \[\([^]]*\)\].*/\1/p' "$SRC/configure.ac")
if [ -z "$bug" ]; then
	check "BUGS: no 'Report bugs to' line (AC_INIT names no address)" sh -c "! grep -q 'Report bugs to' '$MAN'"
else
	check "BUGS: AC_INIT's address" grep -qF "Report bugs to $bug." "$MAN"
fi
check "no placeholder address in the page" sh -c "! grep -q 'example[.]invalid' '$MAN'"

# ---- it renders ----------------------------------------------------------------
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man --warnings -l "$MAN" >"$TMP/man.txt" 2>"$TMP/man.err"
	check "man renders it" [ -s "$TMP/man.txt" ]
	# a long configured prefix (make distcheck's) is one word troff cannot
	# fit in 80 columns: that warning says nothing about the page
	grep -v 'cannot adjust line\|cannot break line' "$TMP/man.err" >"$TMP/man.err2" || :
	check "man renders it without warnings" [ ! -s "$TMP/man.err2" ]
	[ -s "$TMP/man.err" ] && head -n 5 "$TMP/man.err" | sed 's/^/   /'
fi

# ---- README: two set-up commands, the first one run-only -------------------
sed -n '/^## Set-up/,/^## /p' "$SRC/README.md" | grep '^    ' >"$TMP/setup"
check "README: exactly two set-up commands" [ "$(wc -l <"$TMP/setup")" -eq 2 ]
check "README: the first builds, installs and starts from deps.sh" sh -c \
	"head -n 1 '$TMP/setup' | grep -q '^    sh deps.sh && .*make install && gpuwiz\$'"
check "README: the second is the test suite from tests/deps.sh" sh -c \
	"sed -n 2p '$TMP/setup' | grep -qx '    sh tests/deps.sh && sh tests/run-all.sh'"
check "README: .ci/run runs the second command verbatim" sh -c \
	"sed -n '2s/^    //p' '$TMP/setup' >'$TMP/testcmd' && grep -qxFf '$TMP/testcmd' '$SRC/.ci/run'"
# the first screen: the quick start (the tarball, the set-up commands, a
# sample host and gpuwiz mmio) within the first 40 lines
head -n 40 "$SRC/README.md" >"$TMP/first"
check "README's first screen: configure, make, sudo make install" \
	grep -q '^    \./configure && make && sudo make install$' "$TMP/first"
check "README's first screen: the two set-up commands" sh -c \
	"[ \"\$(grep -cxFf '$TMP/setup' '$TMP/first')\" -eq 2 ]"
check "README's first screen: a sample host and gpuwiz mmio" sh -c \
	"grep -q '^    gpuwiz --sample-host esxi-l40s ' '$TMP/first' && grep -q '^    gpuwiz mmio --gpu a100-80g-pcie ' '$TMP/first'"
check "README: uninstall, licence and reporting sections" sh -c \
	"grep -qx '## Uninstall' '$SRC/README.md' && grep -qx '## Licence' '$SRC/README.md' && grep -qx '## Reporting problems' '$SRC/README.md'"
check "README: no placeholder address" sh -c "! grep -q 'example\\.invalid' '$SRC/README.md'"
check "README's links to doc/ name files that exist" sh -c \
	"for f in \$(grep -o '](doc/[a-z.]*)' '$SRC/README.md' | tr -d '()]' | sort -u); do [ -f '$SRC/'\$f ] || exit 1; done"
# the packages of an apt-get install list (after "install -y ...")
pkgs() {
	awk '/^apt-get install/ { on = 1 } on { print; if (!/\\$/) on = 0 }' "$1" |
		tr ' \t\\' '\n\n\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' |
		grep -vxE 'apt-get|install' | sort -u
}
pkgs "$SRC/deps.sh" >"$TMP/run-pkgs"; pkgs "$SRC/tests/deps.sh" >"$TMP/test-pkgs"
check "deps.sh: man-db, so that man gpuwiz works" grep -qx man-db "$TMP/run-pkgs"
check "deps.sh: no test toolchain" sh -c \
	"! grep -qE '^(golang|valgrind|openssh-server|python3-pyvmomi|tmux|libcmocka|pmccabe)' '$TMP/run-pkgs'"
check "tests/deps.sh runs deps.sh first (the second command alone is enough)" \
	grep -q '^sh "$(dirname "$0")/../deps.sh"$' "$SRC/tests/deps.sh"
check "tests/deps.sh does not repeat deps.sh's packages" sh -c \
	"[ -z \"\$(comm -12 '$TMP/run-pkgs' '$TMP/test-pkgs')\" ]"
check "make install installs the man page" grep -q '^man_MANS = doc/gpuwiz.1' "$SRC/Makefile.am"

finish

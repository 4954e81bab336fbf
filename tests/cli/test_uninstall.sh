#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_uninstall.sh: `make uninstall` leaves nothing (Makefile.am's
# uninstall-hook).  The build is installed into a fresh DESTDIR and
# uninstalled: no file and no folder of the install is left below the
# configured prefix (which stays: make distcheck looks into it).  Then again with another package's files in the same
# prefix (a program in bin, a folder under share): those stay, with their
# folders.  Run by `make installcheck` (so by make distcheck):
#   GW_MAKE=make GW_BUILDDIR=BUILD GW_PREFIX=P GW_BINDIR=B GW_DATADIR=D
. "$(dirname "$0")/lib.sh"
: "${GW_BUILDDIR:?set GW_BUILDDIR to the configured build tree}"
: "${GW_PREFIX:?set GW_PREFIX to the configured prefix}"
MAKE=${GW_MAKE:-make}
BINDIR=${GW_BINDIR:-$GW_PREFIX/bin}
DATADIR=${GW_DATADIR:-$GW_PREFIX/share}

# stage DESTDIR: install, then uninstall; the logs in $TMP
stage() {
	$MAKE -C "$GW_BUILDDIR" install DESTDIR="$1" >"$TMP/install.log" 2>&1 &&
	find "$1" -mindepth 1 | LC_ALL=C sort >"$TMP/installed" &&
	$MAKE -C "$GW_BUILDDIR" uninstall DESTDIR="$1" >"$TMP/uninstall.log" 2>&1
}
# what is left under DESTDIR, less the prefix and the folders above it
# (DESTDIR/usr for /usr/local)
left() {
	find "$1" -mindepth 1 | while IFS= read -r p; do
		case $GW_PREFIX/ in "${p#"$1"}"/*) continue ;; esac
		echo "$p"
	done
}

d=$TMP/fresh
mkdir -p "$d"
stage "$d"
st=$?
check "make install and make uninstall into a fresh DESTDIR" [ $st -eq 0 ]
[ $st -eq 0 ] || tail -n 20 "$TMP/install.log" "$TMP/uninstall.log" | sed 's/^/   /'
check "the install made the program, the table and folders ($(wc -l <"$TMP/installed") paths)" sh -c \
	"grep -q '/gpuwiz\$' '$TMP/installed' && grep -q '/gpus.ini\$' '$TMP/installed' &&
	 [ \$(wc -l <'$TMP/installed') -gt 20 ]"
left "$d" >"$TMP/left"
check "nothing is left: no file, no folder" [ ! -s "$TMP/left" ]
head -n 20 "$TMP/left" | sed 's/^/   left: /'

# a prefix shared with another package: its files and folders stay
d=$TMP/shared
mkdir -p "$d$BINDIR" "$d$DATADIR/other-package"
echo other >"$d$BINDIR/other-program"
echo other >"$d$DATADIR/other-package/data"
stage "$d"
check "make install and make uninstall into a shared prefix" [ $? -eq 0 ]
left "$d" >"$TMP/left"
printf '%s\n' "$d$BINDIR" "$d$BINDIR/other-program" "$d$DATADIR" \
	"$d$DATADIR/other-package" "$d$DATADIR/other-package/data" | LC_ALL=C sort >"$TMP/want"
# (the folders between the prefix and bin or share, when there are any)
for p in "$BINDIR" "$DATADIR"; do
	p=${p%/*}
	while [ "${#p}" -gt "${#GW_PREFIX}" ]; do echo "$d$p"; p=${p%/*}; done
done >>"$TMP/want"
LC_ALL=C sort -u "$TMP/want" -o "$TMP/want"
LC_ALL=C sort "$TMP/left" -o "$TMP/left"
check "another package's files and folders stay, nothing of gpuwiz's" cmp -s "$TMP/want" "$TMP/left"
cmp -s "$TMP/want" "$TMP/left" || diff "$TMP/want" "$TMP/left" | sed 's/^/   /'
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_installed.sh: an installed gpuwiz finds its vSphere module in the
# configured $(pkglibdir), not in a build tree (doc/design.md, section
# 2.5); a missing module fails a vSphere command with one line naming it.
# Run by `make installcheck` (so by make distcheck, on its own prefix):
#   GPUWIZ_BIN=PREFIX/bin/gpuwiz GW_PKGLIBDIR=PREFIX/lib/gpuwiz [GW_DESTDIR=D]
# Under a DESTDIR the program's compiled-in folder is not where the files
# are: GPUWIZ_MODULE_DIR then points at the staged one.
. "$(dirname "$0")/lib.sh"
: "${GW_PKGLIBDIR:?set GW_PKGLIBDIR to the installed \$(pkglibdir)}"
MOD=$GW_PKGLIBDIR/vsphere.so
unset GPUWIZ_MODULE_DIR
[ -z "${GW_DESTDIR:-}" ] || export GPUWIZ_MODULE_DIR="$GW_PKGLIBDIR"
export GPUWIZ_PASSWORD=x
vs_list() { env "$@" "$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --insecure --timeout 5 list; }

check "the program is installed ($GPUWIZ)" [ -x "$GPUWIZ" ]
if command -v ldd >/dev/null 2>&1; then
	check "the installed program links no libcurl/libxml2/OpenSSL" \
		sh -c "! ldd '$GPUWIZ' | grep -qE 'lib(curl|xml2|ssl|crypto)[.-]'"
fi
# configure --without-vsphere: no module installed, the API refused
if [ "${GW_WITH_VSPHERE:-yes}" = no ]; then
	check "no module is installed (--without-vsphere)" [ ! -e "$MOD" ]
	if command -v ldd >/dev/null 2>&1; then
		# every installed file ldd reads (the others are not ELF)
		find "$(dirname "$GPUWIZ")/.." -type f -exec sh -c \
			'ldd "$1" 2>/dev/null' sh '{}' ';' >"$TMP/ldd"
		check "no installed file needs libcurl/libxml2/OpenSSL" \
			sh -c "! grep -qE 'lib(curl|xml2|ssl|crypto)[.-]' '$TMP/ldd'"
	fi
	run vs_list
	check "a vSphere command: exit 2, one line: no vSphere module in this build" sh -c \
		"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'has no vSphere module' '$err'"
	run "$GPUWIZ" --version
	check "--version: the module not built" grep -qx 'vSphere API module: not built (configured --without-vsphere)' "$out"
	run "$GPUWIZ" mmio --gpu l40s
	check "a command without vSphere works" [ "$rc" -eq 0 ]
	finish
	exit
fi
check "the module is installed ($MOD)" [ -f "$MOD" ]
if [ -z "${GW_DESTDIR:-}" ] && command -v strings >/dev/null 2>&1; then
	check "the program names the installed module's folder" \
		sh -c "strings -a '$GPUWIZ' | grep -qxF '$MOD'"
fi
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" vs_list >/dev/null 2>"$TMP/vs.err"
vrc=$?
check "a vSphere command opens the installed module" sh -c "cat '$TMP'/ld.* | grep -qF 'file=$MOD '"
check "and gets as far as connecting (exit 2)" sh -c "[ $vrc -eq 2 ] && grep -q 'cannot connect' '$TMP/vs.err'"
mkdir -p "$TMP/none"
run vs_list GPUWIZ_MODULE_DIR="$TMP/none"
check "a missing module: exit 2, one line naming it" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'cannot load the vSphere module $TMP/none/vsphere.so' '$err'"
run "$GPUWIZ" mmio --gpu l40s
check "a command without vSphere works without the module" [ "$rc" -eq 0 ]

# No installed file names the machine it was built on: GW_INSTALL_ROOT is
# the installed tree ($(DESTDIR)$(prefix)), GW_BUILD_PATHS the source and
# build folders.  The program and the man page hold the configured
# folders ($(prefix)/...), which are where it runs, not where it was built:
# those are left out (under make distcheck the prefix is inside the
# unpacked source folder).
if [ -n "${GW_INSTALL_ROOT:-}" ] && [ -n "${GW_BUILD_PATHS:-}" ]; then
	: >"$TMP/buildpaths"
	# Each folder as given (abs_top_srcdir may be BUILD/../..) and
	# resolved, and the top folder holding it ("/work/", "/home/") unless
	# that is a system one: data copied from elsewhere on the build
	# machine names a sibling of the source tree, not the tree itself.
	for p in $GW_BUILD_PATHS; do
		printf '%s\n' "$p"
		r=$(cd "$p" 2>/dev/null && pwd -P) || continue
		printf '%s\n' "$r"
		top=/$(printf '%s' "$r" | cut -d/ -f2)/
		case $top in
		/usr/|/bin/|/sbin/|/lib/|/lib64/|/etc/|/opt/|/var/|/tmp/|/run/|/proc/|/sys/|/dev/|/boot/|/srv/|/mnt/|/media/|//) ;;
		*) printf '%s\n' "$top" ;;
		esac
	done | sort -u >"$TMP/buildpaths.in"
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		re=$(printf '%s' "$p" | sed 's/[.*^$[]/\\&/g')
		LC_ALL=C grep -raoH -- "$re[^[:space:][:cntrl:]\"'<>]*" "$GW_INSTALL_ROOT" |
			LC_ALL=C awk -v pre="${GW_PREFIX:-}" '{
				i = index($0, ":"); path = substr($0, i + 1)
				if (pre == "" || index(path, pre) != 1) print
			}' >>"$TMP/buildpaths"
	done <"$TMP/buildpaths.in"
	check "no installed file names a folder of the build machine" [ ! -s "$TMP/buildpaths" ]
	sort -u "$TMP/buildpaths" | head -n 20 | sed 's/^/   /'
fi
finish

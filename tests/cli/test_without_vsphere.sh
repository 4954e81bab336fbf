#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_without_vsphere.sh: a build configured --without-vsphere (doc/
# design.md, "Licence and build options"): no vsphere.so and nothing that
# needs libcurl, libxml2 or OpenSSL; every way to the vSphere API (gpuwiz
# vsphere, --url on any command or the wizard) refuses with one line,
# translated, exit 2, before a password is asked; --version says so; the
# rest works.  tests/run-all.sh builds such a tree and runs this; in a
# build with the module it is skipped.
. "$(dirname "$0")/lib.sh"
if [ "${GW_WITH_VSPHERE:-yes}" != no ]; then
	echo "SKIP: this build has the vSphere module (tests/run-all.sh runs this in a --without-vsphere build)"
	exit 77
fi
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd)
LINE='this build of gpuwiz has no vSphere module (configured --without-vsphere)'
unset GPUWIZ_PASSWORD GOVC_URL GOVC_USERNAME GOVC_PASSWORD VMWARE_HOST VMWARE_USER VMWARE_PASSWORD

check "no vsphere.so is built" [ ! -e "$BUILD/src/host/vsphere.so" ]
if command -v ldd >/dev/null 2>&1; then
	ldd "$GPUWIZ" >"$TMP/ldd" 2>&1
	check "the program needs no libcurl, libxml2 or OpenSSL" \
		sh -c "! grep -qE 'lib(curl|xml2|ssl|crypto)[.-]' '$TMP/ldd'"
fi
check "the build links none of them (the Makefile's libraries are empty)" sh -c \
	"grep -qx 'LIBCURL_LIBS = ' '$BUILD/Makefile' && grep -qx 'LIBXML2_LIBS = ' '$BUILD/Makefile' &&
	 grep -qx 'OPENSSL_LIBS = ' '$BUILD/Makefile'"

run "$GPUWIZ" --version
check "--version: exit 0, the GNU lines first" sh -c "[ $rc -eq 0 ] && head -n 1 '$out' | grep -q '^gpuwiz '"
check "--version: the module is not built" grep -qx 'vSphere API module: not built (configured --without-vsphere)' "$out"

# refused: LABEL ARGS...; one line naming it, exit 2, nothing on stdout,
# no password asked (stdin is a file that would answer)
refused() {
	label=$1; shift
	echo secret >"$TMP/stdin"
	run sh -c '"$@" <"$0"' "$TMP/stdin" "$GPUWIZ" "$@"
	check "$label: exit 2" [ $rc -eq 2 ]
	check "$label: one line, naming the missing module" sh -c \
		"[ \$(wc -l <'$err') -eq 1 ] && grep -qF '$LINE' '$err'"
	check "$label: nothing on stdout, no password prompt" sh -c \
		"[ ! -s '$out' ] && ! grep -qi password '$err'"
}
refused "gpuwiz vsphere list" vsphere --url https://vc01/sdk --user admin list
refused "gpuwiz vsphere (no --url)" vsphere list
refused "gpuwiz vsphere apply" vsphere --url https://vc01/sdk --user admin apply --vm vm1 --gpu l40s
refused "gpuwiz gpus --url" gpus --url https://vc01/sdk --user admin
refused "the wizard with --url" --url https://vc01/sdk --user admin

zh_checks
if [ "$ZH" = 1 ]; then
	zh "$GPUWIZ" vsphere --url https://vc01/sdk --user admin list
	check "zh_CN: the refusal in Chinese, exit 2" sh -c \
		"[ $rc -eq 2 ] && grep -qF '没有 vSphere 模块' '$err' && grep -qF -- '--without-vsphere' '$err'"
	zh "$GPUWIZ" --version
	check "zh_CN --version: the module not built, in Chinese" grep -qF 'vSphere API 模块：未构建' "$out"
fi

# the rest of gpuwiz works
run "$GPUWIZ" mmio --gpu l40s
check "gpuwiz mmio works" [ $rc -eq 0 ]
run "$GPUWIZ" gpus --sample-host esxi-l40s
check "a sample host works" [ $rc -eq 0 ]
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_startup.sh: start-up pays only for what a command uses
# (doc/design.md, section 2.5).  The program links none of libcurl,
# libxml2, libssl, libcrypto; --version initialises at most 15 libraries;
# commands that do not talk to vSphere never open the vSphere module, a
# vSphere command does (from the build tree, beside the program); a
# missing module, a file that is not one and a module of another build
# each fail the command with one line naming the file, exit 2.
. "$(dirname "$0")/lib.sh"
need_vsphere
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd)
MOD=$BUILD/src/host/vsphere.so
export GPUWIZ_PASSWORD=x
unset GPUWIZ_MODULE_DIR
command -v ldd >/dev/null 2>&1 || { echo "SKIP: ldd missing"; exit 77; }
# a vSphere command that gets as far as connecting: nothing listens on
# port 1, so with the module it fails to connect (exit 2)
# (vs_list VAR=VALUE...: with those in the environment)
vs_list() { env "$@" "$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --insecure --timeout 5 list; }
# opened IN: the files the dynamic loader opened for a command (LD_DEBUG)
opened() { LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" "$@" >/dev/null 2>&1; cat "$TMP"/ld.* 2>/dev/null; rm -f "$TMP"/ld.*; }

# ---- the program's own libraries ---------------------------------------------
ldd "$GPUWIZ" >"$TMP/ldd" 2>&1
check "ldd reads the program" grep -q 'libc\.so' "$TMP/ldd"
check "the program links no libcurl, libxml2, libssl, libcrypto" \
	sh -c "! grep -E 'lib(curl|xml2|ssl|crypto)[.-]' '$TMP/ldd'"
check "the module links them" sh -c "ldd '$MOD' | grep -q libcurl && ldd '$MOD' | grep -q libxml2"
# the symbols across the boundary (doc/design.md, section 2.5): the module
# exports its table only; the program exports its gw_* helpers for it,
# never a forwarder that would stand in for the module's own function
# (an ASan build adds an __odr_asan twin of each global)
# (ASan adds an __odr_asan twin of a global)
if command -v nm >/dev/null 2>&1; then
	nm -D --defined-only "$MOD" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^__odr_asan/ { print $3 }' >"$TMP/modsyms"
	check "the module exports its table only" [ "$(cat "$TMP/modsyms")" = gw_vs_module ]
	nm -D --defined-only "$GPUWIZ" | awk '{ print $NF }' >"$TMP/exesyms"
	check "the program exports gw_err_set for the module" grep -qx gw_err_set "$TMP/exesyms"
	check "the program exports no forwarder (gw_vs_connect)" sh -c "! grep -qx gw_vs_connect '$TMP/exesyms'"
fi
LD_DEBUG=libs LD_DEBUG_OUTPUT="$TMP/libs" "$GPUWIZ" --version >/dev/null 2>&1
n=$(cat "$TMP"/libs.* | grep -c 'calling init:')
check "--version initialises libraries ($n)" [ "$n" -gt 1 ]
if [ -n "${GW_SANITIZED:-}" ]; then
	echo "SKIP: the library count (a sanitizer build adds its runtimes)"
else
	check "--version initialises at most 15 libraries ($n)" [ "$n" -le 15 ]
fi
check "--version initialises no libcurl/libxml2/OpenSSL" \
	sh -c "! cat '$TMP'/libs.* | grep 'calling init:' | grep -qE 'lib(curl|xml2|ssl|crypto)[.-]'"

# ---- the module is opened by vSphere commands only -----------------------------
opened "$GPUWIZ" --version >"$TMP/f1"
check "--version does not open the module" sh -c "grep -q 'file=' '$TMP/f1' && ! grep -q vsphere.so '$TMP/f1'"
opened "$GPUWIZ" gpus --esxcli-file "$FIX/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt" >"$TMP/f2"
check "gpus --esxcli-file does not open the module" sh -c "! grep -q vsphere.so '$TMP/f2'"
opened "$GPUWIZ" mmio --gpu l40s >"$TMP/f3"
check "mmio does not open the module" sh -c "! grep -q vsphere.so '$TMP/f3'"
opened "$GPUWIZ" vsphere --user u list >"$TMP/f4"
check "a vSphere command refused before connecting does not open it" sh -c "! grep -q vsphere.so '$TMP/f4'"
opened vs_list >"$TMP/f5"
check "a vSphere command opens the build tree's module ($MOD)" grep -qF "file=$MOD " "$TMP/f5"
run vs_list
check "with the module it gets as far as connecting (exit 2)" sh -c "[ $rc -eq 2 ] && grep -q 'cannot connect' '$err' && ! grep -q 'module' '$err'"

# ---- a module that cannot be used: one line, exit 2 --------------------------------
mkdir -p "$TMP/none" "$TMP/junk"
run vs_list GPUWIZ_MODULE_DIR=$TMP/none
check "missing module: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
check "missing module: the line names the file and the reason" \
	grep -qF "cannot load the vSphere module $TMP/none/vsphere.so: cannot open shared object file" "$err"
check "missing module: says what to do" grep -qF "GPUWIZ_MODULE_DIR" "$err"
check "missing module: nothing on stdout" [ ! -s "$out" ]
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	run vs_list GPUWIZ_MODULE_DIR="$TMP/none" LC_ALL=zh_CN.UTF-8
	check "missing module, zh_CN: one line in Chinese naming the file" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF '无法加载 vSphere 模块 $TMP/none/vsphere.so：' '$err'"
else
	echo "SKIP: zh_CN.UTF-8 locale missing"
fi
echo 'not a module' >"$TMP/junk/vsphere.so"
run vs_list GPUWIZ_MODULE_DIR=$TMP/junk
check "not a module: exit 2, one line naming it" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'cannot load the vSphere module $TMP/junk/vsphere.so: ' '$err'"
run vs_list GPUWIZ_MODULE_DIR=$BUILD/tests/cli/fakemod-abi
check "another build's interface: refused, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'is from another build of gpuwiz (interface 999, this program needs' '$err'"
run vs_list GPUWIZ_MODULE_DIR=$BUILD/tests/cli/fakemod-ver
check "another build's version: refused, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'is from another build of gpuwiz (version 0.0-other, this program' '$err'"
run vs_list GPUWIZ_MODULE_DIR="$(dirname "$MOD")"
check "GPUWIZ_MODULE_DIR names the folder of a good module" sh -c "[ $rc -eq 2 ] && grep -q 'cannot connect' '$err'"

# ---- under valgrind: the module opened, or not found, leaks nothing -----------------
if valgrind_usable; then
	# vg_vs VAR=VALUE...: vs_list's command under memcheck
	vg_vs() { env "$@" "$VALGRIND" -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		"$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --insecure --timeout 5 list \
		>/dev/null 2>"$TMP/vg.err"
		[ $? -ne 99 ] || { cat "$TMP/vg.err"; return 1; }; }
	check "valgrind: a vSphere command through the module" vg_vs
	check "valgrind: the module missing" vg_vs GPUWIZ_MODULE_DIR="$TMP/none"
else
	echo "SKIP: valgrind (not installed, or a sanitizer build)"
fi
finish

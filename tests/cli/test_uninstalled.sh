#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_uninstalled.sh: the program carries no path of the build
# (doc/design.md, section 2.4: `strings` must not show
# SRCDIR/data/gpus.ini), and run uninstalled from its build tree it finds its table, the sample hosts, its vSphere
# module and its Chinese catalogue, with none of the variables the tests
# set.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SRC=$(cd "$SRC" && pwd -P)
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd -P)
command -v strings >/dev/null 2>&1 || { echo "SKIP: strings (binutils) missing"; exit 77; }

strings -a "$GPUWIZ" >"$TMP/strings.txt"
# (the installation prefix may lie under the source tree, as in make
# distcheck: the tree's own folders are what must not appear)
check "no source-tree path in the program ($SRC)" sh -c "! grep -qF -e '$SRC/data' -e '$SRC/src' -e '$SRC/tests' -e '$SRC/po' '$TMP/strings.txt'"
check "no build-tree path in the program ($BUILD)" sh -c "! grep -qF '$BUILD/' '$TMP/strings.txt' && ! grep -qxF '$BUILD' '$TMP/strings.txt'"

# bare: none of the tests' variables; run from elsewhere
bare() { (cd "$TMP" && env -u GPUWIZ_TABLE -u GPUWIZ_LOCALEDIR -u GPUWIZ_HOSTS_DIR \
	-u LANGUAGE "$@"); }
run bare "$GPUWIZ" mmio --gpu l40s
check "uninstalled: the table is found" sh -c "[ $rc -eq 0 ] && grep -q l40s '$out'"
run bare "$GPUWIZ" check --sample-host intel-2x-l40s
check "uninstalled: the sample hosts are found" [ "$rc" -eq 0 ]
# the vSphere module beside the program (BUILD/src/host/vsphere.so): a
# vSphere command gets as far as connecting (doc/design.md, section 2.5);
# a build without the module (--without-vsphere) has none to find
if [ "${GW_WITH_VSPHERE:-yes}" != no ]; then
	run bare env -u GPUWIZ_MODULE_DIR GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --insecure --timeout 5 list
	check "uninstalled: the vSphere module is found" sh -c "[ $rc -eq 2 ] && grep -q 'cannot connect' '$err' && ! grep -q 'module' '$err'"
fi
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	run bare env LC_ALL=zh_CN.UTF-8 "$GPUWIZ" check --sample-host intel-2x-l40s
	check "uninstalled: zh_CN.UTF-8 prints Chinese" sh -c "[ $rc -eq 0 ] && LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$out'"
	run bare env LC_ALL=zh_CN.UTF-8 "$GPUWIZ" mmio --gpu nosuch
	check "uninstalled: zh_CN.UTF-8 errors in Chinese" sh -c "[ $rc -eq 2 ] && LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$err'"
else
	echo "SKIP: zh_CN.UTF-8 locale missing"
fi
finish

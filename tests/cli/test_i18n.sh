#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line in Simplified Chinese (gettext catalogue from po/zh_CN.po).
. "$(dirname "$0")/lib.sh"

if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	echo "SKIP: the zh_CN.UTF-8 locale is not generated (locale-gen zh_CN.UTF-8)"
	exit 77
fi
: "${GPUWIZ_LOCALEDIR:?GPUWIZ_LOCALEDIR must point at a locale dir holding zh_CN/LC_MESSAGES/gpuwiz.mo}"
check "catalogue built" [ -f "$GPUWIZ_LOCALEDIR/zh_CN/LC_MESSAGES/gpuwiz.mo" ]

# LANG=zh_CN.UTF-8 gpuwiz mmio --gpu l40s explains the calculation in Chinese
out=$TMP/zh.out
env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" mmio --gpu l40s >"$out" 2>&1
rc=$?
check "zh: mmio exits 0" [ $rc -eq 0 ]
check "zh: keys stay untranslated" grep -q 'pciPassthru.64bitMMIOSizeGB = "128"' "$out"
check "zh: heading in Chinese" grep -q '计算' "$out"
check "zh: no English step text left" sh -c "! grep -qi 'power of two' '$out'"
# every non-key line of the explanation carries Chinese characters
check "zh: explanation lines are Chinese" sh -c "grep -v 'pciPassthru' '$out' | grep -v '^ *\$' | grep -v -e 'source' -e 'KB' | LC_ALL=C.UTF-8 grep -vP '[\x{4e00}-\x{9fff}]' | grep -q . && exit 1 || exit 0"

# --lang overrides the locale
env -u LC_ALL LANG=C.UTF-8 "$GPUWIZ" --lang zh_CN mmio --gpu l40s >"$out" 2>&1
check "--lang zh_CN from a C.UTF-8 locale" grep -q '计算' "$out"

# errors in Chinese, still one line, exit 2
env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" mmio --gpu nosuchgpu >"$TMP/o" 2>"$TMP/e"
rc=$?
check "zh: error exit 2" [ $rc -eq 2 ]
check "zh: error one line" [ "$(wc -l <"$TMP/e")" -eq 1 ]
check "zh: error names the GPU and is Chinese" sh -c "grep -q nosuchgpu '$TMP/e' && LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$TMP/e'"

# help in Chinese
env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" --help >"$out" 2>&1
check "zh: help translated" sh -c "LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$out'"

# host checks (doc/design.md, section 11): the status translated like the BIOS list, a FAIL
# row reads 失败 (not 错误), the title and status joined by a Chinese colon
env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" check --sample-host intel-iommu-off-kernel >"$out" 2>&1
rc=$?
check "zh check: a FAIL still exits 1" [ $rc -eq 1 ]
check "zh check: the FAIL row reads 失败" grep -q '^检查内核是否已启用 IOMMU：失败$' "$out"
check "zh check: PASS and WARN rows translated" sh -c "grep -q '：通过\$' '$out' && grep -q '：警告\$' '$out'"
check "zh check: no English status or 错误 left" sh -c "! grep -qE ' : (PASS|WARN|FAIL|INFO)\$|错误' '$out'"
check "zh check: the fix is 解决方法 as in the plan" grep -q '^  解决方法：' "$out"
env -u LC_ALL LANG=C.UTF-8 "$GPUWIZ" check --sample-host intel-iommu-off-kernel >"$out" 2>&1
check "C check: the English rows unchanged" grep -q '^Checking if IOMMU is enabled by kernel : FAIL$' "$out"

finish

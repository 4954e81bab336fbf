#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gpuwiz diagnose on a guide's wrong commands (doc/design.md, sections
# 15.10 and 15.11): seed 002's lines (a Chinese ESXi GPU guide) name
# each wrong command or setting, why, and the right one, in C and zh_CN;
# a Linux host's /etc/default/grub with intel_iommu=on (right there) is
# no finding.
. "$(dirname "$0")/lib.sh"

in=$TMP/in.txt
json_id() { # FILE: the ids of the findings, one a line
	python3 -c 'import json,sys; [print(f["id"]) for f in json.load(open(sys.argv[1]))["findings"]]' "$1"
}
ids_are() { [ "$(json_id "$1" | tr '\n' ' ')" = "$2 " ]; }

GUIDE=guides/seed-002-esxi-gpu-guide-zh-wrong-commands.txt
GRUB=guides/synthetic-linux-etc-default-grub-intel-iommu-on.txt
sample "$GUIDE" "$in"
run "$GPUWIZ" diagnose - <"$in"
check "guide: exit 0 (recognised)" [ "$rc" -eq 0 ]
check "guide: six findings" has "Known failures recognised in standard input: 6"
check "guide: the MMIO kernel setting, esxcli and esx.conf" has "[1] wrong-esxi-mmio-kernel-setting (line 11; 2 matching lines)"
check "guide: no such VMkernel setting, the .vmx key instead" sh -c "grep -q 'no setting pciPassthru64bitMMIOSizeMB' '$out' && grep -q 'set the window in its .vmx' '$out'"
check "guide: the IOMMU option" has "[2] wrong-esxi-iommu-option (line 3; 2 matching lines)"
check "guide: VT-d in the BIOS, the device listed" sh -c "grep -q 'VT-d (Intel) or AMD-Vi / IOMMU (AMD) in the host.s BIOS/UEFI' '$out' && grep -q 'esxcli hardware pci pcipassthru list shows it enabled' '$out'"
check "guide: Linux parameters in boot.cfg" has "[3] wrong-esxi-linux-iommu-param (line 4)"
check "guide: -e false is not ASPM" sh -c "grep -q 'wrong-passthru-off-for-aspm (line 15)' '$out' && grep -q 'does not turn ASPM' '$out'"
check "guide: 2 GB for a 12 GB RTX 3060: 32" sh -c "grep -q 'wrong-mmio-size (line 20)' '$out' && grep -q 'pciPassthru.64bitMMIOSizeGB = \"32\"' '$out'"
check "guide: MMIO by the model" has "[6] wrong-mmio-by-model (line 6)"
check "guide: the sources" sh -c "grep -q 'Broadcom KB 323402' '$out' && grep -q 'Linux kernel documentation' '$out' && grep -q 'ESXi esxcli reference' '$out'"
run "$GPUWIZ" diagnose --json "$in"
check "guide --json: the ids in order" ids_are "$out" "wrong-esxi-mmio-kernel-setting wrong-esxi-iommu-option wrong-esxi-linux-iommu-param wrong-passthru-off-for-aspm wrong-mmio-size wrong-mmio-by-model"
check "guide --json: the size the rule gives" has '"mmio_size_gb": 32'

# a Linux host's grub: intel_iommu=on is right there
sample "$GRUB" "$in"
run "$GPUWIZ" diagnose "$in"
check "grub: nothing recognised, exit 1" sh -c "[ $rc -eq 1 ] && grep -q 'No known failure recognised' '$out'"
# the same line beside esxcli lines stays Linux's
{ echo 'esxcli hardware pci pcipassthru list'; cat "$in"; } >"$TMP/mixed.txt"
run "$GPUWIZ" diagnose "$TMP/mixed.txt"
check "grub beside esxcli: not flagged" [ "$rc" -eq 1 ]
# ESXi's boot.cfg: flagged
printf '%s\n' 'bootstate=0' 'title=Loading VMware ESXi' 'kernel=b.b00' 'kernelopt=autoPartition=FALSE intel_iommu=on iommu=pt' >"$in"
run "$GPUWIZ" diagnose --json "$in"
check "boot.cfg: flagged" ids_are "$out" wrong-esxi-linux-iommu-param

# zh_CN
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ]; then
	zh() { env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" "$@"; }
	sample "$GUIDE" "$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: the MMIO kernel setting in Chinese" sh -c "grep -q 'VMkernel 没有 pciPassthru64bitMMIOSizeMB 这个设置' '$TMP/zh' && grep -q wrong-esxi-mmio-kernel-setting '$TMP/zh'"
	check "zh: VT-d in the BIOS in Chinese" grep -q 'BIOS/UEFI 设置中打开 VT-d' "$TMP/zh"
	check "zh: the Linux parameters in Chinese" grep -q 'intel_iommu=on、amd_iommu=on 和 iommu=pt 是 Linux 内核参数' "$TMP/zh"
	check "zh: -e false in Chinese" grep -q '并不会关闭 ASPM' "$TMP/zh"
	check "zh: 32 for the RTX 3060 in Chinese" sh -c "grep -q '对文中所说的 12 GB GPU 太小' '$TMP/zh' && grep -q 'pciPassthru.64bitMMIOSizeGB = \"32\"' '$TMP/zh'"
	check "zh: the model in Chinese" grep -q '与所运行的模型' "$TMP/zh"
	sample "$GRUB" "$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: grub not flagged" sh -c "! grep -q wrong-esxi-linux-iommu-param '$TMP/zh'"
else
	echo "# zh_CN checks skipped (no zh_CN.UTF-8 locale or GPUWIZ_LOCALEDIR)"
fi

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gpuwiz diagnose through the real binary: the expert rules (the PCI
# hole, a decimal id that finds no device, every vGPU pool cause, the
# seed's NCCL failure over several lines, with and without the VM's .vmx,
# the vGPU plugin, the Chinese vSphere Client's wordings, out of interrupt
# vectors), in text and JSON, in C and zh_CN (doc/design.md, section
# 15.10).  Lines marked synthetic are
# written for these tests; the NCCL block is the seed's fixture.
. "$(dirname "$0")/lib.sh"

in=$TMP/in.txt
json_id() { # FILE: the ids of the findings, one a line
	python3 -c 'import json,sys; [print(f["id"]) for f in json.load(open(sys.argv[1]))["findings"]]' "$1"
}
ids_are() { [ "$(json_id "$1" | tr '\n' ' ')" = "$2 " ]; }

# synthetic: the PCI hole message with a device address
printf '%s\n' '2025-02-11T08:01:02.345Z In(05) vmx - [msg.pciPassthru.mmioOutsidePCIHole] PCIPassthru: device 0000:3b:00.0 MMIO is outside of the PCI Hole' \
	"Module 'DevicePowerOn' power on failed." >"$in"
run "$GPUWIZ" diagnose "$in"
check "pci hole: exit 0 (a failure recognised)" [ "$rc" -eq 0 ]
check "pci hole: the rule id" has "mmio-outside-pci-hole"
check "pci hole: the device from the line" has "0000:3b:00.0"
check "pci hole: the fix" has 'pciHole.start = "2048"'
check "pci hole: the generic power-on finding left out" sh -c "! grep -q poweron-failed '$out'"
run "$GPUWIZ" diagnose --json "$in"
check "pci hole --json: one finding, the id" ids_are "$out" mmio-outside-pci-hole

# synthetic: "No device hints found" with the id already decimal
printf '%s\n' '2024-01-03T10:22:33.444Z In(05) vmx - AH No device hints found' \
	'pciPassthru0.id = "00000:066:00.0"' >"$in"
run "$GPUWIZ" diagnose --json - <"$in"
check "decimal id --json: its own id" ids_are "$out" passthru-id-not-found
check "decimal id: no hex advice" sh -c "! grep -q 'becomes' '$out'"
check "decimal id: the other causes" sh -c "grep -q 'not enabled for passthrough' '$out' && grep -q systemId '$out'"
# the hex id keeps the hex rule
printf '%s\n' 'AH No device hints found' 'pciPassthru0.id = "0000:42:00.0"' >"$in"
run "$GPUWIZ" diagnose "$in"
check "hex id: still passthru-id-hex" sh -c "grep -q 'passthru-id-hex' '$out' && grep -q '00000:066:00.0' '$out'"

# synthetic: the vSphere task error of the vGPU pool
printf '%s\n' 'Failed - The amount of graphics resource available in the parent resource pool is insufficient for the operation.' >"$in"
run "$GPUWIZ" diagnose "$in"
check "vgpu pool: every cause" sh -c "grep -q 'Shared Direct' '$out' && grep -q 'as many vGPUs' '$out' && grep -q 'another vGPU profile' '$out' && grep -q 'vGPU manager' '$out'"
check "vgpu pool: nvidia-smi vgpu in the fix" has "nvidia-smi vgpu"

# the seed's log block, and the CUDA line alone with NCCL on another line
# nothing in the seed's block shows a vGPU: a question, not the vGPU fix
sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$in"
run "$GPUWIZ" diagnose "$in"
check "nccl seed alone: a question" sh -c "grep -q 'nccl-operation-not-supported (line 2)' '$out' && grep -q 'Are the GPUs vGPUs?' '$out'"
check "nccl seed alone: how to tell" sh -c "grep -q 'Virtualization Mode' '$out' && grep -q 'NCCL_DEBUG=INFO' '$out' && grep -q -- '--vmx VM.vmx' '$out'"
check "nccl seed: no internal tag in the source" sh -c "! grep -qi 'seed' '$out'"
# the VM's .vmx given: two whole-framebuffer vGPUs, two fractional ones,
# a DirectPath GPU
run "$GPUWIZ" diagnose "$in" --vmx "$FIX/doctor/synthetic-vm-2x-vgpu-nvidia-l40s-48c.vmx"
check "nccl --vmx (2 x 48c): the vGPU fix" sh -c "grep -q 'nccl-vgpu-uvm (line 2)' '$out' && grep -q 'EngineCore failed to start' '$out' && grep -q 'pciPassthruN.cfg.enable_uvm' '$out'"
run "$GPUWIZ" diagnose --json "$in" --vmx "$FIX/doctor/synthetic-vm-2x-vgpu-nvidia-l40s-24c.vmx"
check "nccl --vmx (2 x 24c) --json: enable_uvm alone does not help" sh -c "grep -q '\"nccl-vgpu-uvm\"' '$out' && grep -q 'enable_uvm alone does not help' '$out' && grep -q '(nvidia_l40s-48c) or a MIG-backed one' '$out'"
run "$GPUWIZ" diagnose "$in" --vmx "$FIX/doctor/synthetic-vm-l40s-directpath-no-vgpu.vmx"
check "nccl --vmx (DirectPath): not a vGPU matter" sh -c "grep -q 'nccl-operation-not-supported' '$out' && grep -q 'has no vGPU' '$out' && ! grep -q 'enable_uvm = ' '$out'"
run "$GPUWIZ" diagnose "$in" --vmx "$TMP/none.vmx"
check "nccl --vmx missing: exit 2, one line naming it, nothing on stdout" sh -c "[ $rc -eq 2 ] && grep -q 'none.vmx' '$err' && [ \$(wc -l <'$err') -eq 1 ] && [ ! -s '$out' ]"
run "$GPUWIZ" diagnose "$in" --vmx "$in"
check "nccl --vmx not a .vmx: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'not a .vmx' '$err'"
printf '%s\n' "Cuda failure 'operation not supported'" 'ncclCommInitRank failed: unhandled cuda error' 'GPU 0: Virtualization Mode : VGPU' >"$in"
run "$GPUWIZ" diagnose --json "$in"
check "nccl over two lines, vGPU shown --json" sh -c "grep -q '\"nccl-vgpu-uvm\"' '$out' && grep -q '\"line_number\": 1' '$out'"

# the vGPU plugin: the vSphere Client's error (a real post title; the
# Chinese client's wording from a real issue), a vmware.log with the
# plugin's own line; the causes in order, each with its check
for f in blog-title-could-not-initialize-plugin-libnvidia-vgx-a30-sriov-off.txt \
	vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt \
	synthetic-vmware-log-vgpu-plugin-vmiop-init-failed-a100.txt; do
	sample "vmwarelog/$f" "$in"
	run "$GPUWIZ" diagnose --json "$in"
	check "vgpu plugin ($f) --json: one finding" ids_are "$out" vgpu-plugin-init
done
sample vmwarelog/vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt "$in"
run "$GPUWIZ" diagnose "$in"
check "vgpu plugin: the profile, the four checks in order" sh -c "grep -q 'the vGPU nvidia_rtxa5000-1b' '$out' && grep -q '(1) nvidia-smi -q must show Host VGPU Mode : SR-IOV.*(2) esxcli graphics host get.*(3) esxcli software vib list | grep -i nvidia.*(4) nvidia-smi -q -d ECC' '$out'"
# the Chinese vSphere Client's DevicePowerOn error: the English rule's
sample vmwarelog/vsphere-client-zh-devicepoweron-failed-esxi-gpu-guide.txt "$in"
run "$GPUWIZ" diagnose --json "$in"
check "zh DevicePowerOn wording --json: poweron-failed" ids_are "$out" poweron-failed
# out of interrupt vectors (the vSphere documentation's lines)
sample vmwarelog/vsphere-doc-sriov-vf-failed-to-register-interrupt-out-of-vectors.txt "$in"
run "$GPUWIZ" diagnose "$in"
check "interrupt vectors: the rule, both lines" has "interrupt-vectors (line 1; 2 matching lines)"
check "interrupt vectors: the documented fix" sh -c "grep -q 'SR-IOV virtual functions' '$out' && grep -q 'Broadcom KB 313395' '$out'"
printf '%s\n' 'NCCL INFO Using network Socket' 'setsockopt: Operation not supported' >"$in"
run "$GPUWIZ" diagnose "$in"
check "plain 'operation not supported': not the NCCL rule" sh -c "[ $rc -eq 1 ] && ! grep -q nccl-vgpu-uvm '$out'"

# seed 000's vSphere CPI lines (a BOSH director's log): the Tanzu route,
# the VM type's fix and Apply Changes, not the generic vmware.log advice
sample doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt "$in"
run "$GPUWIZ" diagnose "$in"
check "bosh cpi: exit 0" [ "$rc" -eq 0 ]
check "bosh cpi: the rule" has "bosh-cpi-poweron-failed (line 1; 2 matching lines)"
check "bosh cpi: the Tanzu route and Apply Changes" sh -c "grep -q 'This is the Tanzu route' '$out' && grep -q 'Apply Changes in Ops Manager' '$out'"
check "bosh cpi: no vmware.log to look in, no generic finding" sh -c "! grep -q -e 'Look in the VM' -e poweron-failed\$ -e '^\[2\]' '$out'"
run "$GPUWIZ" diagnose --json "$in"
check "bosh cpi --json: one finding, its id" ids_are "$out" bosh-cpi-poweron-failed

# nvidia-smi -q from a vGPU guest: Restricted is a finding, the grace
# period (the real capture) is not
run "$GPUWIZ" diagnose --json "$FIX/nvidia-smi/synthetic-rtxa6000-vgpu-guest-bar1-64g-restricted.txt"
check "licence restricted --json" ids_are "$out" vgpu-license-restricted
run "$GPUWIZ" diagnose "$FIX/nvidia-smi/rtxa6000-24q-vgpu-guest.txt"
check "licence grace period: no finding" [ "$rc" -eq 1 ]

# zh_CN
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ]; then
	zh() { env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" "$@"; }
	printf '%s\n' 'msg.pciPassthru.mmioOutsidePCIHole: device 0000:3b:00.0' >"$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: pci hole in Chinese, keys kept" sh -c "grep -q 'PCI 孔' '$TMP/zh' && grep -q 'pciHole.start = \"2048\"' '$TMP/zh' && grep -q mmio-outside-pci-hole '$TMP/zh'"
	printf '%s\n' 'AH No device hints found' 'pciPassthru0.id = "00000:066:00.0"' >"$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: decimal id in Chinese" sh -c "grep -q '十进制格式' '$TMP/zh' && grep -q '00000:066:00.0' '$TMP/zh'"
	printf '%s\n' 'The amount of graphics resource available in the parent resource pool is insufficient' >"$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: vgpu pool in Chinese" grep -q '另一种 vGPU 配置文件' "$TMP/zh"
	zh diagnose "$FIX/nvidia-smi/synthetic-rtxa6000-vgpu-guest-bar1-64g-restricted.txt" >"$TMP/zh" 2>&1
	check "zh: licence restricted in Chinese" grep -q '宽限期已结束' "$TMP/zh"
	sample doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt "$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: bosh cpi in Chinese" sh -c "grep -q '这是 Tanzu 路线' '$TMP/zh' && grep -q 'Apply Changes' '$TMP/zh' && grep -q bosh-cpi-poweron-failed '$TMP/zh'"
	sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$in"
	zh diagnose --json "$in" --vmx "$FIX/doctor/synthetic-vm-2x-vgpu-nvidia-l40s-48c.vmx" >"$TMP/zh" 2>&1
	check "zh --json --vmx: the id stays, the cause is Chinese" sh -c "grep -q '\"nccl-vgpu-uvm\"' '$TMP/zh' && grep -q 'vLLM 的引擎无法启动' '$TMP/zh'"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: the NCCL question in Chinese" sh -c "grep -q '这些 GPU 是 vGPU 吗' '$TMP/zh' && grep -q nccl-operation-not-supported '$TMP/zh'"
	zh diagnose "$in" --vmx "$FIX/doctor/synthetic-vm-2x-vgpu-nvidia-l40s-24c.vmx" >"$TMP/zh" 2>&1
	check "zh: fractional vGPU in Chinese" sh -c "grep -q '仅设置 enable_uvm 无济于事' '$TMP/zh' && grep -q 'nvidia_l40s-48c' '$TMP/zh'"
	sample vmwarelog/vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt "$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: vgpu plugin in Chinese" sh -c "grep -q '主机 BIOS 中未开启' '$TMP/zh' && grep -q 'esxcli graphics host get' '$TMP/zh' && grep -q vgpu-plugin-init '$TMP/zh'"
	sample vmwarelog/vsphere-doc-sriov-vf-failed-to-register-interrupt-out-of-vectors.txt "$in"
	zh diagnose "$in" >"$TMP/zh" 2>&1
	check "zh: interrupt vectors in Chinese" sh -c "grep -q '中断向量' '$TMP/zh' && grep -q interrupt-vectors '$TMP/zh'"
else
	echo "# zh_CN checks skipped (no zh_CN.UTF-8 locale or GPUWIZ_LOCALEDIR)"
fi

finish

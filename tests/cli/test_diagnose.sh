#!/bin/sh
# gpuwiz diagnose through the real binary: the expert rules (the PCI
# hole, a decimal id that finds no device, every vGPU pool cause, the
# seed's NCCL failure over several lines), in text and JSON, in C and
# zh_CN (doc/design.md, section 15.10).  Lines marked synthetic are
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
sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$in"
run "$GPUWIZ" diagnose "$in"
check "nccl seed: recognised" has "nccl-vgpu-uvm"
check "nccl seed: vLLM's context" has "EngineCore failed to start"
check "nccl seed: no internal tag in the source" sh -c "! grep -qi 'seed' '$out'"
printf '%s\n' "Cuda failure 'operation not supported'" 'ncclCommInitRank failed: unhandled cuda error' >"$in"
run "$GPUWIZ" diagnose --json "$in"
check "nccl over two lines --json" sh -c "grep -q '\"nccl-vgpu-uvm\"' '$out' && grep -q '\"line_number\": 1' '$out'"
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
	zh diagnose --json "$in" >"$TMP/zh" 2>&1
	check "zh --json: the id stays, the cause is Chinese" sh -c "grep -q '\"nccl-vgpu-uvm\"' '$TMP/zh' && grep -q 'vLLM 的引擎无法启动' '$TMP/zh'"
else
	echo "# zh_CN checks skipped (no zh_CN.UTF-8 locale or GPUWIZ_LOCALEDIR)"
fi

finish

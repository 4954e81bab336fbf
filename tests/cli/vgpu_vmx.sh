# SPDX-License-Identifier: GPL-3.0-or-later
# vgpu_vmx.sh: a vGPU VM for the seed-001 tests (sourced after lib.sh).
# vgpu_vmx DEST: the esxi-l40s sample's llm-train.vmx (an ESXi 8.0U2 VM
# with one L40S in DirectPath I/O; its first comment line stays) with its
# DirectPath L40S block replaced by two L40S vGPUs, as the vSphere Client
# adds them (pciPassthruN.present + pciPassthruN.vgpu, the profile the
# API's VmiopBackingInfo names), and the 64-bit MMIO window the rule gives
# for them (2 x 48 GB = 96 -> 256 GB; Broadcom KB 323402): a VM that
# powers on and whose vLLM crash-loops in NCCL init until enable_uvm.
VGPU_SRC=$(cd "$(dirname "$0")/../.." && pwd)/data/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx
vgpu_vmx() {
	sed -e '/^pciPassthru0\./d' \
	    -e 's/^pciPassthru\.64bitMMIOSizeGB = "128"$/pciPassthru.64bitMMIOSizeGB = "256"/' \
	    "$VGPU_SRC" >"$1"
	printf '%s\n' 'pciPassthru0.present = "TRUE"' \
	    'pciPassthru0.vgpu = "nvidia_l40s-24c"' \
	    'pciPassthru1.present = "TRUE"' \
	    'pciPassthru1.vgpu = "nvidia_l40s-24c"' >>"$1"
}

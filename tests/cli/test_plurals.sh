#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A count's words follow the count (P_, ngettext; src/core/gw.h): "1 GPU
# has", "2 GPUs have", in English and in Simplified Chinese (one form,
# Plural-Forms nplurals=1), on real inputs: a Workstation .vmx fixture, the
# esxi-l40s sample host's llm-train.vmx made a two-vGPU VM (vgpu_vmx.sh),
# a fixture with malformed lines.  The stub check ("GPU(s)") is in
# test_po.sh; the SSH host's VM counts in test_ssh.sh, the vSphere
# server's in test_vsphere.sh, the storage guard's in tests/unit/host/
# test_runner.c.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vgpu_vmx.sh"
zh_checks

sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/hw21.vmx"
vgpu_vmx "$TMP/two-vgpus.vmx"
SYSID=5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c

# in_C DESC TEXT CMD...: CMD in C.UTF-8 prints TEXT (stdout or stderr)
in_C() {
	d=$1 t=$2; shift 2
	run "$@"
	if grep -qF -- "$t" "$out" "$err"; then ok "C: $d"
	else nok "C: $d" "$(cat "$out" "$err" | head -n 20)"; fi
}
# in_zh DESC TEXT CMD...: CMD in zh_CN.UTF-8 prints TEXT
in_zh() {
	[ "$ZH" = 1 ] || return 0
	d=$1 t=$2; shift 2
	zh "$@"
	if grep -qF -- "$t" "$out" "$err"; then ok "zh: $d"
	else nok "zh: $d" "$(cat "$out" "$err" | head -n 20)"; fi
}
# not_in_C DESC TEXT CMD...: CMD in C.UTF-8 does not print TEXT
not_in_C() {
	d=$1 t=$2; shift 2
	run "$@"
	if grep -qF -- "$t" "$out" "$err"; then nok "C: $d" "$(grep -F -- "$t" "$out" "$err")"
	else ok "C: $d"; fi
}

# ---- a passthrough GPU without a host address (plan finding) --------------
in_C "1 GPU has no address, it is counted" \
	'WARN  1 passthrough GPU has no host PCI address: it is counted for MMIO but not written' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s
in_C "2 GPUs have no address, they are counted" \
	'WARN  2 passthrough GPUs have no host PCI address: they are counted for MMIO but not written' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s=2
in_zh "1 个直通 GPU" '1 个直通 GPU 没有主机 PCI 地址：计入 MMIO，但不会写入设备块' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s
in_zh "2 个直通 GPU" '2 个直通 GPU 没有主机 PCI 地址：计入 MMIO，但不会写入设备块' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s=2

# ---- unified memory on the VM's vGPUs (plan finding) -----------------------
in_C "UVM on 1 vGPU" 'INFO  Unified memory on 1 vGPU: NCCL 2.27' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-48c --uvm
in_C "UVM on 2 vGPUs" 'INFO  Unified memory on 2 vGPUs: NCCL 2.27' \
	"$GPUWIZ" vmx "$TMP/two-vgpus.vmx" --uvm
in_zh "UVM on 1 vGPU" '为 1 个 vGPU 启用统一内存' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-48c --uvm
in_zh "UVM on 2 vGPUs" '为 2 个 vGPU 启用统一内存' \
	"$GPUWIZ" vmx "$TMP/two-vgpus.vmx" --uvm

# ---- a list of profile names: the form follows how many names ------------
in_C "one fractional profile is not one" \
	'FAIL  2 vGPUs in one VM on ESXi 7.0U3: vSphere 7.x supports several vGPUs in a VM only with C-series profiles that own the whole GPU, and nvidia_l40s-24c is not one' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c=2 --esxi 7.0U3
in_C "two fractional profiles are not" \
	'and nvidia_l40s-24c, nvidia_l40s-12c are not' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c --vgpu nvidia_l40s-12c --esxi 7.0U3
in_C "one profile has a part of a GPU" \
	'fix: nvidia_l40s-24c has only a part of a GPU, and unified memory' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c
in_C "two profiles have a part of a GPU each" \
	'fix: nvidia_l40s-24c, nvidia_l40s-12c have only a part of a GPU each, and unified memory' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c --vgpu nvidia_l40s-12c
in_C "UVM: two profiles have a part of one each" \
	'MIG-backed vGPUs; nvidia_l40s-24c, nvidia_l40s-12c have a part of one each, so NCCL' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c --vgpu nvidia_l40s-12c --uvm
in_zh "nvidia_l40s-24c 不是" '而 nvidia_l40s-24c 不是' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c=2 --esxi 7.0U3
in_zh "nvidia_l40s-24c, nvidia_l40s-12c 不是" '而 nvidia_l40s-24c, nvidia_l40s-12c 不是' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --vgpu nvidia_l40s-24c --vgpu nvidia_l40s-12c --esxi 7.0U3

# ---- more --bdf than passthrough GPUs (two counts, each its own form) ------
in_C "2 addresses, only 1 GPU is added" \
	'--bdf: 2 host PCI addresses given but only 1 passthrough GPU is being added' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s --bdf 0000:3b:00.0 --bdf 0000:5e:00.0 --system-id "$SYSID"
check "C: refused, exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
in_C "3 addresses, only 2 GPUs are added" \
	'--bdf: 3 host PCI addresses given but only 2 passthrough GPUs are being added' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s=2 --bdf 0000:3b:00.0 --bdf 0000:5e:00.0 --bdf 0000:86:00.0 --system-id "$SYSID"
in_zh "2 个地址，1 个 GPU" '--bdf: 给出了 2 个主机 PCI 地址，但只添加 1 个直通 GPU' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s --bdf 0000:3b:00.0 --bdf 0000:5e:00.0 --system-id "$SYSID"
in_zh "3 个地址，2 个 GPU" '--bdf: 给出了 3 个主机 PCI 地址，但只添加 2 个直通 GPU' \
	"$GPUWIZ" vmx "$TMP/hw21.vmx" --gpu l40s=2 --bdf 0000:3b:00.0 --bdf 0000:5e:00.0 --bdf 0000:86:00.0 --system-id "$SYSID"

# ---- a thumbprint of the wrong length (refused before any connection) ------
in_C "got 1 byte" '32 bytes in hex ("AA:BB:..."), got 1 byte' \
	env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user u --thumbprint AA list
not_in_C "not '1 bytes'" 'got 1 bytes' \
	env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user u --thumbprint AA list
in_C "got 2 bytes" '32 bytes in hex ("AA:BB:..."), got 2 bytes' \
	env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user u --thumbprint AA:BB list
in_zh "实际为 1 字节" '实际为 1 字节' \
	env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user u --thumbprint AA list
in_zh "实际为 2 字节" '实际为 2 字节' \
	env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user u --thumbprint AA:BB list

# ---- vmx on several files: how many failed, of how many --------------------
mkdir -p "$TMP/one"
sample vmx/synthetic-malformed-lines.vmx "$TMP/one/bad.vmx"
cp "$TMP/one/bad.vmx" "$TMP/bad2.vmx"
in_C "1 of 1 file failed (a folder of one)" '1 of 1 file failed (each is named above).' \
	"$GPUWIZ" vmx "$TMP/one" --gpu l40s
in_C "2 of 3 files failed" '2 of 3 files failed (each is named above).' \
	"$GPUWIZ" vmx "$TMP/one" "$TMP/bad2.vmx" "$TMP/hw21.vmx" --gpu l40s
in_zh "1 个文件中有 1 个失败" '1 个文件中有 1 个失败' \
	"$GPUWIZ" vmx "$TMP/one" --gpu l40s
in_zh "3 个文件中有 2 个失败" '3 个文件中有 2 个失败' \
	"$GPUWIZ" vmx "$TMP/one" "$TMP/bad2.vmx" "$TMP/hw21.vmx" --gpu l40s
check "nothing was written" sh -c "tail -n +2 '$FIX/vmx/synthetic-malformed-lines.vmx' | cmp -s - '$TMP/one/bad.vmx'"

finish

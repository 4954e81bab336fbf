#!/bin/sh
# Command-level tests of the host-side commands on real and synthetic
# captures: gpus --esxcli-file, verify --nvidia-smi-q, diagnose.
. "$(dirname "$0")/lib.sh"

# --- gpus --esxcli-file ------------------------------------------------------
ESX=$FIX/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt
run "$GPUWIZ" gpus --esxcli-file "$ESX" --json
check "gpus --esxcli-file --json exits 0" [ $rc -eq 0 ]
check "gpus: the L40S with its ESXi id, passthrough flags and VRAM" python3 -c "
import json
d=json.load(open('$out'))
g=[x for x in d['gpus'] if x['vram_gb']==48][0]
assert g['vmx_id']=='00000:059:00.0' and g['bdf']=='0000:3b:00.0', g
assert g['passthru_capable'] is True and g['passthru_enabled'] is True, g
b=[x for x in d['gpus'] if x['vram_gb'] is None]
assert b, 'the unknown-VRAM GPU is listed with vram_gb null'
assert d['mmio_size_gb'] is None
"
L40S=$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt
run "$GPUWIZ" gpus --esxcli-file "$L40S" --json
check "gpus: one L40S -> mmio 128" python3 -c "
import json; d=json.load(open('$out')); assert d['mmio_size_gb']==128, d"
run "$GPUWIZ" gpus --esxcli-file "$FIX/esxcli/hardware-pci-list-x540-vmkernel-and-lsi2308-vmpassthru.txt"
check "gpus: a real capture without a GPU says so, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'no display-class device' '$out'"
bad() { name=$1; want=$2; shift 2; run "$GPUWIZ" "$@"
	if [ $rc -eq 2 ] && err_one_line && errhas "$want" && [ ! -s "$out" ]; then ok "bad input: $name"; else nok "bad input: $name" "rc=$rc err=$(cat "$err")"; fi; }
bad "gpus: missing file" "nope.txt" gpus --esxcli-file "$TMP/nope.txt"
bad "gpus: a .vmx is not esxcli output" "u.vmx" gpus --esxcli-file "$(sample vmx/ws-freebsd-crlf.vmx "$TMP/u.vmx"; echo "$TMP/u.vmx")"
bad "gpus: a missing sysroot" "/nonexistent-root" gpus --sysroot /nonexistent-root
bad "check: a missing sysroot" "/nonexistent-root" check --sysroot /nonexistent-root
mkdir -p "$TMP/root/proc" "$TMP/root/sys/kernel/iommu_groups"
printf 'processor\t: 0\nflags\t\t: fpu vme de pse vmx\n' >"$TMP/root/proc/cpuinfo"
printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 amd_iommu=on\n' >"$TMP/root/proc/cmdline"
run "$GPUWIZ" check --sysroot "$TMP/root" --json
check "check: an IOMMU-less fake host fails (exit 1)" [ $rc -eq 1 ]
check "check --json: rows with id/status/message/fix; amd_iommu=on pointed out" python3 -c "
import json; d=json.load(open('$out'))
assert all(set(['id','status','message','fix'])<=set(c) for c in d['checks'])
st={c['id']:c['status'] for c in d['checks']}
assert st['cpu-virt']=='PASS' and st['iommu-firmware']=='FAIL', st
assert st['kernel-cmdline']=='WARN', st"

# --- verify --nvidia-smi-q -----------------------------------------------------
run "$GPUWIZ" verify --nvidia-smi-q "$FIX/nvidia-smi/rtxa6000-24q-vgpu-guest.txt"
check "verify: vGPU with Addressing Mode None fails (exit 1)" [ $rc -eq 1 ]
check "verify: gives the enable_uvm advice" has 'enable_uvm'
run "$GPUWIZ" verify --nvidia-smi-q "$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" --json
check "verify: the H200 passthrough VM passes (exit 0)" [ $rc -eq 0 ]
check "verify --json: checks with id/status/message/fix" python3 -c "
import json; d=json.load(open('$out'))
assert all(set(['id','status','message','fix'])<=set(c) for c in d['checks'])
assert not [c for c in d['checks'] if c['status']=='FAIL'], d['checks']"
run "$GPUWIZ" verify --nvidia-smi-q "$FIX/nvidia-smi/synthetic-h200-passthrough-bar1-zero.txt"
check "verify: BAR1 0 names the MMIO value to set" has '64bitMMIOSizeGB = "512"'
bad "verify: not nvidia-smi -q output" "u.vmx" verify --nvidia-smi-q "$TMP/u.vmx"
bad "verify: live checks are not in this build, said plainly" "--nvidia-smi-q" verify

# --- diagnose ---------------------------------------------------------------------
run "$GPUWIZ" diagnose "$FIX/vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt"
check "diagnose: the Dell KB log is an MMIO window too small" sh -c "[ $rc -eq 0 ] && grep -q '64bitMMIOSizeGB = \"32\"' '$out'"
run sh -c "tail -n +2 '$FIX/vmwarelog/vsphere-task-error-invalid-memory-setting-sched-mem-min.txt' | '$GPUWIZ' diagnose - --json"
check "diagnose - reads stdin; the reservation error gives memsize 2048" python3 -c "
import json; d=json.load(open('$out'))
f=d['findings'][0]; assert f['id']=='memory-reservation' and '2048' in f['fix'], f"
printf 'all good here\n' >"$TMP/ok.log"
run "$GPUWIZ" diagnose "$TMP/ok.log"
check "diagnose: nothing known -> exit 1 and says so" sh -c "[ $rc -eq 1 ] && grep -q 'No known failure' '$out'"
bad "diagnose: missing file" "none.log" diagnose "$TMP/none.log"
finish

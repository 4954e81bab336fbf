#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
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
cp "$out" "$TMP/gpus-esxcli.json"
run "$GPUWIZ" gpus --esxcli-file "$ESX"
check "gpus --esxcli-file: the layout every back end prints (gpus_layout)" gpus_layout "$out" "$TMP/gpus-esxcli.json"
check "gpus --esxcli-file: the notes under the table" sh -c "grep -qx 'Notes:' '$out' && grep -q '^  - 0000:5e:00.0: passthrough is configured but the device is still owned by VMkernel' '$out'"
run "$GPUWIZ" gpus --esxcli-file "$ESX" --url https://127.0.0.1:1/sdk
check "gpus --esxcli-file with --url: refused, nothing printed" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -q -- '--url' '$err'"
L40S=$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt
run "$GPUWIZ" gpus --esxcli-file "$L40S" --json
check "gpus: one L40S -> mmio 128" python3 -c "
import json; d=json.load(open('$out')); assert d['mmio_size_gb']==128, d"
run "$GPUWIZ" gpus --esxcli-file "$FIX/esxcli/hardware-pci-list-x540-vmkernel-and-lsi2308-vmpassthru.txt"
check "gpus: a real capture without a GPU says so, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'no display-class device' '$out'"
# bad_env: one VAR=VALUE the run gets (none when empty)
bad_env=
bad() { name=$1; want=$2; shift 2; run ${bad_env:+env "$bad_env"} "$GPUWIZ" "$@"
	if [ $rc -eq 2 ] && err_one_line && errhas "$want" && [ ! -s "$out" ]; then ok "bad input: $name"; else nok "bad input: $name" "rc=$rc err=$(cat "$err")"; fi; }
bad "gpus: missing file" "nope.txt" gpus --esxcli-file "$TMP/nope.txt"
bad "gpus: a .vmx is not esxcli output" "u.vmx" gpus --esxcli-file "$(sample vmx/ws-freebsd-crlf.vmx "$TMP/u.vmx"; echo "$TMP/u.vmx")"
bad "gpus: a missing sysroot" "/nonexistent-root" gpus --sysroot /nonexistent-root
bad "check: a missing sysroot" "/nonexistent-root" check --sysroot /nonexistent-root
# libpci is opened on the first scan (linux_gpus.c): with it, a GPU of a
# synthetic sysfs listed; a libpci.so.3 the loader cannot use is one line
# naming it, exit 2, nothing printed
python3 "$GW_SRCDIR/tests/pci-sysroot.py" "$TMP/pciroot" 3 gpu
run "$GPUWIZ" gpus --sysroot "$TMP/pciroot"
check "gpus --sysroot: libpci opened, the GPU listed" sh -c "[ $rc -eq 0 ] && grep -q '10de:26b9' '$out'"
mkdir -p "$TMP/badlib" && printf 'not a library\n' >"$TMP/badlib/libpci.so.3"
bad_env="LD_LIBRARY_PATH=$TMP/badlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bad "gpus: a libpci the loader cannot open" "cannot open the PCI library libpci.so.3" gpus --sysroot "$TMP/pciroot"
bad_env=
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
assert st['kernel-cmdline']=='WARN', st
m={c['id']:c['message'] for c in d['checks']}
assert st['interrupt-remap']=='WARN' and 'could not be checked' in m['interrupt-remap'], m
ids=[c['id'] for c in d['checks']]
assert ids.index('interrupt-remap')==ids.index('iommu-units')+1, ids"
printf '           CPU0\n  0:   44  IR-IO-APIC   2-edge   timer\n 24:    9  IR-PCI-MSI 65536-edge   eth0\n' >"$TMP/root/proc/interrupts"
run "$GPUWIZ" check --sysroot "$TMP/root"
check "check: remapped interrupts in /proc/interrupts pass the interrupt-remap row" has 'Checking for interrupt remapping : PASS'

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
# --- verify on a live guest (--sysroot) and --bundle -----------------------------
G=$TMP/guest; D=$G/sys/bus/pci/devices/0000:03:00.0
mkdir -p "$D" "$G/proc/driver/nvidia" "$G/etc/nvidia/ClientConfigToken"
printf '0x10de\n' >"$D/vendor"; printf '0x2335\n' >"$D/device"; printf '0x030200\n' >"$D/class"
printf '0x00000000f0000000 0x00000000f0ffffff 0x0000000000040200\n0x0000000000000000 0x0000000000000000 0x0000000000000000\n' >"$D/resource"
printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 2024\n' >"$G/proc/driver/nvidia/version"
printf 'BOOT_IMAGE=/vmlinuz ro\n' >"$G/proc/cmdline"
printf 'SECRET\n' >"$G/etc/nvidia/ClientConfigToken/client_configuration_token.tok"
run "$GPUWIZ" verify --sysroot "$G"
check "verify --sysroot: an unassigned BAR1 fails (exit 1) with the MMIO value" sh -c "[ $rc -eq 1 ] && grep -q 'BAR1 unassigned' '$out' && grep -q '64bitMMIOSizeGB = \"512\"' '$out'"
run "$GPUWIZ" verify --sysroot "$G" --json
check "verify --sysroot --json: driver pass, bar1 fail" python3 -c "
import json; d=json.load(open('$out'))
st={c['id']:c['status'] for c in d['checks']}
assert st['driver']=='pass' and st['bar1']=='fail' and st['gpus']=='pass', st
assert d['mmio_size_gb']==512 and d['gpus'][0]['pci_id']=='10de:2335', d"
run "$GPUWIZ" verify --sysroot "$TMP/root"
check "verify --sysroot: no NVIDIA device fails (exit 1)" sh -c "[ $rc -eq 1 ] && grep -q 'no NVIDIA display device' '$out'"
bad "verify: a missing sysroot" "/nonexistent-root" verify --sysroot /nonexistent-root
run "$GPUWIZ" verify --sysroot "$G" --nvidia-smi-q "$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" --bundle "$TMP/b.tar.gz"
check "verify --bundle: written, exit as the checks say (1)" sh -c "[ $rc -eq 1 ] && [ -s '$TMP/b.tar.gz' ] && grep -q 'support bundle written' '$err'"
check "verify --bundle: the members, and no license token" sh -c "tar -tzf '$TMP/b.tar.gz' >'$TMP/b.lst' && grep -q 'gpuwiz-support/README.txt' '$TMP/b.lst' && grep -q 'verify.json' '$TMP/b.lst' && grep -q 'nvidia-smi-q.txt' '$TMP/b.lst' && grep -q 'lspci.txt' '$TMP/b.lst' && ! grep -q ClientConfigToken '$TMP/b.lst'"
bad "verify --bundle: never overwrites" "b.tar.gz" verify --sysroot "$G" --bundle "$TMP/b.tar.gz"
# --- vms on the ESXi shell: power states in one call (doc/design.md, 15.6) ---
# The stand-ins (tests/esxi-standins) on the PATH make this the ESXi shell;
# with state/vms they list 50 VMs, every third running.
SB=$TMP/standins
mkdir -p "$SB/state" && cp "$(dirname "$0")/../esxi-standins/"* "$SB/" && echo 50 >"$SB/state/vms"
vms_ok() { python3 -c "
import json; d=json.load(open('$out')); v=d['vms']
assert len(v)==50, len(v)
bad=[x for x in v if x['power']!=('on' if (x['vmid']-100)%3==0 else 'off')]
assert not bad, bad"; }
: >"$SB/standin.log"
run env PATH="$SB:$PATH" "$GPUWIZ" vms --json
check "vms on 50 VMs: exit 0" sh -c "[ $rc -eq 0 ]" && check "vms: 50 VMs, every third on" vms_ok
check "vms on 50 VMs: two commands (getallvms, esxcli vm process list), no power.getstate" \
	sh -c "[ \"\$(cat '$SB/standin.log')\" = \"\$(printf 'vim-cmd vmsvc/getallvms\nesxcli vm process list')\" ]"
: >"$SB/standin.log"; : >"$SB/state/no-vm-process"
run env PATH="$SB:$PATH" "$GPUWIZ" vms --json
check "vms without esxcli vm process list: asked one by one, still right" vms_ok
check "vms without esxcli vm process list: 50 power.getstate" sh -c "[ \$(grep -c 'power.getstate' '$SB/standin.log') -eq 50 ]"
finish

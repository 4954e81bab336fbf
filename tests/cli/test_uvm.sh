#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_uvm.sh: the seed-001 path (doc/design.md, 15.1): a VM that already
# has its vGPUs gets pciPassthruN.cfg.enable_uvm = "1" on every one of
# them and nothing else, from `vmx FILE --uvm`, `vmx --vm` on a (sample)
# host and `apply --answers` with no [gpu] section; a VM with no GPU at
# all and no GPU asked for is still refused with one clear line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vgpu_vmx.sh"

# only_added ORIG NEW KEY...: NEW is ORIG with exactly these lines added
# (each KEY = "1"), in the order given, after ORIG's bytes.
only_added() {
	o=$1 n=$2; shift 2
	head -c "$(stat -c %s "$o")" "$n" | cmp -s - "$o" || return 1
	tail -c +"$(( $(stat -c %s "$o") + 1 ))" "$n" >"$TMP/added"
	: >"$TMP/want"
	for k in "$@"; do printf '%s = "1"\n' "$k" >>"$TMP/want"; done
	cmp -s "$TMP/added" "$TMP/want"
}

UVM0=pciPassthru0.cfg.enable_uvm
UVM1=pciPassthru1.cfg.enable_uvm

# --- vmx FILE --uvm: preview, then --write ----------------------------------
vgpu_vmx "$TMP/v.vmx"
cp "$TMP/v.vmx" "$TMP/v.orig"
check "the test VM keeps the sample's first comment line" sh -c "head -n 1 '$TMP/v.vmx' | grep -q '^# gpuwiz sample host esxi-l40s: '"
run "$GPUWIZ" vmx "$TMP/v.vmx" --uvm
check "vmx --uvm with no GPU given: exit 0" [ "$rc" -eq 0 ]
check "vmx --uvm: no 'no GPU given' any more" sh -c "! grep -q 'no GPU given' '$err'"
check "vmx --uvm: both vGPUs listed as already in the VM" has "2 x nvidia_l40s-24c (AD102GL [L40S]), 48 GB, already in the VM"
check "vmx --uvm: enable_uvm on pciPassthru0" has "+ $UVM0 = \"1\""
check "vmx --uvm: enable_uvm on pciPassthru1" has "+ $UVM1 = \"1\""
check "vmx --uvm: no device is added" sh -c "! grep -q '^  + pciPassthru[0-9]*\.\(present\|vgpu\|id\)' '$out'"
check "vmx --uvm: the reason (NCCL 2.27) is shown" has "NCCL 2.27 and later fail without it"
check "vmx --uvm: the vMotion consequence is shown" has "enable_uvm disables vGPU migration (vMotion) for this VM"
check "vmx --uvm: its fix answers it (no live migration)" has "move it cold"
check "vmx --uvm: the source is NVIDIA's" has "source: NVIDIA AI Enterprise documentation"
check "vmx --uvm: the preview writes nothing" cmp -s "$TMP/v.vmx" "$TMP/v.orig"
check "vmx --uvm: says --write saves" has "add --write to save"

run "$GPUWIZ" vmx "$TMP/v.vmx" --uvm --json
check "vmx --uvm --json: exit 0" [ "$rc" -eq 0 ]
check "vmx --uvm --json: the plan" python3 -c "
import json
d=json.load(open('$out'))
assert d['changed'] is True and d['written'] is False and d['backup'] is None, d
ch=[s['key'] for s in d['settings'] if s['change']]
assert ch==['$UVM0','$UVM1'], ch
assert all(g['existing'] for g in d['gpus']), d['gpus']
assert d['total_vram_gb']==96 and d['mmio_size_gb']==256, d
ids=[f['id'] for f in d['findings']]
assert 'uvm-nccl' in ids and 'uvm-vmotion' in ids, ids
f=[f for f in d['findings'] if f['id']=='uvm-nccl'][0]
assert f['source']=='NVIDIA AI Enterprise documentation', f
assert 'ncclCommInitRank' in f['message'], f
"
run "$GPUWIZ" vmx "$TMP/v.vmx" --uvm --write
check "vmx --uvm --write: exit 0" [ "$rc" -eq 0 ]
check "vmx --uvm --write: saved with a backup" has "Saved $TMP/v.vmx (backup: "
check "vmx --uvm --write: only the two enable_uvm lines added" only_added "$TMP/v.orig" "$TMP/v.vmx" $UVM0 $UVM1
check "vmx --uvm --write: the backup has the original bytes" sh -c "cmp -s \$(ls '$TMP'/v.vmx.*.bak | head -n 1) '$TMP/v.orig'"
run "$GPUWIZ" vmx "$TMP/v.vmx" --uvm --write --json
check "vmx --uvm again: nothing to change" python3 -c "
import json
d=json.load(open('$out'))
assert d['changed'] is False and d['written'] is False, d
"
check "vmx --uvm again: the file is the same" only_added "$TMP/v.orig" "$TMP/v.vmx" $UVM0 $UVM1

# --- refused: no GPU in the VM and none asked for ---------------------------
sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/none.vmx"
cp "$TMP/none.vmx" "$TMP/none.orig"
run "$GPUWIZ" vmx "$TMP/none.vmx" --uvm --write
check "a VM without GPUs: exit 2" [ "$rc" -eq 2 ]
check "a VM without GPUs: one line on stderr" err_one_line
check "a VM without GPUs: says the .vmx has no GPU device" errhas "none.vmx: no GPU to plan for: the .vmx has no GPU device (pciPassthruN) and none was asked for"
check "a VM without GPUs: unchanged" cmp -s "$TMP/none.vmx" "$TMP/none.orig"
run "$GPUWIZ" vmx "$TMP/none.vmx" --uvm --json
check "a VM without GPUs, --json: exit 2, nothing on stdout" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ]"

# --- a DirectPath-only VM: --uvm sets nothing, says so -----------------------
tail -n +2 "$VGPU_SRC" >"$TMP/dp.vmx"
run "$GPUWIZ" vmx "$TMP/dp.vmx" --uvm --json
check "a DirectPath VM: --uvm applies to vGPUs only" python3 -c "
import json
d=json.load(open('$out'))
assert [f for f in d['findings'] if f['id']=='uvm-no-vgpu'], d['findings']
assert not [s for s in d['settings'] if 'enable_uvm' in s['key']], d['settings']
"

# --- apply --answers: [vm] vmx + [options] uvm = yes, no [gpu] --------------
mkdir -p "$TMP/ans"
vgpu_vmx "$TMP/ans/llm.vmx"
cp "$TMP/ans/llm.vmx" "$TMP/ans.orig"
printf '[vm]\nvmx = llm.vmx\n[options]\nuvm = yes\n' >"$TMP/ans/a.ini"
run "$GPUWIZ" apply --answers "$TMP/ans/a.ini"
check "apply with no [gpu]: exit 0" [ "$rc" -eq 0 ]
check "apply with no [gpu]: patched" has "patched $TMP/ans/llm.vmx (backup: "
check "apply with no [gpu]: only the two enable_uvm lines added" only_added "$TMP/ans.orig" "$TMP/ans/llm.vmx" $UVM0 $UVM1
check "apply with no [gpu]: the vMotion WARN is shown" has "enable_uvm disables vGPU migration"
check "apply: the fractional-profile WARN (nvidia_l40s-24c) is shown" has "Unified memory is supported only on C-series vGPUs that have the whole framebuffer of the GPU and on MIG-backed vGPUs; nvidia_l40s-24c has a part of one"
printf '[options]\nuvm = yes\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/b.ini"
run "$GPUWIZ" apply --answers "$TMP/ans/b.ini"
check "no [gpu] and no [vm] vmx: still refused" sh -c "[ $rc -eq 2 ] && grep -q 'b.ini: \[gpu\] devices: no GPU given' '$err'"
sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/ans/none.vmx"
printf '[vm]\nvmx = none.vmx\n[options]\nuvm = yes\n' >"$TMP/ans/c.ini"
run "$GPUWIZ" apply --answers "$TMP/ans/c.ini"
check "no [gpu], a VM without GPUs: refused, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -q 'no GPU to plan for' '$err'"

# --- vmx --vm on a host: a copy of the esxi-l40s sample with the vGPU VM ------
cp -r "$(cd "$(dirname "$0")/../.." && pwd)/data/hosts" "$TMP/hosts"
vgpu_vmx "$TMP/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx"
cp "$TMP/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx" "$TMP/host.orig"
export GPUWIZ_HOSTS_DIR="$TMP/hosts"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm llm-train --uvm --json
check "vmx --vm --uvm with no GPU given: exit 0" [ "$rc" -eq 0 ]
check "vmx --vm --uvm: the two enable_uvm lines, nothing else" python3 -c "
import json
d=json.load(open('$out'))
ch=[s['key'] for s in d['settings'] if s['change']]
assert ch==['$UVM0','$UVM1'], ch
assert d['power']=='off' and d['written'] is False, d
"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm llm-train --uvm --write
check "vmx --vm --uvm --write: saved and reloaded" sh -c "[ $rc -eq 0 ] && grep -q '^Saved ' '$out' && grep -q '^Reloaded the VM' '$out'"
check "vmx --vm --uvm --write: the sample's own files untouched" cmp -s "$TMP/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx" "$TMP/host.orig"
unset GPUWIZ_HOSTS_DIR

# --- what the vGPUs must agree on (doc/design.md, 15.3) ---------------------
# The test VM's nvidia_l40s-24c is half an L40S: UVM is not supported
# there (NVIDIA AI Enterprise, Unified Virtual Memory: known issues).
vgpu_vmx "$TMP/f.vmx"
run "$GPUWIZ" vmx "$TMP/f.vmx" --uvm --json
check "fractional profile + --uvm: uvm-fractional WARN naming the profile" python3 -c "
import json
d=json.load(open('$out'))
f=[f for f in d['findings'] if f['id']=='uvm-fractional']
assert len(f)==1 and f[0]['severity']=='warn', d['findings']
assert 'nvidia_l40s-24c' in f[0]['message'] and 'NCCL' in f[0]['message'], f
assert 'Unified Virtual Memory' in f[0]['source'], f
assert not [g for g in d['findings'] if g['id']=='uvm-windows'], d['findings']
"
run "$GPUWIZ" vmx "$TMP/f.vmx"
check "fractional profile without --uvm: no uvm-fractional" sh -c "! grep -q 'supported only on C-series vGPUs' '$out'"
sed -e 's/^\(pciPassthru[01]\.vgpu = \).*/\1"nvidia_l40s-48c"/' "$TMP/f.vmx" >"$TMP/w.vmx"
run "$GPUWIZ" vmx "$TMP/w.vmx" --uvm
check "1:1 profile nvidia_l40s-48c + --uvm: no fractional WARN" sh -c "[ $rc -eq 0 ] && ! grep -q 'supported only on C-series vGPUs' '$out'"
sed -e 's/^guestOS = .*/guestOS = "windows2019srv-64"/' "$TMP/w.vmx" >"$TMP/win.vmx"
run "$GPUWIZ" vmx "$TMP/win.vmx" --uvm
check "Windows guest + --uvm: WARN, Linux guests only" sh -c "grep -q 'WARN  Unified memory on vGPU is supported only in Linux guests' '$out' && grep -q 'guestOS = windows2019srv-64' '$out'"
run "$GPUWIZ" vmx "$TMP/win.vmx"
check "Windows guest without --uvm: no guest WARN" sh -c "! grep -q 'only in Linux guests' '$out'"

run "$GPUWIZ" vmx "$TMP/f.vmx" --vgpu grid_a100-40c
check "another board beside the VM's vGPUs: FAIL, not written" sh -c "grep -q 'FAIL  The vGPUs of one VM must be of the same board and series: nvidia_l40s-24c and grid_a100-40c' '$out'"
check "mixed board: the fix names one profile" has "--vgpu nvidia_l40s-24c"
run "$GPUWIZ" vmx "$TMP/f.vmx" --vgpu nvidia_l40s-24q --json
check "another series (q beside c): vgpu-mixed-board FAIL" python3 -c "
import json
d=json.load(open('$out'))
f=[f for f in d['findings'] if f['id']=='vgpu-mixed-board']
assert len(f)==1 and f[0]['severity']=='error', d['findings']
assert 'Multiple vGPUs Assigned to a VM' in f[0]['source'], f
"
run "$GPUWIZ" vmx "$TMP/f.vmx" --vgpu nvidia_l40s-48c
check "same board, other size: WARN vgpu-mixed-size (release-dependent)" sh -c "grep -q 'WARN  The vGPUs of this VM differ in size (nvidia_l40s-24c and nvidia_l40s-48c)' '$out'"
run "$GPUWIZ" vmx "$TMP/f.vmx" --vgpu nvidia_l40s-24c
check "the VM's own profile again: no mixing finding" sh -c "! grep -q 'vGPUs of \(one\|this\) VM' '$out'"

# without a .vmx: --vgpu PROFILE --uvm (the snippet)
run "$GPUWIZ" snippet --format vmx --vgpu nvidia_l40s-24c --uvm
check "snippet --vgpu nvidia_l40s-24c --uvm: the fractional WARN (stderr)" errhas "WARN  Unified memory is supported only on C-series vGPUs"
run "$GPUWIZ" snippet --format vmx --vgpu nvidia_l40s-48c --uvm
check "snippet --vgpu nvidia_l40s-48c --uvm: no fractional WARN" sh -c "! grep -q 'supported only on C-series vGPUs' '$out' '$err'"
run "$GPUWIZ" snippet --format vmx --vgpu nvidia_l40s-24c --vgpu grid_a100-40c
check "snippet with two boards: the FAIL (stderr)" errhas "FAIL  The vGPUs of one VM must be of the same board and series"

# NVIDIA's example spelling, pciPassthruN.cfg.parameter = "enable_uvm=1"
cp "$TMP/f.vmx" "$TMP/k.vmx"
printf '%s\n' 'pciPassthru0.cfg.parameter = "enable_uvm=1"' >>"$TMP/k.vmx"
kl=$(grep -n 'cfg.parameter' "$TMP/k.vmx" | cut -d: -f1)
run "$GPUWIZ" vmx "$TMP/k.vmx"
check "cfg.parameter: WARN, the right key named" sh -c "grep -q 'WARN  pciPassthru0.cfg.parameter = \"enable_uvm=1\" (line $kl) is not how ESXi passes enable_uvm' '$out' && grep -q 'the key is pciPassthru0.cfg.enable_uvm = \"1\"' '$out'"
check "cfg.parameter without --uvm: the fix says --uvm and remove the line" has "Use --uvm to write pciPassthru0.cfg.enable_uvm, and remove line $kl by hand"
cp "$TMP/k.vmx" "$TMP/k.orig"
run "$GPUWIZ" vmx "$TMP/k.vmx" --uvm --write
check "cfg.parameter + --uvm --write: the right key written, the wrong line kept" sh -c "[ $rc -eq 0 ] && grep -q '^pciPassthru0.cfg.enable_uvm = \"1\"' '$TMP/k.vmx' && grep -q '^pciPassthru0.cfg.parameter = \"enable_uvm=1\"' '$TMP/k.vmx'"
check "cfg.parameter + --uvm: the fix says remove it by hand" has "remove line $kl by hand (gpuwiz does not delete keys)"

# --- under valgrind memcheck: the VM-only plan, the refusal, apply ---------
if valgrind_usable; then
	vg() {
		"$VALGRIND" -q --leak-check=full --show-leak-kinds=definite,indirect \
			--errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$GPUWIZ" "$@" >"$TMP/vg.out" 2>"$TMP/vg.err"
		[ $? -ne 99 ] || { cat "$TMP/vg.err"; return 1; }
	}
	vgpu_vmx "$TMP/vg.vmx"
	check "valgrind: vmx --uvm --write on the vGPU VM" vg vmx "$TMP/vg.vmx" --uvm --write --json
	check "valgrind: vmx --uvm on a VM without GPUs" vg vmx "$TMP/none.vmx" --uvm
	vgpu_vmx "$TMP/ans/llm.vmx"
	check "valgrind: apply with no [gpu]" vg apply --answers "$TMP/ans/a.ini"
else
	echo "SKIP: valgrind checks (valgrind not installed or a sanitizer build)"
fi

finish

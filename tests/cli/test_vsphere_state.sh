#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere_state.sh: through the vSphere API (vcsim, tests/vcsim) --gpu
# and --vgpu name what the VM ends with, as on a .vmx (doc/design.md, 6.2):
# the same apply twice reconfigures once; fewer than the VM holds is
# refused by the plan's rule and message (gw_plan_check_present), in C and
# zh_CN, with nothing sent.  Skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/lib.sh"
need_vsphere
. "$(dirname "$0")/vcsim.sh"

zh_checks

vcsim_start -model esx -vms 2 -on 0 -user gw -pass pw
export GPUWIZ_PASSWORD=pw
vs() { "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
PT=$(echo "$VC_VMS" | sed -n 1p)
VG=$(echo "$VC_VMS" | sed -n 2p)
run vs list --json
H1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hosts"][0]["name"])' "$out")

# the host's second L40S: passthrough on, so the VM can take two
run vs passthru --enable 0000:5e:00.0 --host "$H1"
check "passthrough on for the second L40S" [ $rc -eq 0 ]

# same_vm NAME FILE: the VM as list --json shows it, unchanged since FILE
same_vm() {
	run vs list --json
	python3 - "$1" "$out" "$2" <<'PY'
import json, sys
name, now, before = sys.argv[1:4]
a = [v for v in json.load(open(before))["vms"] if v["name"] == name][0]
b = [v for v in json.load(open(now))["vms"] if v["name"] == name][0]
assert a == b, (a, b)
PY
}

# --- passthrough: two L40S, again, then one -----------------------------
n0=$(vcsim_requests ReconfigVM_Task)
run vs apply --vm "$PT" --gpu l40s=2
check "l40s=2: reconfigured, one ReconfigVM_Task" sh -c "[ $rc -eq 0 ] && grep -q 'Reconfigured $PT' '$out' && [ $(vcsim_requests ReconfigVM_Task) -eq $((n0 + 1)) ]"
run vs list --json
cp "$out" "$TMP/two.json"
check "l40s=2: both L40S attached" python3 - "$out" "$PT" <<'PY'
import json, sys
vm = [v for v in json.load(open(sys.argv[1]))["vms"] if v["name"] == sys.argv[2]][0]
pt = [x for x in vm["passthrough"] if x.get("device_id") == "26b9"]
assert len(pt) == 2, vm
PY
run vs apply --vm "$PT" --gpu l40s=2
check "l40s=2 again: nothing to change, no reconfigure" sh -c "[ $rc -eq 0 ] && grep -q 'Nothing to change' '$out' && [ $(vcsim_requests ReconfigVM_Task) -eq $((n0 + 1)) ]"
check "l40s=2 again: both counted as attached, as the plan counts them" grep -qF 'Already attached to the VM: 2 of the GPUs asked for.' "$out"
for mode in "" "--dry-run"; do
	# shellcheck disable=SC2086
	run vs apply --vm "$PT" --gpu l40s=1 $mode
	check "l40s=1 $mode: refused, one line, the .vmx rule's words" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'l40s=1: the VM already has 2 of it (pciPassthru0, pciPassthru1), more than the 1 asked for; gpuwiz does not remove devices: ask for 2, or remove pciPassthru1 with the VM off (vSphere Client: Edit Settings)' '$err'"
	check "l40s=1 $mode: nothing sent" [ "$(vcsim_requests ReconfigVM_Task)" -eq $((n0 + 1)) ]
done
check "l40s=1: the VM unchanged" same_vm "$PT" "$TMP/two.json"
if [ $ZH = 1 ]; then
	run env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" apply --vm "$PT" --gpu l40s=1
	check "zh: fewer refused in Chinese" sh -c "[ $rc -eq 2 ] && grep -qF '虚拟机中已有 2 个（pciPassthru0, pciPassthru1），多于要求的 1 个' '$err'"
fi

# --- vGPUs: two, again, then one -----------------------------------------
n1=$(vcsim_requests ReconfigVM_Task)
run vs apply --vm "$VG" --vgpu nvidia_l40s-24c=2 --upgrade-hw
check "vgpu=2: reconfigured" sh -c "[ $rc -eq 0 ] && grep -q 'Reconfigured $VG' '$out'"
n2=$(vcsim_requests ReconfigVM_Task)
check "vgpu=2: one reconfigure" [ "$n2" -eq $((n1 + 1)) ]
run vs list --json
cp "$out" "$TMP/vg.json"
run vs apply --vm "$VG" --vgpu nvidia_l40s-24c=2
check "vgpu=2 again: nothing to change, no reconfigure" sh -c "[ $rc -eq 0 ] && grep -q 'Nothing to change' '$out' && [ $(vcsim_requests ReconfigVM_Task) -eq $n2 ]"
check "vgpu=2 again: both vGPUs counted as attached" grep -qF 'Already attached to the VM: 2 of the GPUs asked for.' "$out"
run vs apply --vm "$VG" --vgpu nvidia_l40s-24c
check "vgpu=1: refused with the rule's words, nothing sent" sh -c "[ $rc -eq 2 ] && grep -qF 'nvidia_l40s-24c: the VM already has 2 of it (pciPassthru0, pciPassthru1), more than the 1 asked for' '$err' && [ $(vcsim_requests ReconfigVM_Task) -eq $n2 ]"
check "vgpu=1: the VM unchanged" same_vm "$VG" "$TMP/vg.json"

vcsim_stop
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the wizard's API mode (gpuwiz --url URL --user USER)
# against vcsim (tests/vcsim): the server's rows, enabling passthrough, the
# GPUs of its hosts, its VMs, a hardware upgrade and the reconfigure with
# its progress; the result read back through the API with gpuwiz vsphere
# list.  Skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/vcsim.sh"
export GPUWIZ_PASSWORD='pw-for-the-wizard'

vcsim_start -model esx -vms 3 -on 1 -user gw -pass "$GPUWIZ_PASSWORD" || { finish; exit; }
rm -rf "$TMP/run"; mkdir -p "$TMP/run"
start C.UTF-8 100x30 --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
check "api: welcome, the API mode is chosen" wait_for "(*) vCenter or ESXi through the API"
keys Enter
check "api: the server's rows" wait_for "Checks through the vSphere API"
check "api: the second L40S is not passed through" sh -c \
	"grep 'Checking passthrough of 0000:5e:00.0' '$SCREEN' | grep -q WARN"
check "api: the host's vGPU readiness (the manager loaded)" sh -c \
	"grep 'Checking for the NVIDIA vGPU manager on' '$SCREEN' | grep -q INFO"
# the WARN rows come first: the cursor starts on this GPU's row
keys e
check "api: e queues the enable" wait_for "Queued: passthrough of 0000:5e:00.0 will be enabled when you write"
check "api: the row says so" sh -c \
	"grep 'Passthrough of 0000:5e:00.0: will be enabled when you write' '$SCREEN' | grep -q INFO"
keys Enter
check "api: GPU step lists the host's GPUs" wait_for "0000:3b:00.0"
keys Space
check "api: the L40S added" wait_for "1 x l40s"
keys Enter
check "api: the server's VMs" wait_for "VM2"
keys Down; keys Down
keys Space
check "api: VM1 opens, powered off" wait_for "VM1: powered off"
check "api: the free device it gets is shown" on_screen "Devices to attach"
check "api: the upgrade is offered" on_screen "u: upgrade to vmx-21"
keys u
check "api: u queues the upgrade" wait_for "Queued: the upgrade to vmx-21 runs when you write"
keys Enter
check "api: MMIO" wait_for "Step $(st MMIO): MMIO size"
enters MMIO REVIEW
check "api: review" wait_for "Step $(st REVIEW): Review"
check "api: the review names the API calls" sh -c \
	"grep -q 'UpdatePassthruConfig (0000:5e:00.0' '$SCREEN' && grep -q 'UpgradeVM_Task (VM1, version = vmx-21)' '$SCREEN'"
keys Enter
check "api: write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "api: the write asks once" wait_for "Write the changes to the host and the files?"
keys y
check "api: written" wait_for "Written:"
check "api: next steps say power on in the vSphere Client" find_in_pages "vSphere Client"
keys q
check "api: exits" exited
check "api: exit 0" [ "${exit_status:-x}" = 0 ]
check "api: terminal sane" terminal_sane
# the VM open is the output (a VM's .vmx): no snippet unless chosen
check "api: the VM is the output, no snippet written" [ ! -e "$TMP/run/gpuwiz-out" ]
run "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" list --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
vm = [v for v in d["vms"] if v["name"] == "VM1"][0]
assert vm["hw_version"] == 21, vm
assert vm["reservation_locked"] is True, vm
assert [x["bdf"] for x in vm["passthrough"]] == ["0000:3b:00.0"], vm
g = {x["bdf"]: x for h in d["hosts"] for x in h["gpus"]}
assert g["0000:5e:00.0"]["passthru_enabled"] is True
PY
then ok "api: read back: vmx-21, the L40S, the reservation; 5e enabled"
else nok "api: read back" "$(cat "$out" "$err")"; fi

# a powered-on VM can be planned, not written
start C.UTF-8 100x30 --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
wait_for "Step $(st WELCOME)" >/dev/null
keys Enter; wait_for "Step $(st HOST)" >/dev/null
keys Enter; wait_for "Step $(st GPU)" >/dev/null
keys Down; keys Space; keys Enter
check "api on: VM step" wait_for "Step $(st VM): Virtual machine"
keys Down; keys Space
check "api on: VM0 is flagged" wait_for "Not powered off: gpuwiz will not change it"
enters VM WRITE
check "api on: write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "api on: refused" wait_for "Not written:"
keys q; keys y
exited >/dev/null

if [ $have_zh -eq 1 ]; then
	start zh_CN.UTF-8 100x30 --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter
	check "zh api: the server's rows in Chinese" wait_for "vSphere API"
	screen
	check "zh api: a translated heading" sh -c "grep -q '检查' '$SCREEN'"
	keys q; keys y; exited >/dev/null
fi

# the API walk under valgrind memcheck (TLS, SOAP, the inventory, the
# progress box, the reconfigure)
if valgrind_wrap; then
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start C.UTF-8 100x30 --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
	check "valgrind api: first screen" wait_for "Step $(st WELCOME)" 60
	keys Enter; wait_for "Step $(st HOST)" 30 >/dev/null
	keys Enter; wait_for "Step $(st GPU)" 30 >/dev/null
	keys Down; keys Space; keys Enter
	wait_for "Step $(st VM)" 30 >/dev/null
	keys Down; keys Down; keys Down; keys Space
	check "valgrind api: VM2 opens" wait_for "VM2: powered off" 30
	n=$(stn MMIO); while [ $n -le "$GW_NSTEPS" ]; do keys Enter; wait_for "$(st $n)" 30 >/dev/null; n=$((n + 1)); done
	keys Enter
	check "valgrind api: written" wait_for "Written:" 60
	keys Enter
	check "valgrind api: exited" exited 60
	valgrind_clean "valgrind api"
fi

# a wrong password stops before the screen starts, one line
GPUWIZ_PASSWORD=not-it; export GPUWIZ_PASSWORD
start C.UTF-8 100x30 --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
check "api wrong password: exits" exited
check "api wrong password: exit 2" [ "${exit_status:-x}" = 2 ]
check "api wrong password: says so" on_screen "password"
check "api wrong password: terminal untouched" terminal_sane
vcsim_stop
finish

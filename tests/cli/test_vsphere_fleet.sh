#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere_fleet.sh: gpuwiz vsphere apply over many VMs against vcsim
# (doc/design.md 4.5): the round trips counted by the simulator (at most
# N + 10 for N VMs, Logout included; gpuwiz prints the count before it), one task filter and
# no poll loop per VM; 100 VMs whose tasks take 300 ms each finish well
# under the serial 30 s; --parallel 1 runs them one at a time; a VM whose
# task fails is reported with its fault while the others are changed (read
# back); a passthrough device started for one VM is not picked for the
# next; --json prints one summary with each VM's result; the progress
# line only on a terminal, never with --json.  Skipped
# (77) when vcsim cannot be built here.
. "$(dirname "$0")/lib.sh"
need_vsphere
. "$(dirname "$0")/vcsim.sh"

export GPUWIZ_PASSWORD=pw
PLAN="--vgpu nvidia_l40s-24c --uvm"
# (a hang fails in a minute, not after gpuwiz's own 300 s deadline)
vs() { timeout 60 "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
vm_args() { printf -- '--vm %s ' $VC_VMS; }
now_ms() { python3 -c 'import time; print(int(time.monotonic() * 1000))'; }
# printed "Round trips: K"
printed_rt() { sed -n 's/^Round trips: //p' "$out"; }

# VMs of the list (JSON in $1) that have the vGPU: their names, sorted
with_vgpu() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("\n".join(sorted(v["name"] for v in d["vms"]
                       if any(p.get("vgpu") == "nvidia_l40s-24c" for p in v["passthrough"]))))
PY
}

# apply to all VMs of the simulator: rc, out, err; $took in ms
apply_all() {
	t0=$(now_ms)
	# shellcheck disable=SC2046,SC2086
	run vs apply $(vm_args) $PLAN "$@"
	took=$(($(now_ms) - t0))
}

# ---- round trips: 20 and 100 VMs -------------------------------------------------
for n in 20 100; do
	if ! vcsim_start -model vpx -vms $n -on 0 -user gw -pass pw; then
		nok "vcsim with $n VMs started"; continue
	fi
	: >"$VC_REQUESTS"
	apply_all
	total=$(vcsim_requests)
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq $n ] &&
		[ "$(($(printed_rt) + 1))" = "$total" ] && [ "$total" -le $((n + 10)) ]; then
		ok "$n VMs: $total round trips (at most N + 10), as printed (and Logout)"
	else nok "$n VMs: round trips" "rc $rc, printed $(printed_rt), counted $total; $(sort "$VC_REQUESTS" | uniq -c | tr '\n' ' ') $(tail -n 3 "$err")"; fi
	# the inventory, then one read of all the tasks' state; at most one
	# filter (over one view) for the tasks still running, left to the
	# session's end; no per-VM polling, no QueryConfigTarget for a vGPU plan
	if [ "$(vcsim_requests ReconfigVM_Task)" -eq $n ] && [ "$(vcsim_requests CreateFilter)" -le 1 ] &&
		[ "$(vcsim_requests CreateListView)" -le 1 ] &&
		[ "$(vcsim_requests DestroyPropertyFilter)" -eq 0 ] &&
		[ "$(vcsim_requests RetrievePropertiesEx)" -le 2 ] &&
		[ "$(vcsim_requests QueryConfigTarget)" -eq 0 ] &&
		[ "$(vcsim_requests WaitForUpdatesEx)" -le 3 ]; then
		ok "$n VMs: one task filter, no poll per VM, no QueryConfigTarget"
	else nok "$n VMs: the calls" "$(sort "$VC_REQUESTS" | uniq -c | tr '\n' ' ')"; fi
	if [ $n -eq 20 ]; then
		check "20 VMs: no progress line when stderr is not a terminal" sh -c "! grep -q 'Tasks:' '$err'"
		run vs list --json
		if [ "$(with_vgpu "$out")" = "$(echo "$VC_VMS" | sort)" ]; then
			ok "20 VMs: every VM has the vGPU (read back)"
		else nok "20 VMs: read back" "$(with_vgpu "$out" | wc -l) of 20"; fi
	fi
	vcsim_stop
done

# ---- slow tasks: 100 VMs, 300 ms each (serial: 30 s) -------------------------------
if vcsim_start -model vpx -vms 100 -on 0 -user gw -pass pw -task-delay-ms 300; then
	apply_all
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq 100 ] && [ "$took" -lt 15000 ]; then
		ok "100 VMs with 300 ms tasks: $took ms, well under the serial 30 s"
	else nok "100 slow tasks" "rc $rc, $took ms; $(tail -n 3 "$err")"; fi
	vcsim_stop
else nok "vcsim with 100 slow VMs started"; fi

# ---- a lost update: two tasks end without the collector hearing of it --------------
# (govmomi's simulator reads a new filter's state and only then starts
# collecting changes, so under load a task that ends in between is never
# reported; -silent-vm makes that certain for the VMs so named.  gpuwiz asks
# the open tasks directly after a quiet wait, so it still ends in seconds.)
if vcsim_start -model vpx -vms 6 -on 0 -user gw -pass pw -task-delay-ms 200 -silent-vm '*[24]'; then
	apply_all
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq 6 ] && [ "$took" -lt 20000 ]; then
		ok "lost updates: the 2 silent tasks found by asking, all 6 reconfigured in $took ms"
	else nok "lost updates" "rc $rc, $took ms; $(tail -n 3 "$err")"; fi
	vcsim_stop
else nok "vcsim with silent VMs started"; fi

# ---- --parallel 1: one task at a time (5 x 200 ms: at least 1 s) --------------------
if vcsim_start -model vpx -vms 5 -on 0 -user gw -pass pw -task-delay-ms 200; then
	apply_all --parallel 1
	run_rc=$rc
	run vs list --json
	if [ "$run_rc" -eq 0 ] && [ "$took" -ge 1000 ] && [ "$(with_vgpu "$out" | wc -l)" -eq 5 ]; then
		ok "--parallel 1: the 5 tasks one after another ($took ms), all changed"
	else nok "--parallel 1" "rc $run_rc, $took ms"; fi
	run vs apply --vm x --parallel 0 $PLAN
	check "--parallel 0 refused" sh -c "[ $rc -eq 2 ] && grep -q -- '--parallel' '$err'"
	vcsim_stop
else nok "vcsim with 5 VMs started"; fi

# ---- one VM's task fails: reported with its fault, the others changed --------------
if vcsim_start -model vpx -vms 6 -on 0 -user gw -pass pw -task-delay-ms 100 -fail-vm '*3'; then
	BAD=$(echo "$VC_VMS" | grep '3$' | head -n 1)
	apply_all
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$err")" -eq 1 ] && errhas "$BAD" &&
		errhas "A general system error occurred: vcsim-gpuwiz injected fault" &&
		[ "$(grep -c '^Reconfigured ' "$out")" -eq 5 ] && ! has "Reconfigured $BAD."; then
		ok "a failed task: one line with its VM and fault, exit 1, the others reconfigured"
	else nok "a failed task" "rc $rc; $(cat "$err")"; fi
	run vs list --json
	if [ "$(with_vgpu "$out")" = "$(echo "$VC_VMS" | grep -v "^$BAD\$" | sort)" ]; then
		ok "a failed task: the other 5 have the vGPU, $BAD not (read back)"
	else nok "a failed task: read back" "$(with_vgpu "$out" | tr '\n' ' ')"; fi
	vcsim_stop
else nok "vcsim with a failing VM started"; fi

# ---- passthrough picks in a batch: a device started for one VM is taken ------------
# (the host has one passthrough-enabled L40S: the first VM gets it, the
# second is told there is none free, without the inventory read again:
# one RetrievePropertiesEx for it, one for the task's state)
if vcsim_start -model esx -vms 2 -on 0 -user gw -pass pw -task-delay-ms 200; then
	A=$(echo "$VC_VMS" | sed -n 1p)
	B=$(echo "$VC_VMS" | sed -n 2p)
	: >"$VC_REQUESTS"
	run vs apply --vm "$A" --vm "$B" --gpu l40s
	if [ "$rc" -eq 1 ] && has "Reconfigured $A." && [ "$(wc -l <"$err")" -eq 1 ] &&
		errhas "$B: host" && errhas "no free passthrough-enabled" &&
		[ "$(vcsim_requests QueryConfigTarget)" -eq 1 ] &&
		[ "$(vcsim_requests RetrievePropertiesEx)" -eq 2 ]; then
		ok "batch pick: the device started for $A is not picked again for $B; one QueryConfigTarget"
	else nok "batch pick" "rc $rc; $(cat "$err"); $(sort "$VC_REQUESTS" | uniq -c | tr '\n' ' ')"; fi
	vcsim_stop
else nok "vcsim esx started"; fi

# ---- --json: one summary on stdout, each VM's result ------------------------------
# the dry run first: every VM "would_change" with the write's description,
# nothing sent; then the write: the failing VM "failed" with its fault,
# the others "reconfigured"; then again: "unchanged" (desired state)
json_results() {
	python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["round_trips"], int), d
for v in sorted(d["vms"], key=lambda v: v["vm"]):
    w = v.get("write") or {}
    lines = (w.get("vmx") or {}).get("lines", [])
    print(v["vm"], v["result"], "dry" if d["dry_run"] else "real",
          "uvm" if any("enable_uvm" in l for l in lines) else "-",
          "err" if v["error"] else "-")
PY
}
if vcsim_start -model vpx -vms 3 -on 0 -user gw -pass pw -task-delay-ms 100 -fail-vm '*2'; then
	BAD=$(echo "$VC_VMS" | grep '2$' | head -n 1)
	apply_all --json --dry-run
	res=$(json_results 2>&1)
	if [ "$rc" -eq 0 ] && [ "$(echo "$res" | grep -c ' would_change dry uvm -$')" -eq 3 ] &&
		[ "$(vcsim_requests ReconfigVM_Task)" -eq 0 ] && [ ! -s "$err" ]; then
		ok "--json --dry-run: each VM would change, the write's lines shown, nothing sent"
	else nok "--json --dry-run" "rc $rc; $res; $(cat "$err")"; fi
	apply_all --json
	res=$(json_results 2>&1)
	if [ "$rc" -eq 1 ] && echo "$res" | grep -q "^$BAD failed real uvm err\$" &&
		[ "$(echo "$res" | grep -c ' reconfigured real uvm -$')" -eq 2 ] &&
		! grep -q 'Reconfigured\|Round trips' "$out" && errhas "$BAD"; then
		ok "--json: one summary; $BAD failed with its fault, the others reconfigured"
	else nok "--json" "rc $rc; $res; $(cat "$err")"; fi
	apply_all --json
	res=$(json_results 2>&1)
	if echo "$res" | grep -v "^$BAD " | grep -q . &&
		[ "$(echo "$res" | grep -v "^$BAD " | grep -c ' unchanged real - -$')" -eq 2 ]; then
		ok "--json again: the reconfigured VMs are unchanged"
	else nok "--json again" "rc $rc; $res; $(cat "$err")"; fi
	vcsim_stop
else nok "vcsim with 3 VMs started"; fi

# ---- the progress line: on a terminal, not with --json -----------------------------
if command -v script >/dev/null 2>&1 &&
	vcsim_start -model vpx -vms 4 -on 0 -user gw -pass pw -task-delay-ms 300; then
	# shellcheck disable=SC2046
	cmd="$GPUWIZ vsphere --url $VC_URL --user gw --thumbprint $VC_THUMB apply $(vm_args) $PLAN"
	script -qec "$cmd" /dev/null >"$TMP/tty.out" 2>&1 </dev/null
	if grep -q 'Tasks: [0-9] of 4 ended, 0 failed' "$TMP/tty.out"; then
		ok "progress: the counts line on a terminal"
	else nok "progress on a terminal" "$(tail -n 5 "$TMP/tty.out")"; fi
	vcsim_stop
	vcsim_start -model vpx -vms 4 -on 0 -user gw -pass pw -task-delay-ms 300
	cmd="$GPUWIZ vsphere --url $VC_URL --user gw --thumbprint $VC_THUMB apply $(vm_args) $PLAN --json"
	script -qec "$cmd" /dev/null >"$TMP/tty.out" 2>&1 </dev/null
	if ! grep -q 'Tasks:' "$TMP/tty.out" && grep -q '"result": "reconfigured"' "$TMP/tty.out"; then
		ok "progress: none with --json"
	else nok "progress with --json" "$(tail -n 5 "$TMP/tty.out")"; fi
	vcsim_stop
fi

finish

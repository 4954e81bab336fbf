#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere_scale.sh: gpuwiz vsphere apply stays linear in the VM count
# (doc/design.md 4.5), counted by the simulator, not timed: at 50 and 300
# VMs, with the default options (every task started, then one read of all
# the tasks' state) at most N + 10 round trips (Logout included); with
# windows of 16 tasks (--parallel 16) at most N + 10 plus one round trip
# per window refilled and one per inventory page of GW_VS_PAGE_OBJECTS
# (5,000); at most one task filter for all the tasks (over one ListView),
# none made, waited on and destroyed per window.  Every VM is
# reconfigured.  Skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/lib.sh"
need_vsphere
. "$(dirname "$0")/vcsim.sh"

export GPUWIZ_PASSWORD=pw
PLAN="--vgpu nvidia_l40s-24c --uvm"
vs() { timeout 120 "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
vm_args() { printf -- '--vm %s ' $VC_VMS; }

# apply_counted N [APPLY OPTIONS...]: a fresh simulator of N VMs, one apply
# to them all; sets rc out err total (requests answered, Logout included),
# calls, filters and views (CreateFilter, CreateContainerView)
apply_counted() {
	total=-1
	n_vms=$1
	shift
	if ! vcsim_start -model vpx -vms "$n_vms" -on 0 -user gw -pass pw; then
		rc=-1; return
	fi
	: >"$VC_REQUESTS"
	# shellcheck disable=SC2046,SC2086
	run vs apply $(vm_args) $PLAN "$@"
	total=$(vcsim_requests)
	calls=$(sort "$VC_REQUESTS" | uniq -c | sort -rn | tr -s ' \n' '  ')
	filters=$(vcsim_requests CreateFilter)
	views=$(vcsim_requests CreateContainerView)
	vcsim_stop
}

for n in 50 300; do
	apply_counted $n
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq $n ] &&
		[ "$total" -le $((n + 10)) ]; then
		ok "$n VMs, default options: $total round trips (at most N + 10)"
	else nok "$n VMs, default options: round trips (at most $((n + 10)))" "rc $rc, counted $total: $calls $(tail -n 2 "$err")"; fi

	p=16
	windows=$(((n - 1) / p))
	pages=$(((n - 1) / 5000))
	apply_counted $n --parallel $p
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq $n ] &&
		[ "$total" -le $((n + 10 + windows + pages)) ]; then
		ok "$n VMs, windows of $p: $total round trips (at most N + 10 + $windows windows + $pages pages)"
	else nok "$n VMs, windows of $p: round trips (at most $((n + 10 + windows + pages)))" "rc $rc, counted $total: $calls $(tail -n 2 "$err")"; fi
	if [ "$filters" -le 1 ]; then
		ok "$n VMs, windows of $p: at most one task filter ($filters)"
	else nok "$n VMs, windows of $p: at most one task filter" "$calls"; fi
done

# --upgrade-hw over several VMs: each upgraded VM read again alone (one
# RetrievePropertiesEx), the inventory once per run (one view)
n=4
apply_counted $n --upgrade-hw
if [ "$rc" -eq 0 ] && [ "$(grep -c '^Reconfigured ' "$out")" -eq $n ] &&
	[ "$(grep -c '^Upgraded the hardware version' "$out")" -eq $n ] &&
	[ "$views" = 1 ] && [ "$total" -le $((5 * n + 10)) ]; then
	ok "$n VMs upgraded: one inventory view, $total round trips (at most 5N + 10)"
else nok "$n VMs upgraded: the inventory once" "rc $rc, counted $total: $calls $(tail -n 2 "$err")"; fi

finish

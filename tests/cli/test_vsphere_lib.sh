#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere_lib.sh: the vSphere client library (tests/unit/test_vsphere,
# its live half) against vcsim-gpuwiz, the govmomi simulator with NVIDIA
# L40S GPUs on its hosts: a standalone ESXi model and a vCenter model
# (connect, inventory in a few round trips, reconfigure and read back,
# idempotent re-apply, powered-on refusal, certificate, thumbprint and
# password errors, the pin checked again after the server is replaced
# behind the same address, upgrade, enable passthrough), then the injected
# faults: free ESXi's license fault on UpdatePassthruConfig, a fault of
# ReconfigVM_Task, and the server dying right after ReconfigVM_Task.
# Skipped (77) when the simulator cannot be built (no Go or no govmomi).
. "$(dirname "$0")/lib.sh"
need_vsphere
TV=${GW_TEST_VSPHERE_BIN:-$(dirname "$GPUWIZ")/../tests/unit/host/test_vsphere}
[ -x "$TV" ] || { echo "SKIP: $TV not built"; exit 77; }
. "$(dirname "$0")/vcsim.sh"

USER_=gw-admin@vsphere.local
PASS_='S3cret pass <&>'

# live NAME ENV...: run the unit test binary against the running simulator.
live() {
	name=$1; shift
	run env GW_VCSIM_URL="$VC_URL" GW_VCSIM_THUMB="$VC_THUMB" \
		GW_VCSIM_CERT="$VC_CERT" GW_VCSIM_USER="$USER_" GW_VCSIM_PASS="$PASS_" \
		GW_VCSIM_MODE="$VC_MODEL" GW_VCSIM_BIN="$VCSIM_BIN" "$@" "$TV"
	if [ "$rc" -eq 0 ]; then
		ok "$name"
		grep '^# ' "$out" | sed 's/^/   /'
	else
		nok "$name" "$(grep -h -v '^\[ *\(RUN\|OK\|SKIPPED\) *\]' "$out" "$err" |
			grep -v '^  0x\|^Shadow\|^  [A-Z][a-z ]*: ' | head -n 40)"
		vcsim_log 10 | sed 's/^/   vcsim: /'
	fi
}

# ran TEST...: none of these live tests was skipped in the last run.
ran() {
	for t in "$@"; do
		if grep -q "SKIPPED \] $t\$" "$out" || ! grep -q "OK \] $t\$" "$out"; then
			return 1
		fi
	done
	return 0
}

no_password_leak() {
	! grep -qF -- "$PASS_" "$out" "$err"
}

LIVE_ALL="test_live_connect test_live_inventory test_live_reconfigure test_live_powered_on_refused test_live_wrong_thumbprint test_live_unverified_certificate test_live_wrong_password test_live_not_vsphere test_live_upgrade test_live_enable_passthru test_live_reconnect_pinned test_live_named_inventory"

# ---- standalone ESXi --------------------------------------------------------
if vcsim_start -model esx -vms 50 -on 5 -user "$USER_" -pass "$PASS_"; then
	ok "vcsim esx started ($VC_URL)"
	live "esx: connect, inventory of 50 VMs, reconfigure, refusals, upgrade" \
		GW_VCSIM_VMS=50 GW_VCSIM_ON=5
	check "esx: every live test ran" ran $LIVE_ALL
	check "esx: the password is in no output" no_password_leak
	pid=$VC_PID
	vcsim_stop
	check "esx: the simulator is gone after vcsim_stop" sh -c "! kill -0 $pid 2>/dev/null"
else
	nok "vcsim esx started"
fi

# ---- vCenter ---------------------------------------------------------------------
# (tasks kept running 600 ms: polled, progress between 0 and 100 seen)
if vcsim_start -model vpx -vms 6 -on 2 -user "$USER_" -pass "$PASS_" \
	-task-delay-ms 600; then
	ok "vcsim vpx started ($VC_HOSTS hosts)"
	live "vpx: connect, inventory, reconfigure with task progress, refusals, upgrade" \
		GW_VCSIM_VMS=6 GW_VCSIM_ON=2 GW_VCSIM_TASK_DELAY=600
	check "vpx: every live test ran" ran $LIVE_ALL
	check "vpx: the password is in no output" no_password_leak
	vcsim_stop
else
	nok "vcsim vpx started"
fi

# ---- injected faults -------------------------------------------------------------
if vcsim_start -model esx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-fail UpdatePassthruConfig=license; then
	live "free ESXi: UpdatePassthruConfig's license fault names the SSH route" \
		GW_VCSIM_FAIL=UpdatePassthruConfig=license
	check "free ESXi: the enable test ran" ran test_live_enable_passthru
	vcsim_stop
else
	nok "vcsim -fail UpdatePassthruConfig=license started"
fi

# (a server that pages: 14 objects, 5 a page, ContinueRetrievePropertiesEx)
if vcsim_start -model esx -vms 12 -on 2 -user "$USER_" -pass "$PASS_" \
	-page-size 5; then
	live "paged inventory: RetrievePropertiesEx + ContinueRetrievePropertiesEx" \
		GW_VCSIM_VMS=12 GW_VCSIM_ON=2 GW_VCSIM_PAGE=5
	check "paged: every live test ran" ran $LIVE_ALL
	vcsim_stop
else
	nok "vcsim -page-size 5 started"
fi

if vcsim_start -model esx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-fail CreateContainerView=notauthenticated; then
	live "a session gone on the server: one line saying so" \
		GW_VCSIM_FAIL=CreateContainerView=notauthenticated
	check "session gone: the test ran" ran test_live_session_expired
	vcsim_stop
else
	nok "vcsim -fail CreateContainerView=notauthenticated started"
fi

if vcsim_start -model esx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-fail ReconfigVM_Task=license; then
	live "free ESXi: ReconfigVM_Task's license fault names the SSH route" \
		GW_VCSIM_FAIL=ReconfigVM_Task=license
	check "free ESXi reconfigure: the test ran" ran test_live_reconfigure_fault
	vcsim_stop
else
	nok "vcsim -fail ReconfigVM_Task=license started"
fi

if vcsim_start -model vpx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-fail ReconfigVM_Task=taskfault -task-delay-ms 300; then
	live "a task that ends in error: its message in one line" \
		GW_VCSIM_FAIL=ReconfigVM_Task=taskfault
	check "task error: the test ran" ran test_live_reconfigure_fault
	vcsim_stop
else
	nok "vcsim -fail ReconfigVM_Task=taskfault started"
fi

if vcsim_start -model esx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-fail ReconfigVM_Task=fault; then
	live "a SOAP fault of ReconfigVM_Task is one clear line" \
		GW_VCSIM_FAIL=ReconfigVM_Task=fault
	check "ReconfigVM_Task fault: the test ran" ran test_live_reconfigure_fault
	vcsim_stop
else
	nok "vcsim -fail ReconfigVM_Task=fault started"
fi

# (the task kept running, so it is not over before the server is gone)
if vcsim_start -model esx -vms 2 -on 0 -user "$USER_" -pass "$PASS_" \
	-die-after ReconfigVM_Task -task-delay-ms 5000; then
	live "the server gone while the task runs" GW_VCSIM_DIE=ReconfigVM_Task
	check "server gone: the test ran" ran test_live_reconfigure_fault
	vcsim_stop
else
	nok "vcsim -die-after ReconfigVM_Task started"
fi

finish

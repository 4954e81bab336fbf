#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of an answers file replayed through the vSphere API (vcsim,
# tests/vcsim) on a VM that already holds one of its GPUs (doc/design.md,
# sections 9 and 15.3: the counts are what the VM ends with).  VM0 is
# given one L40S with gpuwiz vsphere apply; the file asks for two.  The
# GPU step shows the two once ("2 x l40s"), not the VM's own L40S again
# beside them; the VM step names the one free device to attach, the
# review adds one and names the one in the VM, and the write sends one
# ReconfigVM_Task: the VM holds two.  The same file again shows the two
# once, adds none and sends no ReconfigVM_Task.  At 80x24 in C.UTF-8 and
# zh_CN.UTF-8; skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/vcsim.sh"

pw='pw-typed-in-the-box'
# fmt LANG MSGID ARGS...: the screen's text of a format
fmt() { f_l=$1; f_m=$2; shift 2; printf "$(tr_ "$f_l" "$f_m")" "$@"; }
vs() { GPUWIZ_PASSWORD=$pw "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
# l40s_in VM: how many L40S the VM holds, as the API lists them
l40s_in() {
	run vs list --json
	python3 - "$out" "$1" <<'PY'
import json, sys
vm = [v for v in json.load(open(sys.argv[1]))["vms"] if v["name"] == sys.argv[2]][0]
print(len([x for x in vm["passthrough"] if x.get("device_id") == "26b9"]))
PY
}
# replay LANG: the wizard on the answers file, connected, at the GPU step
replay() {
	start "$1" 80x24 --answers a.ini
	wait_for "$VC_URL" 20 >/dev/null
	typ "$pw"; keys Enter
	wait_for "(*) $(tr_ "$1" "vCenter or ESXi through the API")" 30 >/dev/null
	keys Enter; wait_for "$(st HOST)" 20 >/dev/null
	keys Enter
}

if ! vcsim_usable; then
	echo "SKIP: vcsim cannot run here"
	finish
	exit 77
fi
for lang in $langs; do
	l=${lang%%.*}
	# a fresh server per language: VM0 with one of the host's two L40S
	vcsim_start -model esx -vms 2 -on 0 -user gw -pass "$pw" || { nok "$l: vcsim starts"; continue; }
	PT=$(echo "$VC_VMS" | sed -n 1p)
	run vs list --json
	H1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hosts"][0]["name"])' "$out")
	run vs passthru --enable 0000:5e:00.0 --host "$H1"
	run vs apply --vm "$PT" --gpu l40s=1
	check "$l: $PT holds one L40S" [ "$(l40s_in "$PT")" = 1 ]
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	printf '[host]\nkind = api\naddress = %s\nuser = gw\nthumbprint = %s\n[vm]\nname = %s\n[gpu]\ndevices = l40s=2\n' \
		"$VC_URL" "$VC_THUMB" "$PT" >"$TMP/run/a.ini"
	n0=$(vcsim_requests ReconfigVM_Task)

	replay "$lang"
	check "$l: the GPU step" wait_for "$(st GPU)" 20
	want=$(fmt "$lang" "%d x %s (%s), passthrough, %d GB" 2 l40s "AD102GL [L40S]" 48)
	have=$(fmt "$lang" "%d x %s, already in the VM" 1 l40s)
	check "$l: the two asked for, once" wait_for "$want"
	check "$l: the VM's L40S not listed again beside them" sh -c "! grep -qF '$have' '$SCREEN'"
	check "$l: the total is two L40S (96 GB)" on_screen "$(fmt "$lang" "Selected for this VM (total %llu GB):" 96)"
	keys Enter
	check "$l: the VM step" wait_for "$(st VM)"
	attach=$(fmt "$lang" "Devices to attach (free, passthrough enabled on its host): %s" "")
	check "$l: the one free device to attach" wait_joined "$(fmt "$lang" "Devices to attach (free, passthrough enabled on its host): %s" 0000:5e:00.0)" 20
	enters VM REVIEW
	check "$l: the review" wait_for "$(st REVIEW)"
	check "$l: the review adds one and names the VM's" wait_joined \
		"$(fmt "$lang" "%s; already in the VM: %s" "1 x l40s" "1 x l40s")"
	keys Enter
	check "$l: the write step" wait_for "$(st WRITE)"
	keys Enter
	wait_for "$(tr_ "$lang" "Write the changes to the host and the files? This cannot be undone on the host.")" >/dev/null
	keys y
	check "$l: written" wait_for "$(tr_ "$lang" "Written:")" 30
	check "$l: one ReconfigVM_Task" [ "$(vcsim_requests ReconfigVM_Task)" -eq $((n0 + 1)) ]
	keys q
	$T kill-server 2>/dev/null
	check "$l: $PT holds two L40S" [ "$(l40s_in "$PT")" = 2 ]

	# the same file again on the VM that now holds both: still two, none
	# added, nothing sent
	replay "$lang"
	check "$l again: the GPU step" wait_for "$(st GPU)" 20
	check "$l again: the two, once" wait_for "$want"
	check "$l again: not listed twice" sh -c "! grep -qF '$(fmt "$lang" "%d x %s, already in the VM" 2 l40s)' '$SCREEN'"
	keys Enter
	check "$l again: the VM step" wait_for "$(st VM)"
	check "$l again: the VM's two devices listed" wait_for "pciPassthru1" 20
	check "$l again: no device to attach" sh -c "! grep -qF '$attach' '$SCREEN'"
	enters VM REVIEW
	check "$l again: the review adds none" wait_joined \
		"$(fmt "$lang" "none added; already in the VM: %s" "2 x l40s")"
	keys Enter
	check "$l again: the write step" wait_for "$(st WRITE)"
	keys Enter
	if wait_for "$(tr_ "$lang" "Write the changes to the host and the files? This cannot be undone on the host.")" 3 >/dev/null; then
		keys y
		wait_for "$(tr_ "$lang" "Written:")" 30 >/dev/null
	fi
	screen; cp "$SCREEN" "$TMP/again-$l.txt"
	check "$l again: no ReconfigVM_Task" [ "$(vcsim_requests ReconfigVM_Task)" -eq $((n0 + 1)) ]
	check "$l again: $PT still holds two L40S" [ "$(l40s_in "$PT")" = 2 ]
	keys q
	$T kill-server 2>/dev/null
	vcsim_stop
done

finish

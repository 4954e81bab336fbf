#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of Dynamic DirectPath I/O on the wizard's API route
# (doc/design.md, section 15.4), against vcsim (tests/vcsim): an answers
# file's [options] dynamic = yes on a vCenter adds the GPU by its PCI ids
# (no free device picked, the review says what DRS placement allows) and
# the write reconfigures the VM with a dynamic device; on a standalone
# ESXi the plan is refused with the wizard's words.  In C.UTF-8 and
# zh_CN.UTF-8 at 80x24.  Skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/vcsim.sh"
export GPUWIZ_PASSWORD='pw-for-the-wizard'

answers() {
	printf '[wizard]\nactivity = vm\n[gpu]\ndevices = l40s\n[options]\ndynamic = yes\n' >"$TMP/run/a.ini"
}

# ---- a vCenter: the device by its ids ---------------------------------------
vcsim_start -model vpx -vms 2 -on 0 -user gw -pass "$GPUWIZ_PASSWORD" || { finish; exit; }
for lang in $langs; do
	l=${lang%%.*}
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"; answers
	start "$lang" 80x24 --answers a.ini --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
	check "$l vpx: welcome" wait_for "$(st WELCOME)" 20
	keys Enter
	check "$l vpx: host step" wait_for "$(st HOST)" 30
	keys Enter
	check "$l vpx: GPU step" wait_for "$(st GPU)"
	keys Enter
	check "$l vpx: the server's VMs" wait_for "VM1" 20
	keys Down; keys Down; keys Space
	check "$l vpx: VM1 opens" wait_for "$(tr_ "$lang" "%s: %s" | sed 's/%s/VM1/; s/%s$//')" 20
	check "$l vpx: no free device picked" sh -c "! grep -qF '0000:3b:00.0' '$SCREEN'"
	keys Enter
	wait_for "$(st MMIO)" >/dev/null
	enters MMIO OPTIONS
	check "$l vpx: options" wait_for "$(st OPTIONS)"
	check "$l vpx: the row, on from the answers" to_row "$(tr_ "$lang" "pciPassthruN.allowedDevices by PCI ids: DRS places the VM on any host with a free GPU of those ids. Needs vCenter 7+ and hardware version 17; still no vMotion, memory still reserved." | cut -c1-40)"
	check "$l vpx: [x]" on_screen "[x] $(tr_ "$lang" "Dynamic DirectPath I/O (vCenter places the VM)")"
	keys Space
	check "$l vpx: Space turns it off" wait_for "[ ] $(tr_ "$lang" "Dynamic DirectPath I/O (vCenter places the VM)")"
	keys Space
	check "$l vpx: and on again on vCenter" wait_for "[x] $(tr_ "$lang" "Dynamic DirectPath I/O (vCenter places the VM)")"
	enters OPTIONS REVIEW
	check "$l vpx: review" wait_for "$(st REVIEW)"
	check "$l vpx: the review names Dynamic DirectPath I/O" find_in_pages "$(tr_ "$lang" "Attach a %s by Dynamic DirectPath I/O as pciPassthru%u." | sed 's/%s/l40s/; s/%u/0/')"
	screen; cp "$SCREEN" "$TMP/review-$l.txt"
	keys q; keys y
	check "$l vpx: exits" exited
done
vcsim_stop

# ---- a standalone ESXi: refused with the wizard's words ---------------------
vcsim_start -model esx -vms 1 -on 0 -user gw -pass "$GPUWIZ_PASSWORD" || { finish; exit; }
for lang in $langs; do
	l=${lang%%.*}
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"; answers
	start "$lang" 80x24 --answers a.ini --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
	wait_for "$(st WELCOME)" 20 >/dev/null
	keys Enter; wait_for "$(st HOST)" 30 >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter
	check "$l esx: the server's VMs" wait_for "VM0" 20
	keys Down; keys Space
	check "$l esx: the refusal, in the wizard's words" wait_joined "$(tr_ "$lang" "This server is a standalone ESXi host, not vCenter: Dynamic DirectPath I/O ([options] dynamic in the answers file) needs vCenter 7 or later to place the VM; set it to no for fixed passthrough on this host." | cut -c1-40)" 20
	screen; cp "$SCREEN" "$TMP/esx-$l.txt"
	keys q; keys y
	check "$l esx: exits" exited
done
vcsim_stop

# ---- a sample ESXi host (reached directly): no vCenter ----------------------
for lang in $langs; do
	l=${lang%%.*}
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"; answers
	start "$lang" 80x24 --answers a.ini --sample-host esxi-l40s
	wait_for "$(st WELCOME)" 20 >/dev/null
	keys Enter; wait_for "$(st HOST)" 30 >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter
	check "$l sample: the host's VMs" wait_for "llm-train" 20
	keys Down; keys Space
	check "$l sample: the replay refused, in one rule's words" wait_joined "$(tr_ "$lang" "This host is reached directly, not through vCenter: Dynamic DirectPath I/O ([options] dynamic in the answers file) needs vCenter 7 or later to place the VM; set it to no for fixed passthrough on this host." | cut -c1-40)" 20
	keys Enter
	check "$l sample: Enter stays on the VM step" on_screen "$(st VM)"
	keys q; keys y
	check "$l sample: exits" exited
	# without dynamic in the answers: the row says why it does not
	# apply and Space is refused, the value unchanged
	printf '[wizard]\nactivity = vm\n[gpu]\ndevices = l40s\n' >"$TMP/run/b.ini"
	start "$lang" 80x24 --answers b.ini --sample-host esxi-l40s
	wait_for "$(st WELCOME)" 20 >/dev/null
	keys Enter; wait_for "$(st HOST)" 30 >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter; wait_for "llm-train" 20 >/dev/null
	keys Down; keys Down; keys Down; keys Space
	wait_for "Vmid 3" 20 >/dev/null
	keys Enter; wait_for "$(st MMIO)" >/dev/null
	keys Enter
	check "$l sample: options" wait_for "$(st OPTIONS)"
	check "$l sample: the row says why not" to_row "$(tr_ "$lang" "Only through the vSphere API to a vCenter: this route has no vCenter to place the VM, so the GPUs are fixed passthrough." | cut -c1-40)"
	keys Space
	check "$l sample: Space refused with one line" wait_joined "$(tr_ "$lang" "A host reached directly, not vCenter: Dynamic DirectPath I/O needs vCenter 7 or later to place the VM.")"
	check "$l sample: the value unchanged" on_screen "[ ] $(tr_ "$lang" "Dynamic DirectPath I/O (vCenter places the VM)")"
	screen; cp "$SCREEN" "$TMP/options-$l.txt"
	keys q; keys y
	check "$l sample: exits" exited
done
finish

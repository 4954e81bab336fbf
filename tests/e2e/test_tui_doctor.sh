#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the doctor (doc/design.md, section 9, "The doctor"):
# cold from `gpuwiz` (no answers file), in C.UTF-8 and zh_CN.UTF-8 at
# 80x24.  (1) The Dell KB's MMIO power-on failure pasted as two
# vmware.log lines (tmux paste-buffer -p: bracketed paste), the .vmx
# given on the VM step: the review shows the pre-filled
# pciPassthru.64bitMMIOSizeGB and the write adds exactly the planned
# lines, the backup is the original.  (2) A vmware.log path whose
# directory holds the .vmx: found, straight to the review.  (3) Text
# that matches nothing: said so, Enter goes on with the normal steps.
# (4) Seed 001's NCCL crash pasted for a vGPU VM: a question while no
# VM is known, then UVM on every vGPU once the .vmx shows them.
# (5) Seed 000's vSphere CPI lines pasted raw, as a terminal without
# bracketed paste sends them (paste-buffer without -p: the text as keys,
# its blank lines included): they stay in the box, nothing of them acts
# as a key, Enter on the empty line after them diagnoses the whole text;
# seed 001's NCCL lines typed by tmux send-keys -l (newlines included),
# whose failure needs more than the first line, are found whole.
# (6) Lines typed one by one: Enter starts a new line, the box shows
# both, the line under it counts them and their bytes, each count in its
# own form ("1 line, 1 byte"), Ctrl-D (the key line's "^D Diagnose")
# diagnoses them together.
# (7) From (5): the CPI lines take the Tanzu route: the GPU model is
# asked (no vmware.log), the review holds the tile, BOSH and Ops
# Manager outputs with the L40S's 128 GB, the next steps have the
# tile's Apply Changes and no power-on.  (8) The Chinese vSphere Client's
# vGPU plugin error pasted: the plugin's causes with their host checks,
# the fix is the host's, Enter goes on with the normal steps.
#
# Keystrokes (after the welcome screen is up; the cursor starts on
# "Plan offline"):
#  (1) Up Enter | paste | Enter | Enter | llm.vmx Enter Enter  -> review
#      (6 keys, one paste, 7 characters typed), then Enter Enter writes
#  (2) Up Enter | vm/vmware.log Enter | Enter                   -> review
#      (4 keys, 13 characters typed), then Enter Enter writes
#  (7) Up Enter | paste | Enter | Enter | l40s Down Space Enter  -> review
#      (7 keys, one paste, 4 characters typed), then Enter Enter writes
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/vgpu_vmx.sh"
. "$(dirname "$0")/lib.sh"

# first LANG MSGID N: the first N characters of its translation
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }
# counter LANG LINES BYTES: the line under the text box, each count in
# its own form ("1 line, 1 byte", "2 lines, 107 bytes")
counter() {
	cl=$(trn_ "$1" '%zu line' '%zu lines' "$2" | sed "s/%zu/$2/")
	cb=$(trn_ "$1" '%zu byte' '%zu bytes' "$3" | sed "s/%zu/$3/")
	tr_ "$1" '%s, %s' | sed "s/%s/$cl/; s/%s/$cb/"
}
# counted TEXT: the screen shows TEXT with no letter after it ("1 byte",
# not "1 bytes")
counted() { screen; grep -q -- "$1\([^[:alpha:]]\|\$\)" "$SCREEN"; }
# the highlighted row (black on cyan: ESC [46m) holds TEXT
focused_has() { $T capture-pane -e -p -t w | grep "$(printf '\033')\[46m" | grep -qF -- "$1"; }

DELL=vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt
# the Dell KB's two vmware.log lines (the stored page joins them on one
# line: split again at the second timestamp)
sample "$DELL" "$TMP/dell.txt"
sed 's/ \(2022-04-22T03:04:15\.771Z| vmx| | I005: Module\)/\n\1/' "$TMP/dell.txt" >"$TMP/dell2.txt"
sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$TMP/nccl.txt"
sample doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt "$TMP/cpi.txt"

# mmio_vm DEST: the esxi-l40s sample's llm-train.vmx (its L40S in
# passthrough) without its 64-bit MMIO lines: the window is too small
mmio_vm() {
	sed -e '/^pciPassthru\.use64bitMMIO /d' -e '/^pciPassthru\.64bitMMIOSizeGB /d' \
	    "$SRC/data/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx" >"$1"
}

# written_ok VMX ORIG LINE...: VMX is ORIG's bytes plus exactly LINEs, and
# its backup holds ORIG
written_ok() {
	vmx=$1 orig=$2; shift 2
	printf '%s\n' "$@" >"$TMP/want"
	n=$(stat -c %s "$orig")
	head -c "$n" "$vmx" | cmp -s - "$orig" &&
	tail -c +"$((n + 1))" "$vmx" | cmp -s - "$TMP/want" &&
	cmp -s "$(ls "$vmx".*.bak | head -n 1)" "$orig"
}

# open_doctor LANG: from the welcome screen to the doctor's text area
open_doctor() {
	check "$1: welcome" wait_for "$(st WELCOME)"
	keys Up
	check "$1: the doctor's choice above the modes" focused_has "$(tr_ "$1" 'Fix a failed power-on or a crash: paste the error text or give vmware.log')"
	keys Enter
	check "$1: the text area" wait_for "$(tr_ "$1" 'Diagnose')"
	check "$1: it says what to paste" on_screen "$(first "$1" "Paste the error text (a vSphere task error, lines of a vmware.log or of a BOSH director's log, the guest's log) or type the vmware.log's path. Enter starts a new line; Ctrl-D or Enter on an empty line diagnoses." 16)"
	check "$1: the key that diagnoses on the key line" on_screen "^D $(tr_ "$1" 'Diagnose')"
}

# write_walk LANG VMX ORIG LINE...: from the review, write and check
write_walk() {
	lang=$1 vmx=$2 orig=$3; shift 3
	keys Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')"
	check "$lang: the .vmx is the original plus exactly the planned lines; backup = original" written_ok "$vmx" "$orig" "$@"
	keys Enter
	check "$lang: Enter on the result finishes" exited
	check "$lang: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored" terminal_sane
}

fresh() { rm -rf "$TMP/run"; mkdir -p "$TMP/run"; }

for lang in $langs; do
	# ---- (1) the MMIO failure pasted, the .vmx given on the VM step ----
	fresh
	mmio_vm "$TMP/run/llm.vmx"
	cp "$TMP/run/llm.vmx" "$TMP/llm.orig"
	start "$lang" 80x24
	open_doctor "$lang"
	$T load-buffer "$TMP/dell2.txt"
	$T paste-buffer -p -t w; sleep 0.5
	screen
	check "$lang (1): the pasted lines keep their line break" [ "$(grep -c '2022-04-22T03:04:15.771Z' "$SCREEN")" = 2 ]
	check "$lang (1): the paste did not run the diagnosis" on_screen "$(tr_ "$lang" 'Diagnose')"
	keys Enter
	check "$lang (1): the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	check "$lang (1): FAIL with the cause" on_screen "$(tr_ "$lang" 'FAIL')"
	check "$lang (1): the fix in the wizard's words, 32 GB from the pages" on_screen 'pciPassthru.64bitMMIOSizeGB = "32"'
	check "$lang (1): the source" on_screen "Dell KB 000199172"
	check "$lang (1): the line quoted" on_screen "exceeds limit (917504)"
	check "$lang (1): the next action asks for the .vmx" on_screen "$(first "$lang" "Enter asks for the VM's .vmx on the VM step, then opens the review with these changes pre-filled." 20)"
	keys Enter
	check "$lang (1): the VM step asks for the .vmx" wait_for "$(st VM)"
	check "$lang (1): it says why" on_screen "$(first "$lang" "Give the VM's .vmx (the VM that failed); Enter then goes straight to the review." 20)"
	typ llm.vmx; keys Enter
	check "$lang (1): the .vmx opens" wait_for "pciPassthru0 0x10de:0x26b9"
	keys Enter
	check "$lang (1): straight on to the review" wait_for "$(st REVIEW)"
	check "$lang (1): the review shows the MMIO size pre-filled" find_in_pages '+ pciPassthru.64bitMMIOSizeGB = "128"'
	check "$lang (1): and the 64-bit MMIO switch" on_screen '+ pciPassthru.use64bitMMIO = "TRUE"'
	write_walk "$lang" "$TMP/run/llm.vmx" "$TMP/llm.orig" \
		'pciPassthru.use64bitMMIO = "TRUE"' 'pciPassthru.64bitMMIOSizeGB = "128"'

	# ---- (2) a vmware.log path, the .vmx beside it found ---------------
	fresh
	mkdir -p "$TMP/run/vm"
	mmio_vm "$TMP/run/vm/llm.vmx"
	cp "$TMP/run/vm/llm.vmx" "$TMP/llm.orig"
	cp "$TMP/dell.txt" "$TMP/run/vm/vmware.log"
	start "$lang" 80x24
	open_doctor "$lang"
	typ vm/vmware.log; keys Enter
	check "$lang (2): the file was read" wait_for "$(printf "$(tr_ "$lang" 'Read from %s')" vm/vmware.log)"
	check "$lang (2): the .vmx beside it found" on_screen "$(printf "$(tr_ "$lang" 'The VM: %s, beside the log.')" vm/llm.vmx)"
	check "$lang (2): the next action is the review" on_screen "$(tr_ "$lang" 'Enter opens the review with these changes pre-filled.')"
	keys Enter
	check "$lang (2): straight to the review" wait_for "$(st REVIEW)"
	check "$lang (2): the review shows the MMIO size pre-filled" find_in_pages '+ pciPassthru.64bitMMIOSizeGB = "128"'
	write_walk "$lang" "$TMP/run/vm/llm.vmx" "$TMP/llm.orig" \
		'pciPassthru.use64bitMMIO = "TRUE"' 'pciPassthru.64bitMMIOSizeGB = "128"'

	# ---- (3) nothing recognised: the normal steps ----------------------
	fresh
	start "$lang" 80x24
	open_doctor "$lang"
	typ "the VM does not start"; keys C-d
	check "$lang (3): said plainly" wait_for "$(tr_ "$lang" 'Nothing recognised')"
	check "$lang (3): Enter offers the normal steps" on_screen "$(first "$lang" 'Enter goes on with the normal steps; Esc goes back to try other text.' 16)"
	keys Escape
	check "$lang (3): Esc goes back to the text" wait_for "$(tr_ "$lang" 'Diagnose')"
	check "$lang (3): the text kept" on_screen "the VM does not start"
	keys C-d; wait_for "$(tr_ "$lang" 'Nothing recognised')" >/dev/null
	keys Enter
	check "$lang (3): on to the host check" wait_for "$(st HOST)"
	keys Escape
	check "$lang (3): Esc goes back to the welcome list" wait_for "$(tr_ "$lang" 'What are you doing?')"
	keys q
	check "$lang (3): q quits" exited
	check "$lang (3): terminal restored" terminal_sane

	# ---- (4) seed 001's NCCL crash pasted: UVM on every vGPU -----------
	fresh
	vgpu_vmx "$TMP/run/llm.vmx"
	cp "$TMP/run/llm.vmx" "$TMP/llm.orig"
	start "$lang" 80x24
	open_doctor "$lang"
	$T load-buffer "$TMP/nccl.txt"
	$T paste-buffer -p -t w; sleep 0.5
	keys Enter
	check "$lang (4): the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	pages_joined "$TMP/found"
	case $lang in zh*) ask='这些 GPU 是 vGPU 吗' ;; *) ask='Are the GPUs vGPUs?' ;; esac
	check "$lang (4): no VM yet, nothing shows a vGPU: a question" grep -qF "$ask" "$TMP/found"
	check "$lang (4): how to tell, and the fix when they are" sh -c "grep -qF 'Virtualization Mode' '$TMP/found' && grep -qF 'pciPassthruN.cfg.enable_uvm' '$TMP/found'"
	check "$lang (4): the source" grep -qF "NCCL issue 2101" "$TMP/found"
	keys Enter
	check "$lang (4): the VM step" wait_for "$(st VM)"
	typ llm.vmx; keys Enter
	check "$lang (4): the vGPUs shown" wait_for "pciPassthru0 vGPU nvidia_l40s-24c"
	keys Enter
	check "$lang (4): straight on to the review" wait_for "$(st REVIEW)"
	check "$lang (4): enable_uvm on pciPassthru0" find_in_pages '+ pciPassthru0.cfg.enable_uvm = "1"'
	check "$lang (4): enable_uvm on pciPassthru1" find_in_pages '+ pciPassthru1.cfg.enable_uvm = "1"'
	write_walk "$lang" "$TMP/run/llm.vmx" "$TMP/llm.orig" \
		'pciPassthru0.cfg.enable_uvm = "1"' 'pciPassthru1.cfg.enable_uvm = "1"'

	# ---- (8) the Chinese vSphere Client's vGPU plugin error pasted ------
	fresh
	sample vmwarelog/vsphere-client-zh-could-not-initialize-plugin-libnvidia-vgx-rtxa5000.txt "$TMP/plugin.txt"
	start "$lang" 80x24
	open_doctor "$lang"
	$T load-buffer "$TMP/plugin.txt"
	$T paste-buffer -p -t w; sleep 0.5
	keys Enter
	check "$lang (8): the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	check "$lang (8): FAIL, the profile from the line" sh -c "grep -qF '$(tr_ "$lang" 'FAIL')' '$SCREEN' && grep -qF 'nvidia_rtxa5000-1b' '$SCREEN'"
	pages_joined "$TMP/found"
	check "$lang (8): the causes' checks in order" grep -q 'Host VGPU Mode : SR-IOV.*esxcli graphics host get.*esxcli software vib list.*grep -i nvidia.*nvidia-smi -q -d ECC' "$TMP/found"
	check "$lang (8): the source" grep -qF 'NVIDIA AI Enterprise User Guide' "$TMP/found"
	check "$lang (8): the Chinese line quoted" grep -qF 'libnvidia-vgx.so' "$TMP/found"
	check "$lang (8): the fix is on the host: the normal steps next" grep -qF "$(first "$lang" 'Do the fix above on the host or in the guest, then power the VM on again. Enter goes on with the normal steps.' 16)" "$TMP/found"
	keys Enter
	check "$lang (8): Enter goes on to the host check" wait_for "$(st HOST)"
	$T kill-server 2>/dev/null

	# ---- (6) lines typed one by one, Ctrl-D diagnoses ------------------
	fresh
	start "$lang" 80x24
	open_doctor "$lang"
	typ "x"
	check "$lang (6): one character typed: $(counter "$lang" 1 1)" counted "$(counter "$lang" 1 1)"
	keys BSpace
	typ "init.cc:426 NCCL WARN Cuda failure 'operation not supported'"; keys Enter
	check "$lang (6): Enter starts a new line, still the box" on_screen "^D $(tr_ "$lang" 'Diagnose')"
	check "$lang (6): $(counter "$lang" 1 61)" counted "$(counter "$lang" 1 61)"
	typ "ncclCommInitRank failed: unhandled cuda error"; keys Enter
	screen
	check "$lang (6): $(counter "$lang" 2 107)" counted "$(counter "$lang" 2 107)"
	check "$lang (6): the box shows both lines, one a row" sh -c "grep -q '│init.cc:426 NCCL WARN Cuda failure .operation not supported. *│' '$SCREEN' && grep -q '│ncclCommInitRank failed: unhandled cuda error *│' '$SCREEN'"
	keys C-d
	check "$lang (6): Ctrl-D diagnoses the two lines together" wait_for "pciPassthruN.cfg.enable_uvm"
	check "$lang (6): the CUDA line quoted" find_in_pages "init.cc:426 NCCL WARN"
	keys Escape
	check "$lang (6): back in the box, the lines kept" wait_for "ncclCommInitRank failed"
	$T kill-server 2>/dev/null

	# ---- (5) the CPI lines pasted raw, without bracketed paste ---------
	fresh
	start "$lang" 80x24
	open_doctor "$lang"
	$T load-buffer "$TMP/cpi.txt"
	$T paste-buffer -t w; sleep 0.7
	screen
	check "$lang (5): still the doctor's box on the welcome step" sh -c "grep -qF ' $(st WELCOME)' '$SCREEN' && grep -qF '^D $(tr_ "$lang" 'Diagnose')' '$SCREEN'"
	check "$lang (5): the box shows the last lines, wrapped" sh -c "grep -qF 'task_runner.rb:30:in' '$SCREEN' && grep -qF '<internal:numeric>:237:in' '$SCREEN'"
	check "$lang (5): every line and byte of the paste in the box" sh -c "grep -qE '(7 lines|7 行)' '$SCREEN' && grep -qF '$(wc -c <"$TMP/cpi.txt")' '$SCREEN'"
	keys Enter
	check "$lang (5): Enter on the empty line diagnoses" wait_for "$(tr_ "$lang" 'What the doctor found')"
	# the same without bracketed paste, typed by tmux as keys (send-keys
	# -l, its newlines included): seed 001's NCCL lines, whose first
	# line alone is no failure: found only when the text is read whole
	keys Escape; keys C-u
	$T send-keys -t w -l "$(cat "$TMP/nccl.txt")
"; sleep 0.7
	screen
	check "$lang (5): send-keys text in the box, nothing acted" sh -c "grep -qF 'RuntimeError: NCCL error' '$SCREEN' && grep -qF '^D $(tr_ "$lang" 'Diagnose')' '$SCREEN'"
	keys Enter
	check "$lang (5): the NCCL failure of lines 1-4 found" wait_for "pciPassthruN.cfg.enable_uvm"
	keys Escape; keys C-u
	$T load-buffer "$TMP/cpi.txt"; $T paste-buffer -t w; sleep 0.7
	keys Enter
	check "$lang (5): the CPI lines again" wait_for "$(tr_ "$lang" 'What the doctor found')"
	# ---- (7) the Tanzu route ---------------------------------------------
	check "$lang (7): the Tanzu route named" on_screen "$(first "$lang" "This is the Tanzu route: the VM type of the tile or of BOSH, not a VM's .vmx. Choose the GPU model on the GPU step: the review shows the tile's values, the BOSH VM extension and the Ops Manager JSON with the MMIO window the rule gives for it. Write, then save the tile's Infrastructure Config and Apply Changes in Ops Manager (the BOSH Director and the tile selected): BOSH creates the VM again." 16)"
	check "$lang (7): the next action asks for the GPU model" on_screen "$(first "$lang" "The Tanzu route: Enter asks for the GPU model, then opens the review with the tile's values, the BOSH VM extension and the Ops Manager JSON pre-filled; then Apply Changes in Ops Manager." 20)"
	pages_joined "$TMP/found"
	check "$lang (7): no vmware.log asked for, no .vmx" sh -c "! grep -qF '$(first "$lang" "Paste the lines just before it from the VM's vmware.log here" 20)' '$TMP/found' && ! grep -qF '$(first "$lang" "Enter asks for the VM's .vmx on the VM step" 20)' '$TMP/found'"
	check "$lang (7): Apply Changes, in the fix and the next action" [ "$(grep -o 'Apply Changes' "$TMP/found" | wc -l)" -ge 2 ]
	keys Enter
	check "$lang (7): the GPU step asks for the GPU model" wait_for "$(st GPU)"
	check "$lang (7): it says why" on_screen "$(first "$lang" "Choose the GPU model of the tile's VM type (BOSH deleted the VM and its vmware.log); Enter then goes straight to the review." 20)"
	typ l40s
	check "$lang (7): the search finds the L40S" wait_for "AD102GL [L40S]"
	keys Down; keys Space
	check "$lang (7): l40s added" wait_for "✓ l40s"
	keys Enter
	check "$lang (7): straight on to the review" wait_for "$(st REVIEW)"
	check "$lang (7): the tile, BOSH and Ops Manager outputs" on_screen "bosh$(tr_ "$lang" ", ")opsman$(tr_ "$lang" ", ")tile"
	check "$lang (7): no .vmx" sh -c "! grep -q 'vmx,' '$SCREEN'"
	check "$lang (7): the L40S's 128 GB" find_in_pages '+ pciPassthru.64bitMMIOSizeGB = "128"'
	keys Enter
	check "$lang (7): write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang (7): written" wait_for "$(tr_ "$lang" 'Written:')"
	check "$lang (7): the tile's values with 128 GB" grep -q 'size for 64bit MMIO: "128"' "$TMP/run/gpuwiz-out/tile-vm-type.yml"
	pages_joined "$TMP/write"
	check "$lang (7): the next steps end with the tile's Apply Changes" grep -q "AI Services tile.*Apply Changes" "$TMP/write"
	check "$lang (7): no power-on in the next steps" sh -c "! grep -q -e 'power.on' -e 'power the VM on' '$TMP/write'"
	keys Enter
	check "$lang (7): Enter on the result finishes" exited
	check "$lang (7): exit status 0" [ "${exit_status:-x}" = 0 ]
done

finish

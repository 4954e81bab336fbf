#!/bin/sh
# Screen tests of the doctor (doc/design.md, section 9, "The doctor"):
# cold from `gpuwiz` (no answers file), in C.UTF-8 and zh_CN.UTF-8 at
# 80x24.  (1) The Dell KB's MMIO power-on failure pasted as two
# vmware.log lines (tmux paste-buffer -p: bracketed paste), the .vmx
# given on the VM step: the review shows the pre-filled
# pciPassthru.64bitMMIOSizeGB and the write adds exactly the planned
# lines, the backup is the original.  (2) A vmware.log path whose
# directory holds the .vmx: found, straight to the review.  (3) Text
# that matches nothing: said so, Enter goes on with the normal steps.
# (4) Seed 001's NCCL crash pasted for a vGPU VM: UVM on every vGPU.
#
# Keystrokes (after the welcome screen is up; the cursor starts on
# "Plan offline"):
#  (1) Up Enter | paste | Enter | Enter | llm.vmx Enter Enter  -> review
#      (6 keys, one paste, 7 characters typed), then Enter Enter writes
#  (2) Up Enter | vm/vmware.log Enter | Enter                   -> review
#      (4 keys, 13 characters typed), then Enter Enter writes
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/vgpu_vmx.sh"
. "$(dirname "$0")/lib.sh"
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash not installed"; exit 77; }
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
export GPUWIZ_SYSROOT="$TMP/no-such-root"

have_zh=0
locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ] && have_zh=1
langs=C.UTF-8
[ $have_zh = 1 ] && langs="C.UTF-8 zh_CN.UTF-8" || echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"

# first LANG MSGID N: the first N characters of its translation
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }
# the highlighted row (black on cyan: ESC [46m) holds TEXT
focused_has() { $T capture-pane -e -p -t w | grep "$(printf '\033')\[46m" | grep -qF -- "$1"; }

DELL=vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt
# the Dell KB's two vmware.log lines (the stored page joins them on one
# line: split again at the second timestamp)
sample "$DELL" "$TMP/dell.txt"
sed 's/ \(2022-04-22T03:04:15\.771Z| vmx| | I005: Module\)/\n\1/' "$TMP/dell.txt" >"$TMP/dell2.txt"
sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$TMP/nccl.txt"

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
	check "$1: it says what to paste" on_screen "$(first "$1" "Paste the error text (a vSphere task error, lines of the VM's vmware.log, the guest's log) or type the path of the vmware.log, then press Enter. Pasted lines keep their line breaks." 16)"
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
	typ "the VM does not start"; keys Enter
	check "$lang (3): said plainly" wait_for "$(tr_ "$lang" 'Nothing recognised')"
	check "$lang (3): Enter offers the normal steps" on_screen "$(first "$lang" 'Enter goes on with the normal steps; Esc goes back to try other text.' 16)"
	keys Escape
	check "$lang (3): Esc goes back to the text" wait_for "$(tr_ "$lang" 'Diagnose')"
	check "$lang (3): the text kept" on_screen "the VM does not start"
	keys Enter; wait_for "$(tr_ "$lang" 'Nothing recognised')" >/dev/null
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
	check "$lang (4): the fix: UVM on every vGPU" on_screen "pciPassthruN.cfg.enable_uvm"
	check "$lang (4): the source" on_screen "NCCL issue 2101"
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
done

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: what is marked and said follows what the user is doing, in
# C.UTF-8 and zh_CN.UTF-8 at 80x24, on the seeds' two stories (the doctor
# given seed 001's NCCL crash for a vGPU VM, and seed 000's CPI lines for
# a Tanzu tile):
#  1. welcome: Home/End and PgUp/PgDn go to the first/last choice, the
#     (*) with them; F1 says so;
#  2. the offline VM step after the doctor (no GPU chosen: a .vmx is
#     needed): the focus and the (*) start on ".vmx file"; Down to the
#     fields below with the path empty marks "No .vmx file" (Enter there
#     goes on without one), Up into the path marks the file again; Enter
#     in the empty path asks for one; typing a path opens it;
#  3. the open VM's advice: a "v" only while PgDn brings more;
#  4. the vGPU VM's review: the reservation's reason names the vGPU, no
#     upgrade advice for a VM at hardware version 21, the fix of the
#     vMotion finding answers it (moving the VM cold);
#  5. the Tanzu route: the GPU step speaks of the VM type (no VM's own
#     devices), the review advises no manual hardware upgrade and lists
#     the outputs with the language's separator, the key line names Space
#     in the texts' word, and the write step's next steps are the routes
#     (A. tile, B. Ops Manager, C. BOSH) with their own numbered steps,
#     each command alone on its line.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/vgpu_vmx.sh"

# the highlighted row (black on cyan: ESC [46m) holds TEXT
focused_has() { $T capture-pane -e -p -t w | grep "$(printf '\033')\[46m" | grep -qF -- "$1"; }
# squashed TEXT is on the screen, however it wrapped
sq() { sed 's/│//g' | tr -d ' \n'; }
on_screen_sq() { screen; sq <"$SCREEN" | grep -qF -- "$(printf '%s' "$1" | sq)"; }
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }
# a "v" in the last column of a row above the message and key lines
more_mark() { screen; head -n 22 "$SCREEN" | grep -q 'v$'; }
# rows: the screen's rows above the message and key lines into FILE
rows() { screen; head -n 22 "$SCREEN" >"$1"; }
# in_pages FILE TEXT: TEXT on one of the pages joined into FILE
in_pages() { grep -qF -- "$2" "$1"; }

sample doctor/seed-001-nccl-operation-not-supported-vgpu.txt "$TMP/nccl.txt"
sample doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt "$TMP/cpi.txt"
fresh() { rm -rf "$TMP/run"; mkdir -p "$TMP/run"; }
DOCTOR_ROW='Fix a failed power-on or a crash: paste the error text or give vmware.log'
SAMPLE_ROW='Practise on a sample host (no hardware needed)'

for lang in $langs; do
	# ---- 1. welcome: Home, End, PgUp, PgDn -----------------------------
	fresh
	start "$lang" 80x24
	check "$lang welcome" wait_for "$(st WELCOME)"
	keys End
	check "$lang welcome: End marks the last choice" focused_has "(*) $(tr_ "$lang" "$SAMPLE_ROW")"
	keys Home
	check "$lang welcome: Home marks the first choice" focused_has "(*) $(tr_ "$lang" "$DOCTOR_ROW")"
	keys NPage
	check "$lang welcome: PgDn the last" focused_has "(*) $(tr_ "$lang" "$SAMPLE_ROW")"
	keys PPage
	check "$lang welcome: PgUp the first" focused_has "(*) $(tr_ "$lang" "$DOCTOR_ROW")"
	check "$lang welcome: one mark" [ "$(grep -o '(\*)' "$SCREEN" | wc -l)" = 2 ]
	keys F1
	check "$lang welcome: F1 names Home/End" find_in_pages "Home/End"
	keys Escape

	# ---- 2. the VM step after the doctor: the (*) follows the focus ----
	vgpu_vmx "$TMP/run/llm.vmx"
	keys Enter
	check "$lang doctor: the text area" wait_for "$(tr_ "$lang" 'Diagnose')"
	$T load-buffer "$TMP/nccl.txt"
	$T paste-buffer -p -t w; sleep 0.5
	keys C-d
	check "$lang doctor: the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	keys Enter
	check "$lang vm: the VM step" wait_for "$(st VM)"
	NOVMX=$(tr_ "$lang" 'No .vmx file: write snippets only')
	FILEROW=$(tr_ "$lang" '.vmx file:')
	check "$lang vm: the file marked, as the hint asks" on_screen "(*) $FILEROW"
	check "$lang vm: No .vmx not marked" on_screen "( ) $NOVMX"
	keys Down
	check "$lang vm: below with the path empty: No .vmx marked (Enter goes on without)" on_screen "(*) $NOVMX"
	keys Up
	check "$lang vm: back in the path: the file marked" on_screen "(*) $FILEROW"
	keys Enter
	check "$lang vm: Enter in the empty path asks for one" on_screen_sq "$(first "$lang" 'Type the .vmx'"'"'s path (Tab completes), or Up to "No .vmx file" to go on without one.' 12)"
	check "$lang vm: still the VM step" on_screen "$(st VM)"
	typ llm.vmx
	check "$lang vm: the path typed, the file marked" on_screen "(*) $FILEROW llm.vmx"
	keys Enter
	check "$lang vm: Enter opens the marked file" wait_for "pciPassthru0 vGPU nvidia_l40s-24c"

	# ---- 3. the advice's "v": only while PgDn brings more --------------
	p=0
	while more_mark && [ $p -lt 6 ]; do
		rows "$TMP/before"
		keys NPage; p=$((p + 1))
		rows "$TMP/after"
		check "$lang advice: v, and PgDn brought more (page $p)" sh -c "! cmp -s '$TMP/before' '$TMP/after'"
	done
	rows "$TMP/before"
	keys NPage; rows "$TMP/after"
	check "$lang advice: no v on the last page: PgDn brings nothing" cmp -s "$TMP/before" "$TMP/after"

	# ---- 4. the vGPU VM's review ----------------------------------------
	keys Enter
	check "$lang review: reached" wait_for "$(st REVIEW)"
	pages_joined "$TMP/review"
	check "$lang review: the reservation's reason names the vGPU" in_pages "$TMP/review" "$(tr_ "$lang" 'Reserve all %ld MB of guest memory: a VM with a vGPU needs it.' | sed 's/%ld/65536/')"
	check "$lang review: no passthrough reason on a vGPU VM" sh -c "! grep -qF '$(tr_ "$lang" 'Reserve all %ld MB of guest memory: passthrough needs it.' | sed 's/%ld/65536/')' '$TMP/review'"
	check "$lang review: no upgrade advice at hardware version 21" sh -c "! grep -qF 'vmx-NN' '$TMP/review'"
	check "$lang review: the vMotion cost named" in_pages "$TMP/review" "$(first "$lang" 'enable_uvm disables vGPU migration (vMotion) for this VM' 20)"
	check "$lang review: its fix: moving the VM cold" in_pages "$TMP/review" "$(first "$lang" "Before its host's maintenance, power the VM off and move it cold." 16)"
	check "$lang review: no power-cycle as its fix" sh -c "! grep -qF 'Set it with the VM powered off, then power-cycle' '$TMP/review'"
	keys q; wait_for "y/n" 3 >/dev/null && keys y; exited >/dev/null

	# ---- 5. the Tanzu route ---------------------------------------------
	fresh
	start "$lang" 80x24
	wait_for "$(st WELCOME)" >/dev/null
	keys Home; keys Enter
	wait_for "$(tr_ "$lang" 'Diagnose')" >/dev/null
	$T load-buffer "$TMP/cpi.txt"
	$T paste-buffer -p -t w; sleep 0.5
	keys C-d
	check "$lang tanzu: the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	keys Enter
	check "$lang tanzu: the GPU step" wait_for "$(st GPU)"
	check "$lang tanzu: the selection is the VM type's" on_screen "$(tr_ "$lang" 'Selected for the VM type:')"
	check "$lang tanzu: no VM's own devices offered" on_screen "$(tr_ "$lang" 'None yet: Space adds the highlighted GPU to the VM type.')"
	typ l40s; keys Down; screen
	check "$lang tanzu: the key line says Space as the texts do" sh -c "tail -n 1 '$SCREEN' | grep -qF '$(tr_ "$lang" Space) $(tr_ "$lang" Add)'"
	keys Space; keys Enter
	check "$lang tanzu: the review" wait_for "$(st REVIEW)"
	check "$lang tanzu: the outputs joined as the language joins a list" on_screen "bosh$(tr_ "$lang" ', ')opsman$(tr_ "$lang" ', ')tile"
	pages_joined "$TMP/treview"
	check "$lang tanzu: no manual hardware upgrade (BOSH upgrades)" sh -c "! grep -qF 'vim-cmd vmsvc/upgrade' '$TMP/treview'"
	check "$lang tanzu: says the outputs upgrade it" in_pages "$TMP/treview" "upgrade_hw_version"
	keys Enter
	check "$lang tanzu: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang tanzu: written" wait_for "$(tr_ "$lang" 'Written:')"
	: >"$TMP/write"
	p=0
	while [ $p -lt 5 ]; do screen; cat "$SCREEN" >>"$TMP/write"; keys NPage; p=$((p + 1)); done
	check "$lang tanzu: the routes are the alternatives" in_pages "$TMP/write" "$(trn_ "$lang" 'Give BOSH the VM type in this %zu way: follow it for how you deploy' 'Give BOSH the VM type in one of these %zu ways: follow only the one for how you deploy' 3 | sed 's/%zu/3/' | cut -c1-12)"
	check "$lang tanzu: A. the tile" in_pages "$TMP/write" "A. $(tr_ "$lang" 'The AI Services tile in Ops Manager')"
	check "$lang tanzu: B. Ops Manager" in_pages "$TMP/write" "B. $(tr_ "$lang" "Ops Manager's API or om")"
	check "$lang tanzu: C. BOSH" in_pages "$TMP/write" "C. $(tr_ "$lang" 'BOSH alone')"
	check "$lang tanzu: Ops Manager's two halves numbered in its route" sh -c "grep -q '^ *2\. Ops Manager' '$TMP/write'"
	check "$lang tanzu: om curl starts its own line" sh -c "grep -q '^ *om curl --path /api/v0/staged/vm_extensions/gpu-l40s' '$TMP/write'"
	check "$lang tanzu: nothing follows the command on its line" sh -c "grep -q 'opsman-vm-extension.json)\" *v\\{0,1\\}\$' '$TMP/write'"
	check "$lang tanzu: each om command alone" sh -c "grep -q '^ *om apply-changes\$' '$TMP/write' && grep -q '^ *om configure-product -c FILE.yml\$' '$TMP/write'"
	keys Enter
	check "$lang tanzu: finished" exited
	tail -n 40 "$TMP/run.sh" >/dev/null
	$T capture-pane -p -t w -S -200 >"$TMP/exit.txt"
	check "$lang tanzu: the printed steps: om curl on its own line" sh -c "grep -q '^ *om curl --path' '$TMP/exit.txt'"
	check "$lang tanzu: the printed steps: no prose after a command" sh -c "! grep -q 'json)\"[^ ]' '$TMP/exit.txt'"
	$T kill-server 2>/dev/null
done
finish

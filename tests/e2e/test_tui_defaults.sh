#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the outputs that follow the activity (doc/design.md,
# section 9, "The outputs"): a VM's .vmx user, offline with no .vmx, gets
# only the .vmx lines ticked on the options step and the next steps of the
# lines (paste, reload, power on, the guest), none of BOSH, Ops Manager or
# the tile; with the VM open on the esxi-l40s sample host nothing is
# ticked (the .vmx itself is patched), a queued hardware upgrade keeps the
# .vmx as it was in a backup taken before the upgrade, and no advice on
# the screens suggests a snapshot (a DirectPath VM has none).  At 80x24, in
# C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

in_pages() { grep -qF -- "$1" "$TMP/pages.txt"; }
# the numbered next steps on the write step's pages
nsteps() { grep -oE '(^| )[0-9]+\. ' "$TMP/pages.raw.txt" | tr -d ' .' | sort -n | tail -n 1; }

offline_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24
	check "$lang vmx: welcome, plan offline" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang vmx: host check" wait_for "$(st HOST)"
	keys Space; keys Down; keys Space; keys Enter
	check "$lang vmx: GPU step" wait_for "$(st GPU)"
	typ l40s
	check "$lang vmx: the search finds the L40S" wait_for "AD102GL [L40S]"
	keys Down; keys Space
	check "$lang vmx: l40s added" wait_for "✓ l40s"
	keys Enter
	check "$lang vmx: VM step" wait_for "$(st VM)"
	keys Enter
	check "$lang vmx: MMIO step" wait_for "$(st MMIO)"
	keys Enter
	check "$lang vmx: options step" wait_for "$(st OPTIONS)"
	check "$lang vmx: the .vmx lines ticked" on_screen "[x] $(tr_ "$lang" '.vmx lines')"
	check "$lang vmx: BOSH not ticked" on_screen "[ ] BOSH"
	check "$lang vmx: Ops Manager not ticked" on_screen "[ ] Ops Manager"
	check "$lang vmx: the tile not ticked" on_screen "[ ] $(tr_ "$lang" 'tile values')"
	check "$lang vmx: one output ticked" [ "$(grep -o '\[x\]' "$SCREEN" | wc -l)" -eq 2 ]   # and the reservation
	keys Enter
	check "$lang vmx: review" wait_for "$(st REVIEW)"
	check "$lang vmx: the review's outputs: the .vmx lines only" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -q 'vmx' && ! grep -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qE 'bosh|opsman|tile'"
	keys Enter
	check "$lang vmx: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang vmx: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	check "$lang vmx: only the .vmx lines written" sh -c \
		"[ \"\$(ls '$TMP/run/gpuwiz-out')\" = gpuwiz.vmx.txt ]"
	pages_joined "$TMP/pages.txt"
	cp "$TMP/pages.txt.raw" "$TMP/pages.raw.txt"
	# the step's words up to the file (a CJK line cut at the screen's edge
	# reads with a space in the joined pages)
	paste="$(tr_ "$lang" 'With the VM off, add the lines of %s to its .vmx (or in the vSphere Client or the ESXi Host Client: Edit Settings > VM Options > Advanced > Configuration Parameters)' | sed 's/%s.*//')gpuwiz-out/gpuwiz.vmx.txt"
	check "$lang vmx: next step: paste the lines" in_pages "$paste"
	check "$lang vmx: next step: reload" in_pages "vim-cmd vmsvc/reload <vmid>"
	check "$lang vmx: next step: power on" in_pages "vim-cmd vmsvc/power.on <vmid>"
	check "$lang vmx: next step: the guest" in_pages "nvidia-smi --query-gpu=driver_version"
	check "$lang vmx: no BOSH step" sh -c "! grep -qF 'bosh update-config' '$TMP/pages.txt'"
	check "$lang vmx: no Ops Manager step" sh -c "! grep -qF 'om curl' '$TMP/pages.txt' && ! grep -qF 'om configure-product' '$TMP/pages.txt'"
	check "$lang vmx: no tile step" sh -c "! grep -qF 'tile-vm-type.yml' '$TMP/pages.txt'"
	n=$(nsteps)
	check "$lang vmx: at most 8 next steps ($n, 16 with the four outputs)" sh -c "[ -n '$n' ] && [ '$n' -le 8 ]"
	keys q
	check "$lang vmx: exits" exited
	check "$lang vmx: terminal sane" terminal_sane
}

sample_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run" "$TMP/tmpdir"/gpuwiz-sample.*; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang host: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang host: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang host: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang host: the detected L40S" wait_for "l40s"
	keys Enter
	check "$lang host: VM step" wait_for "$(st VM)"
	# the focus, and the (*), start on "No VM": Down marks the first VM,
	# Space opens it here (Enter would open it and go on)
	keys Down; keys Space
	check "$lang host: ubuntu-l40s opens (vmx-13)" wait_for "vmx-13"
	keys u
	check "$lang host: u queues the upgrade" wait_for "$(printf "$(tr_ "$lang" '%s (vmx-%d queued: u takes it back)')" "" 21 | sed 's/^ *//')"
	keys Enter
	check "$lang host: MMIO step" wait_for "$(st MMIO)"
	keys Enter
	check "$lang host: options step" wait_for "$(st OPTIONS)"
	check "$lang host: no output ticked: the .vmx is patched" sh -c \
		"grep -A2 -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF '[ ] BOSH' && ! grep -A2 -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF '[x]'"
	keys Enter
	check "$lang host: review" wait_for "$(st REVIEW)"
	check "$lang host: the upgrade's line says the copy comes first" on_screen \
		"$(tr_ "$lang" '%s (one-way; the .vmx is copied to a backup beside it first, read again after it, then patched)' | sed 's/^%s//' | python3 -c 'import sys; print(sys.stdin.read()[:12])')"
	pages_joined "$TMP/review.txt"
	keys Enter
	check "$lang host: write step" wait_for "$(st WRITE)"
	pages_joined "$TMP/write0.txt"
	keys Enter
	check "$lang host: the confirmation" wait_for "2. $(tr_ "$lang" 'Write the .vmx and the files')"
	keys y
	check "$lang host: written" wait_for "$(tr_ "$lang" 'Written:')" 20
	pages_joined "$TMP/pages.txt"
	check "$lang host: the backup is named" in_pages "$(tr_ "$lang" 'Backup:')"
	scr=$(ls -d "$TMP/tmpdir"/gpuwiz-sample.* | head -n 1)
	V=$scr/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx
	check "$lang host: the VM is upgraded and patched" sh -c \
		"grep -qx 'virtualHW.version = \"21\"' '$V' && grep -q 'pciPassthru0.id' '$V'"
	bak=$(grep -l 'virtualHW.version = "13"' "$V".*.bak 2>/dev/null | head -n 1)
	check "$lang host: a backup holds the pre-upgrade vmx-13" [ -n "$bak" ]
	check "$lang host: the write step names that backup" in_pages "$(basename "$bak")"
	check "$lang host: next steps: power on, no BOSH" sh -c \
		"grep -qF 'vim-cmd vmsvc/power.on 1' '$TMP/pages.txt' && ! grep -qF 'bosh update-config' '$TMP/pages.txt'"
	cat "$TMP/review.txt" "$TMP/write0.txt" "$TMP/pages.txt" >"$TMP/all.txt"
	case $lang in
	zh*) word=快照; none='不能创建快照' ;;
	*) word=snapshot; none='no snapshots\|cannot have snapshots' ;;
	esac
	check "$lang host: no advice suggests a snapshot" sh -c \
		"! grep -o \".\{0,40\}$word.\{0,20\}\" '$TMP/all.txt' | grep -v '$none' | grep -q ."
	keys q
	check "$lang host: exits" exited
	check "$lang host: terminal sane" terminal_sane
}

offline_walk C.UTF-8
sample_walk C.UTF-8
if [ "$have_zh" = 1 ]; then
	offline_walk zh_CN.UTF-8
	sample_walk zh_CN.UTF-8
else
	echo "ok - zh_CN.UTF-8 # SKIP no zh_CN.UTF-8 locale or catalogue"
fi
finish

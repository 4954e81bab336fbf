#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests for two first-time user's scenarios (bench/keystrokes.md), cold from
# plain `gpuwiz` (no answers file; GPUWIZ_SYSROOT points at a missing root so
# this machine is never probed), in C.UTF-8 and zh_CN.UTF-8 at 80x24:
#
# 1. home lab: an existing VM made on ESXi 6.5 (hardware version 13, BIOS:
#    no firmware key), an RTX 4090 in passthrough on ESXi 8.0U3.  The user
#    copied the VM's .vmx next to gpuwiz and works offline (the marked
#    choice): a sample host would not be their machine, and the
#    amd-geforce-usb sample is a Proxmox box with a 4060 Ti.
# 2. Tanzu: snippets only, no VM, 1 x L40S in passthrough (the AI Services
#    tile documents only "PCI Passthrough" as its processing technology).
#
# Each walk counts its keystrokes (a typed text counts one per character)
# and prints "keys: N" (bench/keystrokes.md).  The files are compared with
# what the CLI writes for the same choices.
. "$(dirname "$0")/../cli/lib.sh"
# tmux 3.3's kill-server leaves the socket file: remove this test's (this
# runs last, after lib.sh's kill-server)
at_exit 'rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/gwtest$$"-*'
. "$(dirname "$0")/lib.sh"

# k KEY... / t TEXT: keys and typed text that the walk counts
KEYS=0
k() { KEYS=$((KEYS + $#)); keys "$@"; }
t() { KEYS=$((KEYS + ${#1})); typ "$1"; }

# fmt TEMPLATE ARG...: a printf template with %d/%s (in order) or %N$d/%N$s
# (a translation may reorder) filled with ARGs
fmt() {
	f=$1; shift; i=1
	for a; do f=$(printf '%s' "$f" | sed "s|%$i\\\$[ds]|$a|g"); i=$((i + 1)); done
	for a; do f=$(printf '%s' "$f" | sed "s|%[ds]|$a|"); done
	printf '%s' "$f"
}

# squash: text without white space and without the scroll markers at the
# ends of lines, so a text matches however the screen wrapped it
squash() { sed -E 's/[[:space:]]+[v^]$//' | tr -d ' \t\n'; }

# pages FILE: this screen and the next ones (PageDown, until nothing
# moves), raw into FILE; FILE.sq squashed.  The PageDowns read the screens
# for the test and are not counted.
pages() {
	screen; cp "$SCREEN" "$1"; p=0
	while [ $p -lt 12 ]; do
		cp "$SCREEN" "$TMP/prev"
		keys PageDown
		# the end: nothing moved within 2 s (a slow redraw under load
		# is not taken for it)
		i=0; moved=0
		while [ $i -lt 20 ]; do
			screen
			cmp -s "$SCREEN" "$TMP/prev" || { moved=1; break; }
			sleep 0.1; i=$((i + 1))
		done
		[ $moved = 1 ] || break
		sleep 0.1; screen   # the whole redraw, not its first half
		cat "$SCREEN" >>"$1"; p=$((p + 1))
	done
	squash <"$1" >"$1.sq"
}
# in_pages FILE TEXT: TEXT (white space aside) is on the pages
in_pages() { grep -qF -- "$(printf '%s' "$2" | squash)" "$1.sq"; }
not_in_pages() { ! in_pages "$@"; }
# info_line TEXT WORD: TEXT on the screen read last, on a line with the
# severity WORD (INFO in the screen's language)
info_line() { grep -F -- "$1" "$SCREEN" | grep -qF -- "$2"; }
# before FILE A B: A is on the pages before B
before() {
	awk -v a="$(printf '%s' "$2" | squash)" -v b="$(printf '%s' "$3" | squash)" \
	    '{ i = index($0, a); j = index($0, b); exit !(i > 0 && j > i) }' "$1.sq"
}

UUID=5f3c2a10-8d4e-11ee-9a4b-3cecef123456
BDF=0000:01:00.0

# ---- 1. home lab: RTX 4090, a BIOS hw-13 VM ---------------------------------
# Enter | Space Down Space Enter | 4090 Down Space Enter |
# lab Tab Enter 8.0U3 Down 0000:01:00.0 Down UUID Enter |
# Enter | Enter | Enter | Enter | Enter
homelab_walk() { # LANG
	lang=$1; KEYS=0
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample scenarios/homelab-hw13-bios.vmx "$TMP/run/lab.vmx"
	cp "$TMP/run/lab.vmx" "$TMP/lab.orig"
	start "$lang" 80x24
	check "$lang homelab: welcome" wait_for "$(st WELCOME)"
	k Enter
	check "$lang homelab: host check" wait_for "$(st HOST)"
	k Space; k Down; k Space; k Enter
	check "$lang homelab: GPU step" wait_for "$(st GPU)"
	t 4090
	check "$lang homelab: the search finds the RTX 4090" wait_for "AD102 [GeForce RTX 4090]"
	k Down; k Space
	check "$lang homelab: rtx-4090 added" wait_for "✓ rtx-4090"
	k Enter
	check "$lang homelab: VM step" wait_for "$(st VM)"
	t lab; k Tab; k Enter
	# a .vmx below hardware version 17 and no ESXi version: the step asks
	# for it, its field has the cursor
	check "$lang homelab: the .vmx opens, the ESXi version asked for" wait_for \
		"$(fmt "$(tr_ "$lang" "Opened %s: its hardware version is below 17; type the host's ESXi version (esxcli system version get) for the upgrade advice.")" lab.vmx |
		python3 -c 'import sys; print(sys.stdin.read()[:28])')"
	t 8.0U3; k Down
	check "$lang homelab: hardware version 13, ESXi 8.0U3 supports 21" \
		wait_for "$(fmt "$(tr_ "$lang" "%s (the host's ESXi supports %d)")" 13 21)"
	t "$BDF"; k Down; t "$UUID"; k Enter
	check "$lang homelab: MMIO step" wait_for "$(st MMIO)"
	# 24 GB: not a power of two, round up to 32, double: 64 (KB 323402)
	check "$lang homelab: 64 GB for 24 GB of framebuffer" on_screen "64 GB"
	k Enter
	check "$lang homelab: options step" wait_for "$(st OPTIONS)"
	# domain.md 3: hiding the hypervisor is opt-in (drivers since R465)
	check "$lang homelab: code-43 workaround off" on_screen "[ ] $(tr_ "$lang" 'Hide the hypervisor (GeForce code 43)')"
	k Enter
	check "$lang homelab: review" wait_for "$(st REVIEW)"
	pages "$TMP/review"
	check "$lang homelab: review: the decimal device id" in_pages "$TMP/review" '+ pciPassthru0.id = "00000:001:00.0"'
	# doc/design.md, section 15.2: the 4090's BAR1 is 256 MiB (ReBAR off), so EFI is not
	# needed for it: an INFO, no BIOS WARN; the firmware is never switched
	check "$lang homelab: review: BIOS is fine for a 256 MiB BAR" in_pages "$TMP/review" \
		"$(printf "$(tr_ "$lang" "The VM boots with %s firmware; the GPUs' largest BAR is %lu MiB, so EFI is not needed for it (only BARs larger than 16 GB need EFI): the firmware is left as it is")" BIOS 256)"
	check "$lang homelab: review: no BIOS WARN" not_in_pages "$TMP/review" \
		"$(tr_ "$lang" 'The VM boots with BIOS firmware (no firmware key): BARs larger than 16 GB need EFI firmware')"
	check "$lang homelab: review: 2048 MB < 24 GB of framebuffer" in_pages "$TMP/review" \
		"$(printf "$(tr_ "$lang" "The VM has %ld MB of memory, less than the %llu GB of framebuffer of its GPUs: CUDA and vLLM load model weights through guest memory, so large models fail to load or swap. No NVIDIA document gives a figure; at least the GPUs' total framebuffer is the usual floor")" 2048 24)"
	check "$lang homelab: review: hot-add with DirectPath, turned off" in_pages "$TMP/review" \
		"$(printf "$(tr_ "$lang" 'Hot-add is on (%s = "TRUE"), which is not supported with passthrough devices and keeps hot-added memory out of the full reservation: it is turned off ("FALSE" is written)')" 'mem.hotadd, vcpu.hotadd')"
	check "$lang homelab: review: hot-add written FALSE" in_pages "$TMP/review" '+ vcpu.hotadd = "FALSE"'
	check "$lang homelab: review: the reason of the hot-add line" in_pages "$TMP/review" \
		"$(tr_ "$lang" 'Hot-add is not supported with passthrough devices, and memory added later is outside the full reservation.')"
	check "$lang homelab: review: the hardware version finding" in_pages "$TMP/review" \
		"$(fmt "$(tr_ "$lang" 'The VM has hardware version %d; ESXi %s supports %d (Dynamic DirectPath I/O needs 17)')" 13 8.0U3 21)"
	check "$lang homelab: review: the upgrade command" in_pages "$TMP/review" "vim-cmd vmsvc/upgrade <vmid> vmx-21"
	k Enter
	check "$lang homelab: write step" wait_for "$(st WRITE)"
	k Enter
	check "$lang homelab: written" wait_for "$(tr_ "$lang" 'Written:')"
	pages "$TMP/write"
	check "$lang homelab: the backup is named" in_pages "$TMP/write" "$(tr_ "$lang" 'Backup:') lab.vmx."
	up=$(fmt "$(tr_ "$lang" 'Upgrade the hardware version from vmx-%1$d to vmx-%2$d (one-way: power the VM off and keep a copy of its .vmx first): %3$s on the ESXi host (%4$s lists the Vmid)')" \
		13 21 'vim-cmd vmsvc/upgrade <vmid> vmx-21' 'vim-cmd vmsvc/getallvms')
	efi=$(tr_ "$lang" 'Firmware: the VM boots with BIOS and gpuwiz leaves it so (an installed BIOS guest does not boot after a switch to EFI). For BARs over 16 GB, reinstall the guest in EFI mode or convert its boot disk to EFI, then, with the VM off: Edit Settings > VM Options > Boot Options > Firmware: EFI')
	check "$lang homelab: next step: the hardware upgrade, exact command" in_pages "$TMP/write" "$up"
	# doc/design.md, section 15.3: no EFI step for a 256 MiB BAR; the memory
	# step instead, after the upgrade; no hot-add step (it is written)
	check "$lang homelab: next step: no EFI step for a 256 MiB BAR" not_in_pages "$TMP/write" "$efi"
	mem=$(printf "$(tr_ "$lang" "With the VM off, raise its memory to at least %llu MB (vSphere Client or ESXi Host Client: Edit Settings > Memory); the full reservation follows memsize.")" 24576)
	hot=$(tr_ "$lang" 'With the VM off, untick CPU Hot Plug (Enable CPU Hot Add) and Memory Hot Plug in the vSphere Client or the ESXi Host Client (Edit Settings > CPU, Memory), or set mem.hotadd and vcpu.hotadd to "FALSE" in the .vmx.')
	check "$lang homelab: next step: raise the memory" in_pages "$TMP/write" "$mem"
	check "$lang homelab: no next step to turn hot-add off (written)" not_in_pages "$TMP/write" "$hot"
	check "$lang homelab: the .vmx has hot-add off, nothing else of it lost" sh -c \
		"grep -qx 'mem.hotadd = \"FALSE\"' '$TMP/run/lab.vmx' && grep -qx 'vcpu.hotadd = \"FALSE\"' '$TMP/run/lab.vmx' && ! grep -q 'hotadd = \"TRUE\"' '$TMP/run/lab.vmx'"
	check "$lang homelab: the upgrade comes before the memory step" before "$TMP/write" "$up" "$mem"
	# the local copy goes back and is reloaded before any edit on the
	# host, which the copy would otherwise overwrite; the power-on last
	reload=$(fmt "$(tr_ "$lang" 'After editing the .vmx on the host with the VM off: %s')" 'vim-cmd vmsvc/reload <vmid>')
	check "$lang homelab: the copy is reloaded before the upgrade" before "$TMP/write" "$reload" "$up"
	check "$lang homelab: the power-on after the memory step" before "$TMP/write" "$mem" \
		"$(fmt "$(tr_ "$lang" 'Power on the VM: %s (%s lists the Vmid)')" 'vim-cmd vmsvc/power.on <vmid>' 'vim-cmd vmsvc/getallvms')"
	k Enter
	check "$lang homelab: Enter on the result finishes" exited
	# the same next steps, printed whole on the terminal (a step that
	# straddles two of the write step's pages is read there)
	$T capture-pane -p -J -S -300 -t w | squash >"$TMP/exit.sq"
	check "$lang homelab: no hot-add step on exit either (written)" sh -c \
		"! grep -qF -- '$(printf '%s' "$hot" | squash)' '$TMP/exit.sq'"
	check "$lang homelab: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang homelab: terminal restored" terminal_sane
	echo "$lang homelab: keys: $KEYS"
	homelab_files "$lang"
}

# the .vmx: the original bytes (hot-add off), then exactly the planned
# lines; the backup holds the original; the CLI writes the same bytes for
# the same choices
homelab_files() { # LANG
	printf '%s\n' 'pciPassthru.use64bitMMIO = "TRUE"' 'pciPassthru.64bitMMIOSizeGB = "64"' \
	    'sched.mem.min = "2048"' 'sched.mem.minSize = "2048"' 'sched.mem.pin = "TRUE"' \
	    'pciPassthru0.present = "TRUE"' 'pciPassthru0.id = "00000:001:00.0"' \
	    'pciPassthru0.deviceId = "0x2684"' 'pciPassthru0.vendorId = "0x10de"' \
	    "pciPassthru0.systemId = \"$UUID\"" >"$TMP/want"
	# the original bytes, its hot-add lines rewritten "FALSE" in place
	sed 's/^\(mem\|vcpu\)\.hotadd = "TRUE"/\1.hotadd = "FALSE"/' "$TMP/lab.orig" >"$TMP/lab.off"
	n=$(stat -c %s "$TMP/lab.off")
	check "$1 homelab: the .vmx starts with the original bytes (hot-add off)" sh -c \
		"head -c $n '$TMP/run/lab.vmx' | cmp -s - '$TMP/lab.off'"
	check "$1 homelab: then exactly the planned lines" sh -c \
		"tail -c +$((n + 1)) '$TMP/run/lab.vmx' | cmp -s - '$TMP/want'"
	check "$1 homelab: one backup, the original" sh -c \
		"[ \$(ls '$TMP'/run/lab.vmx.*.bak | wc -l) = 1 ] && cmp -s '$TMP'/run/lab.vmx.*.bak '$TMP/lab.orig'"
	rm -rf "$TMP/cli"; mkdir -p "$TMP/cli"
	cp "$TMP/lab.orig" "$TMP/cli/lab.vmx"
	(cd "$TMP/cli" && LC_ALL=$1 LANG=$1 "$GPUWIZ" vmx lab.vmx --gpu rtx-4090 --bdf "$BDF" \
	    --system-id "$UUID" --esxi 8.0U3 --write >/dev/null 2>&1)
	check "$1 homelab: the wizard's .vmx = the CLI's, byte for byte" cmp -s "$TMP/run/lab.vmx" "$TMP/cli/lab.vmx"
}

# ---- 2. Tanzu: snippets only, 1 x L40S --------------------------------------
# Down Enter | Space Down Space Enter | l40s Down Space Enter | Enter | Enter |
# Enter | v Esc Enter | Enter | Enter
FILES="bosh:bosh-vm-extension.yml opsman:opsman-vm-extension.json tile:tile-vm-type.yml"
tanzu_walk() { # LANG
	lang=$1; KEYS=0
	rm -rf "$TMP/run" "$TMP/cli"; mkdir -p "$TMP/run" "$TMP/cli"
	for p in $FILES; do
		LC_ALL=$lang LANG=$lang "$GPUWIZ" snippet --format "${p%%:*}" --gpu l40s \
		    >"$TMP/cli/${p#*:}" 2>/dev/null
	done
	start "$lang" 80x24
	check "$lang tanzu: welcome" wait_for "$(st WELCOME)"
	# the Tanzu/BOSH VM type: the row under the .vmx one
	k Down
	check "$lang tanzu: the Tanzu row marked" on_screen "(*) $(tr_ "$lang" 'A Tanzu/BOSH VM type, offline: tile, BOSH, Ops Manager')"
	k Enter
	check "$lang tanzu: host check" wait_for "$(st HOST)"
	k Space; k Down; k Space; k Enter
	check "$lang tanzu: GPU step" wait_for "$(st GPU)"
	t l40s
	check "$lang tanzu: the search finds the L40S" wait_for "AD102GL [L40S]"
	k Down; k Space
	check "$lang tanzu: l40s added" wait_for "✓ l40s"
	k Enter
	check "$lang tanzu: VM step, no .vmx is the default" wait_for "(*) $(tr_ "$lang" 'No .vmx file: write snippets only')"
	k Enter
	check "$lang tanzu: MMIO step" wait_for "$(st MMIO)"
	# 48 GB: round up to 64, double: 128 (KB 323402)
	check "$lang tanzu: 128 GB for one L40S" on_screen "128 GB"
	k Enter
	check "$lang tanzu: options step" wait_for "$(st OPTIONS)"
	# the Tanzu activity: its outputs are ticked, the .vmx lines not
	check "$lang tanzu: BOSH, Ops Manager and the tile ticked" sh -c \
		"grep -qF '[x] BOSH' '$SCREEN' && grep -qF '[x] $(tr_ "$lang" 'tile values')' '$SCREEN'"
	check "$lang tanzu: the .vmx lines off" on_screen "[ ] $(tr_ "$lang" '.vmx lines')"
	locked=$(tr_ "$lang" "The VM's memory size is not needed: the outputs lock the reservation to the VM's memory themselves (memory_reservation_locked_to_max)" |
		python3 -c 'import sys; print(sys.stdin.read()[:20])')
	screen
	check "$lang tanzu: the memory size is not needed (INFO, no WARN)" info_line "$locked" "$(tr_ "$lang" INFO)"
	k Enter
	check "$lang tanzu: review" wait_for "$(st REVIEW)"
	k v
	check "$lang tanzu: v shows the snippets" wait_for "$(tr_ "$lang" 'What the write step would write (Esc closes):')"
	pages "$TMP/view"
	for p in $FILES; do
		f=${p#*:}
		check "$lang tanzu: v names gpuwiz-out/$f" in_pages "$TMP/view" "gpuwiz-out/$f:"
		# every line that fits unwrapped is shown as it will be written
		miss=$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' "$TMP/cli/$f" |
			awk 'length($0) > 0 && length($0) <= 60' |
			while IFS= read -r l; do grep -qF -- "$l" "$TMP/view" || echo "$l"; done)
		check "$lang tanzu: v shows the contents of $f" [ -z "$miss" ]
	done
	k Escape
	check "$lang tanzu: Esc closes the view" wait_for "$(st REVIEW)"
	k Enter
	check "$lang tanzu: write step" wait_for "$(st WRITE)"
	k Enter
	check "$lang tanzu: written" wait_for "$(tr_ "$lang" 'Written:')"
	pages "$TMP/write"
	check "$lang tanzu: next step: the BOSH cloud config" in_pages "$TMP/write" "bosh update-config --type cloud --name gpu-l40s gpuwiz-out/bosh-vm-extension.yml"
	check "$lang tanzu: next step: the Ops Manager call" in_pages "$TMP/write" \
		'om curl --path /api/v0/staged/vm_extensions/gpu-l40s --request PUT --data "$(cat gpuwiz-out/opsman-vm-extension.json)"'
	check "$lang tanzu: next step: the tile's values" in_pages "$TMP/write" "gpuwiz-out/tile-vm-type.yml"
	k Enter
	check "$lang tanzu: Enter on the result finishes" exited
	check "$lang tanzu: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang tanzu: terminal restored" terminal_sane
	echo "$lang tanzu: keys: $KEYS"
	for p in $FILES; do
		f=${p#*:}
		check "$lang tanzu: $f = LANG=$lang gpuwiz snippet --format ${p%%:*} --gpu l40s" \
			cmp -s "$TMP/run/gpuwiz-out/$f" "$TMP/cli/$f"
	done
	check "$lang tanzu: no .vmx was written, no backup" sh -c \
		"[ -z \"\$(ls '$TMP/run' | grep -v '^gpuwiz-out\$')\" ]"
}

homelab_walk C.UTF-8
tanzu_walk C.UTF-8
if [ $have_zh = 1 ]; then
	homelab_walk zh_CN.UTF-8
	tanzu_walk zh_CN.UTF-8
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the scenario "2 x L40S on the ESXi sample" (bench/keystrokes.md),
# cold, at 80x24, in C.UTF-8 and zh_CN.UTF-8: the host changes are queued
# and shown in the review, and run only after the write step's question.
#  1. gpuwiz --sample-host esxi-l40s (and once the sample picked on the
#     welcome screen of a machine without a GPU): e on the second L40S
#     queues its passthrough (the row says so; nothing changed on the
#     stand-in), both GPUs added, ubuntu-l40s (vmx-13) opened, u queues
#     the upgrade, the review lists both host changes with their commands
#     and the diff, the write asks once (default No), y runs the upgrade,
#     the enable, then the .vmx (hw 21, two device blocks, MMIO) and the
#     files, with a progress box each; passthrough is on in the stand-in.
#  2. the refusal: No at the question changes nothing on the host.
# Keystrokes of scenario 1 from the first screen to the written files: 19
# (with the final Enter that leaves, 20); before the queue: 20 (21).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
ORIG=$SRC/data/hosts/esxi-l40s

# the sample's scratch copy of this run (the newest)
scratch() { ls -dt "$TMPDIR"/gpuwiz-sample.* 2>/dev/null | head -n 1; }
# the screen's rows joined, borders squeezed out (wrapped lines match)
joined() { screen; sed 's/[│┃|]/ /g' "$SCREEN" | tr '\n' ' ' | tr -s ' '; }
on_joined() { joined | grep -qF -- "$1"; }
# TEXT in the pane with its scrollback (what gpuwiz printed on exit)
in_history() { $T capture-pane -p -J -S - -t w 2>/dev/null | grep -qF -- "$1"; }
# in_text TEXT: TEXT in the terminal's history, wherever gpuwiz wrapped it
# (blanks and line ends left out of both)
in_text() {
	$T capture-pane -p -S - -t w 2>/dev/null | tr -d ' \n' |
		grep -qF -- "$(printf '%s' "$1" | tr -d ' ')"
}
no_reboot() { ! find_in_pages "Reboot the host"; }
# the review's pages from here, as one text (PgDn up to 6 times)
pages() {
	: >"$TMP/pages.raw"; p=0
	while [ $p -lt 6 ]; do
		screen; cat "$SCREEN" >>"$TMP/pages.raw"; keys PageDown; p=$((p + 1))
	done
}
# the findings' severities in the order shown (LANG): FAIL, then WARN,
# then INFO and PASS; this plan has no FAIL (and with the upgrade queued
# the firmware WARN alone), so a WARN first and the WARNs together
warn_first() {
	h=$(tr_ "$1" 'Findings:'); w=$(tr_ "$1" 'WARN')
	re="^ +($(tr_ "$1" 'FAIL')|$w|$(tr_ "$1" 'INFO')|$(tr_ "$1" 'PASS')) "
	sed -n "/$h/,\$p" "$TMP/pages.raw" | grep -oE "$re" | tr -d ' ' |
		uniq >"$TMP/sev"
	[ "$(head -n 1 "$TMP/sev")" = "$w" ] && [ "$(grep -cx "$w" "$TMP/sev")" -eq 1 ]
}

# From the host step to the write step's question: e on the second L40S,
# both GPUs, ubuntu-l40s, u, the review.  $1 the language.
queue_walk() {
	lang=$1
	check "$lang: host check" wait_for "$(st HOST)"
	# the cursor starts on the first WARN row: the second L40S
	check "$lang: the WARN row first" sh -c "sed -n 6p '$SCREEN' | grep -q '0000:5e:00.0.*$(tr_ "${lang%% *}" WARN)'"
	keys e
	check "$lang: e queues the enable" wait_for \
		"$(tr_ "$lang" 'Passthrough of %s: will be enabled when you write' | sed 's/%s/0000:5e:00.0/')"
	S=$(scratch)
	check "$lang: nothing changed on the stand-in yet" cmp -s \
		"$S/esxi/esxcli-hardware-pci-pcipassthru-list.txt" \
		"$ORIG/esxi/esxcli-hardware-pci-pcipassthru-list.txt"
	check "$lang: no esxcli set was run" sh -c "! grep -q 'pcipassthru set' '$S/commands.log'"
	keys Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	check "$lang: the queued L40S can be chosen, shown as queued" sh -c \
		"grep -q '$(tr_ "$lang" 'passthrough on')' '$SCREEN' && grep -q '$(tr_ "$lang" 'enable queued')' '$SCREEN'"
	keys Space; keys Down; keys Space
	check "$lang: both L40S added" wait_for "2 x l40s"
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	keys Down; keys Space
	check "$lang: ubuntu-l40s opens" wait_for "Vmid 1"
	keys u
	check "$lang: u queues the upgrade" wait_for \
		"$(tr_ "$lang" '%s (vmx-%d queued: u takes it back)' | sed 's/%s *//; s/%d/21/')"
	check "$lang: no upgrade was run" sh -c "! grep -q 'vmsvc/upgrade' '$S/commands.log'"
	enters VM REVIEW
	check "$lang: review" wait_for "$(st REVIEW)"
	check "$lang: the summary says the upgrade is queued" on_screen "vmx-13 -> vmx-21"
	check "$lang: the review's host changes" on_joined \
		"$(tr_ "$lang" 'Changes on the host (they run first, after your yes at the write):')"
	check "$lang: the enable with its command" on_joined \
		"esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a"
	check "$lang: the upgrade with its command" on_joined "vim-cmd vmsvc/upgrade 1 vmx-21"
	check "$lang: PgDn on the key line (the review scrolls)" sh -c "tail -n 1 '$SCREEN' | grep -q PgDn"
	pages
	check "$lang: the diff further down (the second device block)" \
		grep -qF 'pciPassthru1.id = "00000:094:00.0"' "$TMP/pages.raw"
	check "$lang: the findings: WARN first" warn_first "$lang"
	keys Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang: one question before the host changes" wait_for "[ $(tr_ "$lang" 'No') ]"
	check "$lang: it lists what will be done" sh -c \
		"grep -q '1\\. ' '$SCREEN' && grep -q '2\\. ' '$SCREEN' && grep -q '3\\. ' '$SCREEN'"
}

esxi_walk() { # LANG [welcome]
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	if [ "${2:-}" = welcome ]; then
		mkdir -p "$TMP/nogpu/sys/bus/pci/devices"
		GPUWIZ_SYSROOT="$TMP/nogpu"
		start "$lang" 80x24
		GPUWIZ_SYSROOT="$TMP/no-such-root"
		check "$lang welcome: the samples are offered" wait_for "$(tr_ "$lang" 'Practise on a sample host (no hardware needed)')"
		# the sample row has the cursor: Enter lists the samples,
		# the first (amd-geforce-usb) marked
		keys Enter
		check "$lang welcome: Enter lists the samples" wait_for "(*) amd-geforce-usb"
		keys Down; keys Enter
		check "$lang welcome: the ESXi sample picked" wait_for "esxi-l40s (sample)"
	else
		start "$lang" 80x24 --sample-host esxi-l40s
		check "$lang: welcome" wait_for "$(st WELCOME)"
		keys Enter
	fi
	queue_walk "$lang"
	keys y
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')" 20
	V=$S/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx
	check "$lang: the upgrade ran before the .vmx was saved" sh -c \
		"grep -n 'vmsvc/upgrade 1 vmx-21' '$S/commands.log' | head -n 1 | cut -d: -f1 >'$TMP/l1' &&
		 grep -n 'vmsvc/reload 1' '$S/commands.log' | head -n 1 | cut -d: -f1 >'$TMP/l2' &&
		 [ \$(cat '$TMP/l1') -lt \$(cat '$TMP/l2') ]"
	check "$lang: the .vmx upgraded" grep -q 'virtualHW.version = "21"' "$V"
	check "$lang: the first device block" grep -q 'pciPassthru0.id = "00000:059:00.0"' "$V"
	check "$lang: the second device block" grep -q 'pciPassthru1.id = "00000:094:00.0"' "$V"
	check "$lang: both with the L40S ids" sh -c \
		"[ \$(grep -c 'pciPassthru[01].deviceId = \"0x26b9\"' '$V') -eq 2 ]"
	check "$lang: the MMIO window" grep -q 'pciPassthru.64bitMMIOSizeGB = "256"' "$V"
	check "$lang: passthrough enabled on the stand-in" sh -c \
		"grep '0000:5e:00.0' '$S/esxi/esxcli-hardware-pci-pcipassthru-list.txt' | grep -q true"
	check "$lang: the host changes are listed as done" on_screen \
		"$(tr_ "$lang" '%s (done)' | sed 's/%s *//')"
	case $lang in
	C*) check "$lang: no reboot needed on the stand-in (-a)" no_reboot ;;
	esac
	keys q
	check "$lang: exits" exited
	check "$lang: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: the exit summary names the host changes done" in_text \
		"$(tr_ "$lang" '%s (done; no reboot needed: the host lists the device as given to passthrough now)' |
			sed "s/%s/$(tr_ "$lang" 'Enable passthrough on %s' | sed 's/%s/0000:5e:00.0/')/")"
	rm -rf "$S"
}

refusal() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter
	queue_walk "$lang no"
	V=$S/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx
	keys Enter   # on No, the default
	check "$lang no: Enter answers No" wait_for \
		"$(tr_ "$lang" 'Not written: nothing was changed on the host or in the files.')"
	check "$lang no: nothing ran on the host" sh -c \
		"! grep -qE 'pcipassthru set|vmsvc/upgrade|vmsvc/reload' '$S/commands.log'"
	check "$lang no: the .vmx as it was" cmp -s "$V" "$ORIG/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx"
	check "$lang no: the stand-in as it was" cmp -s \
		"$S/esxi/esxcli-hardware-pci-pcipassthru-list.txt" \
		"$ORIG/esxi/esxcli-hardware-pci-pcipassthru-list.txt"
	check "$lang no: no snippet written" sh -c "[ ! -e '$S/gpuwiz-out/gpuwiz.vmx.txt' ]"
	keys q; keys y
	exited >/dev/null
	rm -rf "$S"
}

esxi_walk C.UTF-8
esxi_walk C.UTF-8 welcome
refusal C.UTF-8
if [ $have_zh -eq 1 ]; then
	esxi_walk zh_CN.UTF-8
	refusal zh_CN.UTF-8
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the GPU step's F5 offline (doc/design.md, section 9), at
# 80x24 in C.UTF-8 and zh_CN.UTF-8: the key line offers it; a file that is
# neither capture is refused with one message; a real `lspci -nn -vvv`
# capture (tests/fixtures/lspci) lists its GPU above the table, where
# Space adds it from the table's row; an `esxcli hardware pci list` output
# read next replaces the list (the kind told by its lines).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

L=$FIX/lspci
keyline() { screen; tail -n 1 "$SCREEN"; }

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: the offline host check" wait_for "$(st HOST)"
	keys Space Down Space Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	check "$lang: the key line offers F5" sh -c \
		"tail -n 1 '$SCREEN' | grep -qF 'F5 lspci'"
	keys F5
	check "$lang: F5 asks for the capture's path" \
		wait_for "$(tr_ "$lang" "Read the host's GPUs")"
	typ "$L/synthetic-lspci-vmm-machine-readable-not-accepted.txt"
	keys Enter
	check "$lang: lspci -vmm refused, saying what was expected" \
		wait_for "esxcli hardware pci list"
	screen
	check "$lang: ... and nothing listed" sh -c "! grep -qF '0000:41:00.0' '$SCREEN'"
	keys F5
	wait_for "$(tr_ "$lang" "Read the host's GPUs")" >/dev/null
	typ "$L/rtx4060ti-16gb-baremetal-rebar.txt"
	keys Enter
	check "$lang: the capture's GPU listed above the table" \
		wait_for "0000:04:00.0 GeForce RTX 4060 Ti 16G"
	check "$lang: ... with its driver and IOMMU group" sh -c \
		"grep -F '0000:04:00.0' '$SCREEN' | grep -q 'nvidia *.* 18'"
	check "$lang: ... under the capture's name" \
		on_screen "rtx4060ti-16gb-baremetal-rebar.txt"
	keys Space
	check "$lang: Space adds it from the table's row" wait_for "1 x rtx-4060-ti-16g"
	keys F5
	wait_for "$(tr_ "$lang" "Read the host's GPUs")" >/dev/null
	typ "$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt"
	keys Enter
	check "$lang: an esxcli listing read too: its L40S replaces the list" \
		wait_for "0000:3b:00.0 L40S (AD102GL)"
	screen
	check "$lang: ... the lspci one gone, the selection kept" sh -c \
		"! grep -qF '0000:04:00.0' '$SCREEN' && grep -qF '1 x rtx-4060-ti-16g' '$SCREEN'"
	keys q
	wait_for "$(tr_ "$lang" "Quit without writing? y/n")" >/dev/null
	keys y
	exited >/dev/null
}

for lang in $langs; do walk "$lang"; done
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the review step (doc/design.md, section 9: a
# summary of the choices, a jump back to any step from the keyboard, the
# BOSH/tile contents on request).  At 80x24, in C.UTF-8 and zh_CN.UTF-8:
#  1. the ESXi sample (--sample-host esxi-l40s), its VM ubuntu-l40s and
#     the detected L40S: the summary names the host and the sample, the
#     GPU, the VM with its hardware version, the MMIO size as the
#     recommendation and the outputs; 3 goes to the GPU step, Enter walks
#     back to the review; v shows the snippets (the BOSH YAML's
#     vm_extensions name, the tile's fields), Esc closes them;
#  2. offline with an answers file: the summary says offline and the
#     .vmx; v writes nothing (no output directory yet); the help says
#     what the digits and v do; the write afterwards puts the name shown
#     into the BOSH file.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# pages FILE: this page and up to 6 more (PageDown), into FILE
# pages FILE: every page of the view, PgDn until the page stops changing
# (at most 20)
pages() {
	: >"$1"
	p=0; last=
	while [ $p -lt 20 ]; do
		screen
		cur=$(cat "$SCREEN")
		[ "$cur" = "$last" ] && break
		printf '%s\n' "$cur" >>"$1"
		last=$cur
		keys PageDown; p=$((p + 1))
	done
}

# summary_row LABEL: the screen row of the summary line with LABEL
summary_row() { grep -F -- "$(tr_ "$lang" "$1")" "$SCREEN" | head -n 1; }
# fits: no row of the screen is wider than 80 cells
fits() {
	python3 -c '
import sys, unicodedata
for l in open(sys.argv[1], encoding="utf-8"):
    l = l.rstrip("\n")
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
    if w > 80:
        print("   too wide:", l); sys.exit(1)' "$SCREEN"
}

# the review's summary at the top, in both languages
check_summary() { # WHAT
	what=$1
	screen
	check "$lang $what: the summary heading" \
		on_screen "$(printf "$(tr_ "$lang" 'Your choices (1-%d goes back to that step):')" "$(stn REVIEW)")"
	for l in 'Host:' 'GPUs:' 'VM:' 'MMIO:' 'Outputs:'; do
		check "$lang $what: a summary line $l" \
			sh -c "grep -qF -- '$(tr_ "$lang" "$l")' '$SCREEN'"
	done
	command -v python3 >/dev/null 2>&1 && check "$lang $what: every row fits 80 cells" fits
}

# ---- 1. the ESXi sample ------------------------------------------------------
esxi_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang esxi: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang esxi: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang esxi: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang esxi: Space adds the detected L40S" wait_for "l40s"
	keys Enter
	check "$lang esxi: VM step" wait_for "$(st VM)"
	keys Down; keys Space
	check "$lang esxi: the VM opens" wait_for "vmx-21"
	enters VM OPTIONS
	check "$lang esxi: options" wait_for "$(st OPTIONS)"
	# the VM open: its .vmx is the output, nothing ticked by default;
	# the four snippets chosen here for the view
	check "$lang esxi: no output ticked by default" sh -c \
		"grep -A2 -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF '[ ] BOSH' && ! grep -A2 -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF '[x]'"
	keys Down; keys Down; keys Down; keys Down; keys Down; keys Down; keys Space
	keys Down; keys Space; keys Down; keys Space; keys Down; keys Space
	check "$lang esxi: the four ticked" wait_for "[x] $(tr_ "$lang" 'tile values')"
	keys Enter
	check "$lang esxi: review" wait_for "$(st REVIEW)"
	check_summary esxi
	sample=$(printf "$(tr_ "$lang" '%s (sample)')" esxi-l40s)
	check "$lang esxi: the host and the sample" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Host:')' '$SCREEN' | grep -qF -- '$(printf "$(tr_ "$lang" 'ESXi host %s')" "$sample")'"
	check "$lang esxi: the GPU" sh -c \
		"grep -F -- '$(tr_ "$lang" 'GPUs:')' '$SCREEN' | grep -qF '1 x l40s'"
	check "$lang esxi: the VM and its hardware version" sh -c \
		"grep -F -- '$(tr_ "$lang" 'VM:')' '$SCREEN' | grep -qE 'vmx-13.*ubuntu-l40s'"
	rec=$(tr_ "$lang" '%llu GB (the recommendation)' | sed 's/%llu GB//')
	check "$lang esxi: the MMIO size is the recommendation" sh -c \
		"grep -F -- '$(tr_ "$lang" 'MMIO:')' '$SCREEN' | grep -qF -- '$rec'"
	check "$lang esxi: the outputs" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF 'vmx$(tr_ "$lang" ', ')bosh$(tr_ "$lang" ', ')opsman$(tr_ "$lang" ', ')tile'"
	# the key help line names the digits and v
	check "$lang esxi: the help line has 1-$(stn REVIEW)" sh -c "tail -n 1 '$SCREEN' | grep -qF '1-$(stn REVIEW)'"
	check "$lang esxi: the help line has v" sh -c "tail -n 1 '$SCREEN' | grep -qF 'v $(tr_ "$lang" 'Snippets')'"
	# a digit jump and back
	keys 3
	check "$lang esxi: 3 goes to the GPU step" wait_for "$(st GPU)"
	check "$lang esxi: the L40S is still chosen" on_screen "l40s"
	n=0
	while [ $n -lt "$GW_NSTEPS" ] && ! on_screen "$(st REVIEW)"; do keys Enter; sleep 0.2; n=$((n + 1)); done
	check "$lang esxi: Enter walks back to the review" wait_for "$(st REVIEW)"
	check "$lang esxi: the summary is unchanged" sh -c \
		"grep -F -- '$(tr_ "$lang" 'GPUs:')' '$SCREEN' | grep -qF '1 x l40s'"
	keys 7
	check "$lang esxi: 7 stays on the review" on_screen "$(st REVIEW)"
	# the snippets
	keys v
	check "$lang esxi: v opens the snippets" \
		wait_for "$(tr_ "$lang" 'What the write step would write (Esc closes):')"
	check "$lang esxi: the help line says Esc closes" sh -c \
		"screen; tail -n 1 '$SCREEN' | grep -qF 'Esc $(tr_ "$lang" 'Close')'"
	command -v python3 >/dev/null 2>&1 && check "$lang esxi: the view fits 80 cells" fits
	pages "$TMP/view.txt"
	check "$lang esxi: the BOSH file is named" grep -qF "bosh-vm-extension.yml:" "$TMP/view.txt"
	check "$lang esxi: its vm_extensions" grep -qF "vm_extensions:" "$TMP/view.txt"
	check "$lang esxi: the extension's name" grep -qF 'name: "gpu-l40s"' "$TMP/view.txt"
	check "$lang esxi: the tile file is named" grep -qF "tile-vm-type.yml:" "$TMP/view.txt"
	check "$lang esxi: the tile's vendor id field" grep -qF "PCI Passthrough Vendor ID" "$TMP/view.txt"
	check "$lang esxi: the tile's MMIO size field" grep -qF "size for 64bit MMIO" "$TMP/view.txt"
	check "$lang esxi: the .vmx lines" grep -qF 'pciPassthru.use64bitMMIO = "TRUE"' "$TMP/view.txt"
	# a digit in the view does not jump
	keys 2
	check "$lang esxi: 2 in the view stays" on_screen "$(st REVIEW)"
	keys Escape
	check "$lang esxi: Esc closes the view, on the review" \
		wait_for "$(printf "$(tr_ "$lang" 'Your choices (1-%d goes back to that step):')" "$(stn REVIEW)")"
	check "$lang esxi: still step 7" on_screen "$(st REVIEW)"
	keys q
	on_screen "y/n" && keys y
	check "$lang esxi: exits" exited
	check "$lang esxi: terminal sane" terminal_sane
}

# ---- 2. offline, an answers file -------------------------------------------
offline_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\nbdf = 0000:42:00.0\nsystem_id = 5f2c1a3e-0000-0000-0000-0cc47a1b2c3d\n[output]\ndir = out\nformats = vmx,bosh,tile\nname = gpu-review\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	check "$lang offline: welcome" wait_for "$(st WELCOME)"
	enters WELCOME REVIEW
	check "$lang offline: review" wait_for "$(st REVIEW)"
	check_summary offline
	check "$lang offline: the host is offline" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Host:')' '$SCREEN' | grep -qF -- '$(tr_ "$lang" 'offline (no host)')'"
	check "$lang offline: the VM: its hardware version and the .vmx" sh -c \
		"grep -F -- '$(tr_ "$lang" 'VM:')' '$SCREEN' | grep -qE 'vmx-11.*vm\.vmx'"
	patched=$(tr_ "$lang" 'the .vmx is patched; %s in %s' | sed 's/%s.*//')
	check "$lang offline: the outputs and the .vmx" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -F -- '$patched' | grep -qF 'vmx$(tr_ "$lang" ', ')bosh$(tr_ "$lang" ', ')tile'"
	# the help says what the digits and v do
	keys F1
	sleep 0.2
	pages "$TMP/help.txt"
	keys Escape
	tr '\n' ' ' <"$TMP/help.txt" | sed 's/[│┃|]/ /g' | tr -s ' ' >"$TMP/help1.txt"
	case $lang in
	zh*) check "$lang offline: the help names the digits" grep -qF "按某一步骤的数字" "$TMP/help1.txt"
	     check "$lang offline: the help names v" grep -qF "按 v" "$TMP/help1.txt" ;;
	*) check "$lang offline: the help names the digits" grep -qF "a step's digit goes back" "$TMP/help1.txt"
	   check "$lang offline: the help names v" grep -qF "v shows what the write step would do" "$TMP/help1.txt" ;;
	esac
	check "$lang offline: back on the review" wait_for "$(st REVIEW)"
	# a jump to the VM step and back
	keys 4
	check "$lang offline: 4 goes to the VM step" wait_for "$(st VM)"
	n=0
	while [ $n -lt "$GW_NSTEPS" ] && ! on_screen "$(st REVIEW)"; do keys Enter; sleep 0.2; n=$((n + 1)); done
	check "$lang offline: Enter walks back to the review" wait_for "$(st REVIEW)"
	keys v
	check "$lang offline: v opens the snippets" \
		wait_for "$(tr_ "$lang" 'What the write step would write (Esc closes):')"
	pages "$TMP/view.txt"
	check "$lang offline: the BOSH name from the answers" grep -qF 'name: "gpu-review"' "$TMP/view.txt"
	check "$lang offline: the tile's device id" grep -qF "0x26B9" "$TMP/view.txt"
	check "$lang offline: the view writes nothing" [ ! -e "$TMP/run/out" ]
	keys Escape
	check "$lang offline: Esc closes the view" \
		wait_for "$(printf "$(tr_ "$lang" 'Your choices (1-%d goes back to that step):')" "$(stn REVIEW)")"
	keys Enter
	check "$lang offline: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang offline: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	check "$lang offline: the BOSH file has the name shown" \
		grep -qF 'name: "gpu-review"' "$TMP/run/out/bosh-vm-extension.yml"
	check "$lang offline: the tile file has the MMIO field" \
		grep -qF "size for 64bit MMIO" "$TMP/run/out/tile-vm-type.yml"
	keys q
	check "$lang offline: exits" exited
	check "$lang offline: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang offline: terminal sane" terminal_sane
}

for lang in C.UTF-8 zh_CN.UTF-8; do
	case $lang in zh*) [ $have_zh = 1 ] || { echo "# no zh_CN locale: C only"; continue; } ;; esac
	esxi_walk "$lang"
	offline_walk "$lang"
done
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: what the wizard shows is what it does, in C.UTF-8 and
# zh_CN.UTF-8 at 80x24.
#  1. welcome: the focus starts on the choice marked (*), the (*) follows
#     the cursor (a menu), and the first Enter acts on it; a machine
#     without a GPU marks the sample row, whose Enter lists the samples,
#     each description whole (no "…": nothing cut at 80x24);
#  2. the step bar: a tick on a step that passed, "!" on one left with a
#     FAIL (the host check overridden), nothing on the steps ahead;
#  3. the offline host check: the unconfirmed BIOS items FAIL, Enter stays
#     and names every one missing, its F1 says so;
#  4. "Terminal too small": q does nothing until the terminal is larger;
#  5. a help box or a question: nothing of the screen below beside it;
#  6. the review's key line shows "s Save" without scrolling;
#  7. a host's VM list is a menu: the (*) follows the cursor, moving reads
#     nothing, Enter opens the marked VM and goes on, Space opens it and
#     stays; "o Force" on the host check's key line;
#  8. the offline VM step: the (*) is what Enter does and follows the
#     focus: it starts on "No .vmx file" with a GPU chosen, the path
#     field marks the file (Enter on it empty asks for the path).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_HOSTS_DIR="${GPUWIZ_HOSTS_DIR:-$SRC/data/hosts}"

# the highlighted row is the one drawn black on cyan (ESC [46m)
focused_has() { $T capture-pane -e -p -t w | grep "$(printf '\033')\[46m" | grep -qF -- "$1"; }
# marked: the number of "(*)" on the screen
marked() { screen; grep -o '(\*)' "$SCREEN" | wc -l | tr -d ' '; }
# squashed TEXT is on the screen, however it wrapped
sq() { sed 's/│//g' | tr -d ' \n'; }
# first LANG TEXT N: the first N characters of TEXT's translation
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }
on_screen_sq() { screen; sq <"$SCREEN" | grep -qF -- "$(printf '%s' "$1" | sq)"; }
no_cut() { screen; ! grep -q '…' "$SCREEN"; }
# no VM open on the VM list: no "Vmid" line on the screen
no_vm_open() { screen; ! grep -q 'Vmid' "$SCREEN"; }
# the step bar's first row
bar() { screen; head -n 1 "$SCREEN"; }
# lng LANG: the --lang option for LANG
lng() { case $1 in zh*) echo "--lang zh_CN" ;; esac; }

answers() {
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/run/a.ini"
}

# beside_box: on the rows of the box drawn on the screen (its ┌ to its ┘),
# every cell left and right of it is blank
cat >"$TMP/beside.py" <<'EOF'
import sys, unicodedata
def cells(line):
    row = []
    for ch in line:
        if unicodedata.combining(ch):
            continue
        row.append(ch)
        if unicodedata.east_asian_width(ch) in "WF":
            row.append("")
    return row + [" "] * (200 - len(row))
rows = [cells(l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n")]
top = next((y for y, r in enumerate(rows) if "┌" in r), None)
bot = next((y for y, r in enumerate(rows) if "┘" in r), None)
if top is None or bot is None:
    print("no box"); sys.exit(1)
left, right = rows[top].index("┌"), rows[bot].index("┘")
bad = 0
for y in range(top, bot + 1):
    out = rows[y][:left] + rows[y][right + 1:80]
    if any(c not in (" ", "") for c in out):
        print("row %d: %s" % (y, "".join(rows[y]).rstrip())); bad += 1
sys.exit(1 if bad else 0)
EOF
beside_box() { screen; python3 "$TMP/beside.py" "$SCREEN"; }

shown_walk() { # LANG
	lang=$1
	VMROW=$(tr_ "$lang" "Patch a VM's .vmx offline, or get the lines to paste")
	TZROW=$(tr_ "$lang" 'A Tanzu/BOSH VM type, offline: tile, BOSH, Ops Manager')
	SMROW=$(tr_ "$lang" 'Practise on a sample host (no hardware needed)')
	IOMMU=$(tr_ "$lang" 'VT-d / AMD-Vi (IOMMU)')
	A4G=$(tr_ "$lang" 'Above 4G decoding')

	# ---- 1. welcome: the focus on the (*), the first Enter acts on it -----
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang")
	check "$lang: welcome" wait_for "$(st WELCOME)"
	check "$lang welcome: the focus starts on the marked choice" focused_has "(*) $VMROW"
	check "$lang welcome: one language and one choice marked" [ "$(marked)" = 2 ]
	check "$lang welcome: nothing cut" no_cut
	keys Down
	check "$lang welcome: the (*) follows the cursor" focused_has "(*) $TZROW"
	check "$lang welcome: still one choice marked" [ "$(marked)" = 2 ]
	keys Enter
	check "$lang welcome: the first Enter takes the marked choice" wait_for "$(st HOST)"
	keys Escape
	check "$lang welcome: back, the focus on the choice taken" wait_for "(*) $TZROW"
	check "$lang welcome: focused" focused_has "(*) $TZROW"
	keys Up; keys Up
	DRROW=$(tr_ "$lang" 'Fix a failed power-on or a crash: paste the error text or give vmware.log')
	check "$lang welcome: Up to the first choice marks it" focused_has "(*) $DRROW"
	# the language row is no stop (Left/Right switch it from any row):
	# Up wraps to the last choice, which is marked and focused
	keys Up
	check "$lang welcome: Up wraps past the language row to the last choice" \
		focused_has "(*) $(tr_ "$lang" "Practise on a sample host (no hardware needed)")"
	check "$lang welcome: one choice marked" [ "$(marked)" = 2 ]
	keys q; exited 10 >/dev/null

	# a machine without a GPU: the sample row marked and focused; Enter
	# lists the samples, each description whole
	mkdir -p "$TMP/nogpu/sys/bus/pci/devices"
	GPUWIZ_SYSROOT="$TMP/nogpu"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang")
	GPUWIZ_SYSROOT="$TMP/no-such-root"
	check "$lang no GPU: welcome" wait_for "$(st WELCOME)"
	check "$lang no GPU: the sample row marked and focused" focused_has "(*) $SMROW"
	check "$lang no GPU: one choice marked" [ "$(marked)" = 2 ]
	keys Enter
	check "$lang no GPU: Enter lists the samples, the first marked" wait_for "(*) amd-geforce-usb"
	check "$lang no GPU: focused" focused_has "(*) amd-geforce-usb"
	check "$lang samples: no description cut" no_cut
	for t in "AMD home lab, GeForce RTX 4060 Ti sharing its IOMMU group with a USB controller" \
	         "ESXi 8.0U2 server, two L40S (one not yet enabled for passthrough), three VMs" \
	         "Intel workstation, VT-d on in the BIOS but the IOMMU off in the kernel (no intel_iommu=on)"; do
		check "$lang samples: whole: $(printf '%s' "$t" | cut -c1-20)" on_screen_sq "$(tr_ "$lang" "$t")"
	done
	keys Down
	check "$lang samples: the (*) follows the cursor" focused_has "(*) esxi-l40s"
	keys Escape
	check "$lang samples: Esc brings the choices back" wait_for "(*) $SMROW"
	keys q; exited 10 >/dev/null

	# ---- 2 and 3. the offline host check, the step bar ---------------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang")
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter
	check "$lang host: host check" wait_for "$(st HOST)"
	check "$lang host: the unconfirmed IOMMU item FAILs" sh -c "grep -F -- '$IOMMU' '$SCREEN' | grep -qF '$(tr_ "$lang" FAIL)'"
	check "$lang host: the unconfirmed above-4G item FAILs" sh -c "grep -F -- '$A4G' '$SCREEN' | grep -qF '$(tr_ "$lang" FAIL)'"
	check "$lang host: no WARN for what blocks" sh -c "! grep -F -- '$IOMMU' '$SCREEN' | grep -qF '$(tr_ "$lang" WARN)'"
	keys Enter
	both=$(tr_ "$lang" '%s and %s: not confirmed; turn both on in the BIOS/UEFI setup and confirm each here (Space).')
	check "$lang host: one Enter names both items" on_screen_sq "$(printf "$both" "$IOMMU" "$A4G")"
	check "$lang host: and stays" on_screen "$(st HOST)"
	keys Space; keys Enter
	one=$(tr_ "$lang" '%s: not confirmed; turn it on in the BIOS/UEFI setup and confirm it here.')
	check "$lang host: then names the one left" on_screen_sq "$(printf "$one" "$A4G")"
	check "$lang host: the confirmed one passes" sh -c "grep -F -- '$IOMMU' '$SCREEN' | grep -qF '$(tr_ "$lang" PASS)'"
	keys F1
	check "$lang host: F1 opens the step's help" wait_for "$(tr_ "$lang" 'Help: %s' | sed "s/%s/$(tr_ "$lang" 'Host check')/")"
	help=$(tr_ "$lang" "Passthrough needs the IOMMU (Intel VT-d or AMD-Vi) and, for GPUs with large memory windows, \"Above 4G decoding\" (also called MMIO above 4 GB) turned on in the host's BIOS/UEFI setup; vGPU on Ampere and later GPUs also needs SR-IOV. ESXi cannot report these settings, so when planning offline you confirm each one: Up/Down move, Space toggles the highlighted item. A confirmed item shows PASS. The IOMMU and above 4G decoding show FAIL with where to find them until confirmed: Enter does not go on while one is missing and names every one missing. SR-IOV shows INFO while no vGPU that needs it is chosen, else WARN: the review step then waits for it.
A device that shows \"Passthru Capable: false\" in esxcli hardware pci list usually means the IOMMU is off.")
	check "$lang host: F1 says Enter names every one missing" on_screen_sq "$(printf '%s' "$help" | head -n 1)"
	# ---- 5. nothing beside the help box ------------------------------------
	check "$lang help: nothing of the screen below beside the box" beside_box
	keys Escape
	keys Down; keys Space; keys Enter
	check "$lang bar: on to the GPU step" wait_for "$(st GPU)"
	check "$lang bar: ticks on the steps that passed" sh -c "head -n 1 '$SCREEN' | grep -q '✓1.*✓2'"
	check "$lang bar: nothing on the steps ahead" sh -c "! head -n 1 '$SCREEN' | grep -qE '[✓!][3-8]'"
	# a question: a GPU chosen, q asks before quitting
	typ l40s; keys Down; keys Space
	keys F10
	check "$lang quit: the question" wait_for "$(first "$lang" 'Quit without writing? y/n' 6)"
	check "$lang quit: nothing of the screen below beside it" beside_box
	keys y; exited 10 >/dev/null

	# the host check overridden: "!" on its step
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang") --sample-host intel-iommu-off-kernel
	wait_for "$(st WELCOME)" 30 >/dev/null
	keys Enter
	check "$lang override: host check" wait_for "$(st HOST)" 30
	check "$lang override: a FAIL row" on_screen "$(tr_ "$lang" FAIL)"
	# in both languages the key line has o at 80 columns
	check "$lang override: o on the key line" sh -c "tail -n 1 '$SCREEN' | grep -qF 'o $(tr_ "$lang" Force)'"
	keys o; keys y
	keys Enter
	check "$lang override: on to the GPU step" wait_for "$(st GPU)"
	check "$lang override: the host step marked !, not ticked" sh -c "head -n 1 '$SCREEN' | grep -q '✓1.*!2' && ! head -n 1 '$SCREEN' | grep -q '✓2'"
	keys q; keys y; exited 10 >/dev/null

	# ---- 7. the VM list of a host: a menu, Enter takes the marked VM -----
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang") --sample-host esxi-l40s
	wait_for "$(st WELCOME)" 30 >/dev/null
	keys Enter; wait_for "$(st HOST)" 30 >/dev/null
	check "$lang vm list: the host check's key line has o" sh -c "tail -n 1 '$SCREEN' | grep -qF 'o $(tr_ "$lang" Force)'"
	keys Enter; wait_for "$(st GPU)" 30 >/dev/null
	keys Space; keys Enter
	check "$lang vm list: VM step" wait_for "$(st VM)"
	NOVM=$(tr_ "$lang" 'No VM: write snippets only')
	check "$lang vm list: the focus on the marked No VM" focused_has "(*) $NOVM"
	check "$lang vm list: one row marked" [ "$(marked)" = 1 ]
	check "$lang vm list: the heading says Enter takes the marked one" on_screen \
		"$(tr_ "$lang" 'VMs on %s (Enter goes on with the one marked):' | sed 's/.*%s//')"
	keys Down; keys Down; keys Down
	check "$lang vm list: the (*) follows the cursor" focused_has "(*) llm-train"
	check "$lang vm list: still one row marked" [ "$(marked)" = 1 ]
	check "$lang vm list: No VM no longer marked" on_screen "( ) $NOVM"
	check "$lang vm list: moving read nothing: no VM open" no_vm_open
	check "$lang vm list: the key line offers Space Open" sh -c "tail -n 1 '$SCREEN' | grep -qF '$(tr_ "$lang" Space) $(tr_ "$lang" Open)'"
	keys Enter
	check "$lang vm list: Enter opens the marked VM and goes on" wait_for "$(st MMIO)"
	keys Escape
	check "$lang vm list: back, llm-train is the VM open" wait_for "Vmid 3"
	check "$lang vm list: and marked" focused_has "(*) llm-train"
	keys Up; keys Up
	check "$lang vm list: the open VM is not shown for another mark" no_vm_open
	check "$lang vm list: ubuntu-l40s marked" focused_has "(*) ubuntu-l40s"
	keys Space
	check "$lang vm list: Space opens it and stays" wait_for "Vmid 1"
	check "$lang vm list: on the VM step" on_screen "$(st VM)"
	keys Up; keys Enter
	check "$lang vm list: Enter on No VM goes on" wait_for "$(st MMIO)"
	keys Escape
	check "$lang vm list: no VM open" wait_for "(*) $NOVM"
	check "$lang vm list: none read" no_vm_open
	keys F1
	check "$lang vm list: F1 says the (*) follows the cursor" on_screen_sq \
		"$(first "$lang" "The list shows the host's VMs (vim-cmd vmsvc/getallvms). Up/Down choose: the (*) follows the cursor, and nothing is read from the host while you move. Enter goes on with the VM marked (*): gpuwiz first asks the host for its power state and reads its .vmx from the datastore, unless it is open already; \"No VM\" goes on with the snippets only. Space opens the marked VM without going on and shows its hardware version, firmware, memory and reservation and the passthrough devices already in it, with its advice.
The write step saves the changed .vmx on the datastore (temporary file, then a move; the old file is kept as a backup beside it) and runs vim-cmd vmsvc/reload. A VM that is not powered off is never changed.
u (on the open VM) queues the upgrade of its hardware version to the newest this host runs (vim-cmd vmsvc/upgrade; the plan is made for that version): the write step runs it after your one yes, only with the VM powered off, never down; u again takes it back. The upgrade cannot be undone: the write step first copies the .vmx to a backup beside it (a VM with a DirectPath device cannot have snapshots).
r reads the host's VM list again." 60 | head -n 1)"
	keys Escape
	keys q; keys y; exited 10 >/dev/null

	# ---- 8. the offline VM step: the (*) is what Enter does ---------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang")
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter; wait_for "$(st HOST)" >/dev/null
	keys Space; keys Down; keys Space; keys Enter
	wait_for "$(st GPU)" >/dev/null
	typ l40s; keys Down; keys Space; keys Enter
	check "$lang vmx: VM step" wait_for "$(st VM)"
	NOVMX=$(tr_ "$lang" 'No .vmx file: write snippets only')
	FILEROW=$(tr_ "$lang" '.vmx file:')
	check "$lang vmx: a GPU chosen, no path: on No .vmx, marked" focused_has "(*) $NOVMX"
	keys Down
	check "$lang vmx: in the empty path: the file marked" on_screen "(*) $FILEROW"
	check "$lang vmx: one mark in the path" [ "$(marked)" = 1 ]
	keys Enter
	check "$lang vmx: Enter on the marked empty path stays" on_screen_sq "$(first "$lang" 'Type the .vmx'"'"'s path (Tab completes), or Up to "No .vmx file" to go on without one.' 12)"
	check "$lang vmx: still the VM step" on_screen "$(st VM)"
	typ vm.vmx
	check "$lang vmx: a path typed: the file marked" on_screen "(*) $FILEROW vm.vmx"
	check "$lang vmx: one mark" [ "$(marked)" = 1 ]
	keys Up
	check "$lang vmx: on No .vmx: it is marked (Enter goes on without)" focused_has "(*) $NOVMX"
	check "$lang vmx: the path is not" on_screen "( ) $FILEROW vm.vmx"
	keys Down
	check "$lang vmx: back in the path: the file marked" on_screen "(*) $FILEROW vm.vmx"
	keys Enter
	check "$lang vmx: Enter opens the marked file" wait_for "$(tr_ "$lang" 'Hardware version:')"
	# the file below hardware version 17: the cursor went to the ESXi version
	keys Up; keys Up
	check "$lang vmx: on No .vmx again: it is marked" focused_has "(*) $NOVMX"
	keys Enter
	check "$lang vmx: Enter on the marked No .vmx goes on" wait_for "$(st MMIO)"
	keys Escape
	check "$lang vmx: back: no .vmx, the path emptied" wait_for "(*) $NOVMX"
	keys q; keys y; exited 10 >/dev/null

	# ---- 4. too small: q does nothing --------------------------------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang")
	wait_for "$(st WELCOME)" >/dev/null
	resize 70 20
	check "$lang small: the notice" wait_for "$(first "$lang" 'Terminal too small: enlarge it to at least %dx%d (now %dx%d)' 8)"
	keys q; keys Enter; keys Down
	resize 80 24
	check "$lang small: back at 80x24 on the same screen" wait_for "$(st WELCOME)"
	check "$lang small: q did not quit" sh -c "! grep -q GPUWIZ-EXITED '$SCREEN'"
	check "$lang small: Down did not move the choice" focused_has "(*) $VMROW"
	keys q; exited 10 >/dev/null

	# ---- 6. the review's key line ------------------------------------------
	answers
	# shellcheck disable=SC2046
	start "$lang" 80x24 $(lng "$lang") --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME REVIEW
	check "$lang review: reached" wait_for "$(st REVIEW)"
	check "$lang review: s Save on the key line" sh -c "tail -n 1 '$SCREEN' | grep -qF 's $(tr_ "$lang" Save)'"
	check "$lang review: PgDn More too" sh -c "tail -n 1 '$SCREEN' | grep -qF 'PgDn $(tr_ "$lang" More)'"
	keys q; keys y; exited 10 >/dev/null
}

shown_walk C.UTF-8
if [ $have_zh = 1 ]; then
	shown_walk zh_CN.UTF-8
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi
finish

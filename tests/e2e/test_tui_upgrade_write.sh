#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of a write that changes the host first (doc/design.md,
# section 6.5), on the esxi-l40s sample host: the second L40S
# (0000:5e:00.0) enabled for passthrough (e), the VM ubuntu-l40s (vmx-13)
# opened and its upgrade queued (u).  The VM panel shows the upgrade as
# queued ("13 -> 21 queued"), not done; the review and the write step name
# the host's .vmx with its path wrapped in the column after the host's
# label (never a row that starts with a bare ":/"); after the write the
# enable says whether the host needs a reboot (from the device list read
# after it), and the VM's directory holds exactly one backup, the
# original file byte for byte, the one the write step names.  At 80x24,
# in C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
ORIG=$SRC/data/hosts/esxi-l40s/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx

# no_bare_colon FILE: no row of the captured pages starts with ":" (a
# path's host label cut from it)
no_bare_colon() { ! grep -qE '^ *[:：]/' "$1"; }
# path_in_column FILE LABEL: the row with LABEL has the path after it, and
# the next row continues it from the same column
path_in_column() {
	python3 - "$1" "$2" <<'PY'
import sys, unicodedata
def cells(s):
    return sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s)
rows = open(sys.argv[1], encoding='utf-8').read().split('\n')
label = sys.argv[2]
for i, r in enumerate(rows[:-1]):
    k = r.find(label)
    if k < 0 or '/' not in r[k + len(label):]:
        continue
    col = cells(r[:r.index('/', k + len(label))])
    nxt = rows[i + 1]
    lead = len(nxt) - len(nxt.lstrip(' '))
    sys.exit(0 if lead == col and nxt.strip() else 1)
sys.exit(1)
PY
}

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run" "$TMP/tmpdir"/gpuwiz-sample.*; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host check" wait_for "$(st HOST)"
	# the cursor starts on the WARN row of 0000:5e:00.0: e queues it
	keys e
	keys Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	keys Down; keys Space
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	keys Down; keys Space
	check "$lang: ubuntu-l40s opens (vmx-13)" wait_for "vmx-13"
	keys u
	q=$(printf "$(tr_ "$lang" "%d -> %d queued (the host's ESXi supports %d)")" 13 21 21)
	check "$lang: the panel shows the upgrade queued, not done" wait_for "$q"
	check "$lang: no panel row says the version is 21 already" sh -c \
		"! grep -qF '$(tr_ "$lang" 'Hardware version:')' '$SCREEN' || grep -F '$(tr_ "$lang" 'Hardware version:')' '$SCREEN' | grep -qF -- '13 -> 21'"
	keys Enter
	check "$lang: MMIO step" wait_for "$(st MMIO)"
	keys Enter
	check "$lang: options step" wait_for "$(st OPTIONS)"
	keys Enter
	check "$lang: review" wait_for "$(st REVIEW)"
	: >"$TMP/review.txt"
	for p in 1 2; do screen; cat "$SCREEN" >>"$TMP/review.txt"; keys PageDown; done
	label=$(printf "$(tr_ "$lang" '%s (sample)')" esxi-l40s):
	check "$lang: review: the path wraps in its column after the host" path_in_column "$TMP/review.txt" "$label"
	check "$lang: review: no row starts with a bare colon" no_bare_colon "$TMP/review.txt"
	keys Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	screen; cp "$SCREEN" "$TMP/write0.txt"
	check "$lang: write step: the path wraps in its column" path_in_column "$TMP/write0.txt" "$label"
	check "$lang: write step: no row starts with a bare colon" no_bare_colon "$TMP/write0.txt"
	keys Enter
	check "$lang: the confirmation" wait_for "3. $(tr_ "$lang" 'Write the .vmx and the files')"
	keys y
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')" 20
	verdict=$(printf "$(tr_ "$lang" '%s (done; no reboot needed: the host lists the device as given to passthrough now)')" "" | sed 's/^ *//' | python3 -c 'import sys; print(sys.stdin.read()[:14])')
	check "$lang: the enable says whether a reboot is needed" on_screen "$verdict"
	scr=$(ls -d "$TMP/tmpdir"/gpuwiz-sample.* | head -n 1)
	D=$scr/volumes/datastore1/ubuntu-l40s
	check "$lang: the VM is upgraded and patched" sh -c \
		"grep -qx 'virtualHW.version = \"21\"' '$D/ubuntu-l40s.vmx' && grep -q 'pciPassthru0.id' '$D/ubuntu-l40s.vmx'"
	n=$(ls "$D" | grep -c '\.bak')
	check "$lang: exactly one backup beside the .vmx ($n)" [ "$n" -eq 1 ]
	bak=$(ls "$D"/*.bak 2>/dev/null | head -n 1)
	check "$lang: the backup is the original, byte for byte" cmp -s "$bak" "$ORIG"
	check "$lang: the write step names that backup" on_screen "$(basename "$bak")"
	keys q
	check "$lang: exits" exited
	$T capture-pane -p -J -S -200 -t w >"$TMP/pane.txt" 2>/dev/null
	check "$lang: the exit text names that backup" grep -qF "$(basename "$bak")" "$TMP/pane.txt"
	check "$lang: the exit text has the reboot verdict" grep -qF "$verdict" "$TMP/pane.txt"
	check "$lang: terminal sane" terminal_sane
}

walk C.UTF-8
if [ "$have_zh" = 1 ]; then
	walk zh_CN.UTF-8
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi

finish

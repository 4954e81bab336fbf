#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: nothing is cut without a sign (doc/design.md, section 10).  The wizard runs
# with GPUWIZ_UI_AUDIT=FILE, which makes the drawing layer (ui/draw.c)
# write one line for every text it clips without the "…" sign; Enter walks
# every step at 80x24, in C.UTF-8 and in zh_CN.UTF-8 (--lang zh_CN), with
# an answers file, plainly and on the sample hosts, opening each step's
# help, and the doctor's pages (a detour of step 1).  The audit file must
# stay empty, and no row of the captured
# screens may have text touching the right edge without the sign (or a
# scroll mark touching text).  Then TERM=vt100 and TERM=linux: the first
# screen draws its lines and F1 opens the help.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
# the sample hosts' scratch directories go with $TMP

AUDIT=$TMP/audit.txt
export GPUWIZ_UI_AUDIT="$AUDIT"
PANES=$TMP/panes
mkdir -p "$PANES"
NPANE=0

# keep: the screen as it is now, for the edge check
keep() {
	screen
	NPANE=$((NPANE + 1))
	{ echo "=== $WHAT #$NPANE"; cat "$SCREEN"; } >"$PANES/$(printf %04d $NPANE).txt"
}
# the step shown ("k/N" in both languages), or nothing
# the step shown ("$(st GPU)" in both languages), or nothing
step_of() { grep -o "[0-9]*/$GW_NSTEPS" "$SCREEN" | head -n 1 | cut -d/ -f1; }

answers() {
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s=1\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/run/a.ini"
	# on a sample host the VM is one of the host's: no [vm] file
	printf '[gpu]\ndevices = l40s=1\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/run/s.ini"
}

# help: open this step's help, keep each page, close it
help_pages() {
	keys F1; sleep 0.2; keep
	keys PageDown; keep
	keys PageDown; keep
	keys Escape
}

# walk NAME LANG ARGS...: Enter through every step to the written files,
# keeping every screen and each step's help; a step that stays asks for
# what it needs (y to a question, o past a FAIL row, Enter again)
walk() {
	WHAT=$1; lang=$2; shift 2
	start "$lang" 80x24 "$@"
	check "$WHAT: first screen" wait_for "$(st WELCOME)" 30
	last=0; tries=0; done_=0
	while [ $tries -lt 40 ]; do
		tries=$((tries + 1))
		sleep 0.3; keep
		cur=$(step_of)
		[ -n "$cur" ] || cur=0
		if [ "$cur" != "$last" ]; then
			help_pages
			last=$cur; same=0
			keep
			cur=$(step_of)
		fi
		if [ "$cur" = "$(stn WRITE)" ]; then
			keys Enter; sleep 1; keep
			keys PageDown; keep
			keys PageDown; keep
			done_=1
			break
		fi
		same=$((same + 1))
		if grep -q 'y/n' "$SCREEN"; then
			keys y
		elif [ "$cur" = "$(stn HOST)" ] && [ $same -gt 1 ]; then
			keys o; keys y
		elif [ "$cur" = "$(stn GPU)" ] && [ $same -gt 2 ]; then
			keys Space
		fi
		keys Enter
	done
	check "$WHAT: the walk reached the write step" [ $done_ = 1 ]
	keys q; keys y
	exited 10 >/dev/null
}

answers
walk "C plain" C.UTF-8 --answers a.ini
for h in esxi-l40s intel-2x-l40s amd-geforce-usb; do
	answers
	walk "C $h" C.UTF-8 --answers s.ini --sample-host $h
done
if [ $have_zh = 1 ]; then
	answers
	walk "zh plain" zh_CN.UTF-8 --lang zh_CN --answers a.ini
	for h in esxi-l40s intel-2x-l40s amd-geforce-usb; do
		answers
		walk "zh $h" zh_CN.UTF-8 --lang zh_CN --answers s.ini --sample-host $h
	done
fi
# the doctor (a detour of the welcome screen): its text area with a paste,
# its help, the findings of real failures (scrolled), nothing recognised
doctor_walk() { # NAME LANG ARGS...
	WHAT=$1; lang=$2; shift 2
	start "$lang" 80x24 "$@"
	check "$WHAT: first screen" wait_for "$(st WELCOME)" 30
	# a sample in use shows the samples' list first: Esc to the choices
	! on_screen "(*) esxi-l40s" || keys Escape
	keys Home; keys Enter; sleep 0.3; keep
	help_pages
	for f in vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt \
	    vmwarelog/vsphere-task-error-devicepoweron-failed-to-register-pcipassthru0-igpu-nuc11.txt \
	    vmwarelog/vsphere-task-error-invalid-memory-setting-sched-mem-min.txt \
	    doctor/seed-001-nccl-operation-not-supported-vgpu.txt \
	    doctor/seed-000-bosh-cpi-devicepoweron-tanzu-tile.txt; do
		sample "$f" "$TMP/paste.txt"
		keys C-u
		$T load-buffer "$TMP/paste.txt"; $T paste-buffer -p -t w; sleep 0.3; keep
		keys Enter; sleep 0.3; keep
		check "$WHAT: findings of $(basename "$f")" on_screen "$(tr_ "$lang" 'What the doctor found')"
		keys PageDown; keep
		keys PageDown; keep
		keys Escape; sleep 0.3
	done
	keys C-u; typ "nothing known here"; keys C-d; sleep 0.3; keep
	check "$WHAT: nothing recognised" on_screen "$(tr_ "$lang" 'Nothing recognised')"
	keys Escape; sleep 0.3; keys Escape; sleep 0.5; keep
	keys q
	exited 10 >/dev/null
}
answers
doctor_walk "C doctor" C.UTF-8
answers
doctor_walk "C doctor esxi-l40s" C.UTF-8 --sample-host esxi-l40s
if [ $have_zh = 1 ]; then
	answers
	doctor_walk "zh doctor" zh_CN.UTF-8 --lang zh_CN
	answers
	doctor_walk "zh doctor esxi-l40s" zh_CN.UTF-8 --lang zh_CN --sample-host esxi-l40s
fi
# the host changes queued on the ESXi sample (e on the host step, u on the
# VM step): the rows, the review's "Changes on the host", the write step's
# question and the changes done
queued_walk() { # NAME LANG ARGS...
	WHAT=$1; lang=$2; shift 2
	start "$lang" 80x24 --sample-host esxi-l40s "$@"
	check "$WHAT: first screen" wait_for "$(st WELCOME)" 30
	keys Enter; wait_for "$(st HOST)" 20 >/dev/null
	keys e; sleep 0.3; keep
	keys Enter; wait_for "$(st GPU)" 20 >/dev/null
	keys Space; keys Down; keys Space; keys Enter; wait_for "$(st VM)" 20 >/dev/null
	keys Down; keys Space; sleep 0.5; keys u; sleep 0.3; keep
	keys PageDown; keep
	keys Enter; wait_for "$(st MMIO)" 20 >/dev/null; keys Enter
	wait_for "$(st OPTIONS)" 20 >/dev/null; keys Enter
	check "$WHAT: the review" wait_for "$(st REVIEW)" 20
	keep
	check "$WHAT: the review lists the host changes" find_in_pages 'vim-cmd vmsvc/upgrade 1 vmx-21'
	keys Enter; wait_for "$(st WRITE)" 20 >/dev/null; keep
	keys Enter; sleep 0.5; keep
	check "$WHAT: the write step asks once" on_screen "$(tr_ "$lang" 'Write the changes to the host and the files? This cannot be undone on the host.' | LC_ALL=C.UTF-8 sed -E 's/^(.{12}).*/\1/')"
	keys y; sleep 1.5; keep
	keys PageDown; keep
	keys q; keys y
	exited 10 >/dev/null
}
queued_walk "C queued" C.UTF-8
[ $have_zh = 0 ] || queued_walk "zh queued" zh_CN.UTF-8 --lang zh_CN

# the welcome screen, every row focused once, then the samples' list with
# every sample focused once
welcome_rows() { # LANG ARGS...
	lang=$1; shift
	answers
	start "$lang" 80x24 "$@"
	wait_for "$(st WELCOME)" 20 >/dev/null
	n=0; while [ $n -lt 9 ]; do keys Down; keep; n=$((n + 1)); done
	keys End; keys Enter; keep
	n=0; while [ $n -lt 4 ]; do keys Down; keep; n=$((n + 1)); done
	keys Escape; keys q; exited 10 >/dev/null
}
WHAT="C welcome rows"
welcome_rows C.UTF-8
if [ $have_zh = 1 ]; then
	WHAT="zh welcome rows"
	welcome_rows zh_CN.UTF-8 --lang zh_CN
fi

check "the audit names no text cut without a sign" sh -c "[ ! -s '$AUDIT' ]"
[ -s "$AUDIT" ] && sed 's/^/   audit: /' "$AUDIT" | head -n 40

# The right edges: the screens draw in columns 1 to 78 at 80 columns
# (the step bar and the key help line across all 80), so column 79 stays
# blank; inside a box (help, questions) the cell left of the right border
# is blank, a line-drawing character, or a scroll mark with a blank
# before it; a list's scroll mark in column 78 has a blank before it.
cat >"$TMP/edge.py" <<'EOF'
import sys, unicodedata, glob
def cells(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1
box = set("─│┌┐└┘├┤┬┴┼")
bad = 0
def report(what, y, why, line):
    global bad
    bad += 1
    if bad <= 30:
        print("%s row %d: %s: %s" % (what, y, why, line.rstrip()))
for path in sorted(glob.glob(sys.argv[1] + "/*.txt")):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    what, rows = lines[0], lines[1:]
    for y, line in enumerate(rows[1:23], start=1):
        row = []
        for ch in line:
            w = cells(ch)
            if w == 0:
                continue
            row.append(ch)
            if w == 2:
                row.append("")
        row += [" "] * (80 - len(row))
        if row[79] != " ":
            report(what, y, "text in the last column", line)
        marks = ("^", "v")
        if row[78] in marks and row[77] not in box and row[77] != " ":
            report(what, y, "a scroll mark touches text", line)
        bars = [i for i, c in enumerate(row) if c == "│"]
        if len(bars) >= 2:
            p = bars[-1]
            c, b = row[p - 1], row[p - 2]
            if c in marks:
                if b != " " and b not in box:
                    report(what, y, "a scroll mark touches text in a box", line)
            elif c not in (" ", "…") and c not in box:
                report(what, y, "text touches a box's right border", line)
sys.exit(1 if bad else 0)
EOF
check "no text touches the right edge without a sign" python3 "$TMP/edge.py" "$PANES"

# ---- the welcome screen: the cursor on the marked choice ---------------
# (the highlighted row is the one drawn black on cyan: ESC [46m)
focused_has() { $T capture-pane -e -p -t w | grep "$(printf '\033')\[46m" | grep -qF -- "$1"; }
unset GPUWIZ_UI_AUDIT
rm -rf "$TMPDIR"/gpuwiz-sample.*
answers
start C.UTF-8 80x24 --sample-host esxi-l40s
wait_for "Step $(st WELCOME)" 20 >/dev/null
check "welcome: --sample-host marks that sample" on_screen "(*) esxi-l40s"
check "welcome: the cursor starts on it" focused_has "(*) esxi-l40s"
check "welcome: the samples' list says where the writes go" on_screen "Practising on a sample host"
keys Up
check "welcome: the (*) follows the cursor in the samples' list" focused_has "(*) amd-geforce-usb"
keys Down
keys Escape
check "welcome: Esc brings the first list back, on the sample row" focused_has "(*) Practise on a sample host"
check "welcome: the Linux mode says what it is for" on_screen "Check this machine's firmware, IOMMU and BARs; plan a VMware VM"
keys Up; keys Up; keys Up
check "welcome: the focused Linux mode says it is not KVM" wait_for "it does not set up KVM"
check "welcome: the (*) is on the focused Linux mode" focused_has "(*) Configure this Linux host"
keys Down; keys Down; keys Down
keys Enter
check "welcome: Enter on the sample row lists them, the one in use marked" focused_has "(*) esxi-l40s"
keys Enter
check "welcome: Enter on the sample in use goes on" wait_for "Step $(st HOST)" 20
check "welcome: without building it again" sh -c "[ \$(ls '$TMPDIR' | grep -c gpuwiz-sample) -eq 1 ]"
keys q; keys y; exited 10 >/dev/null
rm -rf "$TMPDIR"/gpuwiz-sample.*
answers
start C.UTF-8 80x24 --answers a.ini
wait_for "Step $(st WELCOME)" 20 >/dev/null
check "welcome: without a sample the cursor is on the marked activity" focused_has "(*) Patch a VM's .vmx offline"
keys q; exited 10 >/dev/null
if [ $have_zh = 1 ]; then
	start zh_CN.UTF-8 80x24 --lang zh_CN --sample-host esxi-l40s
	wait_for "$(st WELCOME)" 20 >/dev/null
	check "zh welcome: the sample marked" on_screen "(*) esxi-l40s"
	keys Escape
	note=$(LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz "Check this machine's firmware, IOMMU and BARs; plan a VMware VM")
	check "zh welcome: the Linux mode's note in Chinese" wait_for "$note"
	keys q; keys y; exited 10 >/dev/null
	rm -rf "$TMPDIR"/gpuwiz-sample.*
fi

# ---- TERM=vt100 and TERM=linux: lines drawn, F1 opens the help ---------
for term in vt100 linux; do
	answers
	# under ASan the GPM leak of TERM=linux (tests/lsan.supp) is matched
	# through its whole stack, which needs the slow unwinder
	wrap="env TERM=$term"
	[ -z "${GW_SANITIZED:-}" ] ||
		wrap="$wrap ASAN_OPTIONS=${ASAN_OPTIONS:-}:fast_unwind_on_malloc=0"
	GW_WRAP="$wrap" start C.UTF-8 80x24 --answers a.ini
	check "TERM=$term: the first screen draws" wait_for "Step $(st WELCOME): Welcome" 20
	check "TERM=$term: the rule under the title is a line" sh -c \
		"sed -n 4p '$SCREEN' | grep -q '^ ─────────'"
	check "TERM=$term: no VT100 letters for line drawing" sh -c "! grep -q 'qqqq' '$SCREEN'"
	keys F1
	check "TERM=$term: F1 opens the help" wait_for "Help: Welcome"
	check "TERM=$term: the help box has corners" on_screen "┌─ Help: Welcome"
	keys Escape
	check "TERM=$term: Esc closes the help" sh -c "sleep 0.3; $T capture-pane -p -t w | grep -q 'Step $(st WELCOME)' && ! $T capture-pane -p -t w | grep -q 'Help: Welcome'"
	keys q; exited 10 >/dev/null
	check "TERM=$term: exit 0" [ "${exit_status:-x}" = 0 ]
done

finish

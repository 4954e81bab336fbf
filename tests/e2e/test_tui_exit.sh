#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of how the wizard ends and of two refusals (doc/design.md, section 10): the
# summary printed on the normal terminal after a write (the files, the
# .vmx backup, the next commands; labels lined up in cells), the one line
# after a quit before writing, nothing on the signal exits (130/143/129,
# terminal restored); a file that is not a .vmx refused on the VM step; an
# MMIO size of 0 or garbage refused on the MMIO step with the size kept,
# and a size below the rule asked about once; the doctor's bracketed paste
# switched off on every exit path.  C.UTF-8 and zh_CN.UTF-8 at 80x24.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

# xl LANG MSGID: the catalogue's translation
xl() {
	case $1 in
	zh*) LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz "$2" ;;
	*) printf '%s' "$2" ;;
	esac
}

answers() { # an answers file (2 x L40S: the rule is 256 GB) and a real .vmx
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	cp "$TMP/run/vm.vmx" "$TMP/vm.orig"
	printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx,bosh\n' >"$TMP/run/a.ini"
}

# pane: the whole pane with its history, wrapped lines joined
pane() { $T capture-pane -p -J -S -200 -t w >"$TMP/pane.txt" 2>/dev/null; }
# what gpuwiz printed after it ended: the pane after its last screen;
# joined.txt: the same as one line (gpuwiz wraps it to the terminal)
printed() {
	pane; sed -n '/GPUWIZ-EXITED/q;p' "$TMP/pane.txt" | grep -v '^$' >"$TMP/printed.txt"
	tr '\n' ' ' <"$TMP/printed.txt" | tr -s ' ' >"$TMP/joined.txt"
}

# to_write LANG: Enter through an answers file to the written result
to_write() {
	answers
	start "$1" 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME WRITE
	wait_for "$(st WRITE)" >/dev/null
	keys Enter
	wait_for "$(xl "$1" 'Written:')" >/dev/null
}

# cols_aligned LABEL...: in printed.txt the value after each label starts
# at the same cell column (East Asian wide characters count 2)
cols_aligned() {
	python3 - "$TMP/printed.txt" "$@" <<'PY'
import sys, unicodedata
def cells(s):
    return sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s)
path, labels = sys.argv[1], sys.argv[2:]
cols = set()
for line in open(path, encoding='utf-8'):
    for l in labels:
        if line.startswith(l):
            rest = line[len(l):]
            cols.add(cells(l) + len(rest) - len(rest.lstrip(' ')))
sys.exit(0 if len(cols) == 1 else 1)
PY
}

# ---- 1. the summary after a write ----------------------------------------
for lang in $langs; do
	W=$(xl $lang 'Written:'); B=$(xl $lang 'Backup:'); N=$(xl $lang 'Next steps:')
	to_write $lang
	check "$lang: written" on_screen "$W"
	keys Enter
	check "$lang: Enter finishes" exited
	check "$lang: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored" terminal_sane
	printed
	for f in out/gpuwiz.vmx.txt out/bosh-vm-extension.yml out/nccl_check.py; do
		check "$lang: summary: $f written" sh -c "grep '^$W' '$TMP/printed.txt' | grep -qF '$f'"
		check "$lang: summary: $f exists" [ -s "$TMP/run/$f" ]
	done
	check "$lang: summary: the .vmx written" sh -c "grep '^$W' '$TMP/printed.txt' | grep -q 'vm\.vmx\$'"
	bak=$(ls "$TMP"/run/vm.vmx.*.bak 2>/dev/null | head -n 1)
	check "$lang: summary: the backup" sh -c "grep '^$B' '$TMP/printed.txt' | grep -qF '$(basename "$bak")'"
	check "$lang: summary: the backup holds the original" cmp -s "$bak" "$TMP/vm.orig"
	check "$lang: summary: the labels line up in cells" cols_aligned "$W" "$B"
	check "$lang: summary: next steps heading" grep -qxF "$N" "$TMP/printed.txt"
	check "$lang: summary: numbered commands" grep -q '^ 1\. ' "$TMP/printed.txt"
	check "$lang: summary: reload the .vmx" grep -q 'vim-cmd vmsvc/reload' "$TMP/joined.txt"
	check "$lang: summary: NCCL all-reduce for 2 GPUs" grep -q 'torchrun --nproc_per_node=2' "$TMP/joined.txt"
	check "$lang: summary: no screen left-overs" sh -c "! grep -q '$(st WRITE)' '$TMP/printed.txt'"
	case $lang in
	zh*) check "$lang: summary in Chinese" sh -c "LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$TMP/printed.txt'" ;;
	*) check "$lang: summary in English" sh -c "! LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$TMP/printed.txt'" ;;
	esac
done

# ---- 2. a quit before writing says so in one line -------------------------
for lang in $langs; do
	answers
	start $lang 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	keys q
	check "$lang: q quits" exited
	check "$lang: q: exit 0" [ "${exit_status:-x}" = 0 ]
	printed
	check "$lang: q: one line" [ "$(wc -l <"$TMP/printed.txt")" -eq 1 ]
	check "$lang: q: nothing was written" grep -qxF "$(xl $lang 'gpuwiz: no .vmx or output file was written.')" "$TMP/printed.txt"
	check "$lang: q: the .vmx untouched" cmp -s "$TMP/run/vm.vmx" "$TMP/vm.orig"
done
# after changes: the quit question, then the same line
answers
start C.UTF-8 80x24 --answers a.ini
wait_for "$(st WELCOME)" >/dev/null
enters WELCOME MMIO
wait_for "$(st MMIO)" >/dev/null
typ 512
keys Enter
wait_for "$(st OPTIONS)" >/dev/null
keys q
check "quit question: asked" wait_for "y/n"
keys y
check "quit question: exited" exited
printed
check "quit question: nothing was written" grep -qxF 'gpuwiz: no .vmx or output file was written.' "$TMP/printed.txt"

# ---- 3. signals: their exit codes, the terminal, no summary ---------------
to_write C.UTF-8
keys C-c
check "Ctrl-C after writing: exits" exited
check "Ctrl-C: exit 130" [ "${exit_status:-x}" = 130 ]
check "Ctrl-C: terminal restored" terminal_sane
printed
check "Ctrl-C: no summary" sh -c "! grep -q 'Written:\|Next steps:\|gpuwiz: no' '$TMP/printed.txt'"
for sig in TERM:143 HUP:129; do
	to_write C.UTF-8
	pid=$(gpuwiz_pid)
	[ -n "$pid" ] && kill -${sig%:*} "$pid"
	check "SIG${sig%:*} after writing: exits" exited
	check "SIG${sig%:*}: exit ${sig#*:}" [ "${exit_status:-x}" = "${sig#*:}" ]
	check "SIG${sig%:*}: terminal restored" terminal_sane
	printed
	check "SIG${sig%:*}: no summary" sh -c "! grep -q 'Written:\|Next steps:\|gpuwiz: no' '$TMP/printed.txt'"
done

# ---- 4. the VM step refuses a file that is not a .vmx ---------------------
# vm_step LANG: the answers file walked to the VM step, the path cleared
vm_step() {
	answers
	cp "$FIX/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt" "$TMP/run/vmware.log"
	cp "$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" "$TMP/run/smi.txt"
	: >"$TMP/run/empty.vmx"
	printf '\177ELF\002\001\001\000\000\000' >"$TMP/run/a.out"
	start "$1" 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME VM
	wait_for "$(st VM)" >/dev/null
}
for lang in $langs; do
	vm_step $lang
	for f in vmware.log smi.txt; do
		keys C-u; typ "$f"; keys Enter
		case $lang in zh*) want="$f：不是 .vmx 文件" ;; *) want="$f: not a .vmx file" ;; esac
		check "$lang: $f refused" wait_for "$want"
		check "$lang: $f: still on the VM step" on_screen "$(st VM)"
	done
	keys C-u; typ empty.vmx; keys Enter
	check "$lang: an empty file refused" wait_for "empty.vmx:"
	check "$lang: empty: still on the VM step" on_screen "$(st VM)"
	keys C-u; typ a.out; keys Enter
	check "$lang: a binary file refused" wait_for "a.out:"
	check "$lang: binary: still on the VM step" on_screen "$(st VM)"
	keys C-u; typ vm.vmx; keys Enter
	check "$lang: the real .vmx is taken (on to MMIO)" wait_for "$(st MMIO)"
	keys q; wait_for "y/n" 3 >/dev/null && keys y; exited >/dev/null
	check "$lang: the refused files untouched" cmp -s "$TMP/run/vmware.log" "$FIX/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt"
done

# ---- 5. the MMIO field: 0 and garbage refused, below the rule asked once --
for lang in $langs; do
	answers
	start $lang 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME MMIO
	check "$lang: MMIO step" wait_for "$(st MMIO)"
	check "$lang: says empty is the recommendation" on_screen "$(xl $lang '(empty: the recommended size)')"
	keys Enter; wait_for "$(st OPTIONS)" >/dev/null; keys Escape; wait_for "$(st MMIO)" >/dev/null
	typ 0; keys Enter
	case $lang in zh*) want="0 GB 等于没有窗口" ;; *) want="0 GB is no window" ;; esac
	check "$lang: 0 is refused" wait_for "$want"
	check "$lang: 0: still on MMIO" on_screen "$(st MMIO)"
	for t in abc -5 1.5; do
		$T send-keys -t w -l -- "$t"; sleep 0.15   # "-5" is no flag
		keys Enter
		check "$lang: '$t' is refused" wait_for "'$t'"
		check "$lang: '$t': still on MMIO" on_screen "$(st MMIO)"
	done
	check "$lang: the size to write stays the rule's" on_screen "256"
	typ 64; keys Enter
	check "$lang: below the rule asks" wait_for "y/n"
	keys y
	check "$lang: confirmed: options" wait_for "$(st OPTIONS)"
	keys Escape
	check "$lang: back on MMIO" wait_for "$(st MMIO)"
	keys Enter
	check "$lang: Enter on the confirmed size goes on without asking" wait_for "$(st OPTIONS)"
	keys Escape; wait_for "$(st MMIO)" >/dev/null
	keys BSpace; keys BSpace; typ 32; keys Enter
	check "$lang: another size below the rule asks" wait_for "y/n"
	keys n
	check "$lang: declined: still on MMIO" wait_for "$(st MMIO)"
	keys Enter
	check "$lang: declined: Enter keeps 64 without asking" wait_for "$(st OPTIONS)"
	check "$lang: declined: no question on the way" sh -c "! grep -q 'y/n' '$SCREEN'"
	keys Escape; wait_for "$(st MMIO)" >/dev/null
	keys r; keys Enter
	check "$lang: r and Enter: back to the recommendation" wait_for "$(st OPTIONS)"
	keys q; wait_for "y/n" 3 >/dev/null && keys y; exited >/dev/null
done

# ---- 6. the doctor's bracketed paste is off on every exit path ------------
# The text area turns the terminal's bracketed paste on (ESC [?2004h);
# leaving it, quitting from it (F10), Ctrl-C (130) and SIGTERM (143) on it
# must leave it off: in the bytes gpuwiz wrote (recorded by script(1))
# the last 2004 sequence is ESC [?2004l, and stty is as before.
command -v script >/dev/null 2>&1 || { echo "SKIP: script(1) not installed"; finish; exit $?; }
# paste_off TS: TS turned it on at least once and off after the last on
paste_off() {
	python3 - "$1" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
on, off = d.rfind(b'\033[?2004h'), d.rfind(b'\033[?2004l')
sys.exit(0 if on >= 0 and off > on else 1)
PY
}
# doctor_open: cold, the doctor's text area shown, output recorded in $TS
doctor_open() {
	TS=$TMP/typescript; rm -f "$TS"
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	GW_WRAP="script -qfe $TS -c" start C.UTF-8 80x24
	wait_for "$(st WELCOME)" >/dev/null
	keys Up; keys Enter
	wait_for "Diagnose" >/dev/null
	typ "no newline yet"
}
# the pid of gpuwiz under script(1) in the pane
doctor_pid() {
	shell=$($T list-panes -t w -F '#{pane_pid}' | head -n 1)
	pgrep -P "$(pgrep -P "$shell" -x script | head -n 1)" -x gpuwiz | head -n 1
}
doctor_open
keys Escape
check "paste mode: Esc leaves the text area" wait_for "What are you doing?"
check "paste mode: off once the text area is left" paste_off "$TS"
keys q
check "paste mode: q then quits" exited
check "paste mode: q: terminal restored" terminal_sane
check "paste mode: q: off at exit" paste_off "$TS"
doctor_open
keys F10
check "paste mode: F10 on the text area quits" exited
check "paste mode: F10: exit 0" [ "${exit_status:-x}" = 0 ]
check "paste mode: F10: terminal restored" terminal_sane
check "paste mode: F10: off at exit" paste_off "$TS"
doctor_open
keys C-c
check "paste mode: Ctrl-C on the text area exits" exited
check "paste mode: Ctrl-C: exit 130" [ "${exit_status:-x}" = 130 ]
check "paste mode: Ctrl-C: terminal restored" terminal_sane
check "paste mode: Ctrl-C: off at exit" paste_off "$TS"
doctor_open
pid=$(doctor_pid)
[ -n "$pid" ] && kill -TERM "$pid"
check "paste mode: SIGTERM on the text area exits" exited
check "paste mode: SIGTERM: exit 143" [ "${exit_status:-x}" = 143 ]
check "paste mode: SIGTERM: terminal restored" terminal_sane
check "paste mode: SIGTERM: off at exit" paste_off "$TS"

finish

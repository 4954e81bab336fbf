#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the text printed on the terminal when the wizard ends
# (doc/design.md, section 10), at 80 columns in C.UTF-8 and zh_CN.UTF-8:
# the sample host esxi-l40s, its VM ubuntu-l40s patched, the answers saved
# on the review (s).  What gpuwiz printed (the summary naming the files
# written, the next steps, the answers file saved, the scratch directory)
# is wrapped to the terminal's width in cells (a CJK character is 2):
# no row is longer than 80 cells even with the terminal's own wraps
# joined (capture-pane -J), a numbered step's rows line up under its text,
# and the rows joined give the whole text back (no word cut).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# what gpuwiz printed after it ended (the terminal's wraps joined), and
# the same as one line, blanks squeezed
printed() {
	$T capture-pane -p -J -S -300 -t w >"$TMP/pane.txt" 2>/dev/null
	sed -n '/GPUWIZ-EXITED/q;p' "$TMP/pane.txt" | sed '/^EXIT=/d' |
		grep -v '^$' >"$TMP/printed.txt"
	tr '\n' ' ' <"$TMP/printed.txt" | tr -s ' ' >"$TMP/joined.txt"
}
# widest: the widest printed row in cells
widest() {
	python3 - "$TMP/printed.txt" <<'PY'
import sys, unicodedata
w = 0
for line in open(sys.argv[1], encoding='utf-8'):
    line = line.rstrip('\n')
    w = max(w, sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in line))
print(w)
PY
}
in_joined() { grep -qF -- "$1" "$TMP/joined.txt"; }

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang: the detected L40S" wait_for "1 x l40s"
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	keys Down Space
	check "$lang: ubuntu-l40s opens" wait_for "vmx-21"
	enters VM REVIEW
	check "$lang: review" wait_for "$(st REVIEW)"
	keys s
	check "$lang: s asks where" wait_for "gpuwiz-answers.ini"
	keys Enter
	check "$lang: the answers saved" wait_for_file "$TMP/run/gpuwiz-answers.ini"
	keys Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	keys Enter
	check "$lang: Enter finishes" exited
	printed
	w=$(widest)
	check "$lang: every printed row fits 80 cells (widest: $w)" [ "$w" -le 80 ]
	check "$lang: a numbered step wraps under its text" \
		sh -c "grep -A1 -E '^ ?[0-9]+\\. ' '$TMP/printed.txt' | grep -qE '^    [^ ]'"
	check "$lang: the rows joined: the power-on command whole" \
		in_joined "vim-cmd vmsvc/power.on 1"
	saved=$(printf "$(tr_ "$lang" 'gpuwiz: the answers were saved to %s (gpuwiz --answers FILE replays them).')" \
		"$(cd "$TMP/run" && pwd -P)/gpuwiz-answers.ini")
	check "$lang: the answers file named, whole" in_joined "$saved"
	sc=$(sed -n 's/.* are in \(.*\) (remove it when done)\..*/\1/p;s/.*都在 \(.*\) 中（.*/\1/p' \
		"$TMP/joined.txt" | head -n 1)
	check "$lang: the scratch directory named, whole" [ -n "$sc" ] && [ -d "$sc" ]
	check "$lang: ... in its sentence" in_joined \
		"$(printf "$(tr_ "$lang" 'The sample host and everything written for it are in %s (remove it when done).')" "$sc")"
}

# wait_for_file FILE: FILE appears within 5 s
wait_for_file() {
	i=0
	while [ $i -lt 50 ] && [ ! -s "$1" ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}

for lang in $langs; do walk "$lang"; done
finish

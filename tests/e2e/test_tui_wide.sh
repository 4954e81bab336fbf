#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: at 200x50 the columns stay readable (doc/design.md,
# section 10), in C.UTF-8
# and zh_CN.UTF-8, on the ESXi sample (and intel-2x-l40s):
#  - the host step: a row's status (PASS/WARN) is within 100 cells of the
#    start of its title, not at the far right of the terminal;
#  - the GPU step: the table shows more rows than at 80x24, and a row's
#    VRAM stays within 100 cells of its id;
#  - Enter walks every step to the write; the cut-text audit
#    (GPUWIZ_UI_AUDIT, ui/draw_audit.c) reports nothing at 200x50 and at
#    100x30.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
AUDIT=$TMP/audit.txt
export GPUWIZ_UI_AUDIT="$AUDIT"

# span PATTERN WORD: for the screen's first line matching PATTERN (a
# Python regex), the cells from the first text right of the step list
# (the last "│" before it, else the line's first text) to WORD
cat >"$TMP/span.py" <<'EOF'
import re, sys, unicodedata
def cells(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
pat, word = re.compile(sys.argv[2]), sys.argv[3]
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not pat.search(line):
        continue
    bar = line.find("│")
    body = line[bar + 1:] if bar >= 0 else line
    start = len(body) - len(body.lstrip())
    end = body.find(word, start)
    print(cells(body[start:end]) if end >= 0 else 9999)
    sys.exit(0)
print(9999)
EOF
span() { screen; python3 "$TMP/span.py" "$SCREEN" "$1" "$2"; }
# rows of the GPU table on the screen (each has a PCI id 10de:XXXX)
table_rows() { screen; grep -cE '  10de:[0-9a-f]{4} ' "$SCREEN"; }

go() { # LANG SIZE SAMPLE
	lang=$1; size=$2; sample=$3
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	if [ "$lang" = C.UTF-8 ]; then
		start "$lang" "$size" --sample-host "$sample"
	else
		start "$lang" "$size" --lang zh_CN --sample-host "$sample"
	fi
	wait_for "$(st WELCOME)" 30 >/dev/null
	keys Enter
	wait_for "$(st HOST)" 30
}

# walk_rest WHAT: Enter through the steps after the GPU step to the
# write step, answering y to a question
walk_rest() {
	n=0
	while [ $n -lt 12 ]; do
		screen
		grep -qF "$(st WRITE)" "$SCREEN" && break
		if grep -q 'y/n' "$SCREEN"; then keys y; else keys Enter; fi
		sleep 0.2
		n=$((n + 1))
	done
	check "$1: the walk reached the write step" on_screen "$(st WRITE)"
	keys PageDown; keys PageDown
	keys q; keys y; exited 10 >/dev/null
}

for lang in C.UTF-8 zh_CN.UTF-8; do
	[ $lang = C.UTF-8 ] || [ $have_zh = 1 ] || continue
	# the host rows' status words, as the screen shows them
	W=WARN P=PASS
	[ $lang = C.UTF-8 ] || { W=警告; P=通过; }
	: >"$AUDIT"
	# the GPU table at 80x24, for comparison
	go $lang 80x24 esxi-l40s >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	small=$(table_rows)
	keys q; keys y; exited 10 >/dev/null

	check "$lang 200x50: host step" go $lang 200x50 esxi-l40s
	d=$(span '0000:5e:00\.0' "$W")
	check "$lang 200x50: the WARN is $d cells from its row's start (at most 100)" [ "$d" -le 100 ]
	d=$(span '0000:3b:00\.0' "$P")
	check "$lang 200x50: the PASS is $d cells from its row's start (at most 100)" [ "$d" -le 100 ]
	keys Enter
	check "$lang 200x50: GPU step" wait_for "$(st GPU)"
	big=$(table_rows)
	check "$lang 200x50: the table shows more rows ($big) than at 80x24 ($small)" [ "$big" -gt "$small" ]
	d=$(span '^.*│   l40s  ' '48 GB')
	check "$lang 200x50: a table row's VRAM is $d cells from its id" [ "$d" -le 100 ]
	d=$(span '0000:3b:00\.0' '48 GB')
	check "$lang 200x50: a detected row's VRAM is $d cells from its address" [ "$d" -le 100 ]
	keys Space; keys Enter
	check "$lang 200x50: VM step" wait_for "$(st VM)"
	d=$(span 'ubuntu-l40s ' 'vmx-13')
	check "$lang 200x50: a VM's version is $d cells from its row's start" [ "$d" -le 100 ]
	walk_rest "$lang 200x50"
	check "$lang 200x50: the audit names no text cut without a sign" sh -c "[ ! -s '$AUDIT' ]"
	[ -s "$AUDIT" ] && sed 's/^/   audit: /' "$AUDIT" | head -n 20

	: >"$AUDIT"
	for s in 200x50 100x30; do
		check "$lang $s intel-2x-l40s: host step" go $lang $s intel-2x-l40s
		d=$(span '0000:3b:00\.0' "$P")
		check "$lang $s intel-2x-l40s: the PASS is $d cells from its row's start" [ "$d" -le 100 ]
		keys Enter; wait_for "$(st GPU)" >/dev/null
		keys Space; keys Enter
		walk_rest "$lang $s intel-2x-l40s"
	done
	check "$lang 100x30/200x50: the audit names no text cut without a sign" sh -c "[ ! -s '$AUDIT' ]"
	[ -s "$AUDIT" ] && sed 's/^/   audit: /' "$AUDIT" | head -n 20
done
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of Space on the GPU step (doc/design.md, section 9), at 80x24
# in C.UTF-8 and zh_CN.UTF-8, offline (the table of GPUs, nothing chosen):
#  1. the step opens with the table having the keys, and the key line
#     says so ("[Table]" first): Space adds the highlighted GPU (a2, the
#     table's first row) and types nothing into the search field;
#  2. a letter typed starts a search: the search field has the keys, the
#     key line says "[Search]" and how to go back to the table; there
#     Space is a space of the search (nothing added);
#  3. Down goes back to the table ("[Table]"), where Space adds the
#     highlighted GPU of the search (l40).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# keyline_starts TEXT: the key line (the screen's last row) starts with TEXT
keyline_starts() { screen; tail -n 1 "$SCREEN" | grep -qF -- "$1" &&
	[ "$(tail -n 1 "$SCREEN" | cut -c1)" = "$(printf '%s' "$1" | cut -c1)" ]; }
search_line() { screen; sed -n 5p "$SCREEN"; }

walk() { # LANG
	lang=$1
	table="[$(tr_ "$lang" Table)]" search="[$(tr_ "$lang" Search)]"
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: the offline host check" wait_for "$(st HOST)"
	keys Space Down Space Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	check "$lang: the key line starts with $table" keyline_starts "$table"
	before=$(search_line)
	keys Space
	check "$lang: Space adds the highlighted GPU" wait_for "1 x a2"
	check "$lang: nothing typed into the search" [ "$(search_line)" = "$before" ]
	typ l40
	check "$lang: a letter starts a search" wait_for "10de:26b5"
	check "$lang: the key line starts with $search" keyline_starts "$search"
	check "$lang: ... and names the way back to the table" \
		on_screen "Down $(tr_ "$lang" Table)"
	keys Space
	check "$lang: in the search Space is a space" sh -c \
		"sed -n 5p '$SCREEN' | grep -qF 'l40 '"
	screen
	check "$lang: ... and adds nothing" sh -c "! grep -qF '1 x l40' '$SCREEN'"
	keys BSpace Down
	check "$lang: Down: the table has the keys" keyline_starts "$table"
	keys Space
	check "$lang: Space adds the search's highlighted GPU" wait_for "1 x l40"
	keys q
	wait_for "$(tr_ "$lang" "Quit without writing? y/n")" >/dev/null
	keys y
	exited >/dev/null
}

for lang in $langs; do walk "$lang"; done
finish

#!/bin/sh
# Screen tests of the wizard's state as one answers document (doc/design.md,
# sections 8.5 and 9): a change of route leaves nothing of the old one
# (the ESXi sample's scratch directory, its GPUs and their counts), s on
# the review saves the host and the VM and --answers replays them to the
# same VM (llm-train, not the first one), and quitting with unsaved
# answers offers to save them; the save box says it saves the answers,
# not the .vmx, asks before replacing an existing file (default no), the
# file's first line names only the commands that take it, and the text
# left on the terminal names the file saved.  The ESXi sample host, at
# 80x24, in C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# the scratch directory the wizard printed when it ended
scratch_of() {
	$T capture-pane -p -J -t w 2>/dev/null |
		sed -n 's/.* are in \(.*\) (remove it when done)\./\1/p;s/.*都在 \(.*\) 中.*/\1/p' |
		head -n 1
}

# the replace question's text after the file name, its first 8 characters
# (the box wraps the rest)
replace_q() {
	tr_ "$1" "%s already exists. Replace it with these answers?" |
		sed 's/^%s *//' | LC_ALL=C.UTF-8 sed -E 's/^(.{8}).*/\1/'
}
# the exit line naming the answers file saved, before its path
saved_line() {
	tr_ "$1" "gpuwiz: the answers were saved to %s (gpuwiz --answers FILE replays them).
" | sed 's/%s.*//'
}
# the words between the counts of the host-count warning, in LANG
count_words() {
	tr_ "$1" "%s: %d asked for in passthrough, but the host has %d" |
		sed 's/^[^%]*%s[^%]*%d//; s/%d[^%]*$//; s/^ *//; s/ *$//'
}

# Home, then n times Down: row n of a list (the welcome step's rows:
# English, Chinese, the doctor, plan offline, ...; the options step's:
# UVM, P2P, reservation, code 43, force, then the outputs)
row() { keys Home; r_n=$1; while [ "$r_n" -gt 0 ]; do keys Down; r_n=$((r_n - 1)); done; }

# on the options step, at row 6 (the first output after .vmx lines): the
# Tanzu outputs off, whatever the defaults
tanzu_off() {
	lang=$1
	for label in BOSH "Ops Manager" "tile values"; do
		l=$(tr_ "$lang" "$label")
		on_screen "[x] $l" && keys Space
		check "$lang: $label off" wait_for "[ ] $l"
		keys Down
	done
}

# ---- 1. a change of route leaves nothing behind -------------------------
switch() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang switch: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang switch: the sample's host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang switch: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang switch: the sample's L40S chosen" wait_for "1 x l40s"
	keys Escape; keys Escape
	check "$lang switch: back on the welcome step" wait_for "$(st WELCOME)"
	# the sample in use: the samples' list first, Esc its menu
	keys Escape
	check "$lang switch: the welcome menu" wait_for "$(tr_ "$lang" "What are you doing?")"
	row 2; keys Enter
	check "$lang switch: plan offline: its checklist" wait_for "$(tr_ "$lang" "Above 4G decoding")"
	keys Space; keys Down; keys Space; keys Enter
	check "$lang switch: GPU step" wait_for "$(st GPU)"
	check "$lang switch: the sample's GPU is not carried" sh -c "! grep -qF '1 x l40s' '$SCREEN'"
	typ a100-80g-pcie; keys Tab; keys Tab; keys Tab; keys Space
	check "$lang switch: an A100 chosen" wait_for "1 x a100-80g-pcie"
	keys Enter
	check "$lang switch: VM step" wait_for "$(st VM)"
	keys Enter
	check "$lang switch: MMIO" wait_for "$(st MMIO)"
	keys Enter
	check "$lang switch: options" wait_for "$(st OPTIONS)"
	check "$lang switch: the default output directory" sh -c \
		"grep -F -- '$(tr_ "$lang" "Output directory:")' '$SCREEN' | grep -q ' gpuwiz-out *\$'"
	keys Enter
	check "$lang switch: review" wait_for "$(st REVIEW)"
	check "$lang switch: no host" on_screen "$(tr_ "$lang" "offline (no host)")"
	check "$lang switch: the outputs go to gpuwiz-out" sh -c \
		"grep -F -- '$(tr_ "$lang" "Outputs:")' '$SCREEN' | grep -q ' gpuwiz-out *\$'"
	pages_joined "$TMP/pages.txt"
	check "$lang switch: no sample directory anywhere" sh -c "! grep -q 'gpuwiz-samp' '$TMP/pages.txt'"
	check "$lang switch: the A100 is planned" grep -qF "256" "$TMP/pages.txt"
	w_=$(count_words "$lang")
	check "$lang switch: the warning's words are known" [ -n "$w_" ]
	check "$lang switch: no host-count warning" sh -c "! grep -qF -- '$w_' '$TMP/pages.txt'"
	keys q
	check "$lang switch: the quit question" wait_for "$(tr_ "$lang" "Quit without writing? y/n")"
	keys y
	check "$lang switch: exits" exited
}

# ---- 2. save on the review, replay to the same VM -----------------------
replay() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang replay: welcome" wait_for "$(st WELCOME)"
	keys Enter; wait_for "$(st HOST)" >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Space
	check "$lang replay: the sample's L40S chosen" wait_for "1 x l40s"
	keys Enter
	check "$lang replay: VM step" wait_for "$(st VM)"
	keys Down; keys Down; keys Down; keys Space
	check "$lang replay: llm-train, the third VM, opens" wait_for "Vmid 3"
	keys Enter
	check "$lang replay: MMIO" wait_for "$(st MMIO)"
	keys Enter
	check "$lang replay: options" wait_for "$(st OPTIONS)"
	row 3; keys Space   # Hide the hypervisor: a change of the .vmx
	check "$lang replay: code 43 on" \
		wait_for "[x] $(tr_ "$lang" "Hide the hypervisor (GeForce code 43)")"
	keys Down; keys Down; keys Down
	tanzu_off "$lang"
	keys Enter
	check "$lang replay: review" wait_for "$(st REVIEW)"
	keys s
	check "$lang replay: the save box offers gpuwiz-answers.ini" wait_for "gpuwiz-answers.ini"
	check "$lang replay: its title: the answers, not the .vmx" \
		on_screen "$(tr_ "$lang" "Save the answers for a replay (not the .vmx)")"
	keys Enter
	check "$lang replay: saved" wait_for "gpuwiz-answers.ini"
	A=$TMP/run/gpuwiz-answers.ini
	check "$lang replay: the file is written" [ -s "$A" ]
	check "$lang replay: it names the sample host" grep -q '^kind = sample$' "$A"
	check "$lang replay: by its name" grep -q '^address = esxi-l40s$' "$A"
	check "$lang replay: and the VM" grep -q '^name = llm-train$' "$A"
	case $lang in zh*) want=zh_CN ;; *) want=en ;; esac
	check "$lang replay: the language" grep -q "^language = $want\$" "$A"
	check "$lang replay: no temporary directory" sh -c "! grep -q 'gpuwiz-sample' '$A'"
	check "$lang replay: no output directory (the scratch's)" sh -c "! grep -q '^dir' '$A'"
	# a sample host's file: gpuwiz apply refuses it, and its header
	# names only the wizard
	check "$lang replay: the header names the wizard" sh -c \
		"head -n 1 '$A' | grep -q '^; .*gpuwiz --answers FILE'"
	check "$lang replay: not gpuwiz apply" sh -c "! head -n 1 '$A' | grep -q 'apply --answers'"
	"$GPUWIZ" apply --answers "$A" >/dev/null 2>&1; rc=$?
	check "$lang replay: which refuses it (exit 2)" [ "$rc" = 2 ]
	keys q
	check "$lang replay: saved: q exits at once" exited
	S1=$(scratch_of)
	check "$lang replay: the first scratch directory" [ -n "$S1" ]

	start "$lang" 80x24 --answers gpuwiz-answers.ini
	check "$lang replay: welcome again" wait_for "$(st WELCOME)"
	check "$lang replay: the sample host from the file" on_screen "(*) esxi-l40s"
	keys Enter; wait_for "$(st HOST)" >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter
	check "$lang replay: the file's VM is open" wait_for "Vmid 3"
	check "$lang replay: llm-train" on_screen "llm-train"
	keys Enter; wait_for "$(st MMIO)" >/dev/null
	keys Enter; wait_for "$(st OPTIONS)" >/dev/null
	keys Enter
	check "$lang replay: review" wait_for "$(st REVIEW)"
	keys Enter
	check "$lang replay: write step" wait_for "$(st WRITE)"
	keys Enter
	wait_for "(y/n)" 5 >/dev/null && keys y
	check "$lang replay: written" wait_for "$(tr_ "$lang" "Written:")" 15
	keys q
	check "$lang replay: exits" exited
	S2=$(scratch_of)
	check "$lang replay: a new scratch directory" sh -c "[ -n '$S2' ] && [ '$S2' != '$S1' ]"
	check "$lang replay: llm-train is patched" \
		grep -q 'hypervisor.cpuid.v0 = "FALSE"' "$S2/volumes/datastore1/llm-train/llm-train.vmx"
	check "$lang replay: the first VM is not" sh -c \
		"! grep -q 'hypervisor.cpuid.v0' '$S2/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx'"
	check "$lang replay: nothing else in the working directory" sh -c \
		"[ \"\$(ls -A '$TMP/run')\" = gpuwiz-answers.ini ]"

	# the file's language wins over the locale, --lang over the file;
	# the host's rows are read in the language in use
	flang=$lang
	case $flang in zh*) other=C.UTF-8 olang=en ;; *) other=zh_CN.UTF-8 olang=zh_CN ;; esac
	rm -rf "$TMP/run"/gpuwiz-out
	start "$other" 80x24 --answers gpuwiz-answers.ini
	check "$flang replay under $other: the file's language" \
		wait_for "$(tr_ "$flang" "Choose the language and what you are doing.")"
	keys Enter
	check "$flang replay under $other: the host's rows in it" \
		wait_for "$(tr_ "$flang" "Checking passthrough of %s (%s)" | sed 's/ *%s.*//')"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	start "$flang" 80x24 --lang "$olang" --answers gpuwiz-answers.ini
	check "$flang replay with --lang $olang: --lang wins" \
		wait_for "$(tr_ "$other" "Choose the language and what you are doing.")"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	lang=$flang
}

# ---- 3. quitting with unsaved answers offers to save --------------------
quit_save() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang quit: welcome" wait_for "$(st WELCOME)"
	keys Enter; wait_for "$(st HOST)" >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Space
	check "$lang quit: a GPU chosen" wait_for "1 x l40s"
	keys q
	check "$lang quit: the quit question" wait_for "$(tr_ "$lang" "Quit without writing? y/n")"
	check "$lang quit: it offers to save" on_screen "s $(tr_ "$lang" "Save, then quit")"
	keys n
	check "$lang quit: n stays" wait_for "$(st GPU)"
	check "$lang quit: nothing saved" [ ! -e "$TMP/run/gpuwiz-answers.ini" ]
	# a file of the operator's under the name offered
	printf '; mine\n' >"$TMP/run/gpuwiz-answers.ini"
	keys q
	wait_for "$(tr_ "$lang" "Save, then quit")" >/dev/null
	keys s
	check "$lang quit: s asks where" wait_for "gpuwiz-answers.ini"
	keys Enter
	check "$lang quit: the file exists: asks to replace it" wait_for "$(replace_q "$lang")"
	keys Enter
	check "$lang quit: Enter (no): back to the name" \
		wait_for "$(tr_ "$lang" "Save the answers for a replay (not the .vmx)")"
	check "$lang quit: the file is kept" grep -qx '; mine' "$TMP/run/gpuwiz-answers.ini"
	keys Enter
	wait_for "$(replace_q "$lang")" >/dev/null
	keys n
	check "$lang quit: n: back to the name" \
		wait_for "$(tr_ "$lang" "Save the answers for a replay (not the .vmx)")"
	check "$lang quit: still kept" grep -qx '; mine' "$TMP/run/gpuwiz-answers.ini"
	check "$lang quit: still running" sh -c "! grep -q GPUWIZ-EXITED '$SCREEN'"
	keys Enter
	wait_for "$(replace_q "$lang")" >/dev/null
	keys y
	check "$lang quit: y replaces it, then quits" exited
	check "$lang quit: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang quit: terminal sane" terminal_sane
	# the text left on the terminal: nothing written, the answers saved
	# and where (the absolute path)
	$T capture-pane -p -J -t w >"$TMP/exit.txt"
	check "$lang quit: no .vmx written, it says" \
		grep -qF "$(tr_ "$lang" "gpuwiz: no .vmx or output file was written.")" "$TMP/exit.txt"
	check "$lang quit: and where the answers were saved" \
		grep -qF "$(saved_line "$lang")$(cd "$TMP/run" && pwd -P)/gpuwiz-answers.ini" "$TMP/exit.txt"
	check "$lang quit: the answers are saved" grep -q '^devices = l40s=1$' "$TMP/run/gpuwiz-answers.ini"
	check "$lang quit: with the host" grep -q '^address = esxi-l40s$' "$TMP/run/gpuwiz-answers.ini"
}

for lang in C.UTF-8 zh_CN.UTF-8; do
	if [ "$lang" != C.UTF-8 ] && [ "$have_zh" != 1 ]; then
		echo "ok - $lang # SKIP no zh_CN.UTF-8 locale or catalogue"
		continue
	fi
	switch "$lang"
	replay "$lang"
	quit_save "$lang"
done
finish

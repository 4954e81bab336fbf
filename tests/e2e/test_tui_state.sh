#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
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

# the scratch directory the wizard printed when it ended (the rows it
# wrapped the sentence into joined)
scratch_of() {
	$T capture-pane -p -J -t w 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
		sed -n 's/.* are in \(.*\) (remove it when done)\..*/\1/p;s/.*都在 \(.*\) 中（.*/\1/p' |
		head -n 1
}

# every scratch directory the wizard printed when it ended, one a line
# (the exit text is wrapped to the terminal: its lines are joined first)
scratches() {
	$T capture-pane -p -t w 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
		grep -o -e ' are in [^ ]* (remove it when done)' -e '都在 [^ ]* 中' |
		sed 's/^ are in \([^ ]*\) .*/\1/;s/^都在 \([^ ]*\) 中/\1/'
}
# the screen as one line without blanks or frames: text wrapped anywhere
joined() { screen; sed 's/[│┃|]//g' "$SCREEN" | tr -d ' \n'; }
wait_joined() {
	wj=0
	while [ $wj -lt $((${2:-10} * 20)) ]; do
		joined | grep -qF -- "$(printf '%s' "$1" | tr -d ' \n')" && return 0
		sleep 0.05; wj=$((wj + 1))
	done
	echo "   --- screen (waiting for '$1') ---"; sed 's/^/   |/' "$SCREEN"
	return 1
}

# the replace question's text after the file name, its first 8 characters
# (the box wraps the rest)
replace_q() {
	tr_ "$1" "%s already exists. Replace it with these answers?" |
		sed 's/^%s *//' | LC_ALL=C.UTF-8 sed -E 's/^(.{8}).*/\1/'
}
# the exit line naming the answers file saved, before its path
saved_line() {
	tr_ "$1" "gpuwiz: the answers were saved to %s (gpuwiz --answers FILE replays them)." |
		sed 's/%s.*//'
}
# the words between the counts of the host-count warning, in LANG
count_words() {
	tr_ "$1" "%s: %d asked for in passthrough, but the host has %d" |
		sed 's/^[^%]*%s[^%]*%d//; s/%d[^%]*$//; s/^ *//; s/ *$//'
}

# Home, then n times Down: row n of a list (the welcome step's rows:
# English, Chinese, the doctor, plan offline, ...; the options step's:
# UVM, P2P, reservation, code 43, force, Dynamic DirectPath I/O, then the
# outputs)
row() { keys Home; r_n=$1; while [ "$r_n" -gt 0 ]; do keys Down; r_n=$((r_n - 1)); done; }

# on the options step, at row 7 (the first output after .vmx lines): the
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
	keys Down; keys Down; keys Down; keys Down
	tanzu_off "$lang"
	keys Enter
	check "$lang replay: review" wait_for "$(st REVIEW)"
	keys s
	check "$lang replay: the save box offers gpuwiz-answers.ini" wait_for "gpuwiz-answers.ini"
	check "$lang replay: its title: the answers, not the .vmx" \
		on_screen "$(tr_ "$lang" "Save the answers for a replay (not the .vmx)")"
	check "$lang replay: the box names the folder it saves into" \
		wait_joined "$(tr_ "$lang" "Save the answers to this file (a name alone goes into %s); gpuwiz --answers FILE replays them (Enter on each screen):" |
			sed "s|%s|$(cd "$TMP/run" && pwd -P)|")"
	keys Enter
	check "$lang replay: saved" wait_for "gpuwiz-answers.ini"
	check "$lang replay: the status line names the whole path" \
		wait_joined "$(cd "$TMP/run" && pwd -P)/gpuwiz-answers.ini"
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

	# a trainee reads in their own language: the locale wins over the
	# file's language when it names one (zh_CN.UTF-8, en_US.UTF-8), the
	# file's language stands when the locale names none (C.UTF-8), and
	# --lang wins over both; the host's rows are read in the language in
	# use, and the result is the same in either language
	flang=$lang
	case $flang in zh*) other=en_US.UTF-8 olang=en ;; *) other=zh_CN.UTF-8 olang=zh_CN ;; esac
	rm -rf "$TMP/run"/gpuwiz-out
	start "$other" 80x24 --answers gpuwiz-answers.ini
	check "$flang file replayed under $other: the locale's language" \
		wait_for "$(tr_ "$other" "Choose the language and what you are doing.")"
	keys Enter
	check "$flang file replayed under $other: the host's rows in it" \
		wait_for "$(tr_ "$other" "Checking passthrough of %s (%s)" | sed 's/ *%s.*//')"
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter
	check "$flang file replayed under $other: the file's VM" wait_for "Vmid 3"
	keys Enter; wait_for "$(st MMIO)" >/dev/null
	keys Enter; wait_for "$(st OPTIONS)" >/dev/null
	keys Enter; wait_for "$(st REVIEW)" >/dev/null
	keys Enter; wait_for "$(st WRITE)" >/dev/null
	keys Enter
	wait_for "(y/n)" 5 >/dev/null && keys y
	check "$flang file replayed under $other: written" \
		wait_for "$(tr_ "$other" "Written:")" 15
	keys q
	exited >/dev/null
	S3=$(scratch_of)
	check "$flang file replayed under $other: the same .vmx as in $flang" \
		cmp -s "$S2/volumes/datastore1/llm-train/llm-train.vmx" \
		"$S3/volumes/datastore1/llm-train/llm-train.vmx"
	rm -rf "$S3" "$TMP/run"/gpuwiz-out
	case $flang in zh*) none=C.UTF-8 ;; *) none=POSIX ;; esac
	start "$none" 80x24 --answers gpuwiz-answers.ini
	check "$flang file replayed under $none: the file's language" \
		wait_for "$(tr_ "$flang" "Choose the language and what you are doing.")"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	rm -rf "$(scratch_of)"
	start "$flang" 80x24 --lang "$olang" --answers gpuwiz-answers.ini
	check "$flang replay with --lang $olang: --lang wins" \
		wait_for "$(tr_ "$other" "Choose the language and what you are doing.")"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	lang=$flang
	replay_on_top "$lang" "$S2"
	replay_welcome "$lang"
}

# ---- 2b. a replay onto a VM that already has the result: nothing to do --
replay_on_top() { # LANG SCRATCH (the first replay's host)
	lang=$1
	H=$TMP/hosts-done
	rm -rf "$H"; mkdir -p "$H"
	cp -R "$GPUWIZ_HOSTS_DIR/bin" "$GPUWIZ_HOSTS_DIR/esxi-l40s" "$H/"
	rm -rf "$H/esxi-l40s/esxi" "$H/esxi-l40s/volumes"
	cp -R "$2/esxi" "$2/volumes" "$H/esxi-l40s/"
	rm -f "$H"/esxi-l40s/volumes/datastore1/*/*.bak
	nothing=$(tr_ "$lang" "Nothing to change: the VM already has these settings.")
	rm -rf "$TMP/run"/gpuwiz-out
	hosts=$GPUWIZ_HOSTS_DIR
	export GPUWIZ_HOSTS_DIR="$H"
	start "$lang" 80x24 --answers gpuwiz-answers.ini
	keys Enter; wait_for "$(st HOST)" >/dev/null
	keys Enter; wait_for "$(st GPU)" >/dev/null
	keys Enter
	check "$lang on top: the file's VM" wait_for "Vmid 3"
	keys Enter; wait_for "$(st MMIO)" >/dev/null
	keys Enter; wait_for "$(st OPTIONS)" >/dev/null
	keys Enter
	check "$lang on top: the review says nothing changes" wait_for "$nothing"
	keys Enter
	check "$lang on top: so does the write step" wait_for "$nothing"
	check "$lang on top: the .vmx is left as it is" wait_joined \
		"$(tr_ "$lang" "the VM's .vmx, left as it is (nothing to change, no backup):")"
	check "$lang on top: no patch with a backup announced" sh -c "! grep -qF -- \
		'$(tr_ "$lang" "patch of %s (a backup is written first)" | sed 's/.*%s//')' '$SCREEN'"
	check "$lang on top: the invitation says so" \
		on_screen "$(tr_ "$lang" "Press Enter to write these files; the VM is left as it is.")"
	keys Enter
	wait_for "(y/n)" 3 >/dev/null && keys y
	check "$lang on top: written, nothing to change" wait_for "$(tr_ "$lang" "Unchanged:")" 15
	check "$lang on top: the done screen says nothing changes" on_screen "$nothing"
	keys q
	check "$lang on top: exits" exited
	check "$lang on top: the exit text says so" on_screen "$nothing"
	S4=$(scratch_of)
	check "$lang on top: no backup taken" sh -c \
		"! ls '$S4'/volumes/datastore1/llm-train/ | grep -q 'bak\$'"
	check "$lang on top: the .vmx is the first replay's" cmp -s \
		"$2/volumes/datastore1/llm-train/llm-train.vmx" \
		"$S4/volumes/datastore1/llm-train/llm-train.vmx"
	rm -rf "$S4" "$H" "$TMP/run"/gpuwiz-out
	GPUWIZ_HOSTS_DIR=$hosts
}

# ---- 2c. the welcome screen of a replay: the language row, the choice,
# another sample host than the file's --------------------------------------
replay_welcome() { # LANG (the answers file saved by replay)
	lang=$1
	case $lang in zh*) olang=C.UTF-8 ;; *) olang=zh_CN.UTF-8 ;; esac
	sample_row="(*) $(tr_ "$lang" "Practise on a sample host (no hardware needed)")"
	rm -rf "$TMP/run"/gpuwiz-out
	start "$lang" 80x24 --answers gpuwiz-answers.ini
	check "$lang welcome replay: the samples' list" wait_for "(*) esxi-l40s"
	check "$lang welcome replay: the language row above it" \
		sh -c "grep -qF 'English' '$SCREEN' && grep -qF '简体中文' '$SCREEN'"
	case $lang in zh*) k1=Left k2=Right ;; *) k1=Right k2=Left ;; esac
	keys $k1
	check "$lang welcome replay: $k1 switches the language from the list" \
		wait_for "$(tr_ "$olang" "Choose the language and what you are doing.")"
	keys $k2
	wait_for "$(tr_ "$lang" "Choose the language and what you are doing.")" >/dev/null
	keys Escape
	check "$lang welcome replay: the choices, the sample's marked" wait_for "$sample_row"
	# Up through every choice: the language row is no stop, and the (*)
	# ends where it started
	for i in 1 2 3 4 5 6 7; do keys Up; done
	check "$lang welcome replay: Up 7 times comes back to the sample's row" \
		wait_for "$sample_row"
	keys Enter
	check "$lang welcome replay: Enter does what is marked (the samples)" \
		wait_for "(*) esxi-l40s"
	keys Down
	check "$lang welcome replay: moving says what Enter would drop" wait_joined \
		"$(tr_ "$lang" "%1\$s is the answers file's host. Enter asks before leaving it for %2\$s: what the file chose there (its VM, GPUs and host changes) would be dropped." |
			sed 's/%1\$s/esxi-l40s/g; s/%2\$s/intel-2x-l40s/g')"
	keys Enter
	check "$lang welcome replay: another host asks first" wait_joined \
		"$(tr_ "$lang" "Use the sample host %1\$s instead of %2\$s, the answers file's host? What the file chose on %2\$s (its VM, GPUs and host changes) is dropped." |
			sed 's/%1\$s/intel-2x-l40s/g; s/%2\$s/esxi-l40s/g')"
	keys n
	check "$lang welcome replay: n stays on the file's host" wait_for "$(st WELCOME)"
	keys Up
	keys Enter
	check "$lang welcome replay: the file's host, no question" wait_for "$(st HOST)"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	check "$lang welcome replay: one scratch directory named" \
		[ "$(scratches | wc -l)" = 1 ]
	rm -rf $(scratches)
	start "$lang" 80x24 --answers gpuwiz-answers.ini
	wait_for "(*) esxi-l40s" >/dev/null
	keys Down; keys Enter
	wait_joined "intel-2x-l40s" >/dev/null
	keys y
	check "$lang welcome replay: y takes the other host" wait_for "$(st HOST)"
	keys q; wait_for "y/n" 5 >/dev/null && keys y
	exited >/dev/null
	check "$lang welcome replay: both scratch directories named on exit" \
		[ "$(scratches | wc -l)" = 2 ]
	for d in $(scratches); do
		check "$lang welcome replay: $d exists" [ -d "$d" ]
	done
	rm -rf $(scratches)
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
	# (the rows gpuwiz wrapped it into joined)
	$T capture-pane -p -J -t w | tr '\n' ' ' | tr -s ' ' >"$TMP/exit.txt"
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

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the GPU count kept consistent with the host (doc/design.md,
# section 9), at 80x24 in C.UTF-8 and zh_CN.UTF-8, on
# the sample host intel-2x-l40s (two L40S) with a host system id from the
# answers file, so that a detected GPU brings its host PCI address:
#  1. both detected L40S added, the count lowered to 1: the second row is
#     no longer marked and the review has one device block (pciPassthru0,
#     its address; no pciPassthru1);
#  2. back on the GPU step, 3 asked for: a WARN naming the GPU, the count
#     asked and the count found, its fix in the wizard's words, on the GPU
#     step and in the review;
#  3. the ESXi sample (esxi-l40s: one of its two L40S with passthrough
#     off), both added: the WARN says how many have passthrough on, and
#     its fix is enabling the other on the Host check step.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# first N TEXT: its first N characters (a wrapped text's first line)
first() { printf '%s' "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$1}).*/\\1/"; }

# The review's pages (up to 6) into $TMP/review.txt.
review_text() {
	: >"$TMP/review.txt"
	p=0
	while [ $p -lt 6 ]; do
		screen; cat "$SCREEN" >>"$TMP/review.txt"
		keys PageDown; p=$((p + 1))
	done
}
in_review() { grep -qF -- "$1" "$TMP/review.txt"; }
# marked BDF: the detected row of BDF has the added mark
marked() { screen; grep -qE "^ ✓ $1 " "$SCREEN"; }

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	printf '[gpu]\ndevices = l40s\n[vm]\nsystem_id = 4c4c4544-0042-3510-8052-b4c04f4e4d32\n[output]\ndir = out\nformats = vmx\n' \
		>"$TMP/run/s.ini"
	start "$lang" 80x24 --answers s.ini --sample-host intel-2x-l40s
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	# the answers' L40S out, then both detected ones in
	keys DC
	check "$lang: the selection is empty" wait_for \
		"$(first 20 "$(tr_ "$lang" "None yet: Space adds the highlighted GPU; Enter goes on with the VM's own.")")"
	keys Tab Space Down Space
	check "$lang: both detected L40S added" wait_for "2 x l40s"
	check "$lang: 0000:3b:00.0 marked" marked 0000:3b:00.0
	check "$lang: 0000:5e:00.0 marked" marked 0000:5e:00.0
	check "$lang: no WARN for 2 of 2" sh -c "! grep -qF '2 (AD102GL' '$SCREEN'"
	# the count lowered on the selection
	keys BTab; keys -- -
	check "$lang: count 1" wait_for "1 x l40s"
	check "$lang: 0000:3b:00.0 still marked" marked 0000:3b:00.0
	check "$lang: 0000:5e:00.0 no longer marked" sh -c \
		"! grep -qE '^ ✓ 0000:5e:00.0 ' '$SCREEN'"
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	keys Enter Enter Enter
	check "$lang: review" wait_for "$(st REVIEW)"
	review_text
	check "$lang: review: one device block" in_review "pciPassthru0.id"
	check "$lang: review: the first GPU's address" in_review "00000:059:00.0"
	check "$lang: review: no second device block" sh -c \
		"! grep -qF 'pciPassthru1.' '$TMP/review.txt'"
	check "$lang: review: not the dropped address" sh -c \
		"! grep -qF '0000:5e:00.0' '$TMP/review.txt'"
	# back to the GPU step, 3 asked for
	keys Escape Escape Escape Escape
	check "$lang: back on the GPU step" wait_for "$(st GPU)"
	keys + +
	check "$lang: count 3" wait_for "3 x l40s"
	msg=$(printf "$(tr_ "$lang" '%s: %d asked for in passthrough, but the host has %d')" \
		"l40s (AD102GL [L40S])" 3 2)
	check "$lang: the WARN on the GPU step" on_screen "$msg"
	check "$lang: ... as a WARN" on_screen "$(tr_ "$lang" WARN)"
	fix=$(printf "$(tr_ "$lang" 'Lower its count to %d under "Selected for this VM" on the GPU step (- or Left), or use a host that has more.')" 2)
	check "$lang: its fix in the wizard's words" on_screen "$(first 20 "$fix")"
	check "$lang: no CLI flag in the fix" sh -c "! grep -qF -- '--gpu' '$SCREEN'"
	keys Enter
	check "$lang: VM step again" wait_for "$(st VM)"
	keys Enter Enter Enter
	check "$lang: review again" wait_for "$(st REVIEW)"
	review_text
	check "$lang: the WARN in the review" in_review "$(first 30 "$msg")"
	keys q
}

esxi_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang esxi: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang esxi: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang esxi: GPU step" wait_for "$(st GPU)"
	keys Space Down Space
	check "$lang esxi: both added" wait_for "2 x l40s"
	msg=$(printf "$(tr_ "$lang" '%s: %d asked for in passthrough, but the host has %d with passthrough on (%d detected)')" \
		"l40s (AD102GL [L40S])" 2 1 2)
	check "$lang esxi: the WARN names the passthrough state" \
		on_screen "$(first 40 "$msg")"
	fix=$(tr_ "$lang" 'Enable passthrough of the others on the Host check step (e on their row), or lower its count to %d under "Selected for this VM".')
	check "$lang esxi: its fix: enable it on the Host check step" \
		on_screen "$(first 20 "$fix")"
	keys q
}

walk C.UTF-8
esxi_walk C.UTF-8
if [ $have_zh = 1 ]; then
	walk zh_CN.UTF-8
	esxi_walk zh_CN.UTF-8
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi
finish

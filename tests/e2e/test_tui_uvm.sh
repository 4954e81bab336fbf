#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests for the seed-001 VM (doc/design.md, 15.1): vLLM on vGPU
# crash-loops in NCCL init until pciPassthruN.cfg.enable_uvm = "1" is on
# every vGPU.  The wizard goes on with only the devices already in the VM
# (no GPU added), proposes unified memory with its reason and costs, and
# writes exactly the two enable_uvm lines; from an answers file with Enter
# alone, in C.UTF-8 and zh_CN.UTF-8 at 80x24, and cold from `gpuwiz`.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/vgpu_vmx.sh"
. "$(dirname "$0")/lib.sh"

# k KEY... / t TEXT: keys and typed text, counted in $KEYS (a typed text
# one per character) for the cold walk's "keys: N" (bench/keystrokes.md)
KEYS=0
k() { KEYS=$((KEYS + $#)); keys "$@"; }
t() { KEYS=$((KEYS + ${#1})); typ "$1"; }

# first LANG MSGID N: the first N characters of it (a wrapped text's
# first line holds them)
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }

# the VM in $TMP/run/llm.vmx (its original in $TMP/llm.orig) and an
# answers file a.ini with the [options] given (none: no [options])
setup() {
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	vgpu_vmx "$TMP/run/llm.vmx"
	cp "$TMP/run/llm.vmx" "$TMP/llm.orig"
	printf '[vm]\nvmx = llm.vmx\n' >"$TMP/run/a.ini"
	[ -z "$1" ] || printf '[options]\n%s\n' "$1" >>"$TMP/run/a.ini"
}

# the .vmx is its original bytes plus the two enable_uvm lines, and the
# backup holds the original
written_ok() {
	printf '%s\n' 'pciPassthru0.cfg.enable_uvm = "1"' 'pciPassthru1.cfg.enable_uvm = "1"' >"$TMP/want"
	n=$(stat -c %s "$TMP/llm.orig")
	head -c "$n" "$TMP/run/llm.vmx" | cmp -s - "$TMP/llm.orig" &&
	tail -c +"$((n + 1))" "$TMP/run/llm.vmx" | cmp -s - "$TMP/want" &&
	cmp -s "$(ls "$TMP"/run/llm.vmx.*.bak | head -n 1)" "$TMP/llm.orig"
}

# the screens after the VM step, to the written file: options (UVM on,
# with reason and consequences), review, write
tail_walk() { # LANG proposed(0|1)
	lang=$1 proposed=$2
	check "$lang: options step" wait_for "$(st OPTIONS)"
	check "$lang: UVM is on" on_screen "[x] $(tr_ "$lang" 'Unified memory (UVM) on every vGPU')"
	if [ "$proposed" = 1 ]; then
		check "$lang: UVM proposed for the VM's vGPUs" on_screen "$(first "$lang" "Proposed for this VM's vGPUs: NCCL 2.27 and later fail without it ('operation not supported'). Consequences: no vMotion for this VM; on A100 with several vGPUs, no NVLink P2P." 20)"
	else
		check "$lang: UVM explained" on_screen "$(first "$lang" 'pciPassthruN.cfg.enable_uvm = 1: NCCL 2.27 and later fail without it on vGPU. Consequences: no vMotion for this VM; on A100 with several vGPUs, no NVLink P2P.' 40)"
	fi
	check "$lang: the vMotion consequence, as the plan's finding" on_screen "$(tr_ "$lang" "enable_uvm disables vGPU migration (vMotion) for this VM")"
	# nvidia_l40s-24c is half an L40S: UVM unsupported (doc/design.md, 15.3)
	check "$lang: the fractional-profile WARN, as the plan's finding" on_screen "$(first "$lang" "Unified memory is supported only on C-series vGPUs that have the whole framebuffer of the GPU and on MIG-backed vGPUs; %s has a part of one, so NCCL 2.27 and later still fail ('operation not supported') with enable_uvm set" 12)"
	check "$lang: the A100 consequence is said" sh -c "grep -q 'A100' '$SCREEN' && grep -q 'NVLink' '$SCREEN'"
	# the fractional WARN comes first: the INFO may be on the next page
	# its start, up to "2 vGPUs" in English (26 characters), as far in
	# Chinese (24: wider characters)
	n=26; case $lang in zh*) n=24 ;; esac
	check "$lang: the reason, for its 2 vGPUs, as the plan's finding" find_in_pages "$(trn_ "$lang" "Unified memory on %d vGPU: NCCL 2.27 and later fail without it (Cuda failure 'operation not supported' in ncclCommInitRank)" "Unified memory on %d vGPUs: NCCL 2.27 and later fail without it (Cuda failure 'operation not supported' in ncclCommInitRank)" 2 | LC_ALL=C.UTF-8 sed -E "s/^(.{$n}).*/\\1/; s/%d/2/")"
	k Enter
	check "$lang: review" wait_for "$(st REVIEW)"
	check "$lang: review: enable_uvm on pciPassthru0" find_in_pages '+ pciPassthru0.cfg.enable_uvm = "1"'
	check "$lang: review: enable_uvm on pciPassthru1" find_in_pages '+ pciPassthru1.cfg.enable_uvm = "1"'
	k Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	k Enter
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')"
	check "$lang: only the two enable_uvm lines were added, backup first" written_ok
	check "$lang: no device added" sh -c "! grep -aq 'pciPassthru2' '$TMP/run/llm.vmx'"
	k Enter
	check "$lang: Enter on the result finishes" exited
	check "$lang: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored" terminal_sane
}

# ---- 1. Enter alone from an answers file with no [gpu] ----------------------
enter_walk() { # LANG options proposed
	lang=$1
	setup "$2"
	start "$lang" 80x24 --answers a.ini
	check "$lang: first screen" wait_for "$(st WELCOME)"
	enters WELCOME GPU
	check "$lang: GPU step" wait_for "$(st GPU)"
	check "$lang: the VM's vGPUs are listed, already in the VM" on_screen "$(printf "$(tr_ "$lang" '%d x %s, already in the VM')" 2 nvidia_l40s-24c)"
	keys Enter
	check "$lang: the GPU step goes on with only the VM's own devices" wait_for "$(st VM)"
	enters VM OPTIONS
	tail_walk "$lang" "$3"
}
enter_walk C.UTF-8 "uvm = yes" 0
enter_walk C.UTF-8 "" 1
if [ $have_zh = 1 ]; then
	enter_walk zh_CN.UTF-8 "uvm = yes" 0
	enter_walk zh_CN.UTF-8 "" 1
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi

# ---- 2. cold, from `gpuwiz`: the seed-001 user's keystrokes -----------------
# Enter | Space Down Space Enter | Enter | Enter llm Tab Enter Enter | Enter |
# Enter | Enter | Enter | Enter
cold_walk() { # LANG
	lang=$1; KEYS=0
	setup ""
	rm -f "$TMP/run/a.ini"
	start "$lang" 80x24
	check "$lang cold: welcome" wait_for "$(st WELCOME)"
	k Enter
	check "$lang cold: host check" wait_for "$(st HOST)"
	k Space; k Down; k Space; k Enter
	check "$lang cold: GPU step" wait_for "$(st GPU)"
	check "$lang cold: the empty selection says Enter goes on" on_screen "$(tr_ "$lang" "None yet: Space adds the highlighted GPU; Enter goes on with the VM's own.")"
	k Enter
	check "$lang cold: on to the VM step with no GPU chosen" wait_for "$(st VM)"
	k Enter
	# no GPU chosen: the .vmx is marked (the step needs one), and Enter
	# in its empty field asks for the path
	check "$lang cold: the VM step asks for the .vmx" on_screen "$(first "$lang" 'Type the .vmx'"'"'s path (Tab completes), or Up to "No .vmx file" to go on without one.' 12)"
	t llm; k Tab; k Enter
	check "$lang cold: the .vmx opens, its vGPUs shown" wait_for "pciPassthru0 vGPU nvidia_l40s-24c"
	k Enter
	check "$lang cold: MMIO step, the rule for 2 x 48 GB" wait_for "$(st MMIO)"
	check "$lang cold: 256 GB kept" on_screen "256 GB"
	k Enter
	tail_walk "$lang" 1
	echo "$lang cold: keys: $KEYS"
	check "$lang cold: the .vmx open is the output: no snippet, no BOSH" sh -c "[ ! -e '$TMP/run/gpuwiz-out/gpuwiz.vmx.txt' ] && [ ! -e '$TMP/run/gpuwiz-out/bosh-vm-extension.yml' ]"
}
cold_walk C.UTF-8
[ $have_zh = 1 ] && cold_walk zh_CN.UTF-8

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# seeds.sh SRCDIR OUTDIR: the seed corpus of each fuzz target, one folder
# per target under OUTDIR, from the fixtures the unit tests read (and the
# sample hosts' captures).  A fixture's first line points to its source
# ("# source: tests/fixtures/PROVENANCE", "<!-- source: ... -->" for XML;
# tests/fixtures/README.md): it is stripped here, as tu_read_sample() does, so that each
# seed is the sample itself (an XML comment before the XML declaration is
# not XML: the vSphere fixtures parse only without it).  The fixtures are
# left as they are.
set -e
src=$1
out=$2
LC_ALL=C
export LC_ALL
rm -rf "$out"

# seed TARGET FILE...: copy each file into OUTDIR/TARGET, source line dropped
seed() {
	t=$1
	shift
	mkdir -p "$out/$t"
	for f; do
		[ -f "$f" ] || continue
		sed '1{/^# source:/d;/^<!-- source:/d;}' "$f" >"$out/$t/$(basename "$f")"
	done
}

fx=$src/tests/fixtures
hosts=$src/data/hosts
seed vmx "$fx"/vmx/*.vmx "$fx"/scenarios/*.vmx "$hosts"/*/volumes/*/*/*.vmx
seed esxcli "$fx"/esxcli/*.txt "$fx"/lspci/*.txt "$hosts"/*/esxi/esxcli-*.txt
seed vimcmd "$fx"/vimcmd/*.txt "$hosts"/*/esxi/vim-cmd-*.txt
seed nvsmi "$fx"/nvidia-smi/*.txt
seed diagnose "$fx"/vmwarelog/*.txt "$fx"/doctor/*.txt "$fx"/nvidia-smi/*.txt
seed vsphere "$fx"/vsphere/*.xml
seed vsupdates "$fx"/vsphere/*wait-for-updates*.xml "$fx"/vsphere/*task-info*.xml
mkdir -p "$out/samplehost"
for f in "$hosts"/*/host.ini; do
	cp "$f" "$out/samplehost/$(basename "$(dirname "$f")").ini"
done
# the GPU table whole (112 rows: slow per run), and cut to a few rows so
# that most runs are short: the first three, and rows with MIG-backed vGPU
# types, a subsystem id and no vGPU at all
seed gputable "$src/data/gpus.ini"
awk '/^\[/ { n++ } n <= 3' "$src/data/gpus.ini" >"$out/gputable/first-rows.ini"
awk '/^\[/ { keep = ($0 ~ /^\[(a30|l40s|a16|rtx-3090)\]$/) } !n && !/^\[/ { print; next }
	/^\[/ { n = 1 } keep' "$src/data/gpus.ini" >"$out/gputable/some-rows.ini"
# inputs that crashed a target once (the fix names them): kept as seeds
for d in "$src"/tests/fuzz/regressions/*/; do
	[ -d "$d" ] || continue
	mkdir -p "$out/$(basename "$d")"
	cp "$d"* "$out/$(basename "$d")/"
done
mkdir -p "$out/answers" "$out/linux"
cp "$src"/tests/fuzz/answers-seeds/*.ini "$out/answers/"
cp "$src"/tests/fuzz/linux-seeds/* "$out/linux/"

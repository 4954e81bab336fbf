#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The host probes of gpuwiz next to the tools an admin would run instead,
# in one run on the same machine: `gpuwiz check` against libvirt's
# `virt-host-validate qemu`, `gpuwiz gpus` against `lspci -vvv`, and
# `gpuwiz vms` on an ESXi shell with 200 VMs against the loop an admin
# would script (`for id in ...; do vim-cmd vmsvc/power.getstate $id;
# done`), on the stand-ins of tests/esxi-standins; wall time (hyperfine)
# and peak resident memory (GNU time), as one markdown table, and the
# ratios.  Both sides read the real /proc and /sys of this machine, so the
# numbers depend on it (how many PCI devices, IOMMU on or off): the host
# line above the table says what it has.
#   sh bench/host-probes.sh [path/to/gpuwiz] [runs]
# Needs hyperfine and GNU time (apt-get install hyperfine time); a
# comparison tool that is missing is skipped with a message
# (apt-get install libvirt-clients pciutils).  Run it as root for lspci
# -vvv to read the full config space, as an admin would.
# With GPUWIZ_BEFORE=/path/to/old/gpuwiz each probe also runs the old
# build (its table and modules: GPUWIZ_BEFORE_TABLE, GPUWIZ_BEFORE_MODULES,
# by default those of the tree it was built in), in the same hyperfine
# run, and the ratios say before / after.
# A benchmark, not a test: it prints numbers and asserts nothing.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
GPUWIZ=${1:-_build/plain/src/gpuwiz}
RUNS=${2:-100}
export GPUWIZ_TABLE="${GPUWIZ_TABLE:-$PWD/data/gpus.ini}"
export LC_ALL=C.UTF-8
bench_before
# the old build's words: env sets its table and modules
[ -z "$BEFORE" ] || OLD="$(command -v env) ${BEFORE_ENV#env } $BEFORE"
for t in hyperfine /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t (apt-get install hyperfine time)"; exit 1; }
done
[ -x "$GPUWIZ" ] || { echo "build gpuwiz first: $GPUWIZ"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

count() { # DIR: entries, 0 when missing
	if [ -d "$1" ]; then find "$1" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' '
	else echo 0; fi
}
ndisp=0
for c in /sys/bus/pci/devices/*/class; do
	[ -r "$c" ] || continue
	case $(cat "$c") in 0x03*) ndisp=$((ndisp + 1)) ;; esac
done
bench_load
for p in virt-host-validate lspci; do
	if command -v "$p" >/dev/null 2>&1; then bench_peer "$p" "$p"; fi
done
echo "peer: sh = $(readlink -f "$(command -v sh)") (the power.getstate loop's shell)"
bench_programs
virt=$(systemd-detect-virt 2>/dev/null || true)
echo "host: $(uname -sr), ${virt:-no virt detection}, $(nproc) CPUs, user $(id -un);" \
	"PCI devices: $(count /sys/bus/pci/devices), display devices: $ndisp," \
	"IOMMU groups: $(count /sys/kernel/iommu_groups)," \
	"IOMMU units: $(count /sys/class/iommu)"

# one comparison: LABEL NAME CMD [NAME CMD]...; CMD is one string of
# words, run without a shell.  Appends the table rows to $rows.
rows=$tmp/rows
: >"$rows"
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null </dev/null | tail -n 1; }
compare() {
	label=$1; shift
	pairs=$tmp/pairs
	: >"$pairs"
	while [ $# -ge 2 ]; do
		printf '%s\n%s\n' "$1" "$2" >>"$pairs"
		shift 2
	done
	set --
	while IFS= read -r name && IFS= read -r cmd; do
		set -- "$@" -n "$name" "$cmd"
	done <"$pairs"
	# -i: the exit status 1 of check / virt-host-validate is their verdict
	# on this host, not a failed run
	hyperfine -N -i --warmup 5 --min-runs "$RUNS" --style none \
		--export-csv "$tmp/t.csv" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "hyperfine failed:"; cat "$tmp/err"; exit 1; }
	# the CSV's rows come in the order of the commands
	n=1
	while IFS= read -r name && IFS= read -r cmd; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # the command's words
		kib=$(rss $cmd)
		awk -F, -v row="$n" -v l="$label" -v k="$kib" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		NR == row {
			printf "| %s | `%s` | %.2f ± %.2f | %.2f | %.2f … %.2f | %s |\n",
			    l, $col["command"], $col["mean"] * 1000,
			    $col["stddev"] * 1000, $col["median"] * 1000,
			    $col["min"] * 1000, $col["max"] * 1000, k
		}' "$tmp/t.csv" >>"$rows"
	done <"$pairs"
}

set -- "gpuwiz check" "$GPUWIZ check"
if [ -n "$BEFORE" ]; then set -- "$@" "gpuwiz check (before)" "$OLD check"; fi
if command -v virt-host-validate >/dev/null 2>&1; then
	set -- "$@" "virt-host-validate qemu" "$(command -v virt-host-validate) qemu"
else
	echo "skipped: virt-host-validate not installed (apt-get install libvirt-clients)"
fi
compare "host check" "$@"

set -- "gpuwiz gpus" "$GPUWIZ gpus"
if [ -n "$BEFORE" ]; then set -- "$@" "gpuwiz gpus (before)" "$OLD gpus"; fi
if command -v lspci >/dev/null 2>&1; then
	set -- "$@" "lspci -vvv" "$(command -v lspci) -vvv"
else
	echo "skipped: lspci not installed (apt-get install pciutils)"
fi
compare "GPU listing" "$@"

# gpuwiz vms on 200 VMs (the ESXi stand-ins on the PATH make this an ESXi
# shell): getallvms and one esxcli vm process list, against one
# power.getstate per VM.  A stand-in answers in a few milliseconds where
# the real vim-cmd takes a few hundred (it logs in to hostd), so on a host
# the gap is far wider than here; the process counts are what carries
# over.
sb=$tmp/standins
mkdir -p "$sb/state"
cp tests/esxi-standins/esxcli tests/esxi-standins/vim-cmd "$sb/"
echo 200 >"$sb/state/vms"
# the loop as a script, so that its words need no quoting in CMD
printf '%s\n' 'for id in $(seq 100 299); do vim-cmd vmsvc/power.getstate $id; done' \
	>"$tmp/loop.sh"
oldpath=$PATH
export PATH="$sb:$PATH"
: >"$sb/standin.log"
"$GPUWIZ" vms >/dev/null
nproc_gw=$(wc -l <"$sb/standin.log" | tr -d ' ')
: >"$sb/standin.log"
sh "$tmp/loop.sh" >/dev/null
nproc_loop=$(wc -l <"$sb/standin.log" | tr -d ' ')
set -- "gpuwiz vms" "$GPUWIZ vms" "per-VM power.getstate loop" "sh $tmp/loop.sh"
if [ -n "$BEFORE" ]; then set -- "$@" "gpuwiz vms (before)" "$OLD vms"; fi
compare "VM power states, 200 VMs" "$@"
export PATH="$oldpath"
means=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ printf "%s ", $col["mean"] }' "$tmp/t.csv")
vms_new=$(echo "$means" | cut -d' ' -f1)
vms_loop=$(echo "$means" | cut -d' ' -f2)
vms_old=$(echo "$means" | cut -d' ' -f3)
vms_ratio=$(bench_ratio "$vms_loop" "$vms_new")

echo
echo "hyperfine: 5 warm-up runs, >= $RUNS runs each, no shell; peak RSS: GNU time, one run"
echo
echo "| Probe | Command | Mean ± σ [ms] | Median [ms] | Min … Max [ms] | Peak RSS [KiB] |"
echo "|---|---|---:|---:|---:|---:|"
cat "$rows"
echo
echo "ratios: per-VM loop / gpuwiz vms on 200 VMs = ${vms_ratio} wall time;" \
	"commands run on the host: $nproc_gw against $nproc_loop"
if [ -n "$BEFORE" ]; then
	echo "before / after, gpuwiz vms on 200 VMs: $(bench_ratio "$vms_old" "$vms_new")"
fi
bench_load

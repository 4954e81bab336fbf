#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Time to first screen and peak memory of the gpuwiz wizard next to
# `dialog --menu` (what a shell-script wizard would use), in one run.  Each
# program starts in a detached tmux pane of 80x24; the time runs from the
# start of the pane until capture-pane shows the program's first screen;
# the memory is the program's peak resident size (VmHWM) at that moment.
# The ratios are to dialog (the budget: first frame at most 1.2x).
#   sh bench/first-screen.sh [path/to/gpuwiz] [N]
# Needs tmux and dialog.  A benchmark: it prints numbers, asserts nothing.
set -eu
cd "$(dirname "$0")/.."
GPUWIZ=${1:-_build/plain/src/gpuwiz}
N=${2:-20}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
for t in tmux dialog python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t"; exit 1; }
done
tmp=$(mktemp -d)
# a fresh tmux server (its own socket under $tmp) for every run: a server
# still going down from the run before never answers for this one
export TMUX_TMPDIR="$tmp"
run_no=0
T="timeout 5 tmux -S $tmp/s0"
trap 'for s in "$tmp"/s*; do [ -S "$s" ] && timeout 5 tmux -S "$s" kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT

# one run: name, marker text, program name, command line (one string)
one() {
	name=$1 marker=$2 prog=$3 cmd=$4
	run_no=$((run_no + 1))
	T="timeout 5 tmux -S $tmp/s$run_no"
	start=$(date +%s%N)
	$T new-session -d -x 80 -y 24 -s b "exec env LC_ALL=C.UTF-8 $cmd"
	while ! $T capture-pane -p -t b 2>/dev/null | grep -qF -- "$marker"; do
		now=$(date +%s%N)
		[ $(( (now - start) / 1000000 )) -lt 5000 ] || { echo "$name: first screen not seen"; return 1; }
	done
	end=$(date +%s%N)
	pid=$($T list-panes -t b -F '#{pane_pid}' | head -n 1)
	hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$pid"/status 2>/dev/null || echo 0)
	echo "$name $(( (end - start) / 1000 )) ${hwm:-0}" >>"$tmp/results"
	$T kill-server 2>/dev/null || true
}
: >"$tmp/results"
i=0
while [ $i -lt "$N" ]; do
	one dialog-menu "Choose a step" dialog "dialog --menu 'Choose a step' 20 60 8 1 Welcome 2 Host 3 GPU 4 VM 5 MMIO 6 Options 7 Review 8 Write"
	one gpuwiz "Step 1/8" gpuwiz "$GPUWIZ"
	i=$((i + 1))
done
python3 - "$tmp/results" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    name, us, rss = line.split()
    rows.setdefault(name, []).append((int(us) / 1000.0, int(rss)))
print("%-14s %5s %12s %10s %16s %10s" % ("program", "runs", "median [ms]", "max [ms]", "peak RSS [KiB]", "x dialog"))
base = None
for name, v in rows.items():
    t = [a for a, _ in v]; r = [b for _, b in v]
    med = statistics.median(t)
    base = base or (med, max(r))
    print("%-14s %5d %12.1f %10.1f %16d %9.2fx" % (name, len(v), med, max(t), max(r), med / base[0]))
    if base[0] != med:
        print("%-14s %5s %12s %10s %16s %9.2fx (RSS)" % ("", "", "", "", "", max(r) / max(base[1], 1)))
PY

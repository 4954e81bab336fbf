#!/bin/sh
# Time to first screen and peak memory of the gpuwiz wizard next to
# `dialog --menu` (what a shell-script wizard would use), in one run, each
# started in a detached tmux pane of 80x24 and polled with capture-pane
# until its first screen shows.  Repeated N times; prints median and max.
#   sh bench/first-screen.sh [path/to/gpuwiz] [N]
# Needs tmux, dialog and GNU time.  A benchmark: it asserts nothing.
set -eu
cd "$(dirname "$0")/.."
GPUWIZ=${1:-_build/plain/src/gpuwiz}
N=${2:-20}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
for t in tmux dialog /usr/bin/time python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t"; exit 1; }
done
tmp=$(mktemp -d); trap 'tmux -L gwbench kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
T="tmux -L gwbench"

# one run: name, marker text, quit keys, command...
one() {
	name=$1 marker=$2 quit=$3; shift 3
	$T kill-server 2>/dev/null || true
	start=$(date +%s%N)
	$T new-session -d -x 80 -y 24 -s b "env LC_ALL=C.UTF-8 /usr/bin/time -f %M -o $tmp/rss $* ; sleep 5"
	while ! $T capture-pane -p -t b 2>/dev/null | grep -qF -- "$marker"; do
		now=$(date +%s%N)
		[ $(( (now - start) / 1000000 )) -lt 5000 ] || { echo "$name: first screen not seen"; return 1; }
	done
	end=$(date +%s%N)
	$T send-keys -t b $quit
	i=0; while [ ! -s "$tmp/rss" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done
	echo "$name $(( (end - start) / 1000 )) $(cat "$tmp/rss" 2>/dev/null || echo 0)" >>"$tmp/results"
	rm -f "$tmp/rss"
	$T kill-server 2>/dev/null || true
}
: >"$tmp/results"
i=0
while [ $i -lt "$N" ]; do
	one dialog-menu "Choose a step" "Escape" dialog --menu "Choose a step" 20 60 8 1 Welcome 2 Host 3 GPU 4 VM 5 MMIO 6 Options 7 Review 8 Write
	one gpuwiz "Step 1/8" "q y" "$GPUWIZ"
	i=$((i + 1))
done
python3 - "$tmp/results" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    name, us, rss = line.split()
    rows.setdefault(name, []).append((int(us) / 1000.0, int(rss)))
print("%-14s %6s %14s %14s %14s" % ("program", "runs", "median [ms]", "max [ms]", "peak RSS [KiB]"))
for name, v in rows.items():
    t = [a for a, _ in v]; r = [b for _, b in v]
    print("%-14s %6d %14.1f %14.1f %14d" % (name, len(v), statistics.median(t), max(t), max(r)))
PY

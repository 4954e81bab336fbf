#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Time to first screen and peak memory of the gpuwiz wizard next to
# `dialog --menu` (what a shell-script wizard would use), in one run, on a
# machine with no PCI devices and with 300, 1,000 and 3,000 of them (a
# sysroot of sysfs files and /proc/bus/pci/devices, GPUWIZ_SYSROOT; none
# a GPU: up to 1,024 functions the welcome screen reads them all and
# offers the sample hosts, so 1,000 is its most costly host; at 3,000 it
# stops after the first 1,024 and offers nothing), timed two ways:
#  - in tmux: each program starts in a detached tmux pane of 80x24, by
#    one `env` setting its variables; the time runs from the start of the
#    pane until capture-pane shows the last thing the program's first
#    screen draws (dialog's <Cancel> button, gpuwiz's "Quit" at the end of
#    the key bar; each poll starts a tmux client: a resolution of a few
#    milliseconds); the memory is the program's peak resident size
#    (VmHWM) at that moment;
#  - on a pty (Python's pty module, 80x24, TERM=xterm-256color), to the
#    hundredth of a millisecond, BENCH_PTY_RUNS (200) rounds, each program
#    once a round in a turning order, two ends timed from the fork: the
#    first read that holds the first screen's marker (dialog's prompt,
#    gpuwiz's "Step 1/" at the top), when the frame starts to reach the
#    terminal; and the last read before the program falls silent (30 ms
#    with no output), when the whole frame is there.  dialog's output
#    runs over about a millisecond in some hundred writes, gpuwiz's over
#    under half of one in about twenty, so the two ends differ by more
#    for dialog.
# The ratios are to dialog (the aim: the first frame faster than
# dialog's); on the pty also the median of each round's ratio.
#   sh bench/first-screen.sh [path/to/gpuwiz] [N]
# GPUWIZ_BEFORE=/path/to/old/gpuwiz adds the old build (its table:
# GPUWIZ_BEFORE_TABLE, else the data/gpus.ini of its source tree) beside
# the new one, and its ratios.  Needs tmux, dialog and python3.  A
# benchmark: it prints numbers, asserts nothing.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
GPUWIZ=${1:-_build/plain/src/gpuwiz}
N=${2:-15}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
export GPUWIZ_HOSTS_DIR=${GPUWIZ_HOSTS_DIR:-$PWD/data/hosts}
for t in tmux dialog; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t"; exit 1; }
done
bench_python
[ -x "$GPUWIZ" ] || { echo "build gpuwiz first: $GPUWIZ"; exit 1; }
bench_before
tmp=$(mktemp -d)
# a fresh tmux server (its own socket under $tmp) for every run: a server
# still going down from the run before never answers for this one
export TMUX_TMPDIR="$tmp"
run_no=0
trap 'for s in "$tmp"/s*; do [ -S "$s" ] && { timeout 5 tmux -S "$s" kill-server 2>/dev/null || :; }; done; rm -rf "$tmp"' EXIT

echo "== first screen at 80x24: gpuwiz (plain, the welcome step) and dialog --menu =="
bench_load
bench_peer dialog dialog
echo "harness: tmux = $(readlink -f "$(command -v tmux)") ($(tmux -V))"
bench_peer python "$BENCH_PY"
bench_programs
echo "runs: $N of each program per host"

# mkroot ROOT N: N PCI devices under ROOT, no display
# (tests/pci-sysroot.py)
mkroot() { "$BENCH_PY" tests/pci-sysroot.py "$1" "$2"; }

# one HOST NAME MARKER CMD: one run of CMD (one string) in a fresh pane
one() {
	host=$1 name=$2 marker=$3 cmd=$4
	run_no=$((run_no + 1))
	T="timeout 5 tmux -S $tmp/s$run_no"
	start=$(date +%s%N)
	$T new-session -d -x 80 -y 24 -s b "exec env LC_ALL=C.UTF-8 $cmd"
	while ! $T capture-pane -p -t b 2>/dev/null | grep -qF -- "$marker"; do
		now=$(date +%s%N)
		[ $(( (now - start) / 1000000 )) -lt 10000 ] || { echo "$name: first screen not seen"; return 1; }
	done
	end=$(date +%s%N)
	pid=$($T list-panes -t b -F '#{pane_pid}' | head -n 1)
	hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$pid"/status 2>/dev/null || echo 0)
	echo "$host $name $(( (end - start) / 1000 )) ${hwm:-0}" >>"$tmp/results"
	$T kill-server 2>/dev/null || true
}
: >"$tmp/results"
for host in none 300 1000 3000; do
	if [ "$host" = none ]; then
		root=$tmp/no-such-root
	else
		root=$tmp/root$host
		mkroot "$root" "$host"
	fi
	i=0
	while [ $i -lt "$N" ]; do
		one "$host" dialog "<Cancel>" "dialog --menu 'Choose a step' 20 60 8 1 Welcome 2 Host 3 GPU 4 VM 5 MMIO 6 Options 7 Review 8 Write"
		one "$host" gpuwiz "Quit" "GPUWIZ_SYSROOT=$root $GPUWIZ"
		[ -z "$BEFORE" ] ||
			one "$host" before "Quit" "GPUWIZ_SYSROOT=$root GPUWIZ_TABLE=$BEFORE_TABLE $BEFORE"
		i=$((i + 1))
	done
	# the same programs on a pty
	"$BENCH_PY" - "$tmp/pty" "$host" "${BENCH_PTY_RUNS:-200}" "$root" "$GPUWIZ" "$BEFORE" "$BEFORE_TABLE" <<'PY'
import fcntl, os, pty, select, shutil, signal, struct, sys, termios, time
out, host, runs, root, gw, before, before_table = sys.argv[1:8]
env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color")
# every program by its path: no PATH search inside the time
progs = [("dialog", [shutil.which("dialog"), "--menu", "Choose a step", "20", "60", "8",
          "1", "Welcome", "2", "Host", "3", "GPU", "4", "VM", "5", "MMIO",
          "6", "Options", "7", "Review", "8", "Write"], b"Choose a step", {}),
         ("gpuwiz", [gw], b"Step 1/", {"GPUWIZ_SYSROOT": root})]
if before:
    progs.append(("before", [before], b"Step 1/",
                  {"GPUWIZ_SYSROOT": root, "GPUWIZ_TABLE": before_table}))
QUIET = 0.03
def one(argv, marker, extra):
    e = dict(env, **extra)
    t0 = time.perf_counter_ns()
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execve(argv[0], argv, e)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    buf = b""
    first = last = None
    while True:
        r, _, _ = select.select([fd], [], [], 10 if first is None else QUIET)
        if not r:
            break
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        last = time.perf_counter_ns()
        buf += d
        if first is None and marker in buf:
            first = last
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
    if first is None:
        return None
    return (first - t0) / 1e6, (last - t0) / 1e6
with open(out, "a") as f:
    for i in range(int(runs)):
        k = i % len(progs)
        for name, argv, marker, extra in progs[k:] + progs[:k]:
            t = one(argv, marker, extra)
            if t is None:
                sys.exit("%s: first screen not seen on the pty" % name)
            f.write("%s %s %d %.3f %.3f\n" % (host, name, i, t[0], t[1]))
PY
	[ "$host" = none ] || rm -rf "$root"
done
"$BENCH_PY" - "$tmp/results" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    host, name, us, rss = line.split()
    rows.setdefault(host, {}).setdefault(name, []).append((int(us) / 1000.0, int(rss)))
label = {"none": "no PCI devices", "300": "300 PCI devices", "1000": "1,000 PCI devices", "3000": "3,000 PCI devices"}
print()
print("in tmux, the pane's start to the whole first screen shown:")
print("%-18s %-8s %5s %12s %10s %14s %10s %10s" % ("host", "program", "runs", "median [ms]", "max [ms]", "peak RSS [KiB]", "x dialog", "x before"))
for host, progs in rows.items():
    med = {n: statistics.median([a for a, _ in v]) for n, v in progs.items()}
    for name, v in progs.items():
        t = [a for a, _ in v]
        r = max(b for _, b in v)
        vsb = "%.2fx" % (med[name] / med["before"]) if "before" in med and name == "gpuwiz" else ""
        print("%-18s %-8s %5d %12.1f %10.1f %14d %9.2fx %10s" % (label[host], name, len(v), med[name], max(t), r, med[name] / med["dialog"], vsb))
PY
"$BENCH_PY" - "$tmp/pty" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    host, name, rnd, first, whole = line.split()
    rows.setdefault(host, {}).setdefault(name, {})[int(rnd)] = (float(first), float(whole))
label = {"none": "no PCI devices", "300": "300 PCI devices", "1000": "1,000 PCI devices", "3000": "3,000 PCI devices"}
for j, what in ((0, "the frame starts: the first read holding the marker"),
                (1, "the whole frame: the last read before 30 ms of silence")):
    print()
    print("on a pty, fork to %s:" % what)
    print("%-18s %-8s %5s %12s %10s %10s %12s %10s" % ("host", "program", "runs", "median [ms]", "min [ms]", "x dialog", "round ratio", "x before"))
    for host, progs in rows.items():
        t = {n: [v[r][j] for r in sorted(v)] for n, v in progs.items()}
        med = {n: statistics.median(v) for n, v in t.items()}
        for name, v in t.items():
            rr = statistics.median([a / b for a, b in zip(v, t["dialog"])])
            vsb = "%.2fx" % (med[name] / med["before"]) if "before" in med and name == "gpuwiz" else ""
            print("%-18s %-8s %5d %12.2f %10.2f %9.2fx %11.2fx %10s" % (label[host], name, len(v), med[name], min(v), med[name] / med["dialog"], rr, vsb))
PY
echo
bench_load

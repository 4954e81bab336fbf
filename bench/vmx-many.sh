#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vmx-many.sh: the same change (one L40S: the 64-bit MMIO keys, memory
# reserved and pinned, hot-add off) written into N .vmx files, each in a
# VM folder of its own as on a datastore (copies of a real Workstation
# .vmx of tests/fixtures), side by side in one run, at each N given:
#   gpuwiz vmx DIR --write   one call: table read once, each file planned,
#                            its new bytes written to a temporary and
#                            fsynced, its backup a hard link of the old
#                            file, the temporary renamed over it; each
#                            directory fsynced once at the end (from 16
#                            on one file system, one syncfs of it)
#   gpuwiz before            the same call by GPUWIZ_BEFORE (an older
#                            build), when set: printed beside the new
#   python durable           the same durable steps in one Python process:
#                            read, change, temporary (mode kept), write,
#                            fsync, link the old file to its backup,
#                            rename, then one fsync per directory (from
#                            16 on one file system, one syncfs of it)
#   python atomic            read, change, temporary, fsync, rename (no
#                            backup, no directory sync)
#   sed -i loop              what a user would type: one sed -i per file
#                            (no plan, no backup, no fsync)
# The Python is bench_python's (bench/lib.sh), named with its version.
# Each round makes the datastore afresh (copied, then sync) before each
# tool, and starts one tool further than the round before; the figure is
# the median over BENCH_RUNS rounds (5: each tool once in each place of
# the order), the ratios medians of the rounds' pairs.  Beside the wall
# time, the CPU time (user and system) of what each tool ran, from the
# shell's times: on a disk the wall time is mostly the disk's, the CPU
# time each tool's own work.  A benchmark, not a test.
#
# usage: [GPUWIZ_BEFORE=/old/gpuwiz] sh bench/vmx-many.sh [GPUWIZ] [N...]
#        (N: 1000 10000 when none is given)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
GPUWIZ=${1:-$SRC/src/gpuwiz}
[ $# -gt 0 ] && shift
SIZES=${*:-1000 10000}
RUNS=${BENCH_RUNS:-5}
TABLE=${GPUWIZ_TABLE:-$SRC/data/gpus.ini}
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ" >&2; exit 1; }
bench_before
bench_python
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
VMX=$SRC/tests/fixtures/vmx/ws-archlinux-otherlinux5x-crlf.vmx

# the pristine datastore of N folders, made once per N; each tool gets a
# copy, synced so that no tool pays for the copy's writeback
template() {
	rm -rf "$TMP/tpl"
	mkdir -p "$TMP/tpl"
	"$BENCH_PY" - "$TMP/tpl" "$1" "$VMX" <<'PY'
import os, sys
top, n, data = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
for i in range(n):
    os.mkdir(f"{top}/vm{i}")
    with open(f"{top}/vm{i}/vm{i}.vmx", "wb") as f:
        f.write(data)
PY
}
fresh() { rm -rf "$TMP/ds"; cp -a "$TMP/tpl" "$TMP/ds"; sync; }

gw_new() { GPUWIZ_TABLE=$TABLE "$GPUWIZ" vmx "$TMP/ds" --gpu l40s --write; }
gw_old() { $BEFORE_ENV "$BEFORE" vmx "$TMP/ds" --gpu l40s --write; }
sed_loop() {
	for f in "$TMP"/ds/*/*.vmx; do
		sed -i -e 's/^\(vcpu\|mem\)\.hotadd = "TRUE"/\1.hotadd = "FALSE"/' \
			-e '$a pciPassthru.use64bitMMIO = "TRUE"\r' \
			-e '$a pciPassthru.64bitMMIOSizeGB = "128"\r' \
			-e '$a sched.mem.min = "4096"\r' \
			-e '$a sched.mem.minSize = "4096"\r' \
			-e '$a sched.mem.pin = "TRUE"\r' "$f" || return 1
	done
}
# py MODE: durable (gpuwiz's steps) or atomic
py() {
	"$BENCH_PY" - "$TMP/ds" "$1" <<'PY'
import ctypes, glob, os, sys, tempfile, time
top, mode = sys.argv[1], sys.argv[2]
add = [b'pciPassthru.use64bitMMIO = "TRUE"', b'pciPassthru.64bitMMIOSizeGB = "128"',
       b'sched.mem.min = "4096"', b'sched.mem.minSize = "4096"', b'sched.mem.pin = "TRUE"']
stamp = time.strftime("%Y%m%d-%H%M%S")
dirs = {}
for f in sorted(glob.glob(os.path.join(top, "*", "*.vmx"))):
    with open(f, "rb") as r:
        data = r.read()
    eol = b"\r\n" if b"\r\n" in data else b"\n"
    for k in (b"vcpu.hotadd", b"mem.hotadd"):
        data = data.replace(eol + k + b' = "TRUE"', eol + k + b' = "FALSE"')
    data += eol.join(add) + eol
    d = os.path.dirname(f)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=os.path.basename(f) + ".py-")
    if mode == "durable":
        os.fchmod(fd, os.stat(f).st_mode & 0o7777)
    os.write(fd, data)
    os.fsync(fd)
    os.close(fd)
    if mode == "durable":
        os.link(f, f + "." + stamp + ".bak")
        dirs[d] = 1
    os.replace(tmp, f)
bydev = {}
for d in dirs:
    bydev.setdefault(os.stat(d).st_dev, []).append(d)
libc = ctypes.CDLL(None, use_errno=True)
for ds in bydev.values():
    for d in (ds[:1] if len(ds) >= 16 else ds):
        dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
        if len(ds) >= 16:
            libc.syncfs(dfd)
        else:
            os.fsync(dfd)
        os.close(dfd)
PY
}
py_durable() { py durable; }
py_atomic() { py atomic; }

# time one run of CMD on a fresh datastore: its wall seconds, then the
# CPU seconds (user and system) of what it ran, from the shell's times
# (the children's line)
one() {
	fresh
	times >"$TMP/t0"    # (a builtin: this shell's own children)
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo "bench: $* failed" >&2; exit 1; }
	e=$(date +%s.%N)
	times >"$TMP/t1"
	cat "$TMP/t0" "$TMP/t1" | awk -v s="$s" -v e="$e" '
		NR == 2 || NR == 4 { gsub(/[ms]/, " "); c[NR] = $1 * 60 + $2 + $3 * 60 + $4 }
		END { printf "%.6f %.6f\n", e - s, c[4] - c[2] }'
}
med() { bench_med "%.2f"; }
# the median over the rounds of tool A's time over tool B's, A and B as
# the columns of $TMP/times (wall) or, with a third argument, of
# $TMP/cpus (CPU)
pair() {
	awk -v a="$1" -v b="$2" '$b > 0 { print $a / $b }' "$TMP/${3:-times}" | bench_med "%.2fx"
}

bench_load
bench_peer "python" "$BENCH_PY"
bench_peer "sed" sed
bench_programs
echo "rounds: $RUNS; file system: $(df -PT "$TMP" | awk 'NR == 2 { print $2 }')"
for N in $SIZES; do
	template "$N"
	# the same change: gpuwiz's file and Python's are the same bytes
	fresh; gw_new >/dev/null 2>&1; cp "$TMP/ds/vm0/vm0.vmx" "$TMP/gw.vmx"
	fresh; py_durable; cmp -s "$TMP/ds/vm0/vm0.vmx" "$TMP/gw.vmx" ||
		{ echo "bench: python's change is not gpuwiz's" >&2; exit 1; }
	: >"$TMP/times"
	: >"$TMP/cpus"
	r=0
	while [ $r -lt "$RUNS" ]; do
		# columns: 1 new, 2 before (0 without), 3 py durable, 4 py atomic,
		# 5 sed; each round starts one tool further, so that no tool
		# always follows the same one (the file system's state after a
		# datastore is removed weighs on the next tool's creates)
		c1=0 c2=0 c3=0 c4=0 c5=0 u1=0 u2=0 u3=0 u4=0 u5=0
		k=0
		while [ $k -lt 5 ]; do
			col=$(( (r + k) % 5 + 1 ))
			case $col in
			1) set -- $(one gw_new); c1=$1 u1=$2 ;;
			2) [ -z "$BEFORE" ] || { set -- $(one gw_old); c2=$1 u2=$2; } ;;
			3) set -- $(one py_durable); c3=$1 u3=$2 ;;
			4) set -- $(one py_atomic); c4=$1 u4=$2 ;;
			5) set -- $(one sed_loop); c5=$1 u5=$2 ;;
			esac
			k=$((k + 1))
		done
		echo "$c1 $c2 $c3 $c4 $c5" >>"$TMP/times"
		echo "$u1 $u2 $u3 $u4 $u5" >>"$TMP/cpus"
		r=$((r + 1))
	done
	echo
	bench_load
	echo "$N files in $N VM folders:"
	echo
	echo "| tool | wall (median) | new gpuwiz over it | CPU, user + system (median) | new gpuwiz over it |"
	echo "|---|---|---|---|---|"
	row() { printf '| %s | %s s | %s | %s s | %s |\n' "$1" \
		"$(cut -d' ' -f"$2" "$TMP/times" | med)" "$(pair 1 "$2")" \
		"$(cut -d' ' -f"$2" "$TMP/cpus" | med)" "$(pair 1 "$2" cpus)"; }
	row "gpuwiz vmx DIR --write" 1
	[ -n "$BEFORE" ] && row "gpuwiz before" 2
	row "python durable (the same steps)" 3
	row "python atomic (no backup, no dir sync)" 4
	row "sed -i loop" 5
	[ -n "$BEFORE" ] && echo "before over python durable: $(pair 2 3) (CPU $(pair 2 3 cpus)); before over sed -i loop: $(pair 2 5)"
	echo "each round, seconds of wall / CPU (gpuwiz, before, python durable, python atomic, sed; 0: not run):"
	paste -d' ' "$TMP/times" "$TMP/cpus" |
		awk '{ printf "  %.2f/%.2f %.2f/%.2f %.2f/%.2f %.2f/%.2f %.2f/%.2f\n", $1, $6, $2, $7, $3, $8, $4, $9, $5, $10 }'
done

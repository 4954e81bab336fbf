#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vsphere-apply.sh: apply the same plan (a vGPU with unified memory, the MMIO
# window, the memory reservation) to N VMs of a vcsim simulator, with
# gpuwiz (one `gpuwiz vsphere ... apply --vm ... --vm ...` run: every task
# started, at most --parallel in flight, all followed by one property
# filter) and with pyvmomi scripts (bench/pyvmomi-apply.py) doing the same:
# "pyvmomi, WaitForTasks" starts every task and then waits with pyVim's
# WaitForTasks (the careful script), "pyvmomi, each" waits for each task
# before the next (WaitForTask, the simple script); with GPUWIZ_BEFORE set,
# that gpuwiz too, in the same run.  For the first size, the playbook of
# `gpuwiz snippet --format ansible` run with ansible-playbook
# (bench/ansible-apply.sh; skipped when ansible is not installed or
# ANSIBLE=0).  Each run on a fresh simulator of N VMs with instant tasks,
# then 20 VMs whose tasks take 500 ms (SLOW=0 leaves that out).  Prints
# the peers (interpreter, pyVmomi), the load, and per size a markdown
# table: wall time, CPU time (user + system), SOAP round trips (counted by
# the simulator, Logout included), peak RSS (GNU time's maximum resident
# set), and the ratios of each one's wall and CPU to gpuwiz's.  A
# benchmark, not a test.
#
# usage: sh bench/vsphere-apply.sh [N...]
#   N: the VM counts (default: 50 1000; the issue's sizes:
#      sh bench/vsphere-apply.sh 50 1000 5000 10000)
#   GPUWIZ (default src/gpuwiz of the source tree, else ./src/gpuwiz),
#   GPUWIZ_BEFORE (optional, an older build to compare), PYTHON (the
#   interpreter with pyVmomi; bench_python's choice otherwise).  Each
#   gpuwiz runs with GPUWIZ_MODULE_DIR set to the src/host beside it when
#   that holds vsphere.so, and GPUWIZ_TABLE to the data/gpus.ini of its
#   tree (GPUWIZ_TABLE, GPUWIZ_BEFORE_TABLE override).  PEERS (default
#   "before all each"): which rows besides gpuwiz's to run (the simulator
#   answers some 20 to 60 requests a second at 10,000 VMs, so the peers'
#   3N and 8N round trips take long there).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
GPUWIZ=${GPUWIZ:-$SRC/src/gpuwiz}
[ -x "$GPUWIZ" ] || GPUWIZ=$(pwd)/src/gpuwiz
[ $# -gt 0 ] || set -- 50 1000
PROFILE=nvidia_l40s-24c
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'exec 9>&- 2>/dev/null; rm -rf "$TMP"' EXIT
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ (set GPUWIZ)" >&2; exit 1; }
bench_before
sh "$SRC/tests/vcsim/build.sh" "$TMP/vcsim-gpuwiz" || { echo "vcsim cannot be built here" >&2; exit 1; }
bench_python
PY=$BENCH_PY
"$PY" -c 'import pyVmomi' 2>/dev/null || { echo "$PY has no pyVmomi (apt-get install python3-pyvmomi)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "GNU time missing (apt-get install time)" >&2; exit 1; }

bench_tree "$GPUWIZ"
NEW_MOD=$TREE_MODULES
NEW_TABLE=${GPUWIZ_TABLE:-${TREE_TABLE:-$SRC/data/gpus.ini}}
OLD_MOD=$BEFORE_MODULES
OLD_TABLE=$BEFORE_TABLE

# start_sim VMS DELAY_MS: a fresh simulator; sets URL THUMB VMS
start_sim() {
	rm -f "$TMP/fifo" "$TMP/sim.json"; mkfifo "$TMP/fifo"
	: >"$TMP/requests"
	"$TMP/vcsim-gpuwiz" -model vpx -vms "$1" -on 0 -user bench -pass bench-pw \
		-task-delay-ms "$2" -request-log "$TMP/requests" \
		<"$TMP/fifo" >"$TMP/sim.json" 2>"$TMP/sim.err" &
	exec 9>"$TMP/fifo"
	i=0
	while [ ! -s "$TMP/sim.json" ]; do
		i=$((i + 1)); [ $i -lt 6000 ] || { cat "$TMP/sim.err" >&2; exit 1; }
		sleep 0.05
	done
	URL=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$TMP/sim.json")
	THUMB=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["thumbprint"])' "$TMP/sim.json")
	VMS=$("$PY" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["vms"]))' "$TMP/sim.json")
	: >"$TMP/requests"
}
stop_sim() { exec 9>&-; wait 2>/dev/null || true; }
export GPUWIZ_PASSWORD=bench-pw

# measured: reads $TMP/x.time ("wall user sys KiB") and the requests;
# sets r_s r_cpu r_kb r_rt
measured() {
	read -r r_s r_u r_sys r_kb <"$TMP/x.time"
	r_cpu=$(awk -v u="$r_u" -v s="$r_sys" 'BEGIN { printf "%.2f", u + s }')
	r_rt=$(wc -l <"$TMP/requests" | tr -d ' ')
}

# gw_run BINARY MODULE_DIR TABLE VMS DELAY: sets r_* and r_n
gw_run() {
	start_sim "$4" "$5"
	args=""
	for v in $VMS; do args="$args --vm $v"; done
	# shellcheck disable=SC2086
	if ! env ${2:+GPUWIZ_MODULE_DIR=$2} GPUWIZ_TABLE="$3" \
		/usr/bin/time -f "%e %U %S %M" -o "$TMP/x.time" "$1" vsphere --url "$URL" --user bench \
		--thumbprint "$THUMB" apply $args --vgpu "$PROFILE" --uvm >"$TMP/gw.out" 2>"$TMP/gw.err"; then
		echo "$1 failed:" >&2; tail -5 "$TMP/gw.err" >&2; tail -20 "$TMP/gw.out" >&2; exit 1
	fi
	r_n=$(grep -c '^Reconfigured ' "$TMP/gw.out" || true)
	stop_sim
	measured
}

# py_run VMS DELAY each|all: sets r_* and r_n
py_run() {
	start_sim "$1" "$2"
	# shellcheck disable=SC2086
	if ! /usr/bin/time -f '%e %U %S %M' -o "$TMP/x.time" "$PY" "$HERE/pyvmomi-apply.py" --wait "$3" \
		"$URL" bench "$PROFILE" $VMS >"$TMP/py.out" 2>"$TMP/py.err"; then
		echo "the pyvmomi script failed:" >&2; tail -5 "$TMP/py.err" >&2; exit 1
	fi
	r_n=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["vms"])' "$TMP/py.out")
	stop_sim
	measured
}

# row LABEL: one line of the table from r_*, ratios to gpuwiz's (g_s g_cpu)
row() {
	echo "| $1 | $r_n | $r_s | $(bench_ratio "$r_s" "$g_s") | $r_cpu | $(bench_ratio "$r_cpu" "$g_cpu") | $r_rt | $r_kb |"
}

# want ROW: is ROW among PEERS?
want() { case " ${PEERS:-before all each} " in *" $1 "*) return 0 ;; esac; return 1; }

# table VMS DELAY TITLE [ansible]
table() {
	echo
	echo "$3 ($(cut -d' ' -f1-3 /proc/loadavg) load at the start)"
	echo
	echo "| tool | VMs changed | wall [s] | wall / gpuwiz | CPU [s] | CPU / gpuwiz | SOAP round trips | peak RSS [KiB] |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	gw_run "$GPUWIZ" "$NEW_MOD" "$NEW_TABLE" "$1" "$2"
	g_s=$r_s g_cpu=$r_cpu
	row "gpuwiz vsphere apply"
	if [ -n "$BEFORE" ] && want before; then
		gw_run "$BEFORE" "$OLD_MOD" "$OLD_TABLE" "$1" "$2"
		row "gpuwiz vsphere apply, GPUWIZ_BEFORE"
	fi
	if want all; then
		py_run "$1" "$2" all
		row "pyvmomi, WaitForTasks"
	fi
	if want each; then
		py_run "$1" "$2" each
		row "pyvmomi, each (WaitForTask)"
	fi
	if [ "${4:-}" = ansible ] && [ "${ANSIBLE:-1}" != 0 ] && command -v ansible-playbook >/dev/null &&
	   an=$(ANSIBLE_ROW=1 sh "$HERE/ansible-apply.sh" "$GPUWIZ" "$1"); then
		set -- $an
		echo "| ansible-playbook (gpuwiz snippet) | $1 | $2 | $(bench_ratio "$2" "$g_s") | - | - | - | $3 |"
	fi
}

echo "vSphere apply on vcsim (vCenter model)"
bench_load
bench_programs
bench_peer "pyvmomi interpreter" "$PY"
echo "peer: pyVmomi = $("$PY" -c 'import pyVmomi, sys
v = getattr(pyVmomi, "__version__", None)
if v is None:
    try:
        from importlib.metadata import version
        v = version("pyvmomi")
    except Exception:
        v = "?"
print("%s (%s)" % (v, pyVmomi.__file__))')"
first=ansible
for n in "$@"; do
	table "$n" 0 "$n VMs, instant tasks" $first
	first=
done
[ "${SLOW:-1}" = 0 ] || table 20 500 "20 VMs, tasks of 500 ms each (serial: 10 s)"
echo
bench_load

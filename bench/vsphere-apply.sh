#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vsphere-apply.sh: apply the same plan (a vGPU with unified memory, the MMIO
# window, the memory reservation) to N VMs of a vcsim simulator, with
# gpuwiz (one `gpuwiz vsphere ... apply --vm ... --vm ...` run: every task
# started, at most --parallel in flight, then all followed with one
# property filter) and with pyvmomi scripts (bench/pyvmomi-apply.py) doing
# the same: "pyvmomi, each" waits for each task before the next
# (WaitForTask, the simple script), "pyvmomi, all" starts them all and then
# waits with pyVim's WaitForTasks (the careful script), and, in the first
# case, the playbook of `gpuwiz snippet --format ansible` run with
# ansible-playbook (bench/ansible-apply.sh; skipped when ansible is not
# installed or ANSIBLE=0).  Each run on a fresh
# simulator, side by side in one run.  Three cases: N VMs with instant
# tasks; 20 VMs whose tasks take 500 ms; 1,000 VMs (round trips and peak
# RSS).  Prints markdown tables: wall time, its ratio to gpuwiz's, SOAP
# round trips, peak RSS (GNU time's maximum resident set).  A benchmark,
# not a test.
#
# usage: sh bench/vsphere-apply.sh [GPUWIZ_BINARY] [N] [BIG]
#   N (default 50): the first case; BIG (default 1000): the last.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
GPUWIZ=${1:-$SRC/src/gpuwiz}
N=${2:-50}
BIG=${3:-1000}
PROFILE=nvidia_l40s-24c
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'exec 9>&- 2>/dev/null; rm -rf "$TMP"' EXIT
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$SRC/data/gpus.ini}
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ" >&2; exit 1; }
sh "$SRC/tests/vcsim/build.sh" "$TMP/vcsim-gpuwiz" || { echo "vcsim cannot be built here" >&2; exit 1; }
# Debian's python3 has python3-pyvmomi; prefer it over another python3 first on the PATH
PY=${PYTHON:-python3}
[ -x /usr/bin/python3 ] && [ -z "${PYTHON:-}" ] && PY=/usr/bin/python3
"$PY" -c 'import pyVmomi' 2>/dev/null || { echo "python3-pyvmomi missing (apt-get install python3-pyvmomi)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "GNU time missing (apt-get install time)" >&2; exit 1; }

# start_sim VMS DELAY_MS: a fresh simulator; sets URL THUMB VMS
start_sim() {
	rm -f "$TMP/fifo" "$TMP/sim.json"; mkfifo "$TMP/fifo"
	"$TMP/vcsim-gpuwiz" -model vpx -vms "$1" -on 0 -user bench -pass bench-pw \
		-task-delay-ms "$2" <"$TMP/fifo" >"$TMP/sim.json" 2>"$TMP/sim.err" &
	exec 9>"$TMP/fifo"
	i=0
	while [ ! -s "$TMP/sim.json" ]; do
		i=$((i + 1)); [ $i -lt 600 ] || { cat "$TMP/sim.err" >&2; exit 1; }
		sleep 0.05
	done
	URL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$TMP/sim.json")
	THUMB=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["thumbprint"])' "$TMP/sim.json")
	VMS=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["vms"]))' "$TMP/sim.json")
}
stop_sim() { exec 9>&-; wait 2>/dev/null || true; }
export GPUWIZ_PASSWORD=bench-pw

# gw_run VMS DELAY: sets gw_s gw_kb gw_rt gw_n
gw_run() {
	start_sim "$1" "$2"
	args=""
	for v in $VMS; do args="$args --vm $v"; done
	# shellcheck disable=SC2086
	if ! /usr/bin/time -f "%e %M" -o "$TMP/gw.time" "$GPUWIZ" vsphere --url "$URL" --user bench \
		--thumbprint "$THUMB" apply $args --vgpu "$PROFILE" --uvm >"$TMP/gw.out" 2>"$TMP/gw.err"; then
		echo "gpuwiz failed:" >&2; tail -5 "$TMP/gw.err" >&2; tail -20 "$TMP/gw.out" >&2; exit 1
	fi
	# and the Logout after the printed count
	gw_rt=$(($(sed -n 's/^Round trips: //p' "$TMP/gw.out") + 1))
	gw_n=$(grep -c '^Reconfigured ' "$TMP/gw.out" || true)
	read -r gw_s gw_kb <"$TMP/gw.time"
	stop_sim
}

# py_run VMS DELAY each|all: sets py_s py_kb py_rt py_n
py_run() {
	start_sim "$1" "$2"
	# shellcheck disable=SC2086
	if ! /usr/bin/time -f '%e %M' -o "$TMP/py.time" "$PY" "$HERE/pyvmomi-apply.py" --wait "$3" \
		"$URL" bench "$PROFILE" $VMS >"$TMP/py.out" 2>"$TMP/py.err"; then
		echo "the pyvmomi script failed:" >&2; tail -5 "$TMP/py.err" >&2; exit 1
	fi
	py_rt=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["round_trips"])' "$TMP/py.out")
	py_n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["vms"])' "$TMP/py.out")
	read -r py_s py_kb <"$TMP/py.time"
	stop_sim
}

ratio() { python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print("%.2fx" % (a / b) if b > 0 else "-")' "$1" "$2"; }

# table VMS DELAY TITLE: the three side by side
table() {
	gw_run "$1" "$2"
	py_run "$1" "$2" each
	e_s=$py_s e_kb=$py_kb e_rt=$py_rt e_n=$py_n
	py_run "$1" "$2" all
	echo
	echo "$3"
	echo
	echo "| tool | VMs changed | wall time [s] | ratio to gpuwiz | SOAP round trips | peak RSS [KiB] |"
	echo "|---|---:|---:|---:|---:|---:|"
	echo "| gpuwiz vsphere apply | $gw_n | $gw_s | 1.00x | $gw_rt | $gw_kb |"
	echo "| pyvmomi, each (WaitForTask) | $e_n | $e_s | $(ratio "$e_s" "$gw_s") | $e_rt | $e_kb |"
	echo "| pyvmomi, all (WaitForTasks) | $py_n | $py_s | $(ratio "$py_s" "$gw_s") | $py_rt | $py_kb |"
	if [ "${4:-}" = ansible ] && [ "${ANSIBLE:-1}" != 0 ] && command -v ansible-playbook >/dev/null &&
	   an=$(ANSIBLE_ROW=1 sh "$HERE/ansible-apply.sh" "$GPUWIZ" "$1"); then
		set -- $an
		echo "| ansible-playbook (gpuwiz vsphere apply) | $1 | $2 | $(ratio "$2" "$gw_s") | - | $3 |"
	fi
}

echo "vSphere apply on vcsim (vCenter model), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
table "$N" 0 "$N VMs, instant tasks:" ansible
table 20 500 "20 VMs, tasks of 500 ms each (serial: 10 s):"
table "$BIG" 0 "$BIG VMs, instant tasks (memory and round trips at scale):"

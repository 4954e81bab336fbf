#!/bin/sh
# vsphere-apply.sh: apply the same plan (a vGPU with unified memory, the MMIO
# window, the memory reservation) to N VMs of a vcsim simulator, with
# gpuwiz (one `gpuwiz vsphere ... apply --vm ... --vm ...` run) and with a
# pyvmomi script (bench/pyvmomi-apply.py) doing the same, each on a fresh
# simulator, in one run.  Prints a markdown table: wall time, SOAP round
# trips, peak RSS.  A benchmark, not a test.
#
# usage: sh bench/vsphere-apply.sh [GPUWIZ_BINARY] [N]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
GPUWIZ=${1:-$SRC/src/gpuwiz}
N=${2:-50}
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

# start a fresh simulator; sets URL THUMB VMS
start_sim() {
	rm -f "$TMP/fifo" "$TMP/sim.json"; mkfifo "$TMP/fifo"
	"$TMP/vcsim-gpuwiz" -model vpx -vms "$N" -on 0 -user bench -pass bench-pw \
		<"$TMP/fifo" >"$TMP/sim.json" 2>"$TMP/sim.err" &
	exec 9>"$TMP/fifo"
	i=0
	while [ ! -s "$TMP/sim.json" ]; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$TMP/sim.err" >&2; exit 1; }
		sleep 0.05
	done
	URL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$TMP/sim.json")
	THUMB=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["thumbprint"])' "$TMP/sim.json")
	VMS=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["vms"]))' "$TMP/sim.json")
}
stop_sim() { exec 9>&-; wait 2>/dev/null || true; }
export GPUWIZ_PASSWORD=bench-pw

start_sim
args=""
for v in $VMS; do args="$args --vm $v"; done
# shellcheck disable=SC2086
if ! /usr/bin/time -f "%e %M" -o "$TMP/gw.time" "$GPUWIZ" vsphere --url "$URL" --user bench \
	--thumbprint "$THUMB" apply $args --vgpu "$PROFILE" --uvm >"$TMP/gw.out" 2>"$TMP/gw.err"; then
	echo "gpuwiz failed:" >&2; tail -5 "$TMP/gw.err" >&2; tail -20 "$TMP/gw.out" >&2; exit 1
fi
gw_rt=$(sed -n 's/^Round trips: //p' "$TMP/gw.out")
gw_n=$(grep -c '^Reconfigured ' "$TMP/gw.out" || true)
read -r gw_s gw_kb <"$TMP/gw.time"
stop_sim

start_sim
# shellcheck disable=SC2086
if ! /usr/bin/time -f '%e %M' -o "$TMP/py.time" "$PY" "$HERE/pyvmomi-apply.py" "$URL" bench \
	"$PROFILE" $VMS >"$TMP/py.out" 2>"$TMP/py.err"; then
	echo "the pyvmomi script failed:" >&2; tail -5 "$TMP/py.err" >&2; exit 1
fi
py_rt=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["round_trips"])' "$TMP/py.out")
py_n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["vms"])' "$TMP/py.out")
read -r py_s py_kb <"$TMP/py.time"
stop_sim

echo "Apply the plan to $N VMs on vcsim (vCenter model), one session each:"
echo
echo "| tool | VMs changed | wall time [s] | SOAP round trips | peak RSS [KiB] |"
echo "|---|---:|---:|---:|---:|"
echo "| gpuwiz vsphere apply | $gw_n | $gw_s | $gw_rt | $gw_kb |"
echo "| pyvmomi script | $py_n | $py_s | $py_rt | $py_kb |"

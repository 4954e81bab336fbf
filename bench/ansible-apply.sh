#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ansible-apply.sh: the peer of bench/vsphere-apply.sh through Ansible: the
# same plan (a vGPU with unified memory, the MMIO window, the memory
# reservation) as the playbook `gpuwiz snippet --format ansible` writes,
# applied to N VMs of a fresh vcsim simulator (vCenter model) with
# ansible-playbook and the community.vmware collection Debian 12 ships.
# Prints the same markdown row as vsphere-apply.sh (SOAP round trips are
# not counted here: "-").  A benchmark, not a test.
#
# Debian 12's ansible-playbook and python3-pyvmomi as they are; the play
# runs GPUWIZ_BINARY (-e gpuwiz=...) for the VM part: gpuwiz vsphere apply
# with every VM, the vGPU and the settings, one ReconfigVM_Task each.
#
# With ANSIBLE_ROW=1 it prints only "VMS_CHANGED WALL_S PEAK_KIB" (for
# bench/vsphere-apply.sh, which shows it as its third peer).
#
# usage: sh bench/ansible-apply.sh [GPUWIZ_BINARY] [N]
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
AP=/usr/bin/ansible-playbook
[ -x "$AP" ] || AP=$(command -v ansible-playbook) || { echo "ansible missing (apt-get install ansible)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "GNU time missing (apt-get install time)" >&2; exit 1; }
sh "$SRC/tests/vcsim/build.sh" "$TMP/vcsim-gpuwiz" || { echo "vcsim cannot be built here" >&2; exit 1; }
PY=/usr/bin/python3
"$PY" -c 'import pyVmomi' 2>/dev/null || { echo "python3-pyvmomi missing (apt-get install python3-pyvmomi)" >&2; exit 1; }
export ANSIBLE_PYTHON_INTERPRETER=$PY ANSIBLE_HOME="$TMP/ansible"
export ANSIBLE_LOCAL_TEMP="$TMP/ansible/tmp" ANSIBLE_NOCOLOR=1
export ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False

rm -f "$TMP/fifo"; mkfifo "$TMP/fifo"
"$TMP/vcsim-gpuwiz" -model vpx -vms "$N" -on 0 -user bench -pass bench-pw \
	<"$TMP/fifo" >"$TMP/sim.json" 2>"$TMP/sim.err" &
exec 9>"$TMP/fifo"
i=0
while [ ! -s "$TMP/sim.json" ]; do
	i=$((i + 1)); [ $i -lt 200 ] || { cat "$TMP/sim.err" >&2; exit 1; }
	sleep 0.05
done
URL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$TMP/sim.json")
VMS=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["vms"]))' "$TMP/sim.json")
hp=${URL#https://}; hp=${hp%/sdk}
export VMWARE_HOST=${hp%:*} VMWARE_PORT=${hp#*:} VMWARE_USER=bench VMWARE_PASSWORD=bench-pw
export VMWARE_VALIDATE_CERTS=false

args=""
for v in $VMS; do args="$args --vm $v"; done
# shellcheck disable=SC2086
"$GPUWIZ" snippet --format ansible --vgpu "$PROFILE" --uvm $args >"$TMP/play.yml" 2>/dev/null
if ! /usr/bin/time -f "%e %M" -o "$TMP/an.time" "$AP" \
	-e "gpuwiz=$GPUWIZ" "$TMP/play.yml" >"$TMP/an.out" 2>"$TMP/an.err"; then
	echo "ansible-playbook failed:" >&2; tail -20 "$TMP/an.out" >&2; exit 1
fi
# the VMs that have the vGPU now, as the server lists them
an_n=$(GPUWIZ_PASSWORD=bench-pw "$GPUWIZ" vsphere --url "$URL" --user bench --insecure list --json |
	python3 -c 'import json,sys; print(sum(any(d.get("vgpu") for d in v["passthrough"]) for v in json.load(sys.stdin)["vms"]))')
read -r an_s an_kb <"$TMP/an.time"
exec 9>&-; wait 2>/dev/null || true

if [ "${ANSIBLE_ROW:-0}" = 1 ]; then
	echo "$an_n $an_s $an_kb"
	exit 0
fi
echo "Apply the plan (vGPU and VM settings) to $N VMs on vcsim (vCenter model) with Ansible:"
echo
echo "| tool | VMs changed | wall time [s] | SOAP round trips | peak RSS [KiB] |"
echo "|---|---:|---:|---:|---:|"
echo "| ansible-playbook (gpuwiz vsphere apply) | $an_n | $an_s | - | $an_kb |"

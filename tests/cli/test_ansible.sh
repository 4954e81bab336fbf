#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_ansible.sh: gpuwiz snippet --format ansible, checked with the real
# tools: ansible-playbook --syntax-check and yamllint (tests/yamllint.yml)
# in both languages, the assert that stops a playbook with no VM, then real
# runs against vcsim (tests/vcsim, as a standalone ESXi host) of a
# passthrough plan and a vGPU plan with the community.vmware collection
# Debian 12's ansible ships, read back with pyVmomi; a second run changes
# nothing; a plan with an older hardware version fails and changes nothing.
# Skipped (77) without ansible-playbook; the vcsim part is skipped (77)
# when vcsim or pyVmomi are missing.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! command -v ansible-playbook >/dev/null 2>&1; then
	echo "SKIP: ansible-playbook not installed (apt-get install ansible)"
	exit 77
fi
# Ansible's own files under $TMP, so nothing is left behind
export ANSIBLE_HOME="$TMP/ansible" ANSIBLE_LOCAL_TEMP="$TMP/ansible/tmp"
export ANSIBLE_REMOTE_TEMP="$TMP/ansible/tmp" ANSIBLE_NOCOLOR=1
export ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False
export ANSIBLE_RETRY_FILES_ENABLED=False
SYSID=5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c
PT="--gpu l40s --bdf 0000:5e:00.0 --system-id $SYSID --esxi 8.0U2 --memory 65536"
VG="--vgpu grid_l40s-48c --uvm --esxi 8.0U2"

. "$(dirname "$0")/yamllint.sh"

# ---- files: syntax, yamllint, both languages ------------------------------
# playbook LANG WHAT FILE SNIPPET-ARGS...: written, --syntax-check, yamllint
playbook() {
	pl_lang=$1 pl_what=$2 pl_file=$3
	shift 3
	LANG=$pl_lang LC_ALL=$pl_lang "$GPUWIZ" snippet --format ansible "$@" \
		>"$pl_file" 2>"$TMP/err"
	pl_rc=$?
	if [ "$pl_rc" -eq 0 ] && ansible-playbook --syntax-check "$pl_file" >"$TMP/syn" 2>&1; then
		ok "$pl_lang: $pl_what playbook passes ansible-playbook --syntax-check"
	else nok "$pl_lang: $pl_what syntax-check (gpuwiz exit $pl_rc)" "$(cat "$TMP/err" "$TMP/syn")"; fi
	lint "$pl_lang: $pl_what playbook passes yamllint" "$pl_file"
}
for lang in C.UTF-8 zh_CN.UTF-8; do
	# shellcheck disable=SC2086
	playbook $lang passthrough "$TMP/pt-$lang.yml" $PT --p2p \
		--vm VM1 --vm "VM two" --host localhost.localdomain
	# shellcheck disable=SC2086
	playbook $lang vGPU "$TMP/vg-$lang.yml" $VG --vm VM2
done
# a comment line with a CJK character (U+4E00..U+9FFF)
cjk() { python3 -c 'import re,sys; sys.exit(not any(re.search("^ *#.*[\u4e00-\u9fff]", l) for l in open(sys.argv[1], encoding="utf-8")))' "$1"; }
if cjk "$TMP/pt-zh_CN.UTF-8.yml" && ! cjk "$TMP/pt-C.UTF-8.yml"; then
	ok "zh_CN.UTF-8: the comments are in Chinese"
else nok "zh_CN comments" "$(grep '#' "$TMP/pt-zh_CN.UTF-8.yml" | head -5)"; fi
if ! grep -qi 'password: *"[^{]' "$TMP/pt-C.UTF-8.yml" && grep -qF "lookup('env', 'VMWARE_PASSWORD')" "$TMP/pt-C.UTF-8.yml"; then
	ok "the password comes from VMWARE_PASSWORD, none is written"
else nok "password" "$(grep -i password "$TMP/pt-C.UTF-8.yml")"; fi
if grep -qF 'gpuwiz vsphere --url' "$TMP/pt-C.UTF-8.yml" && tr '\n' ' ' <"$TMP/pt-C.UTF-8.yml" | sed 's/ *# */ /g' | grep -qF "apply --vm VM1 --vm 'VM two' --gpu l40s (it"; then
	ok "the DirectPath device: a comment names the gpuwiz vsphere apply command"
else nok "device comment" "$(grep -n 'gpuwiz' "$TMP/pt-C.UTF-8.yml")"; fi

# no VM named: the assert stops the play before any connection
"$GPUWIZ" snippet --format ansible $VG >"$TMP/novm.yml" 2>/dev/null
run env VMWARE_HOST=127.0.0.1 VMWARE_PORT=9 ansible-playbook "$TMP/novm.yml"
if [ "$rc" -ne 0 ] && has "No VM is named" && has "failed=1"; then
	ok "no VM named: the assert stops the play"
else nok "no VM: exit $rc" "$(tail -n 15 "$out")"; fi

run "$GPUWIZ" snippet --format ansible $VG --vm "$(printf 'a\tb')"
if [ "$rc" -eq 2 ] && errhas "--vm" && [ ! -s "$out" ]; then
	ok "a VM name with a control character is refused"
else nok "bad --vm: exit $rc" "$(cat "$err")"; fi

# ---- real runs against vcsim ----------------------------------------------
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import pyVmomi' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "ok - vcsim runs # SKIP pyVmomi not installed (apt-get install python3-pyvmomi)"
	finish; exit $?
fi
export ANSIBLE_PYTHON_INTERPRETER=$PY
. "$(dirname "$0")/vcsim.sh"
# built apart, so that a skip (77) does not hide the results above
( vcsim_build ) >"$TMP/vcbuild" 2>&1
case $? in
0) ;;
77) echo "ok - vcsim runs # SKIP $(head -n 1 "$TMP/vcbuild")"; finish; exit $? ;;
*) nok "build vcsim" "$(tail -n 5 "$TMP/vcbuild")"; finish; exit $? ;;
esac
vcsim_start -model esx -vms 3 -on 0 -user gw -pass 'pw "x"' || { nok "vcsim start"; finish; exit $?; }
HOSTNAME0=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["hosts"][0])' "$VC_DIR/line.json")
hp=${VC_URL#https://}; hp=${hp%/sdk}
export VMWARE_HOST=${hp%:*} VMWARE_PORT=${hp#*:} VMWARE_USER=gw VMWARE_PASSWORD='pw "x"'
export VMWARE_VALIDATE_CERTS=false
# shellcheck disable=SC2086
"$GPUWIZ" snippet --format ansible $PT --vm VM1 --host "$HOSTNAME0" >"$TMP/pt.yml" 2>/dev/null
# shellcheck disable=SC2086
"$GPUWIZ" snippet --format ansible $VG --vm VM2 >"$TMP/vg.yml" 2>/dev/null

# Debian 12's python3-pyvmomi (6.7.1) has no VmomiJSONEncoder, which the
# collection's gather_vm_facts uses: vmware_guest and vmware_guest_info
# fail there.  Say so, then run with the stand-in of tests/cli/pyvmomi-compat.
if ! $PY -c 'from pyVmomi import VmomiSupport; VmomiSupport.VmomiJSONEncoder' 2>/dev/null; then
	run ansible-playbook "$TMP/pt.yml"
	if [ "$rc" -ne 0 ] && has "VmomiJSONEncoder"; then
		ok "known: with this pyVmomi (no VmomiJSONEncoder) community.vmware 3.7 fails in vmware_guest_info; the runs below use tests/cli/pyvmomi-compat"
	else nok "the pyVmomi without VmomiJSONEncoder: exit $rc" "$(tail -n 20 "$out")"; fi
	export PYTHONPATH="$SRC/tests/cli/pyvmomi-compat${PYTHONPATH:+:$PYTHONPATH}"
fi

# recap: "ok=N changed=N ... failed=N"
recap() { grep -E '^localhost +:' "$out" | tail -n 1; }
readback() { # VM, checks as python
	"$PY" - "$VC_URL" "$1" "$2" <<'PY'
import ssl, sys
from pyVim.connect import SmartConnect, Disconnect
from pyVmomi import vim
url, name, checks = sys.argv[1:4]
hp = url.split("//")[1].split("/")[0]
host, port = hp.rsplit(":", 1)
ctx = ssl._create_unverified_context()
si = SmartConnect(host=host, port=int(port), user="gw", pwd='pw "x"', sslContext=ctx)
try:
    c = si.content
    view = c.viewManager.CreateContainerView(c.rootFolder, [vim.VirtualMachine], True)
    vm = [v for v in view.view if v.name == name][0]
    hview = c.viewManager.CreateContainerView(c.rootFolder, [vim.HostSystem], True)
    hostobj = hview.view[0]
    extra = {o.key: o.value for o in vm.config.extraConfig}
    devs = [d for d in vm.config.hardware.device if isinstance(d, vim.vm.device.VirtualPCIPassthrough)]
    passthru = {i.id: i.passthruEnabled for i in hostobj.config.pciPassthruInfo}
    exec(checks)
finally:
    Disconnect(si)
PY
}

run ansible-playbook "$TMP/pt.yml"
case $(recap) in
*"changed=2 "*"failed=0 "*) ok "passthrough plan: the playbook runs against vcsim (host passthrough, VM settings)" ;;
*) nok "passthrough run: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)" ;;
esac
if readback VM1 '
assert extra.get("pciPassthru.use64bitMMIO") == "TRUE", extra
assert extra.get("pciPassthru.64bitMMIOSizeGB") == "128", extra
assert vm.config.memoryReservationLockedToMax is True
assert vm.config.version == "vmx-21", vm.config.version
assert passthru.get("0000:5e:00.0") is True, passthru
' >"$TMP/rb" 2>&1; then
	ok "passthrough plan read back with pyVmomi: MMIO keys, reservation locked, vmx-21, host passthrough on"
else nok "passthrough read back" "$(tail -n 5 "$TMP/rb")"; fi
run ansible-playbook "$TMP/pt.yml"
case $(recap) in
*"changed=0 "*"failed=0 "*) ok "passthrough plan: a second run changes nothing" ;;
*) nok "passthrough second run" "$(recap)" ;;
esac

# vmware_guest_vgpu looks the profile up in the host's
# config.sharedGpuCapabilities (HostSharedGpuCapabilities, vSphere 7.0);
# vcsim-gpuwiz lists its profiles in config.sharedPassthruGpuTypes only, so
# there the vGPU task fails with "vGPU Profile ... does not exist.": that
# is said, and the rest of the play runs from the VM settings task.
run ansible-playbook "$TMP/vg.yml"
VGPU_TASK=1
case $(recap) in
*"changed=2 "*"failed=0 "*) ok "vGPU plan: the playbook runs against vcsim (vGPU, VM settings)" ;;
*)
	if has "vGPU Profile 'nvidia_l40s-48c' does not exist."; then
		VGPU_TASK=0
		ok "known: vcsim-gpuwiz has no host config.sharedGpuCapabilities, which vmware_guest_vgpu reads: the vGPU task fails there"
		run ansible-playbook --start-at-task "$(sed -n 's/^  - name: "\(.*settings\)"$/\1/p' "$TMP/vg.yml")" "$TMP/vg.yml"
		case $(recap) in
		*"changed=1 "*"failed=0 "*) ok "vGPU plan: the VM settings task runs against vcsim" ;;
		*) nok "vGPU settings run: exit $rc" "$(tail -n 25 "$out")" ;;
		esac
	else nok "vGPU run: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)"; fi ;;
esac
if readback VM2 "
assert $VGPU_TASK == 0 or [d.backing.vgpu for d in devs] == ['nvidia_l40s-48c'], devs
assert extra.get('pciPassthru0.cfg.enable_uvm') == '1', extra
assert extra.get('pciPassthru.64bitMMIOSizeGB') == '128', extra
assert vm.config.memoryReservationLockedToMax is True
assert vm.config.version == 'vmx-21', vm.config.version
" >"$TMP/rb" 2>&1; then
	ok "vGPU plan read back with pyVmomi: enable_uvm, MMIO, reservation locked, vmx-21$([ $VGPU_TASK = 1 ] && echo ', the vGPU')"
else nok "vGPU read back" "$(tail -n 5 "$TMP/rb")"; fi
if [ "$VGPU_TASK" = 1 ]; then
	run ansible-playbook "$TMP/vg.yml"
else
	run ansible-playbook --start-at-task "$(sed -n 's/^  - name: "\(.*settings\)"$/\1/p' "$TMP/vg.yml")" "$TMP/vg.yml"
fi
case $(recap) in
*"changed=0 "*"failed=0 "*) ok "vGPU plan: a second run changes nothing" ;;
*) nok "vGPU second run" "$(recap)" ;;
esac

# never down: a plan for ESXi 7.0U2 (vmx-19) on the vmx-21 VM
# shellcheck disable=SC2086
"$GPUWIZ" snippet --format ansible --gpu l40s --esxi 7.0U2 --memory 65536 --vm VM1 >"$TMP/old.yml" 2>/dev/null
run ansible-playbook "$TMP/old.yml"
if [ "$rc" -ne 0 ] && has "Downgrading hardware version is not supported" &&
   readback VM1 'assert vm.config.version == "vmx-21", vm.config.version' >"$TMP/rb" 2>&1; then
	ok "an older hardware version: vmware_guest fails the task, the VM keeps vmx-21"
else nok "older hardware version: exit $rc" "$(tail -n 10 "$out"; cat "$TMP/rb")"; fi
vcsim_stop
finish

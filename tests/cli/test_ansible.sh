#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_ansible.sh: gpuwiz snippet --format ansible, checked with the real
# tools: ansible-playbook --syntax-check and yamllint (tests/yamllint.yml)
# in both languages, the assert that stops a playbook with no VM, then real
# runs against vcsim (tests/vcsim, as a standalone ESXi host) of a
# passthrough plan and a vGPU plan with Debian 12's own ansible-playbook
# (/usr/bin, community.vmware 3.7) and python3-pyvmomi (/usr/bin/python3,
# 6.7.1), nothing added to either; the playbook runs this build's gpuwiz
# (-e gpuwiz=...).  Each run's devices and settings are read back with
# pyVmomi; a second run changes nothing; a plan with an older hardware
# version fails and changes nothing.  Skipped (77) without
# ansible-playbook; the vcsim part is skipped when vcsim or pyVmomi are
# missing.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

# Debian's own where it is installed, else the PATH's
AP=/usr/bin/ansible-playbook
[ -x "$AP" ] || AP=$(command -v ansible-playbook) || {
	echo "SKIP: ansible-playbook not installed (apt-get install ansible)"
	exit 77
}
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
	if [ "$pl_rc" -eq 0 ] && "$AP" --syntax-check "$pl_file" >"$TMP/syn" 2>&1; then
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
# the VM part is gpuwiz vsphere apply: the plan's options, no --bdf with
# two VMs (apply refuses it: gpuwiz picks free devices for each)
if python3 - "$TMP/pt-C.UTF-8.yml" <<'PY2'
import sys, yaml
play = yaml.safe_load(open(sys.argv[1]))[0]
assert play["vars"]["gpuwiz_vms"] == ["VM1", "VM two"], play["vars"]
assert play["vars"]["gpuwiz"] == "gpuwiz"
assert play["environment"] == {"GPUWIZ_PASSWORD": "{{ lookup('env', 'VMWARE_PASSWORD') }}"}
apply = [t for t in play["tasks"] if "'apply'" in t.get("ansible.builtin.command", {}).get("argv", "")]
assert len(apply) == 1, play["tasks"]
# --p2p with one GPU: the plan leaves it out (p2p-single), so does apply
assert apply[0]["vars"]["gpuwiz_plan"] == ["--gpu", "l40s", "--esxi", "8.0U2", "--upgrade-hw"], apply[0]["vars"]
assert apply[0]["failed_when"] == "gpuwiz_apply.rc != 0"
mods = [k for t in play["tasks"] for k in t if "." in k]
assert set(mods) == {"ansible.builtin.assert", "ansible.builtin.command"}, mods
PY2
then
	ok "the VMs' devices and settings: one gpuwiz vsphere apply task with the plan's options"
else nok "apply task" "$(grep -n -A12 'gpuwiz_plan:' "$TMP/pt-C.UTF-8.yml")"; fi

# no VM named: the assert stops the play before any connection
"$GPUWIZ" snippet --format ansible $VG >"$TMP/novm.yml" 2>/dev/null
run env VMWARE_HOST=127.0.0.1 VMWARE_PORT=9 "$AP" "$TMP/novm.yml"
if [ "$rc" -ne 0 ] && has "No VM is named" && has "failed=1"; then
	ok "no VM named: the assert stops the play"
else nok "no VM: exit $rc" "$(tail -n 15 "$out")"; fi

# the URL gpuwiz is given: an IPv6 VMWARE_HOST in brackets, once; a name
# as it is (the play's own variables, with one task printing the URL)
if /usr/bin/python3 - "$TMP/novm.yml" "$TMP/url.yml" <<'PY'
import sys, yaml
play = yaml.safe_load(open(sys.argv[1]))[0]
yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False,
                 "vars": play["vars"],
                 "tasks": [{"ansible.builtin.debug": {"msg": "URL={{ gpuwiz_url }}"}}]}],
               open(sys.argv[2], "w"))
PY
then
	for hu in 'fe80::1 https://[fe80::1]:443/sdk' '[fe80::1] https://[fe80::1]:443/sdk' \
		'esx01.example.com https://esx01.example.com:443/sdk'; do
		run env VMWARE_HOST="${hu%% *}" "$AP" "$TMP/url.yml"
		if [ "$rc" -eq 0 ] && has "\"URL=${hu#* }\""; then
			ok "VMWARE_HOST=${hu%% *}: gpuwiz is given --url ${hu#* }"
		else nok "URL for ${hu%% *}: exit $rc" "$(grep -n 'URL=' "$out"; tail -n 5 "$out")"; fi
	done
else nok "the play's variables read with /usr/bin/python3's yaml"; fi

run "$GPUWIZ" snippet --format ansible $VG --vm "$(printf 'a\tb')"
if [ "$rc" -eq 2 ] && errhas "--vm" && [ ! -s "$out" ]; then
	ok "a VM name with a control character is refused"
else nok "bad --vm: exit $rc" "$(cat "$err")"; fi

# ---- real runs against vcsim ----------------------------------------------
# Debian 12's python3-pyvmomi, under Debian's python3; nothing on
# PYTHONPATH
PY=/usr/bin/python3
if ! "$PY" -c 'import pyVmomi' 2>/dev/null; then
	echo "ok - vcsim runs # SKIP pyVmomi not installed for $PY (apt-get install python3-pyvmomi)"
	finish; exit $?
fi
unset PYTHONPATH
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

if ! $PY -c 'from pyVmomi import VmomiSupport; VmomiSupport.VmomiJSONEncoder' 2>/dev/null; then
	echo "# $PY's pyVmomi has no VmomiJSONEncoder (Debian 12's 6.7.1): the runs below use it as it is"
fi
# the playbook runs this build's gpuwiz
play() { run "$AP" -e "gpuwiz=$GPUWIZ" "$@"; }
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
    passthru = {i.id: (i.passthruEnabled, i.passthruActive) for i in hostobj.config.pciPassthruInfo}
    exec(checks)
finally:
    Disconnect(si)
PY
}

# --check first: gpuwiz runs with --dry-run, says what it would change
# (changed), and nothing is changed
play --check "$TMP/pt.yml"
case $(recap) in
*"changed=1 "*"failed=0 "*"skipped=1 "*)
	ok "passthrough plan under --check: passthrough would be enabled, the attach waits for it: $(recap | tr -s ' ')" ;;
*) nok "passthrough --check: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)" ;;
esac
if readback VM1 '
assert devs == [], devs
assert "pciPassthru.64bitMMIOSizeGB" not in extra, extra
assert passthru.get("0000:5e:00.0") != (True, True), passthru
' >"$TMP/rb" 2>&1; then
	ok "passthrough plan under --check: nothing changed on the server (no device, no MMIO key, passthrough off)"
else nok "--check changed the server" "$(tail -n 5 "$TMP/rb")"; fi
play "$TMP/pt.yml"
case $(recap) in
*"changed=2 "*"failed=0 "*) ok "passthrough plan: the playbook runs against vcsim: $(recap | tr -s ' ')" ;;
*) nok "passthrough run: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)" ;;
esac
if readback VM1 '
assert [d.backing.id for d in devs] == ["0000:5e:00.0"], devs
assert extra.get("pciPassthru.use64bitMMIO") == "TRUE", extra
assert extra.get("pciPassthru.64bitMMIOSizeGB") == "128", extra
assert vm.config.memoryReservationLockedToMax is True
assert vm.config.version == "vmx-21", vm.config.version
assert passthru.get("0000:5e:00.0") == (True, True), passthru
' >"$TMP/rb" 2>&1; then
	ok "passthrough plan read back with pyVmomi: the VirtualPCIPassthrough 0000:5e:00.0, MMIO keys, reservation locked, vmx-21, host passthrough active"
else nok "passthrough read back" "$(tail -n 5 "$TMP/rb")"; fi
play "$TMP/pt.yml"
case $(recap) in
*"changed=0 "*"failed=0 "*) ok "passthrough plan: a second run changes nothing: $(recap | tr -s ' ')" ;;
*) nok "passthrough second run" "$(recap; tail -n 25 "$out")" ;;
esac

# --check of the vGPU plan: gpuwiz vsphere apply --dry-run says the VM
# would change (changed), and the VM is as it was
play --check "$TMP/vg.yml"
case $(recap) in
*"changed=1 "*"failed=0 "*) ok "vGPU plan under --check: the VM would change: $(recap | tr -s ' ')" ;;
*) nok "vGPU --check: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)" ;;
esac
if readback VM2 "
assert devs == [], devs
assert 'pciPassthru0.cfg.enable_uvm' not in extra, extra
" >"$TMP/rb" 2>&1; then
	ok "vGPU plan under --check: nothing changed on the server (no vGPU, no enable_uvm)"
else nok "--check changed VM2" "$(tail -n 5 "$TMP/rb")"; fi

play "$TMP/vg.yml"
case $(recap) in
*"changed=1 "*"failed=0 "*) ok "vGPU plan: the playbook runs against vcsim: $(recap | tr -s ' ')" ;;
*) nok "vGPU run: exit $rc" "$(tail -n 25 "$out"; vcsim_log 5)" ;;
esac
if readback VM2 "
assert [d.backing.vgpu for d in devs] == ['nvidia_l40s-48c'], devs
assert extra.get('pciPassthru0.cfg.enable_uvm') == '1', extra
assert extra.get('pciPassthru.64bitMMIOSizeGB') == '128', extra
assert vm.config.memoryReservationLockedToMax is True
assert vm.config.version == 'vmx-21', vm.config.version
" >"$TMP/rb" 2>&1; then
	ok "vGPU plan read back with pyVmomi: the vGPU nvidia_l40s-48c, enable_uvm, MMIO, reservation locked, vmx-21"
else nok "vGPU read back" "$(tail -n 5 "$TMP/rb")"; fi
play "$TMP/vg.yml"
case $(recap) in
*"changed=0 "*"failed=0 "*) ok "vGPU plan: a second run changes nothing: $(recap | tr -s ' ')" ;;
*) nok "vGPU second run" "$(recap; tail -n 25 "$out")" ;;
esac

# never down: a plan for ESXi 7.0U2 (vmx-19) on the vmx-21 VM is refused by
# gpuwiz (hw-too-new), the task fails and no reconfigure or upgrade is sent
# shellcheck disable=SC2086
"$GPUWIZ" snippet --format ansible --gpu l40s --esxi 7.0U2 --memory 65536 --vm VM1 >"$TMP/old.yml" 2>/dev/null
before=$(vcsim_requests ReconfigVM_Task)$(vcsim_requests UpgradeVM_Task)
play "$TMP/old.yml"
after=$(vcsim_requests ReconfigVM_Task)$(vcsim_requests UpgradeVM_Task)
if [ "$rc" -ne 0 ] && has "hw-too-new" && [ "$before" = "$after" ] &&
   case $(recap) in *"changed=0 "*"failed=1 "*) true ;; *) false ;; esac &&
   readback VM1 '
assert vm.config.version == "vmx-21", vm.config.version
assert [d.backing.id for d in devs] == ["0000:5e:00.0"], devs
' >"$TMP/rb" 2>&1; then
	ok "an older hardware version: gpuwiz refuses the plan (hw-too-new), the task fails, nothing is sent: $(recap | tr -s ' ')"
else nok "older hardware version: exit $rc, requests $before/$after" "$(recap; tail -n 10 "$out"; cat "$TMP/rb")"; fi
vcsim_stop
finish

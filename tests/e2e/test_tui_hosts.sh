#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the wizard on real-looking hosts: the sample hosts
# (data/hosts, --sample-host and the welcome step's offer on a machine
# without a GPU), and an ESXi host over SSH (a throwaway sshd on 127.0.0.1
# with the esxcli / vim-cmd stand-ins, tests/cli/sshd.sh).  Asserts on the
# screens, on what was written (the scratch copy, the datastore folder)
# and on the commands the host was asked to run.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/sshd.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

sums() { (cd "$SRC/data/hosts" && find . -type f | LC_ALL=C sort | xargs cksum); }
sums >"$TMP/hosts.before"

# the scratch directory the wizard printed when it ended (the rows it
# wrapped the sentence into joined)
scratch_of() {
	$T capture-pane -p -J -t w 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
		sed -n 's/.* are in \(.*\) (remove it when done)\..*/\1/p' | head -n 1
}

# ---- 1. the ESXi sample host, every step ---------------------------------
rm -rf "$TMP/run"; mkdir -p "$TMP/run"
start C.UTF-8 100x30 --sample-host esxi-l40s
check "esxi sample: welcome" wait_for "Step $(st WELCOME): Welcome"
check "esxi sample: the sample is chosen, in the samples' list" on_screen "(*) esxi-l40s"
check "esxi sample: the scratch directory is named" on_screen "Practising on a sample host"
keys Enter
check "esxi sample: host check" wait_for "Step $(st HOST): Host check"
check "esxi sample: the host's rows" on_screen "Checks of the ESXi host esxi-l40s (sample)"
check "esxi sample: the second L40S is not passed through yet" sh -c \
	"grep 'Checking passthrough of 0000:5e:00.0' '$SCREEN' | grep -q WARN"
# the WARN rows come first: the cursor starts on this GPU's row
check "esxi sample: its fix names the e key" wait_for "Press e on this row"
check "esxi sample: the graphics type row WARNs (Shared, vGPU needs Shared Direct)" sh -c \
	"grep 'Checking the host graphics type (for vGPU)' '$SCREEN' | grep -q WARN"
check "esxi sample: the vGPU manager row is INFO" sh -c \
	"grep 'Checking for the NVIDIA vGPU manager' '$SCREEN' | grep -q INFO"
# the next WARN row: the graphics type, with the wizard's words for its fix
keys Down
check "esxi sample: the graphics type's fix in the wizard's words" wait_for "Host Graphics > Edit, choose Shared"
check "esxi sample: the wizard's fix names no flag" sh -c "! grep -q -- '--default-type' '$SCREEN'"
keys Up
check "esxi sample: back on the GPU's row" wait_for "Press e on this row"
keys e
check "esxi sample: e queues the enable" wait_for "Queued: passthrough of 0000:5e:00.0 will be enabled when you write"
check "esxi sample: the row says so" sh -c \
	"grep 'Passthrough of 0000:5e:00.0: will be enabled when you write' '$SCREEN' | grep -q INFO"
keys Enter
check "esxi sample: GPU step" wait_for "Step $(st GPU): GPU selection"
check "esxi sample: both L40S detected, one on, one queued" sh -c \
	"grep -q 'passthrough on' '$SCREEN' && grep -q 'enable queued' '$SCREEN'"
keys Space
check "esxi sample: Space adds the detected L40S" wait_for "1 x l40s"
keys Enter
check "esxi sample: VM step" wait_for "Step $(st VM): Virtual machine"
check "esxi sample: the host's VMs" sh -c "grep -q 'ubuntu-l40s' '$SCREEN' && grep -q 'llm-train' '$SCREEN'"
keys Down; keys Space
check "esxi sample: the VM opens with its power state" wait_for "ubuntu-l40s: Vmid 1, powered off"
check "esxi sample: the upgrade is offered" on_screen "u: upgrade to vmx-21"
check "esxi sample: its hardware version" on_screen "Hardware version: 13"
keys u
check "esxi sample: u queues the upgrade" wait_for "Queued: the upgrade to vmx-21 runs when you write"
check "esxi sample: the plan is for vmx-21, the upgrade shown queued" wait_for "Hardware version: 13 -> 21 queued"
check "esxi sample: the VM's line says it is queued" on_screen "vmx-21 queued: u takes it back"
keys Enter
check "esxi sample: MMIO" wait_for "Step $(st MMIO): MMIO size"
keys Enter
check "esxi sample: options" wait_for "Step $(st OPTIONS): Options"
keys Enter
check "esxi sample: review" wait_for "Step $(st REVIEW): Review"
check "esxi sample: the diff names the host's file" on_screen "esxi-l40s (sample): /"
keys Enter
check "esxi sample: write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "esxi sample: the write asks once" wait_for "Write the changes to the host and the files?"
keys y
check "esxi sample: written" wait_for "Written:"
check "esxi sample: next steps power on VM 1" find_in_pages "vim-cmd vmsvc/power.on 1"
keys q
check "esxi sample: exits" exited
check "esxi sample: exit 0" [ "${exit_status:-x}" = 0 ]
check "esxi sample: terminal sane" terminal_sane
S=$(scratch_of)
V=$S/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx
check "esxi sample: the scratch directory is printed" [ -n "$S" ] && [ -d "$S" ]
check "esxi sample: the copied .vmx got the device block" grep -q 'pciPassthru0.id = "00000:059:00.0"' "$V"
check "esxi sample: and the MMIO window" grep -q 'pciPassthru.64bitMMIOSizeGB = "128"' "$V"
check "esxi sample: and the new hardware version" grep -q 'virtualHW.version = "21"' "$V"
check "esxi sample: a backup beside it" sh -c "ls '$S/volumes/datastore1/ubuntu-l40s/' | grep -q '\\.bak\$'"
check "esxi sample: passthrough set was run" grep -q 'pcipassthru set -d 0000:5e:00.0 -e true -a' "$S/commands.log"
check "esxi sample: upgrade, then reload" sh -c \
	"grep -q 'vmsvc/upgrade 1 vmx-21' '$S/commands.log' && grep -q 'vmsvc/reload 1' '$S/commands.log'"
# the VM open is the output (a VM's .vmx): no snippet unless chosen
check "esxi sample: the VM's .vmx is the output, no snippet written" [ ! -e "$S/gpuwiz-out" ]
check "esxi sample: nothing written in the working directory" sh -c "[ -z \"\$(ls -A '$TMP/run')\" ]"
sums >"$TMP/hosts.after"
check "esxi sample: the sample itself is unchanged" cmp -s "$TMP/hosts.before" "$TMP/hosts.after"
rm -rf "$S"

# a powered-on VM of the sample can be planned but is never written
start C.UTF-8 100x30 --sample-host esxi-l40s
wait_for "Step $(st WELCOME)" >/dev/null
keys Enter; wait_for "Step $(st HOST)" >/dev/null
keys Enter; wait_for "Step $(st GPU)" >/dev/null
keys Space; keys Enter
check "esxi on: VM step" wait_for "Step $(st VM): Virtual machine"
keys Down; keys Down; keys Space
check "esxi on: the powered-on VM is flagged" wait_for "Not powered off: gpuwiz will not change it"
enters VM WRITE
check "esxi on: write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "esxi on: the write is refused" wait_for "Not written:"
check "esxi on: with the reason" on_screen "Powered on"
keys q; keys y
exited >/dev/null
S=$(scratch_of)
check "esxi on: the VM's file is unchanged" cmp -s "$S/volumes/datastore1/win2016-vdi/win2016-vdi.vmx" \
	"$SRC/data/hosts/esxi-l40s/volumes/datastore1/win2016-vdi/win2016-vdi.vmx"
[ -n "$S" ] && rm -rf "$S"

if [ $have_zh -eq 1 ]; then
	start zh_CN.UTF-8 100x30 --sample-host esxi-l40s
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter
	check "zh esxi sample: the host step in Chinese" wait_for "ESXi 主机 esxi-l40s"
	check "zh esxi sample: the graphics type row in Chinese" on_screen "检查主机图形类型（用于 vGPU）"
	keys Down
	check "zh esxi sample: its fix names the client's label, explained in Chinese" wait_for "编辑”，选择“Shared Direct”"
	keys q; keys y; exited >/dev/null
	S=$(scratch_of); [ -n "$S" ] && rm -rf "$S"
fi

# the ESXi sample walk under valgrind memcheck (the runner's fork/exec and
# pipes, the esxcli/vim-cmd parsers, the datastore write)
if valgrind_wrap; then
	start C.UTF-8 100x30 --sample-host esxi-l40s
	check "valgrind esxi: first screen" wait_for "Step $(st WELCOME)" 60
	keys Enter; wait_for "Step $(st HOST)" 30 >/dev/null
	keys Enter; wait_for "Step $(st GPU)" 30 >/dev/null
	keys Space; keys Enter
	wait_for "Step $(st VM)" 30 >/dev/null
	keys Down; keys Space
	check "valgrind esxi: the VM opens" wait_for "Vmid 1, powered off" 30
	n=$(stn MMIO); while [ $n -le "$GW_NSTEPS" ]; do keys Enter; wait_for "$(st $n)" 30 >/dev/null; n=$((n + 1)); done
	keys Enter
	check "valgrind esxi: written" wait_for "Written:" 60
	keys Enter
	check "valgrind esxi: exited" exited 60
	valgrind_clean "valgrind esxi"
	S=$(scratch_of); [ -n "$S" ] && rm -rf "$S"
fi

# ---- 2. a Linux sample host ----------------------------------------------
start C.UTF-8 100x30 --sample-host amd-geforce-usb
check "linux sample: welcome, the sample chosen" wait_for "(*) amd-geforce-usb"
keys Enter
check "linux sample: host check" wait_for "Step $(st HOST): Host check"
check "linux sample: the sample's root is checked" on_screen "gpuwiz-sample."
# the WARN row (the GeForce on nvidia) comes first; the CPU's row next
check "linux sample: the driver's WARN first, its fix below" on_screen "bind it to vfio-pci"
keys Down
check "linux sample: an AMD host (svm)" wait_for "the CPU has svm"
keys Enter
check "linux sample: GPU step" wait_for "Step $(st GPU): GPU selection"
check "linux sample: the GeForce with its IOMMU group" sh -c "grep '0000:04:00.0' '$SCREEN' | grep 'GeForce' | grep -q 'IOMMU group 15'"
keys Space
check "linux sample: adding it warns about the USB controller in its group" wait_for "also holds"
keys q; keys y
exited >/dev/null
S=$(scratch_of); [ -n "$S" ] && rm -rf "$S"

# ---- 3. a machine without a GPU: the welcome step offers the samples ------
mkdir -p "$TMP/nogpu/sys/bus/pci/devices"
GPUWIZ_SYSROOT="$TMP/nogpu"; export GPUWIZ_SYSROOT
start C.UTF-8 100x30
check "no GPU: the samples are offered" wait_for "This machine has no GPU to configure"
check "no GPU: the sample row marked" on_screen "(*) Practise on a sample host"
keys Enter
check "no GPU: Enter lists the samples, the first marked" wait_for "(*) amd-geforce-usb"
keys Enter
check "no GPU: Enter builds the marked sample" wait_for "Step $(st HOST): Host check"
check "no GPU: the sample's checks" on_screen "gpuwiz-sample."
keys q; keys y
exited >/dev/null
S=$(scratch_of); [ -n "$S" ] && rm -rf "$S"
GPUWIZ_SYSROOT="$TMP/no-such-root"
start C.UTF-8 100x30 --sample-host no-such-sample
check "bad sample name: exits" exited
check "bad sample name: exit 2" [ "${exit_status:-x}" = 2 ]
check "bad sample name: the known names are listed" on_screen "esxi-l40s"

# ---- 4. an ESXi host over SSH --------------------------------------------
if sshd_usable; then
	sshd_start "$SRC"
	sshd_datastore itachi_lab itachi_backupTest
	cp "$VOL/datastore1/itachi_lab/itachi_lab.vmx" "$TMP/vm11.orig"
	: >"$SSH_STANDINS/standin.log"
	# shellcheck disable=SC2086
	start C.UTF-8 100x30 $SSH_GW_OPTS
	check "ssh: welcome, ESXi mode chosen" wait_for "(*) An ESXi host over SSH"
	keys Enter
	check "ssh: the host's checks" wait_for "Checks of the ESXi host $SSH_TARGET"
	keys Enter
	check "ssh: GPU step lists the host's GPUs" wait_for "0000:3b:00.0"
	keys Space; keys Enter
	check "ssh: the host's VMs" wait_for "itachi_lab"
	keys Down; keys Space
	check "ssh: the VM is read from the datastore" wait_for "itachi_lab: Vmid 11, powered off"
	enters VM WRITE
	check "ssh: write step" wait_for "Step $(st WRITE): Write"
	keys Enter
	check "ssh: written" wait_for "Written:"
	keys q
	check "ssh: exits 0" exited
	check "ssh: exit 0" [ "${exit_status:-x}" = 0 ]
	check "ssh: terminal sane" terminal_sane
	V11=$VOL/datastore1/itachi_lab/itachi_lab.vmx
	check "ssh: the .vmx on the datastore got the device block" grep -q 'pciPassthru0.id = "00000:059:00.0"' "$V11"
	check "ssh: backup on the datastore" sh -c "ls '$VOL/datastore1/itachi_lab/' | grep -q '\\.bak\$'"
	check "ssh: power state checked and VM reloaded over ssh" sh -c \
		"grep -qx 'vim-cmd vmsvc/power.getstate 11' '$SSH_STANDINS/standin.log' && grep -qx 'vim-cmd vmsvc/reload 11' '$SSH_STANDINS/standin.log'"
	# a key with a passphrase: ssh asks for it once, on the terminal,
	# before the screens start; every later command uses the master
	ssh-keygen -q -t ed25519 -N 'gw-secret-1' -f "$TMP/pkey" || exit 99
	cat "$TMP/pkey.pub" >>"$TMP/authorized_keys"
	: >"$SSH_STANDINS/standin.log"
	unset SSH_AUTH_SOCK
	start C.UTF-8 100x30 --ssh "$SSH_TARGET" --ssh-port "$SSH_PORT" --ssh-identity "$TMP/pkey" \
		--ssh-option IdentitiesOnly=yes --ssh-option UserKnownHostsFile="$SSH_KNOWN" \
		--ssh-option GlobalKnownHostsFile=/dev/null
	check "ssh prompt: ssh asks for the passphrase on the terminal" wait_for "Enter passphrase"
	typ gw-secret-1; keys Enter
	check "ssh prompt: then the wizard starts on the host" wait_for "(*) An ESXi host over SSH"
	keys Enter
	check "ssh prompt: the host's rows through the master, no second prompt" wait_for "Checks of the ESXi host $SSH_TARGET"
	keys q; keys y
	check "ssh prompt: exits" exited
	check "ssh prompt: terminal sane" terminal_sane
	check "ssh prompt: the passphrase is not on the screen" sh -c "! grep -q gw-secret-1 '$SCREEN'"
else
	echo "# sshd not usable here ($SSHD_WHY): the SSH walk is left out"
fi

finish

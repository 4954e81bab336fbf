#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The main commands under valgrind memcheck: no leaks, no invalid access.
. "$(dirname "$0")/lib.sh"

if [ -z "${VALGRIND:-}" ] || ! command -v "$VALGRIND" >/dev/null 2>&1; then
	echo "SKIP: valgrind not installed"; exit 77
fi
if [ -n "${GW_SANITIZED:-}" ]; then
	echo "SKIP: sanitizer build (ASan and valgrind do not mix)"; exit 77
fi
vg() {
	"$VALGRIND" -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$GPUWIZ" "$@" >"$TMP/vg.out" 2>"$TMP/vg.err"
	r=$?
	[ $r -ne 99 ] || { cat "$TMP/vg.err"; return 1; }
}
sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/a.vmx"
sample vmx/HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx "$TMP/p.vmx"
check "valgrind: --help" vg --help
check "valgrind: mmio" vg mmio --gpu l40s=2 --vgpu grid_h100xm-80c --vram 24
check "valgrind: mmio --json" vg mmio --json --gpu h200-sxm
check "valgrind: vmx --write" vg vmx "$TMP/a.vmx" --gpu l40s --bdf 0000:42:00.0 --system-id 5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234 --uvm --p2p --write
check "valgrind: vmx --json on the P40 fragment" vg vmx "$TMP/p.vmx" --gpu l40s --json
for f in vmx bosh opsman tile; do
	check "valgrind: snippet $f" vg snippet --format $f --gpu l40s
done
check "valgrind: error path" vg mmio --gpu nosuchgpu
mkdir -p "$TMP/c"
printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = ../a.vmx\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/c/a.ini"
check "valgrind: apply" vg apply --answers "$TMP/c/a.ini"
printf '[gpu]\ndevices = l40s\n[output\n' >"$TMP/c/b.ini"
check "valgrind: broken answers" vg apply --answers "$TMP/c/b.ini"
check "valgrind: gpus --esxcli-file --json" vg gpus --esxcli-file "$FIX/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt" --json
check "valgrind: verify --nvidia-smi-q" vg verify --nvidia-smi-q "$FIX/nvidia-smi/rtxa6000-24q-vgpu-guest.txt"
check "valgrind: diagnose" vg diagnose "$FIX/vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt" --json
mkdir -p "$TMP/root/proc" "$TMP/root/sys/bus/pci/devices"
printf 'flags\t\t: fpu svm\n' >"$TMP/root/proc/cpuinfo"
printf 'root=/dev/sda1\n' >"$TMP/root/proc/cmdline"
check "valgrind: check --sysroot" vg check --sysroot "$TMP/root" --json
check "valgrind: gpus --sysroot (libpci)" vg gpus --sysroot "$TMP/root"
# the ESXi route through a sample host (a local runner, fork/exec, the
# stand-ins) and the Linux samples
export GPUWIZ_HOSTS_DIR="${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/data/hosts"
check "valgrind: check --sample-host (ESXi)" vg check --sample-host esxi-l40s --json
check "valgrind: gpus --sample-host (ESXi)" vg gpus --sample-host esxi-l40s --json
check "valgrind: vms --sample-host" vg vms --sample-host esxi-l40s
check "valgrind: passthru --enable" vg passthru --sample-host esxi-l40s --enable 0000:5e:00.0
check "valgrind: passthru refused (datastore controller)" vg passthru --sample-host esxi-l40s --enable 0000:04:00.0
check "valgrind: vmx --vm --upgrade-hw --write" vg vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --upgrade-hw --write
check "valgrind: check --sample-host (Linux)" vg check --sample-host amd-geforce-usb
check "valgrind: gpus --sample-host (Linux)" vg gpus --sample-host intel-2x-l40s --json
finish

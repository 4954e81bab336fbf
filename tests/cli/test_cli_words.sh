#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_cli_words.sh: what the commands print on the sample hosts (issue
# 12): never the wizard's keys ("Press e on this row", "按 e"), which only
# the wizard's rows say (finding fix_ui), and never a path into the
# sample's scratch copy, which is removed when the command ends: a Linux
# sample's paths are said as on that host (/sys/...), an ESXi sample's
# datastores as /vmfs/volumes/...  Every command, C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
langs=C.UTF-8
locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ] &&
	langs="C.UTF-8 zh_CN.UTF-8"

# words LANG HOST CMD...: the command's stdout and stderr hold no wizard
# key and no scratch path
words() {
	lang=$1; host=$2; shift 2
	run env LC_ALL=$lang "$GPUWIZ" "$@" --sample-host "$host"
	cat "$out" "$err" >"$TMP/both.txt"
	if grep -q 'Press \|按 e\|按 Enter\|在此行' "$TMP/both.txt"; then
		nok "$lang $host $*: no wizard key" "$(grep 'Press \|按 ' "$TMP/both.txt" | head -3)"
	else
		ok "$lang $host $*: no wizard key"
	fi
	if grep -qF "gpuwiz-sample." "$TMP/both.txt"; then
		nok "$lang $host $*: no scratch path" "$(grep -F gpuwiz-sample. "$TMP/both.txt" | head -3)"
	else
		ok "$lang $host $*: no scratch path"
	fi
}

for lang in $langs; do
	for h in intel-2x-l40s amd-geforce-usb intel-iommu-off-kernel; do
		words $lang $h check
		words $lang $h check --json
		words $lang $h gpus --json
		words $lang $h gpus
		words $lang $h verify
	done
	words $lang esxi-l40s check
	words $lang esxi-l40s gpus
	words $lang esxi-l40s vms
	words $lang esxi-l40s vms --json
	words $lang esxi-l40s vmx --vm 1
	words $lang esxi-l40s vmx --vm 2 --gpu l40s
	words $lang esxi-l40s vmx --vm 1 --gpu l40s --write
	words $lang esxi-l40s passthru --enable 0000:5e:00.0
done
# the check that says where the sample's IOMMU units are: as on the host
run "$GPUWIZ" check --sample-host intel-iommu-off-kernel
check "a Linux sample's path as on the host" grep -q '^  /sys/class/iommu lists no IOMMU unit' "$out"
run "$GPUWIZ" vmx --vm 1 --gpu l40s --write --sample-host esxi-l40s
check "an ESXi sample's .vmx as on the host" grep -q 'Saved .*/vmfs/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx (backup: /vmfs/volumes/' "$out"
check "the write itself still works" [ "$rc" -eq 0 ]
run "$GPUWIZ" gpus --sample-host intel-2x-l40s
check "a Linux sample's PCI devices as on the host" grep -q '^Display-class devices in /sys/bus/pci:' "$out"
finish

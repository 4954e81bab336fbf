#!/bin/sh
# Screen tests: the wizard in tmux (send-keys, capture-pane), in C.UTF-8
# and zh_CN.UTF-8.  Asserts on the screen text and on the files written.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

have_zh=0
locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ] && have_zh=1

# ---- 1. Enter alone walks an answers file to the written files ------------
enter_walk() { # LANG title-of-step-1 written-label
	lang=$1 t1=$2 written=$3
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	cp "$TMP/run/vm.vmx" "$TMP/vm.orig"
	printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	check "$lang: first screen" wait_for "$t1"
	n=0
	while [ $n -lt 7 ]; do keys Enter; n=$((n + 1)); done
	check "$lang: Enter x7 reaches step 8/8" wait_for "8/8"
	keys Enter
	check "$lang: Enter on step 8 writes" wait_for "$written"
	for f in gpuwiz.vmx.txt bosh-vm-extension.yml opsman-vm-extension.json tile-vm-type.yml; do
		check "$lang: wrote out/$f" [ -s "$TMP/run/out/$f" ]
	done
	check "$lang: the .vmx got the MMIO size" grep -aq 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/run/vm.vmx"
	check "$lang: original bytes kept as a prefix" sh -c "head -c \$(stat -c %s '$TMP/vm.orig') '$TMP/run/vm.vmx' | cmp -s - '$TMP/vm.orig'"
	check "$lang: backup has the original bytes" sh -c "cmp -s \$(ls '$TMP'/run/vm.vmx.*.bak | head -n 1) '$TMP/vm.orig'"
	check "$lang: outputs parse" python3 -c "
import json,yaml
d=yaml.safe_load(open('$TMP/run/out/bosh-vm-extension.yml'))
assert d['vm_extensions'][0]['cloud_properties']['pci_passthroughs']==[{'vendor_id':4318,'device_id':9913}]*2
json.load(open('$TMP/run/out/opsman-vm-extension.json'))
"
	check "$lang: the next steps name vim-cmd vmsvc/reload" on_screen "vmsvc/reload"
	keys Enter
	check "$lang: Enter on the result finishes" exited
	check "$lang: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored (stty -a unchanged)" terminal_sane
}
enter_walk C.UTF-8 "Step 1/8: Welcome" "Written:"
if [ $have_zh = 1 ]; then
	enter_walk zh_CN.UTF-8 "1/8" "已写入"
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi

finish

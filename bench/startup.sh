#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Start-up time, libraries and peak memory of gpuwiz next to dialog(1),
# the tool a shell-script wizard would use instead, in one run on the same
# machine, with the ratios (the budget: --version at most 2.5x dialog
# --version, at most 15 libraries initialised).
#   sh bench/startup.sh [path/to/gpuwiz]
# Needs hyperfine, dialog, GNU time and python3 (apt-get install hyperfine
# dialog time).  A benchmark, not a test: it prints numbers and asserts
# nothing.
set -eu
cd "$(dirname "$0")/.."
GPUWIZ=${1:-_build/plain/src/gpuwiz}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
export LC_ALL=C.UTF-8
for t in hyperfine dialog /usr/bin/time python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t (apt-get install hyperfine dialog time)"; exit 1; }
done
[ -x "$GPUWIZ" ] || { echo "build gpuwiz first: $GPUWIZ"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tail -n +2 tests/fixtures/vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx >"$tmp/vm.vmx"
ESXCLI=tests/fixtures/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt
# a vSphere command as far as the module and a refused connection (exit 2:
# hyperfine -i)
export GPUWIZ_PASSWORD=x
VS="$GPUWIZ vsphere --url https://127.0.0.1:1/sdk --user u --insecure list"

echo "== machine =="
uptime
echo
echo "== libraries initialised (LD_DEBUG=libs: 'calling init' lines) =="
libs() { # label command...
	label=$1; shift
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/ld" "$@" >/dev/null 2>&1 || :
	n=$(cat "$tmp"/ld.* 2>/dev/null | grep -c 'calling init:' || :)
	m=$(cat "$tmp"/ld.* 2>/dev/null | grep -c 'vsphere\.so' || :)
	rm -f "$tmp"/ld.*
	printf '%-36s %4s   %s\n' "$label" "$n" "$([ "$m" -gt 0 ] && echo 'module opened' || echo '')"
}
libs 'dialog --version' dialog --version
libs 'gpuwiz --version' "$GPUWIZ" --version
libs 'gpuwiz mmio --gpu l40s' "$GPUWIZ" mmio --gpu l40s
libs 'gpuwiz gpus --esxcli-file' "$GPUWIZ" gpus --esxcli-file "$ESXCLI"
# shellcheck disable=SC2086
libs 'gpuwiz vsphere list (no server)' $VS
printf '%-36s %4s\n' 'ldd gpuwiz (linked)' "$(ldd "$GPUWIZ" | wc -l)"

echo
echo "== start-up time (hyperfine, 5 warm-up runs, >= 200 runs each) =="
hyperfine -N -i --warmup 5 --min-runs 200 --export-json "$tmp/t.json" \
	-n 'dialog --version' 'dialog --version' \
	-n 'gpuwiz --version' "$GPUWIZ --version" \
	-n 'gpuwiz mmio --gpu l40s' "$GPUWIZ mmio --gpu l40s" \
	-n 'gpuwiz mmio --json --gpu h200-sxm=8' "$GPUWIZ mmio --json --gpu h200-sxm=8" \
	-n 'gpuwiz vmx (preview, 1 GPU)' "$GPUWIZ vmx $tmp/vm.vmx --gpu l40s" \
	-n 'gpuwiz gpus --esxcli-file' "$GPUWIZ gpus --esxcli-file $ESXCLI" \
	-n 'gpuwiz vsphere list (no server)' "$VS" >/dev/null 2>&1
python3 - "$tmp/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
base = r[0]["median"]
print("%-36s %12s %10s %14s" % ("command", "median [ms]", "max [ms]", "x dialog"))
for x in r:
    print("%-36s %12.2f %10.2f %13.2fx" % (x["command"], x["median"] * 1e3,
          x["max"] * 1e3, x["median"] / base))
PY

echo
echo "== peak resident memory (GNU time, max RSS) =="
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }
printf '%-36s %8s KiB\n' 'dialog --version' "$(rss dialog --version)"
printf '%-36s %8s KiB\n' 'gpuwiz --version' "$(rss "$GPUWIZ" --version)"
printf '%-36s %8s KiB\n' 'gpuwiz mmio --gpu l40s' "$(rss "$GPUWIZ" mmio --gpu l40s)"
printf '%-36s %8s KiB\n' 'gpuwiz vmx (preview, 1 GPU)' "$(rss "$GPUWIZ" vmx "$tmp/vm.vmx" --gpu l40s)"

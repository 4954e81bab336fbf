#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Start-up time, libraries and peak memory of gpuwiz next to dialog(1),
# the tool a shell-script wizard would use instead, in one run on the same
# machine, with the ratios (the budget: --version at most 2.5x dialog
# --version, at most 15 libraries initialised).
#   sh bench/startup.sh [path/to/gpuwiz]
# GPUWIZ_BEFORE=/path/to/old/gpuwiz adds the old build's rows, each right
# after the new build's (its table given with --table: GPUWIZ_BEFORE_TABLE,
# else the data/gpus.ini of its source tree; its module the one beside
# it), and the new build's ratio to it.
# Needs hyperfine, dialog, GNU time and python3 (apt-get install hyperfine
# dialog time).  A benchmark, not a test: it prints numbers and asserts
# nothing.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
GPUWIZ=${1:-_build/plain/src/gpuwiz}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
export LC_ALL=C.UTF-8
for t in hyperfine dialog /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t (apt-get install hyperfine dialog time)"; exit 1; }
done
bench_python
[ -x "$GPUWIZ" ] || { echo "build gpuwiz first: $GPUWIZ"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bench_before
# the old build with its own table (--table, not env: env would add an
# exec to its time and its libraries) and the module found beside it
[ -z "$BEFORE" ] || OLD="$BEFORE --table $BEFORE_TABLE"
tail -n +2 tests/fixtures/vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx >"$tmp/vm.vmx"
ESXCLI=tests/fixtures/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt
# a vSphere command as far as the module and a refused connection (exit 2:
# hyperfine -i)
export GPUWIZ_PASSWORD=x
VSARGS="vsphere --url https://127.0.0.1:1/sdk --user u --insecure list"

echo "== machine =="
bench_load
bench_peer dialog dialog
bench_peer hyperfine hyperfine
bench_peer 'GNU time' /usr/bin/time
bench_peer python "$BENCH_PY"
bench_programs
echo
echo "== libraries initialised (LD_DEBUG=libs: 'calling init' lines) =="
libs() { # label command...
	label=$1; shift
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/ld" "$@" >/dev/null 2>&1 || :
	n=$(cat "$tmp"/ld.* 2>/dev/null | grep -c 'calling init:' || :)
	m=$(cat "$tmp"/ld.* 2>/dev/null | grep -c 'vsphere\.so' || :)
	rm -f "$tmp"/ld.*
	printf '%-44s %4s   %s\n' "$label" "$n" "$([ "$m" -gt 0 ] && echo 'module opened' || echo '')"
}
# both builds, the old one's row right after the new one's
libs2() { # label, arguments...
	label=$1; shift
	libs "$label" "$GPUWIZ" "$@"
	[ -z "$BEFORE" ] || libs "before: $label" $OLD "$@"
}
libs 'dialog --version' dialog --version
libs2 'gpuwiz --version' --version
libs2 'gpuwiz mmio --gpu l40s' mmio --gpu l40s
libs2 'gpuwiz gpus --esxcli-file' gpus --esxcli-file "$ESXCLI"
# shellcheck disable=SC2086
libs2 'gpuwiz vsphere list (no server)' $VSARGS
printf '%-44s %4s\n' 'ldd gpuwiz (linked)' "$(ldd "$GPUWIZ" | wc -l)"

echo
echo "== start-up time (hyperfine, 5 warm-up runs, >= 200 runs each) =="
# each command of gpuwiz, then the old build's ("before: ..."), so that
# both see the same load
set -- -n 'dialog --version' 'dialog --version'
for row in \
	'gpuwiz --version|--version' \
	'gpuwiz mmio --gpu l40s|mmio --gpu l40s' \
	'gpuwiz mmio --json --gpu h200-sxm=8|mmio --json --gpu h200-sxm=8' \
	"gpuwiz vmx (preview, 1 GPU)|vmx $tmp/vm.vmx --gpu l40s" \
	"gpuwiz gpus --esxcli-file|gpus --esxcli-file $ESXCLI" \
	"gpuwiz vsphere list (no server)|$VSARGS"; do
	label=${row%%|*} args=${row#*|}
	set -- "$@" -n "$label" "$GPUWIZ $args"
	[ -z "$BEFORE" ] || set -- "$@" -n "before: $label" "$OLD $args"
done
hyperfine -N -i --warmup 5 --min-runs 200 --export-json "$tmp/t.json" "$@" >/dev/null 2>&1
"$BENCH_PY" - "$tmp/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
base = r[0]["median"]
med = {x["command"]: x["median"] for x in r}
print("%-44s %12s %10s %10s %10s" % ("command", "median [ms]", "max [ms]", "x dialog", "x before"))
for x in r:
    b = med.get("before: " + x["command"])
    print("%-44s %12.2f %10.2f %9.2fx %10s" % (x["command"], x["median"] * 1e3,
          x["max"] * 1e3, x["median"] / base, "%.2fx" % (x["median"] / b) if b else ""))
PY

echo
echo "== peak resident memory (GNU time, max RSS) =="
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }
rss2() { # label, arguments...
	label=$1; shift
	printf '%-44s %8s KiB\n' "$label" "$(rss "$GPUWIZ" "$@")"
	[ -z "$BEFORE" ] || printf '%-44s %8s KiB\n' "before: $label" \
		"$(rss $OLD "$@")"
}
printf '%-44s %8s KiB\n' 'dialog --version' "$(rss dialog --version)"
rss2 'gpuwiz --version' --version
rss2 'gpuwiz mmio --gpu l40s' mmio --gpu l40s
rss2 'gpuwiz vmx (preview, 1 GPU)' vmx "$tmp/vm.vmx" --gpu l40s
echo
bench_load

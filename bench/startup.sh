#!/bin/sh
# Start-up time and peak memory of gpuwiz next to dialog(1), the tool a
# shell-script wizard would use instead, in one run on the same machine.
#   sh bench/startup.sh [path/to/gpuwiz]
# Needs hyperfine, dialog and GNU time (apt-get install hyperfine dialog time).
# A benchmark, not a test: it prints numbers and asserts nothing.
set -eu
cd "$(dirname "$0")/.."
GPUWIZ=${1:-_build/plain/src/gpuwiz}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$PWD/data/gpus.ini}
export LC_ALL=C.UTF-8
for t in hyperfine dialog /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || { echo "missing: $t (apt-get install hyperfine dialog time)"; exit 1; }
done
[ -x "$GPUWIZ" ] || { echo "build gpuwiz first: $GPUWIZ"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tail -n +2 tests/fixtures/vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx >"$tmp/vm.vmx"

echo "== start-up time (hyperfine, 5 warm-up runs, >= 200 runs each) =="
hyperfine -N --warmup 5 --min-runs 200 --export-markdown "$tmp/t.md" \
	-n 'dialog --version' 'dialog --version' \
	-n 'gpuwiz --version' "$GPUWIZ --version" \
	-n 'gpuwiz mmio --gpu l40s' "$GPUWIZ mmio --gpu l40s" \
	-n 'gpuwiz mmio --json --gpu h200-sxm=8' "$GPUWIZ mmio --json --gpu h200-sxm=8" \
	-n 'gpuwiz vmx (preview, 1 GPU)' "$GPUWIZ vmx $tmp/vm.vmx --gpu l40s" >/dev/null
cat "$tmp/t.md"

echo
echo "== peak resident memory (GNU time, max RSS) =="
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }
printf '%-36s %8s KiB\n' 'dialog --version' "$(rss dialog --version)"
printf '%-36s %8s KiB\n' 'gpuwiz --version' "$(rss "$GPUWIZ" --version)"
printf '%-36s %8s KiB\n' 'gpuwiz mmio --gpu l40s' "$(rss "$GPUWIZ" mmio --gpu l40s)"
printf '%-36s %8s KiB\n' 'gpuwiz vmx (preview, 1 GPU)' "$(rss "$GPUWIZ" vmx "$tmp/vm.vmx" --gpu l40s)"

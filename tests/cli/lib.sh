# SPDX-License-Identifier: GPL-3.0-or-later
# lib.sh: helpers for the command-level tests (sourced).
# Each check prints "ok - name" or "not ok - name"; the script ends with
# "N passed, N failed" and exits non-zero when something failed.
set -u
GPUWIZ=${GPUWIZ_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/src/gpuwiz}
FIX=${GW_FIXTURES:-$(cd "$(dirname "$0")/.." && pwd)/fixtures}
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$(cd "$(dirname "$0")/../.." && pwd)/data/gpus.ini}
export LC_ALL=C.UTF-8
unset LANGUAGE LANG
PASS=0
FAIL=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwcli.XXXXXX")
# at_exit CMD: run CMD (evaluated then) when the test exits, before $TMP is
# removed; the last registered runs first.  The one EXIT trap, so that a
# helper (a tmux server, an sshd) never drops another's clean-up.
GW_AT_EXIT=:
at_exit() { GW_AT_EXIT="$1; $GW_AT_EXIT"; }
# A test that leaves something behind fails (doc/design.md, section 13): after the
# clean-ups, no process may still name $TMP (a tmux server on its socket,
# an sshd on its config, a pane's shell and its sleep), and no sample
# host's scratch copy may be left (a command removes its own; the wizard
# keeps its copy on purpose: the screen tests set GW_SCRATCH_KEPT).
# gw_ours: the pids of the processes started with this test's TMPDIR (every
# one the test started, however far down) or naming $TMP on their command
# line, and the test's own children still running (one just forked has
# not its environment yet); grep runs without TMPDIR so that it does not
# find itself, and pgrep leaves itself out.
gw_ours() {
	gw_env=$(env -u TMPDIR grep -lsazF "TMPDIR=$TMP" /proc/[0-9]*/environ)
	gw_cmd=$(pgrep -f -- "$TMP")
	gw_kids=$(pgrep -P $$)
	read -r gw_self gw_rest </proc/self/stat   # this subshell, a child too
	for p in $(echo "$gw_env" | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p') $gw_cmd $gw_kids; do
		[ "$p" = $$ ] || [ "$p" = "$gw_self" ] || [ ! -d "/proc/$p" ] || echo "$p"
	done | sort -u
}
gw_leaks() {
	i=0
	while pids=$(gw_ours) && [ -n "$pids" ] && [ $i -lt 40 ]; do
		sleep 0.05; i=$((i + 1))   # a killed server may take a moment
	done
	leak=0
	if [ -n "$pids" ]; then
		echo "not ok - leak: still running at exit:"
		ps -o pid=,args= -p "$(echo $pids | tr ' ' ,)" 2>/dev/null | sed 's/^/   /'
		for p in $pids; do kill "$p" 2>/dev/null; done
		leak=1
	fi
	left=$(find "$TMP" -maxdepth 2 -name 'gpuwiz-sample.*' 2>/dev/null)
	if [ -z "${GW_SCRATCH_KEPT:-}" ] && [ -n "$left" ]; then
		echo "not ok - leak: a sample host's scratch copy is left:"
		echo "$left" | sed 's/^/   /'
		leak=1
	fi
	return $leak
}
trap 'gw_st=$?; eval "$GW_AT_EXIT"; gw_leaks || gw_st=1; rm -rf "$TMP"; exit $gw_st' EXIT
# What gpuwiz and the tools leave in $TMPDIR (a sample host's scratch copy,
# which the wizard keeps on purpose) goes under $TMP and with it.
mkdir -p "$TMP/tmpdir"
export TMPDIR="$TMP/tmpdir"
# tmux puts its servers' sockets under TMUX_TMPDIR (else /tmp/tmux-UID,
# where a killed server leaves its socket): in $TMP they go with it.  No
# Python a test runs writes __pycache__ beside its source.
export TMUX_TMPDIR="$TMP" PYTHONDONTWRITEBYTECODE=1

ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
nok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ $# -gt 1 ] && printf '   %s\n' "$2"; return 0; }
check() { # name, command...
	name=$1; shift
	if "$@"; then ok "$name"; else nok "$name"; fi
}

# run CMD...: sets $rc, $out (stdout file), $err (stderr file)
run() {
	out=$TMP/out.$$; err=$TMP/err.$$
	"$@" >"$out" 2>"$err"
	rc=$?
}
has() { grep -qF -- "$1" "$out"; }
errhas() { grep -qF -- "$1" "$err"; }
err_one_line() { [ "$(wc -l <"$err")" -eq 1 ]; }

# sample FIXTURE DEST: the fixture without its "# source:" first line
sample() { tail -n +2 "$FIX/$1" >"$2"; }

# valgrind_usable: $VALGRIND (configure's) runs here and the build has no
# sanitizer (ASan and valgrind do not mix): a test's memcheck part runs
valgrind_usable() {
	[ -n "${VALGRIND:-}" ] && command -v "$VALGRIND" >/dev/null 2>&1 &&
		[ -z "${GW_SANITIZED:-}" ]
}

# need_vsphere: skip the test (77) in a build configured --without-vsphere
# (GW_WITH_VSPHERE=no, set by make check)
need_vsphere() {
	if [ "${GW_WITH_VSPHERE:-yes}" = no ]; then
		echo "SKIP: this build has no vSphere module (configured --without-vsphere)"
		exit 77
	fi
}

finish() {
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}

# need_valgrind: skip the test (77) without valgrind or in a sanitizer
# build (ASan and valgrind do not mix)
need_valgrind() {
	if [ -n "${GW_SANITIZED:-}" ]; then
		echo "SKIP: sanitizer build (ASan and valgrind do not mix)"; exit 77
	fi
	if ! command -v "${VALGRIND:-valgrind}" >/dev/null 2>&1; then
		echo "SKIP: valgrind not installed (apt-get install valgrind)"; exit 77
	fi
}
# instr VAR CMD...: VAR set to the instructions CMD executes (valgrind's
# cachegrind, the "I refs" total), instr_rc to CMD's exit status; CMD's
# output thrown away
instr() {
	instr_var=$1
	shift
	"${VALGRIND:-valgrind}" --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$@" >/dev/null 2>"$TMP/instr.err"
	instr_rc=$?
	eval "$instr_var=\$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' \"\$TMP/instr.err\" | tr -d ,)"
}
# linear NAME C1 C2 C8: costs at 1, 2 and 8 units of input: the cost per
# unit from 2 to 8 is at most 1.2 times the cost per unit from 1 to 2
# (linear: about 1; a cost that grows with the square: about 3)
linear() {
	check "$1: linear ($2 / $3 / $4 instructions at 1x / 2x / 8x)" awk \
		-v a="$2" -v b="$3" -v c="$4" \
		'BEGIN { exit !(a > 0 && b > a && (c - b) / 6 <= 1.2 * (b - a)) }'
}

# gpuwiz gpus prints one layout whatever the back end (src/report/
# gpus_print.h): gpus_layout TEXT JSON checks the text's heading and
# column names and the JSON's keys, top level and per GPU (a list with at
# least one GPU).
GPUS_COLUMNS="Address VMX id PCI id Name VRAM 64-bit BARs IOMMU group Driver Passthrough"
GPUS_KEYS="file gpus mmio_size_gb notes"
GPUS_GPU_KEYS="bdf vmx_id vendor_id device_id subvendor_id subdevice_id name table_id vram_gb bars iommu_group iommu_group_devices driver passthru_capable passthru_enabled configured_owner current_owner counted_in_mmio"
gpus_layout() {
	sed -n '1p' "$1" | grep -q '^Display-class devices in .*:$' &&
	[ "$(sed -n '2p' "$1" | tr -s ' ' | sed 's/^ //')" = "$GPUS_COLUMNS" ] &&
	grep -q '^64-bit MMIO' "$1" &&
	python3 - "$2" "$GPUS_KEYS" "$GPUS_GPU_KEYS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == sys.argv[2].split(), list(d)
assert d["gpus"], "no GPU"
for g in d["gpus"]:
    assert list(g) == sys.argv[3].split(), list(g)
    assert all(len(g[k]) == 4 for k in ("vendor_id", "device_id")), g
PY
}
# hot_off FILE: FILE with its hot-add lines as a passthrough write leaves
# them (rewritten "FALSE" in place, doc/design.md section 15.3)
hot_off() { sed 's/^\(mem\|vcpu\)\.hotadd = "TRUE"/\1.hotadd = "FALSE"/' "$1"; }

# zh_checks: ZH=1 when the zh_CN.UTF-8 locale and the build's catalogue
# are here (else 0, said once); zh CMD...: run CMD in Simplified Chinese
zh_checks() {
	ZH=1
	if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' ||
	   [ ! -f "${GPUWIZ_LOCALEDIR:-/nonexistent}/zh_CN/LC_MESSAGES/gpuwiz.mo" ]; then
		ZH=0
		echo "# zh_CN.UTF-8 or the catalogue missing: Chinese checks skipped"
	fi
}
zh() { run env -u LC_ALL LANG=zh_CN.UTF-8 "$@"; }

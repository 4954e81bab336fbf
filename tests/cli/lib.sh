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
trap 'eval "$GW_AT_EXIT"; rm -rf "$TMP"' EXIT
# What gpuwiz and the tools leave in $TMPDIR (a sample host's scratch copy,
# which the wizard keeps on purpose) goes under $TMP and with it.
mkdir -p "$TMP/tmpdir"
export TMPDIR="$TMP/tmpdir"

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

finish() {
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}

# SPDX-License-Identifier: GPL-3.0-or-later
# vcsim.sh: the vSphere simulator for a test (sourced after lib.sh).
#
#   vcsim_start [FLAGS...]   build tests/vcsim/vcsim-gpuwiz if needed and
#                            start it with FLAGS (-model esx|vpx, -vms N,
#                            -on N, -user U, -pass P, -fail METHOD=FAULT,
#                            -die-after METHOD); exports
#                              VC_URL    https://127.0.0.1:PORT/sdk
#                              VC_THUMB  SHA-256 of its certificate
#                              VC_CERT   the certificate (PEM)
#                              VC_PID    its process id
#                              VC_VMS    its VM names, one per line
#                              VC_MODEL, VC_HOSTS (host count)
#                              VC_REQUESTS the -request-log file: the
#                                        method of each SOAP request
#   vcsim_requests [METHOD]  how many requests (of METHOD) it has answered
#   vcsim_stop               stop it (EOF on its stdin, TERM after 5 s)
#   vcsim_usable             0 when it is built or can be (a Go
#                            toolchain): for a test that leaves out its
#                            API part otherwise
#
# The simulator reads its stdin from a fifo whose writing end this shell
# holds open on fd 7: when the test script ends, however it ends, the
# simulator sees EOF and exits.  The whole script is skipped (exit 77)
# when tests/vcsim/build.sh exits 77 (no Go toolchain or no govmomi).
# One simulator at a time per script.

VC_SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# GPUWIZ (lib.sh) is $(abs_top_builddir)/src/gpuwiz under make check.
VC_BUILDDIR=$(cd "$(dirname "$GPUWIZ")/.." 2>/dev/null && pwd || echo "$VC_SRC")
VCSIM_BIN=${VCSIM_BIN:-$VC_BUILDDIR/tests/vcsim/vcsim-gpuwiz}
VC_PID=
VC_DIR=

vcsim_usable() {
	[ "${GW_WITH_VSPHERE:-yes}" != no ] || return 1
	command -v go >/dev/null 2>&1 || [ -x "$VCSIM_BIN" ]
}

# True when the binary is missing or older than a source of it.
vcsim_stale() {
	[ -x "$VCSIM_BIN" ] || return 0
	[ -n "$(find "$VC_SRC/tests/vcsim" -maxdepth 1 -type f \( -name '*.go' -o -name build.sh \) \
		-newer "$VCSIM_BIN" 2>/dev/null | head -n 1)" ]
}

vcsim_build() {
	need_vsphere   # (lib.sh) no client to talk to it
	vcsim_stale || return 0
	mkdir -p "$(dirname "$VCSIM_BIN")" || return 1
	[ -f "$VC_SRC/tests/vcsim/build.sh" ] || {
		echo "SKIP: $VC_SRC/tests/vcsim/build.sh not found"; exit 77; }
	# Tests run in parallel: one build at a time, the others wait and
	# then find it fresh.
	(
		if command -v flock >/dev/null 2>&1; then
			flock 9 || exit 1
		fi
		vcsim_stale || exit 0
		# build.sh writes a temporary file and renames it: a test
		# never sees half a binary
		sh "$VC_SRC/tests/vcsim/build.sh" "$VCSIM_BIN" >"$TMP/vcsim-build.log" 2>&1
	) 9>"$(dirname "$VCSIM_BIN")/.build.lock"
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "SKIP: the vSphere simulator cannot be built here:"
		sed 's/^/   /' "$TMP/vcsim-build.log" | tail -n 5
		exit 77
	fi
	if [ "$rc" -ne 0 ]; then
		echo "not ok - build the vSphere simulator (exit $rc)"
		sed 's/^/   /' "$TMP/vcsim-build.log" | tail -n 20
		return 1
	fi
	return 0
}

# vcsim_start [FLAGS...]: 0 when it runs and the VC_* variables are set.
vcsim_start() {
	vcsim_stop
	vcsim_build || return 1
	VC_DIR=$(mktemp -d "$TMP/vcsim.XXXXXX") || return 1
	mkfifo "$VC_DIR/in" || return 1
	VC_REQUESTS=$VC_DIR/requests
	"$VCSIM_BIN" -cert-out "$VC_DIR/cert.pem" -request-log "$VC_REQUESTS" "$@" \
		<"$VC_DIR/in" >"$VC_DIR/out" 2>"$VC_DIR/err" &
	VC_PID=$!
	# Opening the fifo unblocks the simulator's own open of its stdin.
	exec 7>"$VC_DIR/in"
	i=0
	while [ "$i" -lt 300 ]; do
		if grep -q '^{' "$VC_DIR/out" 2>/dev/null; then
			break
		fi
		if ! kill -0 "$VC_PID" 2>/dev/null; then
			echo "   vcsim-gpuwiz $* exited before it printed its line:"
			sed 's/^/   /' "$VC_DIR/err" | tail -n 10
			VC_PID=
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	grep '^{' "$VC_DIR/out" | head -n 1 >"$VC_DIR/line.json"
	if ! [ -s "$VC_DIR/line.json" ]; then
		echo "   vcsim-gpuwiz $* printed no JSON line in 30 s"
		return 1
	fi
	# shellcheck disable=SC2046
	eval "$(python3 - "$VC_DIR/line.json" <<'PY'
import json, shlex, sys
d = json.load(open(sys.argv[1]))
def out(k, v):
    print("%s=%s" % (k, shlex.quote(str(v))))
out("VC_URL", d["url"])
out("VC_THUMB", d["thumbprint"])
out("VC_MODEL", d.get("model", ""))
hosts = d.get("hosts", [])
out("VC_HOSTS", len(hosts) if isinstance(hosts, list) else hosts)
vms = d.get("vms", [])
names = [v["name"] if isinstance(v, dict) else str(v) for v in vms] if isinstance(vms, list) else []
out("VC_VMS", "\n".join(names))
PY
)" || return 1
	VC_CERT=$VC_DIR/cert.pem
	export VC_URL VC_THUMB VC_CERT VC_PID VC_VMS VC_MODEL VC_HOSTS VC_REQUESTS
	return 0
}

# vcsim_requests [METHOD]: the requests answered so far (of METHOD only).
vcsim_requests() {
	if [ $# -eq 0 ]; then
		wc -l <"$VC_REQUESTS" | tr -d ' '
	else
		grep -cx -- "$1" "$VC_REQUESTS"
	fi
}

# The simulator's stderr so far (for failure details).
vcsim_log() {
	[ -n "$VC_DIR" ] && [ -f "$VC_DIR/err" ] && tail -n "${1:-20}" "$VC_DIR/err"
}

vcsim_stop() {
	[ -n "$VC_PID" ] || return 0
	exec 7>&-
	i=0
	while kill -0 "$VC_PID" 2>/dev/null && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$VC_PID" 2>/dev/null; then
		kill -TERM "$VC_PID" 2>/dev/null
		sleep 0.5
		kill -KILL "$VC_PID" 2>/dev/null
	fi
	wait "$VC_PID" 2>/dev/null
	VC_PID=
	return 0
}

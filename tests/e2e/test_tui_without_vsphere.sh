#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The wizard of a build configured --without-vsphere (doc/design.md,
# section 2.6): the vCenter/ESXi API route, focused, says under the list
# that this build has no vSphere module; Enter on it opens no box, says
# the same line and stays on the welcome step; the wizard goes on (q
# quits, exit 0, terminal restored).  C.UTF-8 and zh_CN.UTF-8 at 100x30.
# Skipped in a build with the module (tests/run-all.sh runs it in one
# without).
. "$(dirname "$0")/../cli/lib.sh"
if [ "${GW_WITH_VSPHERE:-yes}" != no ]; then
	echo "SKIP: this build has the vSphere module (tests/run-all.sh runs this in a --without-vsphere build)"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

# to_route LINE: Up, then Down (at most 12 each) until LINE (the focused
# row's sentence) is on the screen
to_route() {
	for k in Up Down; do
		i=0
		while [ $i -lt 12 ]; do
			on_joined "$1" && return 0
			keys $k; i=$((i + 1))
		done
	done
	return 1
}

for lang in $langs; do
	route=$(tr_ "$lang" "vCenter or ESXi through the API")
	line=$(tr_ "$lang" "this build of gpuwiz has no vSphere module (configured --without-vsphere): the vSphere API (gpuwiz vsphere, --url, the wizard's vSphere route) is not available; use --ssh or a build with the module")
	start "$lang" 100x30
	wait_for "$route" || nok "$lang: the welcome step shows the API route"
	check "$lang: focused, the route says this build has no vSphere module" to_route "$line"
	keys Enter
	sleep 0.5
	screen
	check "$lang: Enter opens no connection box (no URL field)" sh -c "! grep -qE '^ *URL|URL:' '$SCREEN'"
	check "$lang: still on the welcome step" grep -qF "$(st WELCOME)" "$SCREEN"
	check "$lang: the line is on the screen" on_joined "$line"
	check "$lang: gpuwiz still runs" sh -c "[ ! -f '$TMP/exit' ]"
	keys q
	exited 10 || true
	check "$lang: q quits, exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored" terminal_sane
done
finish

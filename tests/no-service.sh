# SPDX-License-Identifier: GPL-3.0-or-later
# no-service.sh: tests/deps.sh's apt-get install starts and enables no
# service (sourced).  openssh-server, for one, would start an sshd on port
# 22 and enable it for every boot; the tests start their own sshd on a free
# port of 127.0.0.1 (tests/cli/sshd.sh) and need none of it.
#
#   nosvc_begin PKG...  before the install: notes which of PKG are not
#                       installed yet, and puts a policy-rc.d in place that
#                       answers 101 (invoke-rc.d(8) and deb-systemd-invoke:
#                       "action not allowed"), the one already there set
#                       aside; nosvc_end runs at exit whatever happens
#   nosvc_end           after it: the set-aside policy-rc.d back (or none),
#                       and the services of the packages this install added
#                       disabled (deb-systemd-helper for their systemd units,
#                       update-rc.d for their init scripts), so that a boot
#                       starts none of them either.  A package that was
#                       there before keeps its state.
# NOSVC_ROOT: where policy-rc.d is looked for ("" = /; tests/cli/test_deps.sh
# gives a scratch directory).
NOSVC_POLICY=${NOSVC_ROOT:-}/usr/sbin/policy-rc.d
NOSVC_SAVED=$NOSVC_POLICY.gpuwiz-saved
NOSVC_NEW=
NOSVC_ON=0

nosvc_installed() { # PKG: 0 when it is installed
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'
}

nosvc_begin() {
	NOSVC_NEW=
	for nosvc_p in "$@"; do
		nosvc_installed "$nosvc_p" || NOSVC_NEW="$NOSVC_NEW $nosvc_p"
	done
	trap 'nosvc_end' EXIT
	trap 'nosvc_end; exit 129' HUP
	trap 'nosvc_end; exit 130' INT
	trap 'nosvc_end; exit 143' TERM
	mkdir -p "${NOSVC_POLICY%/*}"
	# a policy left by an interrupted run is not the machine's own
	if [ ! -e "$NOSVC_SAVED" ] && { [ -e "$NOSVC_POLICY" ] || [ -L "$NOSVC_POLICY" ]; }; then
		mv "$NOSVC_POLICY" "$NOSVC_SAVED"
	fi
	NOSVC_ON=1
	printf '#!/bin/sh\n# tests/deps.sh (tests/no-service.sh): no service starts during its install\nexit 101\n' \
		>"$NOSVC_POLICY"
	chmod 755 "$NOSVC_POLICY"
}

nosvc_end() {
	trap - EXIT HUP INT TERM
	[ "$NOSVC_ON" = 1 ] || return 0
	NOSVC_ON=0
	rm -f "$NOSVC_POLICY"
	if [ -e "$NOSVC_SAVED" ] || [ -L "$NOSVC_SAVED" ]; then
		mv "$NOSVC_SAVED" "$NOSVC_POLICY"
	fi
	for nosvc_p in $NOSVC_NEW; do
		nosvc_installed "$nosvc_p" || continue
		for nosvc_f in $(dpkg -L "$nosvc_p" 2>/dev/null); do
			case $nosvc_f in
			/lib/systemd/system/*.service | /lib/systemd/system/*.socket | \
			/lib/systemd/system/*.timer | /usr/lib/systemd/system/*.service | \
			/usr/lib/systemd/system/*.socket | /usr/lib/systemd/system/*.timer)
				deb-systemd-helper disable "${nosvc_f##*/}" >/dev/null 2>&1 || : ;;
			/etc/init.d/*)
				update-rc.d "${nosvc_f##*/}" disable >/dev/null 2>&1 || : ;;
			esac
		done
	done
	return 0
}

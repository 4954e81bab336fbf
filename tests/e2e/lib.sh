# SPDX-License-Identifier: GPL-3.0-or-later
# lib.sh: helpers for the screen tests driven by tmux (sourced after
# tests/cli/lib.sh).  Each test runs gpuwiz in its own tmux server (private
# socket) at a fixed size, sends keys, and reads the screen with
# capture-pane -p.
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux not installed"; exit 77; }
# the pane runs the wizard from a bash script (start)
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash not installed"; exit 77; }
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# no host of the test machine's: the wizard plans offline unless a test
# gives it a host
export GPUWIZ_SYSROOT="$TMP/no-such-root"
# have_zh: 1 when the zh_CN.UTF-8 locale and the build's catalogue are
# here; langs: the languages a screen test runs in
have_zh=0
locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ] && have_zh=1
langs=C.UTF-8
[ $have_zh = 1 ] && langs="C.UTF-8 zh_CN.UTF-8" || echo "# zh_CN.UTF-8 locale or catalogue missing: C.UTF-8 only"
SOCK=gwtest$$
# (the servers' sockets are in $TMP: TMUX_TMPDIR, tests/cli/lib.sh)
T="tmux -L $SOCK"
at_exit '$T kill-server 2>/dev/null'
# the wizard keeps a sample host's scratch copy (it holds what was written
# and the screens show its path); it is in $TMP and goes with it
GW_SCRATCH_KEPT=1
SCREEN=$TMP/screen.txt
# The wizard's steps from its step table (src/wizard/steps.def: one
# "GW_STEP(ID," row per step, in order, which the program's gw_step enum
# and its "Step k/N" line are made of; test_wizard's test_step_table
# checks this count against GW_NSTEPS).
GW_STEPS_DEF=$SRC/src/wizard/steps.def
GW_NSTEPS=$(grep -c '^GW_STEP(' "$GW_STEPS_DEF")
[ "${GW_NSTEPS:-0}" -gt 0 ] || { echo "cannot read the step table"; exit 99; }
# stn ID|K: the step's number (ID: its row, GW_STEP_<ID>; K: itself)
stn() {
	case $1 in
	[0-9]*) echo "$1" ;;
	*) grep '^GW_STEP(' "$GW_STEPS_DEF" | grep -n "^GW_STEP($1," | cut -d: -f1 ;;
	esac
}
# st ID|K: "k/N", the step's counter on the title line ("Step k/N: TITLE")
st() {
	k=$(stn "$1")
	[ -n "$k" ] || { echo "st: no step $1 in $GW_STEPS_DEF" >&2; return 1; }
	printf '%s/%s' "$k" "$GW_NSTEPS"
}
# enters FROM TO: Enter once per step from step FROM to step TO (ids)
enters() {
	e_n=$(( $(stn "$2") - $(stn "$1") ))
	while [ "$e_n" -gt 0 ]; do keys Enter; e_n=$((e_n - 1)); done
}

# start LANG WxH [gpuwiz args...]: a session "w" running gpuwiz in $TMP/run;
# when gpuwiz exits the pane prints its exit status and `stty -a`, then
# waits, so both can be read back.
start() {
	lang=$1; size=$2; shift 2
	w=${size%x*}; h=${size#*x}
	mkdir -p "$TMP/run"
	cat >"$TMP/run.sh" <<EOS
# the shell must outlive a Ctrl-C sent to gpuwiz, to record what follows;
# a trap, not an ignore: gpuwiz gets Ctrl-C as from a login shell (an
# ignored SIGINT stays ignored in a command)
trap : INT
# a trap, not an ignore: gpuwiz gets Ctrl-\\ (SIGQUIT) as from a login shell
trap : QUIT
cd "$TMP/run"
export LANG=$lang LC_ALL=$lang GPUWIZ_TABLE="$GPUWIZ_TABLE" GPUWIZ_LOCALEDIR="${GPUWIZ_LOCALEDIR:-}"
unset LANGUAGE NO_COLOR
${GW_NO_COLOR:+export NO_COLOR=1}
stty sane
stty -a >"$TMP/stty.before"
${GW_WRAP:-} "$GPUWIZ" "\$@"
echo "EXIT=\$?" >"$TMP/exit"
stty -a >"$TMP/stty.after"
echo "GPUWIZ-EXITED"
sleep 600
EOS
	# a fresh tmux server (its own socket) for every run: reusing a socket
	# right after kill-server races with the old server's exit
	$T kill-server 2>/dev/null || true
	SOCKN=$(( ${SOCKN:-0} + 1 ))
	T="tmux -L $SOCK-$SOCKN"
	rm -f "$TMP/exit" "$TMP/stty.after"
	# tmux sets TERM (tmux-256color, from ncurses-base) for the pane
	tries=0
	until $T -f /dev/null new-session -d -s w -x "$w" -y "$h" bash "$TMP/run.sh" "$@"; do
		tries=$((tries + 1))
		[ $tries -lt 3 ] || return 1
		sleep 0.3
	done
}

# screen: capture the pane into $SCREEN
screen() { $T capture-pane -p -t w >"$SCREEN" 2>/dev/null; }

# wait_for TEXT [seconds]: until TEXT is on the screen (fixed string)
wait_for() {
	want=$1; limit=${2:-10}; i=0
	while [ $i -lt $((limit * 20)) ]; do
		screen
		grep -qF -- "$want" "$SCREEN" && return 0
		sleep 0.05; i=$((i + 1))
	done
	echo "   --- screen (waiting for '$want') ---"; sed 's/^/   |/' "$SCREEN"
	return 1
}

# keys KEY...: tmux send-keys (names like Enter, Escape, Tab, BTab, Up, F1)
keys() { $T send-keys -t w "$@"; sleep 0.15; }
# type TEXT literally
typ() { $T send-keys -t w -l "$1"; sleep 0.15; }

on_screen() { screen; grep -qF -- "$1" "$SCREEN"; }

# exited: gpuwiz has exited (pane printed the marker); sets $exit_status
exited() {
	wait_for GPUWIZ-EXITED "${1:-10}" >/dev/null || return 1
	exit_status=$(sed -n 's/^EXIT=//p' "$TMP/exit")
	return 0
}

# terminal_sane: the stty settings after gpuwiz equal those before it
terminal_sane() { cmp -s "$TMP/stty.before" "$TMP/stty.after"; }

# alt_screen_off: the pane shows the normal screen (curses left the
# alternate one); cursor_shown: the terminal cursor is visible again
alt_screen_off() { [ "$($T display -p -t w '#{alternate_on}')" = 0 ]; }
cursor_shown() { [ "$($T display -p -t w '#{cursor_flag}')" = 1 ]; }

resize() { $T resize-window -t w -x "$1" -y "$2" 2>/dev/null || $T resize-pane -t w -x "$1" -y "$2"; sleep 0.3; }

# gpuwiz_pid: the pid of gpuwiz in the pane (a child of the pane's shell)
gpuwiz_pid() {
	shell=$($T list-panes -t w -F '#{pane_pid}' | head -n 1)
	pgrep -P "$shell" -x gpuwiz | head -n 1
}

# find_in_pages TEXT: on this page or after up to 4 PageDowns
find_in_pages() {
	p=0
	while [ $p -lt 5 ]; do
		on_screen "$1" && return 0
		keys PageDown; p=$((p + 1))
	done
	return 1
}

# pages_joined OUT: the screen rows of this page and up to 4 more
# (PageDown between) as one line, borders and repeated blanks squeezed out
# (text that wraps at words reads whole), into OUT
pages_joined() {
	: >"$1.raw"
	p=0
	while [ $p -lt 5 ]; do
		screen; cat "$SCREEN" >>"$1.raw"
		keys PageDown; p=$((p + 1))
	done
	sed 's/[│┃|]/ /g' "$1.raw" | tr '\n' ' ' | tr -s ' ' >"$1"
}

# joined: the screen's rows as one line, borders and blanks taken out (a
# sentence wrapped between words or between Chinese characters reads
# whole); on_joined TEXT compares TEXT without its blanks
joined() { screen; sed 's/[│┃|]//g' "$SCREEN" | tr -d ' \n'; }
on_joined() { joined | grep -qF -- "$(printf '%s' "$1" | tr -d ' ')"; }
# wait_fn FN TEXT [seconds]: until FN TEXT is true (the screen shown
# otherwise); wait_joined TEXT [seconds]: until on_joined TEXT
wait_fn() {
	wj=0
	while [ $wj -lt $((${3:-10} * 20)) ]; do
		$1 "$2" && return 0
		sleep 0.05; wj=$((wj + 1))
	done
	echo "   --- screen (waiting for '$2') ---"; sed 's/^/   |/' "$SCREEN"
	return 1
}
wait_joined() { wait_fn on_joined "$@"; }
# to_row TEXT: Down (at most 12 times) until TEXT (a focused row's
# sentence under its list) is on the screen
to_row() {
	tr_i=0
	while [ $tr_i -lt 12 ]; do
		on_joined "$1" && return 0
		keys Down; tr_i=$((tr_i + 1))
	done
	joined; return 1
}

# tr_ LANG MSGID: the text the screens show for msgid in LANG (the zh_CN
# catalogue of the build for zh*, else msgid itself)
tr_() {
	case $1 in
	zh*) LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz "$2" ;;
	*) printf '%s' "$2" ;;
	esac
}

# trn_ LANG SINGULAR PLURAL N: the form the screens show for count N
# (P_, ngettext) in LANG, "%d" still in it
trn_() {
	case $1 in
	zh*) LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" ngettext -d gpuwiz "$2" "$3" "$4" ;;
	*) if [ "$4" = 1 ]; then printf '%s' "$2"; else printf '%s' "$3"; fi ;;
	esac
}

# ssh_wrapper: an "ssh" first on the PATH (exported: the wizard in the
# tmux server started next gets it) that logs the words gpuwiz gave it in
# $TMP/ssh-words.log and adds the test sshd's known_hosts (tests/cli/
# sshd.sh: after sshd_start); gpuwiz still checks host keys
# (StrictHostKeyChecking=yes).
ssh_wrapper() {
	mkdir -p "$TMP/bin"
	sw_real=$(command -v ssh)
	cat >"$TMP/bin/ssh" <<EOS
#!/bin/sh
echo "\$*" >>"$TMP/ssh-words.log"
exec "$sw_real" -o UserKnownHostsFile="$SSH_KNOWN" -o GlobalKnownHostsFile=/dev/null -o IdentitiesOnly=yes "\$@"
EOS
	chmod +x "$TMP/bin/ssh"
	PATH="$TMP/bin:$PATH"
	export PATH
}

# valgrind_wrap: when $VALGRIND (configure's) runs here and the build has
# no sanitizer, GW_WRAP is set so that the next start runs gpuwiz under
# memcheck (its log: $TMP/vg.log); 1 and a line saying so otherwise
valgrind_wrap() {
	if valgrind_usable; then
		GW_WRAP="$VALGRIND -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --log-file=$TMP/vg.log"
		return 0
	fi
	echo "# valgrind part left out (no valgrind, or a sanitizer build)"
	return 1
}
# valgrind_clean NAME: after exited, memcheck found no error and no leak
# (gpuwiz exited 0; the log shown otherwise); GW_WRAP cleared
valgrind_clean() {
	check "$1: no memory errors or leaks (exit 0)" [ "${exit_status:-x}" = 0 ]
	[ "${exit_status:-x}" = 0 ] || cat "$TMP/vg.log"
	GW_WRAP=
}

# ssh_api_parts: the test's ssh_part when the test sshd can run here
# (tests/cli/sshd.sh's sshd_usable), its api_part when vcsim can
# (tests/cli/vcsim.sh's vcsim_usable), a line for each left out; the
# script is skipped (77) when neither could run
ssh_api_parts() {
	sap_ran=0
	if sshd_usable; then
		ssh_part; sap_ran=1
	else
		echo "# sshd not usable here ($SSHD_WHY): the SSH part is left out"
	fi
	if vcsim_usable; then
		api_part; sap_ran=1
	else
		echo "# no vcsim here: the API part is left out"
	fi
	[ $sap_ran -eq 1 ] || { echo "SKIP: neither sshd nor vcsim can run here"; exit 77; }
}

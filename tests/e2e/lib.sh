# lib.sh: helpers for the screen tests driven by tmux (sourced after
# tests/cli/lib.sh).  Each test runs gpuwiz in its own tmux server (private
# socket) at a fixed size, sends keys, and reads the screen with
# capture-pane -p.
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux not installed"; exit 77; }
SOCK=gwtest$$
# the servers' sockets live in the test's scratch directory and go with it
# (tmux's kill-server leaves its socket file behind)
export TMUX_TMPDIR="$TMP"
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
GW_STEPS_DEF=${GW_SRCDIR:-$(dirname "$0")/../..}/src/wizard/steps.def
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
# the shell must outlive a Ctrl-C sent to gpuwiz, to record what follows
trap '' INT
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

# tr_ LANG MSGID: the text the screens show for msgid in LANG (the zh_CN
# catalogue of the build for zh*, else msgid itself)
tr_() {
	case $1 in
	zh*) LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz "$2" ;;
	*) printf '%s' "$2" ;;
	esac
}

# SPDX-License-Identifier: GPL-3.0-or-later
# leftovers.sh: what a test run leaves behind (sourced by tests/run-all.sh;
# doc/design.md, section 13).
#
#   leftovers_begin TOP  before the run, TOP the source tree: a stamp in
#                        $TMPDIR to tell what is made from now on; in a git
#                        checkout (a release tree has no .git) it fails,
#                        naming them, when generated files are tracked,
#                        and notes what git status shows now
#   leftovers_check      after it: fails, naming each, when the run left a
#                        sample host's scratch copy, a process of TOP/_build,
#                        a test's scratch directory (tests/cli/lib.sh's
#                        gwcli.*) or tmux socket (gwtest*, leak*: they
#                        belong in that directory) in /tmp, Python byte code
#                        in TOP, or a change to what git status shows
LEFT_TOP=
LEFT_STAMP=
LEFT_GIT=0
LEFT_BEFORE=

leftovers_begin() {
	LEFT_TOP=$1
	LEFT_STAMP=$(mktemp "${TMPDIR:-/tmp}/gwsuite.XXXXXX") || return 1
	LEFT_GIT=0
	[ "$(git -C "$LEFT_TOP" rev-parse --show-toplevel 2>/dev/null)" = "$LEFT_TOP" ] || return 0
	LEFT_GIT=1
	left_tracked=$(git -C "$LEFT_TOP" ls-files -- '*.pyc' '*/__pycache__/*' '__pycache__/*' \
		'*.o' '*.so' '*.mo' '*.gmo' '*.trs')
	if [ -n "$left_tracked" ]; then
		echo "generated files are tracked in git (git rm --cached them):"
		echo "$left_tracked" | sed 's/^/  /'
		rm -f "$LEFT_STAMP"
		return 1
	fi
	LEFT_BEFORE=$(git -C "$LEFT_TOP" status --porcelain --untracked-files=all)
}

leftovers_check() {
	l_tmp=${TMPDIR:-/tmp}
	l_scratch=$(find "$l_tmp" -maxdepth 1 -name 'gpuwiz-sample.*' -newer "$LEFT_STAMP" 2>/dev/null)
	l_procs=$(pgrep -a -f -- "$LEFT_TOP/_build" | grep -v "^$$ " || :)
	l_dirs=$(find "$l_tmp" -maxdepth 1 -name 'gwcli.*' -newer "$LEFT_STAMP" 2>/dev/null)
	l_socks=$(find "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)" -maxdepth 1 \
		\( -name 'leak*' -o -name 'gwtest*' \) -newer "$LEFT_STAMP" 2>/dev/null)
	l_pyc=$(find "$LEFT_TOP" -path "$LEFT_TOP/_build" -prune -o \
		\( -name __pycache__ -o -name '*.pyc' \) -newer "$LEFT_STAMP" -print)
	l_tree=
	if [ "$LEFT_GIT" = 1 ]; then
		l_tree=$(git -C "$LEFT_TOP" status --porcelain --untracked-files=all |
			if [ -n "$LEFT_BEFORE" ]; then grep -vxF "$LEFT_BEFORE"; else cat; fi || :)
	fi
	rm -f "$LEFT_STAMP"
	[ -z "$l_scratch$l_procs$l_dirs$l_socks$l_pyc$l_tree" ] && return 0
	echo "the test suite left behind:"
	[ -z "$l_scratch" ] || echo "$l_scratch" | sed 's/^/  scratch copy: /'
	[ -z "$l_procs" ] || echo "$l_procs" | sed 's/^/  process: /'
	[ -z "$l_dirs" ] || echo "$l_dirs" | sed 's/^/  test scratch directory: /'
	[ -z "$l_socks" ] || echo "$l_socks" | sed 's/^/  tmux socket: /'
	[ -z "$l_pyc" ] || echo "$l_pyc" | sed 's/^/  Python byte code: /'
	[ -z "$l_tree" ] || echo "$l_tree" | sed 's/^/  git status: /'
	return 1
}

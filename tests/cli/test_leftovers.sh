#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_leftovers.sh: tests/leftovers.sh, the suite's check of what a run
# leaves behind (tests/run-all.sh), on a scratch git checkout: each kind of
# leftover is named and fails it, a clean run and the changes that were
# there before pass, and a release tree (no .git) is checked without git.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
command -v git >/dev/null 2>&1 || { echo "SKIP: git not installed"; exit 77; }
. "$SRC/tests/leftovers.sh"
G="git -c user.name=t -c user.email=t@example.org -c init.defaultBranch=main"
mkrepo() { # DIR: a checkout with one commit; __pycache__ ignored
	rm -rf "$1"; mkdir -p "$1"
	(cd "$1" && $G init -q && echo a >a.txt && printf '__pycache__/\n/_build/\n' >.gitignore &&
		$G add a.txt .gitignore && $G commit -qm one) || exit 99
}
top=$TMP/top
# run CODE: leftovers_begin, CODE (a leftover made), leftovers_check; sets
# $rc (of the check; 90 when begin failed) and $out
around() {
	out=$TMP/left.out
	{
		if leftovers_begin "$top"; then
			touch -d '1 minute ago' "$LEFT_STAMP"   # -newer: whatever the clock's grain
			eval "$1"
			leftovers_check
			echo "rc=$?"
		else
			echo "rc=90"
		fi
	} >"$out" 2>&1
	rc=$(sed -n 's/^rc=//p' "$out")
}
named() { grep -qF -- "$1" "$out"; }

mkrepo "$top"
around :
check "clean: passes" [ "$rc" = 0 ]
echo b >"$top/mine.txt"; echo c >>"$top/a.txt"   # the developer's own changes
around :
check "changes from before the run: not counted" [ "$rc" = 0 ]
around 'echo x >"$top/new.txt"'
check "a new untracked file: fails" [ "$rc" = 1 ]
check "a new untracked file: named" named '?? new.txt'
around 'echo y >"$top/.gitignore"'
check "a tracked file changed: named" sh -c "[ $rc = 1 ] && grep -qF ' M .gitignore' '$out'"
(cd "$top" && git checkout -q .gitignore)
around 'mkdir -p "$top/tests/vcsim/__pycache__" && : >"$top/tests/vcsim/__pycache__/smoke.cpython-311.pyc"'
check "Python byte code (ignored by git): named" sh -c "[ $rc = 1 ] && grep -q 'Python byte code: .*tests/vcsim/__pycache__' '$out'"
rm -rf "$top/tests"
around 'mkdir "$TMPDIR/gwcli.AbCdEf"'
check "a test's scratch directory in TMPDIR: named" sh -c "[ $rc = 1 ] && grep -q 'test scratch directory: .*gwcli.AbCdEf' '$out'"
rmdir "$TMPDIR/gwcli.AbCdEf"
mkdir -p "$TMUX_TMPDIR/tmux-$(id -u)"
around ': >"$TMUX_TMPDIR/tmux-$(id -u)/leak4242"'
check "a tmux socket left: named" sh -c "[ $rc = 1 ] && grep -q 'tmux socket: .*/leak4242' '$out'"
rm -f "$TMUX_TMPDIR/tmux-$(id -u)/leak4242"
around 'mkdir "$TMPDIR/gpuwiz-sample.AbCdEf"'
check "a sample host's scratch copy: named" sh -c "[ $rc = 1 ] && grep -q 'scratch copy: .*gpuwiz-sample.AbCdEf' '$out'"
rmdir "$TMPDIR/gpuwiz-sample.AbCdEf"
around :
check "clean again after the removals" [ "$rc" = 0 ]

# a compiled file tracked: refused before the run, named
mkdir -p "$top/tests/vcsim/__pycache__"
: >"$top/tests/vcsim/__pycache__/smoke.cpython-311.pyc"
(cd "$top" && $G add -f tests/vcsim/__pycache__/smoke.cpython-311.pyc && $G commit -qm pyc) || exit 99
around :
check "a tracked .pyc: refused before the run" [ "$rc" = 90 ]
check "a tracked .pyc: named" named 'tests/vcsim/__pycache__/smoke.cpython-311.pyc'
check "a refused begin leaves no stamp" sh -c "! ls '$TMPDIR' | grep -q '^gwsuite'"

# a release tree: no git, the rest checked all the same
rm -rf "$top"; mkdir -p "$top"; echo a >"$top/a.txt"
around 'echo x >"$top/new.txt"'
check "a release tree: a new file is not git's to tell" [ "$rc" = 0 ]
around 'mkdir "$top/__pycache__"'
check "a release tree: Python byte code named" sh -c "[ $rc = 1 ] && grep -q 'Python byte code' '$out'"

# the source tree itself: nothing generated tracked
if [ "$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)" = "$SRC" ]; then
	top=$SRC
	around :
	check "this checkout: no generated file tracked, nothing left" [ "$rc" != 90 ]
	[ "$rc" = 90 ] && sed 's/^/   /' "$out"
fi
finish

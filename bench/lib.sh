# SPDX-License-Identifier: GPL-3.0-or-later
# lib.sh: what every benchmark under bench/ prints the same way.  Sourced
# (". bench/lib.sh"), never run.
#
#   bench_python            sets BENCH_PY to the interpreter measured: $PYTHON
#                           when set, else /usr/bin/python3 (Debian's, the one
#                           python3-pyvmomi installs into), else python3 from
#                           the PATH; fails when there is none
#   bench_peer LABEL CMD... one "peer:" line naming the program CMD runs
#                           (its resolved path) and its version
#   bench_load              one "machine:" line: cores, load average, kernel
#   bench_ratio A B         A / B with two decimals and an "x", "-" when B is 0
#   bench_med [FORMAT]      the median of the numbers on standard input, one
#                           a line (of an even count the mean of the middle
#                           two), printed with FORMAT (awk's, "%s\n")
#   bench_median CMD...     runs CMD 5 times (BENCH_RUNS), prints the median
#                           wall time in seconds; output thrown away
#   bench_tree BINARY       the GPU table and module folder of the tree a
#                           gpuwiz binary was built in: sets TREE_TABLE (the
#                           data/gpus.ini above it) and TREE_MODULES (the
#                           src/host beside it holding vsphere.so, else "")
#   bench_before            the old build to compare, from GPUWIZ_BEFORE
#                           (unset: BEFORE is ""): sets BEFORE (its path),
#                           BEFORE_TABLE (GPUWIZ_BEFORE_TABLE, else its
#                           tree's), BEFORE_MODULES (GPUWIZ_BEFORE_MODULES,
#                           else its tree's) and BEFORE_ENV ("env ..." that
#                           runs it with both); fails when it is no program
#   bench_programs          the "gpuwiz:" and "before:" lines: path, version,
#                           table and modules of each build measured

bench_python() {
	if [ -n "${PYTHON:-}" ]; then
		BENCH_PY=$PYTHON
	elif [ -x /usr/bin/python3 ]; then
		BENCH_PY=/usr/bin/python3
	else
		BENCH_PY=$(command -v python3) || { echo "bench: no python3" >&2; return 1; }
	fi
}

bench_peer() {
	label=$1
	shift
	path=$(command -v "$1" 2>/dev/null) || path=$1
	[ -x "$path" ] && path=$(readlink -f "$path")
	case $(basename "$path") in
	python*) v=$("$@" -c 'import sys; print("Python", sys.version.split()[0])' 2>&1) ;;
	awk | gawk | mawk) v=$("$@" -W version 2>&1 | head -n1) ;;
	dialog) v=$("$@" --version 2>&1 | head -n1) ;;
	*) v=$("$@" --version 2>&1 | head -n1) ;;
	esac
	echo "peer: $label = $path ($v)"
}

bench_load() {
	echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(uname -sr)"
}

bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx\n", a / b; else print "-" }'
}

bench_med() {
	sort -n | awk -v f="${1:-%s\n}" '{ v[NR] = $1 }
		END { if (NR) printf f, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bench_median() {
	n=${BENCH_RUNS:-5}
	i=0
	: >"${TMPDIR:-/tmp}/.bench_median.$$"
	while [ $i -lt "$n" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "%.6f\n", e - s }' >>"${TMPDIR:-/tmp}/.bench_median.$$"
		i=$((i + 1))
	done
	bench_med <"${TMPDIR:-/tmp}/.bench_median.$$"
	rm -f "${TMPDIR:-/tmp}/.bench_median.$$"
}

bench_tree() {
	d=$(cd "$(dirname "$1")" && pwd)
	TREE_MODULES=
	[ -f "$d/host/vsphere.so" ] && TREE_MODULES=$d/host
	TREE_TABLE=
	for t in "$d/../data/gpus.ini" "$d/../../data/gpus.ini" "$d/../../../data/gpus.ini"; do
		[ -f "$t" ] && { TREE_TABLE=$(cd "$(dirname "$t")" && pwd)/gpus.ini; break; }
	done
}

bench_before() {
	BEFORE=${GPUWIZ_BEFORE:-}
	BEFORE_TABLE= BEFORE_MODULES= BEFORE_ENV=
	[ -n "$BEFORE" ] || return 0
	[ -x "$BEFORE" ] || { echo "GPUWIZ_BEFORE: not a program: $BEFORE" >&2; exit 1; }
	BEFORE=$(readlink -f "$BEFORE")
	bench_tree "$BEFORE"
	BEFORE_TABLE=${GPUWIZ_BEFORE_TABLE:-$TREE_TABLE}
	BEFORE_MODULES=${GPUWIZ_BEFORE_MODULES:-$TREE_MODULES}
	BEFORE_ENV="env GPUWIZ_TABLE=$BEFORE_TABLE${BEFORE_MODULES:+ GPUWIZ_MODULE_DIR=$BEFORE_MODULES}"
}

bench_programs() {
	echo "gpuwiz: $(readlink -f "$GPUWIZ") ($("$GPUWIZ" --version | head -n 1))"
	[ -z "${BEFORE:-}" ] ||
		echo "before: $BEFORE ($($BEFORE_ENV "$BEFORE" --version | head -n 1)), table $BEFORE_TABLE, modules ${BEFORE_MODULES:-none}"
}

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
#   bench_median CMD...     runs CMD 5 times (BENCH_RUNS), prints the median
#                           wall time in seconds; output thrown away

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
	sort -n "${TMPDIR:-/tmp}/.bench_median.$$" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	rm -f "${TMPDIR:-/tmp}/.bench_median.$$"
}

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the vcsim-gpuwiz vSphere simulator (main.go next to this script).
#
#   sh tests/vcsim/build.sh OUTPUT_BINARY
#
# Offline, from the Debian packages golang-go and
# golang-github-vmware-govmomi-dev (GOPATH mode on /usr/share/gocode; set
# VCSIM_GOPATH to use another GOPATH holding github.com/vmware/govmomi and
# github.com/google/uuid).  Writes nothing into the source directory: the
# binary goes to OUTPUT_BINARY, the Go build cache to $GOCACHE if set, else
# Go's default cache if it is usable, else DIR/.vcsim-gocache next to
# OUTPUT_BINARY.
#
# Exit status: 0 built (and nothing printed), 77 go or the govmomi sources
# are missing ("SKIP: ..." on stdout), other: the build failed.
set -e

if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $0 OUTPUT_BINARY" >&2
	exit 2
fi

case $0 in
*/*) srcdir=${0%/*} ;;
*) srcdir=. ;;
esac
srcdir=$(cd "$srcdir" && pwd)

outdir=$(dirname "$1")
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
out=$outdir/$(basename "$1")

GO=${GO:-go}
gopath=${VCSIM_GOPATH:-/usr/share/gocode}

if ! command -v "$GO" >/dev/null 2>&1; then
	echo "SKIP: $GO not found (apt-get install golang-go)"
	exit 77
fi
for pkg in github.com/vmware/govmomi/simulator github.com/google/uuid; do
	if [ ! -d "$gopath/src/$pkg" ]; then
		echo "SKIP: $pkg not found in $gopath (apt-get install golang-github-vmware-govmomi-dev)"
		exit 77
	fi
done

# GOPATH mode: no go.mod, no module proxy, nothing downloaded.  GOENV=off
# and GOFLAGS= keep a user's go env settings (-mod=..., GOPROXY) out.
GO111MODULE=off
GOPATH=$gopath
GOFLAGS=
GOENV=off
GOPROXY=off
GOTOOLCHAIN=local
export GO111MODULE GOPATH GOFLAGS GOENV GOPROXY GOTOOLCHAIN

if [ -z "${GOCACHE:-}" ]; then
	cache=$("$GO" env GOCACHE 2>/dev/null || true)
	if [ -n "$cache" ] && [ "$cache" != off ] &&
		mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; then
		GOCACHE=$cache
	else
		GOCACHE=$outdir/.vcsim-gocache
	fi
fi
export GOCACHE

tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
cd "$outdir"
"$GO" build -trimpath -ldflags="-s -w" -o "$tmp" "$srcdir/main.go"
mv -f "$tmp" "$out"
trap - EXIT

#!/bin/sh
# Install what building, installing and running gpuwiz needs on Debian 12
# (run as root): the compiler and autotools, the libraries, man-db for
# "man gpuwiz", the CA certificates the vSphere API is checked against and
# the ssh client of the --ssh route.  The test toolchain (cmocka, tmux,
# valgrind, Go and govmomi for vcsim, sshd, pyvmomi) is tests/deps.sh.
# Safe to run again: apt-get installs only what is missing.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	build-essential autoconf automake autopoint gettext pkg-config \
	libncurses-dev libpci-dev libcurl4-openssl-dev libiniparser-dev \
	libxml2-dev libssl-dev libyaml-dev libjansson-dev \
	ca-certificates openssh-client man-db

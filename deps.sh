#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Install what building, installing and running gpuwiz needs on Debian 12
# (run as root): the compiler and autotools, the libraries, man-db for
# "man gpuwiz", the CA certificates the vSphere API is checked against and
# the ssh client of the --ssh route, and the zh_CN.UTF-8 locale, in which
# gpuwiz speaks Simplified Chinese (LANG=zh_CN.UTF-8).  The test toolchain
# (cmocka, tmux, valgrind, Go and govmomi for vcsim, sshd, pyvmomi) is
# tests/deps.sh.
# Safe to run again: apt-get installs only what is missing.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	build-essential autoconf automake autopoint gettext pkg-config \
	libncurses-dev libpci-dev libcurl4-openssl-dev libiniparser-dev \
	libxml2-dev libssl-dev libyaml-dev libjansson-dev \
	ca-certificates openssh-client man-db locales
# the locale of gpuwiz's catalogue (po/LINGUAS: zh_CN); the tests run in
# it and in C.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	sed -i 's/^# *\(zh_CN.UTF-8 UTF-8\)/\1/' /etc/locale.gen
	grep -q '^zh_CN.UTF-8 UTF-8' /etc/locale.gen || echo 'zh_CN.UTF-8 UTF-8' >>/etc/locale.gen
	locale-gen
fi

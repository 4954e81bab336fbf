#!/bin/sh
# Install what gpuwiz needs to build and test on Debian 12 (run as root).
# Safe to run again: apt-get installs only what is missing.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	build-essential autoconf automake autopoint gettext pkg-config \
	libncurses-dev libpci-dev libcurl4-openssl-dev libiniparser-dev \
	libxml2-dev libssl-dev libyaml-dev libjansson-dev libcmocka-dev \
	locales tmux valgrind python3 python3-yaml ca-certificates \
	openssh-server openssh-client \
	golang-go golang-github-vmware-govmomi-dev golang-github-google-uuid-dev \
	python3-pyvmomi time pmccabe \
	clang libclang-rt-dev
# (the vSphere tests run against vcsim, the govmomi simulator, built from
# tests/vcsim with the Debian Go packages above; pyvmomi and time are for
# bench/vsphere-apply.sh; pmccabe measures the complexity limits that
# tests/cli/test_arch.sh keeps; clang and libclang-rt-dev, which holds
# libFuzzer (clang only recommends it), build the fuzz targets of
# tests/fuzz)
# the SSH route is tested against an sshd the test starts on 127.0.0.1
mkdir -p /run/sshd
# The tests run in C.UTF-8 and zh_CN.UTF-8.
if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	sed -i 's/^# *\(zh_CN.UTF-8 UTF-8\)/\1/' /etc/locale.gen
	grep -q '^zh_CN.UTF-8 UTF-8' /etc/locale.gen || echo 'zh_CN.UTF-8 UTF-8' >>/etc/locale.gen
	locale-gen
fi

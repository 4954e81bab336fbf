#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Install what gpuwiz needs to build and test on Debian 12 (run as root):
# deps.sh (build and run), then the test toolchain.
# Safe to run again: apt-get installs only what is missing.
set -e
# first what building and running needs (the README's first command)
sh "$(dirname "$0")/../deps.sh"
# then the test toolchain, starting and enabling no service: the tests
# start their own sshd on a free port of 127.0.0.1, never openssh-server's
# on port 22 (tests/no-service.sh)
export DEBIAN_FRONTEND=noninteractive
. "$(dirname "$0")/no-service.sh"
nosvc_begin openssh-server
apt-get install -y --no-install-recommends \
	libcmocka-dev tmux valgrind python3 python3-yaml \
	openssh-server \
	golang-go golang-github-vmware-govmomi-dev golang-github-google-uuid-dev \
	python3-pyvmomi time pmccabe strace \
	clang libclang-rt-dev \
	ansible yamllint bash-completion procps git
nosvc_end
# (the vSphere tests run against vcsim, the govmomi simulator, built from
# tests/vcsim with the Debian Go packages above; pyvmomi and time are for
# bench/vsphere-apply.sh; pmccabe measures the complexity limits that
# tests/cli/test_arch.sh keeps; strace kills gpuwiz mid-write in
# tests/cli/test_crash.sh; clang and libclang-rt-dev, which holds
# libFuzzer (clang only recommends it), build the fuzz targets of
# tests/fuzz; ansible (community.vmware 3.7) and yamllint check the
# playbook and the BOSH/om files in tests/cli/test_ansible.sh and
# test_om_bosh.sh; bash-completion: test_completion.sh runs gpuwiz's
# completion with and without it; procps's pgrep finds what a test
# started, to end it, in tests/cli/lib.sh, tests/e2e/lib.sh and
# tests/leftovers.sh, and git shows the checkout's status to
# tests/leftovers.sh: a minimal Debian 12 (debootstrap --variant=minbase)
# has neither)
# the SSH route is tested against an sshd the test starts on 127.0.0.1
mkdir -p /run/sshd
# (the tests run in C.UTF-8 and zh_CN.UTF-8: deps.sh made the second)

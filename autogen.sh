#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Bootstrap the build system from a git checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force

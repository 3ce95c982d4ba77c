#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Generate configure and Makefile.in from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf -fi

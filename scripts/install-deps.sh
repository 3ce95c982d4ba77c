#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Install the Debian packages tlbpolicy needs to build, test and document
# itself. Idempotent: installs only what is missing. Needs root or sudo.
#   install-deps.sh          build + tests
#   install-deps.sh --ci     everything .ci/run uses (docs, coverage,
#                            valgrind, clang, kernel headers and sources,
#                            gnuplot)
set -eu
pkgs="build-essential autoconf automake libtool autoconf-archive pkg-config check libjansson-dev libnlopt-dev"
if [ "${1:-}" = "--ci" ]; then
	# Image and headers in one install so they are the same version.
	pkgs="$pkgs doxygen lcov valgrind clang linux-headers-amd64 linux-image-amd64"
	pkgs="$pkgs qemu-system-x86 busybox-static cpio gnuplot-nox time"
	# tlbsim sweep --emit-jobs run by GNU parallel (tests/tlbsim/cli.sh).
	pkgs="$pkgs parallel"
	# Static analysis, sanitizers and fuzzing.
	pkgs="$pkgs cppcheck clang-tidy clang-tools-14 libclang-rt-14-dev libfuzzer-14-dev"
	# Linux 6.12's source: KUnit under UML, its scripts/kernel-doc for the
	# headers' comments, and the kernel testbed (make testbed-gate: built
	# with the tools here, booted under qemu with a busybox initramfs).
	pkgs="$pkgs linux-source-6.12 flex bison bc libelf-dev python3 gzip"
	# The mm selftests, built static for the testbed guest (libnuma.a).
	pkgs="$pkgs libnuma-dev"
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null

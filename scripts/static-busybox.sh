#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Print the path of a statically linked busybox (busybox-static) for an
# initramfs, or fail with a one-line message. A dynamic busybox first in
# PATH does not run in an initramfs without its libraries.
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q static || busybox=/bin/busybox
[ -x "$busybox" ] || { echo "busybox-static not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
echo "$busybox"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The pre-2021 plain flag must lose a flush under the same stress and
# checker: this test is listed in XFAIL_TESTS, so its expected outcome is
# the non-zero exit of a caught lost flush.
: "${top_builddir:=.}"
exec "$top_builddir/tests/stress/mm_stress" --naive --seconds 20

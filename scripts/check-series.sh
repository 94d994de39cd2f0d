#!/bin/bash
# make check-series: every commit of the series on its own, in order:
# checkpatch --strict, the objects of the .c files it touches compiled at it
# in an allmodconfig, the aio selftests where it touches them. The work is
# in check-series.py (its head says how); this takes the heavy lock.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "build/linux missing: run make tree first"
heavy_lock
exec python3 "$TOP/scripts/check-series.py"

#!/bin/bash
# Print what the demo printed in the guest; fail if it did not end well.
# usage: show-run.sh <tag>
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tag=${1:?usage: show-run.sh tag}
out=$LOGS/$tag.out
[ -f "$out" ] || die "$out missing: the guest did not run (see $LOGS/$tag.qemu)"
tr -d '\r' <"$out" | sed -e '/^### /d'
tr -d '\r' <"$out" | grep -q '^### end vaio-demo rc=0$' ||
	die "the demo did not succeed; kernel log: $LOGS/$tag.console"

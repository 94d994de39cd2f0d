#!/bin/bash
# Read a guest run's logs: print every TAP result of every test program as one
# renumbered TAP stream, fail on a failed test, a program that exited non-zero
# without saying why, a program that never finished, a missing end marker, or
# any kernel splat in the console log, a non-empty kmemleak report or a
# fault-injection run that hung (debug kernels); end with
# "N passed, N failed, N skipped".
# With the tags of the two durability boots (scripts/durability.sh), their
# result counts as one more test: the write boot must have printed its
# "written and synced" line, the verify boot its "byte-identical" one, and
# their console logs must be free of splats too.
# usage: read-results.sh <tag> [<write-tag> <verify-tag>]
#        (logs are build/logs/<tag>.out and .console)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tag=${1:?usage: read-results.sh tag [write-tag verify-tag]}
out=$LOGS/$tag.out
console=$LOGS/$tag.console
[ -f "$out" ] || die "$out missing: the guest did not run (see $LOGS/$tag.qemu)"
wout='' vout='' consoles=$console
if [ $# -ge 3 ]; then
	wout=$LOGS/$2.out vout=$LOGS/$3.out
	consoles="$console\n$LOGS/$2.console\n$LOGS/$3.console"	# awk reads \n as a newline
fi
# A durability boot that left no output is reported as such, below.
files=("$out")
for f in "$wout" "$vout"; do
	[ -n "$f" ] && [ -f "$f" ] && files+=("$f")
done

splats='(WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault|Call Trace|possible circular locking|possible recursive locking|lockdep|INFO: task .* blocked|Kernel panic|kmemleak: [0-9]+ new suspected)'

awk -v consoles="$consoles" -v splats="$splats" -v wout="$wout" -v vout="$vout" '
function result(ok, desc, directive) {
	n++
	line = (ok ? "ok " : "not ok ") n " " prog ": " desc
	if (directive != "")
		line = line " # " directive
	print line
	if (directive ~ /^SKIP/) skipped++
	else if (ok) passed++
	else { failed++; failures[failed] = line }
}
{ gsub(/\r/, "") }
# The durability boots: "### durability write|verify ok|fail: ...", and
# the timeout line of boot.sh.
FILENAME == wout || FILENAME == vout {
	b = (FILENAME == wout ? "write" : "verify")
	if ($0 ~ /^### durability (write|verify) ok: /) {
		sub(/^### durability [a-z]+ ok: /, "")
		dok[b] = $0
	} else if ($0 ~ /^### durability (write|verify) fail: /) {
		sub(/^### durability [a-z]+ fail: /, "")
		dfail[b] = dfail[b] (dfail[b] != "" ? "; " : "") $0
	} else if ($0 ~ /^timeout: /) {
		dfail[b] = dfail[b] (dfail[b] != "" ? "; " : "") $0
	} else if ($0 ~ /^### done/) {
		ddone[b] = 1
	}
	next
}
# Debug kernels: the kmemleak report at the end of the run must be empty.
/^### kmemleak begin/ { inleak = 1; next }
/^### kmemleak end/ {
	inleak = 0
	prog = "kmemleak"
	if (nleak == 0) {
		result(1, "no unreferenced object after the run", "")
	} else {
		result(0, (leaks ? leaks " unreferenced objects" : "a report") " after the run (below)", "")
		for (i = 1; i <= nleak && i <= 400; i++) print "# " leak[i]
	}
	next
}
inleak {
	leak[++nleak] = $0
	if ($0 ~ /^unreferenced object/) leaks++
	next
}
# Debug kernels: the tests under fault injection. Their own results do not
# count; a hung run or a kernel-internal errno seen in user space does.
/^### faultinject-detail / { sub(/^### /, "# "); print; next }
/^### faultinject / {
	# ### faultinject <program> <fault> runs=N injected=N passed=N failed=N
	#     other=N hung=N internal_errno=N budget=N
	prog = "faultinject"
	delete f
	for (i = 5; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	what = $3 " under " $4 ": " f["runs"] " runs, " f["injected"] " with the fault injected (exit: " \
		f["passed"] " passed, " f["failed"] " failed, " f["other"] " other)"
	if (f["hung"] != 0) result(0, what ", " f["hung"] " did not end within 300 s", "")
	else if (f["internal_errno"] != 0) result(0, what ", " f["internal_errno"] " showed a kernel-internal errno", "")
	else if (f["injected"] == 0) result(0, what ", no fault was injected", "")
	else result(1, what ", all ended, no kernel-internal errno", "")
	next
}
/^### begin / { prog = $3; inprog = 1; seen = 0; next }
/^### end / {
	split($4, rc, "=")
	if (rc[2] != 0 && bad_in_prog == 0)
		result(0, "exited with status " rc[2] " (no failing test named)", "")
	inprog = 0; bad_in_prog = 0; prog = ""; next
}
/^### done/ { done = 1; next }
/^### kernel / { sub(/^### /, "# "); print; next }
/^timeout: / { timeout = $0; next }
inprog && /^(not )?ok [0-9]+ / {
	ok = ($1 == "ok")
	sub(/^(not )?ok [0-9]+ /, "")
	directive = ""
	if (match($0, / # /)) {
		directive = substr($0, RSTART + 3)
		$0 = substr($0, 1, RSTART - 1)
	}
	if (!ok && directive ~ /^(XFAIL|SKIP)/) ok = 1
	if (!ok) bad_in_prog++
	result(ok, $0, directive)
	next
}
END {
	if (inprog) {
		result(0, "did not finish (crash, hang or timeout)", "")
	}
	if (!done) {
		prog = "harness"
		result(0, timeout != "" ? timeout : "the guest did not reach the end of its run", "")
	}
	if (wout != "") {
		prog = "durability"
		if (dok["write"] == "")
			result(0, "the write boot did not print its \"written and synced\" line" \
			       (dfail["write"] != "" ? ": " dfail["write"] : " (no result at all: see " wout ")"), "")
		else if (dfail["write"] != "")
			result(0, "the write boot went on after its \"written and synced\" line: " dfail["write"], "")
		else if (dfail["verify"] != "")
			result(0, "after the reboot: " dfail["verify"], "")
		else if (dok["verify"] == "")
			result(0, "the verify boot printed no result (see " vout ")", "")
		else if (!ddone["verify"])
			result(0, "the verify boot did not reach its end (see " vout ")", "")
		else
			result(1, "written and synced, then a reboot without sync or unmount: " dok["verify"], "")
	}
	# Kernel splats anywhere in a console log fail the run.
	ncons = split(consoles, cons, "\n")
	for (c = 1; c <= ncons; c++) {
		console = cons[c]
		nl = 0
		delete log_
		while ((getline l < console) > 0) {
			gsub(/\r/, "", l)
			log_[++nl] = l
		}
		close(console)
		last = 0
		for (i = 1; i <= nl; i++) {
			if (log_[i] ~ splats && i > last) {
				prog = "kernel"
				result(0, "splat in the console log: " log_[i], "")
				print "# --- console log around it (" console ") ---"
				for (j = (i > 5 ? i - 5 : 1); j <= i + 25 && j <= nl; j++)
					print "# " log_[j]
				last = i + 25
			}
		}
	}
	if (n == 0) {
		prog = "harness"
		result(0, "no test result at all", "")
	}
	print "1.." n
	if (failed) {
		print "# failures:"
		for (i = 1; i <= failed; i++) print "#   " failures[i]
	}
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit failed ? 1 : 0
}' "${files[@]}"

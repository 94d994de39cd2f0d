#!/bin/bash
# The stock-vs-patched differential test: boot a kernel in harness.mode=diff
# (guest/difftest.c prints one canonical line per case), keep its lines, and
# compare them with difftest/stock.out.
# usage: difftest.sh record          boot stock, write difftest/stock.out
#        difftest.sh compare         boot patched, compare with difftest/stock.out,
#                                    write the differences not allowed to
#                                    difftest/patched-differences.txt
#        difftest.sh aa <kernel>     boot <kernel> twice, the outputs must be equal
#        difftest.sh check <kernel>  make check's step: boot <kernel>, compare
#                                    with difftest/stock.out, change no file
#        difftest.sh diff <file>     compare <file> with difftest/stock.out (no boot)
#        difftest.sh boot <kernel> <file>  boot once, write the canonical lines to <file>
#        difftest.sh fuzz            SEED=n CASES=n: boot both kernels with
#                                    seeded random cases, compare them
# Needs both kernels built (make build, make build KERNEL=stock) and builds
# the guest's initramfs (scripts/build-guest.sh); it never builds a kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DIR=$TOP/difftest
STOCK_OUT=$DIR/stock.out
ALLOW=$DIR/allow.txt

# The canonical lines of a diff-mode boot's results: what difftest printed
# between the harness's begin and end markers, without its '#' lines.
# usage: canon <kernel> <output file> [mode]
canon() {
	local res=$LOGS/$1-${3:-diff}.out
	[ -f "$res" ] || die "$res missing: the guest did not run (see $LOGS/$1-diff.qemu)"
	tr -d '\r' <"$res" | awk -v res="$res" '
		/^### begin difftest/ { on = 1; next }
		/^### end difftest / { split($4, rc, "="); end = 1; on = 0; next }
		/^### done/ { done = 1 }
		on && !/^#/ { print }
		END {
			if (!end) { print "error: difftest did not finish in " res > "/dev/stderr"; exit 1 }
			if (rc[2] != 0) { print "error: difftest exited with status " rc[2] " (" res ")" > "/dev/stderr"; exit 1 }
			if (!done) { print "error: the guest did not reach its end (" res ")" > "/dev/stderr"; exit 1 }
		}' >"$2" || die "no complete difftest output from the $1 kernel: see $res and $LOGS/$1-${3:-diff}.console"
	[ -s "$2" ] || die "difftest printed nothing on the $1 kernel: see $res"
}

boot_canon() {
	"$TOP/scripts/boot.sh" "$1" diff
	canon "$1" "$2"
}

guest() {
	"$TOP/scripts/build-guest.sh"
}

# Compare <file> (patched) with stock.out (or <stock file>); print each
# difference not allowed by allow.txt, a summary, and fail if any remains.
# Every line is "<file> <case> <result...>", or "<file> absent".
# usage: compare <patched file> [<stock file>]
compare() {
	local patched=$1 stock=${2:-$STOCK_OUT}
	[ -f "$stock" ] || die "$stock missing: run make difftest-stock first"
	[ -f "$ALLOW" ] || die "$ALLOW missing"
	awk -v allowf="$ALLOW" -v diffs="$LOGS/difftest.differences" '
	function key(l,   f) {
		split(l, f, " ")
		return f[2] == "absent" ? f[1] : f[1] " " f[2]
	}
	function result(l,   f, k) {
		split(l, f, " ")
		if (f[2] == "absent") return "absent"
		k = f[1] " " f[2]
		return substr(l, length(k) + 2)
	}
	# A shell glob (*, ?) as an anchored regular expression.
	function glob(g,   r, i, c) {
		r = "^"
		for (i = 1; i <= length(g); i++) {
			c = substr(g, i, 1)
			if (c == "*") r = r ".*"
			else if (c == "?") r = r "."
			else if (c ~ /[][\\^$.|()+{}]/) r = r "\\" c
			else r = r c
		}
		return r "$"
	}
	BEGIN {
		while ((getline l < allowf) > 0) {
			sub(/\r$/, "", l)
			if (l ~ /^[ \t]*(#|$)/) continue
			n = split(l, f, /[ \t]+/)
			if (n < 4) { print "error: " allowf ": an entry needs a file, a case, a stock result and a reason: " l > "/dev/stderr"; exit 2 }
			na++
			afile[na] = glob(f[1]); acase[na] = glob(f[2]); astock[na] = glob(f[3])
		}
	}
	FNR == NR { k = key($0); s[k] = result($0); order[++ns] = k; next }
	{ k = key($0); p[k] = result($0); if (!(k in s)) order[++ns] = k }
	END {
		printf "" > diffs
		for (i = 1; i <= ns; i++) {
			k = order[i]
			if (k in seen) continue
			seen[k] = 1
			split(k, kf, " ")
			files[kf[1]] = 1
			cases++
			sv = (k in s) ? s[k] : "(missing)"
			pv = (k in p) ? p[k] : "(missing)"
			if (sv == pv) continue
			differences++
			line = k ": stock=" sv " patched=" pv
			print line > diffs
			# io_submit() may now serve a request that 6.12 refused at
			# submission, but a request it still refuses keeps the errno
			# of 6.12: no allow entry covers a refusal with another one.
			split(sv, sf, " "); split(pv, pf, " ")
			if (sf[1] ~ /^ret=submit:-/ && pf[1] ~ /^ret=submit:-/ && sf[1] != pf[1]) {
				print line " (refused with another errno)"
				bad++
				badfile[kf[1]]++
				continue
			}
			ok = 0
			for (a = 1; a <= na && !ok; a++)
				if (kf[1] ~ afile[a] && kf[2] ~ acase[a] && sv ~ astock[a])
					ok = 1
			# make difftest-fuzz: the calls of case fzK share one
			# descriptor; after an allowed difference (a request
			# stock refused, served) the later calls start from
			# another state, and are counted with it.
			seq = kf[2]
			if (seq ~ /^fz[0-9]+\./) {
				sub(/\..*/, "", seq)
				seq = kf[1] " " seq
				if (!ok && (seq in allowedseq)) { ok = 1; afterallowed++ }
				if (ok) allowedseq[seq] = 1
			}
			if (ok) { allowed++; continue }
			print line
			bad++
			badfile[kf[1]]++
		}
		for (fl in files) nfiles++
		printf "difftest: %d files, %d cases, %d differences, %d allowed, %d not allowed\n",
			nfiles, cases, differences, allowed, bad
		if (afterallowed)
			printf "of the allowed: %d later calls of a fuzz case after an allowed difference\n", afterallowed
		if (bad) {
			printf "not allowed, by file:"
			for (fl in badfile) printf " %s=%d", fl, badfile[fl]
			printf "\n"
		}
		exit bad ? 1 : 0
	}' "$stock" "$patched"
}

cmd=${1:-}
case "$cmd" in
record)
	guest
	mkdir -p "$DIR"
	boot_canon stock "$LOGS/stock-diff.canon"
	cp "$LOGS/stock-diff.canon" "$STOCK_OUT"
	step "difftest/stock.out: $(wc -l <"$STOCK_OUT") lines"
	;;
compare)
	guest
	boot_canon patched "$LOGS/patched-diff.canon"
	step "comparing the patched kernel with difftest/stock.out"
	rc=0
	compare "$LOGS/patched-diff.canon" | tee "$LOGS/difftest.report" || rc=$?
	# The differences not allowed: the current state, kept in the repository.
	grep -v '^\(difftest: \|not allowed, by file:\)' "$LOGS/difftest.report" \
		>"$DIR/patched-differences.txt" || true
	step "difftest/patched-differences.txt: $(wc -l <"$DIR/patched-differences.txt") differences not allowed"
	# Not counted: the allowed io_submit results are only worth allowing if
	# they equal readv()/writev() with the same segments on the same kernel.
	awk '{ k = $1 " " $2; $1 = $2 = ""; r[k] = $0 }
	END {
		for (k in r) {
			split(k, f, " ")
			o = f[2]
			if (!sub(/^aio-PREADV/, "readv", o) && !sub(/^aio-PWRITEV/, "writev", o))
				continue
			o = f[1] " " o
			n++
			if ((o in r) && r[o] != r[k]) { bad++; print "aio/readv parity: " k ":" r[k] " vs " o ":" r[o] }
		}
		printf "aio/readv parity on the patched kernel (informational): %d cases, %d mismatches\n", n, bad
	}' "$LOGS/patched-diff.canon"
	exit $rc
	;;
check)
	# make check: the kernel just tested against the stock kernel's lines
	# in the repository (CI builds no stock kernel). On the stock kernel
	# itself this must find no difference at all.
	kernel="${2:?usage: difftest.sh check <kernel>}"
	boot_canon "$kernel" "$LOGS/$kernel-diff.canon"
	step "comparing the $kernel kernel with difftest/stock.out"
	compare "$LOGS/$kernel-diff.canon"
	;;
boot)
	guest
	boot_canon "${2:?usage: difftest.sh boot <kernel> <file>}" "${3:?usage: difftest.sh boot <kernel> <file>}"
	;;
diff)
	compare "${2:?usage: difftest.sh diff <file>}"
	;;
fuzz)
	# make difftest-fuzz: SEED and CASES; both kernels boot with the same
	# seed and their lines are compared with each other.
	seed=${SEED:-1}
	cases=${CASES:-1000}
	guest
	for k in stock patched; do
		CMDLINE="harness.seed=$seed harness.cases=$cases" \
			BOOT_TIMEOUT=$((1200 + cases)) "$TOP/scripts/boot.sh" "$k" fuzz
		canon "$k" "$LOGS/$k-fuzz.canon" fuzz
	done
	step "comparing seed $seed: the patched kernel with the stock kernel"
	compare "$LOGS/patched-fuzz.canon" "$LOGS/stock-fuzz.canon" | tee "$LOGS/fuzz-$seed.report"
	;;
aa)
	kernel="${2:?usage: difftest.sh aa <kernel>}"
	guest
	boot_canon "$kernel" "$LOGS/$kernel-diff.canon.1"
	boot_canon "$kernel" "$LOGS/$kernel-diff.canon.2"
	if diff -u "$LOGS/$kernel-diff.canon.1" "$LOGS/$kernel-diff.canon.2"; then
		step "A/A on the $kernel kernel: two boots, $(wc -l <"$LOGS/$kernel-diff.canon.1") lines, identical"
	else
		die "A/A on the $kernel kernel: the two boots differ (above)"
	fi
	;;
*)
	die "usage: difftest.sh record|compare|check <kernel>|aa <kernel>|boot <kernel> <file>|diff <file>|fuzz"
	;;
esac

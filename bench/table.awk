# make bench: the table of patched/stock ratios, from the guest outputs.
# usage: awk -v dat=ratios.dat [-v ka=stock -v kb=patched] -f table.awk <kernel>-<round>.out...
# A file's kernel is its name up to the last "-<round>.out": ka is the
# reference (default stock), kb the one compared with it (default patched);
# make bench-aa names the two sides of one kernel <kernel>-a and <kernel>-b.
# Each "bench ..." row (bench/vaio-bench.c) becomes one table row: per kernel
# the median of its boots' medians (one boot: that median) with the smallest
# min and the largest max, in microseconds per operation, then the ratio of
# the kb median to the ka one, and that of the mins (on a busy host
# noise only ever adds time, so the mins are a second opinion), then the
# paired ratio: per round (the files <ka>-<n>.out and <kb>-<n>.out, booted
# side by side under BENCH_PAIRED=1), the kb boot's median over the ka
# boot's, and of those the median and the quartiles. A kernel on which the operation
# failed shows the errno instead ("n/a" for a file it does not have, ENOENT),
# and the row has no ratio. "fio ..." rows get IOPS and their ratio.
# Under the table: per group, the geometric means of the median ratios and
# of the min ratios over the rows that have both, and two verdicts. The
# time bound: every single-call row (group a) with both figures at a min
# ratio of at most lim_row (1.05), their median ratios' geometric mean at
# most lim_geo (1.02), every control row's min ratio at most lim_ctl
# (1.02). The paired bound: every row of groups a and b with a paired
# ratio at most lim_pair (1.05), every control row at most lim_ctl.
# dat= gets "index ratio label group" for the plot (group: a 1, b 2, c 3,
# control 4).

function kernel_of(f) {
	sub(/.*\//, "", f)
	sub(/-[0-9]+\.out$/, "", f)
	return f
}

function round_of(f) {
	sub(/.*-/, "", f)
	sub(/\.out$/, "", f)
	return f + 0
}

function us(ns, v) {
	v = ns / 1000
	if (v < 10)
		return sprintf("%.2f", v)
	if (v < 100)
		return sprintf("%.1f", v)
	return sprintf("%.0f", v)
}

# The median of list[1..n] (numbers), sorted in place.
function median(list, n, i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && list[j - 1] + 0 > list[j] + 0; j--) {
			t = list[j]; list[j] = list[j - 1]; list[j - 1] = t
		}
	return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
}

function cell(k, key, n, i, l) {
	if ((k, key) in err)
		return err[k, key] == "ENOENT" ? "n/a" : err[k, key]
	n = nmed[k, key]
	if (!n)
		return "-"
	for (i = 1; i <= n; i++)
		l[i] = med[k, key, i]
	medv[k, key] = median(l, n)
	return sprintf("%s [%s-%s]", us(medv[k, key]), us(mn[k, key]), us(mx[k, key]))
}

# The quartile q (1 or 3) of list[1..n], sorted: the median of its lower
# or upper half.
function quartile(list, n, q, h, i, l) {
	h = int(n / 2)
	for (i = 1; i <= h; i++)
		l[i] = q == 1 ? list[i] : list[n - h + i]
	return h ? median(l, h) : list[1]
}

# The paired ratio of a row: "median [q1-q3]" of the rounds that have the
# row on both sides; pmed[key] gets the median.
function paired(key, n, r, l) {
	n = 0
	for (r = 1; r <= nrounds; r++)
		if ((ka, key, r) in bymed && (kb, key, r) in bymed && bymed[ka, key, r] > 0)
			l[++n] = bymed[kb, key, r] / bymed[ka, key, r]
	if (!n)
		return ""
	pmed[key] = median(l, n)
	return sprintf("%.2f [%.2f-%.2f]", pmed[key], quartile(l, n, 1), quartile(l, n, 3))
}

# A group's label: "(a)", "(control)".
function glabel(g) {
	return "(" g ")"
}

BEGIN {
	if (ka == "")
		ka = "stock"
	if (kb == "")
		kb = "patched"
	if (lim_row == "")
		lim_row = 1.05
	if (lim_geo == "")
		lim_geo = 1.02
	if (lim_ctl == "")
		lim_ctl = 1.02
	if (lim_pair == "")
		lim_pair = 1.05
}

FNR == 1 {
	k = kernel_of(FILENAME)
	rnd = round_of(FILENAME)
	if (rnd > nrounds)
		nrounds = rnd
}

$1 == "bench" {
	key = $2 " " $3 " " $4 " " $5
	if (!(key in seen)) {
		seen[key] = 1
		order[++nrows] = key
	}
	split("", kv)
	for (i = 6; i <= NF; i++) {
		eq = index($i, "=")
		if (eq)
			kv[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
	if (kv["sys"] != "-")
		sys[k, key] = kv["sys"]
	if ("err" in kv) {
		err[k, key] = kv["err"]
		next
	}
	med[k, key, ++nmed[k, key]] = kv["med_ns"]
	if (!((k, key, rnd) in bymed))
		bymed[k, key, rnd] = kv["med_ns"]
	if (!((k, key) in mn) || kv["min_ns"] + 0 < mn[k, key] + 0)
		mn[k, key] = kv["min_ns"]
	if (!((k, key) in mx) || kv["max_ns"] + 0 > mx[k, key] + 0)
		mx[k, key] = kv["max_ns"]
}

$1 == "fio" {
	key = $2 " " $3 " " $4
	if (!(key in fseen)) {
		fseen[key] = 1
		forder[++nfio] = key
	}
	for (i = 5; i <= NF; i++) {
		eq = index($i, "=")
		if (substr($i, 1, eq - 1) == "iops")
			iops[k, key, ++niops[k, key]] = substr($i, eq + 1)
		if (substr($i, 1, eq - 1) == "slat_us")
			slat[k, key, ++nslat[k, key]] = substr($i, eq + 1)
	}
}

END {
	title["a"] = "(a) read/write on single files: the no-regression check"
	title["control"] = "(control) single calls on files that had iter methods in stock 6.12 and that the series does not touch: their ratios must not move"
	title["b"] = "(b) readv/writev of 8-byte segments on formerly legacy files"
	title["c"] = "(c) N segments: one io_submit PREADV/PWRITEV, N PREAD/PWRITE iocbs, preadv/pwritev, io_uring READV/WRITEV"
	title["d"] = "(d) aio ping-pong: a byte (an eventfd count) out, io_submit() of the PREAD of the answer another thread sends, io_getevents()"
	gidx["a"] = 1
	gidx["b"] = 2
	gidx["c"] = 3
	gidx["control"] = 4
	# Column widths: the longest file name, the longest kernel heading.
	fw = 18
	for (r = 1; r <= nrows; r++) {
		split(order[r], f, " ")
		if (length(f[2]) > fw)
			fw = length(f[2])
	}
	cw = 22
	if (length(ka " us [min-max]") > cw)
		cw = length(ka " us [min-max]")
	if (length(kb " us [min-max]") > cw)
		cw = length(kb " us [min-max]")
	fmt = "%-" fw "s %-18s %-9s %4s %-" cw "s %-" cw "s %-9s %-9s %s\n"
	ngrp = 0
	grp = ""
	for (r = 1; r <= nrows; r++) {
		key = order[r]
		split(key, f, " ")
		if (f[1] != grp) {
			grp = f[1]
			gorder[++ngrp] = grp
			printf "\n%s\n", (grp in title ? title[grp] : glabel(grp))
			printf fmt, "file", "operation", "size", "sys", ka " us [min-max]", kb " us [min-max]", "ratio", "min ratio", "paired [q1-q3]"
		}
		s = cell(ka, key)
		p = cell(kb, key)
		# System calls: those of a kernel that did the operation.
		sy = "-"
		if ((kb, key) in sys && !((kb, key) in err))
			sy = sys[kb, key]
		else if ((ka, key) in sys && !((ka, key) in err))
			sy = sys[ka, key]
		if ((ka, key) in medv && (kb, key) in medv && sys[ka, key] != sys[kb, key])
			sy = sys[ka, key] "/" sys[kb, key]
		sub(/\.00$/, "", sy)
		ratio = mratio = ""
		if ((ka, key) in medv && (kb, key) in medv && medv[ka, key] > 0) {
			q = medv[kb, key] / medv[ka, key]
			ratio = sprintf("%.2f%s", q, q >= 1.10 ? " !" : "")
			if (mn[ka, key] > 0) {
				qm = mn[kb, key] / mn[ka, key]
				mratio = sprintf("%.2f", qm)
				# Both figures: this row counts in the means and the verdict.
				gmed[grp] += log(q)
				gmin[grp] += log(qm)
				gn[grp]++
				name = f[2] " " f[3] " " f[4]
				if (grp == "a" && (!na || mratio + 0 > worst_a + 0)) {
					worst_a = mratio
					worst_a_row = name
				}
				if (grp == "a")
					na++
				if (grp == "control" && (!nctl || mratio + 0 > worst_c + 0)) {
					worst_c = mratio
					worst_c_row = name
				}
				if (grp == "control")
					nctl++
			}
			pr = paired(key)
			if (pr != "" && (grp == "a" || grp == "b" || grp == "control")) {
				lim = grp == "control" ? lim_ctl : lim_pair
				if (!(grp in worst_p) || pmed[key] > worst_p[grp] + 0) {
					worst_p[grp] = sprintf("%.2f", pmed[key])
					worst_p_row[grp] = f[2] " " f[3] " " f[4]
				}
				if (sprintf("%.2f", pmed[key]) + 0 > lim + 0)
					pfail = 1
			}
			if (dat != "")
				printf "%d %.4f \"%s %s %s %s\" %d\n", ++nplot, q, f[1], f[2], f[3], f[4], (grp in gidx ? gidx[grp] : 5) > dat
		}
		printf fmt, f[2], f[3], f[4], sy, s, p, ratio, mratio, pr
		pr = ""
	}
	printf "\nGeometric means of %s/%s over the rows with both ratios:\n", kb, ka
	for (g = 1; g <= ngrp; g++) {
		c = gorder[g]
		if (gn[c])
			printf "%-10s median ratio %.3f, min ratio %.3f, over %d rows\n", glabel(c), exp(gmed[c] / gn[c]), exp(gmin[c] / gn[c]), gn[c]
		else
			printf "%-10s no row with both ratios\n", glabel(c)
	}
	# The verdict: the figures as printed (ratios to 2 places, the mean
	# to 3) against the limits.
	pass = 1
	if (na) {
		geo_a = sprintf("%.3f", exp(gmed["a"] / gn["a"]))
		if (worst_a + 0 > lim_row + 0 || geo_a + 0 > lim_geo + 0)
			pass = 0
		va = sprintf("max min-ratio %s (%s), geomean %s", worst_a, worst_a_row, geo_a)
	} else {
		pass = 0
		va = "no row with both ratios"
	}
	if (nctl) {
		if (worst_c + 0 > lim_ctl + 0)
			pass = 0
		vc = sprintf("max %s (%s)", worst_c, worst_c_row)
	} else {
		pass = 0
		vc = "no row with both ratios"
	}
	printf "\nsingle-call rows: %s; control: %s: %s\n", va, vc, pass ? "PASS" : "FAIL"
	printf "(the verdict: every (a) row with both figures at min ratio <= %.2f, the geometric mean of their median ratios <= %.2f, every control row at min ratio <= %.2f)\n", lim_row, lim_geo, lim_ctl
	if (!("a" in worst_p) || !("control" in worst_p))
		pfail = 1
	printf "paired rows: max (a) %s (%s), max (b) %s (%s), max control %s (%s): %s\n",
		worst_p["a"], worst_p_row["a"], worst_p["b"], worst_p_row["b"],
		worst_p["control"], worst_p_row["control"], pfail ? "FAIL" : "PASS"
	printf "(the paired verdict: every (a) and (b) row at a paired ratio <= %.2f, every control row <= %.2f)\n", lim_pair, lim_ctl
	printf "ratio: %s/%s of the medians (\"!\": %s at least 10%% slower); min ratio: of the mins;\n", kb, ka, kb
	printf "paired: the median of the rounds' %s/%s ratios (each round's two boots side by side), with the quartiles;\n", kb, ka
	printf "sys: system calls per operation, as the program issues them; n/a: the %s kernel has no such file.\n", ka
	if (nfio) {
		printf "\n(fio) Debian's fio on the ext4 scratch disk, 4 KiB: O_DIRECT at queue depth 16, buffered random reads of a file out of the page cache at 1 and 32 (IOPS, higher is better; slat: microseconds in io_submit()/io_uring_enter() a request)\n"
		iw = 12
		if (length(ka " IOPS") > iw)
			iw = length(ka " IOPS")
		if (length(kb " IOPS") > iw)
			iw = length(kb " IOPS")
		ffmt = "%-10s %-10s %-18s %" iw "s %" iw "s %-8s %" iw "s %" iw "s %s\n"
		printf ffmt, "engine", "rw", "job", ka " IOPS", kb " IOPS", kb "/" ka, ka " slat", kb " slat", kb "/" ka
		for (r = 1; r <= nfio; r++) {
			key = forder[r]
			split(key, f, " ")
			for (kk = 1; kk <= 2; kk++) {
				kn = kk == 1 ? ka : kb
				n = niops[kn, key]
				split("", l)
				for (i = 1; i <= n; i++)
					l[i] = iops[kn, key, i]
				v[kk] = n ? median(l, n) : ""
				n = nslat[kn, key]
				split("", l)
				for (i = 1; i <= n; i++)
					l[i] = slat[kn, key, i]
				sl[kk] = n ? median(l, n) : ""
			}
			ratio = v[1] > 0 && v[2] != "" ? sprintf("%.2f", v[2] / v[1]) : ""
			sratio = sl[1] > 0 && sl[2] != "" ? sprintf("%.2f", sl[2] / sl[1]) : ""
			printf ffmt, f[1], f[2], f[3],
				v[1] == "" ? "-" : sprintf("%.0f", v[1]),
				v[2] == "" ? "-" : sprintf("%.0f", v[2]), ratio,
				sl[1] == "" ? "-" : sprintf("%.1f", sl[1]),
				sl[2] == "" ? "-" : sprintf("%.1f", sl[2]), sratio
		}
	}
}

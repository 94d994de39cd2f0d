# make bench: the table of patched/stock ratios, from the guest outputs.
# usage: awk -v dat=ratios.dat -f table.awk <kernel>-<round>.out...
# A file's kernel is its name up to the last "-<round>.out" (stock, patched).
# Each "bench ..." row (bench/vaio-bench.c) becomes one table row: per kernel
# the median of its boots' medians (one boot: that median) with the smallest
# min and the largest max, in microseconds per operation, then the ratio of
# the patched median to the stock one, and that of the mins (on a busy host
# noise only ever adds time, so the mins are a second opinion). A kernel on which the operation
# failed shows the errno instead ("n/a" for a file it does not have, ENOENT),
# and the row has no ratio. "fio ..." rows get IOPS and their ratio.
# dat= gets "index ratio label group" for the plot.

function kernel_of(f) {
	sub(/.*\//, "", f)
	sub(/-[0-9]+\.out$/, "", f)
	return f
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

FNR == 1 {
	k = kernel_of(FILENAME)
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
	}
}

END {
	title["a"] = "(a) read/write on single files: the no-regression check"
	title["b"] = "(b) readv/writev of 8-byte segments on formerly legacy files"
	title["c"] = "(c) N segments: one io_submit PREADV/PWRITEV, N PREAD/PWRITE iocbs, preadv/pwritev, io_uring READV/WRITEV"
	fmt = "%-18s %-13s %-9s %4s %-22s %-22s %-9s %s\n"
	ngrp = 0
	for (r = 1; r <= nrows; r++) {
		key = order[r]
		split(key, f, " ")
		if (f[1] != grp) {
			grp = f[1]
			ngrp++
			printf "\n%s\n", title[grp]
			printf fmt, "file", "operation", "size", "sys", "stock us [min-max]", "patched us [min-max]", "ratio", "min ratio"
		}
		s = cell("stock", key)
		p = cell("patched", key)
		# System calls: those of a kernel that did the operation.
		sy = "-"
		if (("patched", key) in sys && !(("patched", key) in err))
			sy = sys["patched", key]
		else if (("stock", key) in sys && !(("stock", key) in err))
			sy = sys["stock", key]
		if (("stock", key) in medv && ("patched", key) in medv && sys["stock", key] != sys["patched", key])
			sy = sys["stock", key] "/" sys["patched", key]
		sub(/\.00$/, "", sy)
		ratio = mratio = ""
		if (("stock", key) in medv && ("patched", key) in medv && medv["stock", key] > 0) {
			q = medv["patched", key] / medv["stock", key]
			ratio = sprintf("%.2f%s", q, q >= 1.10 ? " !" : "")
			if (mn["stock", key] > 0)
				mratio = sprintf("%.2f", mn["patched", key] / mn["stock", key])
			geo[grp] += log(q)
			ngeo[grp]++
			if (dat != "")
				printf "%d %.4f \"%s %s %s %s\" %d\n", ++nplot, q, f[1], f[2], f[3], f[4], ngrp > dat
		}
		printf fmt, f[2], f[3], f[4], sy, s, p, ratio, mratio
	}
	printf "\nGeometric mean of patched/stock over the rows with a ratio:"
	for (g = 1; g <= 3; g++) {
		c = substr("abc", g, 1)
		if (ngeo[c])
			printf " (%s) %.3f over %d rows;", c, exp(geo[c] / ngeo[c]), ngeo[c]
	}
	printf "\nratio: patched/stock of the medians (\"!\": patched at least 10%% slower); min ratio: of the mins;\n"
	printf "sys: system calls per operation, as the program issues them; n/a: the stock kernel has no such file.\n"
	if (nfio) {
		printf "\n(fio) Debian's fio on the ext4 scratch disk, O_DIRECT, 4 KiB, queue depth 16 (IOPS, higher is better)\n"
		printf "%-10s %-10s %-8s %12s %12s %s\n", "engine", "rw", "job", "stock IOPS", "patched IOPS", "patched/stock"
		for (r = 1; r <= nfio; r++) {
			key = forder[r]
			split(key, f, " ")
			for (kk = 1; kk <= 2; kk++) {
				kn = kk == 1 ? "stock" : "patched"
				n = niops[kn, key]
				split("", l)
				for (i = 1; i <= n; i++)
					l[i] = iops[kn, key, i]
				v[kn] = n ? median(l, n) : ""
			}
			ratio = v["stock"] > 0 && v["patched"] != "" ? sprintf("%.2f", v["patched"] / v["stock"]) : ""
			printf "%-10s %-10s %-8s %12s %12s %s\n", f[1], f[2], f[3],
				v["stock"] == "" ? "-" : sprintf("%.0f", v["stock"]),
				v["patched"] == "" ? "-" : sprintf("%.0f", v["patched"]), ratio
		}
	}
}

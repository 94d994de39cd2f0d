#!/usr/bin/env python3
"""make tcgstat's report (see scripts/tcgstat.sh).

usage: tcgstat-report.py <dir> <rows regex> <kernel>... -- <layout>...

Reads <dir>/<kernel>-layout<n>.{out,stat,map}: vaio-bench's output (one
"bench" line a row, in row order), the counting QEMU's sums per row, and the
kernel's System.map; and <dir>/vaio-bench-<n>, the layout's benchmark.
Prints, per row, the per-operation means over the layouts of each kernel,
then, for the rows the regex picks, each layout apart with the blocks that
missed the jump cache, and finally how the difference in host time between
the kernels follows the difference in misses over every row and layout.
"""
import bisect
import re
import subprocess
import sys

FIELDS = ["syscall", "lookup", "jc_miss", "exit", "tb_gen", "victim",
          "tlb_fill", "slow_ld", "slow_st", "ns"]


def jc_index(pc):
    """QEMU 7.2's tb_jmp_cache_hash_func() for 4 KiB pages."""
    tmp = pc ^ (pc >> 6)
    return ((tmp >> 6) & 0xfc0) | (tmp & 0x3f)


def symbols(lines):
    tab = []
    for line in lines:
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            tab.append((int(f[0], 16), f[2]))
    tab.sort()
    return tab


def name(tab, pc):
    if pc == 0:
        return "(empty)"
    i = bisect.bisect_right(tab, (pc, "\xff")) - 1
    return f"{tab[i][1]}+{pc - tab[i][0]:#x}" if i >= 0 else hex(pc)


def load(d, k, j, user):
    base = f"{d}/{k}-layout{j}"
    labels = []
    for line in open(base + ".out"):
        if not line.startswith("bench "):
            continue
        f = line.split()
        kv = dict(x.split("=", 1) for x in f[5:] if "=" in x)
        labels.append((" ".join(f[1:5]), int(kv.get("iters", 0)) if "err" not in kv else 0))
    kern = symbols(open(base + ".map"))
    rows, misses = {}, {}
    for line in open(base + ".stat"):
        f = line.split()
        if f[0] == "row":
            r, reps = int(f[1]), int(f[2])
            if r < len(labels) and labels[r][1]:
                ops = reps * labels[r][1]
                rows[labels[r][0]] = {n: int(v) / ops for n, v in zip(FIELDS, f[3:])}
                rows[labels[r][0]]["ops"] = ops
        elif f[0] == "miss":
            r = int(f[1])
            if r < len(labels) and labels[r][0] in rows:
                misses.setdefault(labels[r][0], []).append(
                    (int(f[2], 16), int(f[3], 16), int(f[4]) / rows[labels[r][0]]["ops"]))
    def tab(pc):
        return name(user if pc < (1 << 47) else kern, pc)
    return rows, misses, tab, labels


def main():
    d, rows_re = sys.argv[1:3]
    rest = sys.argv[3:]
    sep = rest.index("--")
    kernels, layouts = rest[:sep], rest[sep + 1:]
    user = {j: symbols(subprocess.run(["nm", "-n", f"{d}/vaio-bench-{j}"], capture_output=True,
                                      text=True, check=True).stdout.splitlines())
            for j in layouts}
    data = {(k, j): load(d, k, j, user[j]) for k in kernels for j in layouts}
    a, b = kernels[0], kernels[-1]
    order = [lab for lab, it in data[(a, layouts[0])][3] if it]
    common = [lab for lab in order
              if all(lab in data[(k, j)][0] for k in kernels for j in layouts)]

    def mean(k, lab, f):
        return sum(data[(k, j)][0][lab][f] for j in layouts) / len(layouts)

    print(f"make tcgstat: TCG's work per operation of vaio-bench's rows, {a} and {b},"
          f" layouts {' '.join(layouts)} (means over the layouts)")
    print("  ns: host time; miss: lookups of the next block that missed the jump cache;"
          " look: all lookups; exit: blocks entered from QEMU's main loop;"
          " tlb: victim TLB hits and page walks; slow: slow-path loads and stores")
    hdr = f"{'row':44s} {'ns ' + a:>9s} {b:>9s} {'ratio':>6s} {'miss':>11s} {'look':>13s} {'exit':>11s} {'tlb':>11s} {'slow':>11s}"
    print(hdr)
    for lab in common:
        ns_a, ns_b = mean(a, lab, "ns"), mean(b, lab, "ns")
        cells = []
        for f in (("jc_miss",), ("lookup",), ("exit",), ("victim", "tlb_fill"), ("slow_ld", "slow_st")):
            va = sum(mean(a, lab, x) for x in f)
            vb = sum(mean(b, lab, x) for x in f)
            w = 13 if f == ("lookup",) else 11
            cells.append(f"{va:{(w - 1) // 2}.1f}/{vb:<{(w - 1) // 2}.1f}")
        print(f"{lab[:44]:44s} {ns_a:9.1f} {ns_b:9.1f} {ns_b / ns_a if ns_a else 0:6.3f} " + " ".join(cells))

    pick = [lab for lab in common if re.search(rows_re, lab + " ")]
    print()
    print(f"Rows {rows_re!r}, each layout: host ns, and the jump cache misses per operation"
          " by block (the block that missed, the one its entry held, the entry)")
    for lab in pick:
        print(f"\n== {lab}")
        for j in layouts:
            ra, rb = data[(a, j)][0][lab], data[(b, j)][0][lab]
            print(f"  layout {j}: ns {ra['ns']:.1f} / {rb['ns']:.1f} = {rb['ns'] / ra['ns']:.3f};"
                  f" misses {ra['jc_miss']:.2f} / {rb['jc_miss']:.2f}")
            for k in kernels:
                rows, misses, tab, _ = data[(k, j)]
                for pc, held, per in sorted(misses.get(lab, []), key=lambda x: -x[2]):
                    if per < 0.05:
                        break
                    print(f"    {k:8s} {per:5.2f} {tab(pc):44s} held {tab(held):44s} entry {jc_index(pc)}")

    xs, ys = [], []
    for lab in common:
        if not lab.startswith(("a ", "b ", "control ")):
            continue
        for j in layouts:
            ra, rb = data[(a, j)][0][lab], data[(b, j)][0][lab]
            xs.append(rb["jc_miss"] - ra["jc_miss"])
            ys.append(rb["ns"] - ra["ns"])
    if len(xs) > 2:
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        syy = sum((y - my) ** 2 for y in ys)
        sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
        if sxx and syy:
            print()
            print(f"Groups a, b and control, {n} row-layouts: {b} - {a} host ns per operation against"
                  f" {b} - {a} misses: {sxy / sxx:.1f} ns a miss, correlation {sxy / (sxx * syy) ** 0.5:.2f}")


if __name__ == "__main__":
    main()

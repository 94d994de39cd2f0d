#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# make profile's report (scripts/profile.sh): guest instructions per
# operation, per row and per function, on each kernel profiled.
# usage: profile-report.py <dir> <iters> <rows> <kernel>...
import bisect
import collections
import sys

pdir, iters, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3]
kernels = sys.argv[4:]
labels = [r.split()[0] for r in rows.strip().splitlines()]
# bench/insnprof.c's enum tb_end
END_NAMES = ["branch", "ret", "indirect", "exit"]


def load_syms(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[1] in "tTwW":
                addrs.append(int(p[0], 16))
                names.append(p[2])
    return addrs, names


def load(k):
    addrs, names = load_syms(f"{pdir}/{k}.nm")
    windows = []
    tbs = []
    ends = []
    mems = []
    fmems = []
    looks = []      # per window: Counter of lookups, misses
    missed = []     # per window: Counter of "function+offset" missed
    walked = []     # per window: Counter of function: page walks
    cur = None
    with open(f"{pdir}/{k}.windows") as f:
        for line in f:
            if line.startswith("# window"):
                hdr = line.split()
                cur = collections.Counter()
                windows.append(cur)
                tbs.append(0)
                mems.append(0)
                fmems.append(collections.Counter())
                ends.append(collections.Counter())
                looks.append(collections.Counter())
                missed.append(collections.Counter())
                walked.append(collections.Counter())
                if len(hdr) >= 5 and hdr[3] == "translations":
                    looks[-1]["translations"] = int(hdr[4])
                continue
            fld = line.split()
            va, n, c, end, pages, mem = fld[:6]
            lk, ms = (int(fld[6]), int(fld[7])) if len(fld) >= 8 else (0, 0)
            vt, fl = (int(fld[8]), int(fld[9])) if len(fld) >= 10 else (0, 0)
            looks[-1]["tlb victim"] += vt
            looks[-1]["tlb fills"] += fl
            va, n, c, end, pages = int(va, 16), int(n), int(c), int(end), int(pages)
            looks[-1]["lookups"] += lk
            looks[-1]["misses"] += ms
            mems[-1] += int(mem)
            ends[-1][END_NAMES[end]] += c
            ends[-1]["page changes"] += pages
            if va < 0xffff800000000000:
                name = "[user]"
            else:
                i = bisect.bisect_right(addrs, va) - 1
                name = names[i] if i >= 0 else "[kernel?]"
            if ms:
                off = va - addrs[i] if va >= 0xffff800000000000 and i >= 0 else va
                missed[-1][f"{name}+{off:#x}"] += ms
            if fl:
                walked[-1][name] += fl
            cur[name] += n * c
            fmems[-1][name] += int(mem)
            tbs[-1] += c
    rets = {}
    with open(f"{pdir}/{k}.out") as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[0] == "callprof":
                rets[p[1]] = (int(p[2].split("=")[1]), p[3].split("=")[1])
    return windows, rets, tbs, ends, mems, fmems, looks, missed, walked


data = {k: load(k) for k in kernels}
print(f"make profile: guest instructions per operation ({iters} operations a row, TCG plugin)")
print("kernels: " + " ".join(kernels))
summary = []
for i, label in enumerate(labels):
    per = {}
    for k in kernels:
        windows, rets, tbs, ends, mems, fmems, looks, missed, walked = data[k]
        n, ret = rets.get(label, (0, "?"))
        w = windows[i] if i < len(windows) else collections.Counter()
        e = ends[i] if i < len(ends) else collections.Counter()
        per[k] = ({f: v / n for f, v in w.items()} if n else {}, ret,
                  tbs[i] / n if n and i < len(tbs) else 0,
                  {x: v / n for x, v in e.items()} if n else {},
                  mems[i] / n if n and i < len(mems) else 0,
                  {f: v / n for f, v in fmems[i].items()} if n and i < len(fmems) else {},
                  {x: v / n for x, v in looks[i].items()} if n and i < len(looks) else {},
                  {x: v / n for x, v in missed[i].items()} if n and i < len(missed) else {},
                  {x: v / n for x, v in walked[i].items()} if n and i < len(walked) else {})
    print()
    print(f"== {label}: " + ", ".join(f"{k} ret={per[k][1]}" for k in kernels))
    tot = {k: sum(per[k][0].values()) for k in kernels}
    kern = {k: sum(v for f, v in per[k][0].items() if f != "[user]") for k in kernels}
    print("   " + "   ".join(f"{k}: {tot[k]:.1f} total, {kern[k]:.1f} kernel, {per[k][2]:.1f} blocks, {per[k][4]:.1f} memory accesses" for k in kernels))
    print("   blocks ending in: " + "   ".join(
        f"{k}: " + ", ".join(f"{x} {per[k][3].get(x, 0):.1f}" for x in END_NAMES[1:] + ["page changes"])
        for k in kernels))
    n_of = {k: data[k][1].get(label, (0, "?"))[0] for k in kernels}
    print("   jump cache: " + "   ".join(
        f"{k}: {per[k][6].get('lookups', 0):.1f} lookups, {per[k][6].get('misses', 0):.2f} misses, "
        f"{per[k][6].get('translations', 0) * n_of[k]:.0f} blocks translated in the row"
        for k in kernels))
    print("   TLB (256 entries, 8 victims): " + "   ".join(
        f"{k}: {per[k][6].get('tlb victim', 0):.2f} from the victim TLB, "
        f"{per[k][6].get('tlb fills', 0):.2f} page walks"
        for k in kernels))
    for k in kernels:
        top = sorted(((v, b) for b, v in per[k][7].items() if v >= 0.05), reverse=True)[:8]
        if top:
            print(f"   {k} misses: " + ", ".join(f"{b} {v:.2f}" for v, b in top))
        top = sorted(((v, b) for b, v in per[k][8].items() if v >= 0.05), reverse=True)[:8]
        if top:
            print(f"   {k} page walks: " + ", ".join(f"{b} {v:.2f}" for v, b in top))
    summary.append((label, tot, {k: per[k][2] for k in kernels},
                    {k: per[k][4] for k in kernels},
                    {k: per[k][6].get('misses', 0) for k in kernels},
                    {k: per[k][6].get('tlb fills', 0) for k in kernels}))
    funcs = set()
    for k in kernels:
        funcs |= {f for f, v in per[k][0].items() if v >= 0.5}
    base = kernels[0]

    def key(f):
        vals = [per[k][0].get(f, 0) for k in kernels]
        return -(max(vals) - min(vals)), -max(vals)
    print(f"   {'function':40s}" + "".join(f"{k:>10s}" for k in kernels) +
          ("      diff" if len(kernels) == 2 else "") +
          "".join(f"{k + ' mem':>12s}" for k in kernels))
    for f in sorted(funcs, key=key):
        vals = [per[k][0].get(f, 0) for k in kernels]
        line = f"   {f[:40]:40s}" + "".join(f"{v:10.1f}" for v in vals)
        if len(kernels) == 2:
            line += f"{vals[1] - vals[0]:+10.1f}"
        line += "".join(f"{per[k][5].get(f, 0):12.1f}" for k in kernels)
        print(line)
print()
print("== summary: instructions, translation blocks entered, memory accesses, jump cache misses and page walks, per operation")
two = len(kernels) == 2
print(f"   {'row':30s}" + "".join(f"{k + ' insns':>16s}" for k in kernels) +
      ("     ratio" if two else "") +
      "".join(f"{k + ' blocks':>16s}" for k in kernels) + ("     ratio" if two else "") +
      "".join(f"{k + ' mem':>14s}" for k in kernels) + ("     ratio" if two else "") +
      "".join(f"{k + ' miss':>13s}" for k in kernels) +
      "".join(f"{k + ' walks':>14s}" for k in kernels))
for label, tot, blk, mem, miss, walks in summary:
    line = f"   {label:30s}" + "".join(f"{tot[k]:16.1f}" for k in kernels)
    if two:
        line += f"{tot[kernels[1]] / tot[kernels[0]]:10.3f}" if tot[kernels[0]] else f"{'':10s}"
    line += "".join(f"{blk[k]:16.1f}" for k in kernels)
    if two:
        line += f"{blk[kernels[1]] / blk[kernels[0]]:10.3f}" if blk[kernels[0]] else f"{'':10s}"
    line += "".join(f"{mem[k]:14.1f}" for k in kernels)
    if two:
        line += f"{mem[kernels[1]] / mem[kernels[0]]:10.3f}" if mem[kernels[0]] else f"{'':10s}"
    line += "".join(f"{miss[k]:13.2f}" for k in kernels)
    line += "".join(f"{walks[k]:14.2f}" for k in kernels)
    print(line)

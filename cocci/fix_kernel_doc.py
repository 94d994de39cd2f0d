#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# After a conversion: the kernel-doc comment of each X_iter(struct kiocb *iocb,
# struct iov_iter *to|from) that still documents X and its ->read/->write
# parameters gets the new name and @iocb/@to or @iocb/@from. Read the result.
# usage: fix_kernel_doc.py file.c...
import re
import sys

for p in sys.argv[1:]:
    s = open(p).read()
    out = s
    for m in re.finditer(r"\n(?:static )?ssize_t\s+(\w+)_iter\(struct kiocb \*iocb,\s*struct iov_iter \*(to|from)\)", s):
        name, it = m.group(1), m.group(2)
        end = m.start()
        cstart = s.rfind("/**", 0, end)
        cend = s.find("*/", cstart)
        if cstart < 0 or cend < 0 or s[cend + 2:end].strip():
            continue
        block = s[cstart:cend + 2]
        if not re.search(r"\*\s+%s(\(\))?\s+-" % re.escape(name), block):
            continue
        new = []
        params_done = False
        in_params = False
        for l in block.split("\n"):
            if re.match(r"\s*\*\s+@\w+:", l):
                # the old parameters give way to the two of the iter method
                in_params = True
                if not params_done:
                    new.append(" * @iocb: the request; iocb->ki_filp is the file " + ("read" if it == "to" else "written"))
                    new.append(" * @to: where the data goes, iov_iter_count() bytes at most" if it == "to" else " * @from: the data written, iov_iter_count() bytes of it")
                    params_done = True
                continue
            if in_params and re.match(r"\s*\*(\t| {2,})\S", l):
                continue    # the continuation of an old parameter's text
            in_params = False
            new.append(re.sub(r"^(\s*\*\s+)%s(\(\))?(\s+-)" % re.escape(name), lambda mm: mm.group(1) + name + "_iter" + (mm.group(2) or "") + mm.group(3), l, count=1))
        nb = "\n".join(new)
        if nb != block:
            out = out.replace(block, nb, 1)
    if out != s:
        open(p, "w").write(out)
        print("fixed", p)

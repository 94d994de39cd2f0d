#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""After a conversion: a forward declaration of a method X that a semantic
patch turned into X_iter(struct kiocb *iocb, struct iov_iter *to|from)
("static ssize_t X(struct file *, char __user *, size_t, loff_t *);", on
one line or several) becomes the declaration of X_iter. Coccinelle's
function prototype rules could not take the fresh name of the converted
method. Read the result.
usage: fix_prototypes.py file.c...
"""
import re
import sys

for p in sys.argv[1:]:
    s = open(p).read()
    out = s
    for m in re.finditer(r"\n(static )?ssize_t\s+(\w+)_iter\(struct kiocb \*iocb,\s*struct iov_iter \*(to|from)\)\n\{", s):
        static, name, it = m.group(1) or "", m.group(2), m.group(3)
        proto = re.compile(r"\n%sssize_t\s+%s\s*\(\s*struct file\s*\*[^;{]*\);" % (re.escape(static), re.escape(name)))
        out = proto.sub("\n%sssize_t %s_iter(struct kiocb *iocb, struct iov_iter *%s);" % (static, name, it), out)
    if out != s:
        open(p, "w").write(out)
        print("fixed", p)

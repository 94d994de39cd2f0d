#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Add the blank line checkpatch asks for after the declarations a
semantic patch put at the top of a converted method.

Runs scripts/checkpatch.pl --strict on the working tree's diff of the
given files (from the kernel tree's top folder) and, for each "Missing a
blank line after declarations" it reports, inserts an empty line before
the line it names. Read the result.
usage: blank_after_decls.py <file>...
"""
import re
import subprocess
import sys

files = sys.argv[1:]
diff = subprocess.run(["git", "diff", "--"] + files, capture_output=True,
                      text=True, check=True).stdout
if not diff:
    sys.exit(0)
out = subprocess.run(["scripts/checkpatch.pl", "--strict", "--no-signoff",
                      "--showfile", "-"], input=diff, capture_output=True,
                     text=True).stdout
where = {}
lines = out.split("\n")
for i, l in enumerate(lines):
    if "Missing a blank line after declarations" not in l:
        continue
    for k in lines[i + 1:i + 4]:
        m = re.match(r"#\d+: FILE: ([^:]+):(\d+):", k)
        if m:
            where.setdefault(m.group(1), []).append(int(m.group(2)))
            break
for path, nums in where.items():
    text = open(path).read().split("\n")
    for n in sorted(set(nums), reverse=True):
        text.insert(n - 1, "")
    open(path, "w").write("\n".join(text))
    print(path, "blank line before", ", ".join(map(str, sorted(set(nums)))))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Align the designated initializers a semantic patch added or rewrote.

Coccinelle prints the initializer lines it adds or rewrites as
".field = value,"; the structures it edits often align their "=" with
tabs or spaces. For every added line of the form "<tab>.field = value" in
the working tree's diff of the given files, take the nearest unchanged
initializer line of the same structure and pad ".field" the same way (tabs
if it uses tabs, spaces if spaces) so that "=" falls in its column; a field
longer than that column gets one space (or one tab). A line that holds only
whitespace right before such an added line, which Coccinelle leaves where it
added a comma to the previous last initializer, is removed.
usage: align_initializers.py <file>...
"""
import re
import subprocess
import sys

INIT = re.compile(r'^(\t)\.(\w+)(\s*)=\s*(.*)$')


def col_of(text):
    c = 0
    for ch in text:
        c = (c // 8 + 1) * 8 if ch == '\t' else c + 1
    return c


def added_lines(path):
    diff = subprocess.run(['git', 'diff', '-U0', '--', path],
                          capture_output=True, text=True, check=True).stdout
    added = set()
    for m in re.finditer(r'^@@ -\S+ \+(\d+)(?:,(\d+))? @@', diff, re.M):
        start, n = int(m.group(1)), int(m.group(2) or 1)
        added.update(range(start, start + n))
    return added


def neighbour(lines, i, added):
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(lines):
            line = lines[j]
            if line.startswith('}') or line.rstrip().endswith('{'):
                break
            if (j + 1) not in added:
                m = INIT.match(line)
                if m:
                    return m
            j += step
    return None


def fix(path):
    added = added_lines(path)
    lines = open(path).read().split('\n')
    out = []
    for i, line in enumerate(lines):
        if (i + 1) in added and not line.strip() and i + 1 < len(lines) \
           and INIT.match(lines[i + 1]) and (i + 2) in added:
            continue
        m = INIT.match(line)
        if (i + 1) in added and m:
            nb = neighbour(lines, i, added)
            if nb and nb.group(3) not in (' ', ''):
                target = col_of('\t.' + nb.group(2) + nb.group(3))
                head = '\t.' + m.group(2)
                if '\t' in nb.group(3):
                    pad = ''
                    while col_of(head + pad) < target:
                        pad += '\t'
                    pad = pad or '\t'
                else:
                    pad = ' ' * max(1, target - col_of(head))
                line = head + pad + '= ' + m.group(4)
        out.append(line)
    open(path, 'w').write('\n'.join(out))


for p in sys.argv[1:]:
    fix(p)

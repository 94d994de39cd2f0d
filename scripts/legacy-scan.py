#!/usr/bin/env python3
"""A second, brace-matching scan for struct file_operations initializers that
set .read or .write, for the shapes legacy-report.sh's other rules do not
see: any initializer after 'struct file_operations ... =' whatever its
indentation or attributes (a function-local static, __maybe_unused), one of
a member declared 'struct file_operations <name>;', a compound literal, a
run-time store into such a member; and macros, in any .c or .h file (a macro
defined in a .c file or a driver's private header, or one whose body is a
bare initializer used for an element of an array of file_operations).

A .read/.write counts when the innermost brace around it is a file_operations
initializer: one that follows 'struct file_operations ... =', or a bare brace
whose members at that level include one that only file_operations has beside
them (.owner, .open, .llseek, .read_iter, .write_iter, .release, .poll,
.unlocked_ioctl, .fop_flags). A driver's own structure with .read/.write
members and an embedded file_operations is not counted.
usage: legacy-scan.py <tree>   (prints "file:line: what" lines)
"""
import os
import re
import subprocess
import sys

FOPS_ONLY = re.compile(r'\.(owner|open|llseek|read_iter|write_iter|release|poll|'
                       r'unlocked_ioctl|fop_flags)\s*=')
RW = re.compile(r'(?<![\w>])\.(read|write)\s*=')


def macros(text):
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        if re.match(r'\s*#\s*define\b', lines[i]):
            start, body = i, [lines[i]]
            while lines[i].rstrip().endswith('\\') and i + 1 < len(lines):
                i += 1
                body.append(lines[i])
            name = re.match(r'\s*#\s*define\s+(\w+)', lines[start])
            yield start + 1, name.group(1) if name else '?', '\n'.join(body)
        i += 1


def enclosing_brace(body, pos):
    depth = 0
    for j in range(pos - 1, -1, -1):
        c = body[j]
        if c == '}':
            depth += 1
        elif c == '{':
            if depth == 0:
                return j
            depth -= 1
    return -1


def level_text(body, open_pos):
    """The text of the brace at open_pos, without its nested braces."""
    out, depth = [], 0
    for c in body[open_pos + 1:]:
        if c == '{':
            depth += 1
        elif c == '}':
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            out.append(c)
    return ''.join(out)


def is_fops_brace(body, open_pos):
    before = body[:open_pos]
    if re.search(r'struct\s+file_operations\b[^;{}]*=\s*$', before):
        return True
    if re.search(r'\(\s*(const\s+)?struct\s+file_operations\s*\)\s*$', before):
        return True
    return bool(FOPS_ONLY.search(level_text(body, open_pos)))


def match_brace(t, i):
    depth = 0
    for j in range(i, len(t)):
        if t[j] == '{':
            depth += 1
        elif t[j] == '}':
            depth -= 1
            if depth == 0:
                return j
    return len(t)


def initializers(root, files):
    texts, members = {}, set()
    for f in files:
        try:
            with open(os.path.join(root, f), errors='replace') as fh:
                t = fh.read()
        except OSError:
            continue
        if 'file_operations' not in t:
            continue
        t = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), t, flags=re.S)
        t = re.sub(r'//[^\n]*', '', t)
        texts[f] = t
        for m in re.finditer(r'struct\s+file_operations\s+(\w+)\s*(\[[^\]]*\])?\s*;', t):
            members.add(m.group(1))
    for f, t in texts.items():
        opens = [m.end() - 1 for m in
                 re.finditer(r'struct\s+file_operations\b[^;{()]*?=\s*\{', t)]
        opens += [m.end() - 1 for m in
                  re.finditer(r'\(\s*(const\s+)?struct\s+file_operations\s*\)\s*\{', t)]
        for mem in members:
            opens += [m.end() - 1 for m in re.finditer(r'\.' + re.escape(mem) + r'\s*=\s*\{', t)]
        seen = set()
        for i in opens:
            body = t[i:match_brace(t, i)]
            for m in RW.finditer(body):
                if enclosing_brace(body, m.start()) != 0:
                    continue
                line = t.count('\n', 0, i + m.start()) + 1
                if line not in seen:
                    seen.add(line)
                    print('%s:%d: %s' % (f, line, m.group(0).strip()))
        for m in re.finditer(r'(->|\.)(fops|f_ops|file_ops|f_op|proxy_fops|real_fops)\s*'
                             r'(->|\.)\s*(read|write)\s*=(?!=)', t):
            print('%s:%d: %s' % (f, t.count('\n', 0, m.start()) + 1, m.group(0)))


def main():
    root = sys.argv[1]
    files = subprocess.run(['git', '-C', root, 'ls-files', '*.c', '*.h'],
                           capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in files if not f.startswith(('tools/', 'Documentation/', 'scripts/'))]
    initializers(root, files)
    for f in files:
        if f.startswith(('tools/', 'Documentation/', 'scripts/')):
            continue
        try:
            with open(os.path.join(root, f), errors='replace') as fh:
                text = fh.read()
        except OSError:
            continue
        if '#define' not in text or not RW.search(text):
            continue
        text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)),
                      text, flags=re.S)
        for line, name, body in macros(text):
            for m in RW.finditer(body):
                b = enclosing_brace(body, m.start())
                if b >= 0 and is_fops_brace(body, b):
                    print('%s:%d: %s' % (f, line, name))
                    break


if __name__ == '__main__':
    main()

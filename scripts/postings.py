#!/usr/bin/env python3
"""Cut patches/ into postings that maintainers can apply one at a time.

usage: postings.py group   write patches/postings from patches/series
       postings.py write   write build/postings/NN-name/ from patches/
       postings.py check   apply each part on pristine and its prerequisites,
                           run checkpatch --strict on it, compile the objects
                           it touches at its tip (where make check-series
                           compiled them), and apply all parts in order to
                           compare the result with the series;
                           POSTINGS_PARTS="name ..." checks only the parts
                           whose names start with one of the words (the
                           comparison with the series still runs)

patches/postings holds one part a line:

    name  patches  prerequisites  subject

patches is a comma list of numbers and ranges of patches/series
(0002-0011,0040); prerequisites a comma list of part names, "-" for
none, or ALL for every part before it; subject the cover letter's subject.
The core parts, the removal and what follows it are fixed in CORE and
TAIL below; every other patch goes to the part of its maintainer tree, as
scripts/get_maintainer.pl --scm names it (the first tree that is not
Linus's, else the MAINTAINERS section of the first maintainer), cut
into parts of at most MAX_PART patches. A part needs the parts whose
patches it depends on: a file an earlier patch of another part touched,
or a function, macro or flag that another part's patch adds to a header.
Parts that need each other are merged; a merge of more than MAX_PART
patches is cut again in the order of its patches.
"""
import collections
import hashlib
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(TOP, 'patches')
TREE = os.environ.get('HARNESS_TREE', os.path.join(TOP, 'build', 'linux'))
OUT = os.path.join(TOP, 'build', 'postings')
GROUPS = os.path.join(PATCHES, 'postings')
TEXTS = os.path.join(PATCHES, 'postings.d')
MAX_PART = 15

# name, patches, prerequisites, subject
CORE = [
    ('vfs-core', '0002-0011', '-',
     'vfs: one ->read/->write emulation loop, and flags that keep the vector ABI of converted files'),
    ('vfs-helpers', '0012-0026', 'vfs-core',
     'vfs, iov_iter, lib: the cost of one call, and iov_iter twins of the user-buffer helpers'),
    ('gadgetfs-fix', '0001', '-',
     'usb: gadget: gadgetfs: copy single-buffer AIO reads to user space'),
    ('aio-tests', '0027-0035', 'vfs-core,vfs-helpers,gadgetfs-fix',
     'aio: a test module and kselftests for vectored AIO'),
    ('vfs-builtin', '0036-0039', 'vfs-core,vfs-helpers',
     'debugfs, seq_file, libfs, procfs: the built-in file types on ->read_iter/->write_iter'),
    ('aio-tests-converted', '0081-0085', 'aio-tests',
     'selftests: aio: converted files, 32-bit programs, bad input, durability'),
]
TAIL = [
    ('vfs-removal', '1081-1092', 'ALL',
     'vfs: remove ->read and ->write from struct file_operations'),
    ('aio-nowait', '1093-1103', 'vfs-removal',
     'aio: io_submit() that does not wait for the file'),
]
LINUS = 'git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git'


def die(msg):
    sys.stderr.write('postings: %s\n' % msg)
    sys.exit(1)


def step(msg):
    print('[postings] %s' % msg, flush=True)


def series():
    """The patch files of patches/series, in order; index i is patch i + 1."""
    with open(os.path.join(PATCHES, 'series')) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith('#')]


def expand(spec):
    out = []
    for item in spec.split(','):
        if '-' in item:
            a, b = item.split('-')
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(item))
    return out


def compress(nums):
    nums = sorted(nums)
    out = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append('%04d' % nums[i] if i == j else '%04d-%04d' % (nums[i], nums[j]))
        i = j + 1
    return ','.join(out)


def read_patch(name):
    with open(os.path.join(PATCHES, name), errors='replace') as f:
        return f.read()


def touched(text):
    return re.findall(r'^\+\+\+ b/(\S+)', text, re.M)


HDR_SYM = re.compile(r'^\+(?!\+\+).*?\b([A-Za-z_][A-Za-z0-9_]{3,})\s*\(', re.M)
HDR_DEF = re.compile(r'^\+\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)', re.M)
HDR_ENUM = re.compile(r'^\+\s*([A-Z][A-Z0-9_]{3,})\s*=', re.M)


def pristine_names():
    """Every identifier of the pristine tree's headers."""
    out = subprocess.run(['git', 'grep', '-h', '-o', '-w', '-E',
                          '[A-Za-z_][A-Za-z0-9_]{3,}', 'pristine', '--', '*.h'],
                         cwd=TREE, capture_output=True, text=True).stdout
    return set(out.split())


def added_symbols(text, known):
    """Names a patch adds to a header that no header of 6.12 has."""
    syms = set()
    for chunk in re.split(r'^diff --git ', text, flags=re.M)[1:]:
        if not re.match(r'a/\S+\.h ', chunk):
            continue
        syms |= (set(HDR_SYM.findall(chunk)) | set(HDR_DEF.findall(chunk)) |
                 set(HDR_ENUM.findall(chunk))) - known
    return syms


def maintainer_tree(path):
    """The first tree get_maintainer.pl --scm names that is not Linus's;
    for files without one, the MAINTAINERS section of their first
    maintainer."""
    out = subprocess.run(
        ['perl', 'scripts/get_maintainer.pl', '--no-git', '--no-git-fallback',
         '--scm', '--no-email', '--no-l', '--no-rolestats', path],
        cwd=TREE, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith('git ') and line.split()[1] != LINUS:
            return line.split()[1]
    out = subprocess.run(
        ['perl', 'scripts/get_maintainer.pl', '--no-git', '--no-git-fallback',
         '--no-l', '--separator', '\n', path],
        cwd=TREE, capture_output=True, text=True).stdout
    m = re.search(r'\((?:maintainer|supporter):(.*)\)$', out, re.M)
    return 'section:' + (m.group(1) if m else 'THE REST').replace(' ', '_')


def tree_name(url):
    """A part name: the tree's path on its server, or the section's name."""
    if url.startswith('section:'):
        url = url[8:]
    else:
        url = re.sub(r'\.git$', '', url.split()[0])
        url = re.sub(r'^.*/scm/linux/kernel/git/', '', url)
        url = re.sub(r'^[a-z]+://[^/]+/', '', url)
    return re.sub(r'[^A-Za-z0-9]+', '-', url).strip('-').lower()[:40]


def group():
    files = series()
    n = len(files)
    fixed = {}
    for name, spec, _, _ in CORE + TAIL:
        for p in expand(spec):
            fixed[p] = name
    step('asking get_maintainer.pl for the tree of %d patches' % (n - len(fixed)))
    trees = collections.OrderedDict()
    cache_file = os.path.join(TOP, 'build', 'postings-trees.cache')
    cache = {}
    if os.path.exists(cache_file):
        with open(cache_file) as f:
            cache = dict(l.split() for l in f if l.strip())
    for p in range(1, n + 1):
        if p in fixed:
            continue
        path = os.path.join(PATCHES, files[p - 1])
        key = patch_key(path)
        if key not in cache:
            cache[key] = maintainer_tree(path)
        trees.setdefault(tree_name(cache[key]), []).append(p)
    with open(cache_file, 'w') as f:
        f.write(''.join('%s %s\n' % kv for kv in cache.items()))
    parts = [(name, expand(spec), pre, subj) for name, spec, pre, subj in CORE]
    conv = []
    for tree, nums in trees.items():
        chunks = [nums[i:i + MAX_PART] for i in range(0, len(nums), MAX_PART)]
        for k, chunk in enumerate(chunks):
            name = tree if len(chunks) == 1 else '%s-%d' % (tree, k + 1)
            conv.append((chunk[0], name, chunk))
    conv.sort()
    part_of = {}
    for name, nums, _, _ in parts:
        for p in nums:
            part_of[p] = name
    for _, name, nums in conv:
        for p in nums:
            part_of[p] = name
    for name, spec, _, _ in TAIL:
        for p in expand(spec):
            part_of[p] = name
    # dependencies: earlier patches of other parts on the same file, and
    # header names other parts add
    texts = {p: read_patch(files[p - 1]) for p in range(1, n + 1)}
    known = pristine_names()
    last_toucher = {}
    adds = {}
    for p in range(1, n + 1):
        for s in added_symbols(texts[p], known):
            adds.setdefault(s, p)
    deps = collections.defaultdict(set)
    pdeps = collections.defaultdict(set)    # patch: the earlier patches it needs
    word = re.compile(r'\b[A-Za-z_][A-Za-z0-9_]{3,}\b')
    for p in range(1, n + 1):
        me = part_of[p]
        for f in touched(texts[p]):
            q = last_toucher.get(f)
            if q and part_of[q] != me:
                deps[me].add(part_of[q])
            if q:
                pdeps[p].add(q)
            last_toucher[f] = p
        plus = '\n'.join(l for l in texts[p].splitlines() if l.startswith('+'))
        for w in set(word.findall(plus)):
            q = adds.get(w)
            if q and q < p and part_of[q] != me:
                deps[me].add(part_of[q])
            if q and q < p:
                pdeps[p].add(q)
    base = {'vfs-core', 'vfs-helpers'}
    fixed_names = {name for name, _, _, _ in CORE}
    # Parts that need each other cannot go out apart: merge each cycle of
    # the dependency graph into one part, then order the parts so that
    # each comes after the parts it needs (by first patch where free).
    nums_of = {name: nums for _, name, nums in conv}
    graph = {n: {d for d in deps[n] if d in nums_of and d != n} for n in nums_of}
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(comp)
    for v in sorted(nums_of, key=lambda n: nums_of[n][0]):
        if v not in index:
            strong(v)
    merged = {}
    for comp in sccs:
        comp.sort(key=lambda n: nums_of[n][0])
        for n in comp:
            merged[n] = comp[0]
    mnums = collections.defaultdict(list)
    mdeps = collections.defaultdict(set)
    for n in nums_of:
        mnums[merged[n]].extend(nums_of[n])
        for d in deps[n]:
            mdeps[merged[n]].add(merged.get(d, d))
    for m in mnums:
        mnums[m].sort()
        mdeps[m].discard(m)
    step('%d parts merged into others because they need each other' %
         (len(nums_of) - len(mnums)))
    # A merged part of more than MAX_PART patches is cut again, in the
    # order of its patches. A chunk can need an earlier chunk but never a
    # later one: a part that an earlier chunk needs and that needs a later
    # one would close a cycle with them, and so would be in the merge.
    mpart = {p: m for m in mnums for p in mnums[m]}
    for m in [m for m in mnums if len(mnums[m]) > MAX_PART]:
        nums = mnums.pop(m)
        mdeps.pop(m)
        k = -(-len(nums) // MAX_PART)
        size = -(-len(nums) // k)
        cut = ['%s-%d' % (m, i + 1) for i in range(k)]
        for i, c in enumerate(cut):
            mnums[c] = nums[i * size:(i + 1) * size]
            for p in mnums[c]:
                mpart[p] = c
        step('%s: %d patches that need each other, cut into %d parts' % (m, len(nums), k))
        for c in cut:
            mdeps[c] = {mpart.get(q, part_of[q]) for p in mnums[c] for q in pdeps[p]} - {c}
        # the parts that needed m need the chunks their patches need
        for o in mdeps:
            if m in mdeps[o]:
                mdeps[o].discard(m)
                mdeps[o] |= ({mpart[q] for p in mnums[o] for q in pdeps[p]
                              if mpart.get(q) in cut} or set(cut))
    done, order = set(), []
    left = sorted(mnums, key=lambda m: mnums[m][0])
    while left:
        for m in left:
            if all(d in done or d in fixed_names for d in mdeps[m]):
                break
        else:
            die('no order of the parts puts each after the parts it needs')
        order.append(m)
        done.add(m)
        left.remove(m)
    out = []
    for name, nums, pre, subj in parts:
        out.append((name, nums, pre, subj))
    for name in order:
        nums = mnums[name]
        d = sorted((mdeps[name] | base) - {name})
        prefixes = collections.Counter()
        for p in nums:
            m = re.search(r'^Subject: \[PATCH [^\]]*\] ([^:\n]+):', texts[p], re.M)
            if m:
                prefixes[m.group(1)] += 1
        top = prefixes.most_common(1)[0][0] if prefixes else name
        if len(prefixes) > 1:
            top = '%s and others' % top
        subj = '%s: move to ->read_iter and ->write_iter' % top
        out.append((name, nums, ','.join(d), subj))
    for name, spec, pre, subj in TAIL:
        out.append((name, expand(spec), pre, subj))
    with open(GROUPS, 'w') as f:
        f.write('# Generated by scripts/postings.py group; edit CORE and TAIL there.\n')
        f.write('# part\tpatches\tprerequisites\tsubject\n')
        for k, (name, nums, pre, subj) in enumerate(out):
            f.write('%02d-%s\t%s\t%s\t%s\n' % (k + 1, name, compress(nums), pre or '-', subj))
    step('%d parts in %s' % (len(out), os.path.relpath(GROUPS, TOP)))


def parts():
    if not os.path.exists(GROUPS):
        die('%s missing: run scripts/postings.py group' % GROUPS)
    out = []
    names = {}
    with open(GROUPS) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            name, spec, pre, subj = line.rstrip('\n').split('\t')
            names[name.split('-', 1)[1]] = name
            out.append([name, expand(spec), pre, subj])
    for part in out:
        if part[2] == 'ALL':
            part[2] = [p[0] for p in out[:out.index(part)]]
        elif part[2] == '-':
            part[2] = []
        else:
            part[2] = [names[x] for x in part[2].split(',')]
    return out


def closure(allparts, name):
    """The part and every part it needs, directly or not, in part order."""
    by = {p[0]: p for p in allparts}
    seen = {name}
    todo = [name]
    while todo:
        for d in by[todo.pop()][2]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    order = [p[0] for p in allparts]
    return sorted(seen, key=order.index)


def addresses(files):
    """To: the maintainers get_maintainer.pl names; Cc: reviewers and lists."""
    out = subprocess.run(
        ['perl', 'scripts/get_maintainer.pl', '--no-git', '--no-git-fallback',
         '--separator', '\n'] + files,
        cwd=TREE, capture_output=True, text=True).stdout.split('\n')
    to, cc = [], []
    for line in out:
        m = re.match(r'(.*?(?:>|@\S+))\s+\((.*)\)$', line)
        if not m:
            continue
        who, role = m.group(1), m.group(2)
        (to if role.startswith(('maintainer', 'supporter')) else cc).append(who)
    return to, cc


def shortlog(files):
    lines = []
    for f in files:
        m = re.search(r'^Subject: \[PATCH [^\]]*\] (.*(?:\n [^\n]*)*)',
                      read_patch(f), re.M)
        lines.append('  ' + re.sub(r'\n(?= )', '', m.group(1)))
    return '\n'.join(lines)


def cover_text(name, subj, nums, pre, files):
    base = name.split('-', 1)[1]
    path = os.path.join(TEXTS, base + '.txt')
    if os.path.exists(path):
        with open(path) as f:
            body = f.read()
    else:
        with open(os.path.join(TEXTS, 'conversion.txt')) as f:
            body = f.read()
    tested = sum('Compile-tested only' in read_patch(f) for f in files)
    prefix = subj.split(': move to ')[0]
    body = body.replace('@COUNT@', str(len(nums))).replace('@WHAT@', prefix)
    body = body.replace('@COMPILE_ONLY@', str(tested))
    body = body.replace('@RUN@', str(len(nums) - tested))
    body = body.replace('@PREREQ@', ', '.join(sorted(pre)) if pre else 'nothing but 6.12')
    return body


def write():
    files = series()
    allparts = parts()
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    longest = 0
    for name, nums, pre, subj in allparts:
        d = os.path.join(OUT, name)
        os.makedirs(d)
        pfiles = [files[p - 1] for p in nums]
        to, cc = addresses([os.path.join(PATCHES, f) for f in pfiles])
        if 'linux-fsdevel@vger.kernel.org' not in to + cc:
            cc.append('linux-fsdevel@vger.kernel.org')
        hdr = 'To: %s\nCc: %s\n' % (',\n    '.join(to or ['linux-fsdevel@vger.kernel.org']),
                                    ',\n    '.join(cc))
        k = len(nums)
        text = cover_text(name, subj, nums, pre, pfiles)
        lines = text.count('\n')
        longest = max(longest, lines)
        with open(os.path.join(d, '0000-cover-letter.patch'), 'w') as f:
            f.write('From: Seed bcec787f maintainers <maintainers@users.noreply.a-seed-bcec787f.example>\n')
            f.write(hdr)
            f.write('Subject: [PATCH 0/%d] %s\n\n' % (k, subj))
            f.write(text.rstrip('\n') + '\n\n')
            f.write(shortlog(pfiles) + '\n')
        for i, pf in enumerate(pfiles):
            t = read_patch(pf)
            t = re.sub(r'^Subject: \[PATCH \d+/\d+\]', 'Subject: [PATCH %d/%d]' % (i + 1, k),
                       t, count=1, flags=re.M)
            t = re.sub(r'^(Subject: )', hdr + r'\1', t, count=1, flags=re.M)
            out = '%04d-%s' % (i + 1, pf[5:])
            with open(os.path.join(d, out), 'w') as f:
                f.write(t)
    step('%d parts in %s; the longest cover letter has %d lines' %
         (len(allparts), os.path.relpath(OUT, TOP), longest))


def git(*args, cwd=None, check=True):
    return subprocess.run(['git'] + list(args), cwd=cwd, capture_output=True,
                          text=True, check=check)


def obsolete_files():
    """config/obsolete-changes.txt: the files whose OBSOLETE warning is
    accepted, as make check-series accepts it."""
    out = set()
    with open(os.path.join(TOP, 'config', 'obsolete-changes.txt')) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                out.add(line.split()[0])
    return out


def checkpatch_one(path, accepted):
    out = subprocess.run(['perl', 'scripts/checkpatch.pl', '--strict', '-q', path],
                         cwd=TREE, capture_output=True, text=True,
                         env=dict(os.environ, PATH='/usr/bin:' + os.environ['PATH'])).stdout
    keep = []
    for m in out.splitlines():
        if not re.match(r'(ERROR|WARNING|CHECK):', m):
            continue
        o = re.match(r"WARNING: (\S+) is marked as 'obsolete'", m)
        if not (o and o.group(1) in accepted):
            keep.append(m)
    return keep


def patch_key(path):
    """The sha1 of a patch file but for the "n/N" of its subject, which
    changes in every file when a patch is added: no verdict kept under it
    (checkpatch's, get_maintainer.pl's) depends on the numbering."""
    with open(path, 'rb') as f:
        data = f.read()
    data = re.sub(rb'^Subject: \[PATCH [0-9]+/[0-9]+\]', b'Subject: [PATCH]',
                  data, count=1, flags=re.M)
    return hashlib.sha1(data).hexdigest()


def checkpatch_all(files, ok):
    """checkpatch --strict on every patch not in ok (sha1s), two at a time;
    returns {patch number: first message} and adds the clean ones to ok."""
    import concurrent.futures
    todo = {}
    for p, f in enumerate(files, 1):
        path = os.path.join(PATCHES, f)
        key = patch_key(path)
        if key not in ok:
            todo[p] = (path, key)
    step('checkpatch --strict on %d patches (%d cached)' % (len(todo), len(files) - len(todo)))
    findings = {}
    accepted = obsolete_files()
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        futs = {ex.submit(checkpatch_one, path, accepted): (p, key) for p, (path, key) in todo.items()}
        for fut in concurrent.futures.as_completed(futs):
            p, key = futs[fut]
            msgs = fut.result()
            if msgs:
                findings[p] = msgs[0]
            else:
                ok.add(key)
    return findings


def compile_part(wt, npatches, compiled):
    """compile, at the tip of a part applied in wt, the objects of the .c
    files the part adds or changes, each in the configuration that compiled
    it in make check-series; compiled: the tip trees that passed before"""
    tip = git('rev-parse', 'HEAD', cwd=wt).stdout.strip()
    tree = git('rev-parse', 'HEAD^{tree}', cwd=wt).stdout.strip()
    files = [f for f in git('diff', '--name-only', '--diff-filter=AM', 'HEAD~%d' % npatches, 'HEAD',
                             '--', '*.c', cwd=wt).stdout.split()
             if not f.startswith(('tools/', 'scripts/', 'Documentation/', 'usr/'))]
    if not files:
        return True, 'no .c file'
    if tree in compiled:
        return True, '%d .c files compile (before)' % len(files)
    r = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'check-series.py'),
                        '--compile-at', tip] + files, capture_output=True, text=True)
    out = r.stdout.splitlines()
    skipped = sum('compiled nowhere' in l for l in out)
    if r.returncode:
        bad = [l for l in out if 'DOES NOT COMPILE' in l] or (r.stderr.strip().splitlines() or ['?'])[-1:]
        return False, 'COMPILE: ' + '; '.join(bad[:2])
    if not skipped:
        # a tip with a file compiled nowhere is compiled again next time
        compiled.add(tree)
    return True, '%d .c files compile%s' % (len(files) - skipped,
                                            ' (%d compiled nowhere)' % skipped if skipped else '')


def check():
    files = series()
    allparts = parts()
    wt = os.path.join(TOP, 'build', 'postings-check')
    if not os.path.exists(os.path.join(wt, '.git')):
        git('worktree', 'prune', cwd=TREE)
        git('worktree', 'add', '-q', '--detach', wt, 'pristine', cwd=TREE)
    covered = sorted(p for part in allparts for p in part[1])
    if covered != list(range(1, len(files) + 1)):
        die('patches/postings does not list every patch of the series once')
    bad = 0
    cp_cache = os.path.join(TOP, 'build', 'checkpatch.ok')
    ok = set(open(cp_cache).read().split()) if os.path.exists(cp_cache) else set()
    findings = checkpatch_all(files, ok)
    with open(cp_cache, 'w') as f:
        f.write('\n'.join(sorted(ok)) + '\n')
    cc_cache = os.path.join(TOP, 'build', 'postings-compile.ok')
    compiled = set(open(cc_cache).read().split()) if os.path.exists(cc_cache) else set()
    only = os.environ.get('POSTINGS_PARTS', '').split()
    for name, nums, pre, subj in allparts:
        if only and not name.startswith(tuple(only)):
            continue
        git('am', '--abort', cwd=wt, check=False)
        git('checkout', '-q', '--detach', 'pristine', cwd=wt)
        git('clean', '-qfdx', cwd=wt, check=False)
        need = closure(allparts, name)
        seq = [p for part in allparts if part[0] in need for p in part[1]]
        # prerequisites first, each in its part's order, then the part itself
        paths = [os.path.join(PATCHES, files[p - 1]) for p in seq]
        r = subprocess.run(['git', 'am', '-q', '--keep-cr'] + paths, cwd=wt,
                           capture_output=True, text=True)
        result = 'applies on 6.12 + %d prerequisite parts' % (len(need) - 1)
        if r.returncode:
            bad = 1
            stopped = [l for l in (r.stdout + r.stderr).splitlines()
                       if l.startswith(('Applying', 'Patch failed', 'error'))]
            result = 'DOES NOT APPLY: %s' % ('; '.join(stopped[-2:]) or '?')
        else:
            ok_c, what = compile_part(wt, len(nums), compiled)
            bad |= not ok_c
            result += '; ' + what
        warn = ['%04d: %s' % (p, findings[p]) for p in nums if p in findings]
        if warn:
            bad = 1
            result += '; checkpatch: ' + '; '.join(warn)
        else:
            result += '; checkpatch --strict clean'
        step('%-34s %3d patches: %s' % (name, len(nums), result))
        with open(cc_cache, 'w') as f:
            f.write('\n'.join(sorted(compiled)) + '\n')
    # all parts in order give the tree of the series
    git('am', '--abort', cwd=wt, check=False)
    git('checkout', '-q', '--detach', 'pristine', cwd=wt)
    seq = [p for part in allparts for p in part[1]]
    r = subprocess.run(['git', 'am', '-q', '--keep-cr'] +
                       [os.path.join(PATCHES, files[p - 1]) for p in seq],
                       cwd=wt, capture_output=True, text=True)
    if r.returncode:
        bad = 1
        step('all parts in order: DO NOT APPLY')
    else:
        mine = git('rev-parse', 'HEAD^{tree}', cwd=wt).stdout.strip()
        theirs = git('rev-parse', 'HEAD^{tree}', cwd=TREE).stdout.strip()
        same = 'the tree of the series' if mine == theirs else 'A DIFFERENT TREE'
        if mine != theirs:
            bad = 1
        step('all %d parts in order give %s' % (len(allparts), same))
    sys.exit(bad)


if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    {'group': group, 'write': write, 'check': check}.get(
        cmd, lambda: die('usage: postings.py group|write|check'))()

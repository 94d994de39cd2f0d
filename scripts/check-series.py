#!/usr/bin/env python3
"""make check-series: show that every patch of the series stands on its own.

For each commit of build/linux since pristine, in order:
  - checkpatch.pl --strict on the commit as git format-patch writes it;
  - the object of every .c file the commit adds or changes, compiled with
    W=1 at that commit, in the allmodconfig (plus config/proof.config) of
    the first architecture that builds it: x86_64, then the others of
    scripts/compile-proof.sh (a file under arch/<a>/ on <a> only), then
    the configurations of config/proof-extra.txt for the files they name.
    The configuration that compiled the file in the last run is tried
    first (build/series-proof/placed.txt), and one whose kbuild lines
    leave the object out (obj-$(CONFIG_X) with X unset, there or in a
    folder above) is passed over without a build; only when no
    configuration enables the object is it compiled where it is not
    enabled, as kbuild allows for an object named on its command line.
    An object that compiles with a warning is compiled at the commit's
    parent too, and a warning the commit adds is a failure, as is an object
    that fails where the parent's compiles;
  - the aio selftests, at the commits that touch them.

Compiling each commit's objects one commit at a time would cost hours, so
the commits between two changes of a shared header (include/, arch/*/
include/, Kconfig or Makefiles) are checked together: the objects of all of
them are compiled at the last one, and then kbuild's own dependency list of
each object (its .cmd file) proves that the compilation is the one of the
object's own commit: no file it read changed between that commit and the
last one. An object for which that is not so (a later commit of the group
changed its source or a header it includes) is compiled again at its own
commit. The parent's side is proved the same way.

A commit that passed, all its objects compiled, is remembered in
build/check-series.ok under its tree, its parent's tree, the configuration
files and the host compiler, so that after a rebase only commits whose trees
changed are compiled again (one with a file built nowhere is listed again
each time, from build/check-series.files below). Its objects are also
remembered under its tree and its parent's without tools/testing/selftests,
which no object reads: a rebase that only changes a test compiles no object
again, and builds the tests only at the commits that touch them. Each
object is also written to build/check-series.files as soon as it has
compiled, so that a run that is stopped loses at most one group of work;
so is, at the end of a run that had every compiler, each file no
configuration built, which the next run at the same trees does not try.
checkpatch's verdicts are kept under the patch text's hash (without the
"n/N" of its subject) in build/checkpatch.ok (shared with make postings).

  CHECK_SERIES_ALL=1      check every commit again
  CHECK_SERIES_FROM=rev   only the commits after rev (the others are listed
                          as skipped, not checked)
  CHECK_SERIES_UPTO=rev   only the commits up to rev
"""
import collections
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import postings  # noqa: E402  (its checkpatch filter)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, 'build')
TREE = os.environ.get('HARNESS_TREE') or os.path.join(BUILD, 'linux')
# the worktree the commits are checked out in, one per tree
WT = TREE + '-bisect' if os.environ.get('HARNESS_TREE') else os.path.join(BUILD, 'bisect')
OBJ = WT + '-obj' if os.environ.get('HARNESS_TREE') else os.path.join(BUILD, 'series-proof')
CACHE = os.path.join(BUILD, 'check-series.ok')
# each object compiled, as it is compiled: what a run that was stopped
# leaves to the next one
FILES = os.path.join(BUILD, 'check-series.files')
CP_CACHE = os.path.join(BUILD, 'checkpatch.ok')
PROOF_CONFIG = os.path.join(TOP, 'config', 'proof.config')
EXCLUDE = ('tools/', 'scripts/', 'Documentation/', 'usr/')


def toolchains(use):
    """config/toolchains.txt, shared with compile-proof.sh: (arch, kbuild
    ARCH, CROSS_COMPILE) of the rows for use, in order"""
    out = []
    for line in open(os.path.join(TOP, 'config', 'toolchains.txt')):
        w = line.split()
        if w and not w[0].startswith('#') and w[3] == use:
            out.append((w[0], w[1], '' if w[2] == '-' else w[2]))
    return out


ARCHES = toolchains('allmodconfig')


def extra_configs():
    """config/proof-extra.txt: [(name, karch, cross, target, [options], {files})]"""
    out = []
    tools = {a: (k, c) for a, k, c in ARCHES + toolchains('extra')}
    for line in open(os.path.join(TOP, 'config', 'proof-extra.txt')):
        if line.startswith('#') or not line.strip():
            continue
        if line[0].isspace():
            out[-1][5].add(line.strip())
            continue
        w = line.split()
        karch, cross = tools[w[1]]
        out.append((w[0], karch, cross, w[2], w[3:], set()))
    return out


EXTRA = extra_configs()
# what is tried, in order: the allmodconfigs, then the extra configurations
ALL = [(a, k, c, None, ()) for a, k, c in ARCHES] + [(n, k, c, t, o) for n, k, c, t, o, f in EXTRA]
WARN = re.compile(r'^([^ :]+\.[ch]):[0-9]+:(?:[0-9]+:)? warning: (.*)$')

os.environ['PATH'] = '%s:/usr/bin:%s' % (os.path.join(BUILD, 'cross', 'usr', 'bin'), os.environ['PATH'])
os.environ['LD_LIBRARY_PATH'] = os.path.join(BUILD, 'cross', 'usr', 'lib', 'x86_64-linux-gnu')
os.environ.setdefault('CCACHE_DIR', os.path.join(BUILD, 'ccache-proof'))
os.environ.setdefault('CCACHE_MAXSIZE', '8G')
os.environ.update(KBUILD_BUILD_TIMESTAMP='2000-01-01', KBUILD_BUILD_USER='harness',
                  KBUILD_BUILD_HOST='qemu')


def step(msg):
    print('==> ' + msg, flush=True)


def die(msg):
    print('check-series: ' + msg, file=sys.stderr, flush=True)
    sys.exit(1)


def git(*args, cwd=TREE):
    return subprocess.run(['git'] + list(args), cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


# ---------------------------------------------------------------- the series

def commits():
    """the commits since pristine, in order, with what each changes"""
    log = git('log', '--reverse', '--no-renames', '--name-status', '-z',
              '--format=%x01%H %T %P%x00%s%x00', 'pristine..HEAD')
    out = []
    ptree = git('rev-parse', 'pristine^{tree}').strip()
    for rec in log.split('\x01')[1:]:
        head, subject, rest = rec.split('\x00', 2)
        c, tree, parent = head.split()[:3]
        f = [w for w in rest.strip('\n\x00').split('\x00') if w]
        status = list(zip(f[0::2], f[1::2]))   # (A|M|D, path)
        x = dict(n=len(out) + 1, c=c, tree=tree, parent=parent, ptree=ptree, subject=subject)
        x['changed'] = [p for st, p in status]
        x['sources'] = [p for st, p in status
                        if st in 'AM' and p.endswith('.c') and not p.startswith(EXCLUDE)]
        x['added'] = {p for st, p in status if st == 'A'}
        x['shared'] = any(shared_file(p) for p in x['changed'])
        x['selftests'] = any(p.startswith(('tools/testing/selftests/aio/', 'lib/test_aio',
                                           'include/uapi/')) for p in x['changed'])
        out.append(x)
        ptree = tree
    return out


def kernel_trees(series):
    """for each commit, an id of its tree without tools/testing/selftests:
    the objects do not read that folder, so a change there alone (a test
    fixed in an early patch) leaves every later commit's objects as they
    were checked; one git process reads the three levels of every tree"""
    want = []
    for x in series:
        want += [x['tree'], x['c'] + ':tools', x['c'] + ':tools/testing']
    p = subprocess.run(['git', 'cat-file', '--batch'], cwd=TREE, check=True,
                       input=('\n'.join(want) + '\n').encode(), capture_output=True)
    data, pos, objs = p.stdout, 0, []
    while pos < len(data):
        nl = data.index(b'\n', pos)
        size = int(data[pos:nl].split()[2])
        objs.append(data[nl + 1:nl + 1 + size])
        pos = nl + 2 + size

    def without(body, name, sub):
        """the tree body with entry name's id replaced by sub, hashed"""
        out, i = hashlib.sha1(), 0
        while i < len(body):
            z = body.index(b'\0', i)
            ent = body[i:z].split(b' ', 1)[1]
            oid = body[z + 1:z + 21]
            out.update(body[i:z + 1] + (sub if ent == name else oid))
            i = z + 21
        return out.digest()
    for k, x in enumerate(series):
        root, tools, testing = objs[3 * k:3 * k + 3]
        t = without(testing, b'selftests', b'')
        t = without(tools, b'testing', t)
        x['ktree'] = without(root, b'tools', t).hex()[:20]


def shared_file(f):
    """a file whose change can reach objects the commit does not name"""
    if f.startswith(EXCLUDE) or f == 'MAINTAINERS':
        return False
    base = os.path.basename(f)
    return (f.startswith('include/') or re.match(r'arch/[^/]+/include/', f) is not None
            or base.startswith('Kconfig') or base in ('Makefile', 'Kbuild'))


def obj_of(f):
    """the object that compiles f: its own, or, when its folder's Makefile
    does not name it but another .c file there includes it, that file's;
    amdgpu names files of amdkfd, display and pm through ../ paths"""
    m = re.match(r'drivers/gpu/drm/amd/(amdkfd|display|pm)/(.*)\.c$', f)
    if m:
        return 'drivers/gpu/drm/amd/amdgpu/../%s/%s.o' % (m.group(1), m.group(2))
    d, b = os.path.dirname(f), os.path.basename(f)[:-2]
    named = False
    for mk in ('Makefile', 'Kbuild'):
        p = os.path.join(TREE, d, mk)
        if os.path.exists(p) and re.search(r'\b%s\.o\b' % re.escape(b), open(p, errors='replace').read()):
            named = True
    if not named and os.path.isdir(os.path.join(TREE, d)):
        for g in sorted(os.listdir(os.path.join(TREE, d))):
            if g.endswith('.c'):
                txt = open(os.path.join(TREE, d, g), errors='replace').read()
                if re.search(r'^#\s*include\s+"%s\.c"' % re.escape(b), txt, re.M):
                    b = g[:-2]
                    break
    return '%s/%s.o' % (d, b)


def kbuild_lines(d, name):
    """the assignments of d's Makefile or Kbuild that name name (an object
    or a folder/), continuations joined: [left-hand side]"""
    out = []
    for mk in ('Makefile', 'Kbuild'):
        p = os.path.join(TREE, d, mk)
        if not os.path.exists(p):
            continue
        txt = open(p, errors='replace').read().replace('\\\n', ' ')
        for line in txt.split('\n'):
            m = re.match(r'\s*([\w$().-]+)\s*[:+]?=(.*)$', line)
            if m and re.search(r'(^|\s)%s(\s|$)' % re.escape(name), m.group(2)):
                out.append(m.group(1))
    return out


def kbuild_enabled(f, have):
    """False when every kbuild line that would build f's object (or the
    composite object it is part of, or a folder above) needs a symbol that
    have, the configuration's set symbols, lacks; True when it may be built
    or when that cannot be told"""
    o = obj_of(f)
    if '..' in o:
        return True
    return object_enabled(os.path.dirname(o), os.path.basename(o), have, 0)


def object_enabled(d, name, have, depth):
    lines = kbuild_lines(d, name)
    if not lines or depth > 8:
        return True
    for lhs in lines:
        m = re.match(r'([\w.-]+)-\$\((CONFIG_\w+)\)$', lhs) or \
            re.match(r'([\w.-]+)-(y|m|objs)$', lhs)
        if not m:
            return True                 # a form not read here
        if m.group(2).startswith('CONFIG_') and m.group(2) not in have:
            continue
        head = m.group(1)
        if head in ('obj', 'lib', 'core', 'libs', 'drivers'):
            ok = object_enabled(os.path.dirname(d), os.path.basename(d) + '/', have, depth + 1) \
                if os.path.dirname(d) else True
        else:
            ok = object_enabled(d, head + '.o', have, depth + 1)
        if ok:
            return True
    return False


def arch_of_file(f):
    m = re.match(r'arch/([^/]+)/', f)
    if not m:
        return None
    return {'x86': ['x86_64', 'i386']}.get(m.group(1), [a for a, k, c in ARCHES if k == m.group(1)])


# ---------------------------------------------------------------- building

class ConfigError(Exception):
    pass


class Arch:
    def __init__(self, name, karch, cross, target=None, options=()):
        self.name, self.karch, self.cross = name, karch, cross
        self.target, self.options = target, list(options)
        self.obj = os.path.join(OBJ, name)
        self.at = None

    def make(self, *targets, jobs=None, log=None, env=None):
        cmd = ['make', '-C', WT, 'O=' + self.obj, 'ARCH=' + self.karch]
        if self.cross:
            cmd.append('CROSS_COMPILE=' + self.cross)
        cmd += ['CC=ccache %sgcc' % self.cross, '-j%d' % (jobs or os.cpu_count() or 2)]
        cmd += list(targets)
        r = subprocess.run(cmd, capture_output=True, text=True, errors='replace',
                           env=dict(os.environ, **(env or {})))
        if log:
            with open(log, 'a') as f:
                f.write(r.stdout + r.stderr)
        return r

    def key(self):
        h = hashlib.sha1(('ARCH=%s\n' % self.karch).encode())
        h.update(open(PROOF_CONFIG, 'rb').read() if not self.target else
                 ' '.join([self.target] + self.options).encode())
        h.update(subprocess.run([self.cross + 'gcc', '--version'], capture_output=True).stdout.split(b'\n')[0])
        paths = ['*Kconfig*', 'arch/*/Makefile'] + (['arch/*/configs'] if self.target else [])
        h.update(git('ls-files', '-s', '--', *paths, cwd=WT).encode())
        return h.hexdigest()[:12]

    def checkout(self, c):
        """the worktree at c, this architecture's folder configured for it"""
        if self.at != c:
            git('checkout', '-q', '--detach', c, cwd=WT)
            self.at = c
        k = self.key()
        kf = os.path.join(self.obj, '.proof-key')
        if os.path.exists(kf) and open(kf).read().strip() == k:
            return
        os.makedirs(self.obj, exist_ok=True)
        if os.path.exists(kf):
            os.unlink(kf)
        log = os.path.join(self.obj, 'config.log')
        open(log, 'w').close()
        if self.target:
            ok = self.configure_extra(log)
        else:
            ok = not self.make('KCONFIG_ALLCONFIG=' + PROOF_CONFIG, 'allmodconfig', log=log).returncode
        if not ok or self.make('modules_prepare', log=log).returncode:
            raise ConfigError('%s: configuration failed at %s (%s)'
                              % (self.name, c[:12], os.path.relpath(log, TOP)))
        with open(kf, 'w') as f:
            f.write(k + '\n')

    def configure_extra(self, log):
        """the target (a defconfig), the options on top, olddefconfig"""
        if self.make(self.target, log=log).returncode:
            return False
        flag = {'y': '--enable', 'm': '--module', 'n': '--disable'}
        for o in self.options + ['CONFIG_WERROR=n']:
            k, v = o.split('=')
            # --keep-case: symbols such as M548x are not all capitals
            subprocess.run([os.path.join(WT, 'scripts', 'config'), '--file',
                            os.path.join(self.obj, '.config'), '--keep-case', flag[v], k],
                           check=True)
        if self.make('olddefconfig', log=log).returncode:
            return False
        have = open(os.path.join(self.obj, '.config')).read().split('\n')
        for o in self.options:
            k, v = o.split('=')
            stuck = o in have if v != 'n' else not ({k + '=y', k + '=m'} & set(have))
            if not stuck:
                with open(log, 'a') as f:
                    f.write('check-series: %s did not stick\n' % o)
                return False
        return True

    def build(self, objs, log):
        """compile objs at the current commit; returns {obj: (built, warnings,
        deps)}: warnings a Counter of "file: message", deps the source files
        kbuild lists for the object"""
        objs = sorted(set(objs))
        for o in objs:
            p = os.path.join(self.obj, o)
            if os.path.exists(p):
                os.unlink(p)
        open(log, 'w').close()
        self.make('W=1', '-k', *objs, log=log)
        missing = [o for o in objs if not os.path.exists(os.path.join(self.obj, o))]
        if missing:
            # kbuild can compile one object twice at once (built-in and
            # module), and one of the two compilers then fails; and a cache
            # entry can be damaged (a .d file whose paths fixdep cannot
            # open, an object objtool cannot read): again with one job, each
            # object compiled afresh and stored over its cached result
            self.make('W=1', '-k', *missing, jobs=1, log=log, env={'CCACHE_RECACHE': '1'})
        warns = collections.Counter()
        for line in open(log, errors='replace'):
            m = WARN.match(line.rstrip('\n'))
            if m:
                f = m.group(1)
                if f.startswith(WT + '/'):
                    f = f[len(WT) + 1:]
                f = re.sub(r'^(\.\./)+', '', f)
                f = os.path.normpath(f)
                warns['%s: %s' % (f, m.group(2))] += 1
        out = {}
        for o in objs:
            p = os.path.normpath(os.path.join(self.obj, o))
            built = os.path.exists(p)
            deps = set()
            cmd = os.path.join(os.path.dirname(p), '.' + os.path.basename(p) + '.cmd')
            if built and os.path.exists(cmd):
                for tok in open(cmd, errors='replace').read().split():
                    if tok.startswith(WT + '/'):
                        deps.add(tok[len(WT) + 1:])
            out[o] = (built, warns, deps)
        return out


# ---------------------------------------------------------------- checkpatch

def checkpatch(series):
    """{n: first message} for the commits whose patch checkpatch --strict
    finds something in (but the accepted OBSOLETE warnings)"""
    tmp = tempfile.mkdtemp()
    try:
        subprocess.run(['git', '-c', 'diff.suppressBlankEmpty=true', 'format-patch', '-q', '--numbered',
                        '--zero-commit', '--no-signature', '--subject-prefix=PATCH', '-o', tmp,
                        'pristine..HEAD'], cwd=TREE, check=True)
        files = [os.path.join(tmp, f) for f in sorted(os.listdir(tmp))]
        ok = set(open(CP_CACHE).read().split()) if os.path.exists(CP_CACHE) else set()
        # postings.py's: the patches not in ok, two at a time
        bad = postings.checkpatch_all(files, ok)
        with open(CP_CACHE, 'w') as f:
            f.write('\n'.join(sorted(ok)) + '\n')
        return bad
    finally:
        shutil.rmtree(tmp)


# ---------------------------------------------------------------- objects

def changed_between(a, b):
    if a == b:
        return set()
    return set(git('diff', '--name-only', a, b).split())


def relevant_warnings(warns, f, deps):
    """the warnings of an object: in its source, and in the headers it read"""
    out = collections.Counter()
    for k, v in warns.items():
        w = k.split(': ')[0]
        if w == f or (w.endswith('.h') and w in deps):
            out[k] = v
    return out


def check_objects(series, todo, logdir, done):
    """compile the objects of the commits in todo; returns {n: [problems]},
    {n: [(file, arch)]} and the (commit, file) pairs built nowhere. done
    holds the (kkey, file, configuration) an interrupted run compiled: those
    are not compiled again"""
    problems = collections.defaultdict(list)
    where = collections.defaultdict(list)
    queue = collections.defaultdict(list)     # configuration: [(commit, file)]
    tried = collections.defaultdict(set)      # (n, file): configurations tried
    nowhere = []
    placed = read_placed()
    ndone = 0
    for x in todo:
        for f in x['sources']:
            if done.get((x['kkey'], f)) == '-':
                nowhere.append((x, f))
                ndone += 1
                continue
            if (x['kkey'], f) in done:
                where[x['n']].append((f, done[(x['kkey'], f)]))
                ndone += 1
                continue
            allowed = allowed_for(f)
            if not allowed:
                nowhere.append((x, f))
            elif placed.get(f) in allowed:
                # where the file compiled in the last run comes first
                queue[placed[f]].append((x, f))
            else:
                queue[allowed[0]].append((x, f))
    if ndone:
        step('%d files compiled, or found to build nowhere, by an earlier run at the same trees'
             % ndone)
    # a file sent back to a configuration before the current one (the hint
    # was wrong) is taken in the next pass
    while queue:
        for name, karch, cross, target, options in ALL:
            items = queue.pop(name, [])
            if not items:
                continue
            for x, f in items:
                tried[(x['n'], f)].add(name)
            if cross and not shutil.which(cross + 'gcc'):
                step('%s: %sgcc missing (scripts/install-cross.sh); %d files not tried there'
                     % (name, cross, len(items)))
                MISSING.append(name)
                nowhere += next_arch(items, queue, tried)
                continue
            arch = Arch(name, karch, cross, target, options)
            try:
                nowhere += prove_arch(arch, series, items, problems, where, queue, tried, logdir)
            except ConfigError as e:
                step(str(e))
                for x, f in items:
                    problems[x['n']].append('%s: %s' % (f, e))
    return problems, where, nowhere


def prove_arch(arch, series, items, problems, where, queue, tried, logdir):
    """compile items on arch; returns the items no later configuration may
    build"""
    name = arch.name
    t0 = time.time()
    nbuilt = 0
    unplaced = []
    # configured at the last commit: the files whose kbuild line needs a
    # symbol this configuration leaves unset are passed on without a build
    arch.checkout(max(items, key=lambda i: i[0]['n'])[0]['c'])
    have = set()
    for line in open(os.path.join(arch.obj, '.config')):
        m = re.match(r'(CONFIG_\w+)=[ym]$', line.strip())
        if m:
            have.add(m.group(1))
    skip = [(x, f) for x, f in items
            if (x['n'], f) not in FORCED and not kbuild_enabled(f, have)]
    for x, f in skip:
        SKIPPED[(x['n'], f)].add(name)
    if skip:
        step('%s: %d files not enabled here, passed on' % (name, len(skip)))
        unplaced += skip
        items = [i for i in items if i not in skip]
    bycommit = collections.OrderedDict()
    for x, f in sorted(items, key=lambda i: i[0]['n']):
        bycommit.setdefault(x['n'], (x, []))[1].append(f)
    work = [bycommit[n][0] for n in bycommit]
    gs = groups_of(series, work)
    step('%s: %d files of %d commits, in %d groups' % (name, len(items), len(work), len(gs)))
    record = open(FILES, 'a')

    def log(tag, n):
        return os.path.join(logdir, '%s-%04d-%s.log' % (name, n, tag))

    def own(x, f, o):
        arch.checkout(x['c'])
        built, warns, deps = arch.build([o], log('own', x['n']))[o]
        return built, relevant_warnings(warns, f, deps)

    def parent(x, f, o):
        arch.checkout(x['parent'])
        built, warns, deps = arch.build([o], log('parent', x['n']))[o]
        return built, relevant_warnings(warns, f, deps)

    for gi, g in enumerate(gs):
        last = g[-1]
        objs = {(x['n'], f): obj_of(f) for x in g for f in bycommit[x['n']][1]}
        arch.checkout(last['c'])
        res = arch.build(objs.values(), log('group', last['n']))
        ok, need_parent = [], []    # (x, f, warnings at x, or None: fails)
        for x in g:
            moved = changed_between(x['c'], last['c'])
            for f in bycommit[x['n']][1]:
                o = objs[(x['n'], f)]
                built, warns, deps = res[o]
                fw = relevant_warnings(warns, f, deps) if built else None
                # A header's warning in a build of many objects cannot be
                # told apart between them: compile this one alone.
                shared_warning = fw and any(k.split(': ')[0] != f for k in fw)
                if built and (not deps or deps & moved or f in moved or shared_warning):
                    built, fw = own(x, f, o)
                    confirmed = True
                else:
                    confirmed = built
                if built and not fw:
                    ok.append((x, f))
                else:
                    need_parent.append((x, f, fw if built else None, confirmed))
        # the parents' side, at the group's base where kbuild's lists
        # show it is the parent's compilation
        base = g[0]['parent']
        pres = {}
        todo_p = [(x, f) for x, f, fw, c in need_parent if f not in x['added']]
        if todo_p:
            arch.checkout(base)
            pres = arch.build([objs[(x['n'], f)] for x, f in todo_p], log('base', g[0]['n']))
        for x, f, fw, confirmed in need_parent:
            o = objs[(x['n'], f)]
            if f in x['added']:
                pbuilt, pw = False, collections.Counter()
            else:
                pbuilt, pwarns, pdeps = pres[o]
                moved = changed_between(base, x['parent'])
                if pbuilt and pdeps and not (pdeps & moved or f in moved) and \
                   not any(k.split(': ')[0] != f for k in fw or ()):
                    pw = relevant_warnings(pwarns, f, pdeps)
                elif not pbuilt and fw is None and not confirmed:
                    # fails at the group's base and at its end: an
                    # object this configuration does not build
                    unplaced.append((x, f))
                    continue
                else:
                    pbuilt, pw = parent(x, f, o)
            if fw is None and not confirmed and pbuilt:
                built, fw = own(x, f, o)
                if not built:
                    fw = None
            if fw is None:
                if pbuilt:
                    problems[x['n']].append('%s fails to compile on %s, where it compiles'
                                            ' before the patch' % (f, name))
                else:
                    unplaced.append((x, f))
                continue
            new = fw - pw
            if new:
                problems[x['n']].append('%s: new warning on %s: %s' % (f, name, sorted(new)[0]))
            else:
                ok.append((x, f))
        for x, f in ok:
            where[x['n']].append((f, name))
            record.write('%s %s %s\n' % (x['kkey'], f, name))
        record.flush()
        nbuilt += len(ok)
        if (gi + 1) % 20 == 0:
            step('%s: %d of %d groups, %d s' % (name, gi + 1, len(gs), time.time() - t0))
    record.close()
    step('%s: %d files compiled, %d not built here, %d s'
         % (name, nbuilt, len(unplaced), time.time() - t0))
    return next_arch(unplaced, queue, tried)


def allowed_for(f):
    """the configurations that may build f, in order: a file under arch/<a>/
    only <a>'s, any other every allmodconfig; then the extra configurations
    that name it"""
    arches = arch_of_file(f)
    if arches is None:
        arches = [a for a, k, c in ARCHES]
    return arches + [e[0] for e in EXTRA if f in e[5]]


# (commit n, file): the configurations passed over because their kbuild
# line is not enabled there; FORCED: the ones no configuration enables,
# tried everywhere again without that test (kbuild compiles an object named
# on the command line whatever the configuration says)
SKIPPED = collections.defaultdict(set)
FORCED = set()
# the configurations whose compiler was missing: no file is then recorded
# as built nowhere
MISSING = []


def next_arch(items, queue, tried):
    """queue items on the first configuration that may build them and has
    not been tried for them; returns the ones no configuration is left for"""
    left = []
    for x, f in items:
        k = (x['n'], f)
        later = [a for a in allowed_for(f) if a not in tried[k]]
        if not later and SKIPPED[k] and k not in FORCED:
            FORCED.add(k)
            tried[k] -= SKIPPED[k]
            later = [a for a in allowed_for(f) if a not in tried[k]]
        if later:
            queue[later[0]].append((x, f))
        else:
            left.append((x, f))
    return left


def groups_of(series, work):
    """cut the commits in work (in order) where the series changes a shared
    file: at a shared commit, which is its own group"""
    byn = {x['n']: x for x in series}
    out, cur = [], []
    prev = None
    for x in work:
        if prev is not None:
            between = [byn[n] for n in range(prev['n'] + 1, x['n'])]
            if any(y['shared'] for y in between):
                out.append(cur)
                cur = []
        if x['shared']:
            if cur:
                out.append(cur)
            out.append([x])
            cur = []
        else:
            cur.append(x)
        prev = x
    if cur:
        out.append(cur)
    return [g for g in out if g]


# ---------------------------------------------------------------- selftests

def check_selftests(todo, logdir):
    problems = {}
    arch = Arch('x86_64', 'x86', '')
    for x in todo:
        if not x['selftests']:
            continue
        arch.checkout(x['c'])
        out = os.path.join(arch.obj, 'kselftest', 'aio')
        os.makedirs(out, exist_ok=True)
        log = os.path.join(logdir, 'selftests-%04d.log' % x['n'])
        r = arch.make('-s', 'headers', log=log)
        r2 = subprocess.run(['make', '-C', os.path.join(WT, 'tools/testing/selftests/aio'), '-s',
                             'OUTPUT=' + out, 'KHDR_INCLUDES=-isystem %s/usr/include' % arch.obj],
                            capture_output=True, text=True)
        with open(log, 'a') as f:
            f.write(r2.stdout + r2.stderr)
        if r.returncode or r2.returncode:
            problems[x['n']] = 'aio selftests fail to build (%s)' % os.path.relpath(log, TOP)
    return problems


# ---------------------------------------------------------------- one tree

PLACED = os.path.join(OBJ, 'placed.txt')


def read_placed():
    out = {}
    if os.path.exists(PLACED):
        for line in open(PLACED):
            f, a = line.split()
            out[f] = a
    return out


def compile_at(commit, files):
    """compile the objects of files at commit, each in the configuration
    that compiled it in the series; prints a line for each and returns
    whether all compiled (a file the series compiled nowhere is skipped)"""
    placed = read_placed()
    byconf = collections.defaultdict(list)
    good = True
    for f in files:
        if f in placed:
            byconf[placed[f]].append(f)
        else:
            print('%s: compiled nowhere in the series, skipped' % f)
    for name, karch, cross, target, options in ALL:
        fs = byconf.get(name)
        if not fs:
            continue
        arch = Arch(name, karch, cross, target, options)
        try:
            arch.checkout(commit)
        except ConfigError as e:
            print('%s: %s' % (', '.join(fs), e))
            good = False
            continue
        objs = {f: obj_of(f) for f in fs}
        res = arch.build(objs.values(), os.path.join(OBJ, 'compile-at.log'))
        for f in fs:
            ok = res[objs[f]][0]
            good = good and ok
            print('%s: %s on %s' % (f, 'compiles' if ok else 'DOES NOT COMPILE', name))
    return good


# ---------------------------------------------------------------- main

def main():
    if not os.path.isdir(os.path.join(TREE, '.git')):
        die('build/linux missing: run make tree first')
    if not os.path.exists(os.path.join(WT, '.git')):
        git('worktree', 'prune')
        git('worktree', 'add', '-q', '--detach', WT, 'pristine')
    t_start = time.time()
    series = commits()
    # what decides a result besides the trees: the configurations and the
    # host compiler (Debian's cross compilers are pinned by the release)
    env = hashlib.sha1(b'objects-v2')
    env.update(open(PROOF_CONFIG, 'rb').read())
    env.update(open(os.path.join(TOP, 'config', 'proof-extra.txt'), 'rb').read())
    env.update(open(os.path.join(TOP, 'config', 'toolchains.txt'), 'rb').read())
    env.update(subprocess.run(['gcc', '--version'], capture_output=True).stdout.split(b'\n')[0])
    envkey = env.hexdigest()[:12]
    cache = set()
    if os.environ.get('CHECK_SERIES_ALL') != '1' and os.path.exists(CACHE):
        cache = set(open(CACHE).read().splitlines())
    first = 1
    if os.environ.get('CHECK_SERIES_FROM'):
        try:
            frm = git('rev-parse', '--verify', os.environ['CHECK_SERIES_FROM'] + '^{commit}').strip()
        except subprocess.CalledProcessError:
            die('CHECK_SERIES_FROM=%s: no such commit' % os.environ['CHECK_SERIES_FROM'])
        nums = [x['n'] for x in series if x['c'] == frm]
        if not nums:
            die('CHECK_SERIES_FROM=%s is not in the series' % os.environ['CHECK_SERIES_FROM'])
        first = nums[0] + 1
    upto = len(series)
    if os.environ.get('CHECK_SERIES_UPTO'):
        nums = [x['n'] for x in series
                if x['c'] == git('rev-parse', '--verify', os.environ['CHECK_SERIES_UPTO'] + '^{commit}').strip()]
        if not nums:
            die('CHECK_SERIES_UPTO=%s is not in the series' % os.environ['CHECK_SERIES_UPTO'])
        upto = nums[0]
    kernel_trees(series)
    kptree = None
    for x in series:
        x['key'] = '%s %s %s' % (x['tree'], x['ptree'], envkey)
        x['kkey'] = 'objects %s %s %s' % (x['ktree'], kptree or x['ptree'], envkey)
        kptree = x['ktree']
    todo = [x for x in series if first <= x['n'] <= upto and x['key'] not in cache]
    todo_n = {x['n'] for x in todo}
    # of those, the commits whose kernel tree (and its parent's) was not
    # checked before: their objects are compiled
    todo_obj = [x for x in todo if x['kkey'] not in cache]
    obj_n = {x['n'] for x in todo_obj}
    nskip = first - 1 + len(series) - upto
    step('%d commits: %d to check (%d with objects to compile), %d checked before, %d skipped'
         % (len(series), len(todo), len(todo_obj), len(series) - nskip - len(todo), nskip))
    logdir = os.path.join(OBJ, 'logs')
    shutil.rmtree(logdir, ignore_errors=True)
    os.makedirs(logdir)
    cp_bad = checkpatch(series)
    done = {}
    if os.environ.get('CHECK_SERIES_ALL') != '1' and os.path.exists(FILES):
        for line in open(FILES):
            w = line.split()
            if len(w) == 6 and w[3] == envkey:
                done[(' '.join(w[:4]), w[4])] = w[5]
    problems, where, nowhere = check_objects(series, todo_obj, logdir, done)
    if not MISSING:
        # tried in every configuration, with every compiler: the next run
        # at the same trees does not try again
        with open(FILES, 'a') as ff:
            for x, f in nowhere:
                if (x['kkey'], f) not in done:
                    ff.write('%s %s -\n' % (x['kkey'], f))
    st_bad = check_selftests(todo, logdir)
    git('checkout', '-q', '--detach', 'pristine', cwd=WT)
    nowhere_of = collections.defaultdict(list)
    for x, f in nowhere:
        nowhere_of[x['n']].append(f)
    bad = 0
    with open(CACHE, 'a') as cf:
        for x in series:
            n = x['n']
            if n < first or n > upto:
                continue
            probs = list(problems.get(n, []))
            if n in st_bad:
                probs.append(st_bad[n])
            if n in cp_bad:
                probs.append('checkpatch: ' + cp_bad[n])
            if n not in todo_n:
                res = 'ok, compiled before' + ('' if n not in cp_bad else '; ' + probs[-1])
                if n in cp_bad:
                    bad += 1
            elif probs:
                res = probs[0] + (' (and %d more)' % (len(probs) - 1) if len(probs) > 1 else '')
                bad += 1
            else:
                arches = sorted({a for f, a in where.get(n, [])})
                nb = len(where.get(n, []))
                res = 'ok' if n in obj_n else 'ok, objects compiled before (tree the same outside tools/testing/selftests)'
                if nb:
                    res += ': %d object%s (%s)' % (nb, 's' if nb > 1 else '', ', '.join(arches))
                if nowhere_of.get(n):
                    res += '; built nowhere: ' + ', '.join(nowhere_of[n])
                if x['selftests']:
                    res += '; aio selftests'
                if not nowhere_of.get(n):
                    cf.write(x['key'] + '\n' + x['kkey'] + '\n')
            print('%04d %-60.60s %s' % (n, x['subject'], res), flush=True)
    # the objects of this series' trees only, for the next interrupted run
    keys = {x['kkey'] for x in series}
    if os.path.exists(FILES):
        lines = [ln for ln in open(FILES) if ' '.join(ln.split()[:4]) in keys]
        with open(FILES, 'w') as ff:
            ff.write(''.join(lines))
    # where each file compiled, for make postings (compile_at below)
    placed = read_placed()
    for n, lst in where.items():
        for f, a in lst:
            placed[f] = a
    with open(PLACED, 'w') as pf:
        pf.write(''.join('%s %s\n' % kv for kv in sorted(placed.items())))
    secs = int(time.time() - t_start)
    nfiles = sum(len(x['sources']) for x in todo_obj)
    step('%d commits, %d compiled now (%d files), %d before, %d skipped; %d files built nowhere; %d s'
         % (len(series), len(todo), nfiles, len(series) - nskip - len(todo), nskip,
            len(nowhere), secs))
    if bad:
        die('%d patches do not stand on their own (see above; logs in %s)' % (bad, os.path.relpath(logdir, TOP)))


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == '--compile-at':
        # check-series.py --compile-at <commit> <file.c>...: make postings
        sys.exit(0 if compile_at(sys.argv[2], sys.argv[3:]) else 1)
    main()

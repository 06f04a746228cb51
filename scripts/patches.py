#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The upstream form of the repository: a git format-patch series against a
kernel tree (scripts/patches.sh drives this; make patches).

    patches.py --repo DIR --tree KTREE --out DIR [--author 'N <e>']

KTREE is a git repository of the kernel source with the tag "base"
(scripts/series-tree.sh).  The series is made in a scratch repository that
holds only the base versions of the files it changes: the patches' index
lines name the same blobs, so they apply to the whole tree.

The in-tree code has no compat.h.  Its shims are resolved for the tree's
version by their form, not their names: the preprocessor conditionals are
evaluated (LINUX_VERSION_CODE against the tree's Makefile, #ifdef of a
kernel macro against the tree's include/), and of what remains
  - '#define NAME VALUE' and '#define NAME(args) BODY' are substituted,
  - 'static inline' functions of one expression or of plain statements are
    written out where they are called,
  - '#if'/'#ifdef' on a compat macro in the sources is resolved,
  - anything else (a function whose address is taken, a declaration) moves
    into udpcp.h, in place of its #include "compat.h", with the headers the
    shims needed; other includers of compat.h get only the headers that
    depended on the version.
Whatever compat.h holds that this cannot resolve is an error, and a
leftover LINUX_VERSION_CODE or compat.h in the result is one too.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

IDENT = r'[A-Za-z_]\w*'


def die(msg):
    sys.exit('patches: ' + msg)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


# ---------------------------------------------------------------- compat.h

def kernel_version(tree):
    mk = read(os.path.join(tree, 'Makefile'))
    v = [int(re.search(r'^%s = (\d+)' % k, mk, re.M).group(1))
         for k in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL')]
    return tuple(v)


class KernelMacros:
    """Answers 'is MACRO defined by the tree's headers?' (for #ifdef)."""

    def __init__(self, tree):
        self.tree = tree
        self.cache = {}

    def defined(self, name):
        if name not in self.cache:
            r = subprocess.run(['grep', '-rqE', r'^\s*#\s*define\s+%s\b' % name,
                                os.path.join(self.tree, 'include')])
            self.cache[name] = r.returncode == 0
        return self.cache[name]


def kv(a, b, c):
    return (a << 16) + (b << 8) + min(c, 255)


def eval_cond(expr, ver, is_defined):
    """Evaluates a #if expression; None when it is not one we can."""
    e = re.sub(r'//.*|/\*.*?\*/', '', expr).strip()
    e = re.sub(r'defined\s*\(\s*(%s)\s*\)|defined\s+(%s)' % (IDENT, IDENT),
               lambda m: '1' if is_defined(m.group(1) or m.group(2)) else '0', e)
    e = e.replace('LINUX_VERSION_CODE', str(kv(*ver)))
    e = re.sub(r'KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)',
               lambda m: str(kv(int(m.group(1)), int(m.group(2)), int(m.group(3)))), e)
    if not re.fullmatch(r'[\d\s()<>=!&|+-]*', e) or not e:
        return None
    e = e.replace('&&', ' and ').replace('||', ' or ')
    e = re.sub(r'!(?!=)', ' not ', e)
    try:
        return bool(eval(e, {}))  # only digits and operators remain
    except Exception:  # noqa: BLE001
        return None


def resolve_conditionals(lines, decide):
    """Keeps the lines of the branches decide(kind, arg) chooses.  decide
    returns True/False, or None for a conditional to leave as it is."""
    out = []
    stack = []  # (mode, taken): mode 'keep' = unresolved, passes through

    def active():
        return all(s[0] == 'keep' or s[2] for s in stack)

    for line in lines:
        m = re.match(r'\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(.*)', line)
        if not m:
            if active():
                out.append(line)
            continue
        kind, arg = m.group(1), m.group(2).strip()
        if kind in ('if', 'ifdef', 'ifndef'):
            d = decide(kind, arg) if active() else False
            if d is None:
                stack.append(['keep', None, True])
                out.append(line)
            else:
                stack.append(['resolved', d, d])
        elif kind == 'elif':
            s = stack[-1]
            if s[0] == 'keep':
                out.append(line)
                continue
            if s[1]:
                s[2] = False
            else:
                d = decide('if', arg)
                if d is None:
                    die('cannot resolve #elif %s' % arg)
                s[1] = s[2] = d
        elif kind == 'else':
            s = stack[-1]
            if s[0] == 'keep':
                out.append(line)
            else:
                s[2] = not s[1]
        else:
            s = stack.pop()
            if s[0] == 'keep':
                out.append(line)
    if stack:
        die('unbalanced conditionals')
    return out


def split_items(text):
    """compat.h (resolved, without its guard) as items: each a dict with the
    comment above it, its kind and its text."""
    items = []
    comment = []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            comment = []
            i += 1
            continue
        if line.lstrip().startswith('/*'):
            block = [line]
            while '*/' not in lines[i]:
                i += 1
                block.append(lines[i])
            comment = block
            i += 1
            continue
        # one item: a preprocessor line (with continuations) or a C
        # construct up to its closing ';' or '}' at depth 0
        block = [line]
        if line.lstrip().startswith('#'):
            while block[-1].endswith('\\'):
                i += 1
                block.append(lines[i])
        else:
            depth = line.count('{') - line.count('}')
            while not (depth == 0 and (block[-1].rstrip().endswith(';') or
                                       block[-1].rstrip().endswith('}'))):
                i += 1
                block.append(lines[i])
                depth += lines[i].count('{') - lines[i].count('}')
        items.append({'comment': comment, 'text': '\n'.join(block)})
        comment = []
        i += 1
    return items


def parse_function(text):
    m = re.match(r'static\s+inline\s+([\w\s\*]+?)\s*\b(%s)\s*\((.*?)\)\s*\{(.*)\}\s*$'
                 % IDENT, text, re.S)
    if not m:
        return None
    params = []
    for p in m.group(3).split(','):
        p = p.strip()
        if p == 'void' or not p:
            continue
        pm = re.search(r'\(\s*\*\s*(%s)\s*\)|(%s)\s*(\[.*\])?$' % (IDENT, IDENT), p)
        params.append(pm.group(1) or pm.group(2))
    body = m.group(4).strip()
    stmts = [s.strip() for s in re.split(r';\s*\n', body + '\n') if s.strip()]
    return {'type': m.group(1).strip(), 'name': m.group(2), 'params': params,
            'stmts': [s.rstrip(';') for s in stmts], 'body': body}


def simple_body(fn):
    """One 'return EXPR' or plain expression statements: no locals, no
    control flow, no blocks."""
    for s in fn['stmts']:
        if re.search(r'[{}]|\b(if|for|while|switch|goto|do)\b', s):
            return False
        if re.match(r'(const\s+)?(struct\s+)?%s[\s\*]+%s\s*(=|;|$)' % (IDENT, IDENT), s) \
                and not s.startswith('return'):
            return False
    if fn['type'] != 'void':
        return len(fn['stmts']) == 1 and fn['stmts'][0].startswith('return ')
    return all(not s.startswith('return') for s in fn['stmts'])


def split_args(s):
    args, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == ',' and depth == 0:
            args.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return [re.sub(r'\s+', ' ', a) for a in args]


def find_calls(src, name):
    """Yields (start, end, args) of each call NAME(...) in src."""
    for m in re.finditer(r'\b%s\s*\(' % re.escape(name), src):
        depth, j = 1, m.end()
        while depth:
            if src[j] == '(':
                depth += 1
            elif src[j] == ')':
                depth -= 1
            j += 1
        yield m.start(), j, split_args(src[m.end():j - 1])


def substitute(body, params, args):
    def arg(a):
        if re.fullmatch(r'[\w.\[\]]+(->[\w.\[\]]+)*|%s\([^()]*\)' % IDENT, a):
            return a
        return '(%s)' % a
    mapping = dict(zip(params, args))
    out = re.sub(r'(?<![.>\w])(%s)\b' % IDENT,
                 lambda m: arg(mapping[m.group(1)]) if m.group(1) in mapping else m.group(1),
                 body)
    # (&x)->f is x.f; a whole argument of a call needs no parentheses
    out = re.sub(r'\(&([\w.>\-\[\]]+)\)->', r'\1.', out)
    out = re.sub(r'([(,]\s*)\((&?[\w.>\-\[\]]+)\)(?=\s*[,)])', r'\1\2', out)
    return out


class Compat:
    def __init__(self, path, ver, macros):
        text = read(path)
        self.all_names = set(re.findall(r'#\s*define\s+(%s)' % IDENT, text))
        self.all_names |= set(re.findall(r'static\s+inline\s+[\w\s\*]+?\b(%s)\s*\(' % IDENT, text))
        lines = text.split('\n')

        def decide(kind, arg):
            if kind == 'ifdef':
                return macros.defined(arg)
            if kind == 'ifndef':
                if re.fullmatch(r'_?UDPCP_COMPAT_H', arg):
                    return None
                return not macros.defined(arg)
            r = eval_cond(arg, ver, macros.defined)
            if r is None:
                die('compat.h: cannot evaluate #if %s' % arg)
            return r
        kept = resolve_conditionals(lines, decide)
        # the include guard and the file's own header comment go
        body = '\n'.join(kept)
        body = re.sub(r'^\s*#\s*(ifndef|define)\s+_?UDPCP_COMPAT_H\s*$', '', body, flags=re.M)
        body = re.sub(r'^\s*#\s*endif\b.*$', '', body, flags=re.M)
        body = re.sub(r'\A(\s*(//[^\n]*|/\*.*?\*/)\s*)+', '', body, flags=re.S)
        # which includes depended on the version: those inside a conditional
        # other than the include guard
        always, depth = set(), 0
        for line in lines:
            m = re.match(r'\s*#\s*(if|ifdef|ifndef|endif)\b\s*(.*)', line)
            if m and not re.fullmatch(r'_?UDPCP_COMPAT_H', m.group(2).strip()):
                depth += -1 if m.group(1) == 'endif' else 1
            elif depth <= 0 and re.match(r'\s*#\s*include\b', line):
                always.add(line.strip())
        self.includes, self.version_includes = [], []
        self.macros = {}      # NAME -> value ('' for a flag)
        self.fmacros = {}     # NAME -> (params, body)
        self.inline = {}      # NAME -> parsed function
        self.rest = []        # items that move into udpcp.h
        for it in split_items(body):
            t = it['text']
            m = re.match(r'#\s*include\s+(\S+)', t)
            if m:
                if m.group(1) == '<linux/version.h>':
                    continue
                self.includes.append('#include ' + m.group(1))
                if t.strip() not in always:
                    self.version_includes.append('#include ' + m.group(1))
                continue
            m = re.match(r'#\s*define\s+(%s)\(([^)]*)\)\s+(.*)' % IDENT, t, re.S)
            if m:
                self.fmacros[m.group(1)] = ([p.strip() for p in m.group(2).split(',')],
                                            m.group(3).replace('\\\n', ' ').strip())
                continue
            m = re.match(r'#\s*define\s+(%s)\s*(.*)' % IDENT, t, re.S)
            if m:
                self.macros[m.group(1)] = m.group(2).replace('\\\n', ' ').strip()
                continue
            if re.match(r'#\s*undef\b', t):
                continue
            if t.lstrip().startswith('#'):
                die('compat.h: cannot place %r' % t)
            fn = parse_function(t)
            if fn and simple_body(fn):
                fn['item'] = it
                self.inline[fn['name']] = fn
            else:
                self.rest.append(it)

    def classify(self, sources):
        """A shim function whose address a source takes stays a function
        (in udpcp.h)."""
        for name in list(self.inline):
            if any(re.search(r'\b%s\b(?!\s*\()' % name, src) for src in sources):
                self.rest.append(self.inline.pop(name)['item'])

    def apply(self, src, fname):
        names = self.all_names

        def decide(kind, arg):
            if kind in ('ifdef', 'ifndef'):
                if arg not in names:
                    return None
                d = arg in self.macros
                return d if kind == 'ifdef' else not d
            if not re.search(r'\b(%s)\b' % '|'.join(map(re.escape, names)), arg):
                return None
            e = re.sub(r'\b(%s)\b' % IDENT,
                       lambda m: self.macros.get(m.group(1), m.group(1)) or '1', arg)
            r = eval_cond(e, (0, 0, 0), lambda n: n in self.macros)
            if r is None:
                die('%s: cannot resolve #if %s' % (fname, arg))
            return r
        src = '\n'.join(resolve_conditionals(src.split('\n'), decide))
        for name, fn in self.inline.items():
            src = self.inline_calls(src, fn, fname)
        for name, (params, body) in self.fmacros.items():
            for start, end, args in reversed(list(find_calls(src, name))):
                src = src[:start] + substitute(body, params, args) + src[end:]
        for name, value in self.macros.items():
            if value:
                src = re.sub(r'\b%s\b' % name, lambda m, v=value: v, src)
        # what could not be written out: udpcp.h takes it, others the
        # headers that depended on the version
        inc = re.compile(r'^#include "compat.h"\n', re.M)
        if inc.search(src):
            if fname == 'udpcp.h':
                have = set(re.findall(r'^#include .*$', src, re.M))
                text = ''.join(i + '\n' for i in self.includes if i not in have)
                for it in self.rest:
                    text += '\n' + '\n'.join(it['comment'] + [it['text']]) + '\n'
                src = inc.sub(lambda m: text.lstrip('\n'), src)
            else:
                have = set(re.findall(r'^#include .*$', src, re.M))
                text = ''.join(i + '\n' for i in self.version_includes if i not in have)
                src = inc.sub(lambda m: text, src)
        src = src.replace('compat.h', 'udpcp.h')
        return src

    def inline_calls(self, src, fn, fname):
        name = fn['name']
        if re.search(r'\b%s\b(?!\s*\()' % name, src):
            die('%s: %s is used other than called; compat.h must keep it' % (fname, name))
        for start, end, args in reversed(list(find_calls(src, name))):
            if fn['type'] != 'void':
                expr = fn['stmts'][0][len('return '):].strip()
                src = src[:start] + substitute(expr, fn['params'], args) + src[end:]
                continue
            # a statement of its own: each of the body's statements, on the
            # call's indentation
            ls = src.rfind('\n', 0, start) + 1
            indent = src[ls:start]
            if indent.strip() or not src[end:].startswith(';'):
                die('%s: %s() is not called as a statement' % (fname, name))
            stmts = [substitute(s, fn['params'], args) + ';' for s in fn['stmts']]
            src = src[:start] + ('\n' + indent).join(stmts) + src[end + 1:]
        return src


# ---------------------------------------------------------------- the rest

def kbuild_to_makefile(text, compat):
    """module/Kbuild as net/udpcp/Makefile: built when CONFIG_UDPCP says,
    without the include paths the out-of-tree layout needs and without
    compat.h."""
    out = []
    comment = []
    for line in text.split('\n'):
        if line.startswith('#') and not line.startswith('# SPDX'):
            comment.append(line)
            continue
        line = line.replace('obj-m', 'obj-$(CONFIG_UDPCP)')
        m = re.match(r'(\S+)\s*(:=|\+=|=)\s*(.*)', line)
        if m and m.group(1).startswith(('ccflags', 'CFLAGS', 'subdir-ccflags')):
            val = re.sub(r'-include\s+\S*compat\.h|-I\s*\$\(src\)/\.\.\S*', '', m.group(3))
            if not val.strip():
                comment = []
                continue
            line = '%s %s %s' % (m.group(1), m.group(2), ' '.join(val.split()))
        out += comment + [line]
        comment = []
    text = '\n'.join(out)
    # a := that lost its predecessor's line still assigns first
    return re.sub(r'\n{3,}', '\n\n', text)


def rst_merge(main, parts):
    """Documentation/networking/udpcp.rst: the socket document with the
    protocol and netlink documents as its chapters (their titles become
    sections and every heading one level down); :doc: references between
    them become :ref: to labels; others become literals."""
    def demote(text, label):
        levels = {'title': '=', '=': '-', '-': '~', '~': '^', '^': '"'}
        lines = text.split('\n')
        out = []
        i = 0
        while i < len(lines):
            ln = lines[i]
            if re.fullmatch(r'(=){3,}', ln) and i + 2 < len(lines) and \
                    re.fullmatch(r'(=){3,}', lines[i + 2]):
                title = lines[i + 1].strip()
                out += ['.. _%s:' % label, '', title, levels['title'] * len(title)]
                i += 3
                continue
            if i > 0 and re.fullmatch(r'([=\-~^])\1{2,}', ln) and lines[i - 1].strip() and \
                    not re.fullmatch(r'[=\-~^ ]+', lines[i - 1]) and \
                    len(ln) >= len(lines[i - 1].rstrip()) and \
                    (i + 1 >= len(lines) or not lines[i + 1].startswith(ln[0] * 3)):
                out.append(levels[ln[0]] * len(lines[i - 1].rstrip()))
                i += 1
                continue
            out.append(ln)
            i += 1
        return '\n'.join(out)

    labels = ['udpcp'] + [label for label, _ in parts]
    text = re.sub(r'\A(\.\. SPDX[^\n]*\n\n)', r'\1.. _udpcp:\n\n', main.rstrip('\n') + '\n')
    for label, part in parts:
        part = re.sub(r'\A\.\. SPDX[^\n]*\n\s*', '', part)
        text += '\n' + demote(part, label).rstrip('\n') + '\n'

    def ref(m):
        target = m.group(2) or m.group(1)
        title = m.group(1) if m.group(2) else None
        if target in labels:
            return ':ref:`%s`' % ('%s <%s>' % (title, target) if title else target)
        return '``%s``' % (title or target)
    text = re.sub(r':doc:`([^`<]+?)(?:\s*<([^>]+)>)?`', ref, text)
    return text.replace('``module/', '``net/udpcp/')


def intree_paths(text):
    """The repository's paths in prose as the tree's: module/ is
    net/udpcp/, uapi/linux/ is include/uapi/linux/ (not in #include <>)."""
    text = re.sub(r'(?<![/\w])module/', 'net/udpcp/', text)
    return re.sub(r'(?<![/<\w])uapi/linux/', 'include/uapi/linux/', text)


# What a reviewer would read as the out-of-tree project's, reported by
# make patches (not an error: the sources say it, and they are others' to
# change).
OUT_OF_TREE = re.compile(r'\b(compat\b|out[- ]of[- ]tree|tests/|udpcpctl/|make progs|dkms|'
                         r'(?<![\w.])6\.(1|2|6|12|13)(?![\w.]))', re.I)


def notes(out):
    for f in sorted(os.listdir(out)):
        if f.startswith('0000'):
            continue
        path = None
        for line in read(os.path.join(out, f)).split('\n'):
            if line.startswith('+++ b/'):
                path = line[6:]
            elif path and line.startswith('+') and OUT_OF_TREE.search(line):
                print('patches: note: %s: %s' % (path, line[1:].strip()), file=sys.stderr)


def respell(text, tree):
    """The corrections of the tree's scripts/spelling.txt (what checkpatch
    flags), whole words, in prose."""
    fixes = {}
    for line in read(os.path.join(tree, 'scripts/spelling.txt')).split('\n'):
        if '||' in line and not line.startswith('#'):
            bad, good = line.split('||', 1)
            fixes[bad] = good
    words = re.compile(r'\b[A-Za-z]+\b')

    def fix(m):
        w = m.group(0)
        good = fixes.get(w.lower())
        if not good:
            return w
        return good[0].upper() + good[1:] if w[0].isupper() else good
    return words.sub(fix, text)


def maintainers_insert(text, name, fields):
    """Adds or extends the entry NAME: fields sorted as checkpatch wants."""
    order = 'MRLSWQBCPTFXNK'
    lines = text.split('\n')
    start = None
    for i, ln in enumerate(lines):
        if ln == name:
            start = i
            break
    if start is None:
        # the entries are sorted by name, after the section that starts them
        first = next(i for i, ln in enumerate(lines) if ln.startswith('3C59X NETWORK DRIVER'))
        pos = first
        for i in range(first, len(lines) - 1):
            if lines[i] and not lines[i].startswith(('\t', ' ')) and \
                    i > 0 and not lines[i - 1].strip() and re.match(r'[A-Z]:\t', lines[i + 1]):
                if lines[i] == 'THE REST' or lines[i].upper() > name:
                    pos = i
                    break
        lines[pos:pos] = [name, '']
        start = pos
    end = start + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    entry = [ln for ln in lines[start + 1:end]] + fields
    entry = sorted(set(entry), key=lambda f: (order.index(f[0]), f if f[0] in 'FX' else ''))
    lines[start + 1:end] = entry
    return '\n'.join(lines)


KCONFIG = '''\
# SPDX-License-Identifier: GPL-2.0-only
#
# UDPCP: the OBSAI RP1 UDP-based communication protocol
#

config UDPCP
	tristate "UDPCP: OBSAI reliable messages over UDP"
	depends on INET
	depends on IPV6 || !IPV6
	select NET_UDP_TUNNEL
	help
	  UDPCP is the communication protocol of the OBSAI RP1 specification
	  (Appendix A): reliable, checksummed messages of up to 65487 bytes
	  over UDP, with acknowledgements, retransmission and fragmentation,
	  as used between the baseband and radio units of cellular base
	  stations.  Applications use it through
	  socket(AF_INET or AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP); it is
	  managed per network namespace through the "udpcp" generic netlink
	  family.  See Documentation/networking/udpcp.rst.

	  To compile this as a module, choose M here: the module will be
	  called udpcp.

	  If unsure, say N.
'''


# ---------------------------------------------------------------- the series

class Series:
    def __init__(self, tree, author, date):
        self.tree = tree
        self.dir = tempfile.mkdtemp(prefix='udpcp-series.')
        self.env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        name, email = re.match(r'(.*?)\s*<(.*)>', author).groups()
        self.env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
                        GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email)
        self.author = author
        self.git('init', '-q')
        self.git('config', 'core.abbrev', '12')

    def git(self, *args, cwd=None):
        return subprocess.run(['git', '-C', cwd or self.dir] + list(args), env=self.env,
                              check=True, stdout=subprocess.PIPE, text=True).stdout

    def base(self, paths):
        for p in paths:
            data = subprocess.run(['git', '-C', self.tree, 'show', 'base:' + p],
                                  check=True, stdout=subprocess.PIPE).stdout
            self.write(p, data)
        self.git('add', '-A')
        self.git('commit', '-q', '-m', 'base')

    def path(self, p):
        return os.path.join(self.dir, p)

    def get(self, p):
        return read(self.path(p))

    def write(self, p, data, mode=None):
        os.makedirs(os.path.dirname(self.path(p)), exist_ok=True)
        with open(self.path(p), 'wb' if isinstance(data, bytes) else 'w') as f:
            f.write(data)
        if mode:
            os.chmod(self.path(p), mode)

    def commit(self, subject, body):
        msg = subject + '\n\n' + body.strip() + '\n\nSigned-off-by: %s\n' % self.author
        self.git('add', '-A')
        subprocess.run(['git', '-C', self.dir, 'commit', '-q', '-F', '-'], input=msg,
                       text=True, env=self.env, check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repo', required=True)
    ap.add_argument('--tree', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--author')
    ap.add_argument('--base-name', default='')
    a = ap.parse_args()
    repo = a.repo

    def rgit(*args):
        return subprocess.run(['git', '-C', repo] + list(args), check=True,
                              stdout=subprocess.PIPE, text=True).stdout.strip()
    author = a.author or rgit('log', '-1', '--format=%an <%ae>')
    date = rgit('log', '-1', '--format=%aD')
    ver = kernel_version(a.tree)
    macros = KernelMacros(a.tree)
    compat = Compat(os.path.join(repo, 'module/compat.h'), ver, macros)
    entry = 'UDPCP PROTOCOL'
    maint = ['M:\t' + author, 'L:\tnetdev@vger.kernel.org', 'S:\tMaintained']

    s = Series(a.tree, author, date)
    sel = 'tools/testing/selftests/net/'
    s.base(['MAINTAINERS', 'net/Kconfig', 'net/Makefile',
            'Documentation/networking/index.rst',
            sel + 'Makefile', sel + 'config', sel + '.gitignore'])

    def maintainers(files):
        s.write('MAINTAINERS', maintainers_insert(s.get('MAINTAINERS'), entry,
                                                  maint + ['F:\t' + f for f in files]))

    # 1: uapi and spec
    uapi = sorted(os.listdir(os.path.join(repo, 'uapi/linux')))
    for f in uapi:
        s.write('include/uapi/linux/' + f, intree_paths(read(os.path.join(repo, 'uapi/linux', f))))
    s.write('Documentation/netlink/specs/udpcp.yaml',
            intree_paths(read(os.path.join(repo, 'Documentation/netlink/specs/udpcp.yaml'))))
    maintainers(['Documentation/netlink/specs/udpcp.yaml'] +
                ['include/uapi/linux/' + f for f in uapi])
    s.commit('net: udpcp: add the uapi header and the generic netlink spec', '''
UDPCP is the transport of OBSAI RP1 (Appendix A), the interface between
the baseband and radio units of cellular base stations: reliable messages
of up to 65487 bytes over UDP, acknowledged, retransmitted, checksummed
with Adler-32 and fragmented to the path MTU; no-ack mode adds multicast
and broadcast.

This is its user API.  Applications open
socket(AF_INET or AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP) and set the
per-socket parameters with socket options at level SOL_UDPCP; a failed
message comes back on the error queue as a sock_extended_err.  Management
(per-namespace defaults, per-peer parameters and state, counters and
events) is the "udpcp" generic netlink family, described by
Documentation/netlink/specs/udpcp.yaml; udpcp_nl.h is rendered from it by
ynl-gen-c.

IPPROTO_UDPCP is 258: socket() accepts protocols up to IPPROTO_MAX, and a
value above 255 never appears in an IP header, as with IPPROTO_MPTCP.
''')

    # 2: the protocol
    mod = os.path.join(repo, 'module')
    names = sorted(f for f in os.listdir(mod)
                   if f.endswith(('.c', '.h')) and f != 'compat.h' and not f.endswith('.mod.c'))
    compat.classify([read(os.path.join(mod, f)) for f in names])
    for f in names:
        src = compat.apply(read(os.path.join(mod, f)), f)
        # the packaged builds' version string has no place in the tree
        src = resolve_pkg(src)
        for bad in ('LINUX_VERSION_CODE', 'KERNEL_VERSION(', 'compat.h'):
            if bad in src:
                die('net/udpcp/%s: %s left after resolving compat.h' % (f, bad))
        s.write('net/udpcp/' + f, intree_paths(src))
    s.write('net/udpcp/Makefile', kbuild_to_makefile(read(os.path.join(mod, 'Kbuild')), compat))
    s.write('net/udpcp/Kconfig', KCONFIG)
    maintainers(['net/udpcp/'])
    s.commit('net: udpcp: add the OBSAI UDPCP protocol', '''
Add UDPCP, the OBSAI RP1 reliable message protocol over UDP.

Each UDPCP socket owns a kernel UDP socket set up as an encapsulation
socket (setup_udp_tunnel_sock()): packets arrive in encap_rcv, ICMP errors
in encap_err_rcv.  Above it, per peer (remote address and port, in an
rhashtable), the sender numbers messages, fragments them to the path MTU,
keeps up to the configured number of them unacknowledged and retransmits
on an hrtimer; the receiver checks the Adler-32 checksum, reassembles,
acknowledges, drops duplicates and delivers whole messages to the socket's
receive queue.  Sources share the receive buffer fairly, so that one
flooding peer does not starve the others.  A message that exhausts its
tries is reported on the socket's error queue.

Both address families are supported: an AF_INET6 socket is dual stack
unless IPV6_V6ONLY is set.  All state is per network namespace.

Management is generic netlink only, generated from the YAML spec:
netlink-gen.[ch] are ynl-gen-c's output for
Documentation/netlink/specs/udpcp.yaml, netlink.c implements the
operations (defaults, sockets, peers, multicast groups, counters) and
sends events to the "events" group, which needs CAP_NET_ADMIN to join.
Counters are one per-cpu MIB, per namespace, per socket and per peer; the
socket's own are also available through getsockopt(UDPCP_INFO).
Tracepoints cover the message lifecycle; drops use skb drop reasons.
''')

    # 3: Kconfig and Makefile hooks
    kc = s.get('net/Kconfig')
    kc, n = re.subn(r'^(source "net/tipc/Kconfig"\n)', r'\1source "net/udpcp/Kconfig"\n',
                    kc, count=1, flags=re.M)
    if not n:
        die('net/Kconfig: no tipc line to follow')
    s.write('net/Kconfig', kc)
    mk = s.get('net/Makefile')
    mk, n = re.subn(r'^(obj-\$\(CONFIG_TIPC\)\s+\+= tipc/\n)',
                    lambda m: m.group(1) + 'obj-$(CONFIG_UDPCP)\t\t+= udpcp/\n',
                    mk, count=1, flags=re.M)
    if not n:
        die('net/Makefile: no tipc line to follow')
    s.write('net/Makefile', mk)
    s.commit('net: udpcp: hook into Kconfig and the net Makefile', '''
Make CONFIG_UDPCP selectable and build net/udpcp/ when it is set.  UDPCP
depends on INET, builds without IPv6, and cannot be built in when IPv6 is
a module.
''')

    # 4: docs
    d = os.path.join(repo, 'Documentation')
    parts = [(p, read(os.path.join(d, p + '.rst')))
             for p in ('udpcp-protocol', 'udpcp-netlink') if os.path.exists(os.path.join(d, p + '.rst'))]
    s.write('Documentation/networking/udpcp.rst',
            intree_paths(respell(rst_merge(read(os.path.join(d, 'udpcp.rst')), parts),
                                 a.tree)))
    idx = s.get('Documentation/networking/index.rst')
    idx, n = re.subn(r'^(   tls-offload\n)', r'\1   udpcp\n', idx, count=1, flags=re.M)
    if not n:
        die('Documentation/networking/index.rst: no tls-offload entry to follow')
    s.write('Documentation/networking/index.rst', idx)
    maintainers(['Documentation/networking/udpcp.rst'])
    s.commit('Documentation: networking: document UDPCP', '''
Describe the socket interface (sending, delivery and failure, receiving,
the socket options and where the protocol leaves the implementation a
choice), the wire format and protocol rules as implemented, and the
generic netlink family, with examples using the YNL command line tool.
''')

    # 5: selftests
    ks = os.path.join(repo, 'tests/kselftest')
    for f in sorted(os.listdir(ks)):
        mode = 0o755 if f.endswith('.sh') else None
        s.write(sel + f, read(os.path.join(ks, f)), mode)
    mkf = s.get(sel + 'Makefile')
    # after the last TEST_PROGS line, which is a single one
    last = list(re.finditer(r'^TEST_PROGS \+= [^\n\\]*\n', mkf, re.M))
    if not last:
        die(sel + 'Makefile: no TEST_PROGS line')
    at = last[-1].end()
    mkf = mkf[:at] + 'TEST_PROGS += udpcp.sh\nTEST_GEN_FILES += udpcp\n' + mkf[at:]
    s.write(sel + 'Makefile', mkf)
    cfg = s.get(sel + 'config').rstrip('\n').split('\n') + ['CONFIG_UDPCP=m', '']
    s.write(sel + 'config', '\n'.join(cfg))
    gi = s.get(sel + '.gitignore').split('\n')
    gi.insert(next((i for i, ln in enumerate(gi)
                    if ln and not ln.startswith('#') and ln > 'udpcp'), len(gi) - 1), 'udpcp')
    s.write(sel + '.gitignore', '\n'.join(gi))
    maintainers([sel + 'udpcp*'])
    s.commit('selftests: net: add UDPCP tests', '''
udpcp.sh runs the udpcp program in a pair of network namespaces joined by
a veth pair: messages of every size up to the maximum, acknowledged and
not, over IPv4 and IPv6 (also through a v4-mapped address), delivered
whole and in order; a message to a peer that does not answer comes back
on the error queue with ETIMEDOUT after its tries; the socket options
keep what they are given and refuse what is out of range; and the
generic netlink family is present.
''')

    out = a.out
    if os.path.isdir(out):
        shutil.rmtree(out)
    s.git('format-patch', '-q', '--cover-letter', '--subject-prefix=PATCH net-next',
          '-o', os.path.abspath(out), 'HEAD~5')
    cover(out, a.base_name or '.'.join(map(str, ver)))
    notes(out)
    shutil.rmtree(s.dir)


def resolve_pkg(src):
    """Drops #ifdef UDPCP_PKG_* blocks (the package build's macros) and the
    comment right above one."""
    src = re.sub(r'^/\*(?:(?!\*/).)*\*/\n(?=#\s*ifn?def\s+UDPCP_PKG_)', '', src,
                 flags=re.M | re.S)
    out = resolve_conditionals(src.split('\n'), lambda k, a: (k == 'ifndef')
                               if re.fullmatch(r'UDPCP_PKG_\w+', a) else None)
    text = '\n'.join(out)
    return text


COVER = '''\
This series adds UDPCP, the reliable message transport of the OBSAI RP1
specification (Appendix A), used between the baseband and radio units of
cellular base stations: messages of up to 65487 bytes over UDP,
acknowledged, retransmitted, Adler-32 checksummed and fragmented to the
path MTU, with a no-ack mode for multicast and broadcast.

A UDPCP implementation was posted to netdev in 2011 and refused: it spoke
IPv4 only, and it was configured through ioctls and sysctls.  This one
answers both:

 - IPv4 and IPv6.  socket(AF_INET or AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP);
   an AF_INET6 socket is dual stack unless IPV6_V6ONLY is set.  The
   transport is a kernel UDP socket per UDPCP socket, set up with
   setup_udp_tunnel_sock(), so routing, PMTU, ICMP errors, multicast and
   SO_BINDTODEVICE are UDP's own.

 - No ioctls and no sysctls.  The data path takes socket options at
   level SOL_UDPCP (the 2011 names and values, so existing applications
   port by changing the socket() call); the 2011 UDPCP_IOCTL_SYNC is the
   UDPCP_FLUSH socket option.  Everything else - the namespace's defaults,
   per-peer parameters and state, multicast groups, counters, resets and
   events - is the "udpcp" generic netlink family, specified in
   Documentation/netlink/specs/udpcp.yaml; its policies, op table and uapi
   enums are ynl-gen-c output, and tools/net/ynl/cli.py drives it as is.

 - Network namespaces: all state, defaults and counters are per netns,
   and the family is netnsok.

Patch 1 is the uapi and the spec, patch 2 the protocol, patch 3 the
Kconfig/Makefile hook, patch 4 the documentation and patch 5 the
selftests (tools/testing/selftests/net/udpcp.sh).

Each patch builds with W=1 and passes checkpatch.pl --strict, except for
long lines in the generated netlink-gen.c (as in other ynl-gen-c output)
and the layout that trace.h shares with include/trace/events/.

Open questions for reviewers: IPPROTO_UDPCP is defined in
include/uapi/linux/udpcp.h as 258, not in the IPPROTO enum of
linux/in.h; we would move it there if preferred.

Base: %(base)s, Debian 12's kernel source package.
'''


def cover(out, base):
    path = sorted(f for f in os.listdir(out) if f.startswith('0000-'))[0]
    p = os.path.join(out, path)
    text = read(p)
    text = text.replace('*** SUBJECT HERE ***', 'net: add the OBSAI UDPCP protocol (IPv4/IPv6, genetlink)')
    text = text.replace('*** BLURB HERE ***', (COVER % {'base': base}).rstrip('\n'))
    os.rename(p, os.path.join(out, '0000-cover-letter.patch'))
    with open(os.path.join(out, '0000-cover-letter.patch'), 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()

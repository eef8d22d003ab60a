#!/usr/bin/env python3
# cudaimgproc: writes kernels/median5_network.cuh, the selection network of
# cudasmooth's 5x5 median, and proves it.
# Copyright (C) 2026 cudaimgproc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The 5x5 median from five sorted columns A..E (Adams' separable idea):
X = merge(A, B), Y = merge(C, D), W = merge(X, Y), of which only W[7..12]
can hold the median (W[6] has at most 11 of the 25 below it, W[13] at
least 13), and the median is element 5 of merge(W[7..12], E).  Two
outputs that share four columns share X, Y and W[7..12]; outputs that
share two share X or Y.  Merges are Batcher's odd-even merge of the lists
padded with +inf to a power of two, the padding's comparators folded away,
and every operation that the result does not need left out.

By the 0-1 principle (min and max commute with every monotone map, and a
threshold of sorted columns is sorted columns) the network is right for
all inputs if it is right for the 6^5 0-1 inputs with sorted columns:
checked here every run.

  median_network.py           print the header
  median_network.py --check F  prove the network; F must equal the output
"""
import itertools
import sys

INF = None


class Net:
    def __init__(self):
        self.ops = []           # (name, 'min' or 'max', a, b)

    def op(self, kind, a, b):
        name = 't%d' % len(self.ops)
        self.ops.append((name, kind, a, b))
        return name

    def exchange(self, w, i, j):
        a, b = w[i], w[j]
        if a is INF:
            w[i], w[j] = b, a
        elif b is not INF:
            w[i], w[j] = self.op('min', a, b), self.op('max', a, b)


def oddeven_merge(lo, n, r, out):
    step = 2 * r
    if step < n:
        oddeven_merge(lo, n, step, out)
        oddeven_merge(lo + r, n, step, out)
        out.extend((i, i + r) for i in range(lo + r, lo + n - r, step))
    else:
        out.append((lo, lo + r))


def merge(net, a, b):
    p = 1
    while p < max(len(a), len(b)):
        p *= 2
    w = list(a) + [INF] * (p - len(a)) + list(b) + [INF] * (p - len(b))
    pairs = []
    oddeven_merge(0, 2 * p, 1, pairs)
    for i, j in pairs:
        net.exchange(w, i, j)
    return [x for x in w if x is not INF]


def needed(net, outs):
    ops = {name: (a, b) for name, _, a, b in net.ops}
    keep, todo = set(), [o for o in outs if o in ops]
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        todo.extend(x for x in ops[name] if x in ops)
    return keep


def merge_net(n, m):
    """a merge of sorted a[n] and b[m], and its outputs"""
    net = Net()
    return net, merge(net, ['a[%d]' % i for i in range(n)],
                      ['b[%d]' % i for i in range(m)])


def prove_merge(net, out, n, m):
    for i, j in itertools.product(range(n + 1), range(m + 1)):
        env = {'a[%d]' % k: int(k >= n - i) for k in range(n)}
        env.update({'b[%d]' % k: int(k >= m - j) for k in range(m)})
        evaluate(net, env)
        if [env[v] for v in out] != [0] * (n + m - i - j) + [1] * (i + j):
            raise SystemExit('merge %d + %d wrong' % (n, m))


def build():
    """(pair merge, its outputs), (middle, its outputs), (final, median)"""
    pair_net, m = merge_net(5, 5)
    mid_net = Net()
    w = merge(mid_net, ['x[%d]' % i for i in range(10)],
              ['y[%d]' % i for i in range(10)])[7:13]
    fin_net = Net()
    med = merge(fin_net, ['w[%d]' % i for i in range(6)],
                ['e[%d]' % i for i in range(5)])[5]
    return (pair_net, m), (mid_net, w), (fin_net, med)


def evaluate(net, env):
    for name, kind, a, b in net.ops:
        env[name] = (min if kind == 'min' else max)(env[a], env[b])
    return env


def prove(pair, mid, fin):
    for ones in itertools.product(range(6), repeat=5):
        col = [[1 if i >= 5 - k else 0 for i in range(5)] for k in ones]
        env = {}
        for dst, p, q in (('x', 0, 1), ('y', 2, 3)):
            e = {'a[%d]' % i: col[p][i] for i in range(5)}
            e.update({'b[%d]' % i: col[q][i] for i in range(5)})
            evaluate(pair[0], e)
            env.update({'%s[%d]' % (dst, i): e[v]
                        for i, v in enumerate(pair[1])})
        evaluate(mid[0], env)
        e = {'w[%d]' % i: env[v] for i, v in enumerate(mid[1])}
        e.update({'e[%d]' % i: col[4][i] for i in range(5)})
        evaluate(fin[0], e)
        every = sorted(v for c in col for v in c)
        if e[fin[1]] != every[12]:
            raise SystemExit('median network wrong for %r' % (ones,))


def emit_ops(net, outs):
    keep = needed(net, outs)
    fn = {'min': '__vminu2', 'max': '__vmaxu2'}
    return ['  const uint32_t %s = %s (%s, %s);' % (name, fn[kind], a, b)
            for name, kind, a, b in net.ops if name in keep], len(keep)


def function(doc, sig, net, outs, result):
    lines, ops = emit_ops(net, outs if isinstance(outs, list) else [outs])
    head = ['/* %s (%d minima and maxima) */' % (doc, ops),
            '__device__ __forceinline__ %s' % sig[0]] + sig[1:] + ['{']
    if isinstance(outs, list):
        tail = ['  %s[%d] = %s;' % (result, i, v) for i, v in enumerate(outs)]
    else:
        tail = ['  return %s;' % outs]
    return head + lines + tail + ['}', '']


def header():
    pair, mid, fin = build()
    prove(pair, mid, fin)
    merges = {}
    for n, m in ((4, 4), (8, 2)):
        merges[n, m] = merge_net(n, m)
        prove_merge(*merges[n, m], n, m)
    prove_merge(*pair, 5, 5)
    out = [
        '/* cudaimgproc: the 5x5 median from sorted columns, two 16-bit',
        ' * lanes a word.  Generated by scripts/median_network.py, which',
        ' * proves it (the tests run it with --check): do not edit.',
        ' * Copyright (C) 2026 cudaimgproc developers',
        ' * SPDX-License-Identifier: LGPL-2.1-or-later',
        ' */',
        '#pragma once',
        '',
    ]
    out += function('sorted columns @a and @b merged',
                    ['void', 'median5_merge55 (const uint32_t (&a)[5], '
                     'const uint32_t (&b)[5],', '    uint32_t (&m)[10])'],
                    pair[0], pair[1], 'm')
    for (n, m), (net, res) in merges.items():
        out += function('sorted @a and @b merged',
                        ['void', 'median5_merge%d%d (const uint32_t (&a)[%d], '
                         'const uint32_t (&b)[%d],' % (n, m, n, m),
                         '    uint32_t (&m)[%d])' % (n + m)], net, res, 'm')
    out += function('of merged column pairs @x and @y, the six that can '
                    'hold the\n * median of 25 with a fifth column',
                    ['void', 'median5_middle (const uint32_t (&x)[10], '
                     'const uint32_t (&y)[10],', '    uint32_t (&w)[6])'],
                    mid[0], mid[1], 'w')
    out += function('the median of median5_middle\'s @w and column @e',
                    ['uint32_t', 'median5_final (const uint32_t (&w)[6], '
                     'const uint32_t (&e)[5])'],
                    fin[0], fin[1], None)
    return '\n'.join(out[:-1]) + '\n'


def main():
    text = header()
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2]) as f:
            if f.read() != text:
                raise SystemExit('%s differs from what median_network.py '
                                 'writes: run it again' % sys.argv[2])
        print('median network proved; %s is current' % sys.argv[2])
    elif len(sys.argv) == 1:
        sys.stdout.write(text)
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# cudaimgproc: names what bench/hostprof.c sampled on the GPU host, per
# thread: the libraries and functions the samples fell in (self) and those
# on their stacks (total).  Run on the build machine, where the plugin's
# unstripped build and the same GStreamer libraries are:
#   bench/hostprof.py FILE [--map DEVICE_PATH=LOCAL_PATH ...] [--top N]
# Functions are named in the libraries under the checkout (the device runs
# from a copy at the same path: devrun/, .gpu-bundle/) and in those --map
# names; elsewhere (libcuda, the host's own libc) only the library.
# Exported symbols name a library's static functions after the exported
# one before them: read those names as "in or after".
import argparse
import bisect
import collections
import os
import subprocess


def load(path):
    maps, samples, names = [], [], {}
    for line in open(path):
        kind, _, rest = line.partition(" ")
        if kind == "S":
            p = rest.split()
            samples.append((int(p[0]), [int(x, 16) for x in p[1:]]))
        elif kind == "T":
            tid, _, name = rest.partition(" ")
            names[int(tid)] = name.strip()
        elif kind == "M":
            p = rest.split()
            if len(p) >= 6 and "x" in p[1]:
                lo, hi = (int(x, 16) for x in p[0].split("-"))
                maps.append((lo, hi, int(p[2], 16), p[5]))
    return sorted(maps), samples, names


class Namer:
    def __init__(self, maps, remap):
        self.maps, self.remap, self.syms, self.names = maps, remap, {}, {}
        self.root = os.path.dirname(os.path.dirname(os.path.abspath(
            __file__))) + "/"

    def symbols(self, path):
        if path not in self.syms:
            local = self.remap.get(path)
            if local is None and path.startswith(self.root):
                local = path
            table = []
            if local and os.path.exists(local):
                for opts in (["--defined-only"], ["-D", "--defined-only"]):
                    out = subprocess.run(["nm", "-C"] + opts + [local],
                                         capture_output=True, text=True)
                    for line in out.stdout.splitlines():
                        q = line.split(" ", 2)
                        if len(q) == 3 and q[1] in "tTwWiI":
                            try:
                                table.append((int(q[0], 16), q[2]))
                            except ValueError:
                                pass
            table.sort()
            self.syms[path] = ([a for a, _ in table], [n for _, n in table])
        return self.syms[path]

    def name(self, pc):
        # an address comes back in many samples: named once
        if pc not in self.names:
            self.names[pc] = self.lookup(pc)
        return self.names[pc]

    def lookup(self, pc):
        for lo, hi, off, path in self.maps:
            if lo <= pc < hi:
                lib = os.path.basename(path)
                addrs, names = self.symbols(path)
                i = bisect.bisect_right(addrs, pc - lo + off) - 1
                return lib, (lib + ": " + names[i][:80]) if i >= 0 else lib
        return "?", "?"


def stacks(samples, names, namer, top):
    """Each thread's most frequent stack (its first named frames, libc's
    and the unnamed left out) in the snapshots, then the threads of each
    kind (name, digits folded) counted by that stack: where most of them
    sat, and where a few others did."""
    per_tid = collections.defaultdict(collections.Counter)
    for tid, stack in samples:
        frames = []
        for pc in stack:
            lib, fn = namer.name(pc)
            if lib in ("?", "libc.so.6") or fn == lib:
                continue
            if not frames or frames[-1] != fn:
                frames.append(fn)
            if len(frames) == 6:
                break
        per_tid[tid][" < ".join(frames) or "?"] += 1
    kinds = collections.defaultdict(collections.Counter)
    share = collections.defaultdict(float)
    for tid, c in per_tid.items():
        kind = "".join("#" if ch.isdigit() else ch
                       for ch in names.get(tid, "?"))
        while "##" in kind:
            kind = kind.replace("##", "#")
        where, n = c.most_common(1)[0]
        kinds[kind][where] += 1
        share[kind, where] += n / sum(c.values())
    for kind, c in sorted(kinds.items(), key=lambda kv: -sum(kv[1].values())):
        print("\n%s: %d threads" % (kind, sum(c.values())))
        for where, n in c.most_common(top):
            print("  %4d threads there in %3.0f %% of their snapshots: %s" %
                  (n, 100.0 * share[kind, where] / n, where))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--map", action="append", default=[],
                    help="DEVICE_PATH=LOCAL_PATH of a library")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--stacks", action="store_true",
                    help="HOSTPROF_ALL's snapshots: threads by kind and "
                    "where each mostly was")
    a = ap.parse_args()
    maps, samples, names = load(a.file)
    namer = Namer(maps, dict(m.split("=", 1) for m in a.map))
    if a.stacks:
        stacks(samples, names, namer, a.top)
        return
    per_tid = collections.Counter(t for t, _ in samples)
    print("%d samples" % len(samples))
    for tid, n in per_tid.most_common(8):
        libs, own, total = (collections.Counter() for _ in range(3))
        for t, stack in samples:
            if t != tid:
                continue
            lib, fn = namer.name(stack[0])
            libs[lib] += 1
            own[fn] += 1
            for f in {namer.name(pc)[1] for pc in stack}:
                total[f] += 1
        print("\nthread %d (%s): %d samples, %.0f %% of all" %
              (tid, names.get(tid, "?"), n, 100.0 * n / len(samples)))
        print("  libraries: " + ", ".join("%s %.0f %%" % (k, 100.0 * v / n)
                                          for k, v in libs.most_common(6)))
        print("  self:")
        for k, v in own.most_common(a.top):
            print("    %5.1f %%  %s" % (100.0 * v / n, k))
        print("  total:")
        for k, v in total.most_common(a.top):
            print("    %5.1f %%  %s" % (100.0 * v / n, k))


if __name__ == "__main__":
    main()

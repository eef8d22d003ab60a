#!/usr/bin/env python3
"""Reads bench/cuptitrace.c's timeline and says, for each stretch of
steady work (kernels less than --gap-ms apart, at least --min-frames
frames), what a frame costs the GPU and each host thread:

- frames: launches of the stretch's last kernel; µs a frame;
- GPU busy (kernels' union) and idle µs a frame, the idle gap before each
  kernel (what the GPU waited for) and each kernel's own time;
- launch-to-start latency: from the return of the call that launched a
  kernel (cudaGraphLaunch, cudaLaunchKernel) to its start on the GPU.
  Small (a few µs) means the GPU's queue was empty and it waited on the
  host; large means the host ran ahead and the GPU sets the pace;
- each host thread's CUDA calls a frame: count and µs, and its total.

  python3 bench/cuptitrace.py cuptitrace.txt [--gap-ms 2] [--min-frames 2000]
"""
import argparse
import bisect
import collections
import re
import statistics


def short(name):
    """The kernel's own name out of an Itanium-mangled one."""
    if not name.startswith("_Z"):
        return name
    s, parts = name[2:], []
    if s.startswith("N"):
        s = s[1:]
    while True:
        m = re.match(r"(\d+)", s)
        if not m:
            break
        n = int(m.group(1))
        s = s[len(m.group(1)):]
        parts.append(s[:n])
        s = s[n:]
        if not s or s[0] in "EI":
            break
    return "::".join(parts) if parts else name


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--gap-ms", type=float, default=2.0)
    ap.add_argument("--min-frames", type=int, default=2000)
    args = ap.parse_args()

    kernels, calls = [], []
    for line in open(args.trace, errors="replace"):
        f = line.split(" ", 5)
        if len(f) < 6:
            continue
        rec = (int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5].strip())
        (kernels if f[0] == "K" else calls).append(rec)
    kernels.sort()
    calls.sort()
    by_corr = {c[3]: c for c in calls}
    call_starts = [c[0] for c in calls]
    gap = args.gap_ms * 1e6

    segs, cur = [], []
    for k in kernels:
        if cur and k[0] - cur[-1][1] > gap:
            segs.append(cur)
            cur = []
        cur.append(k)
    if cur:
        segs.append(cur)

    for seg in segs:
        last = short(seg[-1][4])
        frames = sum(1 for k in seg if short(k[4]) == last)
        if frames < args.min_frames:
            continue
        t0, t1 = seg[0][0], seg[-1][1]
        span = (t1 - t0) / 1e3
        busy, idle_before = 0.0, collections.defaultdict(float)
        own = collections.defaultdict(list)
        lat = collections.defaultdict(list)
        via = collections.Counter()
        end = t0
        for k in seg:
            name = short(k[4])
            if k[0] > end:
                idle_before[name] += (k[0] - end) / 1e3
            busy += max(0, k[1] - max(k[0], end)) / 1e3
            end = max(end, k[1])
            own[name].append((k[1] - k[0]) / 1e3)
            c = by_corr.get(k[3])
            if c:
                lat[name].append((k[0] - c[1]) / 1e3)
                via[(name, c[4])] += 1
        print(f"== stretch: {frames} frames (of {last}), {span / frames:.2f} "
              f"µs a frame; GPU busy {busy / frames:.2f}, idle "
              f"{(span - busy) / frames:.2f} µs a frame")
        print("   kernel: launches a frame, own µs (median), idle µs before "
              "it a frame, launch-to-start µs (p10 / median / p90), via")
        for name in own:
            ls = lat[name]
            how = ", ".join(f"{v} {n}" for (kn, v), n in via.items()
                            if kn == name)
            print(f"   {name}: {len(own[name]) / frames:.2f}, "
                  f"{statistics.median(own[name]):.2f}, "
                  f"{idle_before[name] / frames:.2f}, "
                  f"{pct(ls, 10):.1f} / {pct(ls, 50):.1f} / {pct(ls, 90):.1f}"
                  f", {how}")
        i0 = bisect.bisect_left(call_starts, t0)
        i1 = bisect.bisect_right(call_starts, t1)
        per = collections.defaultdict(lambda: collections.defaultdict(list))
        for c in calls[i0:i1]:
            per[c[2]][c[4]].append((c[1] - c[0]) / 1e3)
        print("   host threads' CUDA calls: calls a frame, µs a frame (mean "
              "µs a call)")
        for tid, names in sorted(per.items(),
                                 key=lambda t: -sum(map(sum, t[1].values()))):
            tot = sum(map(sum, names.values())) / frames
            items = sorted(names.items(), key=lambda t: -sum(t[1]))
            desc = "; ".join(f"{n} {len(v) / frames:.2f}, {sum(v) / frames:.2f}"
                             f" ({statistics.mean(v):.2f})"
                             for n, v in items[:8])
            print(f"   thread {tid}: {tot:.2f} µs a frame: {desc}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""scikit-image's 3D skeletonize (method "lee", Lee, Kashyap & Chu 1994) on
the volumes cudaimgproc-bench --only thin3d --dump DIR wrote
(thin3d-{knot,balls}-N.u8, N^3 bytes, x fastest), against cudathin3d
method=lee94 on the same volumes: its skeletons (thin3d-lee94-*-N.u8) must
equal scikit-image's voxel for voxel, and its GPU times
(thin3d-lee94-ms.txt) give the ratio.  Prints a markdown table of
scikit-image's median wall-clock milliseconds (one run where a run takes
over 5 s); with BENCH_JSON set, appends a record a volume to that file.
Usage: bench/thin3d_peers.py DIR"""
import glob
import json
import os
import re
import sys
import time

import numpy as np
import skimage
try:
    from skimage.morphology import skeletonize_3d as lee
except ImportError:             # 0.25 and later: skeletonize (method="lee")
    from skimage.morphology import skeletonize

    def lee(v):
        return skeletonize(v, method="lee")


def timed(v):
    times, out = [], None
    while len(times) < 5:
        t = time.perf_counter()
        out = lee(v)
        times.append((time.perf_counter() - t) * 1000.0)
        if sum(times) > 5000.0:
            break
    return sorted(times)[len(times) // 2], out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    gpu = {}
    try:
        with open(os.path.join(d, "thin3d-lee94-ms.txt")) as f:
            for line in f:
                what, n, ms = line.split()
                gpu[(what, int(n))] = float(ms)
    except OSError:
        pass
    print("<!-- bench:thin3d-peers -->")
    print("scikit-image %s skeletonize (3D, Lee 1994; one CPU thread of %d) "
          "on the benchmark's volumes, against cudathin3d method=lee94 on "
          "the GPU:\n" % (skimage.__version__, os.cpu_count()))
    print("| volume | size | objects | skimage ms | lee94 ms | skimage/lee94 "
          "| skeletons |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    files = glob.glob(os.path.join(d, "thin3d-*-[0-9]*.u8"))
    files = [f for f in files if "lee94" not in os.path.basename(f)]
    key = lambda f: (int(re.search(r"-(\d+)\.u8$", f).group(1)), f)
    for f in sorted(files, key=key):
        what, n = re.search(r"thin3d-(\w+)-(\d+)\.u8$", f).groups()
        n = int(n)
        v = np.fromfile(f, np.uint8).reshape(n, n, n) != 0
        ms, skel = timed(v)
        skel = skel != 0
        ours_path = os.path.join(d, "thin3d-lee94-%s-%d.u8" % (what, n))
        if os.path.exists(ours_path):
            ours = np.fromfile(ours_path, np.uint8).reshape(n, n, n) != 0
            diff = int(np.count_nonzero(ours != skel))
            check = "equal" if diff == 0 else "%d voxels differ" % diff
            bad += diff != 0
        else:
            check = "(no lee94 dump)"
        g = gpu.get((what, n))
        if os.environ.get("BENCH_JSON"):
            with open(os.environ["BENCH_JSON"], "a") as out:
                out.write(json.dumps({"kind": "kernel",
                                      "op": "cudathin3d lee94 " + what,
                                      "w": n, "h": n * n, "who": "skimage",
                                      "us": ms * 1000.0}) + "\n")
        print("| %s | %d^3 | %.2f M | %.0f | %s | %s | %s |" % (
            what, n, v.sum() / 1e6, ms, "%.2f" % g if g else "-",
            "%.0fx" % (ms / g) if g else "-", check), flush=True)
    print("<!-- /bench:thin3d-peers -->")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

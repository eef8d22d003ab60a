#!/usr/bin/env python3
"""OpenCV's cv::kmeans beside cudakmeans on the frames cudaimgproc-bench
--dump DIR wrote: the time of one k-means++ attempt of 10 iterations on the
host's CPU, and the quality check of issue 6: our final inertia (sum of
squared colour distances) within 2% of the best of 10 OpenCV k-means++
attempts at the same k.  Usage: bench/kmeans_peers.py DIR"""
import json
import os
import sys
import time

import cv2
import numpy as np


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    ours = {}
    with open(os.path.join(d, "kmeans-ours.txt")) as f:
        for line in f:
            w, h, k, in10, inconv, its = line.split()
            ours[(int(w), int(h), int(k))] = (float(in10), float(inconv),
                                              int(its))
    print("<!-- bench:kmeans-peers -->")
    print("cudakmeans beside OpenCV %s cv2.kmeans (k-means++, %d CPU "
          "threads), same 1080p photo frame:\n" % (cv2.__version__,
                                                   cv2.getNumThreads()))
    print("| k | OpenCV 1 attempt, 10 it. ms | OpenCV best of 10 inertia | "
          "ours 10 it. inertia | ours converged inertia (iterations) | "
          "ours/OpenCV | within 2% |")
    print("|---|---|---|---|---|---|---|")
    fail = 0
    for (w, h, k), (in10, inconv, its) in sorted(ours.items()):
        img = np.fromfile(os.path.join(d, "kmeans-photo-%dx%d.rgb" % (w, h)),
                          np.uint8).reshape(-1, 3).astype(np.float32)
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
        t = time.perf_counter()
        cv2.kmeans(img, k, None, crit, 1, cv2.KMEANS_PP_CENTERS)
        ms = (time.perf_counter() - t) * 1000.0
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 0.01)
        best, _, _ = cv2.kmeans(img, k, None, crit, 10, cv2.KMEANS_PP_CENTERS)
        best_ours = min(in10, inconv)
        ok = best_ours <= 1.02 * best
        fail += not ok
        print("| %d | %.1f | %.5g | %.5g | %.5g (%d) | %.4f | %s |"
              % (k, ms, best, in10, inconv, its, best_ours / best,
                 "yes" if ok else "NO"))
        if os.environ.get("BENCH_JSON"):
            with open(os.environ["BENCH_JSON"], "a") as out:
                out.write(json.dumps({"kind": "kernel",
                                      "op": "cudakmeans k=%d" % k, "w": w,
                                      "h": h, "who": "OpenCV CPU",
                                      "us": ms * 1000.0}) + "\n")
    print("<!-- /bench:kmeans-peers -->")
    attempts(d)
    return 1 if fail else 0


def attempts(d):
    """cudakmeans attempts=N (30 iterations, epsilon 0 from each start)
    beside cv2.kmeans' best of 10 attempts of the same iterations, on the
    frame the benchmark dumped (issue 26: within 0.5 % with 10 attempts,
    in at most 4x the time of one)."""
    path = os.path.join(d, "kmeans-attempts.txt")
    if not os.path.exists(path):
        return
    rows = [line.split() for line in open(path)]
    if not rows:
        return
    w, h, k = (int(v) for v in rows[0][:3])
    img = np.fromfile(os.path.join(d, "kmeans-photo-%dx%d.rgb" % (w, h)),
                      np.uint8).reshape(-1, 3).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.0)
    cv2.setRNGSeed(0)
    best, _, _ = cv2.kmeans(img, k, None, crit, 10, cv2.KMEANS_PP_CENTERS)
    one_us = float(rows[0][4])
    print("\n<!-- bench:kmeans-attempts-peers -->")
    print("cudakmeans `attempts` beside OpenCV %s cv2.kmeans' best of 10 "
          "k-means++ attempts (30 iterations, epsilon 0 each), %dx%d, "
          "k=%d:\n" % (cv2.__version__, w, h, k))
    print("| attempts | µs | × 1 attempt | inertia | × OpenCV best of 10 |")
    print("|---|---|---|---|---|")
    for _, _, _, n, us, inertia in rows:
        print("| %s | %.1f | %.2f | %.6g | %.4f |"
              % (n, float(us), float(us) / one_us, float(inertia),
                 float(inertia) / best))
    print("<!-- /bench:kmeans-attempts-peers -->")


if __name__ == "__main__":
    sys.exit(main())

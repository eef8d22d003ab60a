#!/usr/bin/env python3
"""OpenCV on the CPU beside cudagray, cudaotsu, cudasobel and cudasmooth,
on the photograph scaled up bilinearly to each size as cudaimgproc-bench
makes its frames: cvtColor(RGBA2GRAY), threshold(OTSU) on its luma, Sobel
3x3 (CV_32F, both derivatives) + magnitude + convertScaleAbs, which is what
cudasobel computes, and GaussianBlur 5x5, blur 7x7 and medianBlur 5 on the
luma (reflect-101; medianBlur replicates), which cudasmooth equals; then
connectedComponentsWithStats on cudablobs' benchmark masks.  Median wall-clock microseconds of 20 runs, all the
host's threads (OpenCV's default) and one.  Prints a markdown table and,
with BENCH_JSON set, appends a record a figure to that file.
Usage: bench/cpu_peers.py PHOTO.rgb W H"""
import json
import os
import sys
import time

import cv2
import numpy as np

SIZES = [(640, 480), (1920, 1080), (3840, 2160), (7680, 4320)]


def timed(fn, n=20):
    fn()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e6)
    return sorted(times)[len(times) // 2]


def sobel(g):
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE)
    return cv2.convertScaleAbs(cv2.magnitude(gx, gy))


def main():
    path, w0, h0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    photo = np.fromfile(path, np.uint8).reshape(h0, w0, 3)
    out = os.environ.get("BENCH_JSON")
    ops = [("cudagray RGBA", "cvtColor RGBA2GRAY",
            lambda rgba, g: cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY)),
           ("cudaotsu photo", "threshold OTSU",
            lambda rgba, g: cv2.threshold(g, 0, 255,
                                          cv2.THRESH_BINARY | cv2.THRESH_OTSU)),
           ("cudasobel 3x3", "Sobel 3x3 + magnitude",
            lambda rgba, g: sobel(g)),
           ("cudasmooth gaussian 5x5", "GaussianBlur 5x5",
            lambda rgba, g: cv2.GaussianBlur(g, (5, 5), 0)),
           ("cudasmooth box 7x7", "blur 7x7",
            lambda rgba, g: cv2.blur(g, (7, 7))),
           ("cudasmooth median 5x5", "medianBlur 5",
            lambda rgba, g: cv2.medianBlur(g, 5))]
    threads = cv2.getNumThreads()
    print("<!-- bench:cpu-peers -->")
    print("OpenCV %s on the GPU host's CPU (median of 20, µs; %d threads, "
          "and 1):\n" % (cv2.__version__, threads))
    print("| size | " + " | ".join("%s µs (%d thr. / 1)" % (o[1], threads)
                                  for o in ops) + " |")
    print("|---|" + "---|" * len(ops))
    for w, h in SIZES:
        rgb = cv2.resize(photo, (w, h), interpolation=cv2.INTER_LINEAR)
        rgba = cv2.cvtColor(rgb, cv2.COLOR_RGB2RGBA)
        g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        row = []
        for op, name, fn in ops:
            cv2.setNumThreads(threads)
            many = timed(lambda: fn(rgba, g))
            cv2.setNumThreads(1)
            one = timed(lambda: fn(rgba, g), 5 if w * h > 1e7 else 20)
            cv2.setNumThreads(threads)
            row.append("%.0f / %.0f" % (many, one))
            if out:
                with open(out, "a") as f:
                    f.write(json.dumps({"kind": "kernel", "op": op, "w": w,
                                        "h": h, "who": "OpenCV CPU",
                                        "us": many}) + "\n")
        print("| %dx%d | %s |" % (w, h, " | ".join(row)))
    print("<!-- /bench:cpu-peers -->")
    blobs(photo, threads, out)


def lcg_noise(w, h, seed=12345, percent=50):
    """cudaimgproc-bench's 50 % noise mask, bit for bit: its LCG (r = r *
    1103515245 + 12345, pixel on where (r >> 16) % 100 < percent), run in
    blocks of 65536 steps with numpy (r[k + j] = A[j] r[k] + C[j])."""
    n, block = w * h, 65536
    mod = 1 << 32
    a_pow = np.empty(block, np.uint64)
    c_sum = np.empty(block, np.uint64)
    a, c = 1, 0
    for j in range(block):          # A[j] = a^(j+1), C[j] as its constant
        a = (a * 1103515245) % mod
        c = (c * 1103515245 + 12345) % mod
        a_pow[j], c_sum[j] = a, c
    out = np.empty(((n + block - 1) // block) * block, np.uint64)
    r = seed
    for k in range(0, len(out), block):
        out[k:k + block] = (a_pow * np.uint64(r) + c_sum) & np.uint64(mod - 1)
        r = int(out[k + block - 1])
    v = ((out[:n] >> np.uint64(16)) % np.uint64(100)) < percent
    return np.where(v, 255, 0).astype(np.uint8).reshape(h, w)


def blobs(photo, threads, out):
    """connectedComponentsWithStats beside cudablobs' kernels, on the masks
    cudaimgproc-bench --only blobs times: the photograph's luma at its Otsu
    threshold, and its 50 % noise."""
    print("\n<!-- bench:blobs-peers -->")
    print("OpenCV %s connectedComponentsWithStats (CV_32S, default "
          "algorithm) on the GPU host's CPU, %d threads (median, µs), on "
          "the masks of `--only blobs`:\n" % (cv2.__version__, threads))
    print("| mask | size | 8-conn µs | components | 4-conn µs | components |")
    print("|---|---|---|---|---|---|")
    cv2.setNumThreads(threads)
    for w, h in SIZES:
        rgb = cv2.resize(photo, (w, h), interpolation=cv2.INTER_LINEAR)
        g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        _, otsu = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        for name, mask in (("photo", otsu), ("noise", lcg_noise(w, h))):
            row = []
            for conn in (8, 4):
                n = cv2.connectedComponentsWithStats(
                    mask, connectivity=conn, ltype=cv2.CV_32S)[0]
                us = timed(lambda: cv2.connectedComponentsWithStats(
                    mask, connectivity=conn, ltype=cv2.CV_32S),
                    5 if w * h > 1e7 else 20)
                row += ["%.0f" % us, "%d" % (n - 1)]
                if out:
                    with open(out, "a") as f:
                        f.write(json.dumps({
                            "kind": "kernel", "w": w, "h": h,
                            "op": "cudablobs %d-conn %s" % (conn, name),
                            "who": "OpenCV CPU", "us": us}) + "\n")
            print("| %s | %dx%d | %s |" % (name, w, h, " | ".join(row)))
    print("<!-- /bench:blobs-peers -->")


if __name__ == "__main__":
    main()

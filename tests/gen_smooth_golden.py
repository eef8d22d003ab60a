#!/usr/bin/env python3
# Writes tests/data/smooth_golden.txt: the FNV-1a hash of OpenCV's output
# (cv2.blur, cv2.GaussianBlur, cv2.medianBlur) on frames drawn exactly as
# ref_smooth_frame() in tests/cpu_ref.c draws them, so test_reference
# checks cudasmooth's CPU reference against OpenCV without OpenCV, and the
# 1/256 Gaussian taps for a sweep of sigmas (from cv2.getGaussianKernel's
# bit-exact values, rounded by error diffusion as GaussianBlur's 8-bit
# path does).  It also prints, on stderr, how many pixels of the
# triangular smooth differ from cv2.sepFilter2D with the same kernel in
# single precision.
# Usage: python3 tests/gen_smooth_golden.py > tests/data/smooth_golden.txt
# (opencv-python-headless from PyPI, or Debian's python3-opencv)
import sys

import cv2
import numpy as np

from golden import fnv1a

BORDERS = {0: cv2.BORDER_REPLICATE, 1: cv2.BORDER_REFLECT_101}
SIZES = [(1, 1), (3, 2), (2, 3), (1, 7), (7, 1), (5, 4), (16, 9), (31, 17),
         (64, 48), (127, 65)]
# method ksize sigma: 0 triangular, 1 box, 2 gaussian, 3 median
CASES = ([(1, k, 0.0) for k in range(3, 16, 2)] +
         [(2, k, s) for k in (3, 5, 7) for s in (0.0, 0.5, 1.1, 2.0, 3.3)] +
         [(3, 3, 0.0), (3, 5, 0.0)])


def frame(w, h, bpp, kind, seed):
    s = seed & 0xffffffff
    img = np.zeros((h, w, bpp), np.uint8)
    for y in range(h):
        for x in range(w):
            for c in range(bpp):
                s = (s * 1103515245 + 12345) & 0xffffffff
                n = s >> 16
                if kind == 0:
                    v = n & 255
                else:
                    v = (x * 255 // (w - 1 if w > 1 else 1) + y * 3 + c * 40) % 256
                    v += n % 21 - 10
                    if n % 100 < 5:
                        v = 0 if n % 200 < 5 else 255
                    v = min(255, max(0, v))
                img[y, x, c] = v
    return img if bpp > 1 else img[:, :, 0]


def opencv(img, method, k, sigma, border):
    if method == 1:
        return cv2.blur(img, (k, k), borderType=BORDERS[border])
    if method == 2:
        return cv2.GaussianBlur(img, (k, k), sigma, borderType=BORDERS[border])
    if border == 0:     # medianBlur always replicates
        return cv2.medianBlur(img, k)
    # reflect-101 by hand: the frame padded through borderInterpolate
    r = k // 2
    h, w = img.shape[:2]
    yi = [cv2.borderInterpolate(i, h, cv2.BORDER_REFLECT_101)
          for i in range(-r, h + r)]
    xi = [cv2.borderInterpolate(i, w, cv2.BORDER_REFLECT_101)
          for i in range(-r, w + r)]
    return cv2.medianBlur(np.ascontiguousarray(img[yi][:, xi]), k)[r:-r, r:-r]


def taps(k, sigma):
    g = cv2.getGaussianKernel(k, sigma, ktype=cv2.CV_64F).ravel()
    err, t, tot = 0.0, [0] * k, 0
    for i in range(k // 2):
        adj = g[i] * 256.0 + err
        q = float(np.round(adj))        # half to even, as cvRound
        err = adj - q
        t[i] = t[k - 1 - i] = int(q)
        tot += 2 * int(q)
    t[k // 2] = 256 - tot
    return t


def main():
    print(f"# OpenCV {cv2.__version__}: method ksize sigma border w h bpp "
          "kind seed fnv1a(output)")
    seed = 1
    tri_diff = tri_all = 0
    t = np.array([1, 2, 3, 2, 1], np.float32) / 9
    for (w, h) in SIZES:
        for bpp in (1, 3, 4):
            for kind in (0, 1):
                seed += 1
                img = frame(w, h, bpp, kind, seed)
                for b in (0, 1):
                    tri = cv2.sepFilter2D(img, -1, t, t, borderType=BORDERS[b])
                    # the triangular smooth exactly, for the count below
                    s = np.zeros(img.shape, np.int64)
                    yi = lambda j: [cv2.borderInterpolate(i + j, h, BORDERS[b]) for i in range(h)]
                    xi = lambda j: [cv2.borderInterpolate(i + j, w, BORDERS[b]) for i in range(w)]
                    for dy in range(-2, 3):
                        for dx in range(-2, 3):
                            s += ((3 - abs(dy)) * (3 - abs(dx)) *
                                  img[yi(dy)][:, xi(dx)].astype(np.int64))
                    exact = (s + 40) // 81
                    tri_diff += int((exact != tri).sum())
                    tri_all += exact.size
                    for (m, k, sg) in CASES:
                        out = opencv(img, m, k, sg, b)
                        print(f"{m} {k} {sg} {b} {w} {h} {bpp} {kind} {seed} "
                              f"{fnv1a(out):08x}")
    for k in (3, 5, 7):
        for i in range(0, 400):
            sg = round(0.05 + i * 0.0371, 4)
            print(f"taps {k} {sg} " + " ".join(map(str, taps(k, sg))))
    print(f"triangular: {tri_diff} of {tri_all} values differ from "
          f"cv2.sepFilter2D (float32 taps)", file=sys.stderr)


if __name__ == "__main__":
    main()

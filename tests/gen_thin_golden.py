#!/usr/bin/env python3
# Writes tests/data/thin_golden.txt: the FNV-1a hash of
# cv::ximgproc::thinning's output (Zhang-Suen and Guo-Hall) on frames drawn
# exactly as ref_thin_frame() in tests/cpu_ref.c draws them, so
# test_reference checks the CPU reference against OpenCV without OpenCV.
# Lines starting "edge" are frames whose foreground touches the outermost
# rows and columns, which OpenCV never removes: cudathin border=opencv.
# Needs OpenCV's contrib modules (Debian: python3-opencv, or PyPI's
# opencv-contrib-python-headless; 4.6 and 5.0 give the same hashes).
# Usage: /usr/bin/python3 tests/gen_thin_golden.py > tests/data/thin_golden.txt
import sys

import cv2
import numpy as np

from golden import fnv1a


class Rand:
    def __init__(self, seed):
        self.s = seed & 0xffffffff

    def __call__(self):
        self.s = (self.s * 1103515245 + 12345) & 0xffffffff
        return self.s >> 16


NOISE_DENSITY = [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95]


def rings(w, h):
    yy, xx = np.mgrid[0:h, 0:w]
    return np.minimum(np.minimum(xx, yy), np.minimum(w - 1 - xx, h - 1 - yy))


def frame(w, h, kind, seed, margin):
    r = Rand(seed)
    img = np.zeros((h, w), np.uint8)
    if 20 <= kind <= 30:
        p = NOISE_DENSITY[kind - 20]
        v = np.array([255 if r() % 100 < p else 0 for _ in range(w * h)],
                     np.uint8)
        img = v.reshape(h, w)
    elif kind in (4, 5):
        ring = rings(w, h)
        img[ring % 2 == 0] = 255
        if kind == 4:
            for i in range(1, min(w, h), 2):
                if i + 1 < h and ring[i + 1, i] == i:
                    img[i + 1, i] = 255
                if i + 2 < h and ring[i + 2, i - 1] == i - 1:
                    img[i + 2, i - 1] = 0
    elif kind == 6:
        img[:, :] = 255
    elif kind == 7:
        yy, xx = np.mgrid[0:h, 0:w]
        img[(xx + yy) % 2 == 0] = 255
    elif kind == 8:
        for y in range(h):
            for x in range(w):
                if x == 0 or y == 0 or x == w - 1 or y == h - 1 or \
                        r() % 100 < 30:
                    img[y, x] = 255
    elif kind in (1, 3):
        p = 55 if kind == 1 else 20
        v = np.array([255 if r() % 100 < p else 0 for _ in range(w * h)],
                     np.uint8)
        img = v.reshape(h, w)
    elif kind == 0:
        yy, xx = np.mgrid[0:h, 0:w]
        for _ in range(3 + r() % 6):
            cx = r() % w
            cy = r() % h
            lim = min(w, h) // 3
            rad = 1 + r() % (lim if lim > 2 else 2)
            img[(xx - cx) ** 2 + (yy - cy) ** 2 <= rad * rad] = 255
    else:
        n = 2 + r() % 5
        for i in range(n):
            x0 = r() % w
            y0 = r() % h
            rw = 1 + r() % w
            rh = 1 + r() % h
            if i & 1:
                rh = 1 + r() % 3
            img[y0:y0 + rh, x0:x0 + rw] = 255
    if margin:
        img[0, :] = 0
        img[-1, :] = 0
        img[:, 0] = 0
        img[:, -1] = 0
    return img


def main():
    print("# kind seed width height method(1 zhang-suen, 2 guo-hall) "
          "fnv1a(OpenCV %s thinning output)" % cv2.__version__)
    sizes = [(3, 3), (5, 4), (17, 9), (33, 31), (64, 48), (97, 65),
             (130, 70)]
    seed = 1
    for kind in (0, 1, 2):
        for (w, h) in sizes:
            for _ in range(2):
                img = frame(w, h, kind, seed, 1)
                for method, t in ((1, cv2.ximgproc.THINNING_ZHANGSUEN),
                                  (2, cv2.ximgproc.THINNING_GUOHALL)):
                    out = cv2.ximgproc.thinning(img, thinningType=t)
                    print(kind, seed, w, h, method,
                          "%08x" % fnv1a(out))
                seed += 1
    # the border rule: no margin, tiny frames (all border) too
    for kind in (0, 1, 2):
        for (w, h) in [(1, 1), (2, 3), (4, 2)] + sizes:
            for _ in range(2):
                img = frame(w, h, kind, seed, 0)
                for method, t in ((1, cv2.ximgproc.THINNING_ZHANGSUEN),
                                  (2, cv2.ximgproc.THINNING_GUOHALL)):
                    out = cv2.ximgproc.thinning(img, thinningType=t)
                    print("edge", kind, seed, w, h, method,
                          "%08x" % fnv1a(out))
                seed += 1


if __name__ == "__main__":
    sys.exit(main())

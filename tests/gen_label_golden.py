#!/usr/bin/env python3
# Writes tests/data/label_golden.txt: cv2.connectedComponentsWithStats
# (default algorithm, CV_32S) of masks drawn exactly as ref_thin_frame()
# in tests/cpu_ref.c draws them (discs, 55 % noise, rectangles; with and
# without a margin; kind 3, 20 % noise, many small components; noise at 5
# to 95 %, spirals, rings, all foreground, checkerboards, foreground on
# every border; 1x1 to 8K), at 8- and 4-connectivity: the number of
# labels and
# FNV-1a hashes of the labels (int32), of the components' stats (left,
# top, width, height, area as int32; label 0, the background, left out)
# and of their centroids (float64), so that test_reference checks
# ref_label () against OpenCV without OpenCV.
# Usage: /usr/bin/python3 tests/gen_label_golden.py > tests/data/label_golden.txt
import sys

import cv2
import numpy as np

from gen_thin_golden import frame
from golden import fnv1a


def main():
    print("# kind seed width height margin connectivity labels "
          "fnv1a(labels) fnv1a(stats) fnv1a(centroids), OpenCV %s"
          % cv2.__version__)
    sizes = [(1, 1), (2, 1), (1, 3), (3, 2), (5, 4), (17, 9), (33, 31),
             (64, 48), (97, 65), (130, 70), (255, 3), (2, 200)]
    seed = 1
    for kind in (0, 1, 2, 3):
        for (w, h) in sizes:
            for margin in (0, 1):
                img = frame(w, h, kind, seed, margin)
                for conn in (8, 4):
                    n, lab, st, cen = cv2.connectedComponentsWithStats(
                        img, connectivity=conn, ltype=cv2.CV_32S)
                    print(kind, seed, w, h, margin, conn, n,
                          "%08x" % fnv1a(lab.astype("<i4")),
                          "%08x" % fnv1a(st[1:].astype("<i4")),
                          "%08x" % fnv1a(cen[1:].astype("<f8")))
                seed += 1
    # noise at densities 5 .. 95 %, and the structured kinds: spiral,
    # rings, all foreground, checkerboard, foreground on every border
    for kind in range(20, 31):
        for (w, h) in [(3, 2), (17, 9), (64, 48), (97, 65), (130, 70),
                       (641, 479)]:
            case(kind, seed, w, h)
            seed += 1
    for kind in (4, 5, 6, 7, 8):
        for (w, h) in sizes:
            case(kind, seed, w, h)
            seed += 1
    # large: 50 % noise at 1080p, spirals, rings and checkerboards to 8K
    for (w, h, kinds) in [(1920, 1080, (25, 4, 5)), (3840, 2160, (4, 5, 7)),
                          (7680, 4320, (5, 6, 7))]:
        for kind in kinds:
            case(kind, seed, w, h)
            seed += 1


def case(kind, seed, w, h):
    img = frame(w, h, kind, seed, 0)
    for conn in (8, 4):
        n, lab, st, cen = cv2.connectedComponentsWithStats(
            img, connectivity=conn, ltype=cv2.CV_32S)
        print(kind, seed, w, h, 0, conn, n,
              "%08x" % fnv1a(lab.astype("<i4")),
              "%08x" % fnv1a(st[1:].astype("<i4")),
              "%08x" % fnv1a(cen[1:].astype("<f8")))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks a preview snapshot against the same frame with nothing painted
(--alpha 0): the same size, and the share of pixels that differ within
[LO, HI] (a demo that painted nothing, or everything, fails).  Needs numpy
and OpenCV (cv2).
Usage: painted.py PAINTED.png PLAIN.png LO HI"""
import sys

import cv2
import numpy as np


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    painted = cv2.imread(sys.argv[1], cv2.IMREAD_UNCHANGED)
    plain = cv2.imread(sys.argv[2], cv2.IMREAD_UNCHANGED)
    lo, hi = float(sys.argv[3]), float(sys.argv[4])
    if painted is None or plain is None:
        sys.exit("painted.py: cannot read both pictures")
    if painted.shape != plain.shape:
        sys.exit(f"painted.py: {painted.shape} against {plain.shape}")
    diff = painted != plain
    share = (diff.any(axis=2) if diff.ndim == 3 else diff).mean()
    h, w = painted.shape[:2]
    print(f"{w}x{h}: {100 * share:.2f} % of pixels painted"
          f" (expected {100 * lo:g}..{100 * hi:g} %)")
    if not lo <= share <= hi:
        sys.exit(1)


if __name__ == "__main__":
    main()

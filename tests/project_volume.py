#!/usr/bin/env python3
"""The picture of a volume and its skeleton for the docs: each stack of PNG
slices seen from above (the maximum over the slices), side by side, scaled
up without smoothing.  Needs numpy and OpenCV (cv2).
Usage: project_volume.py SLICES_DIR SKELETON_DIR OUT.png"""
import glob
import sys

import cv2
import numpy as np


def projection(folder, pattern):
    files = sorted(glob.glob(f"{folder}/{pattern}"))
    if not files:
        sys.exit(f"project_volume.py: no {pattern} in {folder}")
    stack = np.stack([cv2.imread(f, cv2.IMREAD_GRAYSCALE) for f in files])
    return stack.max(axis=0), len(files)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    grey, n_in = projection(sys.argv[1], "slice*.png")
    skel, n_out = projection(sys.argv[2], "skeleton*.png")
    if n_in != n_out or grey.shape != skel.shape:
        sys.exit(f"project_volume.py: {n_in} slices, {n_out} skeleton slices")
    gap = np.full((grey.shape[0], 4), 255, np.uint8)
    both = np.hstack([grey, gap, skel])
    both = cv2.resize(both, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(sys.argv[3], both)
    print(f"wrote {sys.argv[3]}: {n_in} slices seen from above")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Golden hashes for cudathin3d's lee94 method (issue 22): scikit-image's
skeletonize (method="lee": Lee, Kashyap & Chu 1994) on test volumes drawn
exactly as ref_thin3d_volume () in tests/cpu_ref.c draws them.  Made with
scikit-image 0.26 (PyPI); skeletonize_3d of 0.19 (Debian 12) gives the
same.  scikit-image's main branch has since changed the
order of the six directions and the recheck: a release with that will
need new hashes and ref_thin3d_lee () to follow.  One line a volume:

    w h d kind seed objects fnv1a

objects: object voxels left; fnv1a: FNV-1a of the 0/1 skeleton, x fastest
then y then z.  Usage: gen_thin3d_golden.py > tests/data/thin3d_golden.txt
"""
import sys

import numpy as np
import skimage
try:
    from skimage.morphology import skeletonize_3d as lee
except ImportError:             # 0.25 and later: skeletonize (method="lee")
    from skimage.morphology import skeletonize

    def lee(v):
        return skeletonize(v, method="lee")

from golden import fnv1a  # noqa: E402

SIZES = [(1, 1, 1), (2, 3, 2), (3, 2, 5), (5, 4, 3), (8, 8, 8), (13, 11, 7),
         (16, 12, 10), (21, 17, 13), (24, 20, 16), (30, 22, 1), (7, 19, 23)]


class Rand:
    def __init__(self, seed):
        self.s = seed & 0xffffffff

    def __call__(self, n):
        self.s = (self.s * 1664525 + 1013904223) & 0xffffffff
        return (self.s >> 8) % n


def volume(w, h, d, kind, seed):
    v = np.full((d, h, w), 1 if kind == 2 else 0, np.uint8)
    if kind == 2:
        return v
    r = Rand(seed)
    m = min(w, h, d)
    z, y, x = np.mgrid[0:d, 0:h, 0:w]
    for _ in range(3 + r(4)):
        cx, cy, cz = r(w), r(h), r(d)
        rad = 1 + r(m // 3 if m // 3 > 1 else 1)
        v[(x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 <= rad * rad] = 1
    if kind == 1:
        flat = v.reshape(-1)
        for i in range(flat.size):
            if r(100) < 3:
                flat[i] = 1
    return v


def main():
    print(f"# scikit-image {skimage.__version__} Lee 1994 skeleton; "
          "w h d kind seed objects fnv1a")
    for (w, h, d) in SIZES:
        for kind in (0, 1, 2):
            for seed in ((1, 2, 3) if kind < 2 else (0,)):
                v = volume(w, h, d, kind, seed)
                s = (lee(v.astype(bool)) != 0).astype(np.uint8)
                print(w, h, d, kind, seed, int(s.sum()),
                      fnv1a(s))


if __name__ == "__main__":
    sys.exit(main())

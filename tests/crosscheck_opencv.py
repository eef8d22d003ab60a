#!/usr/bin/env python3
"""Cross-check cudaimgproc's gray formula against the OpenCV at hand, over all
2^24 colours, and time OpenCV's cvtColor as a CPU peer.

The checksums are the ones tests/test_reference.c holds (made with OpenCV
4.6); a different OpenCV (the GPU host has 5.x) must give the same ones.
"""
import sys
import time

import numpy as np
import cv2

ALL_COLOURS_SUM = 2139096404
ALL_COLOURS_WSUM = 4593675103442398182


def checksums(gray):
    g = gray.astype(np.uint64).ravel()
    idx = np.arange(g.size, dtype=np.uint64)
    w = (idx * np.uint64(2654435761)) % np.uint64(1 << 32)
    # uint64 arithmetic wraps modulo 2^64, as the C test's does
    return int(g.sum()), int((g * w).sum(dtype=np.uint64))


def main():
    v = np.arange(1 << 24, dtype=np.uint32)
    img = np.stack([(v >> 16) & 255, (v >> 8) & 255, v & 255], -1)
    img = img.astype(np.uint8).reshape(4096, 4096, 3)
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    s, ws = checksums(gray)
    r, g, b = (img[..., i].astype(np.int64) for i in range(3))
    q15 = (r * 9798 + g * 19235 + b * 3735 + 16384) >> 15
    ok = s == ALL_COLOURS_SUM and ws == ALL_COLOURS_WSUM
    print(f"OpenCV {cv2.__version__}: RGB2GRAY over 2^24 colours: "
          f"{'matches' if ok else 'DIFFERS FROM'} cudaimgproc's formula "
          f"({int((q15 != gray).sum())} colours differ from it)")
    print(f"OpenCV CPU threads: {cv2.getNumThreads()}")
    for w, h in ((1920, 1080), (3840, 2160)):
        rgba = np.random.default_rng(1).integers(0, 256, (h, w, 4), np.uint8)
        times = []
        for _ in range(50):
            t = time.perf_counter()
            cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY)
            times.append(time.perf_counter() - t)
        print(f"OpenCV CPU cvtColor RGBA2GRAY {w}x{h}: "
              f"median {np.median(times) * 1e6:.1f} us")
    for w, h in ((1920, 1080), (3840, 2160)):
        gray = np.random.default_rng(2).integers(0, 256, (h, w), np.uint8)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3,
                           borderType=cv2.BORDER_REPLICATE)
            gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3,
                           borderType=cv2.BORDER_REPLICATE)
            cv2.convertScaleAbs(cv2.magnitude(gx, gy))
            times.append(time.perf_counter() - t)
        print(f"OpenCV CPU Sobel 3x3 x, y + magnitude {w}x{h}: "
              f"median {np.median(times) * 1e6:.1f} us")
    return 0 if ok and labels_match() else 1


def labels_match():
    """cudablobs' numbering: this OpenCV's connectedComponentsWithStats on
    the golden frames (tests/gen_label_golden.py) against the file made
    with OpenCV 4.6, and the numbering rule of tests/cpu_ref.h on large
    random masks at every thread count."""
    import contextlib
    import io
    import os
    import gen_label_golden
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        gen_label_golden.main()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data", "label_golden.txt")) as f:
        want = [l for l in f.read().splitlines() if not l.startswith("#")]
    got = [l for l in out.getvalue().splitlines() if not l.startswith("#")]
    same = got == want
    rng = np.random.default_rng(3)
    rule = True
    for threads in (1, 4, 16):
        cv2.setNumThreads(threads)
        for conn in (8, 4):
            m = (rng.random((1081, 1921)) < 0.3).astype(np.uint8)
            n, lab = cv2.connectedComponents(m, connectivity=conn,
                                             ltype=cv2.CV_32S)
            ys, xs = np.nonzero(lab)
            if conn == 8:   # the 2x2-block scan's order
                key = (((ys // 2) * ((m.shape[1] + 1) // 2) + xs // 2) * 4 +
                       (ys % 2) * 2 + xs % 2)
            else:           # raster order
                key = ys * m.shape[1] + xs
            first = np.full(n, np.iinfo(np.int64).max, np.int64)
            np.minimum.at(first, lab[ys, xs], key)
            rule = rule and bool(np.all(np.diff(first[1:]) > 0))
    cv2.setNumThreads(-1)
    print(f"OpenCV {cv2.__version__}: connectedComponentsWithStats "
          f"{'matches' if same else 'DIFFERS FROM'} tests/data/"
          f"label_golden.txt ({len(want)} cases); its numbering "
          f"{'follows' if rule else 'DOES NOT FOLLOW'} ref_label's rule at "
          f"1 to 16 threads")
    return same and rule


if __name__ == "__main__":
    sys.exit(main())

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
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

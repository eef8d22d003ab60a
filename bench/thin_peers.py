#!/usr/bin/env python3
"""CPU peers of cudathin on the frames cudaimgproc-bench --dump DIR wrote
(thin-photo-WxH.gray: the photo's Otsu binarization): scikit-image's thin
(a Guo-Hall-style thinning) and skeletonize, and OpenCV's
cv2.ximgproc.thinning where OpenCV has its contrib modules.  Prints a
markdown table of median wall-clock milliseconds (one run where a run takes
over 5 s).  Usage: bench/thin_peers.py DIR"""
import glob
import json
import os
import re
import sys
import time

import numpy as np


def timed(fn, img):
    times = []
    while len(times) < 5:
        t = time.perf_counter()
        fn(img)
        times.append((time.perf_counter() - t) * 1000.0)
        if sum(times) > 5000.0:
            break
    return sorted(times)[len(times) // 2]


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    peers = []
    try:
        from skimage.morphology import skeletonize, thin
        import skimage
        peers.append(("skimage %s thin" % skimage.__version__,
                      lambda im: thin(im > 0)))
        peers.append(("skimage skeletonize", lambda im: skeletonize(im > 0)))
    except ImportError:
        pass
    try:
        import cv2
        if hasattr(cv2, "ximgproc"):
            peers.append(("OpenCV %s ximgproc Zhang-Suen" % cv2.__version__,
                          lambda im: cv2.ximgproc.thinning(im)))
    except ImportError:
        pass
    print("<!-- bench:thin-peers -->")
    print("cudathin's CPU peers on the same binarized photo frames "
          "(%d CPU threads available; these peers use one):\n"
          % os.cpu_count())
    print("| size | " + " | ".join("%s ms" % p[0] for p in peers) + " |")
    print("|---|" + "---|" * len(peers))
    files = glob.glob(os.path.join(d, "thin-photo-*.gray"))
    key = lambda f: int(re.search(r"(\d+)x(\d+)", f).group(1))
    for f in sorted(files, key=key):
        w, h = map(int, re.search(r"(\d+)x(\d+)", f).groups())
        if w > 3840:
            continue            # minutes per peer
        img = np.fromfile(f, np.uint8).reshape(h, w)
        ms = [timed(fn, img) for _, fn in peers]
        print("| %dx%d | %s |" % (w, h, " | ".join("%.1f" % t for t in ms)))
        if os.environ.get("BENCH_JSON"):
            with open(os.environ["BENCH_JSON"], "a") as out:
                for (name, _), t in zip(peers, ms):
                    out.write(json.dumps({"kind": "kernel",
                                          "op": "cudathin hilditch photo",
                                          "w": w, "h": h, "who": name,
                                          "us": t * 1000.0}) + "\n")
    print("<!-- /bench:thin-peers -->")


if __name__ == "__main__":
    main()

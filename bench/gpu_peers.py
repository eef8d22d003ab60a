#!/usr/bin/env python3
"""The GPU libraries a user would call instead of cudaimgproc, on the GPU
host, beside our kernels' figures from the same run: NVIDIA's CV-CUDA,
cuCIM (scikit-image on the GPU) and CuPy (cupyx.scipy.ndimage), for every
operation they share with us, at 1080p and 4K, on the photograph scaled up
as cudaimgproc-bench scales it.

Timing: CUDA events on one stream around batches of 10 calls, the inputs
rotating over 4 copies (as cudaimgproc-bench rotates them, so that no
frame is served from L2), median of 30 batches, after warm-up.  A peer
whose calls cannot be put on that stream is timed by the host around a
synchronized batch, and marked *.

Outputs: ours equal OpenCV's on the CPU bit for bit (the test suites), so
each peer's output is compared with OpenCV's of the same frame: "equal",
or what differs (the share of pixels, the largest difference, or what the
peer computes instead: float output, another border rule).

A peer (or one of its operations) that is missing or fails is reported as
such in its row, with the error: the table says what was not measured.

Usage: bench/gpu_peers.py PHOTO.rgb W H [--ours bench.json]
  --ours: cudaimgproc-bench's JSON records of the same run, for the ratios
Prints a markdown table between <!-- bench:gpu-peers --> markers and,
with BENCH_JSON set, appends a record a figure to that file."""
import json
import os
import sys
import time

import cv2
import numpy as np

from cpu_peers import lcg_noise
from report import PEER_LABELS

SIZES = [(1920, 1080), (3840, 2160)]
ROTATE, BATCH, REPEATS = 4, 10, 30
SLOW_S, SLOW_REPEATS = 0.005, 5


def opencv_sigma(k):
    """The sigma OpenCV's getGaussianKernel takes for sigma <= 0."""
    return 0.3 * ((k - 1) * 0.5 - 1) + 0.8


class Peers:
    """What this host has, each with its version or why not."""

    def __init__(self):
        self.have, self.why = {}, {}
        for name, mod in (("CuPy", "cupy"), ("cuCIM", "cucim"),
                          ("CV-CUDA", "cvcuda")):
            try:
                m = __import__(mod)
                self.have[name] = getattr(m, "__version__", "?")
            except Exception as e:  # noqa: BLE001 (any import failure)
                self.why[name] = "%s: %s" % (type(e).__name__, e)


def batches(seconds):
    """(batch, repeats) for a call of about @seconds: a slow one (cuCIM's
    thin took 0.4 s at 4K, 300 calls two minutes) is timed SLOW_REPEATS
    times alone."""
    return (1, SLOW_REPEATS) if seconds > SLOW_S else (BATCH, REPEATS)


def timer(cp, stream):
    """fn(k) -> None timed on @stream: median µs a call."""
    def run(fn):
        t = time.perf_counter()
        for k in range(3):
            fn(k)
        stream.synchronize()
        batch, repeats = batches((time.perf_counter() - t) / 3)
        times = []
        for r in range(repeats):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            a.record(stream)
            for j in range(batch):
                fn(j % ROTATE)
            b.record(stream)
            b.synchronize()
            times.append(cp.cuda.get_elapsed_time(a, b) * 1000.0 / batch)
        return sorted(times)[len(times) // 2], ""
    return run


def host_timer(cp):
    """The same for calls on a stream of their own: host clock around a
    synchronized batch (includes their launch cost)."""
    def run(fn):
        t = time.perf_counter()
        for k in range(3):
            fn(k)
        cp.cuda.Device().synchronize()
        batch, repeats = batches((time.perf_counter() - t) / 3)
        times = []
        for r in range(repeats):
            t = time.perf_counter()
            for j in range(batch):
                fn(j % ROTATE)
            cp.cuda.Device().synchronize()
            times.append((time.perf_counter() - t) * 1e6 / batch)
        return sorted(times)[len(times) // 2], "*"
    return run


def compare(got, want):
    """A peer's output against OpenCV's: "equal" or what differs."""
    got = np.asarray(got)
    if got.dtype != want.dtype:
        if np.issubdtype(got.dtype, np.floating):
            return "float output (%s)" % got.dtype
        got = got.astype(want.dtype)
    got = got.reshape(want.shape)
    diff = got.astype(np.int64) - want.astype(np.int64)
    n = np.count_nonzero(diff)
    if not n:
        return "equal"
    return "differs on %.2f %% of pixels, by up to %d" % (
        100.0 * n / diff.size, np.abs(diff).max())


def cases(cp, peers, rgba, gray, mask):
    """(our op, peer, fn(k) -> device output, reference, note) for every
    shared operation (the table names each op as report.PEER_LABELS
    does); a fn of None is a peer that lacks it."""
    out = []
    d_rgb = [cp.asarray(np.ascontiguousarray(rgba[:, :, :3]))
             for _ in range(ROTATE)]
    d_gray = [cp.asarray(gray) for _ in range(ROTATE)]
    d_mask = [cp.asarray(mask) for _ in range(ROTATE)]
    ref_gray = cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY)
    _, ref_otsu = cv2.threshold(gray, 0, 255,
                                cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    ref_hist = np.bincount(gray.ravel(), minlength=256).astype(np.int64)
    # the 50 % noise cudaimgproc-bench labels, the same pixels
    noise = lcg_noise(mask.shape[1], mask.shape[0])
    d_noise = [cp.asarray(noise) for _ in range(ROTATE)]

    def count(m):   # components but the background
        return np.array([cv2.connectedComponents(m, connectivity=4)[0] - 1],
                        np.int64)

    if "CV-CUDA" in peers.have:
        import cvcuda

        def t4(a):          # HxW(xC) CuPy array as an NHWC tensor
            a = a.reshape(1, a.shape[0], a.shape[1], -1)
            return cvcuda.as_tensor(a, "NHWC")

        def back(t):
            return cp.asarray(t.cuda()).reshape(t.shape[1], t.shape[2], -1)

        c_rgb = [t4(a) for a in d_rgb]
        c_gray = [t4(a) for a in d_gray]
        c_mask = [t4(a) for a in d_mask]
        c_noise = [t4(a) for a in d_noise]
        bg = cvcuda.as_tensor(cp.zeros(1, cp.uint8), "N")

        def label(m, most):
            """the count of components but the background (bg_label 0)"""
            return cp.asarray(cvcuda.label(
                m, connectivity=cvcuda.CONNECTIVITY_4_2D,
                assign_labels=cvcuda.LABEL.SEQUENTIAL, count=True,
                stats=True, max_labels=most, bg_label=bg)[1].cuda()
            ).ravel()[:1].astype(cp.int64)
        thresh = cvcuda.as_tensor(cp.zeros(1, cp.float64), "N")
        maxval = cvcuda.as_tensor(cp.full(1, 255.0, cp.float64), "N")
        border = cvcuda.Border.REFLECT101
        out += [
            ("cudagray RGB", "CV-CUDA",
             lambda k: back(cvcuda.cvtcolor(
                 c_rgb[k], cvcuda.ColorConversion.RGB2GRAY))[:, :, 0],
             ref_gray, "from RGB: it converts no RGBA to gray"),
            ("cudaotsu photo", "CV-CUDA",
             lambda k: back(cvcuda.threshold(
                 c_gray[k], thresh, maxval,
                 cvcuda.ThresholdType.BINARY | cvcuda.ThresholdType.OTSU)
             )[:, :, 0], ref_otsu, "allocates its output"),
            ("cudahistogram GRAY8", "CV-CUDA",
             lambda k: cp.asarray(cvcuda.histogram(c_gray[k]).cuda()
                                  ).ravel()[:256].astype(cp.int64),
             ref_hist, "counts alone, no picture"),
            ("cudablobs 4-conn photo", "CV-CUDA",
             lambda k: label(c_mask[k], 10000), count(mask),
             "its numbering is not OpenCV's: the count compared"),
            ("cudablobs 4-conn noise", "CV-CUDA",
             lambda k: label(c_noise[k], noise.size // 2), count(noise),
             "its numbering is not OpenCV's: the count compared"),
        ]
        for k in (3, 5, 7):
            s = opencv_sigma(k)
            out.append((
                "cudasmooth gaussian %dx%d" % (k, k), "CV-CUDA",
                lambda j, k=k, s=s: back(cvcuda.gaussian(
                    c_gray[j], (k, k), (s, s), border))[:, :, 0],
                cv2.GaussianBlur(gray, (k, k), 0,
                                 borderType=cv2.BORDER_REFLECT_101), ""))
        for k in (3, 5, 7, 11, 15):
            out.append((
                "cudasmooth box %dx%d" % (k, k), "CV-CUDA",
                lambda j, k=k: back(cvcuda.averageblur(
                    c_gray[j], (k, k), (-1, -1), border))[:, :, 0],
                cv2.blur(gray, (k, k), borderType=cv2.BORDER_REFLECT_101),
                ""))
        for k in (3, 5):
            out.append((
                "cudasmooth median %dx%d" % (k, k), "CV-CUDA",
                lambda j, k=k: back(cvcuda.median_blur(
                    c_gray[j], (k, k)))[:, :, 0],
                cv2.medianBlur(gray, k), ""))

    if "cuCIM" in peers.have:
        from cucim.skimage import color, filters, morphology
        out += [
            ("cudagray RGBA", "cuCIM",
             lambda k: color.rgb2gray(d_rgb[k]), ref_gray,
             "Rec. 709 weights"),
            ("cudaotsu photo", "cuCIM",
             lambda k: (d_gray[k] > filters.threshold_otsu(d_gray[k])
                        ).astype(cp.uint8) * 255, ref_otsu,
             "threshold_otsu returns to the host"),
            ("cudasobel 3x3", "cuCIM",
             lambda k: filters.sobel(d_gray[k]), None,
             "float, scaled by 1/4 and divided by sqrt 2"),
            ("cudasmooth gaussian 5x5", "cuCIM",
             lambda k: filters.gaussian(d_gray[k], sigma=opencv_sigma(5),
                                        mode="mirror", truncate=2.0 /
                                        opencv_sigma(5)), None,
             "float output"),
            ("cudasmooth median 3x3", "cuCIM",
             lambda k: filters.median(d_gray[k], cp.ones((3, 3), bool),
                                      mode="nearest"),
             cv2.medianBlur(gray, 3), ""),
            ("cudathin hilditch photo", "cuCIM",
             lambda k: morphology.thin(d_mask[k] > 0), None,
             "another thinning (Guo-Hall-like)"),
        ]

    if "CuPy" in peers.have:
        import cupyx.scipy.ndimage as ndi

        def sobel(g):
            f = g.astype(cp.float32)
            return cp.hypot(ndi.sobel(f, 1, mode="nearest"),
                            ndi.sobel(f, 0, mode="nearest"))
        out += [
            ("cudahistogram GRAY8", "CuPy",
             lambda k: cp.bincount(d_gray[k].ravel(), minlength=256),
             ref_hist, "counts alone"),
            ("cudasobel 3x3", "CuPy",
             lambda k: sobel(d_gray[k]), None, "float output"),
            ("cudasmooth gaussian 5x5", "CuPy",
             lambda k: ndi.gaussian_filter(
                 d_gray[k], opencv_sigma(5), mode="mirror",
                 truncate=2.0 / opencv_sigma(5)),
             cv2.GaussianBlur(gray, (5, 5), 0,
                              borderType=cv2.BORDER_REFLECT_101), ""),
            ("cudasmooth box 15x15", "CuPy",
             lambda k: ndi.uniform_filter(d_gray[k], 15, mode="mirror"),
             cv2.blur(gray, (15, 15), borderType=cv2.BORDER_REFLECT_101),
             ""),
            ("cudasmooth median 3x3", "CuPy",
             lambda k: ndi.median_filter(d_gray[k], 3, mode="nearest"),
             cv2.medianBlur(gray, 3), ""),
            ("cudasmooth median 5x5", "CuPy",
             lambda k: ndi.median_filter(d_gray[k], 5, mode="nearest"),
             cv2.medianBlur(gray, 5), ""),
        ]
    return out


def main():
    args = sys.argv[1:]
    ours_path = None
    if "--ours" in args:
        i = args.index("--ours")
        ours_path = args[i + 1]
        del args[i:i + 2]
    path, w0, h0 = args[0], int(args[1]), int(args[2])
    photo = np.fromfile(path, np.uint8).reshape(h0, w0, 3)
    ours = {}
    if ours_path and os.path.exists(ours_path):
        with open(ours_path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("who") == "ours":
                    ours[(r["op"], r["w"], r["h"])] = r["us"]
    peers = Peers()
    out_json = os.environ.get("BENCH_JSON")
    print("<!-- bench:gpu-peers -->")
    print("GPU peers on the photograph (CUDA events, batches of %d, median "
          "of %d; a call over %g ms: %d alone; * = host clock around "
          "synchronized batches): %s.  "
          "Not here: %s.  cuML's KMeans: its wheel does not travel to the "
          "GPU host (not measured).\n" % (
              BATCH, REPEATS, SLOW_S * 1000, SLOW_REPEATS,
              ", ".join("%s %s" % kv for kv in sorted(peers.have.items()))
              or "none",
              "; ".join("%s (%s)" % kv for kv in sorted(peers.why.items()))
              or "none"))
    results = []
    if "CuPy" not in peers.have:
        print(compact(results))
        print("<!-- /bench:gpu-peers -->")
        return
    import cupy as cp
    stream = cp.cuda.Stream(non_blocking=True)
    run_stream, run_host = timer(cp, stream), host_timer(cp)
    cv_stream = None
    if "CV-CUDA" in peers.have:
        try:
            import cvcuda
            cv_stream = cvcuda.as_stream(stream.ptr)
        except Exception:   # noqa: BLE001: timed by the host instead
            cv_stream = None
    for w, h in SIZES:
        rgb = cv2.resize(photo, (w, h), interpolation=cv2.INTER_LINEAR)
        rgba = cv2.cvtColor(rgb, cv2.COLOR_RGB2RGBA)
        gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        _, mask = cv2.threshold(gray, 0, 255,
                                cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        with stream:
            rows = cases(cp, peers, rgba, gray, mask)
        for op, peer, fn, ref, note in rows:
            label = PEER_LABELS[op]
            us, mark, verdict = None, "", note
            try:
                if peer == "CV-CUDA" and cv_stream is not None:
                    with stream, cv_stream:
                        us, mark = run_stream(fn)
                        got = fn(0)
                elif peer == "CV-CUDA":
                    us, mark = run_host(fn)
                    got = fn(0)
                else:
                    with stream:
                        us, mark = run_stream(fn)
                        got = fn(0)
                stream.synchronize()
                if ref is not None:
                    v = compare(cp.asnumpy(got), ref)
                    verdict = v + ("; " + note if note else "")
            except Exception as e:  # noqa: BLE001: say what failed
                verdict = "failed: %s: %s" % (type(e).__name__,
                                              str(e).splitlines()[0][:120]
                                              if str(e) else "")
            o = ours.get((op, w, h))
            results.append((label, "%dx%d" % (w, h), peer,
                            "%.1f%s" % (us, mark) if us is not None
                            else "-", "%.1f" % o if o else "-", verdict))
            # each row as it comes, for a run cut short
            print("| %s |" % " | ".join(results[-1]), file=sys.stderr)
            if out_json and us is not None:
                with open(out_json, "a") as f:
                    f.write(json.dumps({"kind": "kernel", "op": op, "w": w,
                                        "h": h, "who": peer, "us": us})
                            + "\n")
    print(compact(results))
    print("<!-- /bench:gpu-peers -->")


def compact(results):
    """The table: a row an operation, our time and each peer's at each size
    (µs, and the peer's over ours), and what each peer's output is against
    ours.  @results: (operation, size, peer, peer µs, ours µs, verdict),
    strings as the rows print them."""
    ops, sizes, peer_names = [], [], []
    cell, ours, said = {}, {}, {}
    for label, size, peer, us, o, verdict in results:
        for seq, v in ((ops, label), (sizes, size), (peer_names, peer)):
            if v not in seq:
                seq.append(v)
        cell[(label, size, peer)] = (us, o)
        if o != "-":
            ours[(label, size)] = o
        said.setdefault((label, peer), verdict)
    out = ["| operation | ours µs (%s) | %s | output against ours "
           "(= OpenCV's) |" % (", ".join(sizes), " | ".join(
               "%s µs (× ours)" % p for p in peer_names)),
           "|%s" % ("---|" * (3 + len(peer_names)))]
    for label in ops:
        row = [label, " / ".join(ours.get((label, sz), "-") for sz in sizes)]
        for p in peer_names:
            got = [cell.get((label, sz, p)) for sz in sizes]
            if not any(got):
                row.append("")
                continue
            times = " / ".join(g[0] if g else "-" for g in got)
            ratios = " / ".join(
                "%.1f" % (float(g[0].rstrip("*")) / float(g[1]))
                if g and g[0] != "-" and g[1] != "-" else "-" for g in got)
            row.append("%s (%s)" % (times, ratios))
        row.append("; ".join("%s: %s" % (p, said[(label, p)])
                             for p in peer_names if (label, p) in said))
        out.append("| %s |" % " | ".join(row))
    return "\n".join(out)


def from_long(path):
    """A table as an earlier version printed it (a row a peer and size)
    made into compact()'s: python3 bench/gpu_peers.py --from LONG.md"""
    results = []
    with open(path) as f:
        for line in f:
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if len(c) == 7 and "x" in c[1] and c[1][0].isdigit():
                results.append((c[0], c[1], c[2], c[3], c[4], c[6]))
    return compact(results)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--from"]:
        print(from_long(sys.argv[2]))
    else:
        main()

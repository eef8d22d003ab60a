#!/usr/bin/env python3
"""Writes the benchmark's results into docs/performance.md and draws the
plot.  The benchmark programs and peer scripts print markdown blocks
between <!-- bench:NAME --> and <!-- /bench:NAME --> and append one JSON
record a figure to a file; this replaces each such block of the document
with the new one (prose outside the blocks is kept), adds the header (date,
device, command) and the table of targets, and draws time per frame
against frame size for us and the peers (PNG, with OpenCV: the GPU host
has it, not matplotlib).

Usage: bench/report.py --log LOG... --json FILE --doc docs/performance.md
           --plot docs/img/performance.png --command "..."
"""
import argparse
import datetime
import json
import math
import re
import sys

BLOCK = re.compile(r"<!-- bench:([\w-]+) -->\n(.*?)<!-- /bench:\1 -->\n?",
                   re.S)

HD_4K = [(1920, 1080), (3840, 2160)]
BLOB_MASKS = ["cudablobs %d-conn %s" % (c, m) for m in ("photo", "noise")
              for c in (8, 4)]

# (what, op or pipeline, size, kind, test, limit).  A list of ops or of
# sizes makes one row of them all: the worst, and where it is.  Op None
# with a "ratio-peer:" kind: every op the peers have a record for.
TARGETS = [
    ("cudagray RGBA at 4K, × its floor", "cudagray RGBA", (3840, 2160),
     "ratio-floor", "<=", 1.5),
    ("cudasobel 3×3 at 4K, × its floor", "cudasobel 3x3", (3840, 2160),
     "ratio-floor", "<=", 1.5),
    ("cudasobel 3×3 at 4K, × a copy of the frame", "cudasobel 3x3",
     (3840, 2160), "ratio-copy", "<=", 1.5),
    ("cudasobel 3×3 at 4K, NPP's time / ours", "cudasobel 3x3", (3840, 2160),
     "ratio-npp", ">=", 3.0),
    ("cudaotsu at 4K (photo), µs", "cudaotsu photo", (3840, 2160), "us",
     "<", 15.0),
    ("cudaotsu at 4K (photo), × its read-once floor", "cudaotsu photo",
     (3840, 2160), "ratio-floor", "<", 2.0),
    ("cudaotsu at 4K (photo), × its read-twice floor", "cudaotsu photo",
     (3840, 2160), "ratio-floor2", "<", 2.0),
    ("cudathin, 1080p photograph, µs", "cudathin hilditch photo",
     (1920, 1080), "us", "<", 1000.0),
    ("cudakmeans k=8, 10 iterations, 1080p, µs", "cudakmeans k=8",
     (1920, 1080), "us", "<", 500.0),
    ("cudakmeans k=8, 10 iterations cold, 1080p, µs (issue 23)",
     "cudakmeans k=8", (1920, 1080), "us", "<=", 150.0),
    ("cudakmeans k=8, 10 iterations cold, 4K, µs (issue 23)",
     "cudakmeans k=8", (3840, 2160), "us", "<=", 450.0),
    # an iteration: one attempt of 30 iterations less the cold frame's 10
    ("cudakmeans k=8, an iteration at 1080p, µs (issue 23)",
     "cudakmeans k=8", (1920, 1080), "kmeans-iteration", "<=", 10.0),
    ("`cudagray ! cudaotsu ! cudasobel` 4K, GPU frames, fps",
     "cudagray ! cudaotsu ! cudasobel", (3840, 2160), "fps", ">", 2000.0),
    # issue 23: a chain on GPU frames, time a frame over the sum of its
    # kernels' GPU time in the same run's kernel tables
    ("`cudagray ! cudaotsu ! cudasobel` 1080p, GPU frames, × its kernels "
     "(issue 23)", "cudagray ! cudaotsu ! cudasobel", (1920, 1080),
     "ratio-kernels", "<=", 1.5),
    ("`cudagray ! cudaotsu ! cudasobel` 4K, GPU frames, × its kernels "
     "(issue 23)", "cudagray ! cudaotsu ! cudasobel", (3840, 2160),
     "ratio-kernels", "<=", 1.5),
    ("`cudagray ! cudaotsu ! cudathin` 1080p photo, GPU frames, fps",
     "cudagray ! cudaotsu ! cudathin", (1920, 1080), "fps", ">", 1000.0),
    # system memory in and out, as applications write it (appsink)
    ("`cudagray ! cudaotsu ! cudablobs` 1080p, system memory, × without "
     "cudablobs (issue 62)", "cudagray ! cudaotsu ! cudablobs", (1920, 1080),
     "ratio-without-last", ">=", 0.9),
    ("`cudagray` 1080p, system memory → appsink, fps", "cudagray",
     (1920, 1080), "fps-app", ">=", 3000.0),
    ("`cudagray ! cudaotsu ! cudathin` 1080p, system memory → appsink, fps",
     "cudagray ! cudaotsu ! cudathin", (1920, 1080), "fps-app", ">=", 1800.0),
    ("`cudagray ! cudaotsu ! cudasobel` 4K, system memory → appsink, fps",
     "cudagray ! cudaotsu ! cudasobel", (3840, 2160), "fps-app", ">=", 700.0),
    ("cudasmooth Gaussian 5×5, triangular, box 3×3 to 15×15 at 4K, × a copy "
     "of the frame", ["cudasmooth gaussian 5x5", "cudasmooth triangular 5x5"]
     + ["cudasmooth box %dx%d" % (k, k) for k in (3, 5, 7, 11, 15)],
     (3840, 2160), "ratio-copy", "<=", 1.5),
    ("cudasmooth median 3×3 at 4K, × a copy", "cudasmooth median 3x3",
     (3840, 2160), "ratio-copy", "<=", 2.0),
    ("cudasmooth median 5×5 at 4K, × a copy", "cudasmooth median 5x5",
     (3840, 2160), "ratio-copy", "<=", 4.0),
    ("cudasmooth median 5×5 at 1080p, NPP's time / ours",
     "cudasmooth median 5x5", (1920, 1080), "ratio-npp", ">=", 3.0),
    ("cudasmooth Gaussian 5×5 and 7×7 at 1080p and 4K, NPP's time / ours",
     ["cudasmooth gaussian 5x5", "cudasmooth gaussian 7x7"], HD_4K,
     "ratio-npp", ">=", 3.0),
    # 3x NPP's 15.2 us at 4K is 5.1 us, below the frame's memory floor;
    # NPP's 5x5 box at 4K is 24.0 us: a third is 1.16x a frame copy
    ("cudasmooth box 3×3 and 5×5 at 1080p and 4K, NPP's time / ours",
     ["cudasmooth box 3x3", "cudasmooth box 5x5"], HD_4K, "ratio-npp", ">=",
     3.0),
    # issue 62 (the "photo" masks are the photograph's when the bench
    # has --photo, as gpu-suite.sh runs it)
    ("cudablobs 8-conn, 1080p photo mask, µs (issue 62)",
     "cudablobs 8-conn photo", (1920, 1080), "us", "<=", 60.0),
    ("cudablobs 8-conn, 4K photo mask, µs (issue 62)",
     "cudablobs 8-conn photo", (3840, 2160), "us", "<=", 150.0),
    ("cudablobs 8- and 4-conn, 4K 50 % noise, µs (issue 62)",
     ["cudablobs 8-conn noise", "cudablobs 4-conn noise"], (3840, 2160), "us",
     "<=", 250.0),
    ("cudablobs, every mask at 4K, OpenCV's time / ours (issue 62)",
     BLOB_MASKS, (3840, 2160), "ratio-opencv", ">=", 20.0),
    # NPP's labelling plus compression, labels only (bench.c's NPP column)
    ("cudablobs, every mask at 1080p and 4K, NPP's time / ours (issue 62)",
     BLOB_MASKS, HD_4K, "ratio-npp", ">=", 2.0),
    # issue 66
    # the issue's own benchmark: 4K RGBA in, the luma made on the way
    ("cudahistogram, 4K RGBA to picture, × its frame-read floor (issue 66)",
     "cudahistogram RGBA", (3840, 2160), "ratio-floor", "<=", 1.3),
    ("cudahistogram, 4K GRAY8 to picture, NPP's histogram time / ours "
     "(issue 66)", "cudahistogram GRAY8", (3840, 2160), "ratio-npp", ">=",
     2.0),
    ("cudathin3d pk12, 512³ balls (10 M voxels), µs", "cudathin3d pk12 balls",
     (512, 512 * 512), "us", "<=", 300000.0),
    ("cudathin3d lee94, 512³ balls, µs", "cudathin3d lee94 balls",
     (512, 512 * 512), "us", "<=", 300000.0),
    ("cudathin3d lee94 at 128³, scikit-image's time / ours",
     "cudathin3d lee94 balls", (128, 128 * 128), "ratio-skimage", ">=",
     100.0),
    ("cudathin3d lee94 at 512³, scikit-image's time / ours",
     "cudathin3d lee94 balls", (512, 512 * 512), "ratio-skimage", ">=",
     100.0),
    # issue 63: the GPU libraries a user would pick instead, from
    # bench/gpu_peers.py's records of the same run
    ("cudagray RGB at 1080p and 4K, × its floor (CV-CUDA's: 1.7; issue 63)",
     "cudagray RGB", HD_4K, "ratio-floor", "<=", 1.2),
    ("cudaotsu, 1080p and 4K, CV-CUDA's time / ours (issue 63)",
     "cudaotsu photo", HD_4K, "ratio-peer:CV-CUDA", ">=", 2.0),
    ("cudahistogram counts, 1080p and 4K, CV-CUDA's time / ours (issue 63)",
     "cudahistogram GRAY8", HD_4K, "ratio-peer:CV-CUDA", ">=", 2.0),
    ("cudasmooth Gaussian 3×3 to 7×7, 1080p and 4K, CV-CUDA's time / ours "
     "(issue 63)", ["cudasmooth gaussian %dx%d" % (k, k) for k in (3, 5, 7)],
     HD_4K, "ratio-peer:CV-CUDA", ">=", 2.0),
    ("cudasmooth box 3×3 to 15×15, 1080p and 4K, CV-CUDA's time / ours "
     "(issue 63)",
     ["cudasmooth box %dx%d" % (k, k) for k in (3, 5, 7, 11, 15)], HD_4K,
     "ratio-peer:CV-CUDA", ">=", 2.0),
    ("cudasmooth median 3×3 and 5×5, 1080p and 4K, CV-CUDA's time / ours "
     "(issue 63)", ["cudasmooth median 3x3", "cudasmooth median 5x5"], HD_4K,
     "ratio-peer:CV-CUDA", ">=", 2.0),
    ("cudablobs 4-conn, photo and noise, 1080p and 4K, CV-CUDA's Label / ours "
     "(issues 62, 63)", ["cudablobs 4-conn photo", "cudablobs 4-conn noise"],
     HD_4K, "ratio-peer:CV-CUDA", ">=", 2.0),
    ("every operation cuCIM or CuPy shares with us, 1080p and 4K, their time "
     "/ ours (issue 63)", None, HD_4K, "ratio-peer:cuCIM,CuPy", ">=", 10.0),
    ("the preview `tee ! cudaoverlay, tee ! cudagray ! cudaotsu ! mask` 4K, "
     "GPU frames, fps", "tee ! cudaoverlay, tee ! cudagray ! cudaotsu ! mask",
     (3840, 2160), "fps", ">=", 2000.0),
    ("worst system-memory row, × max (PCIe floor, GPU-frame time)", None,
     (0, 0), "worst-bound", "<=", 1.5),
    ("the same, new system memory each frame (application arrays)", None,
     (0, 0), "worst-bound-new", "<=", 1.5),
    # issue 61: many pipelines in one process (cudaimgproc-streams-bench),
    # no application context; op: (chain, memory, streams)
    ("many streams: `cudagray ! cudaotsu ! cudasobel` 1080p, system memory, "
     "64 streams, aggregate × the PCIe floor (issue 61)",
     ("cudagray ! cudaotsu ! cudasobel", "system", 64), (1920, 1080),
     "streams-floor", ">=", 0.9),
    ("many streams: `cudagray ! cudaotsu ! cudathin` 1080p, system memory, "
     "64 streams, aggregate × one stream's (issue 61)",
     ("cudagray ! cudaotsu ! cudathin", "system", 64), (1920, 1080),
     "streams-vs-one", ">=", 0.95),
    ("many streams: `cudagray ! cudaotsu ! cudasobel` 640x480, system memory, "
     "256 streams, aggregate fps (issue 61)",
     ("cudagray ! cudaotsu ! cudasobel", "system", 256), (640, 480),
     "streams-fps", ">=", 30000.0),
    ("many streams: `cudagray ! cudaotsu ! cudasobel` 1080p, GPU frames, "
     "64 streams, aggregate fps (issue 61)",
     ("cudagray ! cudaotsu ! cudasobel", "gpu", 64), (1920, 1080),
     "streams-fps", ">=", 55000.0),
    ("many streams: CPU µs a frame, 1080p, any N, either chain (issue 61)",
     None, (1920, 1080), "streams-cpu", "<=", 60.0),
    ("many streams: CPU µs a frame, 640x480, any N (issue 61)", None,
     (640, 480), "streams-cpu", "<=", 30.0),
    ("many streams: GPU MiB, 100 pipelines of 640x480 (issue 61)",
     ("cudagray ! cudaotsu ! cudasobel", "system", 100), (640, 480),
     "streams-gpu-mib", "<=", 2048.0),
]


# The kernels of a pipeline row (RGBA in), as the kernel tables name them.
CHAIN_KERNELS = {
    "cudagray ! cudaotsu ! cudasobel": ("cudagray RGBA", "cudaotsu photo",
                                        "cudasobel 3x3"),
}


# many-streams records: (chain, w, h, memory, streams) -> record, the
# plugin's own runs only (one GPU, no application context, kernels run)
streams = {}


def load(path):
    kern, pipe = {}, {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["kind"] == "kernel":
                kern[(r["op"], r["w"], r["h"], r["who"])] = r["us"]
            elif r["kind"] == "pipeline":
                pipe[(r["name"], r["w"], r["h"], r["memory"])] = r
            elif (r["kind"] == "streams" and r["devices"] == 1 and
                  not r["app_context"] and not r["no_kernels"]):
                streams[(r["name"], r["w"], r["h"], r["memory"],
                         r["streams"])] = r
    return kern, pipe


def measured_streams(op, w, h, kind):
    if kind == "streams-cpu":
        v = [r["cpu_us"] for (_, rw, rh, _, _), r in streams.items()
             if (rw, rh) == (w, h)]
        return max(v) if v else None
    chain, mem, n = op
    r = streams.get((chain, w, h, mem, n))
    if not r:
        return None
    if kind == "streams-floor":
        return r["fps"] / r["pcie_floor_fps"] if r["pcie_floor_fps"] else None
    if kind == "streams-vs-one":
        one = streams.get((chain, w, h, mem, 1))
        return one and r["fps"] / one["fps"]
    if kind == "streams-gpu-mib":
        return r["gpu_mib"]
    return r["fps"]


def measured(t, kern, pipe):
    _, op, (w, h), kind, _, _ = t
    if kind.startswith("streams"):
        return measured_streams(op, w, h, kind)
    if kind == "ratio-without-last":
        # the chain's fps over that of the chain without its last element
        r = pipe.get((op, w, h, "system"))
        base = pipe.get((op.rsplit(" ! ", 1)[0], w, h, "system"))
        return r and base and r["fps"] / base["fps"]
    if kind in ("fps", "fps-app"):
        r = pipe.get((op, w, h, "gpu" if kind == "fps" else "app"))
        return r and r["fps"]
    if kind == "ratio-kernels":
        # only with the kernels timed in the same run
        r = pipe.get((op, w, h, "gpu"))
        ks = [kern.get((k, w, h, "ours")) for k in CHAIN_KERNELS[op]]
        return r["us"] / sum(ks) if r and None not in ks else None
    if kind.startswith("worst-bound"):
        # the pooled memory sources give, or new memory each frame
        new = kind.endswith("-new")
        ratios = [r["us"] / max(r["pcie_floor_us"], r.get("gpu_frames_us", 0))
                  for r in pipe.values() if r.get("pcie_floor_us", 0) > 0 and
                  (r["memory"] == "app-new") == new]
        return max(ratios) if ratios else None
    ours = kern.get((op, w, h, "ours"))
    if peer_of(kind):
        # ours as the peers' run timed it, where that is another run (a
        # run of some kernels alone still has the peers' run's ours)
        ours = kern.get((op, w, h, OURS_PEERS), ours)
        peer = kern.get((op, w, h, peer_of(kind)))
        return peer and ours and peer / ours
    if ours is None:
        return None
    if kind == "kmeans-iteration":
        thirty = kern.get((op + " attempts=1", w, h, "ours"))
        return thirty and (thirty - ours) / 20
    if kind == "us":
        return ours
    if kind in ("ratio-floor", "ratio-floor2", "ratio-copy"):
        fl = kern.get((op, w, h, {"ratio-floor": "floor",
                                  "ratio-floor2": "floor 2R1W",
                                  "ratio-copy": "copy"}[kind]))
        return fl and ours / fl
    if kind == "ratio-opencv":
        peer = kern.get((op, w, h, "OpenCV CPU"))
        return peer and peer / ours
    if kind == "ratio-skimage":
        peer = kern.get((op, w, h, "skimage"))
        return peer and peer / ours
    npp = kern.get((op, w, h, "NPP"))
    return npp and npp / ours


PEER_KIND = "ratio-peer:"


def peer_of(kind):
    """The peer (or peers, "A,B") a "ratio-peer:" kind names, else None."""
    return kind[len(PEER_KIND):] if kind.startswith(PEER_KIND) else None


SIZE_NAMES = {(640, 480): "640x480", (1920, 1080): "1080p",
              (3840, 2160): "4K", (7680, 4320): "8K"}


def cases(t, kern):
    """A target's (op, size, kind) triples: one, or its lists' product; a
    "ratio-peer:A,B" kind, one a peer."""
    _, op, size, kind, _, _ = t
    kinds = [kind]
    if peer_of(kind):
        peers = peer_of(kind).split(",")
        kinds = [PEER_KIND + p for p in peers]
        if op is None:
            op = sorted({o for (o, _, _, who) in kern if who in peers})
    ops = op if isinstance(op, list) else [op]
    sizes = size if isinstance(size, list) else [size]
    return [(o, z, k) for o in ops for z in sizes for k in kinds]


def where(t, o, z, k, unmeasured):
    """Where a group's worst case is: what differs from the target's own
    words (the op past the ops' common words, the size, the peer), and
    how many of its cases were measured where not all were."""
    _, op, size, kind, _, _ = t
    parts = []
    if isinstance(op, list) and len(op) > 1:
        first = op[0].split()
        common = next((i for i in range(len(first)) if any(
            x.split()[:i + 1] != first[:i + 1] for x in op)), len(first))
        parts.append(" ".join(o.split()[common:]) or o)
    elif op is None:
        parts.append(o)
    if isinstance(size, list) and len(size) > 1:
        parts.append(SIZE_NAMES.get(z, "%dx%d" % z))
    if "," in kind:
        parts.append(peer_of(k))
    return " (%s%s)" % (", ".join(parts), unmeasured)


def summary(kern, pipe, before=""):
    """The targets table; a target this run did not measure keeps its row
    from @before (the table as it was), if it had one.  A row of several
    cases gives the worst and where it is."""
    rows = ["| target | measured | met | margin |", "|---|---|---|---|"]
    for t in TARGETS:
        what, _, _, kind, test, limit = t
        got, cs = [], cases(t, kern)
        for o, z, k in cs:
            v = measured((what, o, z, k, test, limit), kern, pipe)
            if v is not None:
                got.append((v, o, z, k))
        if not got:
            head = "| %s %s %g |" % (what, test, limit)
            old = [r for r in before.splitlines() if r.startswith(head)]
            rows.append(old[0] if old else head + " not measured | | |")
            continue
        v, o, z, k = (max if test[0] == "<" else min)(got)
        # op None: every op some peer has, so not every peer has each
        partial = "" if len(got) == len(cs) or t[1] is None else \
            "; %d measured" % len(got)
        at = where(t, o, z, k, partial) if len(cs) > 1 else ""
        ok = {"<": v < limit, "<=": v <= limit, ">": v > limit,
              ">=": v >= limit}[test]
        # how far from the limit, in the direction that matters
        over = (v / limit - 1.0) if test[0] == "<" else (1.0 - v / limit)
        margin = ("%.0f %% inside" % (-over * 100) if ok else
                  "missed by %.0f %%" % (over * 100))
        rows.append("| %s %s %g | %.4g%s | %s | %s |" %
                    (what, test, limit, v, at, "yes" if ok else "**no**",
                     margin))
    return "\n".join(rows) + "\n"


# ---- the GPU peers in the kernel tables -----------------------------------

PEERS = ("CV-CUDA", "cuCIM", "CuPy")
NOT_KERNELS = ("gpu-peers", "summary", "header", "pipelines", "streams",
               "cpu-peers", "blobs-peers", "thin3d-peers")
OURS_PEERS = "ours, peers' run"
# the op each row of bench/gpu_peers.py's table is (its "operation")
PEER_LABELS = {
    "cudagray RGB": "RGB to gray", "cudagray RGBA": "RGBA to gray",
    "cudaotsu photo": "Otsu threshold + binarize",
    "cudahistogram GRAY8": "histogram",
    "cudablobs 4-conn photo": "labels + statistics (4-conn)",
    "cudablobs 4-conn noise": "labels + statistics (4-conn), 50 % noise",
    "cudasobel 3x3": "Sobel magnitude",
    "cudathin hilditch photo": "thin (mask)",
}
PEER_LABELS.update({"cudasmooth gaussian %dx%d" % (k, k): "Gaussian %d" % k
                    for k in (3, 5, 7)})
PEER_LABELS.update({"cudasmooth box %dx%d" % (k, k): "box %d" % k
                    for k in (3, 5, 7, 11, 15)})
PEER_LABELS.update({"cudasmooth median %dx%d" % (k, k): "median %d" % k
                    for k in (3, 5)})
SIZE_CELL = re.compile(r"^(\d+)x(\d+)$")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(body):
    """(header line index, [row line indices]) of each markdown table."""
    lines, out, i = body.split("\n"), [], 0
    while i + 1 < len(lines):
        if lines[i].startswith("| ") and lines[i + 1].startswith("|---"):
            j = i + 2
            while j < len(lines) and lines[j].startswith("| "):
                j += 1
            out.append((i, list(range(i + 2, j))))
            i = j
        else:
            i += 1
    return lines, out


def row_key(c, block):
    """The (op, w, h) a kernel table's row is, as the records name it:
    the cells before its size, joined (cudathin's rows lack the element)."""
    z = next((i for i, x in enumerate(c) if SIZE_CELL.match(x)), None)
    if not z:
        return None
    w, h = map(int, SIZE_CELL.match(c[z]).groups())
    op = " ".join(" ".join(c[:z]).split())
    if block == "thin":
        op = "cudathin " + op
    return op, w, h


def without_peer_columns(lines, head, rows):
    """Table @head's peer columns taken out of @lines (in place)."""
    drop = [i for i, n in enumerate(cells(lines[head]))
            if n.split(" µs")[0] in PEERS]
    if drop:
        for r in [head, head + 1] + list(rows):
            c = lines[r].split("|")[1:-1]
            lines[r] = "|" + "|".join(
                x for i, x in enumerate(c) if i not in drop) + "|"


def peer_columns(body, kern, block):
    """@body's tables with a column for each GPU peer that has a record of
    one of their rows: its µs and its time over ours.  Columns already
    there are written again, so that a new peers' run reaches every
    table, not only those without its columns."""
    lines, found = tables(body)
    for head, rows in found:
        without_peer_columns(lines, head, rows)
        keys = {r: row_key(cells(lines[r]), block) for r in rows}
        peers = [p for p in PEERS if any(
            k and (k[0], k[1], k[2], p) in kern for k in keys.values())]
        for p in peers:
            lines[head] += " %s µs (× ours) |" % p
            lines[head + 1] += "---|"
            for r in rows:
                k = keys[r]
                us = k and kern.get((k[0], k[1], k[2], p))
                ours = k and (kern.get((k[0], k[1], k[2], OURS_PEERS)) or
                              kern.get((k[0], k[1], k[2], "ours")))
                lines[r] += (" %.1f (%.1f) |" % (us, us / ours) if us and ours
                             else " %.1f |" % us if us else " - |")
    return "\n".join(lines)


# ---- the records out of the document's own tables ---------------------------

# a kernel table's column: whose time it is
COLUMN_WHO = {"ours µs": "ours", "cold µs": "ours", "floor µs": "floor",
              "floor 1R1W µs": "floor", "floor 2R1W µs": "floor 2R1W",
              "frame copy µs": "copy", "copy µs": "copy"}


def number(x):
    try:
        return float(x.rstrip("*"))
    except ValueError:
        return None


def records_from_doc(doc):
    """The kernel records the document's tables hold (ours, floors, NPP,
    the GPU peers): the summary again after TARGETS changed, without a
    run.  The pipeline and many-streams rows keep their rows."""
    kern = {}
    for block, body in BLOCK.findall(doc):
        lines, found = tables(body)
        for head, rows in found:
            names = cells(lines[head])
            if block == "blobs-peers":
                # OpenCV's connectedComponentsWithStats (cpu_peers.py):
                # mask, size, then µs and components at 8 and at 4
                for r in rows:
                    c = cells(lines[r])
                    w, h = map(int, c[1].split("x"))
                    for conn, us in ((8, c[2]), (4, c[4])):
                        if number(us) is not None:
                            kern[("cudablobs %d-conn %s" % (conn, c[0]), w,
                                  h, "OpenCV CPU")] = number(us)
                continue
            if block == "gpu-peers":
                sizes = [tuple(map(int, z.split("x"))) for z in
                         re.findall(r"\d+x\d+", names[1])]
                op_of = {v: k for k, v in PEER_LABELS.items()}
                for r in rows:
                    c = cells(lines[r])
                    op = op_of.get(c[0])
                    for i, who in enumerate([OURS_PEERS] + [
                            n.split(" µs")[0] for n in names[2:-1]]):
                        vals = c[1 + i].split("(")[0].split("/")
                        for z, v in zip(sizes, vals):
                            if op and number(v.strip()) is not None:
                                kern[(op, z[0], z[1], who)] = \
                                    number(v.strip())
                continue
            whos = [COLUMN_WHO.get(n, "NPP" if n.startswith("NPP") and
                                   n.endswith("µs") else None) for n in names]
            for r in rows:
                c = cells(lines[r])
                k = row_key(c, block)
                for who, x in zip(whos, c):
                    if k and who and number(x) is not None:
                        kern.setdefault((k[0], k[1], k[2], who), number(x))
    return kern


def with_doc_peers(kern, doc):
    """@kern and, for each GPU peer (and the peers' run's time of ours) of
    which @kern has no record, the document's: the peers run in calls of
    their own, and a run without them keeps their columns and summary
    rows instead of dropping them."""
    have = {k[3] for k in kern}
    out = dict(kern)
    for k, v in records_from_doc(doc).items():
        if k[3] in PEERS + (OURS_PEERS,) and k[3] not in have:
            out[k] = v
    return out


# ---- the plot ------------------------------------------------------------

PANELS = [("cudagray RGBA", "cudagray (RGBA to GRAY8)"),
          ("cudaotsu photo", "cudaotsu (photo)"),
          ("cudasobel 3x3", "cudasobel 3x3"),
          ("cudathin hilditch photo", "cudathin (Hilditch, photo)"),
          ("cudakmeans k=8", "cudakmeans k=8, 10 it."),
          ("cudasmooth gaussian 5x5", "cudasmooth Gaussian 5x5"),
          ("pipelines", "pipelines, GPU frames, time per frame")]
FIXED = [("ours, warm", (230, 170, 60)), ("ours", (200, 80, 0)),
         ("floor 2R1W", (150, 150, 240)), ("floor", (0, 0, 200)),
         ("copy", (120, 170, 255)),
         ("NPP", (60, 60, 60)), ("CV-CUDA", (0, 110, 255)),
         ("cuCIM", (180, 0, 120)), ("CuPy", (0, 180, 180)),
         ("OpenCV", (0, 140, 0)), ("videoconvert", (0, 100, 0)),
         ("skimage skel", (160, 0, 160)), ("skimage", (200, 100, 200)),
         ("naive", (0, 120, 230))]
COLOURS = [(200, 80, 0), (60, 60, 60), (0, 170, 230), (0, 0, 200),
           (160, 0, 160), (0, 150, 200), (120, 120, 0), (100, 0, 40)]


def colour(name, i=0):
    """A series' colour: its own where FIXED names it, else the @i-th."""
    return next((c for p, c in FIXED if name.startswith(p)),
                COLOURS[i % len(COLOURS)])


def time_axis(cv2, img, ox, box, y0, y1):
    """A panel's frame @box (left, right, top, bottom) and its log time
    axis, 10^y0 to 10^y1 µs: a grid line and a label a decade (OpenCV's
    font has no µ)."""
    L, R, T, B = box
    cv2.rectangle(img, (L, T), (R, B), (0, 0, 0), 1)
    for d in range(y0, y1 + 1):
        yy = int(B - (d - y0) / (y1 - y0) * (B - T))
        cv2.line(img, (L, yy), (R, yy), (225, 225, 225), 1)
        lab = "%g us" % 10 ** d if d < 3 else \
            ("%g ms" % 10 ** (d - 3) if d < 6 else "%g s" % 10 ** (d - 6))
        cv2.putText(img, lab, (ox + 5, yy + 4), cv2.FONT_HERSHEY_SIMPLEX,
                    0.38, (0, 0, 0), 1, cv2.LINE_AA)


def draw(kern, pipe, path):
    import cv2
    import numpy as np
    pw, ph, cols = 640, 430, 2
    rows = (len(PANELS) + cols - 1) // cols
    img = np.full((ph * rows, pw * cols, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for n, (op, title) in enumerate(PANELS):
        ox, oy = (n % cols) * pw, (n // cols) * ph
        series = {}
        if op == "pipelines":
            for (name, w, h, mem), r in pipe.items():
                if mem == "gpu" and "identity" not in name:
                    series.setdefault(name, []).append((w * h, r["us"]))
            for (name, w, h, mem), r in pipe.items():
                if "videoconvert" in name and "all cores" in name:
                    series.setdefault("videoconvert GRAY8 (CPU, system)",
                                      []).append((w * h, r["us"]))
        else:
            for (o, w, h, who), us in kern.items():
                # ours as the peers' run timed it: a second "ours" line
                if o == op and who != OURS_PEERS:
                    series.setdefault("ours" if who == "ours" else who,
                                      []).append((w * h, us))
        pts = [p for s in series.values() for p in s]
        if not pts:
            continue
        x0, x1 = math.log10(min(p[0] for p in pts)) - 0.1, \
            math.log10(max(p[0] for p in pts)) + 0.1
        y0 = math.floor(math.log10(min(p[1] for p in pts)))
        y1 = math.ceil(math.log10(max(p[1] for p in pts)))
        if y1 == y0:
            y1 += 1
        L, R, T, B = ox + 70, ox + pw - 15, oy + 40, oy + ph - 50

        def at(px, us):
            return (int(L + (math.log10(px) - x0) / (x1 - x0) * (R - L)),
                    int(B - (math.log10(us) - y0) / (y1 - y0) * (B - T)))
        time_axis(cv2, img, ox, (L, R, T, B), y0, y1)
        for px, lab in [(640 * 480, "640x480"), (1920 * 1080, "1080p"),
                        (3840 * 2160, "4K"), (7680 * 4320, "8K"),
                        (4096 * 4096, "4096^2")]:
            if x0 <= math.log10(px) <= x1:
                xx = at(px, 10 ** y0)[0]
                cv2.line(img, (xx, T), (xx, B), (235, 235, 235), 1)
                cv2.putText(img, lab, (xx - 22, B + 16), font, 0.38,
                            (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(img, title, (L, T - 12), font, 0.5, (0, 0, 0), 1,
                    cv2.LINE_AA)
        names = sorted(series, key=lambda s: (s != "ours", s))
        for i, name in enumerate(names):
            c = colour(name, i)
            pts = sorted(series[name])
            for a, b in zip(pts, pts[1:]):
                cv2.line(img, at(*a), at(*b), c, 2, cv2.LINE_AA)
            for p in pts:
                cv2.circle(img, at(*p), 3, c, -1, cv2.LINE_AA)
            label = name.encode("ascii", "replace").decode()
            cv2.putText(img, label, (L + 8, T + 16 + 15 * i), font, 0.4, c, 1,
                        cv2.LINE_AA)
    if streams:
        img = np.vstack([img, draw_streams(cv2, np, pw, ph, cols)])
    cv2.imwrite(path, img)


def draw_peers(kern, path):
    """The GPU peers' table as a picture: for each shared operation (x) at
    1080p and at 4K (a panel each), our time and each peer's (log µs),
    from the peers' own run (OURS_PEERS; ours of another run where it
    has none)."""
    import cv2
    import numpy as np
    ops = [op for op in PEER_LABELS if any(
        (op, w, h, p) in kern for p in PEERS for (w, h) in HD_4K)]
    if not ops:
        return False
    pw, ph = 640, 470
    img = np.full((ph, pw * 2, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    whos = ["ours"] + list(PEERS)
    for n, (w, h) in enumerate(HD_4K):
        ox = n * pw

        def us_of(op, who):
            if who == "ours":
                return kern.get((op, w, h, OURS_PEERS),
                                kern.get((op, w, h, "ours")))
            return kern.get((op, w, h, who))
        pts = [us_of(op, who) for op in ops for who in whos]
        pts = [u for u in pts if u]
        y0 = math.floor(math.log10(min(pts)))
        y1 = math.ceil(math.log10(max(pts)))
        y1 += y1 == y0
        L, R, T, B = ox + 70, ox + pw - 15, 40, ph - 110
        step = (R - L) / len(ops)

        def at(i, us):
            return (int(L + (i + 0.5) * step),
                    int(B - (math.log10(us) - y0) / (y1 - y0) * (B - T)))
        time_axis(cv2, img, ox, (L, R, T, B), y0, y1)
        for i, op in enumerate(ops):
            # the operation's name, written upwards under its column
            text = {"cudablobs 4-conn photo": "labels (photo)",
                    "cudablobs 4-conn noise": "labels (noise)",
                    "cudaotsu photo": "Otsu + binarize"}.get(
                op, PEER_LABELS[op])
            (tw, th), _ = cv2.getTextSize(text, font, 0.38, 1)
            lab = np.full((th + 6, tw + 4, 3), 255, np.uint8)
            cv2.putText(lab, text, (2, th + 2), font, 0.38, (0, 0, 0), 1,
                        cv2.LINE_AA)
            lab = cv2.rotate(lab, cv2.ROTATE_90_COUNTERCLOCKWISE)
            x = at(i, 10 ** y0)[0] - lab.shape[1] // 2
            hh = min(lab.shape[0], ph - (B + 6))
            img[B + 6:B + 6 + hh, x:x + lab.shape[1]] = lab[-hh:]
            for who in whos:
                us = us_of(op, who)
                if us:
                    cv2.circle(img, at(i, us), 5 if who == "ours" else 4,
                               colour(who), -1 if who == "ours" else 2,
                               cv2.LINE_AA)
        cv2.putText(img, "GPU peers, %s (one run)" % (
            "1080p" if w == 1920 else "4K"), (L, T - 12), font, 0.5,
            (0, 0, 0), 1, cv2.LINE_AA)
        for i, who in enumerate(whos):
            cv2.putText(img, who, (R - 70, T + 16 + 15 * i), font, 0.4,
                        colour(who), 1, cv2.LINE_AA)
    cv2.imwrite(path, img)
    return True


def draw_streams(cv2, np, pw, ph, cols):
    """Two panels against the number of streams (log-log): aggregate
    frames a second, and the process's CPU µs a frame."""
    img = np.full((ph, pw * cols, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for n, (key, title, unit) in enumerate([
            ("fps", "many streams: aggregate fps", ""),
            ("cpu_us", "many streams: CPU per frame", " us")]):
        series = {}
        for (name, w, h, mem, k), r in streams.items():
            label = "%s %s %s" % (name.replace("cudagray ! cudaotsu ! ", ""),
                                  "1080p" if w == 1920 else "%dx%d" % (w, h),
                                  mem)
            series.setdefault(label, []).append((k, r[key]))
        pts = [p for s in series.values() for p in s if p[1] > 0]
        if not pts:
            continue
        ox = n * pw
        x0, x1 = -0.1, math.log10(max(p[0] for p in pts)) + 0.1
        y0 = math.floor(math.log10(min(p[1] for p in pts)))
        y1 = math.ceil(math.log10(max(p[1] for p in pts)))
        y1 += y1 == y0
        L, R, T, B = ox + 70, ox + pw - 15, 40, ph - 50

        def at(x, y):
            return (int(L + (math.log10(x) - x0) / (x1 - x0) * (R - L)),
                    int(B - (math.log10(y) - y0) / (y1 - y0) * (B - T)))
        cv2.rectangle(img, (L, T), (R, B), (0, 0, 0), 1)
        for d in range(y0, y1 + 1):
            yy = at(1, 10 ** d)[1]
            cv2.line(img, (L, yy), (R, yy), (225, 225, 225), 1)
            cv2.putText(img, "%g%s" % (10 ** d, unit), (ox + 5, yy + 4), font,
                        0.38, (0, 0, 0), 1, cv2.LINE_AA)
        for k in sorted({p[0] for p in pts}):
            xx = at(k, 10 ** y0)[0]
            cv2.putText(img, str(k), (xx - 8, B + 16), font, 0.38, (0, 0, 0),
                        1, cv2.LINE_AA)
        cv2.putText(img, title + " (streams)", (L, T - 12), font, 0.5,
                    (0, 0, 0), 1, cv2.LINE_AA)
        for i, name in enumerate(sorted(series)):
            c = COLOURS[i % len(COLOURS)]
            s = sorted(p for p in series[name] if p[1] > 0)
            for a, b in zip(s, s[1:]):
                cv2.line(img, at(*a), at(*b), c, 2, cv2.LINE_AA)
            for p in s:
                cv2.circle(img, at(*p), 3, c, -1, cv2.LINE_AA)
            cv2.putText(img, name, (L + 8, T + 16 + 15 * i), font, 0.4, c, 1,
                        cv2.LINE_AA)
    return img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--doc", required=True)
    ap.add_argument("--from-doc", action="store_true",
                    help="no run: the targets table again from the "
                    "document's own tables (after TARGETS changed)")
    ap.add_argument("--plot")
    ap.add_argument("--plot-peers",
                    help="the GPU peers' records as a picture of their own")
    ap.add_argument("--command", default="")
    ap.add_argument("--device", default="")
    a = ap.parse_args()
    if not a.from_doc and (not a.log or not a.json):
        ap.error("--log and --json, or --from-doc")
    with open(a.doc) as f:
        doc = f.read()
    old = dict(BLOCK.findall(doc))

    if a.from_doc:
        # no run: the document's own blocks, its tables as the records
        blocks, kern, pipe = dict(old), records_from_doc(doc), {}
    else:
        blocks = {}
        for path in a.log:
            with open(path) as f:
                for name, body in BLOCK.findall(f.read()):
                    # a peer library's own complaints on stdout (NPP's
                    # median refuses stream capture, then is timed
                    # directly: the *)
                    body = "".join(ln for ln in body.splitlines(True)
                                   if not ln.startswith("CUDA ERROR"))
                    if name == "streams" and name in blocks:
                        # a later run of the same table: its rows only
                        body = "".join(ln for ln in body.splitlines(True)
                                       if ln.startswith("| ") and
                                       not ln.startswith("| chain |"))
                        blocks[name] = (blocks[name].rstrip("\n") + "\n" +
                                        body)
                    else:
                        blocks[name] = body
        kern, pipe = load(a.json)
        # a run of the pipeline benchmark alone leaves the kernels' header
        # (judged on the run's own records, before the document's peers)
        if kern:
            dev = blocks.get("device", a.device).strip()
            blocks["header"] = (
                "Measured %s on %s\n\nby the one command (on the GPU host, "
                "from the repository root):\n\n    %s\n\n" % (
                    datetime.date.today().isoformat(), dev, a.command))
        kern = with_doc_peers(kern, doc)
    for name in blocks:
        if name not in NOT_KERNELS:
            blocks[name] = peer_columns(blocks[name], kern, name)
    blocks["summary"] = summary(kern, pipe, old.get("summary", ""))
    missing = []

    def sub(m):
        if m.group(1) in blocks:
            return "<!-- bench:%s -->\n%s<!-- /bench:%s -->\n" % (
                m.group(1), blocks[m.group(1)], m.group(1))
        missing.append(m.group(1))
        return m.group(0)
    doc = BLOCK.sub(sub, doc)
    with open(a.doc, "w") as f:
        f.write(doc)
    if missing:
        print("report: no new results for %s (left as they were)" %
              ", ".join(missing), file=sys.stderr)
    if a.plot:
        draw(kern, pipe, a.plot)
    if a.plot_peers and not draw_peers(kern, a.plot_peers):
        print("report: no GPU peers' records to draw", file=sys.stderr)
    print(blocks["summary"])


if __name__ == "__main__":
    main()

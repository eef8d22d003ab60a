#!/usr/bin/env python3
"""bench/report.py without a GPU: a target of several cases gives its
worst and where; the GPU peers' columns go into a kernel table once, and
a new peers' run writes them again; the
records read back out of docs/performance.md give every target a row,
and a run without the peers keeps their records from it; the document stays within its 700 lines (issue 65).
Usage: tests/test_report.py SOURCE_ROOT"""
import os
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "bench"))
import report  # noqa: E402

failed = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failed.append(what)


# a group: the worst of its ops and sizes, named by what differs
kern = {}
for op, us in (("cudasmooth box 3x3", 10.0), ("cudasmooth box 5x5", 8.0)):
    for (w, h), f in zip(report.HD_4K, (1.0, 2.0)):
        kern[(op, w, h, "ours")] = us * f
        kern[(op, w, h, "NPP")] = us * f * (2.5 if w == 3840 else 4.0)
kern[("cudasmooth box 3x3", 3840, 2160, "NPP")] = 20.0 * 1.5
rows = report.summary(kern, {}).splitlines()
row = [r for r in rows if r.startswith("| cudasmooth box 3×3 and 5×5")]
check(len(row) == 1 and "| 1.5 (3x3, 4K) | **no** | missed by 50 % |"
      in row[0], "group row gives its worst case and where: %s" % row)
check(len(rows) == 2 + len(report.TARGETS), "a row a target")

# every op a peer has, and the peer named, for "ratio-peer:A,B"
kern = {("cudasobel 3x3", 1920, 1080, "ours"): 4.0,
        ("cudasobel 3x3", 1920, 1080, "CuPy"): 320.0,
        ("cudasobel 3x3", 1920, 1080, "cuCIM"): 36.0,
        ("cudaotsu photo", 1920, 1080, "ours"): 8.0,
        ("cudaotsu photo", 1920, 1080, "cuCIM"): 1000.0}
row = [r for r in report.summary(kern, {}).splitlines()
       if r.startswith("| every operation cuCIM or CuPy")]
check(len(row) == 1 and "| 9 (cudasobel 3x3, 1080p, cuCIM) | **no** |"
      in row[0], "peers' row names op, size and peer: %s" % row)

# the peers' columns, once, with the peers' run's own time of ours
body = ("intro\n\n| kernel | size | ours µs | check |\n|---|---|---|---|\n"
        "| cudasobel 3x3 |  1920x1080  |  4.00 | exact |\n"
        "| cudasobel 3x3 |  3840x2160  |  9.00 | exact |\n")
kern[("cudasobel 3x3", 1920, 1080, report.OURS_PEERS)] = 3.2
once = report.peer_columns(body, kern, "sobel")
twice = report.peer_columns(once, kern, "sobel")
check("| cuCIM µs (× ours) | CuPy µs (× ours) |" in once and
      "| exact | 36.0 (11.2) | 320.0 (100.0) |" in once and
      "| exact | - | - |" in once, "peer columns:\n" + once)
check(once == twice, "peer columns added once")
# a new peers' run rewrites columns already there (a peer's new time)
kern[("cudasobel 3x3", 1920, 1080, "cuCIM")] = 48.0
again = report.peer_columns(once, kern, "sobel")
check("| exact | 48.0 (15.0) | 320.0 (100.0) |" in again and
      again.count("cuCIM µs") == 1, "peer columns written again:\n" + again)

# the document: its own tables give the records, every target a row
with open(os.path.join(root, "docs", "performance.md")) as f:
    doc = f.read()
kern = report.records_from_doc(doc)
check(("cudagray RGBA", 3840, 2160, "floor") in kern and
      ("cudaotsu photo", 3840, 2160, "CV-CUDA") in kern and
      ("cudablobs 4-conn noise", 3840, 2160, "OpenCV CPU") in kern,
      "records out of the kernel and peers tables (%d)" % len(kern))
rows = report.summary(kern, {}, dict(report.BLOCK.findall(doc))
                      ["summary"]).splitlines()
check(len(rows) == 2 + len(report.TARGETS), "the document's summary")
# a run without the peers keeps the document's; one with a peer keeps its
# own records of that peer
run = {("cudaotsu photo", 3840, 2160, "ours"): 1.0,
       ("cudaotsu photo", 3840, 2160, "CuPy"): 5.0}
merged = report.with_doc_peers(run, doc)
check(merged[("cudaotsu photo", 3840, 2160, "CV-CUDA")] ==
      kern[("cudaotsu photo", 3840, 2160, "CV-CUDA")] and
      merged[("cudaotsu photo", 3840, 2160, "ours")] == 1.0 and
      not any(k[3] == "CuPy" and k[0] != "cudaotsu photo" for k in merged),
      "a run without the peers keeps the document's peer records")
# a run of the pipeline benchmark alone leaves the kernels' header as it is
import subprocess  # noqa: E402
import tempfile  # noqa: E402
with tempfile.TemporaryDirectory() as tmp:
    paths = [os.path.join(tmp, f) for f in ("doc.md", "run.log", "run.json")]
    with open(paths[0], "w") as f:
        f.write(doc)
    with open(paths[1], "w") as f:
        f.write("<!-- bench:pipelines -->\nrows\n<!-- /bench:pipelines -->\n")
    with open(paths[2], "w") as f:
        f.write('{"kind": "pipeline", "name": "x", "w": 1, "h": 1, '
                '"memory": "system", "fps": 1}\n')
    subprocess.run([sys.executable, os.path.join(root, "bench", "report.py"),
                    "--log", paths[1], "--json", paths[2], "--doc", paths[0],
                    "--command", "X"], check=True, capture_output=True)
    with open(paths[0]) as f:
        after = dict(report.BLOCK.findall(f.read()))
    head = dict(report.BLOCK.findall(doc)).get("header")
    check(after.get("header") == head,
          "a pipeline-only run leaves the kernels' header")
# the peers' picture: an operation a column, drawn where OpenCV is
try:
    import cv2  # noqa: F401
except ImportError:
    print("skip: the peers' picture (no OpenCV for this python)")
else:
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "peers.png")
        drawn = report.draw_peers(kern, png)
        img = cv2.imread(png) if drawn else None
        check(drawn and img is not None and img.shape[1] == 1280 and
              not report.draw_peers({k: v for k, v in kern.items()
                                     if k[3] not in report.PEERS}, png),
              "the peers' picture from the document's records, none "
              "without them")
n = doc.count("\n")
check(n <= 700, "docs/performance.md: %d lines (at most 700)" % n)
sys.exit(1 if failed else 0)

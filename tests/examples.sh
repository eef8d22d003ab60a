#!/bin/sh
# Smoke test of the example programs where no GPU is usable (the test runs
# with CUDA_VISIBLE_DEVICES empty): each must build its pipeline, then stop
# with the elements' own no-GPU error and exit status 1 (no crash, no
# hang, no critical warning); bad arguments give status 2.  On the GPU host
# tests/gpu-suite.sh runs them for real.
# The live demos (pipelines/preview.sh, and overlay.sh on it) likewise,
# with their argument errors and a missing camera.
# Usage: examples.sh c BUILD_DIR | examples.sh python EXAMPLES_DIR |
#   examples.sh demos SOURCE_DIR
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check () {  # name, expected status, command...
  name=$1 want=$2
  shift 2
  timeout 60 "$@" > "$tmp/out" 2>&1
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $name: exit status $got, expected $want"
    cat "$tmp/out"
    exit 1
  fi
  if grep -q "CRITICAL\|Segmentation\|Traceback" "$tmp/out"; then
    echo "FAIL: $name: $(grep -m1 "CRITICAL\|Segmentation\|Traceback" \
      "$tmp/out")"
    cat "$tmp/out"
    exit 1
  fi
  echo "ok: $name (exit status $got)"
}

no_gpu () {  # name, command...
  name=$1
  shift
  check "$name" 1 "$@"
  grep -q "No CUDA driver found\|No usable CUDA GPU found" "$tmp/out" || {
    echo "FAIL: $name: no no-GPU error from the elements"
    cat "$tmp/out"
    exit 1
  }
  grep -m1 "error from" "$tmp/out"
}

case $1 in
  c)
    exe=$2/examples/cudaimgproc-skeleton
    no_gpu "skeleton, test pattern to PNG" "$exe" --frames 3 \
      --output "$tmp/skel.png"
    check "skeleton, a missing file" 1 "$exe" "$tmp/missing.mp4" \
      --output "$tmp/skel-%05d.png"
    check "skeleton, two inputs" 2 "$exe" --camera /dev/video0 a.mp4
    mc=$2/examples/cudaimgproc-multicam
    no_gpu "multicam, 8 streams" "$mc" --streams 8 --frames 3
    check "multicam, bad count" 2 "$mc" --streams 0
    check "multicam, bad chain" 2 "$mc" --chain blur
    ;;
  python)
    py=python3
    [ -x /usr/bin/python3 ] && py=/usr/bin/python3
    $py -c 'import gi, numpy
gi.require_version("Gst", "1.0"); gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo' 2> "$tmp/err" || {
      echo "SKIP: $py lacks PyGObject's GStreamer bindings or numpy" \
        "(python3-gi, gir1.2-gst-plugins-base-1.0, python3-numpy):" \
        "$(tail -1 "$tmp/err")"
      exit 77
    }
    no_gpu "frames.py, test pattern" $py "$2/frames.py" --frames 3
    check "frames.py, two inputs" 2 $py "$2/frames.py" --camera /dev/video0 \
      a.mp4
    ;;
  demos)
    p=$2/pipelines/preview.sh
    no_gpu "preview, test source, headless" "$p" --snapshot "$tmp/a.png"
    no_gpu "preview, segments of a picture" "$p" segments \
      "$2/data/astronaut.png" --snapshot "$tmp/b.png"
    no_gpu "preview, blobs of a picture" "$p" blobs \
      "$2/data/astronaut.png" --snapshot "$tmp/b2.png"
    no_gpu "preview, histogram of a picture" "$p" histogram \
      "$2/data/astronaut.png" --snapshot "$tmp/b3.png"
    no_gpu "overlay.sh, edges" "$2/pipelines/overlay.sh" \
      "$2/data/astronaut.png" "$tmp/c.png" edges
    check "preview, no camera" 1 "$p" --camera "$tmp/video9" --snapshot \
      "$tmp/d.png"
    grep "no camera at" "$tmp/out"
    check "preview, no display" 1 env -u DISPLAY -u WAYLAND_DISPLAY "$p"
    grep "no display" "$tmp/out"
    check "preview, a missing file" 1 "$p" "$tmp/missing.mp4"
    check "preview, two inputs" 2 "$p" a.mp4 b.mp4
    check "preview, bad size" 2 "$p" --size 640 --snapshot "$tmp/e.png"
    check "preview, not a PNG" 2 "$p" --snapshot "$tmp/f.jpg"
    m=$2/pipelines/multicam.sh
    no_gpu "multicam, 4 test sources, headless" "$m" 4 --snapshot "$tmp/g.png"
    check "multicam, too many" 2 "$m" 65 --snapshot "$tmp/h.png"
    check "multicam, bad size" 2 "$m" --size 320 --snapshot "$tmp/h.png"
    check "multicam, a missing file" 1 "$m" 4 "$tmp/missing.mp4" \
      --snapshot "$tmp/h.png"
    check "preview, --help" 0 "$p" --help
    grep -q -- "--snapshot FILE" "$tmp/out" || {
      echo "FAIL: preview --help prints no options"; exit 1; }
    ;;
esac

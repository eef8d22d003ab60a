#!/usr/bin/env python3
# cudaimgproc example: frames out of a GPU pipeline as numpy arrays, and
# the elements' per-frame messages read from the bus.
# Copyright (C) 2026 cudaimgproc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run cudagray ! cudaotsu ! cudathin on a test pattern, a camera or a
file, take each skeleton frame out through appsink as a numpy array (rows
of the frame's width, the buffer's stride dropped), and print it beside
the Otsu threshold and thinning passes the elements post.

    python3 examples/frames.py                       # 30 test frames
    python3 examples/frames.py --camera /dev/video0 --frames 100
    python3 examples/frames.py movie.mp4 --save last.npy

Ctrl-C ends the stream cleanly.  Exit status 0 at the end of the stream,
1 on an error (a missing GPU included: the elements say so)."""

import argparse
import signal
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402

import numpy as np  # noqa: E402


def source(args):
    if args.camera:
        return f'v4l2src device="{args.camera}" num-buffers={args.frames}'
    if args.input:
        uri = args.input if Gst.uri_is_valid(args.input) else \
            Gst.filename_to_uri(args.input)
        return f'uridecodebin uri="{uri}"'
    return f"videotestsrc pattern=ball num-buffers={args.frames}"


def frame_array(sample):
    """The sample's GRAY8 frame as an (height, width) uint8 array (a copy:
    the buffer goes back to the pipeline)."""
    info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
    buf = sample.get_buffer()
    ok, m = buf.map(Gst.MapFlags.READ)
    if not ok:
        raise RuntimeError("could not map the buffer")
    try:
        stride = info.stride[0]
        rows = np.frombuffer(m.data, np.uint8, count=stride * info.height)
        return rows.reshape(info.height, stride)[:, :info.width].copy()
    finally:
        buf.unmap(m)


def print_message(msg):
    s = msg.get_structure()
    if s is None:
        return
    ok, ts = s.get_uint64("timestamp")
    t = f"{ts / 1e9:9.3f} s" if ok else "        ?"
    if s.get_name() == "cudaotsu":
        print(f"{t}  otsu threshold {s.get_value('threshold')}")
    elif s.get_name() == "cudathin":
        print(f"{t}  thinning: {s.get_value('passes')} passes"
              + ("" if s.get_value("converged") else " (not converged)"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", nargs="?", help="a file or URI to decode")
    ap.add_argument("--camera", help="a V4L2 device, e.g. /dev/video0")
    ap.add_argument("--frames", type=int, default=30,
                    help="frames from the test pattern or camera (30)")
    ap.add_argument("--save", help="write the last frame here (.npy)")
    args = ap.parse_args()
    if args.camera and args.input:
        ap.error("give one input: a file, a URI or --camera")

    Gst.init(None)
    desc = (f"{source(args)} ! videoconvert ! cudagray ! "
            "cudaotsu post-messages=true ! cudathin post-messages=true ! "
            "appsink name=sink sync=false max-buffers=8 "
            "caps=video/x-raw,format=GRAY8")
    print("pipeline:", desc)
    pipeline = Gst.parse_launch(desc)
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()

    interrupted = []

    def on_sigint(signum, frame):
        if interrupted:
            sys.exit(1)
        interrupted.append(True)
        print("interrupted: finishing the stream", file=sys.stderr)
        pipeline.send_event(Gst.Event.new_eos())

    signal.signal(signal.SIGINT, on_sigint)
    status, count, last = 0, 0, None
    kinds = Gst.MessageType.ERROR | Gst.MessageType.EOS | \
        Gst.MessageType.ELEMENT | Gst.MessageType.WARNING
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        msg = bus.timed_pop_filtered(0, kinds)
        if msg is not None:
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                print(f"error from {msg.src.get_name()}: {err.message}\n"
                      f"{debug or ''}", file=sys.stderr)
                status = 1
                break
            if msg.type == Gst.MessageType.WARNING:
                err, _ = msg.parse_warning()
                print(f"warning from {msg.src.get_name()}: {err.message}",
                      file=sys.stderr)
            elif msg.type == Gst.MessageType.ELEMENT:
                print_message(msg)
            elif msg.type == Gst.MessageType.EOS:
                break
            continue
        sample = sink.emit("try-pull-sample", 20 * Gst.MSECOND)
        if sample is None:
            continue
        last = frame_array(sample)
        count += 1
        print(f"frame {count}: {last.shape[1]}x{last.shape[0]}, "
              f"{int(np.count_nonzero(last))} skeleton pixels")
    # appsink posts EOS only once every sample was pulled: none is lost
    pipeline.set_state(Gst.State.NULL)
    print(f"{count} frames")
    if args.save and last is not None:
        np.save(args.save, last)
        print("last frame written to", args.save)
    return status


if __name__ == "__main__":
    sys.exit(main())

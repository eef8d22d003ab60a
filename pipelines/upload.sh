#!/bin/sh
# GStreamer's own cudaupload feeding cudagray: the zero-copy CUDA path.
set -e
exec gst-launch-1.0 "$@" videotestsrc num-buffers=300 \
  ! video/x-raw,format=NV12,width=1920,height=1080 \
  ! cudaupload ! cudagray ! fakesink

#!/bin/sh
# Test source through cudagray, 300 frames, system memory in, CUDA memory out.
# Usage: pipelines/testsrc.sh [extra gst-launch args]
# Needs GST_PLUGIN_PATH to hold the plugin (run.sh sets it).
set -e
exec gst-launch-1.0 "$@" videotestsrc num-buffers=300 \
  ! video/x-raw,width=1920,height=1080 \
  ! cudagray ! fakesink

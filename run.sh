#!/bin/bash
# The main job: a photograph through the GPU, cudagray, into out/.
# Installs and builds what is missing first.  Needs an NVIDIA GPU and driver;
# without them the pipeline stops with an error saying so.
set -e
cd "$(dirname "$0")"
scripts/build.sh >/dev/null
export GST_PLUGIN_PATH=$PWD/build/gst
pipelines/image.sh data/astronaut.png out/astronaut-gray.png

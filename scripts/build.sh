#!/bin/bash
# Installs what is missing, configures and builds into ./build.
set -e
cd "$(dirname "$0")/.."
. scripts/deps.sh
[ -f build/build.ninja ] || meson setup build "$@"
ninja -C build

#!/bin/bash
# Installs what is missing, configures and builds into ./build.
# Where a GPU is present (nvidia-smi names its compute capability), the
# kernels are built for that architecture alone, with its PTX, which takes
# a fraction of the time of the whole list (README, "Run it"); without
# one (CI), or with CUDAIMGPROC_ALL_ARCHS=1, or given -Dcuda-archs=, for
# the list in meson_options.txt.  Extra arguments go to `meson setup`.
set -e
cd "$(dirname "$0")/.."
. scripts/deps.sh
if [ ! -f build/build.ninja ]; then
  archs=
  case " $* " in
    *" -Dcuda-archs="*) ;;
    *)
      if [ -z "${CUDAIMGPROC_ALL_ARCHS:-}" ] &&
          command -v nvidia-smi > /dev/null 2>&1; then
        archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader \
          2> /dev/null | tr -d '. ' | grep -E '^[0-9]+$' | sort -un |
          paste -sd, -)
      fi
      ;;
  esac
  if [ -n "$archs" ]; then
    echo "build: kernels for this machine's GPU (sm_${archs//,/, sm_});" \
      "CUDAIMGPROC_ALL_ARCHS=1 for every architecture"
    meson setup build -Dcuda-archs="$archs" "$@"
  else
    meson setup build "$@"
  fi
fi
ninja -C build

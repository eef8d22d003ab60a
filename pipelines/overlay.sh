#!/bin/sh
# The result painted over the picture it came from, a photograph into a
# PNG: pipelines/preview.sh's headless mode on a picture (the chain stays
# on the GPU up to cudaoverlay's mask pad, checked in its log).
# Usage: pipelines/overlay.sh [input.png] [output.png] [what]
#   what: skeleton (cudasmooth ! cudaotsu ! cudathin, red, opaque; the default),
#         edges (cudasobel, strength as alpha), segments (cudakmeans
#         labels, half transparent)
here=$(cd "$(dirname "$0")/.." && pwd)
exec "$here/pipelines/preview.sh" "${3:-skeleton}" \
  "${1:-$here/data/astronaut.png}" \
  --snapshot "${2:-$here/out/astronaut-overlay.png}"

#!/bin/sh
# bench/kernels-at.sh DIR [REV]: DIR emptied and given the files of
# kernels/ as at git revision REV, or as in the working tree without one:
# the source that bench/stamps and bench/kmeans-ab build their copies
# from.  Run from the repository root.
set -e
dir=${1:?usage: bench/kernels-at.sh DIR [REV]}
rm -rf "$dir" && mkdir -p "$dir"
if [ -n "${2:-}" ]; then
  for f in $(git ls-tree --name-only "$2" kernels/); do
    git show "$2:$f" > "$dir/$(basename "$f")"
  done
else
  cp kernels/*.cu kernels/*.cuh kernels/*.h "$dir/"
fi

#!/bin/sh
# GStreamer's C style (its gst-indent settings, GNU indent); run twice as
# gst-indent does.  Usage: scripts/gst-indent.sh file.c ...
for f in "$@"; do
  case $f in
    *.cu|*.cuh|*.cpp)
      # GNU indent reads C only: it mangles templates and casts
      echo "gst-indent.sh: $f is C++ (CUDA); indent it by hand" >&2
      exit 1 ;;
  esac
  for _ in 1 2; do
    indent --braces-on-if-line --case-brace-indentation0 \
      --case-indentation2 --braces-after-struct-decl-line --line-length80 \
      --no-tabs --cuddle-else --dont-line-up-parentheses \
      --continuation-indentation4 --honour-newlines --tab-size8 \
      --indent-level2 --leave-preprocessor-space "$f" || exit 1
  done
  rm -f "$f~"
done

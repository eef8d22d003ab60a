#!/bin/sh
# docs/gst_plugins_cache.json against the built plugin: the documentation
# cache (elements, pad templates, properties with ranges, defaults and
# flags, enums) must say what the plugin says.  It is made with GStreamer
# 1.22 (Debian 12); other versions print caps differently, so elsewhere
# this skips, saying so.
#   plugin-docs.sh BUILD_DIR            check
#   plugin-docs.sh BUILD_DIR --update   rewrite the cache
set -eu
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)
cache=$here/docs/gst_plugins_cache.json
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.json"' EXIT
version=$(pkg-config --modversion gstreamer-1.0)
case $version in
  1.22.*) ;;
  *) if [ "${2:-}" != --update ]; then
       echo "SKIP: the cache is made with GStreamer 1.22; this is $version"
       exit 77
     fi ;;
esac
# no GPU needed: the plugin registers its elements without one
CUDA_VISIBLE_DEVICES= GST_REGISTRY=$tmp.registry \
  "$build/docs/cudaimgproc-plugin-cache" "$build/gst/libgstcudaimgproc.so" \
  > "$tmp.json"
rm -f "$tmp.registry"
python3 -m json.tool --sort-keys --indent 4 "$tmp.json" > "$tmp"
if [ "${2:-}" = --update ]; then
  cp "$tmp" "$cache"
  echo "wrote $cache"
  exit 0
fi
if ! diff -u "$cache" "$tmp"; then
  echo "FAIL: docs/gst_plugins_cache.json is out of date; run"
  echo "  tests/plugin-docs.sh build --update"
  exit 1
fi
echo "ok: docs/gst_plugins_cache.json matches the plugin" \
  "($(grep -c '"blurb"' "$cache") properties)"

#!/bin/sh
# Installs the build into a scratch DESTDIR (meson install --destdir) and
# checks what a user who installs gets: the plugin in the prefix's
# libdir/gstreamer-1.0, gst-inspect-1.0 loading it from there with all
# its elements, the command-line tool in the prefix's bindir, and that
# with --prefix=/usr (the README's system install)
# that folder is the one GStreamer loads plugins from by itself.
# Usage: install.sh BUILD_DIR
set -eu
build=$1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail () {
  echo "FAIL: $*"
  exit 1
}

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet ||
  fail "meson install --destdir failed"
eval "$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
opts = {o["name"]: o["value"] for o in json.load(sys.stdin)}
print("prefix=%s libdir=%s bindir=%s" % (opts["prefix"], opts["libdir"],
                                        opts["bindir"]))')"
case $libdir in
  /*) plugindir=$libdir/gstreamer-1.0 ;;
  *) plugindir=$prefix/$libdir/gstreamer-1.0 ;;
esac
so=$dest$plugindir/libgstcudaimgproc.so
[ -f "$so" ] || fail "no $so after meson install"
echo "installed: $plugindir/libgstcudaimgproc.so (under DESTDIR)"

# Only the installed copy: no build tree, no system plugins, no GPU.
out=$(GST_PLUGIN_PATH_1_0=$dest$plugindir \
  GST_PLUGIN_SYSTEM_PATH_1_0=$dest/none GST_REGISTRY_1_0=$dest/registry.bin \
  CUDA_VISIBLE_DEVICES= gst-inspect-1.0 cudaimgproc 2>&1) ||
  fail "gst-inspect-1.0 cudaimgproc did not find the installed plugin: $out"
echo "$out" | grep -q "Filename.*$so" ||
  fail "gst-inspect-1.0 loaded another copy: $out"
for e in cudagray cudaotsu cudasobel cudasmooth cudathin cudathin3d \
    cudakmeans; do
  echo "$out" | grep -q "^  $e:" || fail "element $e missing: $out"
done
echo "gst-inspect-1.0 finds the installed plugin and its elements"

case $bindir in
  /*) tool=$dest$bindir/cudaimgproc-thin3d ;;
  *) tool=$dest$prefix/$bindir/cudaimgproc-thin3d ;;
esac
[ -x "$tool" ] || fail "no $tool after meson install"
"$tool" --help | grep -q "^Usage: cudaimgproc-thin3d" ||
  fail "$tool --help does not run"
echo "installed: cudaimgproc-thin3d in the bindir, and it runs"

# --prefix=/usr keeps this libdir (Debian's multiarch one), so a system
# install lands in GStreamer's own plugin folder.
system=$(pkg-config --variable=pluginsdir gstreamer-1.0)
case $libdir in
  /*) would=$plugindir ;;
  *) would=/usr/$libdir/gstreamer-1.0 ;;
esac
[ "$would" = "$system" ] ||
  fail "with --prefix=/usr the plugin would go to $would, not GStreamer's $system"
echo "--prefix=/usr installs into $system, where GStreamer looks"

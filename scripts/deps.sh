#!/bin/bash
# Installs what building and testing cudaimgproc needs on Debian 12 (as root,
# or through sudo), and puts nvcc on PATH.  Source it: it exports PATH.
need_pkgs="meson ninja-build pkg-config gcc g++ libc6-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad python3 valgrind python3-gi python3-numpy
  gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 clang"
missing=""
for p in $need_pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ -n "$missing" ]; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $missing
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null 2>&1; then
  echo "deps: no nvcc; installing Debian's CUDA toolkit (non-free)"
  . /etc/os-release
  echo "deb http://deb.debian.org/debian $VERSION_CODENAME contrib non-free" |
    $sudo tee /etc/apt/sources.list.d/cudaimgproc-nonfree.list >/dev/null
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit
fi

#!/bin/sh
# Many cameras at once: N sources (test patterns, or N copies of a file),
# each through a chain of ours, tiled side by side by compositor in a
# window, or headless into a PNG.  Every branch's elements use the one
# CUDA context of the GPU (docs/design.md, "One context per device").
#
#   pipelines/multicam.sh                        9 test patterns, edges
#   pipelines/multicam.sh 16 skeleton
#   pipelines/multicam.sh 4 edges movie.mp4 --snapshot wall.png
#
# Options:
#   N                 how many sources (default 9; 1 to 64)
#   edges|skeleton    the chain (default edges):
#       edges:    cudagray ! cudasobel
#       skeleton: cudagray ! cudaotsu ! cudathin
#   INPUT             a video file played N times over (anything decodebin
#                     plays); without it: N test patterns
#   --size WxH        each tile's size (default 320x240)
#   --frames N        stop after N frames a source (default: until the end
#                     or Ctrl-C; with --snapshot 30)
#   --snapshot FILE   headless: the last tiled frame into FILE (PNG), the
#                     log beside it (.log, .log.caps); fails unless each
#                     chain's frames stayed in CUDA memory between our
#                     elements
#   --sink ELEMENT    the display (default autovideosink)
# Exit status: 0 at the end of the streams, 1 on an error (the elements'
# own message, a missing GPU included), 2 on bad arguments.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"

bad () {
  echo "multicam.sh: $*" >&2
  usage
}

n=9 what=edges input='' size=320x240 frames='' snapshot='' sink=autovideosink
while [ $# -gt 0 ]; do
  case $1 in
    edges|skeleton) what=$1;;
    --size) [ -n "${2:-}" ] || bad "--size needs a value"; size=$2; shift;;
    --frames) [ -n "${2:-}" ] || bad "--frames needs a value"; frames=$2; shift;;
    --snapshot) [ -n "${2:-}" ] || bad "--snapshot needs a value"; snapshot=$2; shift;;
    --sink) [ -n "${2:-}" ] || bad "--sink needs a value"; sink=$2; shift;;
    -h|--help) usage 0;;
    -*) bad "unknown option $1";;
    *[!0-9]*)
      [ -z "$input" ] || bad "two inputs"
      input=$1;;
    *) n=$1;;
  esac
  shift
done
[ "$n" -ge 1 ] && [ "$n" -le 64 ] || bad "N is 1 to 64"
width=${size%%x*} height=${size#*x}
case $size,$width,$height in
  *x*,[1-9]*,[1-9]*) ;;
  *) bad "--size is WxH, e.g. 320x240";;
esac
case $width$height in *[!0-9]*) bad "--size is WxH, e.g. 320x240";; esac
case $frames in *[!0-9]*) bad "--frames is a count";; esac
[ "$frames" != 0 ] || bad "--frames must not be 0"
case $snapshot in
  ''|*.png|*.PNG) ;;
  *) bad "--snapshot writes a PNG (FILE.png)";;
esac
[ -z "$input" ] || [ -r "$input" ] || {
  echo "multicam.sh: cannot read $input" >&2; exit 1; }
[ -z "$snapshot" ] || [ -n "$frames" ] || frames=30

# the tiles, in rows of cols
cols=1
while [ $((cols * cols)) -lt "$n" ]; do cols=$((cols + 1)); done
pipeline="compositor name=comp background=black"
i=0
while [ $i -lt "$n" ]; do
  pipeline="$pipeline sink_$i::xpos=$(( (i % cols) * width ))"
  pipeline="$pipeline sink_$i::ypos=$(( (i / cols) * height ))"
  i=$((i + 1))
done
gpu=''
i=0
while [ $i -lt "$n" ]; do
  if [ -n "$input" ]; then
    src="filesrc location=\"$input\" ! decodebin ! videoconvert ! videoscale
      ! video/x-raw,width=$width,height=$height"
    [ -z "$frames" ] || src="$src ! identity eos-after=$frames"
  else
    live=true
    [ -z "$snapshot" ] || live=false
    src="videotestsrc is-live=$live pattern=$((i % 25))${frames:+ num-buffers=$frames}
      ! video/x-raw,format=RGBA,width=$width,height=$height,framerate=30/1"
  fi
  case $what in
    edges) chain="cudagray name=gray$i ! cudasobel name=sobel$i"
      [ $i -gt 0 ] || gpu="gray0";;
    skeleton) chain="cudagray name=gray$i ! cudaotsu name=otsu$i
        ! cudathin name=thin$i"
      [ $i -gt 0 ] || gpu="gray0 otsu0";;
  esac
  pipeline="$pipeline $src ! $chain ! videoconvert ! comp.sink_$i"
  i=$((i + 1))
done

if [ -z "$snapshot" ]; then
  [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$sink" != autovideosink ] || {
    echo "multicam.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset):" \
      "--snapshot FILE.png runs headless, --sink names another sink" >&2
    exit 1
  }
  # shellcheck disable=SC2086 # the pipeline is a gst-launch word list
  eval exec gst-launch-1.0 -e $pipeline comp. ! videoconvert ! $sink
fi

mkdir -p "$(dirname "$snapshot")"
log=${snapshot%.*}.log
shots=$(mktemp -d)
trap 'rm -rf "$shots"' EXIT
# every tiled frame encoded, the previous one deleted: the last one stays
# shellcheck disable=SC2086
eval launch "\"$log\"" $pipeline comp. ! videoconvert \
  ! video/x-raw,format=RGB ! pngenc \
  ! multifilesink location="$shots/%06d.png" max-files=1
last=$(ls "$shots"/*.png 2> /dev/null | tail -1)
[ -n "$last" ] || { echo "multicam.sh: no frame came out (log: $log)" >&2; exit 1; }
mv "$last" "$snapshot"
# shellcheck disable=SC2086
on_gpu "$log" $gpu
echo "wrote $snapshot ($n sources, $what)"

#!/bin/sh
# Live previews: the skeleton, the edges, the k-means segments, the objects
# (boxes) or the histogram of a video
# painted over the video itself by cudaoverlay, from a test source, a
# camera, a file or a picture, in a window, or headless into a PNG.
#
#   pipelines/preview.sh                          skeleton of a test pattern
#   pipelines/preview.sh edges --camera /dev/video0
#   pipelines/preview.sh segments movie.mp4
#   pipelines/preview.sh blobs --camera /dev/video0
#   pipelines/preview.sh histogram movie.mp4
#   pipelines/preview.sh skeleton movie.mp4 --snapshot shot.png
#
# The source is teed: one branch goes straight to cudaoverlay's video pad,
# the other through the segmentation chain to its mask pad.  Frames stay
# in CUDA memory through the chain and into cudaoverlay (from the decoder
# on, where an NVDEC decoder plays the file); only the display, or the PNG
# encoder, takes them back to the host.
#
# Options:
#   skeleton|edges|segments|blobs|histogram  what to paint (default
#                     skeleton):
#       skeleton: cudagray ! cudasmooth ! cudaotsu ! cudathin, in red
#       edges:    cudagray ! cudasobel, in green, edge strength as alpha
#       segments: cudakmeans output=labels, one colour a region, half seen
#       blobs:    cudagray ! cudasmooth ! cudaotsu ! cudablobs min-area=64,
#                 a box around each object (its metadata), in red
#       histogram: cudahistogram scale=log, the luma's histogram (256x128)
#                 in the top left corner, 0.8 seen
#   INPUT             a video or a picture (anything decodebin plays);
#                     without INPUT or --camera: videotestsrc
#   --camera DEVICE   a V4L2 camera (raw or MJPEG), e.g. /dev/video0
#   --pattern NAME    the test source's pattern (default: one per demo)
#   --size WxH        the test source's or camera's size (default 1280x720
#                     for the test source; a camera's own otherwise).  A
#                     file or picture is scaled to it on the CPU.
#   --frames N        stop after N frames (default: until the end, or
#                     Ctrl-C; with --snapshot 60, or 1 for a picture)
#   --snapshot FILE   headless: the last frame into FILE (PNG), the log
#                     beside it (.log, .log.caps); fails unless the
#                     chain's frames stayed in CUDA memory
#   --alpha A         the paint's opacity, 0..1 (default 1, segments 0.5;
#                     0 shows the video alone)
#   --color 0xRRGGBB  the paint's colour (skeleton and edges)
#   --sink ELEMENT    the display (default autovideosink)
#   --software-decoder  leave decodebin's choice alone (by default NVDEC
#                     decoders are preferred where nvcodec has them)
# Exit status: 0 at the end of the stream, 1 on an error (the elements'
# own message, a missing GPU included), 2 on bad arguments.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"

die () {
  echo "preview.sh: $*" >&2
  exit 1
}
need () {  # option, value
  [ -n "$2" ] || { echo "preview.sh: $1 needs a value" >&2; usage; }
}

what=skeleton input='' camera='' pattern='' size='' frames='' snapshot=''
sink=autovideosink software='' alpha='' color=''
while [ $# -gt 0 ]; do
  case $1 in
    skeleton|edges|segments|blobs|histogram) what=$1;;
    --camera) need "$1" "${2:-}"; camera=$2; shift;;
    --pattern) need "$1" "${2:-}"; pattern=$2; shift;;
    --size) need "$1" "${2:-}"; size=$2; shift;;
    --frames) need "$1" "${2:-}"; frames=$2; shift;;
    --snapshot) need "$1" "${2:-}"; snapshot=$2; shift;;
    --alpha) need "$1" "${2:-}"; alpha=$2; shift;;
    --color) need "$1" "${2:-}"; color=$2; shift;;
    --sink) need "$1" "${2:-}"; sink=$2; shift;;
    --software-decoder) software=1;;
    -h|--help) usage 0;;
    -*) echo "preview.sh: unknown option $1" >&2; usage;;
    *)
      [ -z "$input" ] || { echo "preview.sh: two inputs" >&2; usage; }
      input=$1;;
  esac
  shift
done
[ -z "$input" ] || [ -z "$camera" ] || {
  echo "preview.sh: a file or --camera, not both" >&2; usage; }
width='' height=''
if [ -n "$size" ]; then
  case $size in
    *x*) ;;
    *) echo "preview.sh: --size is WxH, e.g. 1280x720" >&2; usage;;
  esac
  width=${size%%x*} height=${size#*x}
  case $width,$height in
    *[!0-9,]*|,*|*,) echo "preview.sh: --size is WxH, e.g. 1280x720" >&2; usage;;
  esac
  if [ "$width" -eq 0 ] || [ "$height" -eq 0 ]; then
    echo "preview.sh: --size must not be 0" >&2
    usage
  fi
fi
case $frames in
  *[!0-9]*) echo "preview.sh: --frames is a count" >&2; usage;;
esac
[ "$frames" != 0 ] || { echo "preview.sh: --frames must not be 0" >&2; usage; }
case $snapshot in
  ''|*.png|*.PNG) ;;
  *) echo "preview.sh: --snapshot writes a PNG (FILE.png)" >&2; usage;;
esac

case $what in
  skeleton)
    chain="cudagray name=gray ! cudasmooth name=smooth method=gaussian ksize=5
      ! cudaotsu name=otsu ! cudathin name=thin"
    paint="mode=mask color=${color:-0xff0000} alpha=${alpha:-1.0}"
    gpu="gray smooth otsu thin"
    scene=pinwheel;;
  edges)
    chain="cudagray name=gray ! cudasobel name=sobel"
    paint="mode=alpha color=${color:-0x00ff00} alpha=${alpha:-1.0}"
    gpu="gray sobel"
    scene=smpte;;
  blobs)
    chain="cudagray name=gray ! cudasmooth name=smooth method=gaussian ksize=5
      ! cudaotsu name=otsu ! cudablobs name=blobs min-area=64"
    paint="mode=boxes line-width=2 color=${color:-0xff0000} alpha=${alpha:-1.0}"
    gpu="gray smooth otsu blobs"
    scene=ball;;
  histogram)
    chain="cudahistogram name=histogram scale=log"
    paint="mode=picture x=16 y=16 alpha=${alpha:-0.8}"
    gpu="histogram"
    scene=smpte;;
  segments)
    chain="cudakmeans name=kmeans k=6 output=labels"
    paint="mode=labels alpha=${alpha:-0.5}"
    gpu="kmeans"
    scene=smpte;;
esac

# The source, up to the raw video the tee gets
picture=
scale=
[ -z "$size" ] || scale="! videoscale ! video/x-raw,width=$width,height=$height"
if [ -n "$camera" ]; then
  [ -e "$camera" ] || die "no camera at $camera (v4l2-ctl --list-devices" \
    "lists them; without --camera a test pattern plays)"
  src="v4l2src device=$camera ! decodebin ! videoconvert $scale"
elif [ -n "$input" ]; then
  [ -r "$input" ] || die "cannot read $input"
  case $(echo "$input" | tr '[:upper:]' '[:lower:]') in
    *.png|*.jpg|*.jpeg|*.bmp|*.pnm|*.ppm|*.pgm) picture=1;;
  esac
  # decodebin picks a decoder by rank; NVDEC's come below the software
  # ones (avdec_h264 is primary), and they are what keeps decoded frames
  # in CUDA memory.  videoconvert passes CUDA memory through untouched.
  if [ -z "$software" ]; then
    ranks=
    for d in nvh264dec nvh264sldec nvh265dec nvh265sldec nvvp8dec nvvp8sldec \
        nvvp9dec nvvp9sldec nvav1dec nvmpegvideodec \
        nvmpeg2videodec nvmpeg4videodec nvjpegdec; do
      ranks=${ranks:+$ranks,}$d:MAX
    done
    GST_PLUGIN_FEATURE_RANK=${GST_PLUGIN_FEATURE_RANK:+$GST_PLUGIN_FEATURE_RANK,}$ranks
    export GST_PLUGIN_FEATURE_RANK
  fi
  src="filesrc location=\"$input\" ! decodebin ! videoconvert $scale"
else
  [ -n "$width" ] || { width=1280; height=720; }
  live=true
  [ -z "$snapshot" ] || live=false
  src="videotestsrc is-live=$live pattern=${pattern:-$scene}
    ! video/x-raw,width=$width,height=$height,framerate=30/1"
fi
[ -z "$pattern" ] || [ -z "$input$camera" ] ||
  echo "preview.sh: --pattern is for the test source; ignored" >&2
if [ -n "$picture" ]; then
  # a still picture is one frame: repeated for a window, once for a PNG
  if [ -z "$frames" ]; then
    frames=-1
    [ -z "$snapshot" ] || frames=1
  fi
  src="$src ! imagefreeze num-buffers=$frames"
elif [ -n "$snapshot" ] || [ -n "$frames" ]; then
  src="$src ! identity eos-after=${frames:-60}"
fi

pipeline="$src ! tee name=t
  t. ! queue ! $chain ! o.mask
  t. ! queue ! cudaoverlay name=o $paint ! videoconvert"

if [ -z "$snapshot" ]; then
  # autovideosink can crash where no display exists
  [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$sink" != autovideosink ] ||
    die "no display (DISPLAY and WAYLAND_DISPLAY are unset): --snapshot" \
      "FILE.png runs headless, --sink names another sink (kmssink)"
  # -e: Ctrl-C ends the stream with EOS, so the pipeline closes cleanly
  # shellcheck disable=SC2086 # the pipeline is a gst-launch word list
  eval exec gst-launch-1.0 -e $pipeline ! $sink
fi

mkdir -p "$(dirname "$snapshot")"
log=${snapshot%.*}.log
shots=$(mktemp -d)
trap 'rm -rf "$shots"' EXIT
# every frame encoded, the previous one deleted: the last one stays
# shellcheck disable=SC2086
eval launch "\"$log\"" $pipeline ! video/x-raw,format=RGB ! pngenc \
  ! multifilesink location="$shots/%06d.png" max-files=1
last=$(ls "$shots"/*.png 2> /dev/null | tail -1)
[ -n "$last" ] || die "no frame came out (log: $log)"
mv "$last" "$snapshot"
# the decoder (from gst-launch -v's caps lines: best effort), and where
# the chain's first element found the frames
dec=$(grep -o '/[A-Za-z0-9]*:[a-z0-9]*dec[0-9]*\.GstPad:src: caps = [^,]*' \
  "$log" | sed 's|^/[^:]*:\([^.]*\)\.GstPad:src: caps = \(.*\)|\1 \2|' |
  head -1)
first=${gpu%% *}
from=$(grep -o "<$first> [^ ]* [a-zA-Z]* memory" "$log.caps" | head -1 |
  sed 's/.* \([a-zA-Z]*\) memory$/\1/')
echo "decoder: ${dec:-none seen}; $first took ${from:-no} memory"
case $dec in
  nv*)  # NVDEC: CUDA memory from the decoder on
    [ "$from" = CUDA ] || die "$dec, but $first took $from memory";;
esac
# shellcheck disable=SC2086
on_gpu "$log" $gpu
echo "wrote $snapshot"

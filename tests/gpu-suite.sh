#!/bin/bash
# The whole suite, the example pipelines, a compute-sanitizer pass and the
# benchmark, on a GPU host that has no GStreamer: run from the repository
# root with a build dir made by `meson setup build` and a bundle made by
#   ../shared/tools/gpu-bundle .gpu-bundle build/gst/libgstcudaimgproc.so \
#       $B/tests/test_* $B/bench/cudaimgproc-bench*
# SKIP_BENCH=1: the tests only; BENCH_ONLY=1: the benchmark only (a device
# call is limited to 10 minutes); FROM=name: the tests from that one on
# (the rest of a run that a slower host cut short); ONLY=regex: the tests
# whose names match (ONLY='sobel|opencv' after a change to one kernel);
# EXCEPT=regex: not those whose names match.
# Each result goes to $OUT (or ./out)/results.txt as it comes, the logs to
# out/logs and, packed after each test, to $OUT/logs.tgz (the device tool
# brings back at most 8 files from $OUT, and a call cut short keeps what
# was packed).  Prints "N passed, N failed, N skipped".
set -u
# BUILD_DIR: a build made for the device only (-Dcuda-archs=90) is smaller
B=${BUILD_DIR:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
out=${OUT:-$root/out}
logs=$root/out/logs
mkdir -p "$out" "$logs"
# GPU_BUNDLE: another runtime (scripts/device-bundle126.sh: GStreamer 1.26)
source "${GPU_BUNDLE:-.gpu-bundle}/env.sh"
# The driver's own folder: nvcodec dlopens libnvcuvid / libnvidia-encode.
[ -d /usr/local/nvidia/lib64 ] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64
export GST_PLUGIN_PATH_1_0=$root/$B/gst GST_PLUGIN_PATH=$root/$B/gst
export GST_REGISTRY=/tmp/cudaimgproc-registry.bin CK_DEFAULT_TIMEOUT=600
nvidia-smi -L
pass=0 fail=0 skip=0
rm -f "$out/results.txt" "$out/filtered.txt" "$out/logs.tgz" "$logs"/*.log
from=${FROM:-}
# result CODE NAME [SECONDS]: a line of results.txt (the seconds, for
# planning which tests share a device call)
result() {
  echo "$1 $2${3:+ ${3}s}" >> "$out/results.txt"
  case $1 in
    0) pass=$((pass + 1)); echo "PASS $2";;
    77) skip=$((skip + 1)); echo "SKIP $2";;
    *) fail=$((fail + 1)); echo "FAIL $2 (exit $1)";;
  esac
}
run() {
  local name=$1; shift
  [ "$name" = "$from" ] && from=
  [ -n "$from" ] && return
  # left to another run: named in filtered.txt (scripts/device-suite.sh
  # checks that some group ran each)
  if { [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]]; } ||
      { [ -n "${EXCEPT:-}" ] && [[ $name =~ $EXCEPT ]]; }; then
    echo "$name" >> "$out/filtered.txt"
    return
  fi
  # a test that fails unforked can leave its pipeline running and hang
  local t0=$SECONDS
  timeout -k 10 "${TEST_TIMEOUT:-900}" "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  tail -3 "$logs/$name.log"; result $rc "$name" $((SECONDS - t0))
  tar czf "$out/logs.tgz" -C "$logs" .
}
if [ -z "${BENCH_ONLY:-}" ]; then
run reference $B/tests/test_reference tests/data/otsu_golden.txt \
  tests/data/sobel_golden.txt tests/data/thin_golden.txt \
  tests/data/smooth_golden.txt
run elements env CUDA_VISIBLE_DEVICES= GST_REGISTRY=/tmp/nogpu-registry.bin \
  $B/tests/test_elements
run gray-gpu $B/tests/test_gray_gpu
run transfer-gpu $B/tests/test_transfer_gpu
run chain-gpu $B/tests/test_chain_gpu
# the same chains with the kernel, not the driver, writing the words the
# host waits on (the fallback where stream memory operations are missing)
run chain-hostword-gpu env CUDAIMGPROC_HOSTWORD_KERNEL=1 $B/tests/test_chain_gpu
# every frame's copies on the kernels' stream, as with many pipelines in
# the process (gstcudaimgtransfer.c), however few the tests run
run transfer-onstream-gpu env CUDAIMGPROC_COPIES_ON_STREAM_FROM=0 \
  $B/tests/test_transfer_gpu
run chain-onstream-gpu env CUDAIMGPROC_COPIES_ON_STREAM_FROM=0 \
  $B/tests/test_chain_gpu
run replay-gpu $B/tests/test_replay_gpu
run otsu-gpu $B/tests/test_otsu_gpu tests/data/otsu_golden.txt
run sobel-gpu $B/tests/test_sobel_gpu
run smooth-gpu $B/tests/test_smooth_gpu
run thin-gpu $B/tests/test_thin_gpu
run thin3d-gpu $B/tests/test_thin3d_gpu
run blobs-gpu $B/tests/test_blobs_gpu tests/data/label_golden.txt
run histogram-gpu $B/tests/test_histogram_gpu tests/data/otsu_golden.txt
run cli-gpu bash tests/cli.sh $B/tools/cudaimgproc-thin3d gpu
# in two halves (146-232 s each on H100 hosts, 2026-11-27), which
# scripts/device-suite.sh runs side by side: whole, it ran past a 450 s
# limit beside the other groups (most of it the CPU references); one list
# makes both, so tests added later go to the second half
kmeans_first=test_kernel_vs_reference,test_degenerate
run kmeans-gpu env GST_CHECKS=$kmeans_first $B/tests/test_kmeans_gpu
run kmeans-more-gpu env GST_CHECKS_IGNORE=$kmeans_first \
  $B/tests/test_kmeans_gpu
run overlay-gpu $B/tests/test_overlay_gpu
run storm-gpu $B/tests/test_storm_gpu
run live-gpu $B/tests/test_live_gpu
run oom-gpu $B/tests/test_oom_gpu
run renego-gpu $B/tests/test_renego_gpu
# 256 pipelines in one process on the shared context; teardowns while
# others stream (reads the device-wide GPU memory: run alone)
run streams-gpu $B/tests/test_streams_gpu
# two GPUs (skips, saying so, on a host with one)
run multigpu-gpu $B/tests/test_multigpu_gpu
# a million frames at 640x480, ten thousand at 4K: about two minutes (115 s
# on an H100, 2026-11-27)
run soak-gpu $B/tests/test_soak_gpu
grep -s "warm start" "$logs/kmeans-more-gpu.log"
grep -sE "^[0-9]+x[0-9]+ pattern" "$logs/thin-gpu.log"
grep -sE "^[0-9]+x[0-9]+x[0-9]+ kind" "$logs/thin3d-gpu.log"
run inspect gst-inspect-1.0 cudaimgproc
run pipeline-testsrc pipelines/testsrc.sh
if gst-inspect-1.0 cudaupload > /dev/null 2>&1; then
  run pipeline-upload pipelines/upload.sh
else
  echo "nvcodec registered no cudaupload here; its libraries:"
  ls /usr/lib/x86_64-linux-gnu/libnvcuvid* /usr/lib/x86_64-linux-gnu/libnvidia-encode* \
    /usr/local/nvidia/lib64/libnvcuvid* /usr/local/nvidia/lib64/libnvidia-encode* 2>&1 | head -4
  [ -z "$from" ] && [[ pipeline-upload =~ ${ONLY:-.} ]] &&
    result 77 "pipeline-upload (no cudaupload on this host)"
fi
run pipeline-image pipelines/image.sh data/astronaut.png out/astronaut-gray.png
run pipeline-otsu pipelines/otsu.sh data/astronaut.png out/astronaut-otsu.png
run pipeline-sobel pipelines/sobel.sh data/astronaut.png out/astronaut-sobel.png
run pipeline-thin pipelines/thin.sh data/astronaut.png out/astronaut-thin.png
cat "$logs/pipeline-thin.log" 2>/dev/null
run pipeline-thin3d pipelines/thin3d.sh
cat "$logs/pipeline-thin3d.log" 2>/dev/null
# cudasmooth: the chain, then each method on a noisy photograph (the
# before/after pictures of docs/elements.md), and the skeleton of the noisy
# photograph without smoothing and with it
run pipeline-smooth pipelines/smooth.sh data/astronaut.png \
  out/astronaut-smooth-thin.png
noisy=docs/img/smooth-noisy.png
run pipeline-smooth-methods sh -c "
  pipelines/smooth.sh $noisy out/smooth/triangular.png 'method=triangular' &&
  pipelines/smooth.sh $noisy out/smooth/box7.png 'method=box ksize=7' &&
  pipelines/smooth.sh $noisy out/smooth/gaussian5.png 'method=gaussian ksize=5' &&
  pipelines/smooth.sh $noisy out/smooth/median5.png 'method=median ksize=5' &&
  pipelines/thin.sh $noisy out/smooth/noisy-thin.png &&
  pipelines/smooth.sh $noisy out/smooth/noisy-smooth-thin.png"
tar czf "$out/smooth-img.tgz" -C out smooth astronaut-smooth-thin.png \
  2>/dev/null
for what in skeleton edges segments; do
  run pipeline-overlay-$what pipelines/overlay.sh data/astronaut.png \
    out/astronaut-overlay-$what.png $what
done
run pipeline-kmeans pipelines/kmeans.sh data/astronaut.png \
  out/astronaut-kmeans.png
# the photograph's histogram, and the same frame darkened (cudagray
# scale=0.6): no lit column right of level 153's, where the photograph has
# some
run pipeline-histogram sh -c "
  pipelines/histogram.sh data/astronaut.png out/astronaut-histogram.png &&
  pipelines/histogram.sh data/astronaut.png out/astronaut-dark-histogram.png 0.6 &&
  python3 -c \"
import cv2, sys
def right(p):
    a = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
    return max(x for x in range(a.shape[1]) if a[:, x].any())
full = right('out/astronaut-histogram.png')
dark = right('out/astronaut-dark-histogram.png')
edge = (153 + 1) * 512 // 256
print('rightmost lit column: photograph', full, 'darkened', dark, 'level 153 ends at', edge - 1)
sys.exit(0 if dark < edge <= full else 1)
\""
run pipeline-thin3d-picture python3 tests/project_volume.py \
  out/thin3d-slices out/thin3d out/thin3d-projection.png
# The live demos headless (pipelines/preview.sh --snapshot): each demo on
# the test source and on a file, an H.264 clip of the photograph played by
# decodebin (NVDEC preferred where this host has it, frames then in CUDA
# memory from the decoder on; once more with the software decoder).  Each is run again with --alpha 0, which must give the
# video alone; the painted frame must differ from it on a share of pixels
# that fits the demo (thin lines, edges, every region).
mkdir -p out/demo
rm -f out/demo/*
gst-launch-1.0 -q filesrc location=data/astronaut.png ! pngdec \
  ! imagefreeze num-buffers=30 ! videoconvert \
  ! video/x-raw,format=I420,framerate=30/1 ! openh264enc bitrate=4000000 \
  ! h264parse ! mp4mux ! filesink location=out/demo/astronaut.mp4 ||
  echo "could not encode the test clip (openh264enc)"
# NVDEC's frames straight into cudagray equal the same stream decoded in
# software: under GStreamer 1.24+ nvh264dec leaves its copy pending on its
# memory's stream, which our stream must wait for (gstcudaimgsync.c)
if gst-inspect-1.0 nvh264dec > /dev/null 2>&1; then
  run pipeline-nvdec sh -c "for d in nvh264dec openh264dec; do
      gst-launch-1.0 -q filesrc location=out/demo/astronaut.mp4 ! parsebin \
        ! \$d ! cudagray ! video/x-raw,format=GRAY8 \
        ! filesink location=out/demo/\$d.gray || exit 1
    done
    cmp out/demo/nvh264dec.gray out/demo/openh264dec.gray &&
      test -s out/demo/nvh264dec.gray && echo 'NVDEC = software, bit for bit'"
else
  [ -z "$from" ] && [[ pipeline-nvdec =~ ${ONLY:-.} ]] &&
    result 77 "pipeline-nvdec (no nvh264dec on this host)"
fi
demo () {  # name, what, least and most share painted, preview.sh args
  local name=$1 what=$2 lo=$3 hi=$4
  shift 4
  run "demo-$name" sh -c "pipelines/preview.sh $what $* \
      --snapshot out/demo/$name.png &&
    pipelines/preview.sh $what $* --alpha 0 \
      --snapshot out/demo/$name-plain.png &&
    python3 tests/painted.py out/demo/$name.png out/demo/$name-plain.png \
      $lo $hi"
}
demo testsrc-skeleton skeleton 0.001 0.2 --size 640x360
demo testsrc-edges edges 0.005 0.9 --size 640x360
demo testsrc-segments segments 0.3 1 --size 640x360
demo testsrc-blobs blobs 0.0005 0.2 --size 640x360
demo testsrc-histogram histogram 0.01 0.2 --size 640x360
demo file-skeleton skeleton 0.001 0.2 out/demo/astronaut.mp4
demo file-edges edges 0.01 0.95 out/demo/astronaut.mp4
demo file-segments segments 0.3 1 out/demo/astronaut.mp4
demo file-blobs blobs 0.001 0.3 out/demo/astronaut.mp4
demo file-histogram histogram 0.01 0.2 out/demo/astronaut.mp4
# the software decoder: both NVDEC H.264 decoders ranked out (they
# outrank openh264dec)
GST_PLUGIN_FEATURE_RANK=nvh264dec:NONE,nvh264sldec:NONE \
  demo file-software skeleton 0.001 0.2 out/demo/astronaut.mp4 \
  --software-decoder
grep -h '^decoder:\|painted' "$logs"/demo-*.log 2>/dev/null
# one picture per element and per demo, for docs/img
(cd out && rm -rf gallery && mkdir gallery &&
  for f in astronaut-gray astronaut-otsu astronaut-sobel astronaut-thin \
      astronaut-kmeans thin3d-projection astronaut-overlay-skeleton \
      astronaut-overlay-edges astronaut-overlay-segments \
      astronaut-histogram astronaut-histogram-gray \
      astronaut-dark-histogram astronaut-dark-histogram-gray; do
    cp "$f.png" gallery/ 2>/dev/null
  done
  cp demo/testsrc-*[a-z].png demo/file-*[a-z].png gallery/ 2>/dev/null
  rm -f gallery/*-plain.png
  tar czf "$out/gallery.tgz" gallery)
# The C example for real: 30 test frames, a threshold and a thinning line
# printed for each, the last skeleton written (the Python example needs
# PyGObject, which this host lacks; tests/examples.sh runs both on the CPU
# machine, where they must stop with the no-GPU error)
run example-c sh -c "$B/examples/cudaimgproc-skeleton --frames 30 \
    --output out/example-skeleton.png > out/example.txt && cat out/example.txt &&
  test -s out/example-skeleton.png &&
  [ \$(grep -c 'otsu threshold' out/example.txt) -eq 30 ] &&
  [ \$(grep -c 'thinning:' out/example.txt) -eq 30 ]"
# many cameras in one process: 32 pipelines, one context between them
run example-multicam sh -c "$B/examples/cudaimgproc-multicam --streams 32 \
    --frames 60 > out/multicam.txt && tail -2 out/multicam.txt &&
  grep -q 'CUDA contexts used: 1 ' out/multicam.txt &&
  [ \$(grep -c ': 60 frames' out/multicam.txt) -eq 32 ]"
run demo-multicam pipelines/multicam.sh 9 edges --snapshot out/demo/multicam.png
# sanitize TOOL NAME VAR=CHECKS TEST [ARGS]: one compute-sanitizer run of
# a test program, its checks chosen by GST_CHECKS or GST_CHECKS_IGNORE;
# memcheck reports leaks too
sanitize() {
  local tool=$1 name=$2 checks=$3; shift 3
  local leaks=
  [ "$tool" = memcheck ] && leaks="--leak-check full"
  run "$name" env "$checks" compute-sanitizer --tool "$tool" \
    --error-exitcode 3 $leaks "$@"
}
if command -v compute-sanitizer >/dev/null; then
  # The out-of-memory test's failing allocations are API errors by design.
  sanitize memcheck memcheck GST_CHECKS_IGNORE=test_out_of_memory \
    $B/tests/test_gray_gpu
  sanitize racecheck racecheck GST_CHECKS_IGNORE=test_out_of_memory \
    $B/tests/test_gray_gpu
  # uploads, downloads and their threads; the pipelines' encoders are slow
  # under the sanitizer
  transfer=test_pools_page_locked,test_register_returning_memory
  transfer=$transfer,test_order_and_eos,test_flush_and_drain
  sanitize memcheck memcheck-transfer GST_CHECKS=$transfer \
    $B/tests/test_transfer_gpu
  sanitize synccheck synccheck-transfer GST_CHECKS=$transfer \
    $B/tests/test_transfer_gpu
  # the same with every copy on the kernels' stream
  CUDAIMGPROC_COPIES_ON_STREAM_FROM=0 sanitize memcheck \
    memcheck-transfer-onstream GST_CHECKS=$transfer $B/tests/test_transfer_gpu
  # state, seek, EOS and teardown storms on every element, 3 cycles each
  # (20 each ran past 500 s on an H200: the storm pipeline holds every
  # element, cudakmeans and cudathin's many launches among them)
  STORM_CYCLES=3 sanitize memcheck memcheck-storm \
    GST_CHECKS_IGNORE=test_play_null_cycles $B/tests/test_storm_gpu
  # 8K frames and 55 golden frames are slow under the sanitizer: the rest
  otsu=test_frames_and_sizes,test_messages_async,test_one_launch_frames
  more=test_properties,test_colour_input,test_binarize_every_threshold
  sanitize memcheck memcheck-otsu GST_CHECKS=$otsu,$more \
    $B/tests/test_otsu_gpu tests/data/otsu_golden.txt
  sanitize memcheck memcheck-sobel \
    GST_CHECKS=test_element,test_colour_and_chain $B/tests/test_sobel_gpu
  sanitize racecheck racecheck-sobel GST_CHECKS=test_element \
    $B/tests/test_sobel_gpu
  smooth=test_kernel_refuses,test_kernel_strips,test_element
  sanitize memcheck memcheck-smooth \
    GST_CHECKS=$smooth,test_element_invalid_pair,test_chain_and_resize \
    $B/tests/test_smooth_gpu
  sanitize racecheck racecheck-smooth \
    GST_CHECKS=test_kernel_strips,test_chain_and_resize \
    $B/tests/test_smooth_gpu
  sanitize synccheck synccheck-smooth GST_CHECKS=test_kernel_strips \
    $B/tests/test_smooth_gpu
  thin=test_kernel_max_iterations
  sanitize memcheck memcheck-thin \
    GST_CHECKS=$thin,test_element,test_messages_and_chain $B/tests/test_thin_gpu
  sanitize racecheck racecheck-thin GST_CHECKS=$thin,test_kernel_idempotent \
    $B/tests/test_thin_gpu
  sanitize synccheck synccheck-thin GST_CHECKS=$thin $B/tests/test_thin_gpu
  thin3d=test_kernel_refuses,test_kernel_in_place_and_max_rounds
  sanitize memcheck memcheck-thin3d \
    GST_CHECKS=$thin3d,test_kernel_idempotent $B/tests/test_thin3d_gpu
  sanitize racecheck racecheck-thin3d GST_CHECKS=test_kernel_idempotent \
    $B/tests/test_thin3d_gpu
  sanitize synccheck synccheck-thin3d GST_CHECKS=test_kernel_idempotent \
    $B/tests/test_thin3d_gpu
  blobs=test_refuses,test_structured,test_element_playing
  sanitize memcheck memcheck-blobs GST_CHECKS=$blobs $B/tests/test_blobs_gpu
  sanitize synccheck synccheck-blobs GST_CHECKS=$blobs $B/tests/test_blobs_gpu
  # the labelling's shared-memory union-find under racecheck (its own
  # entry, not inside racecheck-live, so that a hazard names it)
  sanitize racecheck racecheck-blobs GST_CHECKS=test_structured \
    $B/tests/test_blobs_gpu
  sanitize memcheck memcheck-histogram \
    GST_CHECKS=test_picture,test_frame_picture,test_element \
    $B/tests/test_histogram_gpu tests/data/otsu_golden.txt
  kmeans=test_degenerate,test_one_block_an_sm
  sanitize memcheck memcheck-kmeans GST_CHECKS=$kmeans,test_element \
    $B/tests/test_kmeans_gpu
  sanitize racecheck racecheck-kmeans GST_CHECKS=$kmeans \
    $B/tests/test_kmeans_gpu
  sanitize synccheck synccheck-kmeans GST_CHECKS=$kmeans \
    $B/tests/test_kmeans_gpu
  overlay=test_kernel,test_kernel_refuses,test_no_mask_and_eos,test_resize
  sanitize memcheck memcheck-overlay GST_CHECKS=$overlay,test_chain \
    $B/tests/test_overlay_gpu
  sanitize racecheck racecheck-overlay GST_CHECKS=$overlay \
    $B/tests/test_overlay_gpu
  # properties changed from another thread while frames flow
  sanitize memcheck memcheck-live LIVE_FRAMES=200 $B/tests/test_live_gpu
  sanitize racecheck racecheck-live LIVE_FRAMES=120 \
    env GST_CHECKS_IGNORE=test_live_blobs $B/tests/test_live_gpu
  # every allocation failed in turn: the error paths free what they made
  sanitize memcheck memcheck-oom GST_CHECKS=test_every_allocation \
    $B/tests/test_oom_gpu
  # the shared context, many pipelines' threads and fences at once (reads
  # the device-wide GPU memory: scripts/device-suite.sh runs it alone)
  STREAMS_ROUNDS=6 sanitize memcheck memcheck-streams \
    GST_CHECKS_IGNORE=test_many_pipelines,test_registered_under_load \
    $B/tests/test_streams_gpu
  # caps changes of every kind on every element
  sanitize memcheck memcheck-renego \
    GST_CHECKS=test_renegotiate,test_renegotiate_overlay \
    $B/tests/test_renego_gpu
  sanitize racecheck racecheck-otsu GST_CHECKS=$otsu \
    $B/tests/test_otsu_gpu tests/data/otsu_golden.txt
fi
run opencv python3 tests/crosscheck_opencv.py
cat "$logs/opencv.log" 2>/dev/null
echo "suite: $pass passed, $fail failed, $skip skipped"
fi
[ -n "${SKIP_BENCH:-}" ] && exit $((fail > 0))
gst-launch-1.0 -q filesrc location=data/astronaut.png ! pngdec ! videoconvert \
  ! video/x-raw,format=RGB ! filesink location=out/astronaut.rgb
# The benchmark: kernels against floor and peers, CPU peers, whole
# pipelines; then docs/performance.md and its plot are rewritten from it.
# The whole of it outgrew a device call's 10 minutes: BENCH_PART=kernels
# (cudaimgproc-bench and the peers that read the frames it dumps), cpu
# (OpenCV on the host's CPU) or pipelines, each in a call of its own,
# leaves its bench.md and bench.json in $OUT and stops; then, where the
# three calls' files came back (one folder each), bench/report.py writes
# the doc from all of them:
#   cat */bench.json > all.json && python3 bench/report.py --log */bench.md \
#     --json all.json --doc docs/performance.md \
#     --plot docs/img/performance.png --command "..."
part=${BENCH_PART:-all}
case $part in
  all | kernels | cpu | peers | pipelines) ;;
  *) echo "BENCH_PART=$part: kernels, cpu, peers or pipelines" >&2; exit 2 ;;
esac
bench_part () { [ "$part" = all ] || [ "$part" = "$1" ]; }
json=$out/bench.json
rm -f "$json" "$out/bench.md" /tmp/thin3d-lee94-ms.txt
export BENCH_JSON=$json
if bench_part kernels; then
  $B/bench/cudaimgproc-bench --photo out/astronaut.rgb 512 512 --dump /tmp \
    --json "$json" "$@" | tee -a "$out/bench.md"
  python3 bench/thin_peers.py /tmp | tee -a "$out/bench.md"
  python3 bench/kmeans_peers.py /tmp | tee -a "$out/bench.md"
  python3 bench/thin3d_peers.py /tmp | tee -a "$out/bench.md"
fi
if bench_part cpu; then
  python3 bench/cpu_peers.py out/astronaut.rgb 512 512 | tee -a "$out/bench.md"
fi
# the GPU libraries (CuPy is on the hosts; cuCIM and CV-CUDA where their
# wheels were carried and installed, docs/gpu-host.md): BENCH_PART=peers
if bench_part peers; then
  python3 bench/gpu_peers.py out/astronaut.rgb 512 512 --ours "$json" |
    tee -a "$out/bench.md"
fi
if bench_part pipelines; then
  $B/bench/cudaimgproc-pipeline-bench --photo out/astronaut.rgb 512 512 \
    --json "$json" | tee -a "$out/bench.md"
fi
if [ "$part" != all ]; then
  echo "benchmark part $part: $out/bench.md, $out/bench.json"
  exit $((fail > 0))
fi
mkdir -p docs/img
python3 bench/report.py --log "$out/bench.md" --json "$json" \
  --doc docs/performance.md --plot docs/img/performance.png \
  --command "BENCH_ONLY=1 BUILD_DIR=$B bash tests/gpu-suite.sh" \
  | tee "$out/summary.md"
cp docs/performance.md docs/img/performance.png "$out/" 2>/dev/null
[ $fail -eq 0 ]

# Sourced by the example pipelines.  launch LOG ARGS...: gst-launch-1.0 -v
# -m ARGS, the output (each link's caps, the elements' messages) in LOG, and
# the whole log shown if the pipeline fails.  on_gpu LOG ELEMENT...: fails
# unless each ELEMENT's output stayed in CUDA memory (it feeds another of
# ours), as a chain of ours must whatever stands at its ends.
launch () {
  log=$1
  shift
  if ! gst-launch-1.0 -v -m "$@" > "$log" 2>&1; then
    cat "$log" >&2
    return 1
  fi
}
on_gpu () {
  log=$1
  shift
  for e in "$@"; do
    if ! grep -qF ":$e.GstPad:src: caps = video/x-raw(memory:CUDAMemory)" \
        "$log"; then
      echo "$e: its output left the GPU:" >&2
      grep -F ":$e.GstPad:src: caps" "$log" >&2
      return 1
    fi
  done
  echo "on the GPU between: $*"
}

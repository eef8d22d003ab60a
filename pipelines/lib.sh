# Sourced by the example pipelines.  launch LOG ARGS...: gst-launch-1.0 -v
# -m ARGS, the output (each link's caps, the elements' messages) in LOG, and
# the whole log shown if the pipeline fails.  on_gpu LOG ELEMENT...: fails
# unless each ELEMENT's output stayed in CUDA memory (it feeds another of
# ours), as a chain of ours must whatever stands at its ends: read from
# the elements' own debug line of what they negotiated, kept in LOG.caps
# (gst-launch -v's caps lines come from property-notify messages, which
# drop or repeat lines when branches negotiate at once; and debug lines
# on stderr can land inside stdout's).  usage [STATUS]: the calling
# script's own "# Options:" comment, down to the line that ends "# own
# message", then exit with STATUS (0: to stdout; else, 2 by default, to
# stderr).
usage () {  # [status]: 2 (bad arguments, to stderr) unless given
  if [ "${1:-2}" = 0 ]; then
    sed -n '/^# Options:/,/^# own message/p' "$0" | sed 's/^# \{0,1\}//'
  else
    sed -n '/^# Options:/,/^# own message/p' "$0" | sed 's/^# \{0,1\}//' >&2
  fi
  exit "${1:-2}"
}
launch () {
  log=$1
  shift
  if ! GST_DEBUG="${GST_DEBUG:+$GST_DEBUG,}cudaimgfilter:4" \
      GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$log.caps" \
      gst-launch-1.0 -v -m "$@" > "$log" 2>&1; then
    cat "$log" >&2
    return 1
  fi
}
on_gpu () {
  log=$1
  shift
  for e in "$@"; do
    if ! grep -q "<$e> .* memory -> [^ ]* CUDA memory" "$log.caps"; then
      echo "$e: its output left the GPU:" >&2
      grep "<$e> .* memory -> " "$log.caps" >&2
      return 1
    fi
  done
  echo "on the GPU between: $*"
}

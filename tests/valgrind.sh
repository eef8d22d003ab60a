#!/bin/sh
# Runs a CPU-side test under valgrind's memcheck: a memory error or a
# definite leak fails it.  GLib's own suppressions, then ours.
command -v valgrind >/dev/null 2>&1 || {
  echo "SKIP: valgrind is not installed"
  exit 77
}
[ -z "${CUDAIMGPROC_SANITIZED:-}" ] || {
  echo "SKIP: a sanitizer build (scripts/sanitize.sh) checks this instead"
  exit 77
}
here=$(dirname "$0")
glib_supp=/usr/share/glib-2.0/valgrind/glib.supp
[ -f "$glib_supp" ] && set -- --suppressions="$glib_supp" "$@"
exec valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
  --error-exitcode=1 --suppressions="$here/valgrind.supp" "$@"

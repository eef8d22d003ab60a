#!/bin/sh
# On the GPU host: bench/kmeans-ab/run.sh PHOTO.rgb ROUNDS "W H K ..." NAME...
# runs each of build-kmeans-ab/NAME in turn, ROUNDS times (30 cold frames
# of 10 iterations a case a run, as bench/kmeans-ab/kmeans_ab.cu times
# them), and prints for each case each build's median over the rounds in
# µs, its ratio to the first build's, each round's median, then whether
# every build gave the same output (hash).
set -e
cd "$(dirname "$0")/../.."
[ $# -ge 4 ] || {
  echo "usage: $0 PHOTO.rgb ROUNDS \"W H K ...\" NAME..." >&2
  exit 2
}
photo=$1 rounds=$2 cases=$3
shift 3
log=$(mktemp)
r=1
while [ $r -le "$rounds" ]; do
  for name in "$@"; do
    # shellcheck disable=SC2086
    build-kmeans-ab/$name "$photo" 512 512 30 10 $cases |
      sed "s/^/$name /" >> "$log"
  done
  r=$((r + 1))
done
awk '
  # the median of the numbers in string s
  function median(s,   v, n, i, j, t) {
    n = split(s, v, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
        t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
      }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  {
    name = $1; c = $2 " " $3; us[c, name] = us[c, name] " " $6
    if (!(c in seen)) { seen[c] = 1; order[++n] = c }
    if (!(name in built)) { built[name] = 1; names[++m] = name }
    if (!((c, name) in hash)) hash[c, name] = $13
    else if (hash[c, name] != $13) hash[c, name] = "differs"
  }
  END {
    for (i = 1; i <= n; i++) {
      c = order[i]; same = 1; first = median(us[c, names[1]])
      for (j = 1; j <= m; j++) {
        md = median(us[c, names[j]])
        printf "%-16s %-10s median %8.1f  %.3fx %s  rounds:%s\n", c,
            names[j], md, md / first, names[1], us[c, names[j]]
        h = hash[c, names[j]]
        if (h == "differs" || h != hash[c, names[1]]) same = 0
      }
      printf "%-16s outputs: %s\n", c, same ? "the same" : "DIFFER"
    }
  }' "$log"
rm -f "$log"

/* cudaimgproc: where a cudakmeans iteration spends its time, by
 * %globaltimer stamps that every block and warp takes in each pass.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built by bench/stamps/build.sh against a copy of kernels/ into which
 * stamp_patch.py has put the stamps (the kernels themselves carry none).
 * Usage: kmeans-stamps PHOTO.rgb PHOTO_W PHOTO_H [WIDTH HEIGHT [K]]: the
 * photo (raw RGB) scaled to WIDTH x HEIGHT (default 1920 x 1080), RGBA,
 * through cip_kmeans with k = K (default 8), cold (k-means++ every frame,
 * 10 iterations, epsilon 0), 25 frames, the first 5 not counted.  Over
 * iterations 2-10 (the first pass also carries the start) it prints, in
 * µs: a warp's pass (its block's pass start to the warp's last task),
 * an SM's pass (its first block's start to its last warp), the frame's
 * (first start to last warp), when the sums were complete at the first
 * and the last block, and when the next pass started; then a warp's mean
 * pass by its block's order on its SM, by its index in its block and by
 * its count of tasks.  Kernels of 4-byte pixels in 16-byte aligned rows.
 */
#define CIP_STAMPS 1
#include "kmeans.cu"
#include "stamps.h"

namespace {

double
pct (std::vector<double> v, double q)
{
  if (v.empty ())
    return 0.0;
  std::sort (v.begin (), v.end ());
  return v[(size_t) (q * (v.size () - 1))];
}

unsigned long long kw[8192][KSTAMP_IT], kb[2048][KSTAMP_IT][2];
unsigned ksm[2048];

}  /* namespace */

int
main (int argc, char **argv)
{
  if (argc < 4 || !load_photo (argv[1], atoi (argv[2]), atoi (argv[3]))) {
    fprintf (stderr, "usage: %s PHOTO.rgb PHOTO_W PHOTO_H [WIDTH HEIGHT "
        "[K]]\n", argv[0]);
    return 2;
  }
  const int w = argc > 5 ? atoi (argv[4]) : 1920;
  const int h = argc > 5 ? atoi (argv[5]) : 1080;
  const int k = argc > 6 ? atoi (argv[6]) : 8;
  uint8_t *img = make_content (w, h, 4), *src, *dst;
  CK (cudaMalloc (&src, (size_t) w * h * 4));
  CK (cudaMalloc (&dst, (size_t) w * h * 4));
  CK (cudaMemcpy (src, img, (size_t) w * h * 4, cudaMemcpyHostToDevice));
  free (img);
  CipKmeans *km;
  CK (cip_kmeans_create (&km, w, h));
  /* RGBA, as the benchmark's frames; cold: k, 10 iterations, epsilon 0,
   * colour only, k-means++ from seed 1, reinit, colour output, 1 attempt */
  const CipKmeansFormat fmt = { CIP_KMEANS_PACKED, 4, 0, 1, 2 };
  CipKmeansPlanes s = { {src}, {w * 4} }, d = { {dst}, {w * 4} };
  const CipKmeansParams p = { k, 10, 0.0f, 0.0f, 0, 1, 1, 0, 1 };
  void *dw, *db;
  CK (cudaGetSymbolAddress (&dw, g_kwarp));
  CK (cudaGetSymbolAddress (&db, g_kblock));

  std::vector<double> wpass, smpass, smtail, frame, rdy0, rdy1, next;
  std::vector<double> by_rank[4], by_warp[32], by_n[64];
  int nb = 0, nw = 0;
  for (int f = 0; f < 25; f++) {
    CK (cudaMemset (dw, 0, sizeof (kw)));
    CK (cudaMemset (db, 0, sizeof (kb)));
    CK (cip_kmeans (km, &fmt, &s, &d, &p, NULL, 0));
    CK (cudaDeviceSynchronize ());
    if (f < 5)
      continue;
    CK (cudaMemcpyFromSymbol (kw, g_kwarp, sizeof (kw)));
    CK (cudaMemcpyFromSymbol (kb, g_kblock, sizeof (kb)));
    CK (cudaMemcpyFromSymbol (ksm, g_ksm, sizeof (ksm)));
    for (nb = 0; nb < 2048 && kb[nb][0][0]; nb++);
    int warps = 0;              /* every warp stamps every pass */
    for (int i = 0; i < 8192; i++)
      warps += kw[i][1] != 0;
    nw = nb ? warps / nb : 0;
    const int tpr = (w + 127) / 128;
    const long long ntask = (long long) tpr * h, nwt = (long long) nb * nw;
    for (int it = 1; it < 10; it++) {
      unsigned long long t0 = ~0ull, last = 0, r0 = ~0ull, r1 = 0, nx = ~0ull;
      for (int b = 0; b < nb; b++) {
        t0 = std::min (t0, kb[b][it][0]);
        r0 = std::min (r0, kb[b][it][1]);
        r1 = std::max (r1, kb[b][it][1]);
        if (it + 1 < 10)
          nx = std::min (nx, kb[b][it + 1][0]);
        int rank = 0;
        for (int o = 0; o < b; o++)
          rank += ksm[o] == ksm[b];
        for (int q = 0; q < nw; q++) {
          const long long gw = (long long) b * nw + q;
          const int n = (int) (ntask * (gw + 1) / nwt - ntask * gw / nwt);
          const double t = (kw[gw][it] - kb[b][it][0]) / 1e3;
          wpass.push_back (t);
          by_rank[std::min (rank, 3)].push_back (t);
          by_warp[q & 31].push_back (t);
          by_n[std::min (n, 63)].push_back (t);
          last = std::max (last, kw[gw][it]);
        }
      }
      frame.push_back ((last - t0) / 1e3);
      rdy0.push_back (((double) r0 - (double) last) / 1e3);
      rdy1.push_back (((double) r1 - (double) last) / 1e3);
      if (it + 1 < 10)
        next.push_back (((double) nx - (double) r0) / 1e3);
      for (int sm = 0; sm < 1024; sm++) {
        unsigned long long st = ~0ull, e = 0;
        double sum = 0;
        int c = 0;
        for (int b = 0; b < nb; b++)
          if (ksm[b] == (unsigned) sm) {
            st = std::min (st, kb[b][it][0]);
            for (int q = 0; q < nw; q++) {
              e = std::max (e, kw[b * nw + q][it]);
              sum += kw[b * nw + q][it];
              c++;
            }
          }
        if (c) {
          smpass.push_back ((e - st) / 1e3);
          smtail.push_back ((e - sum / c) / 1e3);
        }
      }
    }
  }
  printf ("cudakmeans k=%d %dx%d, %d blocks of %d warps (%d threads), "
      "cold, 10 iterations; iterations 2-10 of 20 frames, µs\n", k, w, h,
      nb, nw, nw * 32);
  printf ("a warp's pass: p10 %.2f p50 %.2f p90 %.2f max %.2f\n",
      pct (wpass, .1), pct (wpass, .5), pct (wpass, .9), pct (wpass, 1));
  printf ("an SM's pass: p10 %.2f p50 %.2f p90 %.2f max %.2f; its last warp "
      "after its mean warp end: p50 %.2f p90 %.2f\n", pct (smpass, .1),
      pct (smpass, .5), pct (smpass, .9), pct (smpass, 1), pct (smtail, .5),
      pct (smtail, .9));
  printf ("the frame's last warp after the first start: p50 %.2f; sums "
      "complete after it, first block %.2f, last %.2f; the next pass after "
      "the first block's sums: %.2f\n", pct (frame, .5), pct (rdy0, .5),
      pct (rdy1, .5), pct (next, .5));
  auto mean = [](const std::vector<double> &v) {
    double s = 0;
    for (double x : v)
      s += x;
    return v.empty ()? 0.0 : s / v.size ();
  };
  printf ("a warp's mean pass by its block's order on its SM:");
  for (int r = 0; r < 4; r++)
    if (!by_rank[r].empty ())
      printf (" %d: %.2f", r, mean (by_rank[r]));
  printf ("\nby its index in its block:");
  for (int q = 0; q < nw; q++)
    printf (" %.2f", mean (by_warp[q]));
  printf ("\nby its tasks:");
  for (int n = 0; n < 64; n++)
    if (!by_n[n].empty ())
      printf (" %d: %.2f (%zu warps)", n, mean (by_n[n]),
          by_n[n].size () / 9 / 20);
  printf ("\n");
  cip_kmeans_destroy (km);
  return 0;
}

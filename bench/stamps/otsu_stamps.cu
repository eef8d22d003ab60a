/* cudaimgproc: where the one-launch cudaotsu spends its time, by
 * %globaltimer stamps that every block takes at each stage.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built by bench/stamps/build.sh against a copy of kernels/ into which
 * stamp_patch.py has put the stamps (the kernels themselves carry none).
 * Usage: otsu-stamps PHOTO.rgb PHOTO_W PHOTO_H [WIDTH HEIGHT]: the photo
 * (raw RGB) scaled to WIDTH x HEIGHT (default 3840 x 2160), its luma
 * through cip_otsu_frame 44 times; per stage, the median over the last 41
 * of the time from the first block's start, and for the last launch each
 * SM's last block to finish counting.
 */
#define CIP_STAMPS 1
#include "otsu.cu"
#include "stamps.h"

namespace {

/* stamp slots, as stamp_patch.py numbers them */
const char *const stage_name[] = {
  "block started (last)", "histogram counted (last)",
  "bins merged (last)", "arrived (last)", "last block: histogram taken",
  "last block: threshold chosen", "released (last to see it)",
  "pass done (last)", "last block: certificate scan",
  "last block: certificate barrier 2", "last block: certificate barrier 3",
  "(slot 11: the SM)", "last block: candidate's D (128 bits)",
  "last block: candidate's sigma, bound", "last block: warp merge",
  "last block: certificate done",
  "flag seen: every block arrived, or released",
  "speculative writes issued (last)",
};
constexpr int SLOTS = 18, SM_SLOT = 11;
constexpr int LAST_BLOCK_ONLY = (1 << 4) | (1 << 5) | (1 << 8) | (1 << 9) |
    (1 << 10) | (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15);

double
median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v.empty ()? 0.0 : v[v.size () / 2];
}

/* The groups block @b's warps count, as cip::Share deals them. */
int
block_groups (int b, int grid, long long total)
{
  constexpr int WARPS = cip::HIST_THREADS / 32;
  const long long stride = (long long) WARPS * grid;
  const long long end = total > stride ? total / stride * stride : total;
  const long long left = total - end;
  int n = 0;
  for (int w = 0; w < WARPS; w++) {
    const long long first = (long long) WARPS * b + w;
    for (long long g = first; g < end; g += stride)
      n++;
    const long long j = left ? (first * left + stride - 1) / stride : 0;
    if (left && j < left && j * stride / left == first)
      n++;
  }
  return n;
}

}  /* namespace */

int
main (int argc, char **argv)
{
  if (argc < 4 || !load_photo (argv[1], atoi (argv[2]), atoi (argv[3]))) {
    fprintf (stderr, "usage: %s PHOTO.rgb PHOTO_W PHOTO_H [WIDTH HEIGHT]\n",
        argv[0]);
    return 2;
  }
  const int w = argc > 5 ? atoi (argv[4]) : 3840;
  const int h = argc > 5 ? atoi (argv[5]) : 2160;
  uint8_t *img = make_content (w, h, 1), *src, *dst;
  uint32_t *state;
  CipOtsuResult *res, hres;
  float *ema;
  cudaStream_t s;
  CK (cudaMalloc (&src, (size_t) w * h));
  CK (cudaMalloc (&dst, (size_t) w * h));
  CK (cudaMalloc (&state, CIP_OTSU_STATE_WORDS * 4));
  CK (cudaMemset (state, 0, CIP_OTSU_STATE_WORDS * 4));
  CK (cudaMalloc (&res, sizeof (CipOtsuResult)));
  CK (cudaMalloc (&ema, sizeof (float)));
  CK (cudaMemcpy (src, img, (size_t) w * h, cudaMemcpyHostToDevice));
  CK (cudaStreamCreate (&s));
  void *d_stamps;
  CK (cudaGetSymbolAddress (&d_stamps, cip::g_stamps));

  const CipOtsuParams p = { };
  static unsigned long long st[4096][SLOTS];
  std::vector<std::vector<double>> stage (SLOTS);
  int grid = 0;
  for (int r = 0; r < 44; r++) {
    CK (cudaMemsetAsync (d_stamps, 0, sizeof (st), s));
    CK (cip_otsu_frame (src, w, dst, w, w, h, state,
            state + CIP_OTSU_HIST_WORDS, &p, 0, res, ema, s));
    CK (cudaStreamSynchronize (s));
    CK (cudaMemcpy (st, d_stamps, sizeof (st), cudaMemcpyDeviceToHost));
    if (r < 3)                  /* warm-up */
      continue;
    unsigned long long t0 = ~0ull;
    int last = -1;
    for (grid = 0; grid < 4096 && st[grid][0]; grid++) {
      t0 = std::min (t0, st[grid][0]);
      if (st[grid][4])
        last = grid;
    }
    for (int i = 0; i < SLOTS; i++) {
      unsigned long long t = 0;
      if (i == SM_SLOT)
        continue;
      if (LAST_BLOCK_ONLY & (1 << i)) {
        if (last >= 0 && st[last][i])
          t = st[last][i] - t0;
      } else {
        for (int b = 0; b < grid; b++)
          if (st[b][i])
            t = std::max (t, st[b][i] - t0);
      }
      if (t)
        stage[i].push_back (t / 1e3);
    }
  }
  CK (cudaMemcpy (&hres, res, sizeof (hres), cudaMemcpyDeviceToHost));
  printf ("%dx%d, %d blocks, threshold %u; us from the first block's start, "
      "median of 41 launches:\n", w, h, grid, hres.threshold);
  for (int i = 0; i < SLOTS; i++)
    if (!stage[i].empty ())
      printf ("  %-36s %6.2f\n", stage_name[i], median (stage[i]));

  /* the last launch, by SM: when its last block finished counting */
  const long long total = (long long) ((w + 1023) / 1024) * h;
  unsigned long long t0 = ~0ull;
  for (int b = 0; b < grid; b++)
    t0 = std::min (t0, st[b][0]);
  std::vector<double> done (1024, 0.0);
  std::vector<int> blocks (1024, 0), groups (1024, 0);
  for (int b = 0; b < grid; b++) {
    const int sm = (int) st[b][SM_SLOT] % 1024;
    done[sm] = std::max (done[sm], (st[b][1] - t0) / 1e3);
    blocks[sm]++;
    groups[sm] += block_groups (b, grid, total);
  }
  std::vector<std::pair<double, int>> by_sm;
  for (int sm = 0; sm < 1024; sm++)
    if (blocks[sm])
      by_sm.push_back ({done[sm], sm});
  std::sort (by_sm.begin (), by_sm.end ());
  printf ("SMs by when their last block finished counting (deciles; us, "
      "SM, blocks, groups of 1024 pixels):\n");
  for (int q = 0; q <= 10; q++) {
    const auto &e = by_sm[(by_sm.size () - 1) * q / 10];
    printf ("  %6.2f  SM %3d  %d blocks  %d groups\n", e.first, e.second,
        blocks[e.second], groups[e.second]);
  }

  /* the last launch's blocks last done with the pass */
  int lastb = 0;
  for (int b = 0; b < grid; b++)
    if (st[b][4])
      lastb = b;
  std::vector<std::pair<double, int>> fin;
  for (int b = 0; b < grid; b++)
    fin.push_back ({(st[b][7] - t0) / 1e3, b});
  std::sort (fin.rbegin (), fin.rend ());
  printf ("Blocks last done with the pass (us; the last block %d, SM %d):\n",
      lastb, (int) st[lastb][SM_SLOT]);
  for (int i = 0; i < 8 && i < grid; i++) {
    const int b = fin[i].second;
    const auto at = [&](int slot) {
      return st[b][slot] ? (st[b][slot] - t0) / 1e3 : 0.0;
    };
    printf ("  %6.2f  block %3d  SM %3d%s  flag seen %5.2f  speculated "
        "%5.2f  released %5.2f  %d groups\n", fin[i].first, b,
        (int) st[b][SM_SLOT], st[b][SM_SLOT] == st[lastb][SM_SLOT] ?
        " (the last block's)" : "", at (16), at (17), at (6),
        block_groups (b, grid, total));
  }
  return 0;
}

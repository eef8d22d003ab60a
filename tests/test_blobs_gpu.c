/* cudaimgproc: the connected-component kernels (kernels/blobs.h) against
 * the CPU reference, ref_label, which test_reference checks against
 * OpenCV: labels (OpenCV's numbering), count and statistics, at both
 * connectivities, on the golden frame kinds (discs, dense and sparse
 * noise, rectangles), odd sizes (1x1, 3x2, a row, a column, widths not a
 * multiple of 4), padded pitches, a checkerboard, the empty and the full
 * frame, and a 1080p and an 8K frame.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "blobs.h"

/* Runs the kernels on @mask (w x h, tight) with the pitches given, and
 * compares with ref_label; max_stats as given (0: the number of pixels). */
static void
check_mask (const guint8 * mask, gint w, gint h, gint conn, gint mpad,
    gint lpad, guint32 max_stats, const gchar * what)
{
  const gint mpitch = w + mpad, lpitch = (w + lpad) * 4;
  const gsize n = (gsize) w * h;
  gsize scratch_size = cip_blobs_scratch_size (w, h);
  guint8 *dmask, *hmask;
  gint32 *dlab, *lab, *ref;
  guint32 *dcount, count;
  CipBlobStats *dstats, *stats;
  RefBlob *blobs;
  void *scratch;
  gint n_ref, y, l, bad_x = -1, bad_y = -1, bad_got = 0, bad_l = -1;

  if (!max_stats)
    max_stats = (guint32) n;
  fail_unless (scratch_size > 0, "%s: no scratch size", what);
  hmask = g_malloc0 ((gsize) mpitch * h);
  for (y = 0; y < h; y++)
    memcpy (hmask + (gsize) y * mpitch, mask + (gsize) y * w, w);
  /* the padding holds foreground: the kernels must not read it */
  for (y = 0; y < h; y++)
    memset (hmask + (gsize) y * mpitch + w, 255, mpad);
  CUDA_OK (cudaMalloc ((void **) &dmask, (gsize) mpitch * h));
  CUDA_OK (cudaMalloc ((void **) &dlab, (gsize) lpitch * h));
  CUDA_OK (cudaMalloc ((void **) &dcount, sizeof (guint32)));
  CUDA_OK (cudaMalloc ((void **) &dstats, sizeof (CipBlobStats) *
          ((gsize) max_stats + 1)));
  CUDA_OK (cudaMalloc (&scratch, scratch_size));
  CUDA_OK (cudaMemcpy (dmask, hmask, (gsize) mpitch * h,
          cudaMemcpyHostToDevice));
  CUDA_OK (cip_blobs_label (dmask, mpitch, w, h, conn, dlab, lpitch, dcount,
          dstats, max_stats, scratch, scratch_size, NULL));
  CUDA_OK (cudaDeviceSynchronize ());

  lab = g_malloc ((gsize) lpitch * h);
  ref = g_malloc (sizeof (gint32) * n);
  blobs = g_malloc (sizeof (RefBlob) * (n + 1));
  CUDA_OK (cudaMemcpy (lab, dlab, (gsize) lpitch * h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&count, dcount, sizeof count, cudaMemcpyDeviceToHost));
  n_ref = ref_label (mask, w, w, h, conn, ref, blobs);
  fail_unless_equals_int ((gint) count, n_ref - 1);
  for (y = 0; y < h && bad_x < 0; y++) {
    const gint32 *row = (const gint32 *) ((guint8 *) lab + (gsize) y * lpitch);
    gint x;
    for (x = 0; x < w && bad_x < 0; x++)
      if (row[x] != ref[(gsize) y * w + x]) {
        bad_x = x;
        bad_y = y;
        bad_got = row[x];
      }
  }
  fail_unless (bad_x < 0, "%s: %dx%d %d-connected: label %d at (%d, %d), the "
      "reference's %d", what, w, h, conn, bad_got, bad_x, bad_y,
      bad_x < 0 ? 0 : ref[(gsize) bad_y * w + bad_x]);
  l = MIN ((gint) count, (gint) max_stats);
  stats = g_malloc (sizeof (CipBlobStats) * ((gsize) l + 1));
  CUDA_OK (cudaMemcpy (stats, dstats, sizeof (CipBlobStats) * ((gsize) l +
              1), cudaMemcpyDeviceToHost));
  for (; l >= 1 && bad_l < 0; l--) {
    const CipBlobStats *s = &stats[l];
    const RefBlob *b = &blobs[l];
    if (!(s->left == b->left && s->top == b->top &&
            s->right - s->left + 1 == b->width &&
            s->bottom - s->top + 1 == b->height && s->area == b->area &&
            (double) s->sum_x / s->area == b->cx &&
            (double) s->sum_y / s->area == b->cy))
      bad_l = l;
  }
  fail_unless (bad_l < 0, "%s: %dx%d %d-connected: blob %d's statistics "
      "differ from the reference's", what, w, h, conn, bad_l);
  g_free (stats);
  g_free (lab);
  g_free (ref);
  g_free (blobs);
  g_free (hmask);
  cudaFree (dmask);
  cudaFree (dlab);
  cudaFree (dcount);
  cudaFree (dstats);
  cudaFree (scratch);
}

GST_START_TEST (test_kinds_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {2, 1}, {1, 5}, {3, 2}, {5, 4},
  {17, 9}, {33, 31}, {64, 48}, {97, 65}, {130, 70}, {255, 3}, {2, 200},
  {641, 479}
  };
  guint s, kind, margin, seed = 1;
  gint conn;

  for (kind = 0; kind < 4; kind++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (margin = 0; margin < 2; margin++, seed++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        guint8 *m = g_malloc ((gsize) w * h);
        ref_thin_frame (m, w, h, (gint) kind, seed, (gint) margin);
        for (conn = 4; conn <= 8; conn += 4)
          check_mask (m, w, h, conn, (gint) (seed % 5), (gint) (seed % 3), 0,
              "frame");
        g_free (m);
      }
}

GST_END_TEST;

GST_START_TEST (test_structured)
{
  const gint w = 37, h = 23;
  guint8 *m = g_malloc ((gsize) w * h);
  gint x, y, conn;

  for (conn = 4; conn <= 8; conn += 4) {
    memset (m, 0, (gsize) w * h);
    check_mask (m, w, h, conn, 0, 0, 0, "empty");
    memset (m, 255, (gsize) w * h);
    check_mask (m, w, h, conn, 3, 1, 0, "full");
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        m[y * w + x] = (x + y) % 2 ? 1 : 0;
    /* 4-connected: every pixel alone; 8-connected: one diagonal web */
    check_mask (m, w, h, conn, 1, 0, 0, "checkerboard");
    /* statistics kept for the first 5 only */
    check_mask (m, w, h, conn, 0, 0, 5, "checkerboard, 5 described");
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        m[y * w + x] = (y % 2 == 1 && x % 3 != 2) || (x == w - 1) ? 255 : 0;
    check_mask (m, w, h, conn, 0, 2, 0, "rows and a column");
  }
  g_free (m);
}

GST_END_TEST;

GST_START_TEST (test_large)
{
  static const gint sizes[][2] = { {1920, 1080}, {7680, 4320} };
  guint s;
  gint conn;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];
    guint8 *m = g_malloc ((gsize) w * h);
    for (conn = 4; conn <= 8; conn += 4) {
      ref_thin_frame (m, w, h, 3, 7 + s, 0);
      check_mask (m, w, h, conn, 0, 0, 0, "sparse noise");
      ref_thin_frame (m, w, h, 0, 9 + s, 0);
      check_mask (m, w, h, conn, 64, 0, 0, "discs");
    }
    g_free (m);
  }
}

GST_END_TEST;

GST_START_TEST (test_refuses)
{
  guint32 *dcount;
  guint8 dummy[16];

  fail_unless (cip_blobs_scratch_size (0, 5) == 0);
  fail_unless (cip_blobs_scratch_size (70000, 70000) == 0);
  CUDA_OK (cudaMalloc ((void **) &dcount, sizeof (guint32)));
  fail_unless (cip_blobs_label (dummy, 4, 4, 4, 6, NULL, 16, dcount, NULL, 0,
          NULL, 0, NULL) == cudaErrorInvalidValue);
  fail_unless (cip_blobs_label (dummy, 4, 4, 4, 8, NULL, 16, dcount, NULL, 0,
          NULL, 1, NULL) == cudaErrorInvalidValue);
  cudaFree (dcount);
}

GST_END_TEST;

static Suite *
blobs_suite (void)
{
  Suite *s = suite_create ("cudablobs-gpu");
  TCase *tc = tcase_create ("kernels");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_refuses);
  tcase_add_test (tc, test_kinds_sizes);
  tcase_add_test (tc, test_structured);
  tcase_add_test (tc, test_large);
  return s;
}

GPU_CHECK_MAIN (blobs);

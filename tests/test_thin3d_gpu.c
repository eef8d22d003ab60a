/* cudaimgproc: 3D thinning on the GPU against the CPU reference (itself
 * checked in test_reference: the templates' symmetries, lines kept,
 * topology and a finished skeleton on every test volume): every test
 * volume kind (balls, salt, full, capsules, torus, trefoil tube, lines and
 * plates, crossing slabs, a box) at tiny, odd and padded sizes, in place,
 * max-rounds, idempotence, and large volumes against the naive
 * one-launch-per-sub-iteration loop with their topology checked; the
 * element in both memories, depth given or up to EOS or a caps change,
 * messages, flushes.  Skips
 * (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "thin3d.h"

#define METHOD_NAME(m) ((m) == CIP_THIN3D_PK12 ? "pk12" : "lee94")

static gsize
count_objects (const guint8 * v, gsize n)
{
  gsize i, c = 0;

  for (i = 0; i < n; i++)
    c += v[i] != 0;
  return c;
}

/* The cooperative launch on one volume against ref_thin3d_pk or
 * ref_thin3d_lee: every voxel, rounds, convergence and the voxels left.
 * @pad: extra bytes a row and rows a slice; @in_place: src and dst the
 * same buffer. */
static void
thin3d_case (CipThin3dMethod method, gint w, gint h, gint d, gint kind,
    guint32 seed, gint pad, gboolean in_place, guint max_rounds)
{
  const gint steps = method == CIP_THIN3D_PK12 ? 12 : d == 1 ? 4 : 6;
  const gsize n = (gsize) w * h * d;
  const gsize pitch = w + pad, slice = pitch * (h + pad);
  guint8 *vol = g_malloc (n), *ref = g_malloc (n), *host, *out;
  guint8 *dsrc, *ddst;
  CipThin3d *th;
  CipThin3dResult *dres, res;
  gint z, y, x, rounds, bad = 0;
  gsize objects = 0;

  ref_thin3d_volume (vol, w, h, d, kind, seed);
  memcpy (ref, vol, n);
  rounds = method == CIP_THIN3D_PK12 ?
      ref_thin3d_pk (ref, w, h, d, (gint) max_rounds) :
      ref_thin3d_lee (ref, w, h, d, (gint) max_rounds);
  objects = count_objects (ref, n);

  host = g_malloc0 (slice * d);
  out = g_malloc (slice * d);
  /* garbage in the padding: it must be neither read nor written */
  fill_random (host, slice * d, seed);
  for (z = 0; z < d; z++)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        host[z * slice + y * pitch + x] =
            vol[((gsize) z * h + y) * w + x] ? (guint8) (1 + (x * 7 + y) %
            255) : 0;
  CUDA_OK (cudaMalloc ((void **) &dsrc, slice * d));
  CUDA_OK (cudaMalloc ((void **) &dres, sizeof res));
  ddst = dsrc;
  if (!in_place)
    CUDA_OK (cudaMalloc ((void **) &ddst, slice * d));
  CUDA_OK (cudaMemcpy (dsrc, host, slice * d, cudaMemcpyHostToDevice));
  if (!in_place)
    CUDA_OK (cudaMemcpy (ddst, host, slice * d, cudaMemcpyHostToDevice));
  CUDA_OK (cip_thin3d_create (&th, w, h, d));
  CUDA_OK (cip_thin3d (th, dsrc, pitch, slice, ddst, pitch, slice,
          method, max_rounds, dres, 0));
  CUDA_OK (cudaMemcpy (out, ddst, slice * d, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&res, dres, sizeof res, cudaMemcpyDeviceToHost));

  for (z = 0; z < d; z++)
    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        const guint8 g = out[z * slice + y * pitch + x];
        const guint8 r = ref[((gsize) z * h + y) * w + x] ? 255 : 0;
        if (g != r && bad++ < 3)
          g_print ("%s %dx%dx%d kind %d: (%d, %d, %d) gpu %d cpu %d\n",
              METHOD_NAME (method), w, h, d, kind, x, y, z, g, r);
      }
      if (!in_place)
        for (x = w; x < (gint) pitch; x++)
          bad += out[z * slice + y * pitch + x] != host[z * slice +
              y * pitch + x];
    }
  fail_unless (bad == 0, "%s %dx%dx%d kind %d pad %d: %d voxels differ",
      METHOD_NAME (method), w, h, d, kind, pad, bad);
  fail_unless ((gint) res.rounds == rounds, "%s %dx%dx%d kind %d: %u rounds, "
      "reference %d", METHOD_NAME (method), w, h, d, kind, res.rounds, rounds);
  fail_unless (res.voxels == objects, "%" G_GUINT64_FORMAT " voxels left, "
      "reference %" G_GSIZE_FORMAT, (guint64) res.voxels, objects);
  fail_unless (res.converged == (max_rounds == 0 || (guint) rounds <
          max_rounds), "converged %u", res.converged);
  fail_unless (res.subiterations == steps * (res.rounds + res.converged),
      "%u sub-iterations for %u rounds", res.subiterations, res.rounds);

  cip_thin3d_destroy (th);
  CUDA_OK (cudaFree (dsrc));
  if (!in_place)
    CUDA_OK (cudaFree (ddst));
  CUDA_OK (cudaFree (dres));
  g_free (vol);
  g_free (ref);
  g_free (host);
  g_free (out);
}

GST_START_TEST (test_kernel_kinds_sizes)
{
  /* the sizes of tests/data/thin3d_golden.txt (scikit-image's skeletons,
   * which ref_thin3d_lee matches in test_reference), then more */
  static const gint sizes[][3] = {
    {1, 1, 1}, {2, 3, 2}, {3, 2, 5}, {5, 4, 3}, {8, 8, 8}, {13, 11, 7},
    {16, 12, 10}, {21, 17, 13}, {24, 20, 16}, {30, 22, 1}, {7, 19, 23},
    {3, 2, 1}, {2, 2, 2}, {7, 7, 7}, {33, 9, 5}, {17, 13, 11}, {6, 30, 12},
    {40, 36, 32}, {65, 17, 9}, {48, 48, 48}
  };
  gint i, k, m;

  for (m = 0; m < 2; m++)
    for (i = 0; i < (gint) G_N_ELEMENTS (sizes); i++)
      for (k = 0; k < REF_THIN3D_KINDS; k++)
        thin3d_case (m ? CIP_THIN3D_LEE94 : CIP_THIN3D_PK12, sizes[i][0],
            sizes[i][1], sizes[i][2], k, (i < 11 && k < 3) ? 1u + k % 3 :
            500u + i * 16 + k, i % 3 == 1 ? 3 : 0, FALSE, 0);
}

GST_END_TEST;

GST_START_TEST (test_kernel_in_place_and_max_rounds)
{
  gint k, m;

  for (m = 0; m < 2; m++)
    for (k = 0; k < REF_THIN3D_KINDS; k++) {
      const CipThin3dMethod method = m ? CIP_THIN3D_LEE94 : CIP_THIN3D_PK12;
      thin3d_case (method, 37, 29, 23, k, 77u + k, 0, TRUE, 0);
      thin3d_case (method, 37, 29, 23, k, 77u + k, 2, TRUE, 1);
      thin3d_case (method, 37, 29, 23, k, 77u + k, 0, FALSE, 2);
    }
}

GST_END_TEST;

/* A skeleton thinned again: nothing deleted, in one round. */
GST_START_TEST (test_kernel_idempotent)
{
  const gint w = 50, h = 44, d = 38;
  const gsize n = (gsize) w * h * d;
  guint8 *vol = g_malloc (n), *again = g_malloc (n), *dv;
  CipThin3d *th;
  CipThin3dResult *dres, res;
  gint m;

  CUDA_OK (cudaMalloc ((void **) &dv, n));
  CUDA_OK (cudaMalloc ((void **) &dres, sizeof res));
  CUDA_OK (cip_thin3d_create (&th, w, h, d));
  for (m = 0; m < 2; m++) {
    const CipThin3dMethod method = m ? CIP_THIN3D_LEE94 : CIP_THIN3D_PK12;
    ref_thin3d_volume (vol, w, h, d, 5, 9);
    CUDA_OK (cudaMemcpy (dv, vol, n, cudaMemcpyHostToDevice));
    CUDA_OK (cip_thin3d (th, dv, w, (gsize) w * h, dv, w, (gsize) w * h,
            method, 0, NULL, 0));
    CUDA_OK (cudaMemcpy (vol, dv, n, cudaMemcpyDeviceToHost));
    CUDA_OK (cip_thin3d (th, dv, w, (gsize) w * h, dv, w, (gsize) w * h,
            method, 0, dres, 0));
    CUDA_OK (cudaMemcpy (again, dv, n, cudaMemcpyDeviceToHost));
    CUDA_OK (cudaMemcpy (&res, dres, sizeof res, cudaMemcpyDeviceToHost));
    fail_unless (memcmp (vol, again, n) == 0, "a %s skeleton changed",
        METHOD_NAME (method));
    fail_unless (res.rounds == 0 && res.converged &&
        res.subiterations == (m ? 6u : 12u),
        "rounds %u converged %u sub-iterations %u", res.rounds,
        res.converged, res.subiterations);
  }
  cip_thin3d_destroy (th);
  CUDA_OK (cudaFree (dv));
  CUDA_OK (cudaFree (dres));
  g_free (vol);
  g_free (again);
}

GST_END_TEST;

/* A dense volume @in (pitch @w) thinned by one launch into @out (host),
 * the result in *@res */
static void
gpu_thin_dense (CipThin3dMethod method, const guint8 * in, guint8 * out,
    gint w, gint h, gint d, CipThin3dResult * res)
{
  const gsize n = (gsize) w * h * d;
  CipThin3d *th;
  CipThin3dResult *dres;
  guint8 *dv;

  CUDA_OK (cudaMalloc ((void **) &dv, n));
  CUDA_OK (cudaMalloc ((void **) &dres, sizeof *res));
  CUDA_OK (cudaMemcpy (dv, in, n, cudaMemcpyHostToDevice));
  CUDA_OK (cip_thin3d_create (&th, w, h, d));
  CUDA_OK (cip_thin3d (th, dv, w, (gsize) w * h, dv, w, (gsize) w * h,
          method, 0, dres, 0));
  CUDA_OK (cudaMemcpy (out, dv, n, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (res, dres, sizeof *res, cudaMemcpyDeviceToHost));
  cip_thin3d_destroy (th);
  CUDA_OK (cudaFree (dv));
  CUDA_OK (cudaFree (dres));
}

/* Large volumes (too slow for the CPU reference): the cooperative launch
 * against the naive loop, the topology of the result, and the bricks
 * skipped. */
static void
large_case (gint w, gint h, gint d, gint kind, guint32 seed)
{
  const gsize n = (gsize) w * h * d;
  guint8 *vol = g_malloc (n), *a = g_malloc (n), *b = g_malloc (n);
  guint8 *d0, *d1;
  unsigned long long *ddel, del;
  CipThin3dResult res;
  gint fg, bg, k, rounds = 0;
  gsize i;

  ref_thin3d_volume (vol, w, h, d, kind, seed);
  fg = ref_volume_components (vol, w, h, d, 1);
  bg = ref_volume_components (vol, w, h, d, 0);
  gpu_thin_dense (CIP_THIN3D_PK12, vol, a, w, h, d, &res);
  CUDA_OK (cudaMalloc ((void **) &d0, n));
  CUDA_OK (cudaMalloc ((void **) &d1, n));
  CUDA_OK (cudaMalloc ((void **) &ddel, sizeof del));
  CUDA_OK (cudaMemcpy (d0, vol, n, cudaMemcpyHostToDevice));

  /* the naive loop, 12 launches a round */
  do {
    CUDA_OK (cudaMemset (ddel, 0, sizeof del));
    for (k = 0; k < 12; k++) {
      CUDA_OK (cip_thin3d_naive_step (d0, d1, w, h, d, k, ddel, 0));
      {
        guint8 *t = d0;
        d0 = d1;
        d1 = t;
      }
    }
    CUDA_OK (cudaMemcpy (&del, ddel, sizeof del, cudaMemcpyDeviceToHost));
    rounds += del != 0;
  } while (del);
  CUDA_OK (cudaMemcpy (b, d0, n, cudaMemcpyDeviceToHost));

  for (i = 0; i < n; i++)
    if ((a[i] != 0) != (b[i] != 0))
      break;
  fail_unless (i == n, "%dx%dx%d kind %d: voxel %" G_GSIZE_FORMAT
      " differs from the naive loop", w, h, d, kind, i);
  fail_unless ((gint) res.rounds == rounds && res.converged,
      "%u rounds, naive %d", res.rounds, rounds);
  for (i = 0; i < n; i++)
    a[i] = a[i] != 0;
  fail_unless (ref_volume_components (a, w, h, d, 1) == fg &&
      ref_volume_components (a, w, h, d, 0) == bg, "topology changed");
  g_print ("%dx%dx%d kind %d: %" G_GSIZE_FORMAT " -> %" G_GUINT64_FORMAT
      " voxels, %u rounds, %" G_GUINT64_FORMAT " brick evaluations of %"
      G_GUINT64_FORMAT "\n", w, h, d, kind, count_objects (vol, n),
      (guint64) res.voxels, res.rounds, (guint64) res.bricks,
      (guint64) res.subiterations * ((w + 31) / 32) * ((h + 7) / 8) *
      ((d + 3) / 4));

  CUDA_OK (cudaFree (d0));
  CUDA_OK (cudaFree (d1));
  CUDA_OK (cudaFree (ddel));
  g_free (vol);
  g_free (a);
  g_free (b);
}

/* lee94 on large volumes against the CPU reference (the sequential
 * recheck, the definition the GPU's fixed point must reproduce), with the
 * background's components unchanged and no object component gained. */
static void
lee_large_case (gint w, gint h, gint d, gint kind, guint32 seed)
{
  const gsize n = (gsize) w * h * d;
  guint8 *vol = g_malloc (n), *ref = g_malloc (n), *out = g_malloc (n);
  CipThin3dResult res;
  gint fg, bg, rounds;
  gsize i;

  ref_thin3d_volume (vol, w, h, d, kind, seed);
  fg = ref_volume_components (vol, w, h, d, 1);
  bg = ref_volume_components (vol, w, h, d, 0);
  memcpy (ref, vol, n);
  rounds = ref_thin3d_lee (ref, w, h, d, 0);
  gpu_thin_dense (CIP_THIN3D_LEE94, vol, out, w, h, d, &res);
  for (i = 0; i < n; i++) {
    if ((out[i] != 0) != ref[i])
      break;
    out[i] = out[i] != 0;
  }
  fail_unless (i == n, "lee94 %dx%dx%d kind %d: voxel %" G_GSIZE_FORMAT
      " differs from the reference", w, h, d, kind, i);
  fail_unless ((gint) res.rounds == rounds && res.converged,
      "%u rounds, reference %d", res.rounds, rounds);
  fail_unless (ref_volume_components (out, w, h, d, 1) <= fg &&
      ref_volume_components (out, w, h, d, 0) == bg, "topology changed");
  g_print ("lee94 %dx%dx%d kind %d: %" G_GSIZE_FORMAT " -> %"
      G_GUINT64_FORMAT " voxels, %u rounds\n", w, h, d, kind,
      count_objects (vol, n), (guint64) res.voxels, res.rounds);
  g_free (vol);
  g_free (ref);
  g_free (out);
}

GST_START_TEST (test_kernel_large)
{
  large_case (160, 128, 96, 0, 3);
  large_case (128, 128, 128, 5, 4);
  large_case (129, 97, 67, 1, 5);
  large_case (200, 150, 40, 7, 6);
  large_case (96, 96, 96, 2, 7);
  lee_large_case (160, 128, 96, 0, 3);
  lee_large_case (128, 128, 128, 5, 4);
  lee_large_case (129, 97, 67, 1, 5);
  lee_large_case (200, 150, 40, 7, 6);
  lee_large_case (96, 96, 96, 2, 7);
  lee_large_case (256, 256, 1, 3, 8);
}

GST_END_TEST;

GST_START_TEST (test_kernel_refuses)
{
  CipThin3d *th = (CipThin3d *) 0x1;

  fail_unless (cip_thin3d_create (&th, 0, 4, 4) == cudaErrorInvalidValue);
  fail_unless (th == NULL);
  fail_unless (cip_thin3d_create (&th, 4, 4, -1) == cudaErrorInvalidValue);
  fail_unless (cip_thin3d_scratch_size (0, 1, 1) == 0);
  fail_unless (cip_thin3d_scratch_size (512, 512, 512) > (gsize) 512 * 512 *
      512);
  fail_unless (cip_thin3d_naive_step (NULL, NULL, 1, 1, 1, 12, NULL, 0) ==
      cudaErrorInvalidValue);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

/* Pushes the @d slices of @vol (0/1, w x h x d) as GRAY8 frames, PTS
 * @pts0 + z ms. */
static void
push_volume (GstHarness * h, const guint8 * vol, gint w, gint hh, gint d,
    gboolean cuda, GstClockTime pts0)
{
  guint8 *frame = g_malloc ((gsize) w * hh);
  gint z;
  gsize i;

  for (z = 0; z < d; z++) {
    GstBuffer *in;
    for (i = 0; i < (gsize) w * hh; i++)
      frame[i] = vol[(gsize) z * w * hh + i] ? 255 : 0;
    in = gray_frame_buffer (frame, w, hh, cuda);
    GST_BUFFER_PTS (in) = pts0 + z * GST_MSECOND;
    GST_BUFFER_DURATION (in) = GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  g_free (frame);
}

/* Pulls @d slices and compares them with @ref (0/1) thinned, and their
 * timestamps with the input's. */
static void
pull_volume (GstHarness * h, const guint8 * ref, gint w, gint hh, gint d,
    GstClockTime pts0)
{
  guint8 *want = g_malloc ((gsize) w * hh);
  GstVideoInfo info;
  gint z;
  gsize i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, hh);
  for (z = 0; z < d; z++) {
    GstBuffer *out = gst_harness_pull (h);
    GstVideoFrame f;
    glong diff;

    fail_unless (out != NULL, "slice %d missing", z);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts0 + z * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_MSECOND);
    for (i = 0; i < (gsize) w * hh; i++)
      want[i] = ref[(gsize) z * w * hh + i] ? 255 : 0;
    fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
    diff = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&f, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), want, w, w, hh);
    gst_video_frame_unmap (&f);
    gst_buffer_unref (out);
    fail_unless (diff < 0, "slice %d of %dx%dx%d: pixel %ld differs", z, w,
        hh, d, diff);
  }
  g_free (want);
}

/* A test volume and its skeleton by @method; returns the reference's
 * rounds. */
static gint
volume_and_ref (guint8 ** vol, guint8 ** ref, gint w, gint h, gint d,
    gint kind, guint32 seed, CipThin3dMethod method)
{
  const gsize n = (gsize) w * h * d;

  *vol = g_malloc (n);
  *ref = g_malloc (n);
  ref_thin3d_volume (*vol, w, h, d, kind, seed);
  memcpy (*ref, *vol, n);
  return method == CIP_THIN3D_PK12 ? ref_thin3d_pk (*ref, w, h, d, 0) :
      ref_thin3d_lee (*ref, w, h, d, 0);
}

static void
expect_message (GstBus * bus, gint rounds, const guint8 * ref, gsize n,
    guint depth, GstClockTime pts)
{
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  const GstStructure *s;
  guint r = 0, dd = 0;
  guint64 voxels = 0, ts = 0;
  gboolean conv = FALSE;

  fail_unless (m != NULL, "no cudathin3d message");
  s = gst_message_get_structure (m);
  fail_unless (gst_structure_has_name (s, "cudathin3d"));
  fail_unless (gst_structure_get (s, "rounds", G_TYPE_UINT, &r, "depth",
          G_TYPE_UINT, &dd, "voxels", G_TYPE_UINT64, &voxels, "timestamp",
          G_TYPE_UINT64, &ts, "converged", G_TYPE_BOOLEAN, &conv, NULL));
  fail_unless_equals_int (r, rounds);
  fail_unless_equals_int (dd, depth);
  fail_unless_equals_uint64 (voxels, count_objects (ref, n));
  fail_unless_equals_uint64 (ts, pts);
  fail_unless (conv);
  gst_message_unref (m);
}

/* Volumes of a given depth, in either memory on either side, with a
 * property change between them, the message of each. */
GST_START_TEST (test_element)
{
  const gint w = 37, h = 29, d = 23;
  gint combo;

  for (combo = 0; combo < 4; combo++) {
    gboolean cin = combo & 1, cout = combo >> 1;
    gchar *ic = caps_str (cin, "GRAY8", w, h);
    MsgHarness t = msg_harness_new ("cudathin3d name=t depth=23 "
        "post-messages=true", ic, cout ?
        "video/x-raw(memory:CUDAMemory),format=GRAY8" :
        "video/x-raw,format=GRAY8", "t");
    guint8 *vol, *ref;
    gint rounds;

    rounds = volume_and_ref (&vol, &ref, w, h, d, 5 + combo % 2, 40 + combo,
        CIP_THIN3D_PK12);
    push_volume (t.h, vol, w, h, d, cin, 0);
    pull_volume (t.h, ref, w, h, d, 0);
    expect_message (t.bus, rounds, ref, (gsize) w * h * d, d, 0);
    g_free (vol);
    g_free (ref);

    /* taken at the next volume: 9 slices by lee94, then EOS ends a
     * partial one */
    g_object_set (t.e, "depth", 9, "method", CIP_THIN3D_LEE94, NULL);
    rounds = volume_and_ref (&vol, &ref, w, h, 9, 3, 50 + combo,
        CIP_THIN3D_LEE94);
    push_volume (t.h, vol, w, h, 9, cin, GST_SECOND);
    pull_volume (t.h, ref, w, h, 9, GST_SECOND);
    expect_message (t.bus, rounds, ref, (gsize) w * h * 9, 9, GST_SECOND);
    g_free (vol);
    g_free (ref);
    rounds = volume_and_ref (&vol, &ref, w, h, 4, 0, 60 + combo,
        CIP_THIN3D_LEE94);
    push_volume (t.h, vol, w, h, 4, cin, 2 * GST_SECOND);
    fail_unless_equals_int (gst_harness_buffers_in_queue (t.h), 0);
    gst_harness_push_event (t.h, gst_event_new_eos ());
    pull_volume (t.h, ref, w, h, 4, 2 * GST_SECOND);
    expect_message (t.bus, rounds, ref, (gsize) w * h * 4, 4, 2 * GST_SECOND);
    g_free (vol);
    g_free (ref);
    msg_harness_free (&t);
    g_free (ic);
  }
}

GST_END_TEST;

/* Depth 0: a stack up to a caps change, then one up to EOS. */
GST_START_TEST (test_stack_and_renegotiate)
{
  MsgHarness t = msg_harness_new ("cudathin3d name=t post-messages=true",
      "video/x-raw,format=GRAY8,width=40,height=30,framerate=30/1",
      "video/x-raw,format=GRAY8", "t");
  guint8 *vol, *ref;
  gint rounds;

  rounds = volume_and_ref (&vol, &ref, 40, 30, 37, 4, 1, CIP_THIN3D_PK12);
  push_volume (t.h, vol, 40, 30, 37, FALSE, 0);
  fail_unless_equals_int (gst_harness_buffers_in_queue (t.h), 0);
  gst_harness_set_src_caps_str (t.h,
      "video/x-raw,format=GRAY8,width=19,height=23,framerate=30/1");
  pull_volume (t.h, ref, 40, 30, 37, 0);
  expect_message (t.bus, rounds, ref, (gsize) 40 * 30 * 37, 37, 0);
  g_free (vol);
  g_free (ref);

  rounds = volume_and_ref (&vol, &ref, 19, 23, 5, 7, 2, CIP_THIN3D_PK12);
  push_volume (t.h, vol, 19, 23, 5, FALSE, GST_SECOND);
  gst_harness_push_event (t.h, gst_event_new_eos ());
  pull_volume (t.h, ref, 19, 23, 5, GST_SECOND);
  expect_message (t.bus, rounds, ref, (gsize) 19 * 23 * 5, 5, GST_SECOND);
  g_free (vol);
  g_free (ref);
  msg_harness_free (&t);
}

GST_END_TEST;

/* A flush forgets the slices gathered so far. */
GST_START_TEST (test_flush)
{
  MsgHarness t = msg_harness_new ("cudathin3d name=t depth=6",
      "video/x-raw,format=GRAY8,width=20,height=16,framerate=30/1",
      "video/x-raw,format=GRAY8", "t");
  GstSegment seg;
  guint8 *vol, *ref;

  volume_and_ref (&vol, &ref, 20, 16, 6, 2, 3, CIP_THIN3D_PK12);
  push_volume (t.h, vol, 20, 16, 4, FALSE, 0);
  fail_unless (gst_harness_push_event (t.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (t.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (t.h, gst_event_new_segment (&seg)));
  push_volume (t.h, vol, 20, 16, 6, FALSE, GST_SECOND);
  pull_volume (t.h, ref, 20, 16, 6, GST_SECOND);
  fail_unless_equals_int (gst_harness_buffers_in_queue (t.h), 0);
  g_free (vol);
  g_free (ref);
  msg_harness_free (&t);
}

GST_END_TEST;

static Suite *
thin3d_suite (void)
{
  Suite *s = suite_create ("cudathin3d-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_kernel_refuses);
  tcase_add_test (tc, test_kernel_kinds_sizes);
  tcase_add_test (tc, test_kernel_in_place_and_max_rounds);
  tcase_add_test (tc, test_kernel_idempotent);
  tcase_add_test (tc, test_kernel_large);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_stack_and_renegotiate);
  tcase_add_test (tc, test_flush);
  return s;
}

GPU_CHECK_MAIN (thin3d);

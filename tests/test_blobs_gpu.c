/* cudaimgproc: the connected-component kernels (kernels/blobs.h) against
 * the CPU reference, ref_label, which test_reference checks against
 * OpenCV: labels (OpenCV's numbering), count and statistics, at both
 * connectivities, on the golden frame kinds (discs, dense and sparse
 * noise, rectangles), odd sizes (1x1, 3x2, a row, a column, widths not a
 * multiple of 4), padded pitches, a checkerboard, the empty and the full
 * frame, and a 1080p and an 8K frame.  Then the element, cudablobs:
 * messages, metadata and the label map against the same reference, with
 * min-area and max-blobs, past 65 535 components, in both memories, and
 * with properties changed while it plays.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "blobs.h"

#include <gst/video/gstvideometa.h>

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

/* Every frame of the golden file (OpenCV's labels, tests/gen_label_golden.py:
 * noise at 5 to 95 %, spirals, rings, the full frame, checkerboards,
 * foreground on the borders, 1x1 to 8K), with padded and misaligned
 * pitches: the kernels equal ref_label, which test_reference checks
 * against the file's hashes of OpenCV's output on each of them. */
GST_START_TEST (test_golden_frames)
{
  const gchar *path = gpu_test_arg ? gpu_test_arg :
      "tests/data/label_golden.txt";
  FILE *f = fopen (path, "r");
  gchar line[256];
  gint cases = 0;

  fail_unless (f != NULL, "cannot open %s", path);
  while (fgets (line, sizeof line, f)) {
    gint kind, w, h, margin, conn, n;
    guint seed, hl, hs, hc;
    guint8 *m;

    if (line[0] == '#' || sscanf (line, "%d %u %d %d %d %d %d %x %x %x",
            &kind, &seed, &w, &h, &margin, &conn, &n, &hl, &hs, &hc) != 10)
      continue;
    m = g_malloc ((gsize) w * h);
    ref_thin_frame (m, w, h, kind, seed, margin);
    check_mask (m, w, h, conn, (gint) (seed % 7), (gint) (seed % 3), 0,
        "golden frame");
    g_free (m);
    cases++;
  }
  fclose (f);
  fail_unless_equals_int (cases, 462);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

/* What cudablobs should give for @mask: the reference's components, the
 * blobs kept (their labels, in order) and each component's blob number. */
typedef struct
{
  gint w, h;
  gint32 *labels;
  RefBlob *blobs;
  gint components;
  GArray *kept;                 /* of gint: the components kept, in order */
  guint16 *newid;               /* by label, up to CIP_BLOBS_LABEL_MAX */
} Expect;

static Expect
expect (const guint8 * mask, gint w, gint h, gint conn, guint min_area,
    guint max_blobs)
{
  Expect e;
  gint l, n;

  e.w = w;
  e.h = h;
  e.labels = g_new (gint32, (gsize) w * h);
  e.blobs = g_new (RefBlob, (gsize) w * h + 1);
  e.components = ref_label (mask, w, w, h, conn, e.labels, e.blobs) - 1;
  e.kept = g_array_sized_new (FALSE, FALSE, sizeof (gint), e.components);
  g_array_set_size (e.kept, e.components);
  n = ref_blobs_select (e.blobs, e.components, CIP_BLOBS_LABEL_MAX, min_area,
      max_blobs, (gint32 *) e.kept->data);
  g_array_set_size (e.kept, n);
  e.newid = g_new0 (guint16, CIP_BLOBS_LABEL_MAX + 1);
  for (l = 0; l < (gint) e.kept->len; l++)
    e.newid[g_array_index (e.kept, gint, l)] = (guint16) (l + 1);
  return e;
}

static void
expect_clear (Expect * e)
{
  g_free (e->labels);
  g_free (e->blobs);
  g_array_unref (e->kept);
  g_free (e->newid);
}

/* The frame's message and metadata against @e. */
static void
check_results (const Expect * e, GstBuffer * out, GstMessage * msg,
    GstClockTime pts, const gchar * what)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *arr = gst_structure_get_value (s, "blobs");
  const guint described = MIN (e->kept->len, CIP_BLOBS_REPORT_MAX);
  guint components = 0, count = 0, i, n_roi = 0;
  guint64 ts = 0;
  gpointer state = NULL;
  GstMeta *meta;

  fail_unless (gst_structure_has_name (s, "cudablobs"), "%s", what);
  fail_unless (gst_structure_get (s, "components", G_TYPE_UINT, &components,
          "count", G_TYPE_UINT, &count, "timestamp", G_TYPE_UINT64, &ts,
          NULL), "%s: fields missing", what);
  fail_unless_equals_int (components, e->components);
  fail_unless_equals_int (count, e->kept->len);
  fail_unless_equals_uint64 (ts, pts);
  fail_unless (arr && gst_value_array_get_size (arr) == described,
      "%s: %u blobs described, %u expected", what,
      arr ? gst_value_array_get_size (arr) : 0, described);
  for (i = 0; i < described; i++) {
    const GstStructure *b = gst_value_get_structure
        (gst_value_array_get_value (arr, i));
    const RefBlob *r = &e->blobs[g_array_index (e->kept, gint, i)];
    guint id, area, x, y, bw, bh;
    gdouble cx, cy;

    fail_unless (gst_structure_get (b, "id", G_TYPE_UINT, &id, "area",
            G_TYPE_UINT, &area, "x", G_TYPE_UINT, &x, "y", G_TYPE_UINT, &y,
            "width", G_TYPE_UINT, &bw, "height", G_TYPE_UINT, &bh,
            "centroid-x", G_TYPE_DOUBLE, &cx, "centroid-y", G_TYPE_DOUBLE,
            &cy, NULL));
    fail_unless (id == i + 1 && area == r->area && (gint) x == r->left &&
        (gint) y == r->top && (gint) bw == r->width && (gint) bh == r->height
        && cx == r->cx && cy == r->cy, "%s: blob %u differs from the "
        "reference's", what, i + 1);
  }
  while ((meta = gst_buffer_iterate_meta_filtered (out, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    const RefBlob *r;

    fail_unless (roi->id >= 1 && roi->id <= (gint) described, "%s: ROI id "
        "%d", what, roi->id);
    r = &e->blobs[g_array_index (e->kept, gint, roi->id - 1)];
    fail_unless (roi->roi_type == g_quark_from_string ("blob") &&
        (gint) roi->x == r->left && (gint) roi->y == r->top &&
        (gint) roi->w == r->width && (gint) roi->h == r->height,
        "%s: ROI %d differs from the reference's box", what, roi->id);
    fail_unless (gst_video_region_of_interest_meta_get_param (roi,
            "cudablobs") != NULL);
    n_roi++;
  }
  fail_unless_equals_int (n_roi, described);
}

/* The GRAY16 map against @e. */
static void
check_label_map (const Expect * e, GstBuffer * out, const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame f;
  gint x, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY16_LE, e->w, e->h);
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  for (y = 0; y < e->h; y++) {
    const guint16 *row = (const guint16 *) ((guint8 *)
        GST_VIDEO_FRAME_PLANE_DATA (&f, 0) + (gsize) y *
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0));
    for (x = 0; x < e->w; x++) {
      const gint32 l = e->labels[(gsize) y * e->w + x];
      const guint16 want = l > CIP_BLOBS_LABEL_MAX ? CIP_BLOBS_LABEL_MAX :
          e->newid[l];
      if (GUINT16_FROM_LE (row[x]) != want) {
        gst_video_frame_unmap (&f);
        fail ("%s: label %u at (%d, %d), expected %u", what,
            GUINT16_FROM_LE (row[x]), x, y, want);
      }
    }
  }
  gst_video_frame_unmap (&f);
}

static GstMessage *
pop_blobs (GstBus * bus)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR);

  fail_unless (msg != NULL, "no cudablobs message");
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT,
      "an error instead of the message");
  return msg;
}

/* Frames of every kind and both connectivities, with and without the
 * filters, in system and CUDA memory: message, metadata, and the mask
 * passed through or the label map. */
GST_START_TEST (test_element_frames)
{
  static const gint sizes[][2] = { {161, 97}, {640, 480}, {3, 2} };
  static const guint filters[][2] = { {0, 0}, {20, 0}, {0, 5}, {9, 3} };
  guint s, f, kind, cuda, labels, frame = 0;
  gint conn;

  for (cuda = 0; cuda < 2; cuda++)
    for (labels = 0; labels < 2; labels++)
      for (conn = 4; conn <= 8; conn += 4)
        for (f = 0; f < G_N_ELEMENTS (filters); f++) {
          gchar *launch = g_strdup_printf ("cudablobs name=b "
              "post-messages=true connectivity=%d min-area=%u max-blobs=%u "
              "output=%s", conn, filters[f][0], filters[f][1],
              labels ? "labels" : "mask");
          for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
            const gint w = sizes[s][0], h = sizes[s][1];
            gchar *in_caps = caps_str (cuda, "GRAY8", w, h);
            gchar *out_caps = caps_str (FALSE, labels ? "GRAY16_LE" :
                "GRAY8", w, h);
            MsgHarness m = msg_harness_new (launch, in_caps, out_caps, "b");
            guint8 *mask = g_malloc ((gsize) w * h);

            for (kind = 0; kind < 4; kind++, frame++) {
              gchar *what = g_strdup_printf ("%s, %dx%d, kind %u, %s memory",
                  launch, w, h, kind, cuda ? "CUDA" : "system");
              GstBuffer *in, *out;
              GstMessage *msg;
              Expect e;

              ref_thin_frame (mask, w, h, (gint) kind, frame + 100, 0);
              e = expect (mask, w, h, conn, filters[f][0], filters[f][1]);
              in = stamp (gray_frame_buffer (mask, w, h, cuda), (gint) kind);
              fail_unless_equals_int (gst_harness_push (m.h, in), GST_FLOW_OK);
              out = gst_harness_pull (m.h);
              fail_unless (out != NULL);
              msg = pop_blobs (m.bus);
              check_results (&e, out, msg, gst_util_uint64_scale (kind,
                      GST_SECOND, 30), what);
              if (labels) {
                check_label_map (&e, out, what);
              } else {
                GstVideoInfo info;
                GstVideoFrame vf;
                glong d;

                gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
                fail_unless (gst_video_frame_map (&vf, &info, out,
                        GST_MAP_READ));
                d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&vf, 0),
                    GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0), mask, w, w, h);
                gst_video_frame_unmap (&vf);
                fail_unless (d < 0, "%s: mask not passed through at %ld",
                    what, d);
              }
              gst_message_unref (msg);
              gst_buffer_unref (out);
              expect_clear (&e);
              g_free (what);
            }
            g_free (mask);
            msg_harness_free (&m);
            g_free (in_caps);
            g_free (out_caps);
          }
          g_free (launch);
        }
}

GST_END_TEST;

/* 76 800 lone pixels: the first 65 535 components are blobs 1 to 65 535,
 * the rest read 65535 in the map; 1024 are described.  max-blobs picks
 * the largest among them, ties to the first. */
GST_START_TEST (test_element_many)
{
  const gint w = 640, h = 480;
  guint8 *mask = g_malloc0 ((gsize) w * h);
  guint max_blobs;
  gint x, y;

  for (y = 0; y < h; y += 2)
    for (x = 0; x < w; x += 2)
      mask[(gsize) y * w + x] = 255;
  /* a few larger ones late in the frame */
  for (x = 0; x < 6; x++)
    mask[(gsize) 470 * w + 300 + x] = mask[(gsize) 476 * w + 100 + x] = 255;
  for (max_blobs = 0; max_blobs <= 4; max_blobs += 4) {
    gchar *launch = g_strdup_printf ("cudablobs name=b post-messages=true "
        "output=labels max-blobs=%u", max_blobs);
    gchar *in_caps = caps_str (TRUE, "GRAY8", w, h);
    gchar *out_caps = caps_str (FALSE, "GRAY16_LE", w, h);
    MsgHarness m = msg_harness_new (launch, in_caps, out_caps, "b");
    Expect e = expect (mask, w, h, 8, 0, max_blobs);
    GstBuffer *out;
    GstMessage *msg;

    fail_unless (e.components > CIP_BLOBS_LABEL_MAX);
    gst_harness_push (m.h, stamp (gray_frame_buffer (mask, w, h, TRUE), 0));
    out = gst_harness_pull (m.h);
    msg = pop_blobs (m.bus);
    check_results (&e, out, msg, 0, launch);
    check_label_map (&e, out, launch);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    expect_clear (&e);
    msg_harness_free (&m);
    g_free (launch);
    g_free (in_caps);
    g_free (out_caps);
  }
  g_free (mask);
}

GST_END_TEST;

/* While it plays: min-area and connectivity take effect on the next
 * frame, output=labels renegotiates to GRAY16_LE and back, messages come
 * one a frame in frame order, and post-messages=false stops them. */
GST_START_TEST (test_element_playing)
{
  const gint w = 200, h = 120;
  gchar *in_caps = caps_str (TRUE, "GRAY8", w, h);
  MsgHarness m = msg_harness_new ("cudablobs name=b post-messages=true",
      in_caps, "video/x-raw,format={GRAY8,GRAY16_LE}", "b");
  guint8 *mask = g_malloc ((gsize) w * h);
  gint i;

  ref_thin_frame (mask, w, h, 3, 5, 0);
  for (i = 0; i < 12; i++) {
    const guint min_area = i < 4 ? 0 : 3;
    const gint conn = i < 8 ? 8 : 4;
    const gboolean labels = i >= 2 && i < 6;
    gchar *what = g_strdup_printf ("frame %d", i);
    Expect e = expect (mask, w, h, conn, min_area, 0);
    GstBuffer *out;
    GstMessage *msg;
    GstCaps *caps;

    g_object_set (m.e, "min-area", min_area, NULL);
    gst_util_set_object_arg (G_OBJECT (m.e), "connectivity", conn == 8 ? "8"
        : "4");
    gst_util_set_object_arg (G_OBJECT (m.e), "output", labels ? "labels" :
        "mask");
    fail_unless_equals_int (gst_harness_push (m.h, stamp (gray_frame_buffer
                (mask, w, h, TRUE), i)), GST_FLOW_OK);
    out = gst_harness_pull (m.h);
    caps = gst_pad_get_current_caps (m.h->sinkpad);
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (caps, 0), "format"), labels ? "GRAY16_LE" :
        "GRAY8");
    gst_caps_unref (caps);
    msg = pop_blobs (m.bus);
    check_results (&e, out, msg, gst_util_uint64_scale (i, GST_SECOND, 30),
        what);
    if (labels)
      check_label_map (&e, out, what);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    expect_clear (&e);
    g_free (what);
  }
  g_object_set (m.e, "post-messages", FALSE, NULL);
  gst_harness_push (m.h, stamp (gray_frame_buffer (mask, w, h, TRUE), 12));
  gst_buffer_unref (gst_harness_pull (m.h));
  fail_unless (gst_bus_pop_filtered (m.bus, GST_MESSAGE_ELEMENT) == NULL,
      "a message with post-messages=false");
  g_free (mask);
  g_free (in_caps);
  msg_harness_free (&m);
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
  tcase_add_test (tc, test_golden_frames);
  tc = tcase_create ("element");
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_element_frames);
  tcase_add_test (tc, test_element_many);
  tcase_add_test (tc, test_element_playing);
  return s;
}

GPU_CHECK_MAIN (blobs);

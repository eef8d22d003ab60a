/* cudaimgproc: GPU tests of cudaoverlay, against the CPU reference
 * (ref_overlay_plane): the kernel on every plane shape (1 to 4 bytes a
 * pixel, full and 4:2:0 resolution), odd sizes, padded pitches, stretched
 * masks and 8K; the element on every video format in both memories on each
 * pad, each mode, properties changed while playing, no mask, the end of
 * either stream, size and format changes; and the preview chain
 * `tee ! cudaoverlay, tee ! cudagray ! cudaotsu ! mask` on the GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "overlay.h"

/* ------------------------------------------------------------------------ */
/* the kernel */

static void
random_table (CipOverlayTable * t, guint32 seed)
{
  fill_random (t->alpha, sizeof t->alpha, seed);
  fill_random (&t->colour[0][0], sizeof t->colour, seed + 1);
  /* the ends exactly: untouched and fully covered */
  t->alpha[0] = 0;
  t->alpha[255] = 255;
}

/* One plane through the kernel and the reference; padded pitches when
 * @pad, the mask @mw x @mh stretched over @lw x @lh. */
static void kernel_case_at (gint bpp, gint sub, gint lw, gint lh, gint mw,
    gint mh, gboolean pad, guint32 seed, gboolean placed, gint mx, gint my);

static void
kernel_case (gint bpp, gint sub, gint lw, gint lh, gint mw, gint mh,
    gboolean pad, guint32 seed)
{
  kernel_case_at (bpp, sub, lw, lh, mw, mh, pad, seed, FALSE, 0, 0);
}

/* The same with the mask placed 1:1 at (@mx, @my) (mode=picture). */
static void
kernel_case_at (gint bpp, gint sub, gint lw, gint lh, gint mw, gint mh,
    gboolean pad, guint32 seed, gboolean placed, gint mx, gint my)
{
  const gint pw = (lw + sub) >> sub, ph = (lh + sub) >> sub;
  const gint sp = pw * bpp + (pad ? 37 : 0), dp = pw * bpp + (pad ? 5 : 0);
  const gint mp = mw + (pad ? 3 : 0);
  guint8 *src = g_malloc (sp * ph), *mask = g_malloc (mp * mh);
  guint8 *ref = g_malloc0 (dp * ph), *out = g_malloc0 (dp * ph);
  guint8 *d_src, *d_dst, *d_mask;
  CipOverlayTable table, *d_table;
  CipOverlayPlane pl = { 0 };
  gint y;
  const unsigned keep = (seed % 3 == 0 && bpp == 4) ? 8 : 0;

  fill_random (src, sp * ph, seed);
  fill_random (mask, mp * mh, seed + 2);
  /* a binary mask half the time, as cudaotsu and cudathin give */
  if (seed & 1)
    for (y = 0; y < mp * mh; y++)
      mask[y] = mask[y] > 128 ? 255 : 0;
  random_table (&table, seed + 3);
  ref_overlay_plane_at (src, sp, ref, dp, bpp, keep, sub, sub, mask, mp, mw,
      mh, lw, lh, table.alpha, &table.colour[0][0], placed, mx, my);

  CUDA_OK (cudaMalloc ((void **) &d_src, sp * ph));
  CUDA_OK (cudaMalloc ((void **) &d_dst, dp * ph));
  CUDA_OK (cudaMalloc ((void **) &d_mask, mp * mh));
  CUDA_OK (cudaMemcpy (d_src, src, sp * ph, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy (d_mask, mask, mp * mh, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_dst, 0, dp * ph));
  CUDA_OK (cudaMalloc ((void **) &d_table, sizeof table));
  CUDA_OK (cudaMemcpy (d_table, &table, sizeof table, cudaMemcpyHostToDevice));
  pl.src = d_src;
  pl.src_pitch = sp;
  pl.dst = d_dst;
  pl.dst_pitch = dp;
  pl.bpp = bpp;
  pl.keep = keep;
  pl.sub_x = pl.sub_y = sub;
  pl.placed = placed;
  pl.mask_x = mx;
  pl.mask_y = my;
  CUDA_OK (cip_overlay_plane (&pl, d_mask, mp, mw, mh, lw, lh, d_table, 0));
  CUDA_OK (cudaMemcpy (out, d_dst, dp * ph, cudaMemcpyDeviceToHost));
  for (y = 0; y < ph; y++) {
    glong d = first_diff (out + (gsize) y * dp, dp, ref + (gsize) y * dp, dp,
        pw * bpp, 1);
    fail_unless (d < 0, "bpp %d sub %d %dx%d mask %dx%d pad %d placed %d at "
        "(%d, %d): row %d byte %ld: %d, reference %d", bpp, sub, lw, lh, mw,
        mh, pad, placed, mx, my, y, d,
        out[(gsize) y * dp + d], ref[(gsize) y * dp + d]);
  }
  cudaFree (d_src);
  cudaFree (d_dst);
  cudaFree (d_mask);
  cudaFree (d_table);
  g_free (src);
  g_free (mask);
  g_free (ref);
  g_free (out);
}

GST_START_TEST (test_kernel)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {2, 3}, {5, 5}, {641, 479},
  {1283, 721}
  };
  guint32 seed = 1;
  guint s;
  gint bpp, sub;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (bpp = 1; bpp <= 4; bpp++)
      for (sub = 0; sub <= 1; sub++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        /* same size; stretched up (a quarter-size analysis); down; one
         * pixel of mask for the whole frame */
        kernel_case (bpp, sub, w, h, w, h, FALSE, seed++);
        kernel_case (bpp, sub, w, h, w, h, TRUE, seed++);
        kernel_case (bpp, sub, w, h, (w + 3) / 4, (h + 3) / 4, TRUE, seed++);
        kernel_case (bpp, sub, w, h, w * 2 + 1, h + 7, FALSE, seed++);
        kernel_case (bpp, sub, w, h, 1, 1, FALSE, seed++);
      }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* mode=picture: the mask 1:1 at offsets inside, across every edge and
 * outside the frame, on every plane shape. */
GST_START_TEST (test_kernel_placed)
{
  static const gint at[][2] = { {0, 0}, {10, 5}, {-7, -3}, {600, 400},
  {-300, 0}, {5000, 5}
  };
  guint32 seed = 900;
  guint a;
  gint bpp, sub;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (a = 0; a < G_N_ELEMENTS (at); a++)
    for (bpp = 1; bpp <= 4; bpp++)
      for (sub = 0; sub <= 1; sub++) {
        kernel_case_at (bpp, sub, 641, 479, 256, 128, TRUE, seed++, TRUE,
            at[a][0], at[a][1]);
        kernel_case_at (bpp, sub, 3, 2, 5, 4, FALSE, seed++, TRUE, at[a][0] %
            4, at[a][1] % 3);
      }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

GST_START_TEST (test_kernel_8k)
{
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  kernel_case (4, 0, 7680, 4320, 7680, 4320, TRUE, 77);
  kernel_case (1, 0, 7680, 4320, 3840, 2160, FALSE, 78);
  kernel_case (2, 1, 7680, 4320, 7680, 4320, FALSE, 79);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* mode=boxes' outline kernel against ref_overlay_boxes: random boxes, some
 * past the frame's edges, empty, larger than the frame, thinner and wider
 * than their lines, in padded masks. */
static void
boxes_case (gint w, gint h, gint n, gint line_width, guint32 seed)
{
  const gint pitch = w + (seed % 5);
  guint8 *ref = g_malloc ((gsize) pitch * h), *out = g_malloc ((gsize) pitch *
      h), *d_mask;
  CipOverlayBox *boxes = g_new0 (CipOverlayBox, MAX (n, 1)), *d_boxes;
  gint *ints = g_new0 (gint, 4 * MAX (n, 1));
  guint32 r = seed;
  gint i, y;

  for (i = 0; i < n; i++) {
    r = r * 1103515245u + 12345u;
    boxes[i].x = (gint) ((r >> 8) % (guint) (w + 20)) - 10;
    r = r * 1103515245u + 12345u;
    boxes[i].y = (gint) ((r >> 8) % (guint) (h + 20)) - 10;
    r = r * 1103515245u + 12345u;
    boxes[i].w = (gint) ((r >> 8) % (guint) (i % 7 == 0 ? 2 * w + 2 :
            w / 3 + 2));
    r = r * 1103515245u + 12345u;
    boxes[i].h = (gint) ((r >> 8) % (guint) (i % 5 == 0 ? 2 * h + 2 :
            h / 3 + 2));
    ints[4 * i] = boxes[i].x;
    ints[4 * i + 1] = boxes[i].y;
    ints[4 * i + 2] = boxes[i].w;
    ints[4 * i + 3] = boxes[i].h;
  }
  memset (ref, 0x5a, (gsize) pitch * h);
  ref_overlay_boxes (ref, pitch, w, h, ints, n, line_width);
  CUDA_OK (cudaMalloc ((void **) &d_mask, (gsize) pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_boxes, sizeof (CipOverlayBox) * MAX (n,
              1)));
  CUDA_OK (cudaMemset (d_mask, 0x5a, (gsize) pitch * h));
  CUDA_OK (cudaMemcpy (d_boxes, boxes, sizeof (CipOverlayBox) * MAX (n, 1),
          cudaMemcpyHostToDevice));
  CUDA_OK (cip_overlay_boxes (d_mask, pitch, w, h, d_boxes, n, line_width, 0));
  CUDA_OK (cudaMemcpy (out, d_mask, (gsize) pitch * h, cudaMemcpyDeviceToHost));
  for (y = 0; y < h; y++) {
    glong d = first_diff (out + (gsize) y * pitch, pitch, ref + (gsize) y *
        pitch, pitch, w, 1);
    fail_unless (d < 0, "boxes %dx%d, %d boxes, line %d: row %d pixel %ld: "
        "%d, reference %d", w, h, n, line_width, y, d,
        out[(gsize) y * pitch + d], ref[(gsize) y * pitch + d]);
  }
  cudaFree (d_mask);
  cudaFree (d_boxes);
  g_free (ref);
  g_free (out);
  g_free (boxes);
  g_free (ints);
}

GST_START_TEST (test_kernel_boxes)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {17, 9}, {641, 479},
  {1920, 1080}
  };
  guint32 seed = 1;
  guint s;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];

    boxes_case (w, h, 0, 2, seed++);
    boxes_case (w, h, 1, 1, seed++);
    boxes_case (w, h, 37, 2, seed++);
    boxes_case (w, h, 200, 5, seed++);
    boxes_case (w, h, CIP_OVERLAY_MAX_BOXES, 64, seed++);
  }
  fail_unless_equals_int (cip_overlay_boxes (NULL, 4, 4, 4, NULL, 0, 1, 0),
      cudaErrorInvalidValue);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

GST_START_TEST (test_kernel_refuses)
{
  CipOverlayTable *table;
  CipOverlayPlane pl = { 0 };
  guint8 *d;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMalloc ((void **) &d, 64));
  CUDA_OK (cudaMalloc ((void **) &table, sizeof *table));
  CUDA_OK (cudaMemset (table, 0, sizeof *table));
  pl.src = pl.dst = d;
  pl.src_pitch = pl.dst_pitch = 8;
  pl.bpp = 5;
  fail_unless_equals_int (cip_overlay_plane (&pl, d, 8, 2, 2, 2, 2, table,
          0), cudaErrorInvalidValue);
  pl.bpp = 1;
  pl.sub_x = 0;
  pl.sub_y = 1;
  fail_unless_equals_int (cip_overlay_plane (&pl, d, 8, 2, 2, 2, 2, table,
          0), cudaErrorInvalidValue);
  pl.sub_y = 0;
  fail_unless_equals_int (cip_overlay_plane (&pl, d, 8, 0, 2, 2, 2, table,
          0), cudaErrorInvalidValue);
  fail_unless_equals_int (cip_overlay_plane (&pl, d, 8, 2, 2, 2, 0, table,
          0), cudaErrorInvalidValue);
  CUDA_OK (cip_overlay_plane (&pl, d, 8, 2, 2, 2, 2, table, 0));
  CUDA_OK (cudaDeviceSynchronize ());
  cudaFree (d);
  cudaFree (table);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* the element */

/* Each byte of a pixel of each plane, written out by hand for every format
 * (not from GStreamer's format table, which the element uses): 'R', 'G',
 * 'B', 'Y', 'U', 'V', or '-' for a byte copied. */
typedef struct
{
  const gchar *format;
  gint n_planes;
  const gchar *bytes[3];
  gint sub[3];
} Layout;

static const Layout layouts[] = {
  {"RGBA", 1, {"RGB-"}, {0}},
  {"BGRA", 1, {"BGR-"}, {0}},
  {"RGBx", 1, {"RGB-"}, {0}},
  {"BGRx", 1, {"BGR-"}, {0}},
  {"xRGB", 1, {"-RGB"}, {0}},
  {"xBGR", 1, {"-BGR"}, {0}},
  {"ARGB", 1, {"-RGB"}, {0}},
  {"ABGR", 1, {"-BGR"}, {0}},
  {"RGB", 1, {"RGB"}, {0}},
  {"BGR", 1, {"BGR"}, {0}},
  {"GRAY8", 1, {"L"}, {0}},
  {"I420", 3, {"Y", "U", "V"}, {0, 1, 1}},
  {"NV12", 2, {"Y", "UV"}, {0, 1}},
  {"Y444", 3, {"Y", "U", "V"}, {0, 0, 0}},
};

typedef struct
{
  const gchar *mode;
  guint color;
  gdouble alpha;
  guint palette[5];
  guint n_palette;
} Paint;

/* The byte @what of colour @rgb in the video's terms. */
static guint8
colour_byte (const GstVideoInfo * info, guint rgb, gchar what)
{
  const gint r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
  gdouble kr, kb;
  guint8 yuv[3];

  switch (what) {
    case 'R':
      return r;
    case 'G':
      return g;
    case 'B':
      return b;
    case 'L':                  /* cudagray's BT.601 luma */
      return (r * 9798 + g * 19235 + b * 3735 + 16384) >> 15;
    default:
      fail_unless (gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix,
              &kr, &kb));
      cip_overlay_rgb_to_yuv (kr, kb,
          info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255, r, g, b, yuv);
      return yuv[what == 'Y' ? 0 : what == 'U' ? 1 : 2];
  }
}

/* The expected output of @in (system memory) under @mask (tight GRAY8). */
static void
expected (const Layout * l, const GstVideoInfo * info, GstBuffer * in,
    const guint8 * mask, gint mw, gint mh, const Paint * paint,
    guint8 * planes[3], gint strides[3])
{
  GstVideoFrame f;
  guint8 alpha[256], colour[256 * 4];
  const guint8 a = (guint8) lround (paint->alpha * 255);
  gint p, v, j;

  fail_unless (gst_video_frame_map (&f, info, in, GST_MAP_READ));
  for (p = 0; p < l->n_planes; p++) {
    const gint bpp = strlen (l->bytes[p]);
    unsigned keep = 0;

    for (v = 0; v < 256; v++) {
      guint rgb = paint->color;

      if (!strcmp (paint->mode, "mask"))
        alpha[v] = v ? a : 0;
      else if (!strcmp (paint->mode, "alpha"))
        alpha[v] = (a * v + 127) / 255;
      else {
        alpha[v] = a;
        rgb = paint->palette[v % paint->n_palette];
      }
      for (j = 0; j < 4; j++)
        colour[v * 4 + j] = j < bpp && l->bytes[p][j] != '-' ?
            colour_byte (info, rgb, l->bytes[p][j]) : 0;
    }
    for (j = 0; j < bpp; j++)
      if (l->bytes[p][j] == '-')
        keep |= 1u << j;
    ref_overlay_plane (GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p), planes[p], strides[p], bpp,
        keep, l->sub[p], l->sub[p], mask, mw, mw, mh, info->width,
        info->height, alpha, colour);
  }
  gst_video_frame_unmap (&f);
}

/* The frame in @out equals the planes.  (In every layout here the first
 * component of plane p is component p.) */
static void
check_output (const Layout * l, const GstVideoInfo * info, GstBuffer * out,
    guint8 * planes[3], gint strides[3], const gchar * what)
{
  GstVideoFrame f;
  gint p;

  fail_unless (gst_video_frame_map (&f, info, out, GST_MAP_READ));
  for (p = 0; p < l->n_planes; p++) {
    glong d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p), planes[p], strides[p],
        GST_VIDEO_FRAME_COMP_WIDTH (&f, p) * (gint) strlen (l->bytes[p]),
        GST_VIDEO_FRAME_COMP_HEIGHT (&f, p));
    fail_unless (d < 0, "%s %s %dx%d: plane %d byte %ld differs", what,
        l->format, info->width, info->height, p, d);
  }
  gst_video_frame_unmap (&f);
}

/* A system-memory copy of a frame of @info (CUDA memory read back). */
static GstBuffer *
sys_copy (const GstVideoInfo * info, GstBuffer * in)
{
  GstBuffer *c = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame a, b;

  gst_buffer_add_video_meta_full (c, 0, GST_VIDEO_INFO_FORMAT (info),
      info->width, info->height, GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  fail_unless (gst_video_frame_map (&a, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, info, c, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&b, &a));
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  return c;
}

/* One frame (number @i) through the element; @mask NULL: no mask frame. */
static void
frame_case (Overlay * ov, const Layout * l, const GstVideoInfo * info,
    gboolean vcuda, const guint8 * mask, gint mw, gint mh, gboolean mcuda,
    const Paint * paint, gint i)
{
  GstBuffer *in = vcuda ? random_cuda_buffer (info, i) :
      random_sys_buffer (info, i);
  GstBuffer *in_sys = sys_copy (info, in), *out;
  guint8 *planes[3] = { NULL };
  gint strides[3], p;
  gchar *what = g_strdup_printf ("frame %d, mode %s, video %s, mask %s", i,
      paint->mode, vcuda ? "CUDA" : "system", !mask ? "none" : mcuda ? "CUDA" :
      "system");

  for (p = 0; p < l->n_planes; p++) {
    strides[p] = info->stride[p];
    planes[p] = g_malloc0 ((gsize) strides[p] * info->height);
  }
  if (mask) {
    expected (l, info, in_sys, mask, mw, mh, paint, planes, strides);
    fail_unless_equals_int (gst_harness_push (ov->mask,
            stamp (gray_frame_buffer (mask, mw, mh, mcuda), i)), GST_FLOW_OK);
  } else {
    GstVideoFrame f;

    /* unchanged */
    fail_unless (gst_video_frame_map (&f, info, in_sys, GST_MAP_READ));
    for (p = 0; p < l->n_planes; p++)
      memcpy (planes[p], GST_VIDEO_FRAME_PLANE_DATA (&f, p),
          (gsize) strides[p] * GST_VIDEO_FRAME_COMP_HEIGHT (&f, p));
    gst_video_frame_unmap (&f);
  }
  fail_unless_equals_int (gst_harness_push (ov->video, stamp (in, i)),
      GST_FLOW_OK);
  out = gst_harness_pull (ov->video);
  fail_unless (out != NULL, "%s: no output", what);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
      gst_util_uint64_scale (i, GST_SECOND, 30));
  check_output (l, info, out, planes, strides, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in_sys);
  for (p = 0; p < l->n_planes; p++)
    g_free (planes[p]);
  g_free (what);
}

static guint8 *
random_mask (gint w, gint h, guint32 seed, gboolean binary, gint labels)
{
  guint8 *m = g_malloc (w * h);
  gint i;

  fill_random (m, w * h, seed);
  for (i = 0; i < w * h; i++)
    m[i] = binary ? (m[i] > 160 ? 255 : 0) : labels ? m[i] % labels : m[i];
  return m;
}

/* Every format, each pad in either memory, each mode, the settings
 * changed while playing, and a mask of another size. */
GST_START_TEST (test_element)
{
  const gint w = 641, h = 479;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (layouts); f++) {
    const Layout *l = &layouts[f];
    gint combo;

    for (combo = 0; combo < 8; combo++) {
      const gboolean vcuda = combo & 1, mcuda = (combo >> 1) & 1;
      const gboolean ocuda = (combo >> 2) & 1;
      gchar *vc = caps_str (vcuda, l->format, w, h);
      gchar *mc = caps_str (mcuda, "GRAY8", w, h);
      gchar *mc2 = caps_str (mcuda, "GRAY8", 160, 120);
      gchar *oc = g_strdup_printf ("video/x-raw%s",
          ocuda ? "(memory:CUDAMemory)" : "");
      Overlay ov = overlay_new ("cudaoverlay", vc, mc, oc);
      GstVideoInfo info;
      GstCaps *caps = gst_caps_from_string (vc);
      Paint mask = { "mask", 0x00ff00, 0.6 };
      Paint alpha = { "alpha", 0xff2080, 0.9 };
      Paint labels = { "labels", 0, 0.5, {0xff0000, 0x00ff00, 0x0000ff,
          0xffffff, 0x123456}, 5
      };
      guint8 *bin = random_mask (w, h, combo, TRUE, 0);
      guint8 *soft = random_mask (w, h, combo + 100, FALSE, 0);
      guint8 *lab = random_mask (160, 120, combo + 200, FALSE, 8);
      gint i = 0;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_caps_unref (caps);
      /* the defaults: mode mask, green, alpha 0.6 */
      frame_case (&ov, l, &info, vcuda, bin, w, h, mcuda, &mask, i++);
      /* while playing, from the next frame */
      g_object_set (ov.o, "mode", 1, "color", 0xff2080, "alpha", 0.9, NULL);
      frame_case (&ov, l, &info, vcuda, soft, w, h, mcuda, &alpha, i++);
      gst_util_set_object_arg (G_OBJECT (ov.o), "mode", "labels");
      gst_util_set_object_arg (G_OBJECT (ov.o), "palette",
          "<0xff0000, 0x00ff00, 0x0000ff, 0xffffff, 0x123456>");
      g_object_set (ov.o, "alpha", 0.5, NULL);
      /* a quarter-size mask: stretched */
      gst_harness_set_src_caps_str (ov.mask, mc2);
      frame_case (&ov, l, &info, vcuda, lab, 160, 120, mcuda, &labels, i++);
      overlay_free (&ov);
      g_free (bin);
      g_free (soft);
      g_free (lab);
      g_free (vc);
      g_free (mc);
      g_free (mc2);
      g_free (oc);
    }
  }
}

GST_END_TEST;

static const Layout *
layout_of (const gchar * format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (layouts); i++)
    if (!strcmp (layouts[i].format, format))
      return &layouts[i];
  fail ("no layout %s", format);
  return NULL;
}

/* mode=boxes: the mask frame's regions of interest outlined (its pixels
 * not painted), stretched from a half-size mask, in three layouts and both
 * memories; line-width changed while playing; a frame without regions
 * leaves the video unchanged. */
GST_START_TEST (test_element_boxes)
{
  static const gint rois[][4] = { {10, 10, 40, 30}, {100, 50, 80, 90},
  {0, 0, 160, 120}, {150, 110, 3, 2}, {70, 20, 1, 1}
  };
  const gint w = 320, h = 240, mw = 160, mh = 120;
  static const gchar *formats[] = { "RGBA", "NV12", "GRAY8" };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const Layout *l;
    gint mcuda;

    l = layout_of (formats[f]);
    for (mcuda = 0; mcuda < 2; mcuda++) {
      gchar *vc = caps_str (FALSE, l->format, w, h);
      gchar *mc = caps_str (mcuda, "GRAY8", mw, mh);
      Overlay ov = overlay_new ("cudaoverlay mode=boxes line-width=3 "
          "color=0xff0000 alpha=1.0", vc, mc, "video/x-raw");
      Paint paint = { "mask", 0xff0000, 1.0 };
      GstVideoInfo info;
      GstCaps *caps = gst_caps_from_string (vc);
      gint frame, n;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_caps_unref (caps);
      for (frame = 0; frame < 3; frame++) {
        const gint line_width = frame == 0 ? 3 : 1;
        GstBuffer *in = random_sys_buffer (&info, frame + 10 * f);
        GstBuffer *in_sys = sys_copy (&info, in), *mbuf, *out;
        guint8 *noise = random_mask (mw, mh, frame, TRUE, 0);
        guint8 *drawn = g_malloc ((gsize) mw * mh);
        guint8 *planes[3] = { NULL };
        gint strides[3], p;
        gchar *what = g_strdup_printf ("boxes, %s, mask in %s memory, frame "
            "%d", l->format, mcuda ? "CUDA" : "system", frame);

        /* frame 2: no regions */
        n = frame == 2 ? 0 : G_N_ELEMENTS (rois);
        if (frame == 1)
          g_object_set (ov.o, "line-width", 1, NULL);
        ref_overlay_boxes (drawn, mw, mw, mh, &rois[0][0], n, line_width);
        for (p = 0; p < l->n_planes; p++) {
          strides[p] = info.stride[p];
          planes[p] = g_malloc0 ((gsize) strides[p] * info.height);
        }
        expected (l, &info, in_sys, drawn, mw, mh, &paint, planes, strides);
        mbuf = stamp (gray_frame_buffer (noise, mw, mh, mcuda), frame);
        for (i = 0; i < (guint) n; i++)
          gst_buffer_add_video_region_of_interest_meta (mbuf, "blob",
              rois[i][0], rois[i][1], rois[i][2], rois[i][3]);
        fail_unless_equals_int (gst_harness_push (ov.mask, mbuf), GST_FLOW_OK);
        fail_unless_equals_int (gst_harness_push (ov.video, stamp (in,
                    frame)), GST_FLOW_OK);
        out = gst_harness_pull (ov.video);
        fail_unless (out != NULL, "%s: no output", what);
        check_output (l, &info, out, planes, strides, what);
        gst_buffer_unref (out);
        gst_buffer_unref (in_sys);
        for (p = 0; p < l->n_planes; p++)
          g_free (planes[p]);
        g_free (noise);
        g_free (drawn);
        g_free (what);
      }
      overlay_free (&ov);
      g_free (vc);
      g_free (mc);
    }
  }
}

GST_END_TEST;

/* mode=picture: a 256x128 picture put at (x, y) over RGBA and NV12 video,
 * gray with alpha, moved while playing, partly outside the frame. */
GST_START_TEST (test_element_picture)
{
  static const gchar *formats[] = { "RGBA", "NV12" };
  const gint w = 320, h = 240, mw = 256, mh = 128;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const Layout *l;
    gchar *vc, *mc;
    Overlay ov;
    GstVideoInfo info;
    GstCaps *caps;
    gint frame;

    l = layout_of (formats[f]);
    vc = caps_str (FALSE, l->format, w, h);
    mc = caps_str (TRUE, "GRAY8", mw, mh);
    ov = overlay_new ("cudaoverlay mode=picture x=16 y=8 alpha=0.8", vc, mc,
        "video/x-raw");
    caps = gst_caps_from_string (vc);
    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    for (frame = 0; frame < 2; frame++) {
      const gint x = frame ? 200 : 16, y = frame ? -20 : 8;
      GstBuffer *in = random_sys_buffer (&info, frame + 40);
      GstBuffer *in_sys = sys_copy (&info, in), *out;
      guint8 *pic = random_mask (mw, mh, frame + 50, FALSE, 0);
      guint8 *planes[3] = { NULL };
      guint8 alpha[256], colour[256 * 4];
      const guint8 a = (guint8) lround (0.8 * 255);
      gint strides[3], p, v, j;
      GstVideoFrame vf;
      gchar *what = g_strdup_printf ("picture over %s at (%d, %d)",
          l->format, x, y);

      if (frame)
        g_object_set (ov.o, "x", x, "y", y, NULL);
      fail_unless (gst_video_frame_map (&vf, &info, in_sys, GST_MAP_READ));
      for (p = 0; p < l->n_planes; p++) {
        const gint bpp = strlen (l->bytes[p]);
        unsigned keep = 0;

        strides[p] = info.stride[p];
        planes[p] = g_malloc0 ((gsize) strides[p] * info.height);
        for (v = 0; v < 256; v++) {
          alpha[v] = a;
          for (j = 0; j < 4; j++)
            colour[v * 4 + j] = j < bpp && l->bytes[p][j] != '-' ?
                colour_byte (&info, v * 0x010101u, l->bytes[p][j]) : 0;
        }
        for (j = 0; j < bpp; j++)
          if (l->bytes[p][j] == '-')
            keep |= 1u << j;
        ref_overlay_plane_at (GST_VIDEO_FRAME_PLANE_DATA (&vf, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p), planes[p], strides[p], bpp,
            keep, l->sub[p], l->sub[p], pic, mw, mw, mh, w, h, alpha, colour,
            TRUE, x, y);
      }
      gst_video_frame_unmap (&vf);
      fail_unless_equals_int (gst_harness_push (ov.mask,
              stamp (gray_frame_buffer (pic, mw, mh, TRUE), frame)),
          GST_FLOW_OK);
      fail_unless_equals_int (gst_harness_push (ov.video, stamp (in, frame)),
          GST_FLOW_OK);
      out = gst_harness_pull (ov.video);
      fail_unless (out != NULL, "%s: no output", what);
      check_output (l, &info, out, planes, strides, what);
      gst_buffer_unref (out);
      gst_buffer_unref (in_sys);
      for (p = 0; p < l->n_planes; p++)
        g_free (planes[p]);
      g_free (pic);
      g_free (what);
    }
    overlay_free (&ov);
    g_free (vc);
    g_free (mc);
  }
}

GST_END_TEST;

/* Without a mask pad, or once the mask stream ended, the video passes
 * unchanged; once the video ends, the output ends. */
GST_START_TEST (test_no_mask_and_eos)
{
  const Layout *l = &layouts[0];
  gchar *vc = caps_str (FALSE, "RGBA", 64, 48);
  gchar *mc = caps_str (TRUE, "GRAY8", 64, 48);
  Overlay ov = overlay_new ("cudaoverlay", vc, NULL, "video/x-raw");
  Paint paint = { "mask", 0x00ff00, 0.6 };
  GstVideoInfo info;
  guint8 *bin = random_mask (64, 48, 9, TRUE, 0);
  GstEvent *ev;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  frame_case (&ov, l, &info, FALSE, NULL, 0, 0, FALSE, &paint, 0);
  frame_case (&ov, l, &info, FALSE, NULL, 0, 0, FALSE, &paint, 1);
  overlay_free (&ov);

  ov = overlay_new ("cudaoverlay", vc, mc, "video/x-raw(memory:CUDAMemory)");
  frame_case (&ov, l, &info, FALSE, bin, 64, 48, TRUE, &paint, 0);
  fail_unless (gst_harness_push_event (ov.mask, gst_event_new_eos ()));
  frame_case (&ov, l, &info, FALSE, NULL, 0, 0, FALSE, &paint, 1);
  frame_case (&ov, l, &info, FALSE, NULL, 0, 0, FALSE, &paint, 2);
  fail_unless (gst_harness_push_event (ov.video, gst_event_new_eos ()));
  /* EOS comes out, after the stream-start, caps and segment */
  while ((ev = gst_harness_pull_event (ov.video)) &&
      GST_EVENT_TYPE (ev) != GST_EVENT_EOS)
    gst_event_unref (ev);
  fail_unless (ev != NULL, "no EOS after the video's");
  gst_event_unref (ev);
  overlay_free (&ov);
  g_free (bin);
  g_free (vc);
  g_free (mc);
}

GST_END_TEST;

/* The video's size and format change mid-stream, to 1x1 and 3x2 and
 * back, the mask keeping its own size. */
GST_START_TEST (test_resize)
{
  static const struct
  {
    guint layout;
    gint w, h;
  } steps[] = { {0, 641, 479}, {12, 3, 2}, {10, 1, 1}, {11, 5, 3},
  {8, 1283, 721}
  };
  gchar *mc = caps_str (FALSE, "GRAY8", 33, 17);
  gchar *vc = caps_str (TRUE, "RGBA", 641, 479);
  Overlay ov = overlay_new ("cudaoverlay mode=alpha alpha=1.0", vc, mc,
      "video/x-raw");
  Paint paint = { "alpha", 0x00ff00, 1.0 };
  guint8 *soft = random_mask (33, 17, 4, FALSE, 0);
  guint s;

  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    const Layout *l = &layouts[steps[s].layout];
    gchar *c = caps_str (TRUE, l->format, steps[s].w, steps[s].h);
    GstCaps *caps = gst_caps_from_string (c);
    GstVideoInfo info;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_harness_set_src_caps_str (ov.video, c);
    frame_case (&ov, l, &info, TRUE, soft, 33, 17, FALSE, &paint, s);
    gst_caps_unref (caps);
    g_free (c);
  }
  overlay_free (&ov);
  g_free (soft);
  g_free (mc);
  g_free (vc);
}

GST_END_TEST;

/* The preview as users write it: the video teed to cudaoverlay and to
 * cudagray ! cudaotsu, whose mask comes back in CUDA memory; every link
 * between our elements in CUDA memory; the result that of the reference
 * chain. */
GST_START_TEST (test_chain)
{
  const gint w = 643, h = 481;
  GstHarness *hh = filter_harness ("tee name=t ! queue ! cudaoverlay name=o "
      "color=0xff0000 alpha=1.0 t. ! queue ! cudagray ! cudaotsu ! o.mask",
      "video/x-raw,format=RGBA,width=643,height=481,framerate=30/1",
      "video/x-raw,format=RGBA");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame fi;
  guint8 *gray = g_malloc (w * h), *bin = g_malloc (w * h);
  guint8 *planes[3] = { g_malloc (w * h * 4) };
  gint strides[3] = { w * 4 };
  guint32 hist[256];
  Paint paint = { "mask", 0xff0000, 1.0 };
  GstElement *o;
  GstPad *pad;
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  for (i = 0; i < 3; i++) {
    in = stamp (random_sys_buffer (&info, 40 + i), i);
    fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
    ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), 4, 0, 1, 2, gray, w, w, h,
        9798, 19235, 3735, 65536);
    gst_video_frame_unmap (&fi);
    ref_histogram (gray, w, w, h, hist);
    ref_binarize (gray, w, bin, w, w, h, ref_otsu_threshold (hist,
            (guint64) w * h), 0);
    expected (&layouts[0], &info, in, bin, w, h, &paint, planes, strides);
    fail_unless_equals_int (gst_harness_push (hh, in), GST_FLOW_OK);
    out = gst_harness_pull (hh);
    fail_unless (out != NULL);
    check_output (&layouts[0], &info, out, planes, strides, "chain");
    gst_buffer_unref (out);
  }
  o = gst_bin_get_by_name (GST_BIN (hh->element), "o");
  for (i = 0; i < 2; i++) {
    GstCaps *caps;
    gchar *s;

    pad = gst_element_get_static_pad (o, i ? "video" : "mask");
    caps = gst_pad_get_current_caps (pad);
    s = gst_caps_to_string (caps);
    /* the mask from cudaotsu in CUDA memory; the video from the tee in
     * system memory, uploaded inside */
    fail_unless ((strstr (s, "memory:CUDAMemory") != NULL) == !i,
        "%s linked with %s", i ? "video" : "mask", s);
    g_free (s);
    gst_caps_unref (caps);
    gst_object_unref (pad);
  }
  gst_object_unref (o);
  gst_harness_teardown (hh);
  g_free (gray);
  g_free (bin);
  g_free (planes[0]);
}

GST_END_TEST;

/* The built-in palette: 256 distinct colours, label i in colour i. */
GST_START_TEST (test_builtin_palette)
{
  gchar *vc = caps_str (FALSE, "RGB", 256, 1);
  gchar *mc = caps_str (FALSE, "GRAY8", 256, 1);
  Overlay ov = overlay_new ("cudaoverlay mode=labels alpha=1.0", vc, mc,
      "video/x-raw");
  GstVideoInfo info;
  GstBuffer *out;
  GstMapInfo map;
  guint8 labels[256];
  gint i, j;

  for (i = 0; i < 256; i++)
    labels[i] = i;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 256, 1);
  fail_unless_equals_int (gst_harness_push (ov.mask,
          stamp (gray_frame_buffer (labels, 256, 1, FALSE), 0)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (ov.video,
          stamp (random_sys_buffer (&info, 3), 0)), GST_FLOW_OK);
  out = gst_harness_pull (ov.video);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (i = 0; i < 256; i++)
    for (j = 0; j < i; j++)
      fail_if (!memcmp (map.data + i * 3, map.data + j * 3, 3),
          "labels %d and %d have the same colour", i, j);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  overlay_free (&ov);
  g_free (vc);
  g_free (mc);
}

GST_END_TEST;

static Suite *
overlay_gpu_suite (void)
{
  Suite *s = suite_create ("cudaoverlay-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_kernel);
  tcase_add_test (tc, test_kernel_8k);
  tcase_add_test (tc, test_kernel_refuses);
  tcase_add_test (tc, test_kernel_boxes);
  tcase_add_test (tc, test_element_boxes);
  tcase_add_test (tc, test_kernel_placed);
  tcase_add_test (tc, test_element_picture);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_no_mask_and_eos);
  tcase_add_test (tc, test_resize);
  tcase_add_test (tc, test_chain);
  tcase_add_test (tc, test_builtin_palette);
  return s;
}

GPU_CHECK_MAIN (overlay_gpu);

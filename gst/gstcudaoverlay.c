/* cudaimgproc: cudaoverlay
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudaoverlay
 * @title: cudaoverlay
 *
 * Paints a GRAY8 mask over video on an NVIDIA GPU: the result of cudaotsu,
 * cudasobel, cudathin or cudakmeans (`output=labels`) shown over the
 * picture it came from.
 *
 * The always pad `video` takes any format #cudagray takes (packed RGB,
 * I420, NV12, Y444, GRAY8) and sets the output: same format, size,
 * framerate and colorimetry.  The request pad `mask` takes GRAY8 of any
 * size, stretched over the video by nearest neighbour.  Frames are matched
 * by timestamp as compositor matches them (cudaoverlay is a
 * #GstVideoAggregator): each output frame takes the mask frame of its
 * running time.  Without a mask frame (none linked, or the mask stream
 * ended) the video passes unchanged; when the video ends, so does the
 * output.
 *
 * #GstCudaOverlay:mode says what a mask value v paints:
 *
 * * `mask`: v > 0 is painted in #GstCudaOverlay:color with
 *   #GstCudaOverlay:alpha, v = 0 is left as it is (cudaotsu, cudathin);
 * * `alpha`: every pixel in the colour with alpha × v / 255 (cudasobel's
 *   edge strength fades in);
 * * `labels`: every pixel in colour v of #GstCudaOverlay:palette (or of a
 *   built-in palette of 256 distinct colours) with alpha (cudakmeans
 *   labels);
 * * `boxes`: the mask's pixels are not painted but its frame's regions of
 *   interest (#GstVideoRegionOfInterestMeta, such as #cudablobs attaches
 *   for each blob, the first 1024) are outlined, #GstCudaOverlay:line-width
 *   mask pixels thick inside each box, in the colour with alpha;
 * * `picture`: the mask frame is a picture (cudahistogram's), not stretched
 *   but put 1:1 with its top left corner at (#GstCudaOverlay:x,
 *   #GstCudaOverlay:y), each value v painted as the gray (v, v, v) with
 *   alpha; the video around it is left as it is.
 *
 * A pixel p becomes `(p × (255 - a) + c × a + 127) / 255` in each channel,
 * integers, with a = round (alpha × 255) and c the colour in the video's
 * format (YUV with the video's matrix and range; luma for GRAY8); alpha
 * and padding bytes are copied.  Subsampled chroma (I420, NV12) takes the
 * mean of the blends of the pixels it covers.  docs/elements.md has the
 * exact definition; tests/cpu_ref.c is its reference.
 *
 * All pads take `video/x-raw(memory:CUDAMemory)` and system memory, CUDA
 * memory first; system memory is uploaded and the output downloaded inside
 * the element.  Properties may change while playing and apply from the
 * next output frame.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGBA ! tee name=t ! queue ! cudaoverlay name=o color=0xff0000 alpha=1.0 ! videoconvert ! autovideosink t. ! queue ! cudagray ! cudaotsu ! cudathin ! o.mask
 * ]| the skeleton of the ball in red over it.
 * |[
 * gst-launch-1.0 videotestsrc pattern=smpte ! video/x-raw,format=RGBA ! tee name=t ! queue ! cudaoverlay name=o mode=labels alpha=0.5 ! videoconvert ! autovideosink t. ! queue ! cudakmeans k=6 output=labels ! o.mask
 * ]| k-means segments, half transparent.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGBA ! tee name=t ! queue ! cudaoverlay name=o mode=boxes color=0xff0000 alpha=1.0 ! videoconvert ! autovideosink t. ! queue ! cudagray ! cudaotsu ! cudablobs min-area=20 ! o.mask
 * ]| a red box around each object.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaoverlay.h"
#include "gstcudaimgelement.h"
#include "gstcudaimggray.h"
#include "gstcudaimgpool.h"
#include "gstcudaimgtransfer.h"
#include "cip_alloc.h"
#include "gray.h"
#include "overlay.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_overlay_debug);
#define GST_CAT_DEFAULT gst_cuda_overlay_debug

typedef enum
{
  GST_CUDA_OVERLAY_MODE_MASK,
  GST_CUDA_OVERLAY_MODE_ALPHA,
  GST_CUDA_OVERLAY_MODE_LABELS,
  GST_CUDA_OVERLAY_MODE_BOXES,
  GST_CUDA_OVERLAY_MODE_PICTURE,
} GstCudaOverlayMode;

#define GST_TYPE_CUDA_OVERLAY_MODE (gst_cuda_overlay_mode_get_type ())
static GType
gst_cuda_overlay_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_OVERLAY_MODE_MASK, "Non-zero mask pixels in the colour",
        "mask"},
    {GST_CUDA_OVERLAY_MODE_ALPHA, "The colour with alpha scaled by the mask "
          "value / 255", "alpha"},
    {GST_CUDA_OVERLAY_MODE_LABELS, "Mask value v in palette colour v",
        "labels"},
    {GST_CUDA_OVERLAY_MODE_BOXES, "The outlines of the mask frame's regions "
          "of interest (cudablobs' blobs) in the colour", "boxes"},
    {GST_CUDA_OVERLAY_MODE_PICTURE, "The mask frame as a gray picture, 1:1, "
          "at x, y (cudahistogram's)", "picture"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaOverlayMode", values);
}

#define DEFAULT_MODE GST_CUDA_OVERLAY_MODE_MASK
#define DEFAULT_COLOR 0x00ff00
#define DEFAULT_ALPHA 0.6
#define DEFAULT_LINE_WIDTH 2
#define DEFAULT_X 0
#define DEFAULT_Y 0
#define MAX_PALETTE CIP_OVERLAY_VALUES

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_MODE,
  PROP_COLOR,
  PROP_ALPHA,
  PROP_PALETTE,
  PROP_LINE_WIDTH,
  PROP_X,
  PROP_Y,
};

/* ------------------------------------------------------------------------ */
/* the pads */

#define GST_TYPE_CUDA_OVERLAY_PAD (gst_cuda_overlay_pad_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaOverlayPad, gst_cuda_overlay_pad, GST,
    CUDA_OVERLAY_PAD, GstVideoAggregatorPad);

struct _GstCudaOverlayPad
{
  GstVideoAggregatorPad parent;

  /* system memory (or another context's) copied up; streaming thread,
   * or the last unref of a released pad */
  GstCudaImgUploader *uploader;
  GstCudaContext *uploader_context;
  GstVideoInfo uploader_info;
};

G_DEFINE_TYPE (GstCudaOverlayPad, gst_cuda_overlay_pad,
    GST_TYPE_VIDEO_AGGREGATOR_PAD);

static void
release_pad_resources (GstCudaOverlayPad * pad)
{
  if (pad->uploader && gst_cuda_context_push (pad->uploader_context)) {
    /* the kernels that read it are done: the element waits for each frame */
    gst_cuda_img_uploader_free (pad->uploader);
    gst_cuda_context_pop (NULL);
  }
  pad->uploader = NULL;
  gst_clear_object (&pad->uploader_context);
}

/* A released pad may still be in the frame being made: its uploader goes
 * with its last reference. */
static void
gst_cuda_overlay_pad_finalize (GObject * object)
{
  release_pad_resources (GST_CUDA_OVERLAY_PAD (object));
  G_OBJECT_CLASS (gst_cuda_overlay_pad_parent_class)->finalize (object);
}

static void
gst_cuda_overlay_pad_class_init (GstCudaOverlayPadClass * klass)
{
  GstVideoAggregatorPadClass *vpad_class =
      GST_VIDEO_AGGREGATOR_PAD_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cuda_overlay_pad_finalize;

  /* The buffers are read on the GPU: mapping them for the CPU, as the base
   * class would, would download every CUDA frame. */
  vpad_class->prepare_frame = NULL;
  vpad_class->clean_frame = NULL;
}

static void
gst_cuda_overlay_pad_init (GstCudaOverlayPad * pad)
{
}

/* ------------------------------------------------------------------------ */

/* The properties a frame uses, all read under one lock: a frame never
 * mixes two sides of a change made while it is painted. */
typedef struct
{
  GstCudaOverlayMode mode;
  guint color, n_palette, cookie;
  guint8 alpha;
  guint line_width;
  gint x, y;
} Settings;

struct _GstCudaOverlay
{
  GstVideoAggregator parent;

  GstCudaOverlayPad *video;

  /* under the object lock */
  gint device_id;
  GstCudaOverlayMode mode;
  guint color;
  gdouble alpha;
  GArray *palette;              /* guint 0xRRGGBB; empty: built-in */
  guint line_width;
  gint x, y;
  guint settings_cookie;        /* changes with each of the above */

  /* the settings of the frame at hand, taken at once (aggregator thread) */
  Settings frame;
  guint frame_palette[MAX_PALETTE];

  /* between start and stop */
  GstCudaContext *context;
  GstCudaImgStream *stream;
  GstAllocator *host_allocator;
  GstCudaImgHostEvent done;     /* a frame's work, waited for on the host */
  GstCudaImgHostWait wait;
  gboolean no_kernels;

  /* the output format, set at negotiation (streaming thread) */
  GstVideoInfo out_info;
  gboolean out_cuda;
  GstBuffer *scratch;           /* device frame for system-memory output */
  guint n_planes;
  CipOverlayPlane planes[GST_VIDEO_MAX_PLANES];
  gint8 byte_comp[GST_VIDEO_MAX_PLANES][4];     /* -1: copied */
  CipOverlayTable tables[GST_VIDEO_MAX_PLANES];
  CipOverlayTable *d_tables;    /* the same on the device, start to stop */
  guint tables_cookie;
  gboolean tables_valid;
  /* mode=boxes: the boxes (page-locked, and on the device; start to stop)
   * and the mask they are drawn into (per mask size) */
  CipOverlayBox *boxes;
  CipOverlayBox *d_boxes;
  guint8 *box_mask;
  gint box_pitch, box_w, box_h;
};

#define gst_cuda_overlay_parent_class parent_class
G_DEFINE_TYPE (GstCudaOverlay, gst_cuda_overlay, GST_TYPE_VIDEO_AGGREGATOR);
GST_ELEMENT_REGISTER_DEFINE (cudaoverlay, "cudaoverlay", GST_RANK_NONE,
    GST_TYPE_CUDA_OVERLAY);

/* ------------------------------------------------------------------------ */
/* colours */

/* Colour i of the built-in palette: hues a golden-ratio turn apart, so
 * that neighbouring labels differ most; value alternates for the rest. */
static guint
builtin_color (guint i)
{
  const gdouble h = fmod (i * 0.6180339887498949, 1.0) * 6.0;
  const gdouble s = 0.8, v = (i & 1) ? 0.8 : 1.0;
  const gint sector = (gint) h;
  const gdouble f = h - sector;
  const gdouble p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  gdouble r, g, b;

  switch (sector) {
    case 0:
      r = v, g = t, b = p;
      break;
    case 1:
      r = q, g = v, b = p;
      break;
    case 2:
      r = p, g = v, b = t;
      break;
    case 3:
      r = p, g = q, b = v;
      break;
    case 4:
      r = t, g = p, b = v;
      break;
    default:
      r = v, g = p, b = q;
      break;
  }
  return ((guint) lround (r * 255) << 16) | ((guint) lround (g * 255) << 8) |
      (guint) lround (b * 255);
}

/* The components (R, G, B; Y, U, V; or gray) of 0xRRGGBB in @info's
 * format. */
static void
color_components (const GstVideoInfo * info, guint rgb, guint8 comp[4])
{
  const gint r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;

  comp[3] = 255;
  if (GST_VIDEO_INFO_IS_YUV (info)) {
    /* BT.601 where the matrix is unknown: Kr, Kb are then left as they are */
    gdouble kr = 0.299, kb = 0.114;

    gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix, &kr, &kb);
    cip_overlay_rgb_to_yuv (kr, kb,
        info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255, r, g, b, comp);
  } else if (GST_VIDEO_INFO_IS_GRAY (info)) {
    /* as cudagray makes luma (BT.601, OpenCV's COLOR_RGB2GRAY) */
    comp[0] = (r * CIP_GRAY_BT601_R + g * CIP_GRAY_BT601_G +
        b * CIP_GRAY_BT601_B + (1 << (CIP_GRAY_SHIFT - 1))) >> CIP_GRAY_SHIFT;
  } else {
    comp[0] = r;
    comp[1] = g;
    comp[2] = b;
  }
}

/* Which component each byte of each plane's pixel holds, from the format's
 * description; alpha and padding bytes are copied. */
static void
describe_planes (GstCudaOverlay * self, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint c, p;

  self->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  memset (self->byte_comp, -1, sizeof self->byte_comp);
  memset (self->planes, 0, sizeof self->planes);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    CipOverlayPlane *pl = &self->planes[GST_VIDEO_FORMAT_INFO_PLANE (finfo, c)];
    gint off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

    pl->bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    pl->sub_x = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    pl->sub_y = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    if (c != GST_VIDEO_COMP_A && off < 4)
      self->byte_comp[GST_VIDEO_FORMAT_INFO_PLANE (finfo, c)][off] = c;
  }
  for (p = 0; p < self->n_planes; p++) {
    gint j;

    self->planes[p].keep = 0;
    for (j = 0; j < self->planes[p].bpp; j++)
      if (self->byte_comp[p][j] < 0)
        self->planes[p].keep |= 1u << j;
  }
  self->tables_valid = FALSE;
}

/* The frame's settings, taken under the object lock (the palette only
 * where the tables are to be made again). */
static void
take_settings (GstCudaOverlay * self)
{
  Settings *f = &self->frame;

  f->mode = self->mode;
  f->color = self->color;
  f->alpha = (guint8) lround (self->alpha * 255);
  f->line_width = self->line_width;
  f->x = self->x;
  f->y = self->y;
  f->cookie = self->settings_cookie;
  f->n_palette = self->palette->len;
  if (f->n_palette && (!self->tables_valid || f->cookie != self->tables_cookie))
    memcpy (self->frame_palette, self->palette->data,
        f->n_palette * sizeof (guint));
}

/* Each plane's table for the frame's settings, made again (and copied to
 * the device, in stream order) only when the settings or the format
 * changed.  Context current. */
static cudaError_t
update_tables (GstCudaOverlay * self, cudaStream_t stream)
{
  const Settings *f = &self->frame;
  const GstCudaOverlayMode mode = f->mode;
  const guint color = f->color, n_palette = f->n_palette;
  const guint *palette = self->frame_palette;
  const guint8 a = f->alpha;
  guint v, p;

  if (self->tables_valid && f->cookie == self->tables_cookie)
    return cudaSuccess;
  for (v = 0; v < CIP_OVERLAY_VALUES; v++) {
    guint rgb = color;
    guint8 alpha = a, comp[4];

    if (mode == GST_CUDA_OVERLAY_MODE_MASK ||
        mode == GST_CUDA_OVERLAY_MODE_BOXES)
      alpha = v ? a : 0;
    else if (mode == GST_CUDA_OVERLAY_MODE_ALPHA)
      alpha = (guint8) ((a * v + 127) / 255);
    else if (mode == GST_CUDA_OVERLAY_MODE_PICTURE)
      rgb = v * 0x010101u;
    else
      rgb = n_palette ? palette[v % n_palette] : builtin_color (v);
    color_components (&self->out_info, rgb, comp);
    for (p = 0; p < self->n_planes; p++) {
      gint j;

      self->tables[p].alpha[v] = alpha;
      for (j = 0; j < 4; j++)
        self->tables[p].colour[v][j] = self->byte_comp[p][j] >= 0 ?
            comp[self->byte_comp[p][j]] : 0;
    }
  }
  self->tables_cookie = f->cookie;
  self->tables_valid = TRUE;
  /* the previous frame was waited for: the copy overwrites nothing in use */
  return cudaMemcpyAsync (self->d_tables, self->tables,
      self->n_planes * sizeof (CipOverlayTable), cudaMemcpyHostToDevice,
      stream);
}

/* ------------------------------------------------------------------------ */
/* properties */

static void
gst_cuda_overlay_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (object);
  guint i;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_COLOR:
      self->color = g_value_get_uint (value);
      break;
    case PROP_ALPHA:
      self->alpha = g_value_get_double (value);
      break;
    case PROP_LINE_WIDTH:
      self->line_width = g_value_get_uint (value);
      break;
    case PROP_X:
      self->x = g_value_get_int (value);
      break;
    case PROP_Y:
      self->y = g_value_get_int (value);
      break;
    case PROP_PALETTE:
      g_array_set_size (self->palette, 0);
      for (i = 0; i < gst_value_array_get_size (value) && i < MAX_PALETTE; i++) {
        guint c = g_value_get_uint (gst_value_array_get_value (value, i));
        g_array_append_val (self->palette, c);
      }
      if (gst_value_array_get_size (value) > MAX_PALETTE)
        GST_WARNING_OBJECT (self, "palette has %u colours; the first %d are "
            "used", gst_value_array_get_size (value), MAX_PALETTE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  self->settings_cookie++;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_overlay_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (object);
  guint i;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_COLOR:
      g_value_set_uint (value, self->color);
      break;
    case PROP_ALPHA:
      g_value_set_double (value, self->alpha);
      break;
    case PROP_LINE_WIDTH:
      g_value_set_uint (value, self->line_width);
      break;
    case PROP_X:
      g_value_set_int (value, self->x);
      break;
    case PROP_Y:
      g_value_set_int (value, self->y);
      break;
    case PROP_PALETTE:
      for (i = 0; i < self->palette->len; i++) {
        GValue v = G_VALUE_INIT;

        g_value_init (&v, G_TYPE_UINT);
        g_value_set_uint (&v, g_array_index (self->palette, guint, i));
        gst_value_array_append_and_take_value (value, &v);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_overlay_set_context (GstElement * element, GstContext * context)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_handle_set_context (element, context, device_id, &self->context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ------------------------------------------------------------------------ */
/* start, stop, pads */

static GstAggregatorPad *
gst_cuda_overlay_create_new_pad (GstAggregator * agg, GstPadTemplate * templ,
    const gchar * req_name, const GstCaps * caps)
{
  GstPad *existing = gst_element_get_static_pad (GST_ELEMENT (agg), "mask");

  if (existing || g_strcmp0 (GST_PAD_TEMPLATE_NAME_TEMPLATE (templ), "mask")) {
    GST_WARNING_OBJECT (agg, "cudaoverlay has one request pad, \"mask\"");
    gst_clear_object (&existing);
    return NULL;
  }
  return g_object_new (GST_TYPE_CUDA_OVERLAY_PAD, "name", "mask",
      "direction", GST_PAD_SINK, "template", templ, NULL);
}

static gboolean
release_pad_foreach (GstElement * element, GstPad * pad, gpointer user_data)
{
  release_pad_resources (GST_CUDA_OVERLAY_PAD (pad));
  return TRUE;
}

/* Context current. */
static void
release_resources (GstCudaOverlay * self)
{
  if (self->stream)
    cudaStreamSynchronize (gst_cuda_img_stream_handle (self->stream));
  gst_element_foreach_sink_pad (GST_ELEMENT (self), release_pad_foreach, NULL);
  gst_clear_buffer (&self->scratch);
  g_clear_pointer (&self->box_mask, cip_free);
  self->box_w = self->box_h = 0;
}

/* What start opened, released by stop and by a start that fails half way
 * (the aggregator calls no stop after a failed start). */
static void
close_resources (GstCudaOverlay * self)
{
  if (self->context && gst_cuda_context_push (self->context)) {
    release_resources (self);
    g_clear_pointer (&self->d_tables, cip_free);
    g_clear_pointer (&self->d_boxes, cip_free);
    g_clear_pointer (&self->boxes, cip_free_host);
    if (self->done.word)
      gst_cuda_img_host_event_clear (&self->done);
    gst_cuda_context_pop (NULL);
  }
  g_clear_pointer (&self->stream, gst_cuda_img_stream_unref);
  gst_clear_object (&self->host_allocator);
  gst_clear_object (&self->context);
}

static gboolean
gst_cuda_overlay_start (GstAggregator * agg)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);
  cudaError_t err;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);

  self->no_kernels = g_getenv ("CUDAIMGPROC_NO_KERNELS") != NULL;
  if (!gst_cuda_img_open (GST_ELEMENT (self), device_id, &self->context,
          &self->stream, &self->host_allocator))
    goto failed;
  if (!gst_cuda_img_push_context (GST_ELEMENT (self), self->context))
    goto failed;
  err = cip_malloc ((void **) &self->d_tables,
      GST_VIDEO_MAX_PLANES * sizeof (CipOverlayTable), "cudaoverlay tables");
  if (err != cudaSuccess) {
    gst_cuda_context_pop (NULL);
    self->d_tables = NULL;
    gst_cuda_img_post_cuda_error (GST_ELEMENT (self), err,
        "allocating the colour tables");
    goto failed;
  }
  err = cip_malloc ((void **) &self->d_boxes, CIP_OVERLAY_MAX_BOXES *
      sizeof (CipOverlayBox), "cudaoverlay boxes");
  if (err == cudaSuccess)
    err = cip_host_alloc ((void **) &self->boxes, CIP_OVERLAY_MAX_BOXES *
        sizeof (CipOverlayBox), cudaHostAllocDefault,
        "page-locked cudaoverlay boxes");
  if (err != cudaSuccess) {
    gst_cuda_context_pop (NULL);
    gst_cuda_img_post_cuda_error (GST_ELEMENT (self), err,
        "allocating the boxes");
    goto failed;
  }
  err = gst_cuda_img_host_event_init (&self->done, FALSE);
  gst_cuda_context_pop (NULL);
  if (err != cudaSuccess) {
    gst_cuda_img_post_cuda_error (GST_ELEMENT (self), err, "creating an event");
    goto failed;
  }
  return GST_AGGREGATOR_CLASS (parent_class)->start (agg);

failed:
  close_resources (self);
  return FALSE;
}

static gboolean
gst_cuda_overlay_stop (GstAggregator * agg)
{
  close_resources (GST_CUDA_OVERLAY (agg));
  return GST_AGGREGATOR_CLASS (parent_class)->stop (agg);
}

/* ------------------------------------------------------------------------ */
/* caps */

/* The video pad takes what downstream takes (the output is the video's
 * format and size), the mask its template; either in both memories, CUDA
 * memory first. */
static GstCaps *
pad_caps (GstCudaOverlay * self, GstPad * pad, GstCaps * filter)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (pad), *caps;

  if (pad != GST_PAD (self->video))
    return gst_cuda_img_in_both_memories (templ, NULL, filter);
  caps = gst_pad_peer_query_caps (GST_AGGREGATOR_SRC_PAD (self), NULL);
  if (gst_caps_is_any (caps))
    gst_caps_replace (&caps, templ);
  caps = gst_cuda_img_in_both_memories (caps, templ, filter);
  gst_caps_unref (templ);
  return caps;
}

static gboolean
gst_cuda_overlay_sink_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gst_cuda_handle_context_query (GST_ELEMENT (agg), query,
              self->context))
        return TRUE;
      break;
    case GST_QUERY_CAPS:{
      GstCaps *filter, *caps;

      gst_query_parse_caps (query, &filter);
      caps = pad_caps (self, GST_PAD (pad), filter);
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
      return TRUE;
    }
    case GST_QUERY_ACCEPT_CAPS:{
      GstCaps *caps, *ours;

      gst_query_parse_accept_caps (query, &caps);
      ours = pad_caps (self, GST_PAD (pad), NULL);
      gst_query_set_accept_caps_result (query, gst_caps_is_fixed (caps) &&
          gst_caps_can_intersect (caps, ours));
      gst_caps_unref (ours);
      return TRUE;
    }
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
}

static gboolean
gst_cuda_overlay_src_query (GstAggregator * agg, GstQuery * query)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (GST_ELEMENT (agg), query, self->context))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->src_query (agg, query);
}

/* The output is the video's format, size, rate and colorimetry, in CUDA
 * memory where downstream takes it.  Until the video pad has caps there is
 * nothing to decide (a mask arriving first waits). */
static GstFlowReturn
gst_cuda_overlay_update_src_caps (GstAggregator * agg, GstCaps * downstream,
    GstCaps ** ret)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);
  GstVideoInfo info;
  GstCaps *caps;

  GST_OBJECT_LOCK (self);
  info = GST_VIDEO_AGGREGATOR_PAD (self->video)->info;
  GST_OBJECT_UNLOCK (self);
  if (!info.finfo || GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_UNKNOWN) {
    *ret = NULL;
    return GST_AGGREGATOR_FLOW_NEED_DATA;
  }
  caps = gst_video_info_to_caps (&info);
  /* Output frames are made at a rate: video of variable rate (0/1) gets
   * the mask's, or 25/1, as compositor gives (the base class's fixate). */
  if (GST_VIDEO_INFO_FPS_N (&info) == 0)
    gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION_RANGE, 1, 1,
        G_MAXINT, 1, NULL);
  *ret = gst_cuda_img_in_both_memories (caps, NULL, downstream);
  GST_DEBUG_OBJECT (self, "output %" GST_PTR_FORMAT, *ret);
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_overlay_negotiated_src_caps (GstAggregator * agg, GstCaps * caps)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);
  gboolean ret = TRUE;

  if (!GST_AGGREGATOR_CLASS (parent_class)->negotiated_src_caps (agg, caps))
    return FALSE;
  if (!gst_video_info_from_caps (&self->out_info, caps))
    return FALSE;
  if (!gst_cuda_img_push_context (GST_ELEMENT (self), self->context))
    return FALSE;
  release_resources (self);
  self->out_cuda = gst_cuda_img_caps_are_cuda (caps);
  describe_planes (self, &self->out_info);

  if (!self->out_cuda) {
    /* the kernels write here, then the frame goes down to system memory */
    GstVideoInfo dev;
    GstMemory *mem = gst_cuda_img_memory_alloc (self->context,
        &self->out_info, &dev);

    if (mem) {
      self->scratch = gst_buffer_new ();
      gst_buffer_append_memory (self->scratch, mem);
      gst_buffer_add_video_meta_full (self->scratch, 0,
          GST_VIDEO_INFO_FORMAT (&dev), dev.width, dev.height,
          GST_VIDEO_INFO_N_PLANES (&dev), dev.offset, dev.stride);
    } else {
      ret = FALSE;
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Out of GPU memory while allocating a %dx%d output frame.",
              GST_VIDEO_INFO_WIDTH (&self->out_info),
              GST_VIDEO_INFO_HEIGHT (&self->out_info)),
          ("scratch frame for %" GST_PTR_FORMAT, caps));
    }
  }
  gst_cuda_context_pop (NULL);
  GST_INFO_OBJECT (self, "%s %dx%d in %s memory",
      GST_VIDEO_INFO_NAME (&self->out_info),
      GST_VIDEO_INFO_WIDTH (&self->out_info),
      GST_VIDEO_INFO_HEIGHT (&self->out_info),
      self->out_cuda ? "CUDA" : "system");
  return ret;
}

static gboolean
gst_cuda_overlay_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);

  return gst_cuda_img_propose_allocation (GST_ELEMENT (agg), query,
      self->context, self->host_allocator);
}

static gboolean
gst_cuda_overlay_decide_allocation (GstAggregator * agg, GstQuery * query)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (agg);

  /* the frame being written, the one downstream takes and the one before
   * it, a sink's last sample */
  return gst_cuda_img_decide_allocation (GST_ELEMENT (agg), query,
      self->context, self->host_allocator, 3);
}

/* ------------------------------------------------------------------------ */
/* the frame */

/* GstVideoAggregator takes a pad's new caps with the pad's first buffer
 * after them, asks for a new negotiation and returns for more data, though
 * it already holds this frame's buffers: with upstream waiting for the
 * frame (a harness, an application pulling one frame at a time) neither
 * would move.  Negotiate at once and make the frame. */
static GstFlowReturn
gst_cuda_overlay_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstFlowReturn ret = GST_AGGREGATOR_CLASS (parent_class)->aggregate (agg,
      timeout);

  if (ret == GST_AGGREGATOR_FLOW_NEED_DATA &&
      gst_pad_needs_reconfigure (GST_AGGREGATOR_SRC_PAD (agg))) {
    if (!gst_aggregator_negotiate (agg))
      return GST_PAD_IS_FLUSHING (GST_AGGREGATOR_SRC_PAD (agg)) ?
          GST_FLOW_FLUSHING : GST_FLOW_NOT_NEGOTIATED;
    ret = GST_AGGREGATOR_CLASS (parent_class)->aggregate (agg, timeout);
  }
  return ret;
}


static gboolean
has_frame (GstBuffer * buf)
{
  return buf && !(gst_buffer_get_size (buf) == 0 &&
      GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP));
}

/* No output without a video frame; none at all once the video ended. */
static GstFlowReturn
gst_cuda_overlay_create_output_buffer (GstVideoAggregator * vagg,
    GstBuffer ** outbuf)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (vagg);
  GstVideoAggregatorPad *video = GST_VIDEO_AGGREGATOR_PAD (self->video);

  if (!has_frame (gst_video_aggregator_pad_get_current_buffer (video))) {
    *outbuf = NULL;
    return gst_aggregator_pad_is_eos (GST_AGGREGATOR_PAD (video)) ?
        GST_FLOW_EOS : GST_FLOW_OK;
  }
  return GST_VIDEO_AGGREGATOR_CLASS (parent_class)->create_output_buffer (vagg,
      outbuf);
}

/* The device frame of @buf, an input of @pad: our CUDA memory as it is
 * (after its producer's work), anything else copied up. */
typedef struct
{
  GstVideoFrame vf;
  gboolean mapped;
  GstCudaImgFrame f;
} Input;

static gboolean
get_input (GstCudaOverlay * self, GstCudaOverlayPad * pad, GstBuffer * buf,
    Input * in, cudaError_t * err, const gchar ** doing)
{
  const GstVideoInfo *info = &GST_VIDEO_AGGREGATOR_PAD (pad)->info;
  cudaStream_t stream = gst_cuda_img_stream_handle (self->stream);
  GstCudaImgWriter writer;

  if (gst_cuda_img_is_our_memory (self->context, buf)) {
    if (!gst_video_frame_map (&in->vf, info, buf, GST_MAP_READ | GST_MAP_CUDA))
      return FALSE;
    in->mapped = TRUE;
    gst_cuda_img_frame_from_video_frame (&in->f, info, &in->vf);
    *doing = "waiting for the upstream element";
    *err = gst_cuda_img_fence_wait_writer (self->stream,
        gst_buffer_peek_memory (buf, 0), &writer);
    return TRUE;
  }
  if (pad->uploader && !gst_video_info_is_equal (&pad->uploader_info, info))
    release_pad_resources (pad);
  if (!pad->uploader) {
    *doing = "allocating upload buffers";
    pad->uploader = gst_cuda_img_uploader_new (GST_ELEMENT (self),
        self->context, info, err);
    if (!pad->uploader)
      return TRUE;
    pad->uploader_info = *info;
    gst_object_replace ((GstObject **) & pad->uploader_context,
        GST_OBJECT (self->context));
  }
  *doing = "uploading a frame";
  return gst_cuda_img_uploader_upload (pad->uploader, buf, stream, &in->f, err);
}

/* mode=boxes: the outlines of @mbuf's regions of interest (the first
 * CIP_OVERLAY_MAX_BOXES) drawn into the box mask of the mask's size,
 * allocated again only when that size changes.  The page-locked boxes are
 * free to write: the previous frame was waited for.  Context current. */
static cudaError_t
draw_boxes (GstCudaOverlay * self, GstBuffer * mbuf, gint mw, gint mh,
    guint line_width, cudaStream_t stream)
{
  gpointer state = NULL;
  GstMeta *meta;
  gint n = 0;
  cudaError_t err;

  if (self->box_w != mw || self->box_h != mh) {
    g_clear_pointer (&self->box_mask, cip_free);
    self->box_w = self->box_h = 0;
    self->box_pitch = GST_ROUND_UP_4 (mw);
    err = cip_malloc ((void **) &self->box_mask, (gsize) self->box_pitch * mh,
        "cudaoverlay box mask");
    if (err != cudaSuccess) {
      self->box_mask = NULL;
      return err;
    }
    self->box_w = mw;
    self->box_h = mh;
  }
  while (n < CIP_OVERLAY_MAX_BOXES &&
      (meta = gst_buffer_iterate_meta_filtered (mbuf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    const GstVideoRegionOfInterestMeta *roi =
        (const GstVideoRegionOfInterestMeta *) meta;

    self->boxes[n].x = (gint32) MIN (roi->x, (guint) G_MAXINT32);
    self->boxes[n].y = (gint32) MIN (roi->y, (guint) G_MAXINT32);
    self->boxes[n].w = (gint32) MIN (roi->w, (guint) G_MAXINT32);
    self->boxes[n].h = (gint32) MIN (roi->h, (guint) G_MAXINT32);
    n++;
  }
  if (n && (err = cudaMemcpyAsync (self->d_boxes, self->boxes,
              n * sizeof (CipOverlayBox), cudaMemcpyHostToDevice,
              stream)) != cudaSuccess)
    return err;
  return cip_overlay_boxes (self->box_mask, self->box_pitch, mw, mh,
      self->d_boxes, n, (int) line_width, stream);
}

static cudaError_t
input_consumed (GstCudaOverlayPad * pad, Input * in, cudaStream_t stream)
{
  return in->mapped ? cudaSuccess : gst_cuda_img_uploader_consumed
      (pad->uploader, stream);
}

static GstFlowReturn
gst_cuda_overlay_aggregate_frames (GstVideoAggregator * vagg,
    GstBuffer * outbuf)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (vagg);
  GstAggregator *agg = GST_AGGREGATOR (vagg);
  GstCudaOverlayPad *video = self->video, *mask = NULL;
  GstBuffer *vbuf, *mbuf = NULL;
  Input vin = { 0 }, min = { 0 };
  GstVideoFrame out_vf, scratch_vf, host_vf;
  gboolean out_mapped = FALSE, scratch_mapped = FALSE, host_mapped = FALSE;
  gboolean out_device;
  GstCudaImgFrame out;
  GstClockTime ts;
  cudaStream_t stream;
  cudaError_t err = cudaSuccess;
  const gchar *doing = "painting a frame";
  GstFlowReturn ret = GST_FLOW_OK;
  const guint8 *mask_data = NULL;
  gint mask_pitch = 0;
  gboolean boxes;
  guint p;

  /* controllable properties take their value at this frame's time */
  ts = gst_segment_to_stream_time (&GST_AGGREGATOR_PAD (agg->srcpad)->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (outbuf));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (self), ts);

  GST_OBJECT_LOCK (self);
  take_settings (self);
  boxes = self->frame.mode == GST_CUDA_OVERLAY_MODE_BOXES;
  {
    GList *l;

    for (l = GST_ELEMENT (self)->sinkpads; l; l = l->next)
      if (l->data != (gpointer) video)
        mask = gst_object_ref (l->data);
  }
  GST_OBJECT_UNLOCK (self);

  vbuf = gst_video_aggregator_pad_get_current_buffer
      (GST_VIDEO_AGGREGATOR_PAD (video));
  if (mask) {
    mbuf = gst_video_aggregator_pad_get_current_buffer
        (GST_VIDEO_AGGREGATOR_PAD (mask));
    if (!has_frame (mbuf))
      mbuf = NULL;
  }

  if (!gst_cuda_img_push_context (GST_ELEMENT (self), self->context)) {
    gst_clear_object (&mask);
    return GST_FLOW_ERROR;
  }
  stream = gst_cuda_img_stream_handle (self->stream);

  err = update_tables (self, stream);
  if (err != cudaSuccess) {
    doing = "copying the colour tables";
    goto cuda_error;
  }
  if (!get_input (self, video, vbuf, &vin, &err, &doing))
    goto map_failed;
  if (err == cudaSuccess && mbuf && !get_input (self, mask, mbuf, &min, &err,
          &doing))
    goto map_failed;
  if (err != cudaSuccess)
    goto cuda_error;
  if (mbuf && boxes) {
    doing = "drawing the boxes";
    err = draw_boxes (self, mbuf, GST_VIDEO_INFO_WIDTH (min.f.info),
        GST_VIDEO_INFO_HEIGHT (min.f.info), self->frame.line_width, stream);
    if (err != cudaSuccess)
      goto cuda_error;
    mask_data = self->box_mask;
    mask_pitch = self->box_pitch;
  } else if (mbuf) {
    mask_data = min.f.data[0];
    mask_pitch = min.f.stride[0];
  }

  /* Output: our CUDA memory in place, else the scratch frame, copied down
   * afterwards. */
  out_device = self->out_cuda && gst_cuda_img_is_our_memory (self->context,
      outbuf);
  if (out_device) {
    if (!gst_video_frame_map (&out_vf, &self->out_info, outbuf,
            GST_MAP_WRITE | GST_MAP_CUDA))
      goto map_failed;
    out_mapped = TRUE;
    gst_cuda_img_frame_from_video_frame (&out, &self->out_info, &out_vf);
    doing = "waiting for downstream readers";
    err = gst_cuda_img_fence_wait_readers (self->stream,
        gst_buffer_peek_memory (outbuf, 0));
  } else {
    if (!self->scratch || !gst_video_frame_map (&scratch_vf, &self->out_info,
            self->scratch, GST_MAP_WRITE | GST_MAP_CUDA))
      goto map_failed;
    scratch_mapped = TRUE;
    gst_cuda_img_frame_from_video_frame (&out, &self->out_info, &scratch_vf);
  }
  if (err != cudaSuccess)
    goto cuda_error;

  doing = "painting a frame";
  for (p = 0; p < self->n_planes && err == cudaSuccess && !self->no_kernels;
      p++) {
    CipOverlayPlane pl = self->planes[p];

    pl.placed = self->frame.mode == GST_CUDA_OVERLAY_MODE_PICTURE;
    pl.mask_x = self->frame.x;
    pl.mask_y = self->frame.y;

    pl.src = vin.f.data[p];
    pl.src_pitch = vin.f.stride[p];
    pl.dst = out.data[p];
    pl.dst_pitch = out.stride[p];
    if (mbuf) {
      err = cip_overlay_plane (&pl, mask_data, mask_pitch,
          GST_VIDEO_INFO_WIDTH (min.f.info), GST_VIDEO_INFO_HEIGHT (min.f.info),
          GST_VIDEO_INFO_WIDTH (&self->out_info),
          GST_VIDEO_INFO_HEIGHT (&self->out_info), &self->d_tables[p], stream);
    } else {
      gsize row;
      gint rows;

      gst_cuda_img_plane_extent (&self->out_info, p, &row, &rows);
      err = cudaMemcpy2DAsync (pl.dst, pl.dst_pitch, pl.src, pl.src_pitch, row,
          rows, cudaMemcpyDeviceToDevice, stream);
    }
  }
  if (err == cudaSuccess)
    err = input_consumed (video, &vin, stream);
  if (err == cudaSuccess && mbuf)
    err = input_consumed (mask, &min, stream);
  if (err != cudaSuccess)
    goto cuda_error;

  if (out_device) {
    doing = "recording the frame's event";
    err = gst_cuda_img_stream_end_frame (self->stream, TRUE);
    if (err != cudaSuccess)
      goto cuda_error;
    gst_cuda_img_fence_set_writer (self->stream,
        gst_buffer_peek_memory (outbuf, 0));
  } else {
    if (!gst_video_frame_map (&host_vf, &self->out_info, outbuf, GST_MAP_WRITE))
      goto map_failed;
    host_mapped = TRUE;
    doing = "downloading a frame";
    for (p = 0; p < self->n_planes && err == cudaSuccess; p++) {
      gsize row;
      gint rows;

      gst_cuda_img_plane_extent (&self->out_info, p, &row, &rows);
      err = cudaMemcpy2DAsync (GST_VIDEO_FRAME_PLANE_DATA (&host_vf, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&host_vf, p), out.data[p],
          out.stride[p], row, rows, cudaMemcpyDeviceToHost, stream);
    }
    if (err != cudaSuccess)
      goto cuda_error;
  }
  /* Downstream, and the producers of the inputs we release now, get
   * finished frames. */
  doing = "waiting for the GPU";
  err = gst_cuda_img_host_event_record (&self->done, stream);
  if (err == cudaSuccess)
    err = gst_cuda_img_host_wait (&self->wait, &self->done);
  if (err != cudaSuccess)
    goto cuda_error;

done:
  if (host_mapped)
    gst_video_frame_unmap (&host_vf);
  if (scratch_mapped)
    gst_video_frame_unmap (&scratch_vf);
  if (out_mapped)
    gst_video_frame_unmap (&out_vf);
  if (min.mapped)
    gst_video_frame_unmap (&min.vf);
  if (vin.mapped)
    gst_video_frame_unmap (&vin.vf);
  gst_cuda_context_pop (NULL);
  gst_clear_object (&mask);
  return ret;

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Could not map a buffer."),
      ("while %s", doing));
  ret = GST_FLOW_ERROR;
  goto done;

cuda_error:
  gst_cuda_img_post_cuda_error (GST_ELEMENT (self), err, doing);
  ret = GST_FLOW_ERROR;
  goto done;
}

/* ------------------------------------------------------------------------ */

static void
gst_cuda_overlay_finalize (GObject * object)
{
  GstCudaOverlay *self = GST_CUDA_OVERLAY (object);

  g_array_unref (self->palette);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_overlay_class_init (GstCudaOverlayClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS (klass);
  static const GstVideoFormat mask_format = GST_VIDEO_FORMAT_GRAY8;
  GstCaps *caps;

  gobject_class->set_property = gst_cuda_overlay_set_property;
  gobject_class->get_property = gst_cuda_overlay_get_property;
  gobject_class->finalize = gst_cuda_overlay_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      gst_cuda_img_device_id_pspec ());
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What a mask value paints: non-zero pixels in the colour (mask), "
          "the colour with alpha scaled by the value (alpha), or palette "
          "colour number value (labels); or the outlines of the mask "
          "frame's regions of interest in the colour (boxes), or the mask "
          "frame as a gray picture at x, y (picture)",
          GST_TYPE_CUDA_OVERLAY_MODE,
          DEFAULT_MODE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_COLOR,
      g_param_spec_uint ("color", "Color",
          "Colour painted in modes mask and alpha, 0xRRGGBB", 0, 0xffffff,
          DEFAULT_COLOR, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha",
          "Opacity of the paint: 0 leaves the video, 1 covers it", 0.0, 1.0,
          DEFAULT_ALPHA, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_LINE_WIDTH,
      g_param_spec_uint ("line-width", "Line width",
          "mode=boxes: thickness of the outlines, in mask pixels", 1, 64,
          DEFAULT_LINE_WIDTH, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_X,
      g_param_spec_int ("x", "X", "mode=picture: the video column of the "
          "picture's left edge", -32768, 32767, DEFAULT_X,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_Y,
      g_param_spec_int ("y", "Y", "mode=picture: the video row of the "
          "picture's top edge", -32768, 32767, DEFAULT_Y,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_PALETTE,
      gst_param_spec_array ("palette", "Palette",
          "Colours 0xRRGGBB of mask values 0, 1, 2 ... in mode labels, "
          "repeated when there are fewer than 256, e.g. "
          "\"<0xff0000, 0x00ff00>\"; empty: a built-in palette of 256 "
          "distinct colours",
          g_param_spec_uint ("color", "Color", "0xRRGGBB", 0, 0xffffff, 0,
              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  caps = gst_cuda_img_formats_caps (gst_cuda_img_gray_formats,
      gst_cuda_img_n_gray_formats);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("video", GST_PAD_SINK, GST_PAD_ALWAYS,
          caps, GST_TYPE_CUDA_OVERLAY_PAD));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          caps, GST_TYPE_AGGREGATOR_PAD));
  gst_caps_unref (caps);
  caps = gst_cuda_img_formats_caps (&mask_format, 1);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("mask", GST_PAD_SINK, GST_PAD_REQUEST,
          caps, GST_TYPE_CUDA_OVERLAY_PAD));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class,
      "CUDA mask overlay", "Filter/Editor/Video/Compositor/Hardware",
      "Paints a GRAY8 mask (binary, strength or labels) over video on an "
      "NVIDIA GPU", "cudaimgproc developers "
      "<cudaimgproc@lists.freedesktop.org>");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_overlay_set_context);

  agg_class->aggregate = GST_DEBUG_FUNCPTR (gst_cuda_overlay_aggregate);
  agg_class->start = GST_DEBUG_FUNCPTR (gst_cuda_overlay_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_overlay_stop);
  agg_class->create_new_pad =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_create_new_pad);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_cuda_overlay_sink_query);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_cuda_overlay_src_query);
  agg_class->update_src_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_update_src_caps);
  agg_class->negotiated_src_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_negotiated_src_caps);
  agg_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_propose_allocation);
  agg_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_decide_allocation);

  vagg_class->create_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_create_output_buffer);
  vagg_class->aggregate_frames =
      GST_DEBUG_FUNCPTR (gst_cuda_overlay_aggregate_frames);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_OVERLAY_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_OVERLAY_PAD, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_overlay_debug, "cudaoverlay", 0,
      "cudaoverlay: a mask painted over video");
}

static void
gst_cuda_overlay_init (GstCudaOverlay * self)
{
  GstPadTemplate *templ =
      gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
      "video");

  self->device_id = GST_CUDA_IMG_DEFAULT_DEVICE_ID;
  self->mode = DEFAULT_MODE;
  self->line_width = DEFAULT_LINE_WIDTH;
  self->x = DEFAULT_X;
  self->y = DEFAULT_Y;
  self->color = DEFAULT_COLOR;
  self->alpha = DEFAULT_ALPHA;
  self->palette = g_array_new (FALSE, FALSE, sizeof (guint));

  self->video = g_object_new (GST_TYPE_CUDA_OVERLAY_PAD, "name", "video",
      "direction", GST_PAD_SINK, "template", templ, NULL);
  gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->video));
}

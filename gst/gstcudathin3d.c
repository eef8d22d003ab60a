/* cudaimgproc: cudathin3d
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudathin3d
 * @title: cudathin3d
 *
 * Thins a volume of voxels to its curve skeleton on an NVIDIA GPU.  The
 * frames are the volume's slices: #GstCudaThin3d:depth consecutive GRAY8
 * frames (or, with depth 0, every frame up to EOS or a change of caps: an
 * image stack) make one volume, in which any non-zero voxel is object and
 * everything outside the volume is background.  Once the volume is whole
 * the element thins it and pushes its slices, 255 on the skeleton and 0
 * elsewhere, each with its input frame's timestamps and flags.
 *
 * #GstCudaThin3d:method:
 *
 * * `pk12` (default): Palágyi and Kuba's 12-subiteration thinning (K.
 *   Palágyi, A. Kuba, "A Parallel 3D 12-Subiteration Thinning Algorithm",
 *   Graphical Models and Image Processing 61, 1999).  A round is 12
 *   sub-iterations, one per direction US, NE, DW, SE, UW, DN, SW, UN, DE,
 *   NW, UE, DS; in each, every object voxel whose 3x3x3 neighbourhood,
 *   turned to that direction, matches one of the paper's 14 templates is
 *   deleted, all at once.  Rounds repeat until one deletes nothing (or
 *   #GstCudaThin3d:max-rounds).  Directions on the volume: E is +x (the
 *   next column), N is -y (the row above), U is +z (the next slice).  The
 *   result keeps the topology (object 26-components, background
 *   6-components) and the ends of curves.
 * * `lee94`: Lee, Kashyap and Chu's thinning (T.-C. Lee, R. L. Kashyap,
 *   C.-N. Chu, "Building skeleton models via 3-D medial surface/axis
 *   thinning algorithms", CVGIP: Graphical Models and Image Processing 56,
 *   1994), equal voxel for voxel to scikit-image's `skeletonize` on 3D
 *   input (releases up to 0.26), for results to check against a library
 *   one knows.  A round is six border passes (y - 1, y + 1, x + 1, x - 1,
 *   z + 1, z - 1; a single slice only the first four); a pass collects
 *   the border voxels that are not curve ends, keep the Euler
 *   characteristic and are simple, then deletes each that still is simple
 *   after the deletions before it in raster order.  As in scikit-image, a
 *   component small enough can vanish whole (a lone voxel, a 2x2x2 cube).
 *
 * The whole volume is thinned in one kernel launch: the GPU decides when
 * to stop, and bricks of the volume that need no work are skipped.  The element holds one volume of device memory (width x height
 * x depth bytes, and about as much again while thinning); with depth 0 it
 * grows with the stream, so give a depth for a live source.
 *
 * With #GstCudaThin3d:post-messages, each volume posts an element message
 * `cudathin3d` with `rounds` (guint: rounds that deleted voxels),
 * `converged` (gboolean: a further round deleted nothing), `voxels`
 * (guint64: object voxels left), `depth` (guint: slices) and `timestamp`
 * (the first slice's PTS, guint64).
 *
 * Properties changed while playing take effect with the next volume.
 *
 * Binarize a volume with one threshold (#cudaotsu mode=fixed, or a
 * threshold chosen on the whole stack): Otsu's choice per slice splits the
 * noise of slices the object barely crosses.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 multifilesrc location=slice%03d.png caps=image/png,framerate=10/1 ! pngdec ! cudagray ! cudaotsu mode=fixed threshold=120 ! cudathin3d ! pngenc ! multifilesink location=skeleton%03d.png
 * ]|
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=64 ! video/x-raw,width=128,height=128 ! cudagray ! cudaotsu ! cudathin3d depth=64 post-messages=true ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudathin3d.h"
#include "gstcudaimgreadback.h"
#include "cip_alloc.h"
#include "thin3d.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_thin3d_debug);
#define GST_CAT_DEFAULT gst_cuda_thin3d_debug

#define GST_TYPE_CUDA_THIN3D_METHOD (gst_cuda_thin3d_method_get_type ())
static GType
gst_cuda_thin3d_method_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CIP_THIN3D_PK12, "Palágyi-Kuba 12-subiteration curve thinning", "pk12"},
    {CIP_THIN3D_LEE94, "Lee-Kashyap-Chu thinning, as scikit-image's "
          "skeletonize", "lee94"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaThin3dMethod", values);
}

#define DEFAULT_METHOD CIP_THIN3D_PK12
#define DEFAULT_DEPTH 0
#define MAX_DEPTH 65536
#define DEFAULT_MAX_ROUNDS 0
#define DEFAULT_POST_MESSAGES FALSE

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_DEPTH,
  PROP_MAX_ROUNDS,
  PROP_POST_MESSAGES,
};

struct _GstCudaThin3d
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  CipThin3dMethod method;
  guint depth;
  guint max_rounds;
  gboolean post_messages;

  /* the volume being gathered, streaming thread only */
  guint8 *volume;               /* device, capacity slices */
  guint capacity;
  guint volume_depth;           /* depth when its first slice came; 0: EOS */
  GPtrArray *timing;            /* no-memory buffers: each slice's times;
                                 * its length: the slices gathered */
  guint emit_z;                 /* the slice process () makes */

  /* per caps */
  CipThin3d *thin;
  guint thin_depth;
};

#define gst_cuda_thin3d_parent_class parent_class
G_DEFINE_TYPE (GstCudaThin3d, gst_cuda_thin3d, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudathin3d, "cudathin3d", GST_RANK_NONE,
    GST_TYPE_CUDA_THIN3D);

static void
gst_cuda_thin3d_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->method = g_value_get_enum (value);
      break;
    case PROP_DEPTH:
      self->depth = g_value_get_uint (value);
      break;
    case PROP_MAX_ROUNDS:
      self->max_rounds = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_thin3d_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    case PROP_DEPTH:
      g_value_set_uint (value, self->depth);
      break;
    case PROP_MAX_ROUNDS:
      g_value_set_uint (value, self->max_rounds);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static GstStructure *
build_message (GstElement * element, gconstpointer data, GstClockTime pts,
    guint depth)
{
  const CipThin3dResult *r = data;

  return gst_structure_new ("cudathin3d", "rounds", G_TYPE_UINT, r->rounds,
      "converged", G_TYPE_BOOLEAN, (gboolean) r->converged, "voxels",
      G_TYPE_UINT64, (guint64) r->voxels, "depth", G_TYPE_UINT, depth,
      "timestamp", G_TYPE_UINT64, pts, NULL);
}

/* Forgets the slices gathered (flush, caps gone). */
static void
drop_volume (GstCudaThin3d * self)
{
  guint i;

  for (i = 0; i < self->timing->len; i++)
    gst_clear_buffer ((GstBuffer **) & self->timing->pdata[i]);
  g_ptr_array_set_size (self->timing, 0);
}

static void
gst_cuda_thin3d_release (GstCudaImgFilter * filter)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (filter);

  drop_volume (self);
  g_clear_pointer (&self->thin, cip_thin3d_destroy);
  self->thin_depth = 0;
  if (self->volume)
    cip_free (self->volume);
  self->volume = NULL;
  self->capacity = 0;
}

/* Room for one more slice: the whole depth at once where it is known,
 * else doubling (a stack of unknown length: a few allocations a stream). */
static cudaError_t
reserve_slice (GstCudaThin3d * self, gsize slice, cudaStream_t stream)
{
  guint cap;
  guint8 *vol;
  const guint slices = self->timing->len;
  cudaError_t err = cudaSuccess;
  gsize bytes;

  if (slices < self->capacity)
    return cudaSuccess;
  cap = self->volume_depth > slices ? self->volume_depth :
      MAX (16, MIN (2 * self->capacity, MAX_DEPTH));
  if (cap <= slices)
    return cudaErrorInvalidValue;
  /* a volume no address space holds is out of memory, not a wrap */
  if (!g_size_checked_mul (&bytes, cap, slice))
    return cudaErrorMemoryAllocation;
  if ((err = cip_malloc ((void **) &vol, bytes, "cudathin3d volume"))
      != cudaSuccess)
    return err;
  if (slices)
    err = cudaMemcpyAsync (vol, self->volume, (gsize) slices * slice,
        cudaMemcpyDeviceToDevice, stream);
  if (self->volume) {
    /* the old volume may still be read on the stream */
    if (err == cudaSuccess)
      err = cudaStreamSynchronize (stream);
    cip_free (self->volume);
  }
  self->volume = vol;
  self->capacity = cap;
  return err;
}

static cudaError_t
gst_cuda_thin3d_gather (GstCudaImgFilter * filter, GstBuffer * inbuf,
    const GstCudaImgFrame * in, cudaStream_t stream)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (filter);
  const gint w = GST_VIDEO_INFO_WIDTH (in->info);
  const gint h = GST_VIDEO_INFO_HEIGHT (in->info);
  const gsize slice = (gsize) w * h;
  GstBuffer *timing;
  cudaError_t err;

  if (self->timing->len == 0) {
    GST_OBJECT_LOCK (self);
    self->volume_depth = self->depth;
    GST_OBJECT_UNLOCK (self);
  }
  if ((err = reserve_slice (self, slice, stream)) != cudaSuccess) {
    if (err == cudaErrorInvalidValue) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("The volume is too deep."),
          ("more than %d slices; give the depth property", MAX_DEPTH));
      err = GST_CUDA_IMG_ERROR_POSTED;
    }
    return err;
  }
  err = cudaMemcpy2DAsync (self->volume + (gsize) self->timing->len * slice, w,
      in->data[0], in->stride[0], w, h, cudaMemcpyDeviceToDevice, stream);
  timing = gst_buffer_new ();
  gst_buffer_copy_into (timing, inbuf, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  g_ptr_array_add (self->timing, timing);
  return err;
}

static cudaError_t
gst_cuda_thin3d_process (GstCudaImgFilter * filter,
    const GstCudaImgFrame * in, const GstCudaImgFrame * out,
    cudaStream_t stream)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (filter);
  GstCudaImgReadback *messages = gst_cuda_img_filter_messages (filter);
  const gint w = GST_VIDEO_INFO_WIDTH (out->info);
  const gint h = GST_VIDEO_INFO_HEIGHT (out->info);
  const gsize slice = (gsize) w * h;
  cudaError_t err = cudaSuccess;

  if (self->emit_z == 0) {
    /* the volume's first slice out: thin it, in place */
    const guint depth = self->timing->len;
    CipThin3dMethod method;
    guint max_rounds;
    gboolean post;

    GST_OBJECT_LOCK (self);
    method = self->method;
    max_rounds = self->max_rounds;
    post = self->post_messages;
    GST_OBJECT_UNLOCK (self);

    if (self->thin && self->thin_depth != depth)
      g_clear_pointer (&self->thin, cip_thin3d_destroy);
    if (!self->thin) {
      err = cip_thin3d_create (&self->thin, w, h, depth);
      self->thin_depth = depth;
    }
    if (err == cudaSuccess)
      err = cip_thin3d (self->thin, self->volume, w, slice, self->volume, w,
          slice, method, max_rounds, messages->device, stream);
    if (err == cudaSuccess && post)
      err = gst_cuda_img_readback_enqueue (messages, depth, stream);
  }
  if (err == cudaSuccess)
    err = cudaMemcpy2DAsync (out->data[0], out->stride[0],
        self->volume + (gsize) self->emit_z * slice, w, w, h,
        cudaMemcpyDeviceToDevice, stream);
  return err;
}

/* Thins the gathered volume and pushes its slices. */
static GstFlowReturn
emit_volume (GstCudaThin3d * self)
{
  GstFlowReturn ret = GST_FLOW_OK;
  const guint n = self->timing->len;
  guint i;

  GST_DEBUG_OBJECT (self, "volume of %u slices", n);
  for (i = 0; i < n; i++) {
    GstBuffer *t = g_ptr_array_index (self->timing, i);

    self->timing->pdata[i] = NULL;
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (t);
      continue;
    }
    self->emit_z = i;
    ret = gst_cuda_img_filter_emit (GST_CUDA_IMG_FILTER (self), t);
  }
  drop_volume (self);
  return ret;
}

static GstFlowReturn
gst_cuda_thin3d_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (trans);
  GstFlowReturn ret;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
      outbuf);
  /* a gathered slice: no output (the buffer prepared for it unused) */
  if (ret != GST_BASE_TRANSFORM_FLOW_DROPPED)
    return ret;
  gst_clear_buffer (outbuf);
  if (self->volume_depth && self->timing->len >= self->volume_depth)
    return emit_volume (self);
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_thin3d_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* a stack, or the last partial volume: out before EOS (its
       * messages too, by the base class) */
      if (self->timing->len)
        emit_volume (self);
      break;
    case GST_EVENT_CAPS:{
      GstCaps *caps, *cur;
      gst_event_parse_caps (event, &caps);
      cur = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
      /* the slices so far are a volume of the old caps */
      if (self->timing->len && !(cur && gst_caps_is_equal (caps, cur)))
        emit_volume (self);
      gst_clear_caps (&cur);
      break;
    }
    case GST_EVENT_FLUSH_STOP:
      drop_volume (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cuda_thin3d_finalize (GObject * object)
{
  GstCudaThin3d *self = GST_CUDA_THIN3D (object);

  drop_volume (self);
  g_ptr_array_unref (self->timing);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_thin3d_class_init (GstCudaThin3dClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8 };
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_thin3d_set_property;
  gobject_class->get_property = gst_cuda_thin3d_get_property;
  gobject_class->finalize = gst_cuda_thin3d_finalize;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "3D thinning algorithm",
          GST_TYPE_CUDA_THIN3D_METHOD, DEFAULT_METHOD, rw_playing));
  g_object_class_install_property (gobject_class, PROP_DEPTH,
      g_param_spec_uint ("depth", "Depth",
          "Frames (slices) per volume; 0 = every frame up to EOS or a caps "
          "change", 0, MAX_DEPTH, DEFAULT_DEPTH, rw_playing));
  g_object_class_install_property (gobject_class, PROP_MAX_ROUNDS,
      g_param_spec_uint ("max-rounds", "Maximum rounds",
          "Rounds (pk12: 12 sub-iterations, lee94: 6 border passes) at most "
          "per volume; 0 = until a round deletes nothing", 0, G_MAXINT,
          DEFAULT_MAX_ROUNDS, rw_playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'cudathin3d' element message per volume with the rounds "
          "used and the voxels left", DEFAULT_POST_MESSAGES, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA 3D thinning", "Filter/Effect/Video/Hardware",
      "Thins volumes (consecutive binary frames as slices) to curve "
      "skeletons (Palágyi-Kuba 12-subiteration, or Lee-Kashyap-Chu as "
      "scikit-image) on an NVIDIA GPU",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class, formats,
      G_N_ELEMENTS (formats), formats, G_N_ELEMENTS (formats));
  trans_class->sink_event = gst_cuda_thin3d_sink_event;
  gst_cuda_img_filter_class_set_messages (filter_class,
      sizeof (CipThin3dResult), build_message);
  trans_class->generate_output = gst_cuda_thin3d_generate_output;
  filter_class->release = gst_cuda_thin3d_release;
  filter_class->gather = gst_cuda_thin3d_gather;
  filter_class->process = gst_cuda_thin3d_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_THIN3D_METHOD, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_thin3d_debug, "cudathin3d", 0,
      "CUDA 3D thinning");
}

static void
gst_cuda_thin3d_init (GstCudaThin3d * self)
{
  self->method = DEFAULT_METHOD;
  self->depth = DEFAULT_DEPTH;
  self->max_rounds = DEFAULT_MAX_ROUNDS;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->timing = g_ptr_array_new ();
}

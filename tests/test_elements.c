/* cudaimgproc: element tests that need no GPU: registry, documentation,
 * properties, caps, and the error a machine without a GPU gets.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * meson runs this with CUDA_VISIBLE_DEVICES set empty, so on a GPU host too
 * the elements find no device and must say so.
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <string.h>

#include "testutil.h"

static const gchar *elements[] = { "cudagray", "cudaotsu", "cudasobel",
  "cudathin", "cudakmeans", "cudasmooth", "cudathin3d", "cudablobs",
  "cudahistogram"
};

/* Whether @pad accepts the caps @str */
static gboolean
accepts (GstPad * pad, const gchar * str)
{
  GstCaps *caps = gst_caps_from_string (str);
  gboolean ok = gst_pad_query_accept_caps (pad, caps);

  gst_caps_unref (caps);
  return ok;
}

GST_START_TEST (test_registry)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "cudaimgproc");
  guint i;

  fail_unless (plugin != NULL, "plugin cudaimgproc not in the registry");
  fail_unless_equals_string (gst_plugin_get_license (plugin), "LGPL");
  gst_object_unref (plugin);

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElementFactory *f = gst_element_factory_find (elements[i]);
    const gchar *desc;

    fail_unless (f != NULL, "no factory %s", elements[i]);
    desc =
        gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_DESCRIPTION);
    fail_unless (desc
        && strlen (desc) > 20, "%s has no description", elements[i]);
    fail_unless (gst_element_factory_get_num_pad_templates (f) == 2);
    gst_object_unref (f);
  }
  /* the aggregator: video, mask and src */
  {
    GstElementFactory *f = gst_element_factory_find ("cudaoverlay");

    fail_unless (f != NULL, "no factory cudaoverlay");
    fail_unless (gst_element_factory_get_num_pad_templates (f) == 3);
    gst_object_unref (f);
  }
}

GST_END_TEST;

GST_START_TEST (test_gray_properties)
{
  GstElement *e = gst_element_factory_make ("cudagray", NULL);
  GParamSpec *ps;
  gdouble scale;
  gint device_id, matrix;

  fail_unless (e != NULL);
  g_object_get (e, "scale", &scale, "cuda-device-id", &device_id, "matrix",
      &matrix, NULL);
  fail_unless_equals_float (scale, 1.0);
  fail_unless_equals_int (device_id, -1);
  fail_unless_equals_int (matrix, 0);

  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "scale");
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->maximum, 16.0);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING);

  gst_util_set_object_arg (G_OBJECT (e), "matrix", "bt709");
  g_object_get (e, "matrix", &matrix, NULL);
  fail_unless_equals_int (matrix, 1);
  gst_object_unref (e);
}

GST_END_TEST;

/* Output caps: CUDA memory preferred, system memory offered, GRAY8 only. */
GST_START_TEST (test_gray_caps)
{
  GstElement *e = gst_element_factory_make ("cudagray", NULL);
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *caps, *filter;
  GstCapsFeatures *f;

  caps = gst_pad_query_caps (src, NULL);
  fail_unless (gst_caps_get_size (caps) >= 2);
  f = gst_caps_get_features (caps, 0);
  fail_unless (gst_caps_features_contains (f, "memory:CUDAMemory"));
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY8");
  gst_caps_unref (caps);

  /* A system-memory-only peer still gets GRAY8. */
  filter = gst_caps_from_string ("video/x-raw");
  caps = gst_pad_query_caps (src, filter);
  fail_if (gst_caps_is_empty (caps));
  fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  /* A peer that can give either, system memory first (cudaupload,
   * nvcodec's elements: for passthrough), still gets CUDA memory first. */
  filter = gst_caps_from_string ("video/x-raw,format=NV12,width=64,height=48;"
      "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48");
  caps = gst_pad_query_caps (sink, filter);
  fail_unless (gst_caps_get_size (caps) >= 2);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:CUDAMemory"));
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  /* Formats we do not take are refused. */
  filter = gst_caps_from_string ("video/x-raw,format=YUY2");
  caps = gst_pad_query_caps (sink, filter);
  fail_unless (gst_caps_is_empty (caps));
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  fail_unless (accepts (sink, "video/x-raw,format=NV12,width=64,height=48"));

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* Between two of our elements the link prefers CUDA memory whatever stands
 * at the ends of the chain.  basetransform's default "prefer passthrough"
 * puts the downstream peer's own caps first in a sink pad's answer, so a
 * system-memory capsfilter or encoder after the last element used to make
 * every link of the chain system memory (each element downloading and the
 * next uploading again).  This asks each of our sink pads what
 * basetransform's negotiation asks it: its caps, filtered by what the
 * element before it can produce at a fixed size. */
static void
links_prefer_cuda (const gchar * launch)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstIterator *it;
  GValue v = G_VALUE_INIT;
  guint links = 0;

  fail_unless (pipe != NULL, "%s does not parse", launch);
  it = gst_bin_iterate_elements (GST_BIN (pipe));
  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *b = g_value_get_object (&v);
    GstPad *sink = gst_element_get_static_pad (b, "sink");
    GstPad *up = sink ? gst_pad_get_peer (sink) : NULL;
    GstElement *a = up ? gst_pad_get_parent_element (up) : NULL;

    /* a queue between two of ours passes the query through */
    while (a && g_str_has_prefix (GST_OBJECT_NAME (gst_element_get_factory
                (a)), "queue")) {
      GstPad *qsink = gst_element_get_static_pad (a, "sink");

      gst_object_unref (up);
      up = gst_pad_get_peer (qsink);
      gst_object_unref (qsink);
      gst_object_unref (a);
      a = up ? gst_pad_get_parent_element (up) : NULL;
    }
    if (a && g_str_has_prefix (GST_OBJECT_NAME (gst_element_get_factory (a)),
            "cuda") && g_str_has_prefix (GST_OBJECT_NAME
            (gst_element_get_factory (b)), "cuda")) {
      GstCaps *filter = gst_pad_get_pad_template_caps (up), *caps;
      GstCapsFeatures *f;
      gchar *s;

      filter = gst_caps_make_writable (filter);
      gst_caps_set_simple (filter, "width", G_TYPE_INT, 64, "height",
          G_TYPE_INT, 48, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
      caps = gst_pad_query_caps (sink, filter);
      fail_if (gst_caps_is_empty (caps), "%s: %s takes nothing from %s",
          launch, GST_OBJECT_NAME (b), GST_OBJECT_NAME (a));
      f = gst_caps_get_features (caps, 0);
      s = gst_caps_to_string (caps);
      fail_unless (f && gst_caps_features_contains (f,
              "memory:CUDAMemory"),
          "%s: link %s ! %s would negotiate system memory: %s", launch,
          GST_OBJECT_NAME (a), GST_OBJECT_NAME (b), s);
      g_free (s);
      gst_caps_unref (caps);
      gst_caps_unref (filter);
      links++;
    }
    gst_clear_object (&a);
    gst_clear_object (&up);
    gst_clear_object (&sink);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  fail_unless (links > 0, "%s: no link between two of ours", launch);
  gst_object_unref (pipe);
}

GST_START_TEST (test_links_prefer_cuda)
{
  static const gchar *ends[] = {
    "video/x-raw,format=GRAY8 ! appsink",
    "pngenc ! fakesink",
    "jpegenc ! fakesink",
    "videoconvert ! video/x-raw,format=RGBA ! appsink",
    "fakesink",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (ends); i++) {
    gchar *l = g_strdup_printf ("videotestsrc ! cudagray ! cudaotsu ! "
        "cudathin ! %s", ends[i]);
    links_prefer_cuda (l);
    g_free (l);
    l = g_strdup_printf ("appsrc caps=video/x-raw,format=RGBA,width=64,"
        "height=48,framerate=30/1 ! cudagray ! cudaotsu ! cudasobel ! %s",
        ends[i]);
    links_prefer_cuda (l);
    g_free (l);
  }
  /* colour between two of ours, and a queue between them */
  links_prefer_cuda ("videotestsrc ! cudakmeans ! cudagray ! "
      "video/x-raw,format=GRAY8 ! appsink");
  links_prefer_cuda ("videotestsrc ! cudagray ! queue ! cudasobel ! "
      "video/x-raw,format=GRAY8 ! appsink");
  links_prefer_cuda ("videotestsrc ! cudagray ! cudasmooth ! cudaotsu ! "
      "cudathin ! video/x-raw,format=GRAY8 ! appsink");
  links_prefer_cuda ("videotestsrc ! cudasmooth method=median ! cudakmeans "
      "! video/x-raw,format=RGBA ! appsink");
}

GST_END_TEST;

/* @launch fails to start for want of a GPU, element @name saying so */
static void
expect_no_gpu (const gchar * launch, const gchar * name)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);
  gchar *src;

  fail_unless (pipe != NULL);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  src = expect_error (GST_ELEMENT_BUS (pipe), GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "CUDA");
  fail_unless_equals_string (src, name);
  g_free (src);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

/* No GPU (or no driver): a clear element error at the state change. */
GST_START_TEST (test_no_gpu_error)
{
  expect_no_gpu ("videotestsrc num-buffers=1 ! cudagray name=g ! fakesink",
      "g");
}

GST_END_TEST;

/* Every element takes `cuda-device-id` alike (-1 = any, set before it
 * starts), and one asking for another device on a machine without a GPU
 * says there is no GPU, as with the default. */
GST_START_TEST (test_device_id_everywhere)
{
  const gchar *all[G_N_ELEMENTS (elements) + 1];
  guint i;

  memcpy (all, elements, sizeof elements);
  all[G_N_ELEMENTS (elements)] = "cudaoverlay";
  for (i = 0; i < G_N_ELEMENTS (all); i++) {
    GstElement *e = gst_element_factory_make (all[i], NULL);
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        "cuda-device-id");
    GParamSpecInt *pi;
    gint id = 0;

    fail_unless (ps != NULL, "%s has no cuda-device-id", all[i]);
    fail_unless (G_IS_PARAM_SPEC_INT (ps), "%s: cuda-device-id not an int",
        all[i]);
    pi = G_PARAM_SPEC_INT (ps);
    fail_unless_equals_int (pi->minimum, -1);
    fail_unless_equals_int (pi->maximum, G_MAXINT);
    fail_unless_equals_int (pi->default_value, -1);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_READY, "%s: cuda-device-id "
        "not marked as set in NULL or READY", all[i]);
    fail_unless ((ps->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
    g_object_set (e, "cuda-device-id", 1, NULL);
    g_object_get (e, "cuda-device-id", &id, NULL);
    fail_unless_equals_int (id, 1);
    gst_object_unref (e);
  }
  expect_no_gpu ("videotestsrc num-buffers=1 ! cudagray name=g "
      "cuda-device-id=1 ! fakesink", "g");
  expect_no_gpu ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA ! "
      "cudakmeans name=k cuda-device-id=1 ! fakesink", "k");
}

GST_END_TEST;

GST_START_TEST (test_otsu_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudaotsu", NULL);
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  guint threshold;
  gint offset;
  gdouble smoothing;
  gboolean invert, post;
  GstCaps *caps;

  g_object_get (e, "threshold", &threshold, "threshold-offset", &offset,
      "smoothing", &smoothing, "invert", &invert, "post-messages", &post, NULL);
  fail_unless_equals_int (threshold, 128);
  fail_unless_equals_int (offset, 0);
  fail_unless_equals_float (smoothing, 0.0);
  fail_if (invert);
  fail_if (post);
  gst_util_set_object_arg (G_OBJECT (e), "mode", "fixed");

  caps = gst_pad_query_caps (src, NULL);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY8");
  gst_caps_unref (caps);
  /* colour input is converted inside, GRAY8 taken as is */
  fail_unless (accepts (sink, "video/x-raw,format=BGRx,width=8,height=8"));
  fail_unless (accepts (sink, "video/x-raw(memory:CUDAMemory),"
          "format=GRAY8,width=8,height=8"));

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* cudablobs: defaults, ranges, enum nicks; GRAY8 in only; GRAY8 out, or
 * GRAY16_LE with output=labels; no GPU said plainly. */
GST_START_TEST (test_blobs_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudablobs", NULL);
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  gint output, connectivity;
  guint min_area, max_blobs;
  gboolean post;
  GParamSpec *ps;
  GstCaps *caps;

  g_object_get (e, "output", &output, "connectivity", &connectivity,
      "min-area", &min_area, "max-blobs", &max_blobs, "post-messages", &post,
      NULL);
  fail_unless_equals_int (output, 0);
  fail_unless_equals_int (connectivity, 8);
  fail_unless_equals_int (min_area, 0);
  fail_unless_equals_int (max_blobs, 0);
  fail_if (post);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "max-blobs");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (ps)->maximum, 65535);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING);
  gst_util_set_object_arg (G_OBJECT (e), "connectivity", "4");
  g_object_get (e, "connectivity", &connectivity, NULL);
  fail_unless_equals_int (connectivity, 4);

  fail_unless (accepts (sink, "video/x-raw,format=GRAY8,width=8,height=8"));
  fail_unless (accepts (sink, "video/x-raw(memory:CUDAMemory),"
          "format=GRAY8,width=8,height=8"));
  fail_if (accepts (sink, "video/x-raw,format=RGBA,width=8,height=8"));
  caps = gst_pad_query_caps (src, NULL);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY8");
  gst_caps_unref (caps);
  /* not streaming: the caps follow the property at once (a link made
   * after it is set sees it) */
  gst_util_set_object_arg (G_OBJECT (e), "output", "labels");
  caps = gst_pad_query_caps (src, NULL);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY16_LE");
  gst_caps_unref (caps);

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (e);
  expect_no_gpu ("videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8 ! "
      "cudablobs name=b ! fakesink", "b");
}

GST_END_TEST;

/* cudahistogram: defaults and ranges; a picture of its own size (GRAY8,
 * RGBA with channels=rgb, aspect 1/1) out of any input size, the input's
 * caps with output=passthrough; no GPU said plainly. */
static GstStructure *
histogram_out (GstElement * e, const gchar * in)
{
  GstBaseTransform *t = GST_BASE_TRANSFORM (e);
  GstCaps *caps = gst_caps_from_string (in), *out;
  GstStructure *s;

  /* not streaming: the caps follow the properties at once */
  out = GST_BASE_TRANSFORM_GET_CLASS (e)->transform_caps (t, GST_PAD_SINK,
      caps, NULL);
  fail_if (gst_caps_is_empty (out), "%s: no output caps", in);
  s = gst_structure_copy (gst_caps_get_structure (out, 0));
  gst_caps_unref (out);
  gst_caps_unref (caps);
  return s;
}

GST_START_TEST (test_histogram_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudahistogram", NULL);
  gint channels, output, scale, w, h, n, d;
  gboolean post;
  GstStructure *s;

  g_object_get (e, "channels", &channels, "output", &output, "scale", &scale,
      "width", &w, "height", &h, "post-messages", &post, NULL);
  fail_unless_equals_int (channels, 0);
  fail_unless_equals_int (output, 0);
  fail_unless_equals_int (scale, 0);
  fail_unless_equals_int (w, 256);
  fail_unless_equals_int (h, 128);
  fail_if (post);

  s = histogram_out (e, "video/x-raw,format=RGBA,width=640,height=480,"
      "pixel-aspect-ratio=4/3");
  fail_unless (gst_structure_get_int (s, "width", &w) &&
      gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, 256);
  fail_unless_equals_int (h, 128);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "GRAY8");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless (n == 1 && d == 1);
  gst_structure_free (s);

  gst_util_set_object_arg (G_OBJECT (e), "channels", "rgb");
  g_object_set (e, "width", 512, "height", 200, NULL);
  s = histogram_out (e, "video/x-raw,format=BGRx,width=64,height=48");
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "RGBA");
  fail_unless (gst_structure_get_int (s, "width", &w) && w == 512);
  gst_structure_free (s);

  gst_util_set_object_arg (G_OBJECT (e), "output", "passthrough");
  s = histogram_out (e, "video/x-raw,format=NV12,width=64,height=48");
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "NV12");
  fail_unless (gst_structure_get_int (s, "width", &w) && w == 64);
  gst_structure_free (s);
  gst_object_unref (e);

  expect_no_gpu ("videotestsrc num-buffers=1 ! cudahistogram name=h ! "
      "fakesink", "h");
}

GST_END_TEST;

GST_START_TEST (test_sobel_properties)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  gint ksize, border, norm;
  gdouble scale;
  guint threshold;

  g_object_get (e, "ksize", &ksize, "border", &border, "norm", &norm,
      "scale", &scale, "threshold", &threshold, NULL);
  fail_unless_equals_int (ksize, 3);
  fail_unless_equals_int (border, 0);
  fail_unless_equals_int (norm, 0);
  fail_unless_equals_float (scale, 1.0);
  fail_unless_equals_int (threshold, 0);
  /* the border values are shared with cudasmooth, the type name its own */
  fail_unless_equals_string (g_type_name (G_PARAM_SPEC_VALUE_TYPE
          (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
                  "border"))), "GstCudaSobelBorder");
  gst_util_set_object_arg (G_OBJECT (e), "ksize", "7");
  gst_util_set_object_arg (G_OBJECT (e), "border", "reflect-101");
  gst_util_set_object_arg (G_OBJECT (e), "norm", "l1");
  g_object_get (e, "ksize", &ksize, "border", &border, "norm", &norm, NULL);
  fail_unless_equals_int (ksize, 7);
  fail_unless_equals_int (border, 1);
  fail_unless_equals_int (norm, 1);
  gst_object_unref (e);
}

GST_END_TEST;

/* cudasmooth: OpenCV's defaults, enum nicks, sigma's range, and the
 * formats it takes and gives back unchanged. */
GST_START_TEST (test_smooth_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudasmooth", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_pad_query_caps (sink, NULL);
  gint method, ksize, border;
  gdouble sigma;

  g_object_get (e, "method", &method, "ksize", &ksize, "border", &border,
      "sigma", &sigma, NULL);
  fail_unless_equals_int (method, 2);   /* gaussian */
  fail_unless_equals_int (ksize, 5);
  fail_unless_equals_int (border, 1);   /* reflect-101 */
  fail_unless_equals_float (sigma, 0.0);
  fail_unless_equals_string (g_type_name (G_PARAM_SPEC_VALUE_TYPE
          (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
                  "border"))), "GstCudaSmoothBorder");
  gst_util_set_object_arg (G_OBJECT (e), "method", "median");
  gst_util_set_object_arg (G_OBJECT (e), "ksize", "15");
  gst_util_set_object_arg (G_OBJECT (e), "border", "replicate");
  g_object_set (e, "sigma", 2.5, NULL);
  g_object_get (e, "method", &method, "ksize", &ksize, "border", &border,
      "sigma", &sigma, NULL);
  fail_unless_equals_int (method, 3);
  fail_unless_equals_int (ksize, 15);
  fail_unless_equals_int (border, 0);
  fail_unless_equals_float (sigma, 2.5);
  /* GRAY8 and packed RGB, in both memories; no YUV */
  {
    static const gchar *takes[] = { "video/x-raw,format=GRAY8",
      "video/x-raw(memory:CUDAMemory),format=BGRx", "video/x-raw,format=NV12"
    };
    guint i;
    for (i = 0; i < G_N_ELEMENTS (takes); i++) {
      GstCaps *c = gst_caps_from_string (takes[i]);
      fail_unless (gst_caps_can_intersect (caps, c) == (i < 2), "%s", takes[i]);
      gst_caps_unref (c);
    }
  }
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* What each element makes of one input format: the source pad's only
 * format, or the input's own (the base class's default), or the element's
 * choice (cudakmeans: its output property) */
GST_START_TEST (test_output_formats)
{
  static const struct
  {
    const gchar *element, *in, *out;
  } cases[] = {
    {"cudagray", "BGRx", "GRAY8"},
    {"cudagray", "NV12", "GRAY8"},
    {"cudaotsu", "RGBA", "GRAY8"},
    {"cudasobel", "GRAY8", "GRAY8"},
    {"cudathin", "GRAY8", "GRAY8"},
    {"cudathin3d", "GRAY8", "GRAY8"},
    {"cudasmooth", "BGRx", "BGRx"},
    {"cudasmooth", "RGB", "RGB"},
    {"cudasmooth", "GRAY8", "GRAY8"},
    {"cudakmeans", "ABGR", "ABGR"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *e = gst_element_factory_make (cases[i].element, NULL);
    GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (e);
    gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=8,height=8",
        cases[i].in);
    GstCaps *in = gst_caps_from_string (str), *out;
    guint j;

    out = klass->transform_caps (GST_BASE_TRANSFORM (e), GST_PAD_SINK, in,
        NULL);
    fail_if (gst_caps_is_empty (out), "%s takes no %s", cases[i].element,
        cases[i].in);
    for (j = 0; j < gst_caps_get_size (out); j++)
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (out, j), "format"), cases[i].out);
    gst_caps_unref (out);
    gst_caps_unref (in);
    g_free (str);
    gst_object_unref (e);
  }
}

GST_END_TEST;

GST_START_TEST (test_thin_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudathin", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  gint method, border;
  guint max;
  gboolean post;

  g_object_get (e, "method", &method, "max-iterations", &max,
      "post-messages", &post, "border", &border, NULL);
  fail_unless_equals_int (method, 0);
  fail_unless_equals_int (max, 0);
  fail_unless_equals_int (border, 0);
  fail_if (post);
  gst_util_set_object_arg (G_OBJECT (e), "method", "guo-hall");
  g_object_get (e, "method", &method, NULL);
  fail_unless_equals_int (method, 2);
  gst_util_set_object_arg (G_OBJECT (e), "border", "opencv");
  g_object_get (e, "border", &border, NULL);
  fail_unless_equals_int (border, 1);
  gst_util_set_object_arg (G_OBJECT (e), "border", "background");
  g_object_get (e, "border", &border, NULL);
  fail_unless_equals_int (border, 0);

  /* binary frames are GRAY8: colour is refused, not silently thresholded */
  fail_if (accepts (sink, "video/x-raw,format=RGBA,width=8,height=8"));
  fail_unless (accepts (sink, "video/x-raw(memory:CUDAMemory),"
          "format=GRAY8,width=8,height=8"));
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_thin3d_properties_caps)
{
  GstElement *e = gst_element_factory_make ("cudathin3d", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GParamSpec *ps;
  gint method;
  guint depth, max;
  gboolean post;

  g_object_get (e, "method", &method, "depth", &depth, "max-rounds", &max,
      "post-messages", &post, NULL);
  fail_unless_equals_int (method, 0);
  fail_unless_equals_int (depth, 0);
  fail_unless_equals_int (max, 0);
  fail_if (post);
  gst_util_set_object_arg (G_OBJECT (e), "method", "pk12");
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "depth");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (ps)->maximum, 65536);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING);

  /* slices are binary GRAY8 frames */
  fail_if (accepts (sink, "video/x-raw,format=RGB,width=8,height=8"));
  fail_unless (accepts (sink, "video/x-raw(memory:CUDAMemory),"
          "format=GRAY8,width=8,height=8"));
  gst_object_unref (sink);
  gst_object_unref (e);

  /* no GPU: the same clear error as the others */
  expect_no_gpu ("videotestsrc num-buffers=4 ! video/x-raw,format=GRAY8 ! "
      "cudathin3d name=t depth=2 ! fakesink", "t");
}

GST_END_TEST;

/* The caps @pad's query gives, filtered by @filter, put CUDA memory first. */
static void
caps_prefer_cuda (GstPad * pad, const gchar * filter_str, const gchar * what)
{
  GstCaps *filter = filter_str ? gst_caps_from_string (filter_str) : NULL;
  GstCaps *caps = gst_pad_query_caps (pad, filter);
  GstCapsFeatures *f;

  fail_if (gst_caps_is_empty (caps), "%s: no caps", what);
  f = gst_caps_get_features (caps, 0);
  fail_unless (f && gst_caps_features_contains (f, "memory:CUDAMemory"),
      "%s: system memory first", what);
  gst_caps_unref (caps);
  if (filter)
    gst_caps_unref (filter);
}

GST_START_TEST (test_overlay_properties_pads_caps)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc ! cudagray ! cudaotsu "
      "name=mask_src ! o.mask cudaoverlay name=o ! "
      "video/x-raw,format=RGBA ! fakesink", NULL);
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "o");
  GstPad *video = gst_element_get_static_pad (e, "video");
  GstPad *mask = gst_element_get_static_pad (e, "mask");
  GValue v = G_VALUE_INIT;
  GParamSpec *ps;
  guint color;
  gdouble alpha;
  gint mode;
  gchar *str;

  fail_unless (video != NULL && mask != NULL);
  /* the defaults */
  g_object_get (e, "mode", &mode, "color", &color, "alpha", &alpha, NULL);
  fail_unless_equals_int (mode, 0);
  fail_unless_equals_int (color, 0x00ff00);
  fail_unless_equals_float (alpha, 0.6);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "color");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (ps)->maximum, 0xffffff);
  fail_unless (ps->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "alpha");
  fail_unless (ps->flags & GST_PARAM_CONTROLLABLE);

  /* the palette, as gst-launch-1.0 writes it, and back */
  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "palette", &v);
  fail_unless_equals_int (gst_value_array_get_size (&v), 0);
  g_value_unset (&v);
  gst_util_set_object_arg (G_OBJECT (e), "palette", "<0xff0000, 255, 0x10>");
  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "palette", &v);
  str = gst_value_serialize (&v);
  fail_unless_equals_string (str, "< (uint)16711680, (uint)255, (uint)16 >");
  g_free (str);
  g_value_unset (&v);
  gst_util_set_object_arg (G_OBJECT (e), "mode", "labels");
  g_object_get (e, "mode", &mode, NULL);
  fail_unless_equals_int (mode, 2);

  /* one mask pad only */
  fail_unless (gst_element_request_pad (e,
          gst_element_get_pad_template (e, "mask"), NULL, NULL) == NULL);

  /* the mask is GRAY8, any size; the video one of cudagray's formats */
  fail_unless (accepts (mask, "video/x-raw(memory:CUDAMemory),format=GRAY8,"
          "width=7,height=3,framerate=30/1"));
  fail_unless (accepts (mask, "video/x-raw,format=GRAY8,width=7,height=3,"
          "framerate=30/1"));
  fail_if (accepts (mask, "video/x-raw,format=RGBA,width=7,height=3,"
          "framerate=30/1"));
  fail_unless (accepts (video, "video/x-raw(memory:CUDAMemory),format=RGBA,"
          "width=7,height=3,framerate=30/1"));
  fail_unless (accepts (video, "video/x-raw,format=RGBA,width=7,height=3,"
          "framerate=30/1"));
  /* what downstream cannot take, the video pad does not offer */
  fail_if (accepts (video, "video/x-raw,format=NV12,width=8,height=4,"
          "framerate=30/1"));
  fail_if (accepts (video, "video/x-raw,format=GRAY16_LE,width=8,height=4,"
          "framerate=30/1"));
  /* CUDA memory first on both pads, even before a system-memory end:
   * the output is downloaded inside */
  caps_prefer_cuda (mask, "video/x-raw,format=GRAY8,width=64,height=48,"
      "framerate=30/1;video/x-raw(memory:CUDAMemory),format=GRAY8,width=64,"
      "height=48,framerate=30/1", "mask behind cudaotsu");
  caps_prefer_cuda (video, NULL, "video before a system-memory capsfilter");

  gst_object_unref (video);
  gst_object_unref (mask);
  gst_object_unref (e);
  gst_object_unref (pipe);

  /* no GPU: the same clear error as the others */
  expect_no_gpu ("videotestsrc num-buffers=2 ! cudaoverlay name=o ! fakesink "
      "videotestsrc num-buffers=2 ! video/x-raw,format=GRAY8 ! o.mask", "o");
}

GST_END_TEST;

static Suite *
elements_suite (void)
{
  Suite *s = suite_create ("cudaimgproc-elements");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registry);
  tcase_add_test (tc, test_gray_properties);
  tcase_add_test (tc, test_gray_caps);
  tcase_add_test (tc, test_otsu_properties_caps);
  tcase_add_test (tc, test_sobel_properties);
  tcase_add_test (tc, test_blobs_properties_caps);
  tcase_add_test (tc, test_histogram_properties_caps);
  tcase_add_test (tc, test_output_formats);
  tcase_add_test (tc, test_thin_properties_caps);
  tcase_add_test (tc, test_smooth_properties_caps);
  tcase_add_test (tc, test_thin3d_properties_caps);
  tcase_add_test (tc, test_links_prefer_cuda);
  tcase_add_test (tc, test_no_gpu_error);
  tcase_add_test (tc, test_device_id_everywhere);
  tcase_add_test (tc, test_overlay_properties_pads_caps);
  return s;
}

GST_CHECK_MAIN (elements);

/* cudaimgproc: two GPUs.  Every element runs on the device its
 * `cuda-device-id` names, with the output it gives on device 0; two
 * pipelines on two GPUs at once give what each gives alone; a chain whose
 * elements ask for different devices gives the one-device chain's output
 * (each element copies a frame of another device's context in, through
 * host memory, as it does any foreign CUDA memory); NVDEC on device 1
 * shares its GstCudaContext with our elements on device 1 (no copy).
 * Skips (exit 77) where fewer than two CUDA devices exist.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"

#include <glib/gstdio.h>
#include <string.h>

/* What left each of our elements: keyed by element name, the device of
 * its output memory's context (-1: system memory) and the context. */
typedef struct
{
  GMutex lock;
  GHashTable *device;           /* name -> device id + 2 (0: none seen) */
  GHashTable *context;          /* name -> GstCudaContext * (unowned) */
  gboolean mixed;               /* an element's output changed device */
} Seen;

static gint
context_device (GstCudaContext * ctx)
{
  guint id = G_MAXUINT;

  g_object_get (ctx, "cuda-device-id", &id, NULL);
  return (gint) id;
}

static GstPadProbeReturn
note_output (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  Seen *seen = user;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_n_memory (buf) > 0 ?
      gst_buffer_peek_memory (buf, 0) : NULL;
  gchar *name = gst_object_get_name (GST_OBJECT_PARENT (pad));
  gint dev = -1;
  gpointer ctx = NULL, old;

  if (mem && gst_is_cuda_memory (mem)) {
    ctx = GST_CUDA_MEMORY_CAST (mem)->context;
    dev = context_device (ctx);
  }
  g_mutex_lock (&seen->lock);
  old = g_hash_table_lookup (seen->device, name);
  if (old && GPOINTER_TO_INT (old) != dev + 2)
    seen->mixed = TRUE;
  g_hash_table_insert (seen->device, g_strdup (name), GINT_TO_POINTER (dev +
          2));
  g_hash_table_insert (seen->context, name, ctx);
  g_mutex_unlock (&seen->lock);
  return GST_PAD_PROBE_OK;
}

/* A probe on the source pad of every element named in @names (a
 * NULL-terminated list). */
static void
watch (GstElement * pipe, const gchar * const *names, Seen * seen)
{
  for (; *names; names++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), *names);
    GstPad *src;

    fail_unless (e != NULL, "no element %s", *names);
    src = gst_element_get_static_pad (e, "src");
    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, note_output, seen, NULL);
    gst_object_unref (src);
    gst_object_unref (e);
  }
}

static gint
seen_device (Seen * seen, const gchar * name)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (seen->device, name)) - 2;
}

static void
seen_init (Seen * seen)
{
  g_mutex_init (&seen->lock);
  seen->device = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  seen->context = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  seen->mixed = FALSE;
}

static void
seen_clear (Seen * seen)
{
  g_hash_table_unref (seen->device);
  g_hash_table_unref (seen->context);
  g_mutex_clear (&seen->lock);
}

/* Runs @launch (its sink an appsink named "sink") to EOS; returns every
 * output frame's visible bytes, one after the other, and the number of
 * frames.
 * Fails on an error message or after 120 s without a frame. */
static GByteArray *
run_pipeline (const gchar * launch, const gchar * const *names, Seen * seen,
    guint * n_frames)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err), *sink;
  GByteArray *bytes = g_byte_array_new ();
  GstBus *bus;
  GstMessage *msg;
  gboolean eos = FALSE;

  fail_unless (pipe != NULL, "%s: %s", launch, err ? err->message : "?");
  *n_frames = 0;
  if (names)
    watch (pipe, names, seen);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "%s: could not start", launch);
  while (!eos) {
    GstSample *s = NULL;

    g_signal_emit_by_name (sink, "try-pull-sample", 120 * GST_SECOND, &s);
    if (s) {
      GstVideoInfo info;
      /* the frame's pixels, not its padding (CUDA memory maps to a host
       * copy here) */
      GBytes *v = visible_bytes (gst_sample_get_buffer (s),
          gst_sample_get_caps (s), &info);
      gsize size;
      const guint8 *data = g_bytes_get_data (v, &size);

      g_byte_array_append (bytes, data, size);
      g_bytes_unref (v);
      gst_sample_unref (s);
      (*n_frames)++;
    } else {
      g_object_get (sink, "eos", &eos, NULL);
      fail_unless (eos, "%s: no frame for 120 s", launch);
    }
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
      GError *e = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &e, &dbg);
      fail ("%s: error from %s: %s (%s)", launch,
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message, dbg);
    }
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return bytes;
}

static void
assert_same_bytes (GByteArray * a, GByteArray * b, const gchar * what)
{
  gsize i;

  fail_unless_equals_uint64 ((guint64) a->len, (guint64) b->len);
  for (i = 0; i < a->len; i++)
    if (a->data[i] != b->data[i])
      break;
  fail_unless (i == a->len, "%s: byte %" G_GSIZE_FORMAT " of %u differs "
      "(%u, %u)", what, i, a->len, a->data[i], b->data[i]);
}

/* Each chain with every element's `cuda-device-id` set to one device (the
 * %1$d), the tail caps (%2$s) choosing CUDA or system memory out.  The
 * elements named in names are ours, the last of them the chain's end. */
static const struct
{
  const gchar *launch;
  const gchar *names[6];
} chains[] = {
  {"videotestsrc num-buffers=8 pattern=ball ! video/x-raw,format=RGBA,"
        "width=641,height=479 ! cudagray name=a cuda-device-id=%1$d "
        "! cudasmooth name=b cuda-device-id=%1$d method=gaussian ksize=5 "
        "! cudaotsu name=c cuda-device-id=%1$d "
        "! cudathin name=d cuda-device-id=%1$d ! appsink name=sink "
        "sync=false caps=\"%2$s\"", {"a", "b", "c", "d", NULL}},
  {"videotestsrc num-buffers=8 pattern=smpte ! video/x-raw,format=RGBA,"
        "width=1920,height=1080 ! cudagray name=a cuda-device-id=%1$d "
        "! cudasobel name=b cuda-device-id=%1$d ! appsink name=sink "
        "sync=false caps=\"%2$s\"", {"a", "b", NULL}},
  {"videotestsrc num-buffers=6 pattern=smpte ! video/x-raw,format=RGBA,"
        "width=640,height=480 ! cudakmeans name=a cuda-device-id=%1$d k=6 "
        "! appsink name=sink sync=false caps=\"%2$s\"", {"a", NULL}},
  {"videotestsrc num-buffers=6 pattern=ball ! video/x-raw,format=RGBA,"
        "width=320,height=240 ! tee name=t "
        "t. ! queue ! cudagray name=a cuda-device-id=%1$d "
        "! cudaotsu name=b cuda-device-id=%1$d "
        "! cudathin name=c cuda-device-id=%1$d ! o.mask "
        "t. ! queue ! cudaoverlay name=o cuda-device-id=%1$d "
        "! appsink name=sink sync=false caps=\"%2$s\"",
      {"a", "b", "c", "o", NULL}},
  {"videotestsrc num-buffers=32 pattern=ball ! video/x-raw,format=RGBA,"
        "width=64,height=64 ! cudagray name=a cuda-device-id=%1$d "
        "! cudaotsu name=b cuda-device-id=%1$d "
        "! cudathin3d name=c cuda-device-id=%1$d depth=16 "
        "! appsink name=sink sync=false caps=\"%2$s\"", {"a", "b", "c",
          NULL}},
};

/* Each element on device 1 gives what it gives on device 0, in CUDA
 * memory of device 1 between them, and in either memory out. */
GST_START_TEST (test_every_element_on_device_1)
{
  const gchar *tails[] = { "video/x-raw(memory:CUDAMemory)", "video/x-raw" };
  guint c, t, d;

  for (c = 0; c < G_N_ELEMENTS (chains); c++)
    for (t = 0; t < G_N_ELEMENTS (tails); t++) {
      GByteArray *out[2];
      guint n[2];

      for (d = 0; d < 2; d++) {
        gchar *launch = g_strdup_printf (chains[c].launch, d, tails[t]);
        const gchar *const *name;
        Seen seen;

        seen_init (&seen);
        out[d] = run_pipeline (launch, chains[c].names, &seen, &n[d]);
        fail_unless (n[d] > 0, "%s: no frame", launch);
        fail_if (seen.mixed, "%s: an element's output changed device", launch);
        for (name = chains[c].names; *name; name++) {
          gboolean last = name[1] == NULL;
          gint want = last && t == 1 ? -1 : (gint) d;

          fail_unless_equals_int (seen_device (&seen, *name), want);
        }
        g_print ("%s: %u frames on device %u, %s out\n", launch, n[d], d,
            t ? "system memory" : "CUDA memory");
        seen_clear (&seen);
        g_free (launch);
      }
      fail_unless_equals_int (n[0], n[1]);
      assert_same_bytes (out[0], out[1], chains[c].launch);
      g_byte_array_unref (out[0]);
      g_byte_array_unref (out[1]);
    }
}

GST_END_TEST;

/* ---- two pipelines at once ---------------------------------------------- */

#define BUSY_CHAIN "videotestsrc num-buffers=240 pattern=ball ! " \
  "video/x-raw,format=RGBA,width=1920,height=1080 ! " \
  "cudagray name=a cuda-device-id=%d ! cudaotsu name=b cuda-device-id=%d ! " \
  "cudasobel name=c cuda-device-id=%d ! appsink name=sink sync=false " \
  "caps=video/x-raw"

typedef struct
{
  gint device;
  gchar *digest;
  guint frames;
  gint devices[3];
} Run;

static gpointer
run_busy_chain (gpointer user)
{
  Run *run = user;
  const gchar *names[] = { "a", "b", "c", NULL };
  gchar *launch = g_strdup_printf (BUSY_CHAIN, run->device, run->device,
      run->device);
  Seen seen;
  GByteArray *out;
  gint i;

  seen_init (&seen);
  out = run_pipeline (launch, names, &seen, &run->frames);
  run->digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, out->data,
      out->len);
  for (i = 0; i < 3; i++)
    run->devices[i] = seen_device (&seen, names[i]);
  g_byte_array_unref (out);
  seen_clear (&seen);
  g_free (launch);
  return NULL;
}

GST_START_TEST (test_two_pipelines_two_gpus)
{
  Run alone, runs[2];
  GThread *th[2];
  gint r, i;

  memset (&alone, 0, sizeof alone);
  memset (runs, 0, sizeof runs);
  run_busy_chain (&alone);
  for (r = 0; r < 2; r++) {
    runs[r].device = r;
    th[r] = g_thread_new ("busy", run_busy_chain, &runs[r]);
  }
  for (r = 0; r < 2; r++) {
    g_thread_join (th[r]);
    fail_unless_equals_int (runs[r].frames, 240);
    fail_unless_equals_string (runs[r].digest, alone.digest);
    /* the last link is system memory */
    for (i = 0; i < 2; i++)
      fail_unless_equals_int (runs[r].devices[i], r);
    fail_unless_equals_int (runs[r].devices[2], -1);
    g_free (runs[r].digest);
  }
  g_print ("two pipelines on devices 0 and 1 at once: %u frames each, the "
      "output of one alone (sha256 %.16s...)\n", alone.frames, alone.digest);
  g_free (alone.digest);
}

GST_END_TEST;

/* ---- one chain over two devices ----------------------------------------- */

/* cudagray on 0, cudaotsu on 1, cudasobel on 0, CUDA memory between them
 * all: each copies the other device's frame in (a correct copy). */
GST_START_TEST (test_chain_across_devices)
{
  const gchar *names[] = { "a", "b", "c", NULL };
  const gchar *fmt = "videotestsrc num-buffers=12 pattern=ball ! "
      "video/x-raw,format=RGBA,width=1283,height=721 ! "
      "cudagray name=a cuda-device-id=%d ! "
      "video/x-raw(memory:CUDAMemory) ! cudaotsu name=b cuda-device-id=%d ! "
      "video/x-raw(memory:CUDAMemory) ! cudasobel name=c cuda-device-id=%d "
      "! appsink name=sink sync=false caps=video/x-raw(memory:CUDAMemory)";
  gchar *one = g_strdup_printf (fmt, 0, 0, 0);
  gchar *mixed = g_strdup_printf (fmt, 0, 1, 0);
  GByteArray *want, *got;
  guint n_want, n_got;
  Seen seen;

  seen_init (&seen);
  want = run_pipeline (one, NULL, NULL, &n_want);
  got = run_pipeline (mixed, names, &seen, &n_got);
  fail_unless_equals_int (n_got, n_want);
  assert_same_bytes (want, got, mixed);
  fail_unless_equals_int (seen_device (&seen, "a"), 0);
  fail_unless_equals_int (seen_device (&seen, "b"), 1);
  fail_unless_equals_int (seen_device (&seen, "c"), 0);
  /* Not asserted: a bin keeps one CUDA context, the last posted (device
   * 1's when cudagray starts), so cudagray makes a second one on device 0
   * (nvcodec's elements do the same) */
  g_print ("cudagray (0) ! cudaotsu (1) ! cudasobel (0): %u frames, equal "
      "to the chain on device 0; the two on device 0 %s\n", n_got,
      g_hash_table_lookup (seen.context, "a") ==
      g_hash_table_lookup (seen.context, "c") ? "share one context" :
      "have a context each");
  seen_clear (&seen);
  g_byte_array_unref (want);
  g_byte_array_unref (got);
  g_free (one);
  g_free (mixed);
}

GST_END_TEST;

/* ---- NVDEC on device 1 -------------------------------------------------- */

/* The H.264 decoder nvcodec registered for @device ("nvh264dec" is device
 * 0's; 1.22 names the others nvh264device<N>dec), or NULL. */
static gchar *
nvdec_for_device (gint device)
{
  GList *all = gst_element_factory_list_get_elements
      (GST_ELEMENT_FACTORY_TYPE_DECODER, GST_RANK_NONE), *l;
  gchar *found = NULL;

  for (l = all; l && !found; l = l->next) {
    const gchar *name = GST_OBJECT_NAME (l->data);
    GstElement *e;
    guint id = G_MAXUINT;

    if (!g_str_has_prefix (name, "nvh264") || !g_str_has_suffix (name, "dec")
        || strstr (name, "sl"))
      continue;
    e = gst_element_factory_create (l->data, NULL);
    if (e && g_object_class_find_property (G_OBJECT_GET_CLASS (e),
            "cuda-device-id"))
      g_object_get (e, "cuda-device-id", &id, NULL);
    if ((gint) id == device)
      found = g_strdup (name);
    gst_clear_object (&e);
  }
  gst_plugin_feature_list_free (all);
  return found;
}

/* nvh264 decoding on device 1 into cudagray cuda-device-id=1: one context
 * (the decoder's frames are read where they are), the output of the same
 * clip decoded in software. */
GST_START_TEST (test_nvdec_on_device_1)
{
  const gchar *names[] = { "dec", "a", NULL };
  gchar *dec = nvdec_for_device (1), *clip, *launch, *soft;
  GstElementFactory *enc = gst_element_factory_find ("openh264enc");
  GByteArray *want, *got;
  guint n_want, n_got;
  GstElement *p;
  GstMessage *msg;
  gboolean ok;
  Seen seen;

  if (!dec || !enc) {
    g_print ("SKIP (part): %s\n", !dec ? "nvcodec registered no H.264 "
        "decoder for device 1" : "no openh264enc to make the test clip");
    g_free (dec);
    gst_clear_object (&enc);
    return;
  }
  gst_object_unref (enc);
  clip = g_build_filename (g_get_tmp_dir (), "cudaimgproc-multigpu.h264", NULL);
  /* as tests/gpu-suite.sh makes its clip (openh264's defaults refuse
   * some sizes: cmInitParaError) */
  launch = g_strdup_printf ("videotestsrc num-buffers=20 pattern=smpte ! "
      "video/x-raw,format=I420,width=512,height=512,framerate=30/1 ! "
      "openh264enc bitrate=4000000 ! h264parse ! "
      "video/x-h264,stream-format=byte-stream ! filesink location=\"%s\"",
      clip);
  p = gst_parse_launch (launch, NULL);
  fail_unless (p != NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  g_clear_pointer (&msg, gst_message_unref);
  fail_unless (ok, "%s: no clip made", launch);
  g_free (launch);

  soft = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "openh264dec ! cudagray ! appsink name=sink sync=false "
      "caps=video/x-raw,format=GRAY8", clip);
  launch = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
      "%s name=dec ! video/x-raw(memory:CUDAMemory) ! "
      "cudagray name=a cuda-device-id=1 ! appsink name=sink sync=false "
      "caps=video/x-raw(memory:CUDAMemory),format=GRAY8", clip, dec);
  seen_init (&seen);
  want = run_pipeline (soft, NULL, NULL, &n_want);
  got = run_pipeline (launch, names, &seen, &n_got);
  fail_unless (n_want >= 10, "the software decoder gave %u frames of 20",
      n_want);
  fail_unless_equals_int (n_got, n_want);
  assert_same_bytes (want, got, launch);
  fail_unless_equals_int (seen_device (&seen, "dec"), 1);
  fail_unless_equals_int (seen_device (&seen, "a"), 1);
  fail_unless (g_hash_table_lookup (seen.context, "dec") ==
      g_hash_table_lookup (seen.context, "a"),
      "%s and cudagray have two contexts on device 1", dec);
  g_print ("%s ! cudagray cuda-device-id=1: one context, %u frames equal "
      "to openh264dec's\n", dec, n_got);
  seen_clear (&seen);
  g_byte_array_unref (want);
  g_byte_array_unref (got);
  g_unlink (clip);
  g_free (clip);
  g_free (launch);
  g_free (soft);
  g_free (dec);
}

GST_END_TEST;

static Suite *
multigpu_gpu_suite (void)
{
  Suite *s = suite_create ("multigpu_gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_every_element_on_device_1);
  tcase_add_test (tc, test_two_pipelines_two_gpus);
  tcase_add_test (tc, test_chain_across_devices);
  tcase_add_test (tc, test_nvdec_on_device_1);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *why = NULL;
  gint n = 0;

  gst_check_init (&argc, &argv);
  gpu_test_arg = argc > 1 ? argv[1] : NULL;
  if (!gpu_test_have_device (&why)) {
    g_print ("SKIP: two-GPU tests not run: %s\n", why);
    g_free (why);
    return GPU_TEST_SKIP;
  }
  CuDeviceGetCount (&n);
  if (n < 2) {
    g_print ("SKIP: two-GPU tests not run: this host has %d CUDA device "
        "(CUDA_VISIBLE_DEVICES: %s)\n", n, g_getenv ("CUDA_VISIBLE_DEVICES")
        ? g_getenv ("CUDA_VISIBLE_DEVICES") : "unset");
    return GPU_TEST_SKIP;
  }
  g_setenv ("CK_FORK", "no", TRUE);
  return gst_check_run_suite (multigpu_gpu_suite (), "multigpu_gpu", __FILE__);
}

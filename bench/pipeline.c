/* cudaimgproc pipeline benchmark: whole GStreamer pipelines, frames per
 * second and per-frame latency, with frames already on the GPU and from
 * system memory, beside the same pipelines with the kernels left out
 * (GStreamer's and the base class's own cost) and beside peers.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-pipeline-bench [--photo FILE W H] [--json FILE]
 *       [--only SUBSTRING] [--size WxH] [--memory gpu|system|app|app-new]
 *       [--chain DESCRIPTION FORMAT] [--runs N]
 *
 * Each pipeline is `appsrc ! CHAIN ! capsfilter ! fakesink sync=false`,
 * or, as applications write it, `... ! capsfilter ! appsink` with every
 * sample pulled.  The source pushes 4 frames round robin (a photograph
 * scaled up, RGBA), made once before timing: in CUDA memory of the
 * pipeline's context (as after nvh264dec or cudaupload: no upload in the
 * loop), or in system memory (the first element uploads, the last
 * downloads): the same 4 memories again and again, as a source's pool
 * gives them, or ("new memory") the same bytes in a new GstMemory each
 * frame, as an application wrapping its own arrays does.  The sink's
 * handoff (appsink: the pulled sample) is the frame's arrival; our last
 * element pushes a frame to a foreign element only once its GPU work is
 * done, so arrival means done.
 *
 * PCIe floor: the bytes a frame moves up plus the bytes it moves down,
 * over the page-locked copy bandwidth measured in the same run (64 MB
 * cudaMemcpyAsync each way, median of 10).
 *
 * Throughput: frames pushed as fast as the pipeline takes them (appsrc
 * blocks with 4 queued), for about half a second after warm-up; median
 * of 3 runs.  Latency: one frame at a time, push to arrival; median and
 * 90th percentile.  "Without kernels": CUDAIMGPROC_NO_KERNELS makes our
 * elements do everything but their kernels (caps, pools, fences, the
 * stream sync, upload/download), so the difference is kernel time.
 * --chain times one chain of ours instead of the list below (gst-launch
 * syntax, FORMAT the caps' format after it), as an experiment would;
 * --runs N (default 3) holds each case longer, for a profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>

#include "gstcudaimgpool.h"
#include <cuda_runtime_api.h>
#include "content.h"
#include "gstbench.h"

#define INPUTS 4
#define MAX_RUNS 99
#define LATENCY_FRAMES 60
#define TIMEOUT_S 20

typedef struct
{
  const gchar *name;            /* as the report shows it */
  const gchar *chain;           /* gst-launch syntax */
  const gchar *out_format;
  gboolean ours;                /* our elements: a no-kernel run too */
  gboolean cuda_ok;             /* can take CUDA memory */
  gboolean system_ok;
} Chain;

static const Chain chains[] = {
  {"cudagray ! cudaotsu ! cudathin", "cudagray ! cudaotsu ! cudathin",
      "GRAY8", TRUE, TRUE, TRUE},
  {"cudagray ! cudaotsu ! cudasobel", "cudagray ! cudaotsu ! cudasobel",
      "GRAY8", TRUE, TRUE, TRUE},
  /* a thread per element: a frame's launches overlap the previous frame's
   * kernels (our elements synchronise their stream before pushing to a
   * queue, as to any element not ours) */
  {"cudagray ! queue ! cudaotsu ! queue ! cudasobel",
        "cudagray ! queue ! cudaotsu ! queue ! cudasobel", "GRAY8", TRUE,
      TRUE, FALSE},
  {"cudagray ! cudasobel", "cudagray ! cudasobel", "GRAY8", TRUE, TRUE, TRUE},
  /* objects: beside cudagray ! cudaotsu (below), what cudablobs adds (its
   * frames always leave through its own thread, metadata attached) */
  {"cudagray ! cudaotsu ! cudablobs", "cudagray ! cudaotsu ! cudablobs "
        "min-area=16", "GRAY8", TRUE, TRUE, TRUE},
  {"cudagray ! cudaotsu", "cudagray ! cudaotsu", "GRAY8", TRUE, TRUE, TRUE},
  {"cudakmeans k=8", "cudakmeans k=8", "RGBA", TRUE, TRUE, TRUE},
  /* the live preview: the Otsu mask painted over the video it came from */
  {"tee ! cudaoverlay, tee ! cudagray ! cudaotsu ! mask",
      "tee name=t t. ! queue ! cudagray ! cudaotsu ! o.mask t. ! queue ! "
        "cudaoverlay name=o", "RGBA", TRUE, TRUE, TRUE},
  {"cudagray", "cudagray", "GRAY8", TRUE, TRUE, TRUE},
  {"identity x3 (GStreamer alone)", "identity ! identity ! identity", "RGBA",
      FALSE, TRUE, TRUE},
  {"videoconvert, 1 thread (peer)", "videoconvert n-threads=1", "GRAY8",
      FALSE, FALSE, TRUE},
  {"videoconvert, all cores (peer)", "videoconvert n-threads=0", "GRAY8",
      FALSE, FALSE, TRUE},
};

typedef struct
{
  GMutex lock;
  GCond cond;
  guint64 count;                /* buffers the sink got */
  gint64 last_us;               /* when the latest came */
  gboolean failed;              /* an element posted an error */
} Arrivals;

typedef struct
{
  double fps, us, lat_med, lat_p90;
  gchar *error;
} Result;

/* How frames come in and go out. */
typedef enum
{
  MEM_GPU,                      /* CUDA memory in and out, fakesink */
  MEM_SYSTEM,                   /* system memory in and out, fakesink */
  MEM_APP,                      /* system memory, appsink */
  MEM_APP_NEW,                  /* a new system memory each frame, appsink */
  N_MEM
} Mem;

static const gchar *mem_label[N_MEM] = { "GPU", "system",
  "system → appsink", "system, new memory → appsink"
};
static const gchar *mem_key[N_MEM] = { "gpu", "system", "app", "app-new" };

static GstCudaContext *context;
static FILE *json;
static gint runs = 3;           /* throughput runs a case (median) */
static double h2d_bps, d2h_bps; /* page-locked copies, bytes a second */

static void
arrived (Arrivals * a)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&a->lock);
  a->count++;
  a->last_us = now;
  g_cond_broadcast (&a->cond);
  g_mutex_unlock (&a->lock);
}

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer user)
{
  arrived (user);
}

/* What an application does with each frame: pull it. */
static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user)
{
  GstSample *s = gst_app_sink_pull_sample (sink);

  if (!s)
    return GST_FLOW_ERROR;
  gst_sample_unref (s);
  arrived (user);
  return GST_FLOW_OK;
}


/* An element's error ends the wait for frames at once (no frame will
 * come), rather than after TIMEOUT_S; the message stays on the bus for
 * bus_error (). */
static GstBusSyncReply
on_sync_message (GstBus * bus, GstMessage * m, gpointer user)
{
  Arrivals *a = user;

  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    g_mutex_lock (&a->lock);
    a->failed = TRUE;
    g_cond_broadcast (&a->cond);
    g_mutex_unlock (&a->lock);
  }
  return GST_BUS_PASS;
}

/* Waits until @n buffers arrived; FALSE on timeout or an error. */
static gboolean
wait_count (Arrivals * a, guint64 n, gint64 * when)
{
  gint64 end = g_get_monotonic_time () + TIMEOUT_S * G_TIME_SPAN_SECOND;
  gboolean ok = TRUE;

  g_mutex_lock (&a->lock);
  while (a->count < n && ok && !a->failed)
    ok = g_cond_wait_until (&a->cond, &a->lock, end);
  if (when)
    *when = a->last_us;
  ok = a->count >= n;
  g_mutex_unlock (&a->lock);
  return ok;
}

/* Page-locked copy bandwidth each way, in the benchmark's context. */
static gboolean
measure_pcie (void)
{
  gboolean ok;

  if (!gst_cuda_context_push (context))
    return FALSE;
  ok = bench_measure_pcie (&h2d_bps, &d2h_bps);
  gst_cuda_context_pop (NULL);
  return ok;
}

static gchar *
bus_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gchar *text = NULL;

  if (m) {
    GError *e = NULL;
    gst_message_parse_error (m, &e, NULL);
    text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (m->src), e->message);
    g_error_free (e);
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  return text ? text : g_strdup ("timed out");
}

static void
push (GstElement * src, GstBuffer ** inputs, GstMapInfo * maps, guint64 i)
{
  GstBuffer *b;

  if (maps)                     /* the same bytes in a new memory */
    b = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
        maps[i % INPUTS].data, maps[i % INPUTS].size, 0,
        maps[i % INPUTS].size, NULL, NULL);
  else                          /* shares the memory */
    b = gst_buffer_copy (inputs[i % INPUTS]);

  GST_BUFFER_PTS (b) = i * GST_MSECOND;
  GST_BUFFER_DURATION (b) = GST_MSECOND;
  gst_app_src_push_buffer (GST_APP_SRC (src), b);
}

static Result
measure (const Chain * c, gint w, gint h, Mem mem, gboolean kernels,
    const uint8_t * rgba)
{
  const gboolean cuda = mem == MEM_GPU, app = mem >= MEM_APP;
  const gchar *feature = cuda ? "(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY ")" :
      "";
  Result r = { 0 };
  GstElement *pipeline, *src, *sink;
  GstBuffer *inputs[INPUTS] = { NULL };
  GstMapInfo maps[INPUTS], *new_mem = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  GError *err = NULL;
  Arrivals a;
  gchar *desc;
  double fps[MAX_RUNS], lat[LATENCY_FRAMES];
  guint64 sent = 0, n;
  gint64 t0, t1;
  gint i, k;

  g_mutex_init (&a.lock);
  g_cond_init (&a.cond);
  a.count = 0;
  a.failed = FALSE;
  if (kernels)
    g_unsetenv ("CUDAIMGPROC_NO_KERNELS");
  else
    g_setenv ("CUDAIMGPROC_NO_KERNELS", "1", TRUE);

  desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=4 ! %s ! video/x-raw%s,format=%s ! %s", c->chain, feature,
      c->out_format, app ? "appsink name=sink sync=false async=false" :
      "fakesink name=sink sync=false async=false signal-handoffs=true");
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline) {
    r.error = g_strdup (err->message);
    g_error_free (err);
    return r;
  }
  {
    GstContext *ctx = gst_context_new_cuda_context (context);
    gst_element_set_context (pipeline, ctx);
    gst_context_unref (ctx);
  }
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    gst_bus_set_sync_handler (bus, on_sync_message, &a, NULL);
    gst_object_unref (bus);
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  /* the rate the timestamps say (a frame a millisecond): cudaoverlay, a
   * video aggregator, makes its output frames at the caps' rate */
  info.fps_n = 1000;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  if (cuda)
    gst_caps_set_features_simple (caps,
        gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  if (app) {
    GstAppSinkCallbacks cb = { NULL };
    cb.new_sample = on_new_sample;
    gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, &a, NULL);
  } else {
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &a);
  }
  for (i = 0; i < INPUTS; i++)
    if (!(inputs[i] = bench_make_input (cuda ? context : NULL, &info, rgba))) {
      r.error = g_strdup ("could not make an input frame");
      goto out;
    }
  if (mem == MEM_APP_NEW) {
    for (i = 0; i < INPUTS; i++)
      gst_buffer_map (inputs[i], &maps[i], GST_MAP_READ);
    new_mem = maps;
  }

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    r.error = bus_error (pipeline);
    goto out;
  }

  /* warm-up, and how many frames make half a second */
  for (i = 0; i < 10; i++)
    push (src, inputs, new_mem, sent++);
  if (!wait_count (&a, 5, &t0) || !wait_count (&a, sent, &t1)) {
    r.error = bus_error (pipeline);
    goto out;
  }
  n = (guint64) CLAMP (0.5e6 / MAX ((t1 - t0) / 5.0, 1.0), 30, 5000);

  for (k = 0; k < runs; k++) {
    guint64 base = sent;
    t0 = g_get_monotonic_time ();
    for (i = 0; i < (gint) n; i++)
      push (src, inputs, new_mem, sent++);
    if (!wait_count (&a, sent, &t1)) {
      r.error = bus_error (pipeline);
      goto out;
    }
    fps[k] = (double) (sent - base) * 1e6 / (double) MAX (t1 - t0, 1);
  }
  qsort (fps, runs, sizeof (double), bench_cmp_double);
  r.fps = fps[runs / 2];
  r.us = 1e6 / r.fps;

  for (i = 0; i < LATENCY_FRAMES; i++) {
    t0 = g_get_monotonic_time ();
    push (src, inputs, new_mem, sent++);
    if (!wait_count (&a, sent, &t1)) {
      r.error = bus_error (pipeline);
      goto out;
    }
    lat[i] = (double) (t1 - t0);
  }
  qsort (lat, LATENCY_FRAMES, sizeof (double), bench_cmp_double);
  r.lat_med = lat[LATENCY_FRAMES / 2];
  r.lat_p90 = lat[LATENCY_FRAMES * 9 / 10];

  gst_app_src_end_of_stream (GST_APP_SRC (src));
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *m = gst_bus_timed_pop_filtered (bus,
        TIMEOUT_S * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!m || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      r.error = g_strdup (m ? "error at EOS" : "no EOS");
    if (m)
      gst_message_unref (m);
    gst_object_unref (bus);
  }

out:
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (i = 0; i < INPUTS; i++) {
    if (new_mem)
      gst_buffer_unmap (inputs[i], &maps[i]);
    if (inputs[i])
      gst_buffer_unref (inputs[i]);
  }
  gst_object_unref (src);
  gst_object_unref (sink);
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
    gst_object_unref (bus);
  }
  gst_object_unref (pipeline);
  g_mutex_clear (&a.lock);
  g_cond_clear (&a.cond);
  g_unsetenv ("CUDAIMGPROC_NO_KERNELS");
  return r;
}

int
main (int argc, char **argv)
{
  static const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  BenchOptions o = { NULL };
  gint i;
  guint c, s, m, n_chains = G_N_ELEMENTS (chains);
  const Chain *list = chains;
  Chain custom = { NULL, NULL, NULL, TRUE, TRUE, TRUE };

  gst_init (&argc, &argv);
  for (i = 1; i < argc; i++) {
    if (bench_option (argc, argv, &i, &o))
      continue;
    if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      runs = atoi (argv[++i]);
      runs = CLAMP (runs, 1, MAX_RUNS);
    } else {
      fprintf (stderr, "usage: %s [--photo FILE W H] [--json FILE] "
          "[--only SUBSTRING] [--size WxH] [--memory gpu|system|app|"
          "app-new] [--chain DESCRIPTION FORMAT] [--runs N]\n", argv[0]);
      return 2;
    }
  }
  json = o.json;
  if (o.chain) {
    custom.name = custom.chain = o.chain;
    custom.out_format = o.format;
    list = &custom;
    n_chains = 1;
  }
  if (!gst_cuda_load_library () || !(context = gst_cuda_context_new (0))) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }

  if (!measure_pcie ())
    fprintf (stderr, "could not measure page-locked copies\n");

  printf ("<!-- bench:pipelines -->\n");
  printf ("%s; frames: %s; `appsrc ! CHAIN ! capsfilter ! fakesink "
      "sync=false` (or `appsink`, every sample pulled), RGBA in.  "
      "Page-locked copies in this run: host to device %.1f GB/s, device to "
      "host %.1f GB/s.\n\n", gst_version_string (),
      bench_have_photo ()? "the photograph, scaled up" : "a synthetic scene",
      h2d_bps * 1e-9, d2h_bps * 1e-9);
  printf
      ("| pipeline | size | frames in → out | fps | µs/frame | latency µs "
      "(median, p90) | without kernels: fps | µs/frame | kernels µs/frame "
      "| PCIe floor µs | × max (floor, GPU frames) |\n");
  printf ("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];
    uint8_t *rgba;

    if (o.w && (w != o.w || h != o.h))
      continue;
    rgba = make_content (w, h, 4);
    for (c = 0; c < n_chains; c++) {
      const Chain *ch = &list[c];
      const double out_bpp = strcmp (ch->out_format, "GRAY8") ? 4.0 : 1.0;
      /* bytes up, then down, over the page-locked bandwidths */
      const double floor_us = h2d_bps > 0 ? 1e6 * ((double) w * h * 4 /
          h2d_bps + (double) w * h * out_bpp / d2h_bps) : 0;
      double gpu_us = 0;

      if (o.only && !strstr (ch->name, o.only))
        continue;
      for (m = 0; m < N_MEM; m++) {
        Result r, nk = { 0 };

        if (o.memory && strcmp (o.memory, mem_key[m]))
          continue;
        if ((m == MEM_GPU && !ch->cuda_ok) || (m != MEM_GPU &&
                !ch->system_ok) || (m >= MEM_APP && !ch->ours))
          continue;
        r = measure (ch, w, h, m, TRUE, rgba);
        /* the framework's cost: today's two rows */
        if (!r.error && ch->ours && m <= MEM_SYSTEM)
          nk = measure (ch, w, h, m, FALSE, rgba);
        if (r.error || nk.error) {
          printf ("| %s | %dx%d | %s | error: %s | | | | | | | |\n", ch->name,
              w, h, mem_label[m], r.error ? r.error : nk.error);
          g_free (r.error);
          g_free (nk.error);
          continue;
        }
        if (m == MEM_GPU)
          gpu_us = r.us;
        printf ("| %s | %dx%d | %s | %.0f | %.1f | %.0f, %.0f |", ch->name, w,
            h, mem_label[m], r.fps, r.us, r.lat_med, r.lat_p90);
        if (ch->ours && m <= MEM_SYSTEM)
          printf (" %.0f | %.1f | %.1f |", nk.fps, nk.us, r.us - nk.us);
        else
          printf (" - | - | - |");
        if (ch->ours && m != MEM_GPU && floor_us > 0)
          printf (" %.1f | %.2f |\n", floor_us, r.us / MAX (floor_us, gpu_us));
        else
          printf (" - | - |\n");
        fflush (stdout);
        if (json)
          fprintf (json, "{\"kind\": \"pipeline\", \"name\": \"%s\", "
              "\"w\": %d, \"h\": %d, \"memory\": \"%s\", \"fps\": %.2f, "
              "\"us\": %.3f, \"latency_median_us\": %.1f, "
              "\"latency_p90_us\": %.1f, \"no_kernels_us\": %.3f, "
              "\"pcie_floor_us\": %.3f, \"gpu_frames_us\": %.3f}\n",
              ch->name, w, h, mem_key[m], r.fps, r.us, r.lat_med, r.lat_p90,
              nk.us, ch->ours && m != MEM_GPU ? floor_us : 0.0,
              ch->ours && m != MEM_GPU ? gpu_us : 0.0);
      }
    }
    free (rgba);
  }
  printf ("<!-- /bench:pipelines -->\n");
  if (json)
    fclose (json);
  gst_object_unref (context);
  return 0;
}

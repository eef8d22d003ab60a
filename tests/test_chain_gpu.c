/* cudaimgproc: a chain of our elements between foreign neighbours, on GPU
 * frames, as `nvh264dec ! cudagray ! cudaotsu ! cudasobel ! nvh264enc`
 * runs: no element reads a buffer before its producer's work is done, a
 * foreign producer gets its buffer back only once our reads of it are
 * done, a foreign consumer gets only finished frames, in order, EOS after
 * the last; flushes and the latency query with frames in flight.  The
 * streaming thread never waits for the GPU in such a chain (threads of the
 * first and last elements do), so these are the cases where a missing
 * wait shows.  Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "chainref.h"
#include "gray.h"
#include "gstcudaimgsync.h"

#define CHAIN "cudagray ! cudaotsu ! cudasobel"
/* More GPU time than host time a frame (cudathin's passes): the GPU runs
 * frames behind the streaming thread, so a buffer released or pushed
 * before its work is done is one whose work has not even started.  (12
 * passes: the CPU reference of a whole thinning would take seconds.) */
#define SLOW_PASSES 12
#define SLOW_CHAIN "cudagray ! cudaotsu ! cudathin max-iterations=12"
#define N_MEM 4                 /* the producer's pool */
#define SCRIBBLE_STEP 8         /* the producer writes every 8th row */

/* SLOW_CHAIN with its defaults (Hilditch, background border, to the
 * end), on the CPU. */
static guint8 *
ref_slow_chain (const guint8 * rgba, gint w, gint h)
{
  guint8 *b = ref_binary (rgba, w, h);
  gsize i;

  ref_thin (b, w, h, 0, SLOW_PASSES, NULL, 0);
  for (i = 0; i < (gsize) w * h; i++)
    b[i] = b[i] ? 255 : 0;
  return b;
}

/* Checks in the pipeline's threads: a failure there is kept and reported
 * by the test's thread (check's fail () only works in that one). */
static gchar *thread_failure;
static GMutex failure_lock;

#define THREAD_CUDA_OK(call) do { cudaError_t _e = (call);              \
    if (_e != cudaSuccess) {                                            \
      g_mutex_lock (&failure_lock);                                     \
      if (!thread_failure)                                              \
        thread_failure = g_strdup_printf ("%s: %s", #call,              \
            cudaGetErrorString (_e));                                   \
      g_mutex_unlock (&failure_lock);                                   \
    } } while (0)

static void
check_threads (void)
{
  fail_unless (thread_failure == NULL, "in a pipeline thread: %s",
      thread_failure);
}

/* ---- a foreign producer with a pool of N_MEM device frames ------------- */

typedef struct _Producer Producer;

typedef struct
{
  Producer *pr;
  GstMemory *mem;
  guint8 *dev;                  /* its device pointer */
  gint stride;
  guint content;                /* which of pr->frames it holds */
  gboolean in_use;              /* wrapped in a buffer not yet released */
} Slot;

struct _Producer
{
  gint w, h;
  guint8 *frames[N_MEM];        /* host RGBA, tight */
  guint8 *garbage;              /* page-locked, a row each SCRIBBLE_STEP */
  Slot slots[N_MEM];
  GstVideoInfo vinfo;           /* the memories' layout */
  cudaStream_t scribble;        /* the producer's own stream */
  gboolean scribbles;
  GMutex lock;
  GCond cond;
  guint released;
};

/* Every SCRIBBLE_STEP-th row of slot @s's memory from @src (rows @spitch
 * apart), on the producer's stream, waited for. */
static void
write_rows (Slot * s, const guint8 * src, gsize spitch)
{
  Producer *pr = s->pr;
  gsize row = (gsize) pr->w * 4;
  gint rows = (pr->h + SCRIBBLE_STEP - 1) / SCRIBBLE_STEP;

  gst_cuda_context_push (gpu_test_context ());
  THREAD_CUDA_OK (cudaMemcpy2DAsync (s->dev, (gsize) s->stride *
          SCRIBBLE_STEP, src, spitch, row, rows, cudaMemcpyHostToDevice,
          pr->scribble));
  THREAD_CUDA_OK (cudaStreamSynchronize (pr->scribble));
  gst_cuda_context_pop (NULL);
}

/* A buffer of the producer's is gone: the producer writes into its memory
 * at once, as a decoder reusing a surface does (here: garbage, through
 * the copy engine, which no kernel of ours holds up).  Had one of ours
 * released the buffer before its kernels read it, they read garbage. */
static void
slot_released (gpointer data, GstMiniObject * obj)
{
  Slot *s = data;
  Producer *pr = s->pr;

  if (pr->scribbles)
    write_rows (s, pr->garbage, (gsize) pr->w * 4);
  g_mutex_lock (&pr->lock);
  s->in_use = FALSE;
  pr->released++;
  g_cond_broadcast (&pr->cond);
  g_mutex_unlock (&pr->lock);
}

static void
producer_init (Producer * pr, gint w, gint h, gboolean scribbles)
{
  GstVideoInfo info;
  guint i;

  memset (pr, 0, sizeof (*pr));
  pr->w = w;
  pr->h = h;
  pr->scribbles = scribbles;
  g_mutex_init (&pr->lock);
  g_cond_init (&pr->cond);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaStreamCreateWithFlags (&pr->scribble, cudaStreamNonBlocking));
  CUDA_OK (cudaMallocHost ((void **) &pr->garbage, (gsize) w * 4 *
          ((h + SCRIBBLE_STEP - 1) / SCRIBBLE_STEP)));
  fill_random (pr->garbage, (gsize) w * 4 * ((h + SCRIBBLE_STEP - 1) /
          SCRIBBLE_STEP), 99);
  for (i = 0; i < N_MEM; i++) {
    Slot *s = &pr->slots[i];
    GstMapInfo map;

    pr->frames[i] = make_rgba (w, h, 17 + i);
    s->pr = pr;
    s->content = i;
    s->mem = gst_cuda_img_memory_alloc (gpu_test_context (), &info, &pr->vinfo);
    fail_unless (s->mem != NULL);
    fail_unless (gst_memory_map (s->mem, &map, GST_MAP_READ | GST_MAP_CUDA));
    s->dev = map.data;
    gst_memory_unmap (s->mem, &map);
    s->stride = GST_VIDEO_INFO_PLANE_STRIDE (&pr->vinfo, 0);
    CUDA_OK (cudaMemcpy2D (s->dev, s->stride, pr->frames[i], (gsize) w * 4,
            (gsize) w * 4, h, cudaMemcpyHostToDevice));
  }
  gst_cuda_context_pop (NULL);
}

/* Frame @n in a buffer of the pool, once the memory is free again. */
static GstBuffer *
producer_next (Producer * pr, guint n)
{
  Slot *s = &pr->slots[n % N_MEM];
  GstBuffer *buf = gst_buffer_new ();

  g_mutex_lock (&pr->lock);
  while (s->in_use)
    fail_unless (g_cond_wait_until (&pr->cond, &pr->lock,
            g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND),
        "frame %u: the pipeline never gave the producer's buffer back", n);
  s->in_use = TRUE;
  g_mutex_unlock (&pr->lock);
  /* the frame again where the garbage went */
  if (pr->scribbles)
    write_rows (s, pr->frames[s->content], (gsize) pr->w * 4 * SCRIBBLE_STEP);
  gst_buffer_append_memory (buf, gst_memory_ref (s->mem));
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_RGBA, pr->w,
      pr->h, 1, pr->vinfo.offset, pr->vinfo.stride);
  GST_BUFFER_PTS (buf) = n * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = GST_MSECOND;
  gst_mini_object_weak_ref (GST_MINI_OBJECT (buf), slot_released, s);
  return buf;
}

static void
producer_clear (Producer * pr)
{
  guint i;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaStreamDestroy (pr->scribble));
  CUDA_OK (cudaFreeHost (pr->garbage));
  gst_cuda_context_pop (NULL);
  for (i = 0; i < N_MEM; i++) {
    gst_memory_unref (pr->slots[i].mem);
    g_free (pr->frames[i]);
  }
  g_mutex_clear (&pr->lock);
  g_cond_clear (&pr->cond);
}

/* ---- a foreign consumer ------------------------------------------------- */

typedef struct
{
  gint w, h;
  cudaStream_t s;               /* the consumer's own stream */
  guint8 *dev;                  /* its own device copy, w x h */
  GPtrArray *frames;            /* host copies, as they came */
  GArray *pts;
} Consumer;

/* Reads each frame the moment it arrives, on the device, on a stream of
 * its own, as an encoder does: a frame pushed before its kernels finished
 * reads what the buffer held before. */
static GstFlowReturn
on_sample (GstElement * sink, gpointer data)
{
  Consumer *c = data;
  GstSample *sample = NULL;
  GstBuffer *buf;
  GstVideoInfo info;
  GstVideoFrame f;
  guint8 *host = g_malloc ((gsize) c->w * c->h);
  GstClockTime pts;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (!sample)
    return GST_FLOW_ERROR;
  buf = gst_sample_get_buffer (sample);
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      !gst_is_cuda_memory (gst_buffer_peek_memory (buf, 0)) ||
      !gst_video_frame_map (&f, &info, buf, GST_MAP_READ | GST_MAP_CUDA)) {
    THREAD_CUDA_OK (cudaErrorInvalidValue);     /* not a CUDA frame */
    gst_sample_unref (sample);
    g_free (host);
    return GST_FLOW_ERROR;
  }
  gst_cuda_context_push (gpu_test_context ());
  THREAD_CUDA_OK (cudaMemcpy2DAsync (c->dev, c->w,
          GST_VIDEO_FRAME_PLANE_DATA (&f, 0), GST_VIDEO_FRAME_PLANE_STRIDE (&f,
              0), c->w, c->h, cudaMemcpyDeviceToDevice, c->s));
  THREAD_CUDA_OK (cudaMemcpyAsync (host, c->dev, (gsize) c->w * c->h,
          cudaMemcpyDeviceToHost, c->s));
  THREAD_CUDA_OK (cudaStreamSynchronize (c->s));
  gst_cuda_context_pop (NULL);
  gst_video_frame_unmap (&f);
  pts = GST_BUFFER_PTS (buf);
  g_ptr_array_add (c->frames, host);
  g_array_append_val (c->pts, pts);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
consumer_init (Consumer * c, gint w, gint h)
{
  memset (c, 0, sizeof (*c));
  c->w = w;
  c->h = h;
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaStreamCreateWithFlags (&c->s, cudaStreamNonBlocking));
  CUDA_OK (cudaMalloc ((void **) &c->dev, (gsize) w * h));
  gst_cuda_context_pop (NULL);
  c->frames = g_ptr_array_new_with_free_func (g_free);
  c->pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
}

static void
consumer_clear (Consumer * c)
{
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaStreamDestroy (c->s));
  CUDA_OK (cudaFree (c->dev));
  gst_cuda_context_pop (NULL);
  g_ptr_array_unref (c->frames);
  g_array_unref (c->pts);
}

/* The appsrc's caps: RGBA frames in CUDA memory, one a millisecond. */
static void
set_source_caps (GstElement * src, gint w, gint h)
{
  GstVideoInfo info;
  GstCaps *caps;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  info.fps_n = 1000;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  gst_caps_set_features_simple (caps,
      gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
}

/* `appsrc ! @chain ! CUDA memory ! appsink`, @n frames of the producer's
 * (which scribbles over each buffer it gets back when @scribbles), each
 * output read by the consumer as it comes; every output against the CPU
 * reference, in order, every input given back. */
static void
run_chain (const gchar * chain, RefFunc ref_func, gint w, gint h, guint n,
    gboolean scribbles)
{
  gchar *launch = g_strdup_printf ("appsrc name=in format=time "
      "max-buffers=2 block=true ! %s ! video/x-raw(memory:CUDAMemory),"
      "format=GRAY8 ! appsink name=out sync=false emit-signals=true", chain);
  GstElement *pipe = gst_parse_launch (launch, NULL), *src, *sink;
  Producer pr;
  Consumer c;
  guint8 *ref[N_MEM];
  GstMessage *m;
  gchar *problem = NULL;
  guint i;

  g_printerr ("%s, %dx%d, %u frames%s\n", launch, w, h, n,
      scribbles ? ", the producer writes each buffer it gets back" : "");
  fail_unless (pipe != NULL);
  producer_init (&pr, w, h, scribbles);
  for (i = 0; i < N_MEM; i++)
    ref[i] = ref_func (pr.frames[i], w, h);
  consumer_init (&c, w, h);

  gpu_test_share_context (pipe);
  src = gst_bin_get_by_name (GST_BIN (pipe), "in");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  set_source_caps (src, w, h);
  g_signal_connect (sink, "new-sample", G_CALLBACK (on_sample), &c);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);

  for (i = 0; i < n; i++) {
    GstFlowReturn ret;
    GstBuffer *b = producer_next (&pr, i);

    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
  {
    GstFlowReturn ret;
    g_signal_emit_by_name (src, "end-of-stream", &ret);
  }
  m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!m || GST_MESSAGE_TYPE (m) != GST_MESSAGE_EOS)
    problem = g_strdup_printf ("%s at the end", m ? "an error" : "no EOS");
  if (m)
    gst_message_unref (m);

  /* EOS came after every frame, in order, each one finished when it came
   * (the pipeline is stopped before failing: a failure leaves nothing
   * running) */
  if (!problem && c.frames->len != n)
    problem = g_strdup_printf ("%u frames out of %u", c.frames->len, n);
  for (i = 0; !problem && i < n; i++) {
    glong d = first_diff (g_ptr_array_index (c.frames, i), w, ref[i % N_MEM],
        w, w, h);

    if (g_array_index (c.pts, GstClockTime, i) != i * GST_MSECOND)
      problem = g_strdup_printf ("frame %u out of order", i);
    else if (d >= 0)
      problem = g_strdup_printf ("frame %u, pixel (%ld, %ld) differs: %u, "
          "expected %u", i, d % w, d / w,
          ((guint8 *) g_ptr_array_index (c.frames, i))[d], ref[i % N_MEM][d]);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  /* every buffer came back to the producer */
  if (!problem && pr.released != n)
    problem = g_strdup_printf ("%u of %u buffers given back", pr.released, n);

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  consumer_clear (&c);
  for (i = 0; i < N_MEM; i++)
    g_free (ref[i]);
  producer_clear (&pr);
  check_threads ();
  fail_unless (problem == NULL, "%s: %s", launch, problem);
  g_free (launch);
}

/* Each chain and size, the consumer reading every frame as it comes;
 * with @scribbles the producer also writes each buffer it gets back. */
static void
run_cases (gboolean scribbles)
{
  run_chain (SLOW_CHAIN, ref_slow_chain, 1920, 1080, 24, scribbles);
  /* two streams: cudaotsu reads, on its stream (cudathin's too), what
   * cudagray wrote on another, from the queue's thread */
  run_chain ("cudagray ! queue max-size-buffers=2 ! cudaotsu ! cudathin "
      "max-iterations=12", ref_slow_chain, 1920, 1080, 24, scribbles);
  run_chain (CHAIN, ref_chain, 3840, 2160, 48, scribbles);
  run_chain ("cudagray", ref_gray, 1920, 1080, 48, scribbles);
  /* odd width, rows not a multiple of anything */
  run_chain (CHAIN, ref_chain, 641, 479, 32, scribbles);
}

/* The producer writes each buffer as soon as it gets it back. */
GST_START_TEST (test_foreign_producer)
{
  run_cases (TRUE);
}

GST_END_TEST;

/* The consumer alone (the producer leaves its buffers be). */
GST_START_TEST (test_foreign_consumer)
{
  run_cases (FALSE);
}

GST_END_TEST;

/* ---- the harness: frames in flight ------------------------------------- */

static GstBuffer *
rgba_cuda (const guint8 * f, gint w, gint h, gint n)
{
  GstBuffer *b = packed_frame_buffer (f, GST_VIDEO_FORMAT_RGBA, w, h, TRUE);

  GST_BUFFER_PTS (b) = n * GST_MSECOND;
  return b;
}

static void
check_out (GstBuffer * out, const guint8 * ref, gint w, gint h)
{
  GstVideoInfo info;
  GstVideoFrame f;
  glong d;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
  fail_unless (gst_is_cuda_memory (gst_buffer_peek_memory (out, 0)));
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&f, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), ref, w, w, h);
  fail_unless (d < 0, "pixel %ld differs", d);
  gst_video_frame_unmap (&f);
}

/* Frames pushed faster than the GPU takes them: all come out, in order,
 * exact, EOS after the last; a flush with frames in flight drops them and
 * blocks nothing, and frames flow again after it; the drain query gives
 * every input back. */
GST_START_TEST (test_in_flight)
{
  const gint w = 1280, hh = 720, n = 24;
  GstHarness *h = filter_harness (CHAIN,
      "video/x-raw(memory:CUDAMemory),format=RGBA,width=1280,height=720,"
      "framerate=30/1", "video/x-raw(memory:CUDAMemory),format=GRAY8");
  guint8 *frames[3], *ref[3];
  GstBuffer *in, *out;
  GstEvent *ev;
  GstQuery *q;
  gint i;

  for (i = 0; i < 3; i++) {
    frames[i] = make_rgba (w, hh, 90 + i);
    ref[i] = ref_chain (frames[i], w, hh);
  }
  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h, rgba_cuda (frames[i % 3], w,
                hh, i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while (TRUE) {
    ev = gst_harness_pull_event (h);
    fail_unless (ev != NULL, "no EOS");
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      break;
    gst_event_unref (ev);
  }
  gst_event_unref (ev);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), n);
  for (i = 0; i < n; i++) {
    out = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_MSECOND);
    check_out (out, ref[i % 3], w, hh);
    gst_buffer_unref (out);
  }

  /* a flush with frames in flight (the first flush ends the EOS) */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_set_src_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format=RGBA,width=1280,height=720,framerate=30/1");
  for (i = 0; i < 10; i++)
    gst_harness_push (h, rgba_cuda (frames[i % 3], w, hh, i));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);
  gst_harness_set_src_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format=RGBA,width=1280,height=720,framerate=30/1");
  for (i = 0; i < 3; i++) {
    in = rgba_cuda (frames[i], w, hh, i);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    check_out (out, ref[i], w, hh);
    gst_buffer_unref (out);
    q = gst_query_new_drain ();
    gst_pad_peer_query (h->srcpad, q);
    gst_query_unref (q);
    /* the first element held it until its kernel read it; not after a
     * drain query */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (in), 1);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
  for (i = 0; i < 3; i++) {
    g_free (frames[i]);
    g_free (ref[i]);
  }
}

GST_END_TEST;

/* The last of ours before a foreign element that takes CUDA memory has
 * frames waiting to be pushed: the maximum latency says so, the minimum
 * is unchanged. */
GST_START_TEST (test_latency_query)
{
  guint8 *f = make_rgba (64, 48, 5);

  check_latency_query ("cudagray ! cudaotsu name=g ! "
      "video/x-raw(memory:CUDAMemory),format=GRAY8",
      gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=RGBA,"
          "width=64,height=48,framerate=30/1"), rgba_cuda (f, 64, 48, 0));
  g_free (f);
}

GST_END_TEST;

/* ---- a link changed while playing -------------------------------------- */

typedef struct
{
  GstElement *from_elem, *old_peer, *new_peer;
} Relink;

/* cudaotsu's output goes from the cudasobel it shares a stream with to a
 * queue before another cudasobel (on a stream of its own); the old branch
 * gets its EOS. */
static GstPadProbeReturn
relink_blocked (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Relink *r = data;
  GstPad *old_sink = gst_element_get_static_pad (r->old_peer, "sink");
  GstPad *new_sink = gst_element_get_static_pad (r->new_peer, "sink");

  gboolean ok = gst_pad_unlink (pad, old_sink) &&
      gst_pad_link (pad, new_sink) == GST_PAD_LINK_OK;

  if (!ok) {
    g_mutex_lock (&failure_lock);
    if (!thread_failure)
      thread_failure = g_strdup ("the relink failed");
    g_mutex_unlock (&failure_lock);
  }
  gst_pad_send_event (old_sink, gst_event_new_eos ());
  gst_object_unref (old_sink);
  gst_object_unref (new_sink);
  return GST_PAD_PROBE_REMOVE;
}

/* Frames in flight while cudaotsu's source pad is relinked from one of
 * ours on its stream to a queue: the element learns of its new peer (it
 * caches the old one) and hands the new branch finished frames; every
 * frame comes out once, exact, in order, about half through each branch.
 * (The sinks are not async: the second gets nothing before the relink,
 * so the pipeline would never preroll.) */
GST_START_TEST (test_relink_playing)
{
  const gint w = 1280, h = 720;
  const guint n = 48;
  GstElement *pipe = gst_parse_launch ("appsrc name=in format=time "
      "max-buffers=2 block=true ! cudagray ! cudaotsu name=o ! cudasobel "
      "name=a ! video/x-raw(memory:CUDAMemory),format=GRAY8 ! appsink "
      "name=out1 sync=false async=false emit-signals=true  queue name=q ! "
      "cudasobel ! video/x-raw(memory:CUDAMemory),format=GRAY8 ! appsink "
      "name=out2 sync=false async=false emit-signals=true", NULL);
  GstElement *src, *o, *out1, *out2;
  Consumer c1, c2;
  Producer pr;
  Relink r;
  GstPad *o_src;
  GstMessage *m;
  guint8 *ref[N_MEM];
  GstFlowReturn ret;
  guint i;

  fail_unless (pipe != NULL);
  producer_init (&pr, w, h, TRUE);
  for (i = 0; i < N_MEM; i++)
    ref[i] = ref_chain (pr.frames[i], w, h);
  consumer_init (&c1, w, h);
  consumer_init (&c2, w, h);
  gpu_test_share_context (pipe);
  src = gst_bin_get_by_name (GST_BIN (pipe), "in");
  o = gst_bin_get_by_name (GST_BIN (pipe), "o");
  r.old_peer = gst_bin_get_by_name (GST_BIN (pipe), "a");
  r.new_peer = gst_bin_get_by_name (GST_BIN (pipe), "q");
  out1 = gst_bin_get_by_name (GST_BIN (pipe), "out1");
  out2 = gst_bin_get_by_name (GST_BIN (pipe), "out2");
  set_source_caps (src, w, h);
  g_signal_connect (out1, "new-sample", G_CALLBACK (on_sample), &c1);
  g_signal_connect (out2, "new-sample", G_CALLBACK (on_sample), &c2);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);

  o_src = gst_element_get_static_pad (o, "src");
  for (i = 0; i < n; i++) {
    GstBuffer *b;

    if (i == n / 2)
      gst_pad_add_probe (o_src, GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM,
          relink_blocked, &r, NULL);
    b = producer_next (&pr, i);
    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no EOS");
  fail_unless_equals_int (GST_MESSAGE_TYPE (m), GST_MESSAGE_EOS);
  gst_message_unref (m);
  gst_element_set_state (pipe, GST_STATE_NULL);
  check_threads ();

  g_printerr ("relinked while playing: %u frames before, %u after\n",
      c1.frames->len, c2.frames->len);
  fail_unless (c1.frames->len > 0 && c2.frames->len > 0);
  fail_unless_equals_int (c1.frames->len + c2.frames->len, n);
  for (i = 0; i < n; i++) {
    Consumer *c = i < c1.frames->len ? &c1 : &c2;
    guint j = i < c1.frames->len ? i : i - c1.frames->len;
    glong d = first_diff (g_ptr_array_index (c->frames, j), w,
        ref[i % N_MEM], w, w, h);

    fail_unless_equals_uint64 (g_array_index (c->pts, GstClockTime, j),
        i * GST_MSECOND);
    fail_unless (d < 0, "frame %u, pixel (%ld, %ld) differs", i, d % w, d / w);
  }
  fail_unless_equals_int (pr.released, n);

  gst_object_unref (o_src);
  gst_object_unref (src);
  gst_object_unref (o);
  gst_object_unref (r.old_peer);
  gst_object_unref (r.new_peer);
  gst_object_unref (out1);
  gst_object_unref (out2);
  gst_object_unref (pipe);
  consumer_clear (&c1);
  consumer_clear (&c2);
  for (i = 0; i < N_MEM; i++)
    g_free (ref[i]);
  producer_clear (&pr);
}

GST_END_TEST;

/* ---- the fences themselves ------------------------------------------- */

#define FENCE_BYTES 4096
#define BUSY_BYTES (256u << 20)

/* Keeps @stream busy for a few milliseconds (40 memsets of 256 MiB), so
 * that work enqueued after it on another stream without a wait runs
 * first. */
static void
busy (cudaStream_t stream, guint8 * scratch)
{
  gint i;

  for (i = 0; i < 40; i++)
    CUDA_OK (cudaMemsetAsync (scratch, i, BUSY_BYTES, stream));
}

static void
check_bytes (const guint8 * host, guint8 value, const gchar * what)
{
  gint i;

  for (i = 0; i < FENCE_BYTES; i++)
    fail_unless (host[i] == value, "%s: byte %d is %u, not %u", what, i,
        host[i], value);
}

/* A frame whose event was not recorded (its element expected no other
 * stream to wait: a chain of ours on one stream), then read or rewritten
 * from another stream anyway (a link changed): the waiter records the
 * event itself and waits for the frame all the same, in both directions;
 * a recorded frame and a reader on the writer's own stream as well. */
GST_START_TEST (test_fence_unrecorded)
{
  GstCudaContext *ctx = gpu_test_context ();
  GstCudaImgStream *s1, *s2;
  GstVideoInfo info, vinfo;
  GstMemory *mem;
  GstMapInfo map;
  GstCudaImgWriter writer;
  guint8 *scratch, *copy, *host;
  cudaError_t err;
  gint round;

  fail_unless (gst_cuda_context_push (ctx));
  s1 = gst_cuda_img_stream_new (ctx, &err);
  fail_unless (s1 != NULL, "stream: %s", cudaGetErrorString (err));
  s2 = gst_cuda_img_stream_new (ctx, &err);
  fail_unless (s2 != NULL, "stream: %s", cudaGetErrorString (err));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, FENCE_BYTES, 1);
  mem = gst_cuda_img_memory_alloc (ctx, &info, &vinfo);
  fail_unless (mem != NULL);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READWRITE | GST_MAP_CUDA));
  CUDA_OK (cudaMalloc ((void **) &scratch, BUSY_BYTES));
  CUDA_OK (cudaMalloc ((void **) &copy, FENCE_BYTES));
  CUDA_OK (cudaMallocHost ((void **) &host, FENCE_BYTES));

  for (round = 0; round < 4; round++) {
    gboolean record = round == 3;
    cudaStream_t h1 = gst_cuda_img_stream_handle (s1);
    cudaStream_t h2 = gst_cuda_img_stream_handle (s2);
    guint8 value = 10 + round;

    /* read after write: s1 writes late, s2 reads */
    gst_cuda_img_fence_wait_readers (s1, mem);
    busy (h1, scratch);
    CUDA_OK (cudaMemsetAsync (map.data, value, FENCE_BYTES, h1));
    CUDA_OK (gst_cuda_img_stream_end_frame (s1, record));
    gst_cuda_img_fence_set_writer (s1, mem);
    CUDA_OK (gst_cuda_img_fence_wait_writer (s2, mem, &writer));
    fail_unless_equals_int (writer, GST_CUDA_IMG_WRITER_OTHER_STREAM);
    CUDA_OK (cudaMemcpyAsync (host, map.data, FENCE_BYTES,
            cudaMemcpyDeviceToHost, h2));
    CUDA_OK (cudaStreamSynchronize (h2));
    check_bytes (host, value, "read after an unrecorded write");

    /* write after read: s2 reads late, s1 writes again */
    busy (h2, scratch);
    CUDA_OK (cudaMemcpyAsync (copy, map.data, FENCE_BYTES,
            cudaMemcpyDeviceToDevice, h2));
    CUDA_OK (gst_cuda_img_stream_end_frame (s2, record));
    fail_unless (gst_cuda_img_fence_add_reader (s2, mem));
    CUDA_OK (gst_cuda_img_fence_wait_readers (s1, mem));
    CUDA_OK (cudaMemsetAsync (map.data, 0xee, FENCE_BYTES, h1));
    CUDA_OK (cudaStreamSynchronize (h1));
    CUDA_OK (cudaMemcpy (host, copy, FENCE_BYTES, cudaMemcpyDeviceToHost));
    check_bytes (host, value, "write after an unrecorded read");

    /* the writer's own stream reads without a wait */
    CUDA_OK (gst_cuda_img_fence_wait_writer (s1, mem, &writer));
    fail_unless_equals_int (writer, GST_CUDA_IMG_WRITER_THIS_STREAM);
  }

  gst_memory_unmap (mem, &map);
  gst_memory_unref (mem);
  gst_cuda_img_stream_unref (s1);
  gst_cuda_img_stream_unref (s2);
  CUDA_OK (cudaFree (scratch));
  CUDA_OK (cudaFree (copy));
  CUDA_OK (cudaFreeHost (host));
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

static Suite *
chain_gpu_suite (void)
{
  Suite *s = suite_create ("cudaimgproc-chain-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_foreign_producer);
  tcase_add_test (tc, test_foreign_consumer);
  tcase_add_test (tc, test_in_flight);
  tcase_add_test (tc, test_latency_query);
  tcase_add_test (tc, test_relink_playing);
  tcase_add_test (tc, test_fence_unrecorded);
  return s;
}

GPU_CHECK_MAIN (chain_gpu);

/* cudaimgproc: a frame's launches captured once and replayed as a CUDA
 * graph (common/gstcudaimgreplay.c).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The launch here is a memset whose value the test changes behind the
 * cache's back: a replayed graph writes the value it was captured with,
 * a direct launch or a new capture the current one.  So each step shows
 * which of the three happened, and the counters say how often the launch
 * function ran.  That elements take a property change at the next frame
 * with graphs in play is test_live_gpu's business.
 */
#include "gputest.h"
#include "gstcudaimgreplay.h"

#define BYTES 4096
#define KEYS (GST_CUDA_IMG_REPLAY_ENTRIES + 1)

typedef struct
{
  guint8 *buf;
  gint value;
  guint calls;                  /* every call of the launch */
  guint direct;                 /* ... not under capture */
  gboolean sync_inside;         /* a call capture does not allow */
} Launch;

static cudaError_t
launch_memset (gpointer data, cudaStream_t stream)
{
  Launch *l = data;
  enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t err;

  l->calls++;
  if (cudaStreamIsCapturing (stream, &st) == cudaSuccess &&
      st == cudaStreamCaptureStatusNone)
    l->direct++;
  err = cudaMemsetAsync (l->buf, l->value, BYTES, stream);
  if (err == cudaSuccess && l->sync_inside)
    err = cudaStreamSynchronize (stream);
  return err;
}

static gint sync_stop, sync_failed;

typedef struct
{
  cudaStream_t stream;
  guint8 *dev[KEYS];
  GstCudaImgReplay replay;
  gint gen;
  GstObject *owner;
} Fixture;

static void
fixture_init (Fixture * f)
{
  guint i;

  memset (f, 0, sizeof (*f));
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreateWithFlags (&f->stream, cudaStreamNonBlocking));
  for (i = 0; i < KEYS; i++)
    CUDA_OK (cudaMalloc ((void **) &f->dev[i], BYTES));
  f->owner = GST_OBJECT (gst_object_ref_sink (gst_bin_new ("owner")));
}

static void
fixture_clear (Fixture * f)
{
  guint i;

  CUDA_OK (cudaStreamSynchronize (f->stream));
  gst_cuda_img_replay_free (&f->replay);
  for (i = 0; i < KEYS; i++)
    CUDA_OK (cudaFree (f->dev[i]));
  CUDA_OK (cudaStreamDestroy (f->stream));
  gst_object_unref (f->owner);
}

/* Runs the launch for buffer @i under the current generation, clears the
 * buffer first, and checks it holds @expect after. */
static void
run_key (Fixture * f, Launch * l, guint i, gint expect)
{
  GstCudaImgReplayKey key;
  guint8 host[BYTES];
  guint j;

  memset (&key, 0, sizeof (key));
  key.out[0] = f->dev[i];
  key.out_stride[0] = BYTES;
  key.gen = g_atomic_int_get (&f->gen);
  l->buf = f->dev[i];
  CUDA_OK (cudaMemsetAsync (f->dev[i], 0xee, BYTES, f->stream));
  CUDA_OK (gst_cuda_img_replay_run (&f->replay, f->owner, &key, &f->gen,
          launch_memset, l, f->stream));
  CUDA_OK (cudaMemcpyAsync (host, f->dev[i], BYTES, cudaMemcpyDeviceToHost,
          f->stream));
  CUDA_OK (cudaStreamSynchronize (f->stream));
  for (j = 0; j < BYTES; j++)
    fail_unless_equals_int (host[j], expect);
}

GST_START_TEST (test_replay_same_key)
{
  Fixture f;
  Launch l = { 0 };

  fixture_init (&f);
  l.value = 1;
  run_key (&f, &l, 0, 1);       /* captured, and the graph launched */
  fail_unless_equals_int (l.calls, 1);
  fail_unless_equals_int (l.direct, 0);
  /* the launch is not called again: the graph writes what it captured */
  l.value = 2;
  run_key (&f, &l, 0, 1);
  run_key (&f, &l, 0, 1);
  fail_unless_equals_int (l.calls, 1);
  fail_unless_equals_int (f.replay.hits, 2);
  /* a property set bumps the generation: captured again, new value */
  g_atomic_int_inc (&f.gen);
  run_key (&f, &l, 0, 2);
  fail_unless_equals_int (l.calls, 2);
  run_key (&f, &l, 0, 2);
  fail_unless_equals_int (l.calls, 2);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_replay_buffers)
{
  Fixture f;
  Launch l = { 0 };
  guint i, round;

  fixture_init (&f);
  l.value = 7;
  /* as many buffers as entries: each captured once, then replayed */
  for (round = 0; round < 3; round++)
    for (i = 0; i < GST_CUDA_IMG_REPLAY_ENTRIES; i++)
      run_key (&f, &l, i, 7);
  fail_unless_equals_int (l.calls, GST_CUDA_IMG_REPLAY_ENTRIES);
  fail_unless_equals_int (f.replay.n, GST_CUDA_IMG_REPLAY_ENTRIES);
  /* one more: the least recently used (buffer 0) makes room */
  run_key (&f, &l, KEYS - 1, 7);
  fail_unless_equals_int (l.calls, GST_CUDA_IMG_REPLAY_ENTRIES + 1);
  run_key (&f, &l, 1, 7);
  fail_unless_equals_int (l.calls, GST_CUDA_IMG_REPLAY_ENTRIES + 1);
  l.value = 8;
  run_key (&f, &l, 0, 8);       /* evicted: captured again */
  fail_unless_equals_int (l.calls, GST_CUDA_IMG_REPLAY_ENTRIES + 2);
  /* a new caps clears everything */
  gst_cuda_img_replay_clear (&f.replay);
  fail_unless_equals_int (f.replay.n, 0);
  run_key (&f, &l, 1, 8);
  fail_unless_equals_int (l.calls, GST_CUDA_IMG_REPLAY_ENTRIES + 3);
  fixture_clear (&f);
}

GST_END_TEST;

/* Settings changed every frame (a controller): after some misses the
 * element launches directly, and each frame has its own value. */
GST_START_TEST (test_replay_backoff)
{
  Fixture f;
  Launch l = { 0 };
  guint i;

  fixture_init (&f);
  for (i = 0; i < 100; i++) {
    g_atomic_int_inc (&f.gen);
    l.value = i;
    run_key (&f, &l, i % 4, i);
  }
  fail_unless_equals_int (l.calls, 100);
  fail_unless (l.direct >= 80, "%u of 100 frames launched directly",
      l.direct);
  fail_unless (f.replay.backoff > 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* A launcher that does what capture forbids: launched directly, from then
 * on, and correct. */
GST_START_TEST (test_replay_uncapturable)
{
  Fixture f;
  Launch l = { 0 };
  guint i;

  fixture_init (&f);
  l.sync_inside = TRUE;
  for (i = 0; i < 5; i++) {
    l.value = 3 + i;
    run_key (&f, &l, 0, 3 + i);
  }
  fail_unless (f.replay.broken);
  fail_unless_equals_int (l.direct, 5);
  fail_unless_equals_int (l.calls, 6);
  fail_unless_equals_int (cudaGetLastError (), cudaSuccess);
  fixture_clear (&f);
}

GST_END_TEST;

static gpointer
sync_loop (gpointer data)
{
  Fixture *f = data;
  guint n = 0;

  /* checked in the test's thread */
  while (!g_atomic_int_get (&sync_stop)) {
    if (cudaStreamSynchronize (f->stream) != cudaSuccess)
      g_atomic_int_inc (&sync_failed);
    n++;
  }
  return GUINT_TO_POINTER (n);
}

/* The stream the graphs run on is shared: the next element of ours runs on
 * it, and stops from the application's thread by synchronizing it while
 * upstream still captures new buffer pairs.  A capture on that stream made
 * the other thread's synchronize invalid (the driver crashed in it, or the
 * capture was broken and the element gave graphs up).  Captures while
 * another thread synchronizes the stream without pause: none fails, and
 * every frame is right. */
GST_START_TEST (test_replay_shared_stream)
{
  Fixture f;
  Launch l = { 0 };
  GThread *t;
  gint64 end;
  guint i = 0, syncs;

  fixture_init (&f);
  g_atomic_int_set (&sync_stop, 0);
  g_atomic_int_set (&sync_failed, 0);
  t = g_thread_new ("sync", sync_loop, &f);
  end = g_get_monotonic_time () + G_USEC_PER_SEC;
  do {
    /* a new generation: a capture every frame, never backing off */
    g_atomic_int_inc (&f.gen);
    f.replay.debt = 0;
    l.value = i & 0x7f;
    run_key (&f, &l, i % KEYS, i & 0x7f);
    i++;
  } while (g_get_monotonic_time () < end);
  g_atomic_int_set (&sync_stop, 1);
  syncs = GPOINTER_TO_UINT (g_thread_join (t));
  GST_INFO ("%u captures, %u synchronizes meanwhile", i, syncs);
  fail_if (f.replay.broken, "a capture failed (%" G_GUINT64_FORMAT
      " captured)", f.replay.misses);
  fail_unless_equals_int (g_atomic_int_get (&sync_failed), 0);
  fail_unless_equals_int (l.direct, 0);
  fail_unless_equals_int (l.calls, i);
  fail_unless (i > 100 && syncs > 100, "%u captures, %u synchronizes", i,
      syncs);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
replay_suite (void)
{
  Suite *s = suite_create ("replay");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_replay_same_key);
  tcase_add_test (tc, test_replay_buffers);
  tcase_add_test (tc, test_replay_backoff);
  tcase_add_test (tc, test_replay_uncapturable);
  tcase_add_test (tc, test_replay_shared_stream);
  return s;
}

GPU_CHECK_MAIN (replay);

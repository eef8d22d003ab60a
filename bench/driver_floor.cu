/* cudaimgproc: the CUDA driver's own cost a frame, under any element's.
 * N streams in one process and one context (the primary), each frame of
 * each: a copy up from page-locked memory, a graph of three kernels (three
 * elements' launches, replayed as ours are), a copy down into page-locked
 * memory and an event the host waits on; two frames in flight a stream.
 * No GStreamer, no element: what is left when everything of ours is
 * taken away but the calls a frame needs.  Prints aggregate fps and the
 * process's CPU time a frame (getrusage, every thread, the driver's too),
 * as cudaimgproc-streams-bench does, for docs/performance.md.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-driver-bench [--size WxH] [--streams LIST] [--seconds S]
 *       [--whole] [--one]
 *
 * Default: a thread a stream, as a pipeline's streaming thread, waiting in
 * cudaEventSynchronize on a blocking-sync event (it sleeps).  --whole: the
 * copies inside the graph too (one launch and one record a frame: a chain
 * captured whole, copies included).  --one: one thread drives every
 * stream in turn, polling its events (no two threads in the driver at
 * once; it keeps a core busy).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime.h>

#define MAX_STREAMS 1024

__global__ void
gray_kernel (const uchar4 * in, unsigned char *out, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
      i += gridDim.x * blockDim.x) {
    uchar4 p = in[i];
    out[i] = (unsigned char) ((p.x * 77 + p.y * 150 + p.z * 29 + 128) >> 8);
  }
}

__global__ void
invert_kernel (const unsigned char *in, unsigned char *out, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
      i += gridDim.x * blockDim.x)
    out[i] = 255 - in[i];
}

typedef struct
{
  cudaStream_t s;
  uchar4 *h_in[2];
  unsigned char *h_out[2];
  uchar4 *d_in;
  unsigned char *d_a, *d_b;
  cudaGraphExec_t exec[2];      /* the kernels, or (--whole) a frame each slot */
  cudaEvent_t ev[2];
  long submitted, done;         /* frames */
  pthread_t thread;
} Stream;

static int W = 640, H = 480, whole, one_thread;
static double seconds = 2.0;
static volatile int stop;
static Stream streams[MAX_STREAMS];

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s: %s\n", #call, cudaGetErrorString (e_));    \
      exit (1); } } while (0)

static double
now_s (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double
cpu_s (void)
{
  struct rusage u;
  getrusage (RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec +
      (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static void
enqueue_kernels (Stream * st, int blocks)
{
  int n = W * H;

  gray_kernel <<< blocks, 256, 0, st->s >>> (st->d_in, st->d_a, n);
  invert_kernel <<< blocks, 256, 0, st->s >>> (st->d_a, st->d_b, n);
  invert_kernel <<< blocks, 256, 0, st->s >>> (st->d_b, st->d_a, n);
}

static void
stream_init (Stream * st, int blocks)
{
  size_t in = (size_t) W * H * 4, out = (size_t) W * H;
  cudaGraph_t g;
  int k;

  CHECK (cudaStreamCreateWithFlags (&st->s, cudaStreamNonBlocking));
  CHECK (cudaMalloc (&st->d_in, in));
  CHECK (cudaMalloc (&st->d_a, out));
  CHECK (cudaMalloc (&st->d_b, out));
  for (k = 0; k < 2; k++) {
    CHECK (cudaHostAlloc (&st->h_in[k], in, cudaHostAllocPortable));
    CHECK (cudaHostAlloc (&st->h_out[k], out, cudaHostAllocPortable));
    memset (st->h_in[k], 40 + k, in);
    CHECK (cudaEventCreateWithFlags (&st->ev[k], cudaEventDisableTiming |
            (one_thread ? 0 : cudaEventBlockingSync)));
  }
  for (k = 0; k < 2; k++) {
    CHECK (cudaStreamBeginCapture (st->s, cudaStreamCaptureModeThreadLocal));
    if (whole)
      CHECK (cudaMemcpyAsync (st->d_in, st->h_in[k], in,
              cudaMemcpyHostToDevice, st->s));
    enqueue_kernels (st, blocks);
    if (whole)
      CHECK (cudaMemcpyAsync (st->h_out[k], st->d_a, out,
              cudaMemcpyDeviceToHost, st->s));
    CHECK (cudaStreamEndCapture (st->s, &g));
    CHECK (cudaGraphInstantiate (&st->exec[k], g, 0));
    CHECK (cudaGraphDestroy (g));
    if (!whole)
      break;
  }
  if (!whole)
    st->exec[1] = st->exec[0];
}

static void
stream_clear (Stream * st)
{
  int k;

  CHECK (cudaStreamSynchronize (st->s));
  for (k = 0; k < 2; k++) {
    if (whole || k == 0)
      CHECK (cudaGraphExecDestroy (st->exec[k]));
    CHECK (cudaFreeHost (st->h_in[k]));
    CHECK (cudaFreeHost (st->h_out[k]));
    CHECK (cudaEventDestroy (st->ev[k]));
  }
  CHECK (cudaFree (st->d_in));
  CHECK (cudaFree (st->d_a));
  CHECK (cudaFree (st->d_b));
  CHECK (cudaStreamDestroy (st->s));
}

static void
submit (Stream * st)
{
  int k = st->submitted & 1;

  if (!whole)
    CHECK (cudaMemcpyAsync (st->d_in, st->h_in[k], (size_t) W * H * 4,
            cudaMemcpyHostToDevice, st->s));
  CHECK (cudaGraphLaunch (st->exec[k], st->s));
  if (!whole)
    CHECK (cudaMemcpyAsync (st->h_out[k], st->d_a, (size_t) W * H,
            cudaMemcpyDeviceToHost, st->s));
  CHECK (cudaEventRecord (st->ev[k], st->s));
  st->submitted++;
}

/* A thread a stream: two frames in flight, the older waited for (asleep)
 * before its slot is used again. */
static void *
run_stream (void *data)
{
  Stream *st = (Stream *) data;

  CHECK (cudaSetDevice (0));
  while (!stop) {
    if (st->submitted >= 2) {
      CHECK (cudaEventSynchronize (st->ev[st->submitted & 1]));
      __atomic_add_fetch (&st->done, 1, __ATOMIC_RELAXED);
    }
    submit (st);
  }
  return NULL;
}

/* One thread for every stream: each in turn gets its next frame once its
 * older one is done. */
static void *
run_all (void *data)
{
  int n = *(int *) data, i;

  CHECK (cudaSetDevice (0));
  while (!stop)
    for (i = 0; i < n; i++) {
      Stream *st = &streams[i];

      if (st->submitted >= 2) {
        cudaError_t e = cudaEventQuery (st->ev[st->submitted & 1]);

        if (e == cudaErrorNotReady)
          continue;
        CHECK (e);
        __atomic_add_fetch (&st->done, 1, __ATOMIC_RELAXED);
      }
      submit (st);
    }
  return NULL;
}

static long
frames_done (int n)
{
  long f = 0;
  int i;

  for (i = 0; i < n; i++)
    f += __atomic_load_n (&streams[i].done, __ATOMIC_RELAXED);
  return f;
}

static void
run (int n)
{
  pthread_t all;
  double t0, t1, c0, c1;
  long f0, f1;
  int i, sms, blocks;

  CHECK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  blocks = (W * H + 255) / 256;
  if (blocks > sms * 8)
    blocks = sms * 8;
  for (i = 0; i < n; i++)
    stream_init (&streams[i], blocks);
  stop = 0;
  if (one_thread)
    pthread_create (&all, NULL, run_all, &n);
  else
    for (i = 0; i < n; i++)
      pthread_create (&streams[i].thread, NULL, run_stream, &streams[i]);
  usleep (500000);
  t0 = now_s ();
  c0 = cpu_s ();
  f0 = frames_done (n);
  usleep ((useconds_t) (seconds * 1e6));
  f1 = frames_done (n);
  c1 = cpu_s ();
  t1 = now_s ();
  stop = 1;
  if (one_thread)
    pthread_join (all, NULL);
  else
    for (i = 0; i < n; i++)
      pthread_join (streams[i].thread, NULL);
  for (i = 0; i < n; i++)
    stream_clear (&streams[i]);
  memset (streams, 0, sizeof (Stream) * n);
  printf ("| %s | %dx%d | %d | %.0f | %.1f | %.2f |\n",
      one_thread ? "one thread, polling" : "a thread a stream, asleep",
      W, H, n, (f1 - f0) / (t1 - t0), (c1 - c0) * 1e6 / (double) (f1 - f0),
      (c1 - c0) / (t1 - t0));
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  int list[32] = { 1, 16, 64, 256 }, n_list = 4, i;

  for (i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--size") && i + 1 < argc) {
      if (sscanf (argv[++i], "%dx%d", &W, &H) != 2 || W < 1 || H < 1) {
        fprintf (stderr, "--size takes WxH\n");
        return 2;
      }
    } else if (!strcmp (argv[i], "--streams") && i + 1 < argc) {
      char *p = argv[++i];

      for (n_list = 0; n_list < 32 && *p;) {
        list[n_list] = (int) strtol (p, &p, 10);
        if (list[n_list] < 1 || list[n_list] > MAX_STREAMS) {
          fprintf (stderr, "--streams takes numbers 1 to %d\n", MAX_STREAMS);
          return 2;
        }
        n_list++;
        if (*p == ',')
          p++;
      }
    } else if (!strcmp (argv[i], "--seconds") && i + 1 < argc) {
      seconds = atof (argv[++i]);
      /* none: no frames to divide by */
      if (!(seconds >= 0.1 && seconds <= 60)) {
        fprintf (stderr, "--seconds takes 0.1 to 60\n");
        return 2;
      }
    } else if (!strcmp (argv[i], "--whole")) {
      whole = 1;
    } else if (!strcmp (argv[i], "--one")) {
      one_thread = 1;
    } else {
      fprintf (stderr, "usage: %s [--size WxH] [--streams LIST] "
          "[--seconds S] [--whole] [--one]\n", argv[0]);
      return 2;
    }
  }
  if (cudaSetDevice (0) != cudaSuccess || cudaFree (NULL) != cudaSuccess) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  printf ("CUDA driver floor: each frame a copy up (RGBA, page-locked), a "
      "graph of 3 kernels, a copy down (GRAY8, page-locked), an event; "
      "%s; 2 frames in flight a stream; one context; timed %.1f s\n\n",
      whole ? "copies inside the graph (one launch a frame)" :
      "copies, launch and record as separate calls", seconds);
  printf ("| threads | size | streams | fps | CPU µs/frame | cores busy |\n"
      "|---|---|---|---|---|---|\n");
  for (i = 0; i < n_list; i++)
    run (list[i]);
  return 0;
}

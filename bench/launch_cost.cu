/* cudaimgproc: what one launch costs the host, beside the other calls an
 * element makes a frame; see docs/performance.md (pipelines).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-launch-bench
 *
 * Each call is timed alone on an idle stream (synchronised before), 2000
 * times; the median is printed, in µs of host time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

#define REPS 2000

__global__ void
empty_kernel (int *p)
{
  if (p && threadIdx.x == 1234)
    *p = 1;
}

__global__ void
cooperative_kernel (int *p)
{
  cooperative_groups::this_grid ().sync ();
  if (p && threadIdx.x == 1234)
    *p = 1;
}

static double
now_us (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v)
{
  qsort (v, REPS, sizeof (double), cmp);
  return v[REPS / 2];
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
      fprintf (stderr, "%s: %s\n", #call, cudaGetErrorString (e));      \
      return 1; } } while (0)

int
main (void)
{
  static double launch[REPS], coop[REPS], rec[REPS], wait[REPS], query[REPS],
      g1[REPS], g3[REPS];
  cudaStream_t s;
  cudaEvent_t ev;
  cudaGraph_t graph1, graph3;
  cudaGraphExec_t exec1, exec3;
  int *p = NULL, i, sms;
  void *args[] = { &p };
  double t;

  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaEventCreateWithFlags (&ev, cudaEventDisableTiming));
  CHECK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal));
  empty_kernel <<< sms, 256, 0, s >>> (p);
  CHECK (cudaStreamEndCapture (s, &graph1));
  CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal));
  for (i = 0; i < 3; i++)
    empty_kernel <<< sms, 256, 0, s >>> (p);
  CHECK (cudaStreamEndCapture (s, &graph3));
  CHECK (cudaGraphInstantiate (&exec1, graph1, 0));
  CHECK (cudaGraphInstantiate (&exec3, graph3, 0));

  for (i = 0; i < REPS; i++) {
    CHECK (cudaStreamSynchronize (s));
    t = now_us ();
    empty_kernel <<< sms, 256, 0, s >>> (p);
    launch[i] = now_us () - t;
    CHECK (cudaStreamSynchronize (s));
    t = now_us ();
    CHECK (cudaLaunchCooperativeKernel ((void *) cooperative_kernel, sms, 256,
            args, 0, s));
    coop[i] = now_us () - t;
    CHECK (cudaStreamSynchronize (s));
    t = now_us ();
    CHECK (cudaEventRecord (ev, s));
    rec[i] = now_us () - t;
    t = now_us ();
    CHECK (cudaStreamWaitEvent (s, ev, 0));
    wait[i] = now_us () - t;
    t = now_us ();
    (void) cudaEventQuery (ev);
    query[i] = now_us () - t;
    CHECK (cudaStreamSynchronize (s));
    t = now_us ();
    CHECK (cudaGraphLaunch (exec1, s));
    g1[i] = now_us () - t;
    CHECK (cudaStreamSynchronize (s));
    t = now_us ();
    CHECK (cudaGraphLaunch (exec3, s));
    g3[i] = now_us () - t;
  }
  CHECK (cudaStreamSynchronize (s));
  printf ("host µs a call, median of %d, idle stream: kernel launch %.2f, "
      "cooperative launch %.2f, cudaEventRecord %.2f, cudaStreamWaitEvent "
      "%.2f, cudaEventQuery %.2f, graph launch (1 kernel) %.2f, graph "
      "launch (3 kernels) %.2f\n", REPS, median (launch), median (coop),
      median (rec), median (wait), median (query), median (g1), median (g3));
  return 0;
}

/* A timeline of a process's CUDA work, for the GPU host, which has no
 * Nsight Systems: loaded by the driver through CUDA_INJECTION64_PATH, it
 * records through CUPTI's activity API every kernel (GPU start and end,
 * stream, the call that launched it) and every runtime API call (host
 * start and end, thread), and writes them at exit as text to
 * $CUPTITRACE_OUT (default cuptitrace.txt):
 *
 *   K start end stream correlation name
 *   R start end thread correlation name
 *
 * times in ns on CUPTI's clock.  bench/cuptitrace.py reads it (GPU busy
 * time and idle gaps a frame, launch-to-start latency, each thread's
 * CUDA calls a frame).  Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <cupti.h>

#define BUF_BYTES (8u << 20)

static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void CUPTIAPI
buffer_requested (uint8_t ** buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (8, BUF_BYTES);
  *size = *buffer ? BUF_BYTES : 0;
  *max_records = 0;
}

static void CUPTIAPI
buffer_completed (CUcontext ctx, uint32_t stream, uint8_t * buffer,
    size_t size, size_t valid)
{
  CUpti_Activity *r = NULL;

  (void) ctx;
  (void) stream;
  (void) size;
  pthread_mutex_lock (&lock);
  while (out && cuptiActivityGetNextRecord (buffer, valid, &r) ==
      CUPTI_SUCCESS) {
    if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        r->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *) r;
      fprintf (out, "K %llu %llu %u %u %s\n", (unsigned long long) k->start,
          (unsigned long long) k->end, k->streamId, k->correlationId,
          k->name ? k->name : "?");
    } else if (r->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
      const CUpti_ActivityAPI *a = (const CUpti_ActivityAPI *) r;
      const char *name = NULL;

      if (cuptiGetCallbackName (CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid,
              &name) != CUPTI_SUCCESS || !name)
        name = "?";
      fprintf (out, "R %llu %llu %u %u %s\n", (unsigned long long) a->start,
          (unsigned long long) a->end, a->threadId, a->correlationId, name);
    }
  }
  pthread_mutex_unlock (&lock);
  free (buffer);
}

static void
flush_at_exit (void)
{
  cuptiActivityFlushAll (1);
  pthread_mutex_lock (&lock);
  if (out)
    fclose (out);
  out = NULL;
  pthread_mutex_unlock (&lock);
}

/* the driver's entry point: exported past the project's hidden default */
__attribute__ ((visibility ("default"))) int
InitializeInjection (void)
{
  const char *path = getenv ("CUPTITRACE_OUT");

  out = fopen (path ? path : "cuptitrace.txt", "w");
  if (!out)
    return 0;
  if (cuptiActivityRegisterCallbacks (buffer_requested, buffer_completed) !=
      CUPTI_SUCCESS ||
      cuptiActivityEnable (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) !=
      CUPTI_SUCCESS ||
      cuptiActivityEnable (CUPTI_ACTIVITY_KIND_RUNTIME) != CUPTI_SUCCESS) {
    fprintf (stderr, "cuptitrace: CUPTI refused the activity API\n");
    return 0;
  }
  atexit (flush_at_exit);
  return 1;
}

/* cudaimgproc: the host-memory word's fallback writer (hostword.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "hostword.h"

/* The work before it on the stream finished before it started; the fence
 * orders nothing else of ours, but makes the store leave the SM now. */
__global__ void
hostword_write (volatile uint32_t * word, uint32_t value)
{
  *word = value;
  __threadfence_system ();
}

extern "C" cudaError_t
cip_hostword_write (uint32_t * word, uint32_t value, cudaStream_t stream)
{
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  hostword_write <<< 1, 1, 0, stream >>> (word, value);
  return cudaGetLastError ();
}

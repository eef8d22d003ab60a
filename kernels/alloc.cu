/* cudaimgproc: every device and page-locked allocation, in one place.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cip_alloc.h"

#include <atomic>

static std::atomic < CipAllocHook > hook;

extern "C" void
cip_alloc_set_hook (CipAllocHook h)
{
  hook.store (h);
}

static cudaError_t
tell (CipAllocEvent event, const void *ptr, const char *what, size_t bytes)
{
  CipAllocHook h = hook.load ();

  return h ? h (event, ptr, what, bytes) : cudaSuccess;
}

extern "C" cudaError_t
cip_alloc_check (const char *what, size_t bytes)
{
  return tell (CIP_ALLOC_ASK, NULL, what, bytes);
}

extern "C" void
cip_alloc_made (const void *ptr, const char *what, size_t bytes)
{
  tell (CIP_ALLOC_MADE, ptr, what, bytes);
}

extern "C" void
cip_alloc_freed (const void *ptr)
{
  tell (CIP_ALLOC_FREED, ptr, NULL, 0);
}

/* A failed allocation leaves no error behind for a later call to find */
static cudaError_t
done (cudaError_t err, void **ptr, const char *what, size_t bytes)
{
  if (err != cudaSuccess) {
    *ptr = NULL;
    (void) cudaGetLastError ();
  } else {
    cip_alloc_made (*ptr, what, bytes);
  }
  return err;
}

extern "C" cudaError_t
cip_malloc (void **ptr, size_t bytes, const char *what)
{
  cudaError_t err = cip_alloc_check (what, bytes);

  if (err == cudaSuccess)
    err = cudaMalloc (ptr, bytes);
  return done (err, ptr, what, bytes);
}

extern "C" cudaError_t
cip_malloc_pitch (void **ptr, size_t * pitch, size_t width, size_t height,
    const char *what)
{
  cudaError_t err = cip_alloc_check (what, width * height);

  if (err == cudaSuccess)
    err = cudaMallocPitch (ptr, pitch, width, height);
  if (err != cudaSuccess)
    *pitch = 0;
  return done (err, ptr, what, *pitch * height);
}

extern "C" cudaError_t
cip_host_alloc (void **ptr, size_t bytes, unsigned int flags, const char *what)
{
  cudaError_t err = cip_alloc_check (what, bytes);

  if (err == cudaSuccess)
    err = cudaHostAlloc (ptr, bytes, flags);
  return done (err, ptr, what, bytes);
}

extern "C" void
cip_free (void *ptr)
{
  if (ptr) {
    cip_alloc_freed (ptr);
    cudaFree (ptr);
  }
}

extern "C" void
cip_free_host (void *ptr)
{
  if (ptr) {
    cip_alloc_freed (ptr);
    cudaFreeHost (ptr);
  }
}

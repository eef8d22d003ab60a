/* cudaimgproc: every device and page-locked allocation, in one place.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernels, the common layer and the elements allocate through these,
 * and allocations made by others on our behalf (GStreamer's CUDA allocator)
 * ask cip_alloc_check first, so that one hook sees them all.  The plugin
 * installs a hook that counts and logs them and, for tests, makes a chosen
 * one fail (common/gstcudaimgalloc.c); without a hook (the thin3d tool)
 * they are the plain CUDA calls.
 */
#ifndef __CIP_KERNELS_ALLOC_H__
#define __CIP_KERNELS_ALLOC_H__

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_ALLOC_ASK,                /* may it be made?  (before) */
  CIP_ALLOC_MADE,               /* it was, at @ptr */
  CIP_ALLOC_FREED,              /* @ptr is freed (before) */
} CipAllocEvent;

/* Told of each allocation and free; at CIP_ALLOC_ASK any result but
 * cudaSuccess is returned instead of allocating, otherwise it is ignored.
 * @what and @bytes: what it is for and its size (ASK and MADE only). */
typedef cudaError_t (*CipAllocHook) (CipAllocEvent event, const void *ptr,
    const char *what, size_t bytes);

/* Set once, before any allocation (the plugin's init). */
void cip_alloc_set_hook (CipAllocHook hook);

/* For memory someone else allocates and frees on our behalf: ask first,
 * then say it was made and, when it is, freed (@ptr only names it). */
cudaError_t cip_alloc_check (const char *what, size_t bytes);
void cip_alloc_made (const void *ptr, const char *what, size_t bytes);
void cip_alloc_freed (const void *ptr);

/* cudaMalloc, cudaMallocPitch and cudaHostAlloc, through the hook.  On
 * failure *ptr is NULL and the (non-sticky) error is cleared. */
cudaError_t cip_malloc (void **ptr, size_t bytes, const char *what);
cudaError_t cip_malloc_pitch (void **ptr, size_t * pitch, size_t width,
    size_t height, const char *what);
cudaError_t cip_host_alloc (void **ptr, size_t bytes, unsigned int flags,
    const char *what);

/* cudaFree and cudaFreeHost of those; NULL is allowed. */
void cip_free (void *ptr);
void cip_free_host (void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_ALLOC_H__ */

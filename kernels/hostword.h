/* cudaimgproc: a word the GPU writes to page-locked host memory, in stream
 * order, so that the host learns work is done by reading memory, without
 * a driver call or the driver's event thread (common/gstcudaimgsync.c).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The common layer writes it with the driver's cuStreamWriteValue32 where
 * the driver has that; this kernel is the fallback: one thread stores
 * @value at @word (mapped host memory) once everything enqueued on
 * @stream before it is done.
 */
#ifndef __CIP_KERNELS_HOSTWORD_H__
#define __CIP_KERNELS_HOSTWORD_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cip_hostword_write (uint32_t * word, uint32_t value,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

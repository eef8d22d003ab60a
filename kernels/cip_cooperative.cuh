/* cudaimgproc: sizing cooperative launches (a whole frame's iterations in
 * one launch, grid-wide barriers between them).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cuda_runtime.h>

namespace cip {

/* Blocks of @kernel (@threads each, @smem bytes of dynamic shared memory)
 * that the current device holds at once: the most a cooperative launch may
 * have.
 * cudaErrorNotSupported where the device has no cooperative launch (every
 * GPU since Pascal has it; some virtual GPUs do not). */
template <class Kernel>
cudaError_t
cooperative_capacity (Kernel kernel, int threads, int *blocks,
    size_t smem = 0)
{
  int dev, coop = 0, sms = 0, per_sm = 0;
  cudaError_t err;

  *blocks = 0;
  if ((err = cudaGetDevice (&dev)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch,
              dev)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
              dev)) != cudaSuccess)
    return err;
  if (!coop)
    return cudaErrorNotSupported;
  err = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kernel,
      threads, smem);
  *blocks = (per_sm > 0 ? per_sm : 1) * sms;
  return err;
}

}                               /* namespace cip */

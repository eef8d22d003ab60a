/* cudaimgproc: device-side building block: an 8-bit tile with a halo in
 * shared memory, for stencils.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A block owns a TW x TH tile of output pixels and loads the input rows
 * [y0 - R, y0 + TH + R) and columns [x0 - 4, x0 + TW + 4) (R <= 4) into
 * shared memory.  Interior tiles, most of the frame, load whole 32-bit
 * words, coalesced; tiles touching the frame's edge map each coordinate
 * through OpenCV's borderInterpolate (replicate or reflect-101), so a
 * 1-pixel-wide frame works like any other.
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cip {

enum { BORDER_REPLICATE = 0, BORDER_REFLECT_101 = 1 };

/* cv::borderInterpolate */
__device__ __forceinline__ int
border_index (int p, int len, int border)
{
  if ((unsigned) p < (unsigned) len)
    return p;
  if (border == BORDER_REPLICATE)
    return p < 0 ? 0 : len - 1;
  if (len == 1)
    return 0;
  do {
    p = p < 0 ? -p : len - 1 - (p - len) - 1;
  } while ((unsigned) p >= (unsigned) len);
  return p;
}

template <int TW, int TH, int R>
struct Tile
{
  static constexpr int COLS = TW + 8;   /* 4 extra bytes each side */
  static constexpr int ROWS = TH + 2 * R;
  /* rows of whole words (COLS is a multiple of 4): load () stores words,
   * and a stencil may read them */
  alignas (16) uint8_t px[ROWS][COLS];

  /* the input pixel at tile-local (row - R, col - 4) */
  __device__ __forceinline__ uint8_t at (int row, int col) const
  {
    return px[row][col];
  }

  /* the 4-byte word of tile row @row holding columns @col .. @col + 3
   * (@col a multiple of 4) */
  __device__ __forceinline__ uint32_t word (int row, int col) const
  {
    return *reinterpret_cast<const uint32_t *>(&px[row][col]);
  }

  /* All threads of the block call this, then __syncthreads (). */
  __device__ void load (const uint8_t * __restrict__ src, int pitch,
      int width, int height, int x0, int y0, int border, bool aligned)
  {
    const int nthreads = blockDim.x * blockDim.y;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const bool interior = aligned && x0 >= 4 && y0 >= R &&
        x0 + TW + 4 <= width && y0 + TH + R <= height;
    if (interior) {
      constexpr int WORDS = COLS / 4;
      for (int i = tid; i < ROWS * WORDS; i += nthreads) {
        const int r = i / WORDS, w = i - r * WORDS;
        const uint32_t v = __ldg (reinterpret_cast<const uint32_t *>(src +
                (size_t) (y0 - R + r) * pitch + x0 - 4) + w);
        *reinterpret_cast<uint32_t *>(&px[r][w * 4]) = v;
      }
    } else {
      for (int i = tid; i < ROWS * COLS; i += nthreads) {
        const int r = i / COLS, c = i - r * COLS;
        const int y = border_index (y0 - R + r, height, border);
        const int x = border_index (x0 - 4 + c, width, border);
        px[r][c] = __ldg (src + (size_t) y * pitch + x);
      }
    }
  }
};

}  /* namespace cip */

/* cudaimgproc: device-side building block: an 8-bit tile with a halo in
 * shared memory, for stencils.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A block owns a TW x TH tile of output bytes and loads the input rows
 * [y0 - R, y0 + TH + R) and byte columns [x0 - HB, x0 + TW + HB) (HB a
 * multiple of 4, 4 by default) into shared memory.  Interior tiles, most
 * of the frame, load whole 32-bit words, coalesced; tiles touching the
 * frame's edge map each coordinate through OpenCV's borderInterpolate
 * (replicate or reflect-101), a pixel being C bytes (each channel maps to
 * the same channel of the pixel that stands for its own), so a 1-pixel-
 * wide frame works like any other.
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

/* __byte_perm's selector for edge_halo (): byte k < H the column k of
 * the H beyond the edge, as a byte of the body's two words (0 .. 7); with
 * @far, of the H that lie @far further out (reflect-101's images past
 * the body, which no caller reads, clamped into it) */
__host__ __device__ constexpr uint32_t
edge_selector (int h, bool right, bool replicate, int far = 0)
{
  uint32_t s = 0;
  for (int k = 0; k < h; k++) {
    const int c = right ? (replicate ? 7 : 6 - far - k) : (replicate ? 0 :
        h + far - k);
    s |= (uint32_t) (c < 0 ? 0 : c > 7 ? 7 : c) << (4 * k);
  }
  return s;
}

/* The H columns (1 to 4) beyond the frame's left edge (-H .. -1) or right
 * edge (width .. width + H - 1) as bytes 0 .. H - 1 of a word (the bytes
 * above unspecified), where a row's body of 8 columns, the bytes of @w0
 * and @w1, starts or ends the frame: their border images all lie in the
 * body, so one permute makes them instead of H loads through
 * border_index (). */
template <int H, bool RIGHT>
__device__ __forceinline__ uint32_t
edge_halo (uint32_t w0, uint32_t w1, int border)
{
  static_assert (H >= 1 && H <= 4, "a word's bytes");
  constexpr uint32_t REPLICATE = edge_selector (H, RIGHT, true),
      REFLECT = edge_selector (H, RIGHT, false);
  return __byte_perm (w0, w1, border == BORDER_REPLICATE ? REPLICATE :
      REFLECT);
}

template <int TW, int TH, int R, int HB = 4, int C = 1>
struct Tile
{
  static_assert (HB % 4 == 0, "the halo is whole words");
  static constexpr int COLS = TW + 2 * HB;
  static constexpr int ROWS = TH + 2 * R;
  /* rows of whole words (COLS is a multiple of 4): load () stores words,
   * and a stencil may read them */
  alignas (16) uint8_t px[ROWS][COLS];

  /* the input byte at tile-local (row - R, col - HB) */
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

  /* All threads of the block call this, then __syncthreads ().  @x0: the
   * tile's first byte column; @width: in pixels. */
  __device__ void load (const uint8_t * __restrict__ src, int pitch,
      int width, int height, int x0, int y0, int border, bool aligned,
      bool aligned16 = false)
  {
    const int nthreads = blockDim.x * blockDim.y;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const bool interior = aligned && x0 >= HB && y0 >= R &&
        x0 + TW + HB <= width * C && y0 + TH + R <= height;
    if constexpr (HB % 16 == 0 && TW % 16 == 0) {
      /* 16-byte loads: four times the bytes in flight a thread */
      if (interior && aligned16) {
        constexpr int VECS = COLS / 16;
        for (int i = tid; i < ROWS * VECS; i += nthreads) {
          const int r = i / VECS, v = i - r * VECS;
          *reinterpret_cast<uint4 *>(&px[r][v * 16]) =
              __ldg (reinterpret_cast<const uint4 *>(src +
                  (size_t) (y0 - R + r) * pitch + x0 - HB) + v);
        }
        return;
      }
    }
    if (interior) {
      constexpr int WORDS = COLS / 4;
      for (int i = tid; i < ROWS * WORDS; i += nthreads) {
        const int r = i / WORDS, w = i - r * WORDS;
        const uint32_t v = __ldg (reinterpret_cast<const uint32_t *>(src +
                (size_t) (y0 - R + r) * pitch + x0 - HB) + w);
        *reinterpret_cast<uint32_t *>(&px[r][w * 4]) = v;
      }
    } else {
      for (int i = tid; i < ROWS * COLS; i += nthreads) {
        const int r = i / COLS, c = i - r * COLS;
        const int y = border_index (y0 - R + r, height, border);
        const int xb = x0 - HB + c;
        /* floor division: the pixel and channel of a byte left of 0 */
        const int p = xb >= 0 ? xb / C : -((-xb + C - 1) / C);
        const int x = border_index (p, width, border) * C + (xb - p * C);
        px[r][c] = __ldg (src + (size_t) y * pitch + x);
      }
    }
  }
};

}  /* namespace cip */

/* cudaimgproc: device-side building block: register strips for 8-bit
 * stencils.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A thread owns 8 output bytes (columns x .. x + 7) of ROWS consecutive
 * rows and slides down them with the input rows it needs in registers,
 * each row read straight from global memory (through the read-only
 * cache), several rows ahead: no shared memory, no barrier.  A warp owns
 * 256 columns, so its row loads are whole 256-byte lines.  Against a tile
 * in shared memory, a block never waits for its slowest load before
 * computing, which is what bounds the tiled stencils on these GPUs.
 * Rows must be 8-byte aligned (pointer and pitch).
 */
#pragma once

#include "cip_stencil.cuh"

namespace cip {

constexpr int STRIP_COLS = 8;

/* The thread's strip: columns x .. x + 7 of rows y0 .. y0 + ROWS - 1, its
 * warp's the 256 columns from the block's first.  False where the strip
 * starts below the frame (the whole warp: the same rows).  @interior: the
 * warp's strips, the R rows round them and the RX columns either side lie
 * in the frame (the same for the whole warp, which then takes one path). */
template <int ROWS, int R, int RX = R>
__device__ __forceinline__ bool
strip_at (int width, int height, int &x, int &y0, bool &interior)
{
  const int xw = blockIdx.x * 32 * STRIP_COLS;
  x = xw + threadIdx.x * STRIP_COLS;
  y0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;
  interior = xw >= RX && xw + 32 * STRIP_COLS + RX <= width && y0 >= R &&
      y0 + ROWS + R <= height;
  return y0 < height;
}

/* Columns x - HW .. x + 7 + HW of row @yy as 2 + HW / 2 words (HW a
 * multiple of 4, column x - HW + 4q + k in byte k of word q); rows and
 * columns outside the frame are their border images, but for the HW == 4
 * sides beyond the frame's edge next to a body in it: edge_sides () makes
 * those once the row has arrived.  Nothing is read where x lies right of
 * the frame (no output there). */
template <int HW, bool INTERIOR, int BORDER>
__device__ __forceinline__ void
strip_window (const uint8_t * __restrict__ src, int pitch, int width,
    int height, int x, int yy, uint32_t (&w)[2 + HW / 2])
{
  static_assert (HW % 4 == 0, "the halo is whole words");
  constexpr int NW = 2 + HW / 2, SIDE = HW / 4;
  if constexpr (INTERIOR) {
    const uint8_t *r = src + (size_t) yy * pitch + x;
    const uint2 c = __ldg (reinterpret_cast<const uint2 *>(r));
    w[SIDE] = c.x;
    w[SIDE + 1] = c.y;
#pragma unroll
    for (int q = 0; q < SIDE; q++) {
      w[q] = __ldg (reinterpret_cast<const uint32_t *>(r - HW) + q);
      w[SIDE + 2 + q] = __ldg (reinterpret_cast<const uint32_t *>(r + 8) + q);
    }
  } else {
#pragma unroll
    for (int q = 0; q < NW; q++)
      w[q] = 0;
    if (x >= width)
      return;
    const uint8_t *r = src + (size_t) border_index (yy, height, BORDER) *
        pitch;
    if (x + STRIP_COLS <= width) {
      /* the body in the frame: each halo side loaded where it lies in the
       * frame too, else (x is 0, or the body ends the frame) left to
       * edge_sides (), bytes one at a time only where the side is wider
       * than 4 or partly in the frame */
      const uint2 c = __ldg (reinterpret_cast<const uint2 *>(r + x));
      w[SIDE] = c.x;
      w[SIDE + 1] = c.y;
      if (x >= HW) {
#pragma unroll
        for (int q = 0; q < SIDE; q++)
          w[q] = __ldg (reinterpret_cast<const uint32_t *>(r + x - HW) + q);
      } else if (HW != 4) {
#pragma unroll
        for (int k = 0; k < HW; k++)
          w[k / 4] |= (uint32_t) __ldg (r + border_index (x - HW + k, width,
                  BORDER)) << (8 * (k & 3));
      }
      if (x + STRIP_COLS + HW <= width) {
#pragma unroll
        for (int q = 0; q < SIDE; q++)
          w[SIDE + 2 + q] = __ldg (reinterpret_cast<const uint32_t *>(r + x +
                  STRIP_COLS) + q);
      } else if (HW != 4 || x + STRIP_COLS != width) {
#pragma unroll
        for (int k = 0; k < HW; k++)
          w[SIDE + 2 + k / 4] |= (uint32_t) __ldg (r + border_index (x +
                  STRIP_COLS + k, width, BORDER)) << (8 * (k & 3));
      }
      return;
    }
    /* the body crosses the frame's right edge: every column through
     * border_index () */
#pragma unroll
    for (int k = 0; k < STRIP_COLS; k++)
      w[SIDE + k / 4] |= (uint32_t) __ldg (r + border_index (x + k, width,
              BORDER)) << (8 * (k & 3));
#pragma unroll
    for (int k = 0; k < HW; k++) {
      w[k / 4] |= (uint32_t) __ldg (r + border_index (x - HW + k, width,
              BORDER)) << (8 * (k & 3));
      w[SIDE + 2 + k / 4] |= (uint32_t) __ldg (r + border_index (x + 8 + k,
              width, BORDER)) << (8 * (k & 3));
    }
  }
}

/* Where a row's body of 8 columns (the bytes of @w0 and @w1) starts the
 * frame (x is 0) or ends it, the H columns beyond that edge into @left
 * or @right, permuted out of the body (edge_halo ()); elsewhere those
 * stay as they are.  Called once the row has arrived, not as it is
 * loaded: made from the just-loaded body, they held up the loads of the
 * rows after it (strip_window (), cudasobel's s3_fetch ()). */
template <int H>
__device__ __forceinline__ void
edge_sides (int width, int x, int border, uint32_t w0, uint32_t w1,
    uint32_t & left, uint32_t & right)
{
  if (x == 0 && width >= STRIP_COLS)
    left = edge_halo<H, false> (w0, w1, border);
  if (x + STRIP_COLS == width)
    right = edge_halo<H, true> (w0, w1, border);
}

/* @o's 8 bytes (each byte B of its word) as two words */
template <int B = 0>
__device__ __forceinline__ uint2
strip_pack (const uint32_t (&o)[STRIP_COLS])
{
  constexpr unsigned S = (4 + B) << 4 | B;
  return make_uint2 (__byte_perm (__byte_perm (o[0], o[1], S),
          __byte_perm (o[2], o[3], S), 0x5410),
      __byte_perm (__byte_perm (o[4], o[5], S),
          __byte_perm (o[6], o[7], S), 0x5410));
}

/* A strip's output row: 8 bytes at (x, y), fewer at the frame's edge */
template <bool INTERIOR>
__device__ __forceinline__ void
strip_store (uint8_t * __restrict__ dst, int dst_pitch, int width, int x,
    int y, uint2 v)
{
  uint8_t *d = dst + (size_t) y * dst_pitch + x;
  if (INTERIOR || x + STRIP_COLS <= width) {
    *reinterpret_cast<uint2 *>(d) = v;
  } else if (x < width) {
#pragma unroll
    for (int k = 0; k < STRIP_COLS; k++)
      if (x + k < width)
        d[k] = (uint8_t) ((k < 4 ? v.x : v.y) >> (8 * (k & 3)));
  }
}

/* Rows a thread takes down a strip or tile, @most (a power of two), down
 * to 2: the most that still give @want blocks of @by such rows over @cols
 * block columns (a taller block costs fewer halo rows, a shorter one
 * spreads a small frame over more SMs). */
static inline int
rows_for (int cols, int height, int by, long long want, int most)
{
  int rows = most;
  while (rows > 2 && (long long) cols * ((height + by * rows - 1) /
          (by * rows)) < want)
    rows /= 2;
  return rows;
}

}  /* namespace cip */

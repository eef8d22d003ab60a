/* cudaimgproc: connected components with OpenCV's numbering (blobs.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "blobs.h"

#include <climits>
#include <cub/device/device_scan.cuh>

namespace {

constexpr int BW = 32, BH = 8;  /* a warp is 32 pixels of one row */

/* The pixel's place in OpenCV's scan (blobs.h): a permutation of
 * 0 .. width * height - 1. */
__device__ __forceinline__ int
scan_key (int x, int y, int w, int h, bool blocks)
{
  if (!blocks)
    return y * w + x;
  const int band = y >> 1, bx = x >> 1;
  const int rows = 2 * band + 1 < h ? 2 : 1;
  const int in_block = 2 * bx + 1 >= w ? (y & 1) : (y & 1) * 2 + (x & 1);
  return band * 2 * w + bx * 2 * rows + in_block;
}

/* parent[x] <= x always, so following it ends at a root */
__device__ __forceinline__ int
find_root (const int *parent, int x)
{
  int p;
  while ((p = ((const volatile int *) parent)[x]) != x)
    x = p;
  return x;
}

__device__ void
unite (int *parent, int a, int b)
{
  for (;;) {
    a = find_root (parent, a);
    b = find_root (parent, b);
    if (a == b)
      return;
    if (a < b) {
      const int t = a;
      a = b;
      b = t;
    }
    const int old = atomicCAS (&parent[a], a, b);
    if (old == a)
      return;
    a = old;                    /* joined meanwhile: go on from there */
  }
}

struct Scratch
{
  int *parent, *minkey, *flag, *rank;
  void *cub_temp;
  size_t cub_bytes;
};

/* this thread's pixel, where it is in the frame and foreground (after
 * init_kernel) */
__device__ __forceinline__ bool
fg_pixel (int w, int h, const Scratch & s, int &x, int &y, int &i)
{
  x = blockIdx.x * BW + threadIdx.x;
  y = blockIdx.y * BH + threadIdx.y;
  i = y * w + x;
  return x < w && y < h && s.parent[i] >= 0;
}

__global__ void
init_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s)
{
  const int x = blockIdx.x * BW + threadIdx.x, y = blockIdx.y * BH +
      threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  s.parent[i] = mask[(size_t) y * pitch + x] ? i : -1;
  s.minkey[i] = INT_MAX;
  s.flag[i] = 0;
}

template < bool EIGHT > __global__ void
merge_kernel (int w, int h, Scratch s)
{
  int x, y, i;
  if (!fg_pixel (w, h, s, x, y, i))
    return;
  if (x > 0 && s.parent[i - 1] >= 0)
    unite (s.parent, i, i - 1);
  if (y > 0) {
    if (s.parent[i - w] >= 0)
      unite (s.parent, i, i - w);
    if (EIGHT && x > 0 && s.parent[i - w - 1] >= 0)
      unite (s.parent, i, i - w - 1);
    if (EIGHT && x + 1 < w && s.parent[i - w + 1] >= 0)
      unite (s.parent, i, i - w + 1);
  }
}

/* every pixel straight to its root, and its root's first scan key */
__global__ void
flatten_kernel (int w, int h, bool blocks, Scratch s)
{
  int x, y, i;
  if (!fg_pixel (w, h, s, x, y, i))
    return;
  const int r = find_root (s.parent, i);
  s.parent[i] = r;
  atomicMin (&s.minkey[r], scan_key (x, y, w, h, blocks));
}

/* a component's first pixel in scan order flags its key */
__global__ void
first_kernel (int w, int h, bool blocks, Scratch s)
{
  int x, y, i;
  if (!fg_pixel (w, h, s, x, y, i))
    return;
  const int k = scan_key (x, y, w, h, blocks);
  if (s.minkey[s.parent[i]] == k)
    s.flag[k] = 1;
}

__global__ void
init_stats_kernel (CipBlobStats * stats, uint32_t n)
{
  for (uint32_t l = blockIdx.x * blockDim.x + threadIdx.x + 1; l <= n;
      l += gridDim.x * blockDim.x) {
    stats[l].left = INT_MAX;
    stats[l].top = INT_MAX;
    stats[l].right = -1;
    stats[l].bottom = -1;
    stats[l].area = 0;
    stats[l].sum_x = 0;
    stats[l].sum_y = 0;
  }
}

/* Labels out; with @stats, each warp's run of pixels of one component is
 * added by one lane (a warp is a row segment, so its lanes are in x
 * order: the lowest and highest lane give the extent). */
__global__ void
label_kernel (int w, int h, Scratch s, int32_t * labels, int lpitch,
    CipBlobStats * stats, uint32_t max_stats)
{
  const int x = blockIdx.x * BW + threadIdx.x, y = blockIdx.y * BH +
      threadIdx.y;
  const bool in = x < w && y < h;
  const int i = y * w + x;
  int l = 0;

  if (in) {
    const int r = s.parent[i];
    l = r < 0 ? 0 : s.rank[s.minkey[r]] + 1;
    *(int32_t *) ((char *) labels + (size_t) y * lpitch + (size_t) x * 4) = l;
  }
  if (!stats)
    return;
  const bool counted = in && l > 0 && (uint32_t) l <= max_stats;
  const unsigned active = __ballot_sync (0xffffffffu, counted);
  if (!counted)
    return;
  const unsigned group = __match_any_sync (active, l);
  const int lane = threadIdx.x;
  if (lane != __ffs (group) - 1)
    return;
  const int n = __popc (group), last = 31 - __clz (group);
  unsigned long long lanes = 0;
  for (unsigned m = group; m; m &= m - 1)
    lanes += __ffs (m) - 1;
  CipBlobStats *b = &stats[l];
  atomicMin (&b->left, x);
  atomicMax (&b->right, x + last - lane);
  atomicMin (&b->top, y);
  atomicMax (&b->bottom, y);
  atomicAdd (&b->area, (uint32_t) n);
  atomicAdd (&b->sum_x, (unsigned long long) n * (x - lane) + lanes);
  atomicAdd (&b->sum_y, (unsigned long long) n * y);
}

__global__ void
count_kernel (const Scratch s, int n, uint32_t * count)
{
  *count = (uint32_t) (s.rank[n - 1] + s.flag[n - 1]);
}

size_t
align256 (size_t n)
{
  return (n + 255) & ~(size_t) 255;
}

/* the layout of the scratch; false if too large */
bool
layout (int width, int height, void *base, Scratch * s, size_t *total)
{
  size_t n, arr, cub_bytes = 0;

  if (width < 1 || height < 1 || (size_t) width * height > INT_MAX / 2)
    return false;
  n = (size_t) width * height;
  arr = align256 (n * sizeof (int));
  if (cub::DeviceScan::ExclusiveSum (nullptr, cub_bytes, (int *) nullptr,
          (int *) nullptr, (int) n) != cudaSuccess)
    return false;
  char *p = (char *) base;
  s->parent = (int *) p;
  s->minkey = (int *) (p + arr);
  s->flag = (int *) (p + 2 * arr);
  s->rank = (int *) (p + 3 * arr);
  s->cub_temp = p + 4 * arr;
  s->cub_bytes = cub_bytes;
  *total = 4 * arr + align256 (cub_bytes);
  return true;
}

}                               /* namespace */

extern "C" size_t
cip_blobs_scratch_size (int width, int height)
{
  Scratch s;
  size_t total;
  return layout (width, height, nullptr, &s, &total) ? total : 0;
}

extern "C" cudaError_t
cip_blobs_label (const uint8_t * mask, int mask_pitch, int width, int height,
    int connectivity, int32_t * labels, int labels_pitch, uint32_t * d_count,
    CipBlobStats * stats, uint32_t max_stats, void *scratch,
    size_t scratch_size, cudaStream_t stream)
{
  Scratch s;
  size_t total;
  const bool eight = connectivity == 8;

  if ((connectivity != 4 && !eight) ||
      !layout (width, height, scratch, &s, &total) || scratch_size < total)
    return cudaErrorInvalidValue;
  const int n = width * height;
  const dim3 block (BW, BH), grid ((width + BW - 1) / BW,
      (height + BH - 1) / BH);
  init_kernel <<< grid, block, 0, stream >>> (mask, mask_pitch, width,
      height, s);
  if (eight)
    merge_kernel < true > <<< grid, block, 0, stream >>> (width, height, s);
  else
    merge_kernel < false > <<< grid, block, 0, stream >>> (width, height, s);
  flatten_kernel <<< grid, block, 0, stream >>> (width, height, eight, s);
  first_kernel <<< grid, block, 0, stream >>> (width, height, eight, s);
  cudaError_t err = cub::DeviceScan::ExclusiveSum (s.cub_temp, s.cub_bytes,
      s.flag, s.rank, n, stream);
  if (err != cudaSuccess)
    return err;
  if (stats && max_stats)
    init_stats_kernel <<< 256, 256, 0, stream >>> (stats, max_stats);
  label_kernel <<< grid, block, 0, stream >>> (width, height, s, labels,
      labels_pitch, stats && max_stats ? stats : nullptr, max_stats);
  count_kernel <<< 1, 1, 0, stream >>> (s, n, d_count);
  return cudaGetLastError ();
}

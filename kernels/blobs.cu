/* cudaimgproc: connected components with OpenCV's numbering (blobs.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "blobs.h"

#include <climits>
#include "cip_pointwise.cuh"
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

namespace {

/* A tile: one block of the local pass and of the labelling.  Components
 * are first found inside each tile in shared memory; only pixels on a
 * tile's border then join across it in global memory, so the global
 * union-find sees one node per piece of a component in a tile (a solid
 * 4K frame: 16 K tiles, not 8 M pixels). */
constexpr int TW = 32, TH = 16, TN = TW * TH;

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

/* parent[x] <= x always, so following it ends at a root.  While merging,
 * path halving on the way: only a non-root's parent is rewritten, to an
 * ancestor, and a non-root never becomes a root again, so it races with
 * no union (unions CAS roots only) and the invariant holds.  Not while
 * the pieces are set to their roots (roots_kernel): a stale ancestor
 * written there could overwrite another thread's root.  @parent is shared
 * or global memory. */
template < bool HALVE > __device__ __forceinline__ int
find_root (int *parent, int x)
{
  volatile int *vp = parent;
  for (;;) {
    const int p = vp[x];
    if (p == x)
      return x;
    const int g = vp[p];
    if (g == p)
      return p;
    if (HALVE)
      vp[x] = g;
    x = g;
  }
}

/* Joins the trees of @a and @b.  HALVE: path halving on the way, in
 * global memory only: in a tile's shared memory its stores race with the
 * other threads' reads (harmless by the invariant above, but a race by
 * the memory model, which racecheck reports), and a tile's trees are
 * short. */
template < bool HALVE > __device__ void
unite (int *parent, int a, int b)
{
  for (;;) {
    a = find_root < HALVE > (parent, a);
    b = find_root < HALVE > (parent, b);
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

/* Per pixel only what a pixel needs: its tile root (parent).  The rest is
 * per piece (a component's part in a tile): listed by local_kernel, so
 * the passes after the unions walk the pieces, not the frame. */
struct Scratch
{
  int *parent;                  /* a pixel's tile root (-1: background); a
                                 * tile root's parent */
  int *minkey;                  /* at tile roots: the piece's first scan key
                                 * (its component's, at component roots);
                                 * after assign_kernel, the label */
  int *pieces;                  /* the tile roots, npieces of them */
  unsigned *npieces;
  unsigned *bits;               /* the components' first scan keys */
  int *wordcnt, *wordpre;       /* set bits of each word of bits, and before
                                 * it */
  int nw;                       /* words of bits */
  void *cub_temp;
  size_t cub_bytes;
};

__device__ __forceinline__ bool
fg_at (const uint8_t * mask, int pitch, int w, int h, int x, int y)
{
  return x >= 0 && y >= 0 && x < w && y < h && mask[(size_t) y * pitch + x];
}

/* The unions a foreground pixel makes, with the neighbours before it in
 * raster order: bit 0 left, 1 up, 2 upper left, 3 upper right.  One is
 * left out where the pair is joined through others anyway: the diagonals
 * when the pixel above is foreground (it joins both by their left
 * unions), the upper left when the left one is (their up union), and the
 * pixel above when the left and upper left ones are (by induction along
 * the row, the left one is joined to the upper left, which joins the
 * pixel above by its left union).  On solid regions that leaves one union
 * a pixel. */
template < bool EIGHT > __device__ __forceinline__ unsigned
unions (const uint8_t * mask, int pitch, int w, int h, int x, int y)
{
  const bool l = fg_at (mask, pitch, w, h, x - 1, y);
  const bool u = fg_at (mask, pitch, w, h, x, y - 1);
  const bool ul = EIGHT || u ? fg_at (mask, pitch, w, h, x - 1, y - 1) : false;
  unsigned m = l ? 1u : 0u;
  if (u && !(l && ul))
    m |= 2u;
  if (EIGHT && !u) {
    if (ul && !l)
      m |= 4u;
    if (fg_at (mask, pitch, w, h, x + 1, y - 1))
      m |= 8u;
  }
  return m;
}

__device__ __forceinline__ void
union_offset (unsigned bit, int &dx, int &dy)
{
  dx = bit == 0 ? -1 : bit == 1 ? 0 : bit == 2 ? -1 : 1;
  dy = bit == 0 ? 0 : -1;
}

/* Whether no neighbour of the pixel (in the connectivity) is foreground
 * and before it in scan order: only such a pixel can be its component's
 * first, so only these take part in the atomicMin on the piece's key (a
 * piece filling its tile would otherwise serialize on one word). */
__device__ __forceinline__ bool
may_be_first (const uint8_t * mask, int pitch, int x, int y, int w, int h,
    bool eight)
{
  const int k = scan_key (x, y, w, h, eight);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if ((dx == 0 && dy == 0) || (!eight && dx != 0 && dy != 0))
        continue;
      if (fg_at (mask, pitch, w, h, x + dx, y + dy) &&
          scan_key (x + dx, y + dy, w, h, eight) < k)
        return false;
    }
  return true;
}

/* Labels each tile alone in shared memory; each pixel's parent is its
 * tile root's frame index (the root the tile's first pixel of the piece
 * in raster order, so parent <= index holds in the frame too).  Each tile
 * root also gets its piece's first scan key and joins the list of pieces
 * (a warp is a tile row: one atomic a row). */
template < bool EIGHT > __global__ void __launch_bounds__ (TN)
local_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s)
{
  __shared__ int sp[TN], smin[TN];
  const int tx = threadIdx.x, ty = threadIdx.y, li = ty * TW + tx;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int x = x0 + tx, y = y0 + ty;
  const bool in = x < w && y < h;
  const bool fg = in && mask[(size_t) y * pitch + x];
  const int i = y * w + x;

  /* a row's runs straight to their first pixel: a warp is a tile row */
  const unsigned bits = __ballot_sync (0xffffffffu, fg);
  const unsigned bg_below = ~bits & ((1u << tx) - 1u);
  sp[li] = fg ? ty * TW + (bg_below ? 32 - __clz (bg_below) : 0) : -1;
  smin[li] = INT_MAX;
  __syncthreads ();
  if (fg) {
    /* the left union is the run's */
    unsigned m = unions < EIGHT > (mask, pitch, w, h, x, y) & ~1u;
    for (unsigned bit = 0; m; bit++, m >>= 1) {
      int dx, dy;
      union_offset (bit, dx, dy);
      if ((m & 1u) && tx + dx >= 0 && tx + dx < TW && ty + dy >= 0)
        unite < false > (sp, li, li + dy * TW + dx);
    }
  }
  __syncthreads ();
  int r = -1;
  if (fg) {
    r = find_root < false > (sp, li);
    if (may_be_first (mask, pitch, x, y, w, h, EIGHT))
      atomicMin (&smin[r], scan_key (x, y, w, h, EIGHT));
  }
  __syncthreads ();
  const bool root = fg && r == li;
  if (in)
    s.parent[i] = fg ? (y0 + r / TW) * w + x0 + r % TW : -1;
  if (root)
    s.minkey[i] = smin[li];
  const unsigned roots = __ballot_sync (0xffffffffu, root);
  if (roots) {
    const int lead = __ffs (roots) - 1;
    unsigned at = 0;
    if (tx == lead)
      at = atomicAdd (s.npieces, (unsigned) __popc (roots));
    at = __shfl_sync (0xffffffffu, at, lead);
    if (root)
      s.pieces[at + __popc (roots & ((1u << tx) - 1u))] = i;
  }
}

/* The unions across tile borders, made by the pixel after the border in
 * raster order: a tile's top row, left column and (for the upper right
 * diagonal) right column, TW + 2 (TH - 1) threads a tile. */
template < bool EIGHT > __global__ void
border_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s)
{
  const int t = threadIdx.x;
  int tx, ty;
  if (t < TW) {
    tx = t;
    ty = 0;
  } else if (t < TW + TH - 1) {
    tx = 0;
    ty = t - TW + 1;
  } else if (EIGHT && t < TW + 2 * (TH - 1)) {
    tx = TW - 1;
    ty = t - TW - TH + 2;
  } else {
    return;
  }
  const int x = blockIdx.x * TW + tx, y = blockIdx.y * TH + ty;
  if (!fg_at (mask, pitch, w, h, x, y))
    return;
  unsigned m = unions < EIGHT > (mask, pitch, w, h, x, y);
  for (unsigned bit = 0; m; bit++, m >>= 1) {
    int dx, dy;
    union_offset (bit, dx, dy);
    if ((m & 1u) && (tx + dx < 0 || tx + dx >= TW || ty + dy < 0))
      unite < true > (s.parent, y * w + x, (y + dy) * w + x + dx);
  }
}

/* The passes over the pieces: a grid of a fixed size strides through
 * the list, whose length only the device knows. */
constexpr int LIST_THREADS = 256;

/* Each piece's tile root straight to its component's root, and the
 * piece's first key into the root's.  A thread writes only its own tile
 * root's parent, with the true root, so a walk that passes it reads an
 * ancestor either way; a root is never written (it is not a piece that
 * moves) until assign_kernel, after this. */
__global__ void __launch_bounds__ (LIST_THREADS)
roots_kernel (Scratch s)
{
  const unsigned n = *s.npieces;
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
      k += gridDim.x * blockDim.x) {
    const int t = s.pieces[k];
    const int r = find_root < false > (s.parent, t);
    if (r != t) {
      s.parent[t] = r;
      atomicMin (&s.minkey[r], s.minkey[t]);
    }
  }
}

/* a component's first key, a bit */
__global__ void __launch_bounds__ (LIST_THREADS)
first_kernel (Scratch s)
{
  const unsigned n = *s.npieces;
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
      k += gridDim.x * blockDim.x) {
    const int t = s.pieces[k];
    if (s.parent[t] == t) {
      const int key = s.minkey[t];
      atomicOr (&s.bits[key >> 5], 1u << (key & 31));
    }
  }
}

__global__ void
word_count_kernel (Scratch s)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < s.nw;
      k += gridDim.x * blockDim.x)
    s.wordcnt[k] = __popc (s.bits[k]);
}

/* a component's label: the first keys before its own, plus one */
__global__ void __launch_bounds__ (LIST_THREADS)
assign_kernel (Scratch s)
{
  const unsigned n = *s.npieces;
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
      k += gridDim.x * blockDim.x) {
    const int t = s.pieces[k];
    if (s.parent[t] == t) {
      const int key = s.minkey[t];
      s.minkey[t] = s.wordpre[key >> 5] +
          __popc (s.bits[key >> 5] & ((1u << (key & 31)) - 1u)) + 1;
    }
  }
}

/* the entries of the components found (at most @max_stats), after
 * count_kernel: a frame of few components initializes few */
__global__ void
init_stats_kernel (CipBlobStats * stats, const uint32_t * count,
    uint32_t max_stats)
{
  const uint32_t n = min (*count, max_stats);
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

/* Tile rows a labelling block walks down: its statistics are summed in
 * shared memory over a 32 x 256 strip before they go to global memory. */
constexpr int STRIP = 16, HS = 1024, PROBES = 16;

/* Labels out.  With @stats, a block sums its strip's pixels per label in a
 * shared hash table first (each warp's pixels of one label by one lane: a
 * warp is a row segment, its lanes in x order, so the lowest and highest
 * lane give the extent), then adds each label's sums to its entry once:
 * a component covering the frame takes a few thousand global atomics on
 * its entry, not one a tile or a warp (same-address atomics serialize,
 * and were most of the time).  A label that finds no slot in PROBES tries
 * goes to global memory directly. */
__global__ void __launch_bounds__ (TN)
label_kernel (int w, int h, Scratch s, int32_t * labels, int lpitch,
    CipBlobStats * stats, uint32_t max_stats)
{
  __shared__ int key[HS], sl[HS], st[HS], sr[HS], sb[HS];
  __shared__ unsigned sa[HS];
  __shared__ unsigned long long sx[HS], sy[HS];
  const int tx = threadIdx.x, li = threadIdx.y * TW + tx;
  const int x = blockIdx.x * TW + tx;

  if (stats)
    for (int k = li; k < HS; k += TN) {
      key[k] = 0;
      sl[k] = INT_MAX;
      st[k] = INT_MAX;
      sr[k] = -1;
      sb[k] = -1;
      sa[k] = 0;
      sx[k] = 0;
      sy[k] = 0;
    }
  __syncthreads ();
  for (int r = 0; r < STRIP; r++) {
    const int y = (blockIdx.y * STRIP + r) * TH + threadIdx.y;
    const bool in = x < w && y < h;
    int l = 0;
    if (in) {
      /* a pixel's parent is a tile root (its own or, after path halving
       * in the unions, an ancestor), whose parent is its component's root */
      const int p = s.parent[y * w + x];
      if (p >= 0)
        l = s.minkey[s.parent[p]];
      *(int32_t *) ((char *) labels + (size_t) y * lpitch + (size_t) x * 4) =
          l;
    }
    if (!stats)
      continue;
    const bool counted = l > 0 && (uint32_t) l <= max_stats;
    const unsigned active = __ballot_sync (0xffffffffu, counted);
    if (!counted)
      continue;
    const unsigned group = __match_any_sync (active, l);
    if (tx != __ffs (group) - 1)
      continue;
    const int n = __popc (group), last = 31 - __clz (group);
    unsigned long long lanes = 0;
    for (unsigned m = group; m; m &= m - 1)
      lanes += __ffs (m) - 1;
    const int right = x + last - tx;
    const unsigned long long gx = (unsigned long long) n * (x - tx) + lanes,
        gy = (unsigned long long) n * y;
    int slot = -1;
    for (int k = 0, hs = (int) (((unsigned) l * 2654435761u) >> 22);
        k < PROBES; k++, hs = (hs + 1) & (HS - 1)) {
      const int old = atomicCAS (&key[hs], 0, l);
      if (old == 0 || old == l) {
        slot = hs;
        break;
      }
    }
    if (slot >= 0) {
      atomicMin (&sl[slot], x);
      atomicMax (&sr[slot], right);
      atomicMin (&st[slot], y);
      atomicMax (&sb[slot], y);
      atomicAdd (&sa[slot], (unsigned) n);
      atomicAdd (&sx[slot], gx);
      atomicAdd (&sy[slot], gy);
    } else {
      CipBlobStats *b = &stats[l];
      atomicMin (&b->left, x);
      atomicMax (&b->right, right);
      atomicMin (&b->top, y);
      atomicMax (&b->bottom, y);
      atomicAdd (&b->area, (unsigned) n);
      atomicAdd (&b->sum_x, gx);
      atomicAdd (&b->sum_y, gy);
    }
  }
  if (!stats)
    return;
  __syncthreads ();
  for (int k = li; k < HS; k += TN)
    if (key[k]) {
      CipBlobStats *b = &stats[key[k]];
      atomicMin (&b->left, sl[k]);
      atomicMax (&b->right, sr[k]);
      atomicMin (&b->top, st[k]);
      atomicMax (&b->bottom, sb[k]);
      atomicAdd (&b->area, sa[k]);
      atomicAdd (&b->sum_x, sx[k]);
      atomicAdd (&b->sum_y, sy[k]);
    }
}

__global__ void
count_kernel (const Scratch s, uint32_t * count)
{
  *count = (uint32_t) (s.wordpre[s.nw - 1] + __popc (s.bits[s.nw - 1]));
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
  size_t n, arr, warr, cub_bytes = 0;

  if (width < 1 || height < 1 || (size_t) width * height > INT_MAX / 2)
    return false;
  n = (size_t) width * height;
  s->nw = (int) ((n + 31) / 32);
  arr = align256 (n * sizeof (int));
  warr = align256 ((size_t) s->nw * sizeof (int));
  if (cub::DeviceScan::ExclusiveSum (nullptr, cub_bytes, (int *) nullptr,
          (int *) nullptr, s->nw) != cudaSuccess)
    return false;
  char *p = (char *) base;
  s->parent = (int *) p;
  s->minkey = (int *) (p + arr);
  s->pieces = (int *) (p + 2 * arr);
  s->bits = (unsigned *) (p + 3 * arr);
  s->wordcnt = (int *) (p + 3 * arr + warr);
  s->wordpre = (int *) (p + 3 * arr + 2 * warr);
  s->npieces = (unsigned *) (p + 3 * arr + 3 * warr);
  s->cub_temp = p + 3 * arr + 3 * warr + 256;
  s->cub_bytes = cub_bytes;
  *total = 3 * arr + 3 * warr + 256 + align256 (cub_bytes);
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
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  const dim3 block (TW, TH), grid ((width + TW - 1) / TW,
      (height + TH - 1) / TH);
  /* the list of pieces and the first keys' bits start empty */
  cudaError_t err = cudaMemsetAsync (s.npieces, 0, sizeof (unsigned), stream);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (s.bits, 0, (size_t) s.nw * sizeof (unsigned),
        stream);
  if (err != cudaSuccess)
    return err;
  if (eight) {
    local_kernel < true > <<< grid, block, 0, stream >>> (mask, mask_pitch,
        width, height, s);
    border_kernel < true > <<< grid, 64, 0, stream >>> (mask, mask_pitch,
        width, height, s);
  } else {
    local_kernel < false > <<< grid, block, 0, stream >>> (mask, mask_pitch,
        width, height, s);
    border_kernel < false > <<< grid, 64, 0, stream >>> (mask, mask_pitch,
        width, height, s);
  }
  const int list_grid = cip::sm_count () * 8;
  roots_kernel <<< list_grid, LIST_THREADS, 0, stream >>> (s);
  first_kernel <<< list_grid, LIST_THREADS, 0, stream >>> (s);
  word_count_kernel <<< (s.nw + 255) / 256, 256, 0, stream >>> (s);
  err = cub::DeviceScan::ExclusiveSum (s.cub_temp, s.cub_bytes, s.wordcnt,
      s.wordpre, s.nw, stream);
  if (err != cudaSuccess)
    return err;
  assign_kernel <<< list_grid, LIST_THREADS, 0, stream >>> (s);
  count_kernel <<< 1, 1, 0, stream >>> (s, d_count);
  if (stats && max_stats)
    init_stats_kernel <<< 256, 256, 0, stream >>> (stats, d_count,
        max_stats);
  const dim3 strips (grid.x, (grid.y + STRIP - 1) / STRIP);
  label_kernel <<< strips, block, 0, stream >>> (width, height, s, labels,
      labels_pitch, stats && max_stats ? stats : nullptr, max_stats);
  return cudaGetLastError ();
}

/* ------------------------------------------------------------------------ */
/* the blobs kept */

namespace {

constexpr int CAP = CIP_BLOBS_LABEL_MAX;
constexpr unsigned long long DROPPED = ~0ull;

struct Select
{
  unsigned long long *keys, *sorted;
  int *keep, *rank;             /* CAP + 1 each, index 0 the background */
  void *temp;
  size_t temp_bytes;
};

bool
select_layout (void *base, Select * s, size_t *total)
{
  size_t sort_bytes = 0, scan_bytes = 0;
  if (cub::DeviceRadixSort::SortKeys (nullptr, sort_bytes,
          (unsigned long long *) nullptr, (unsigned long long *) nullptr,
          CAP) != cudaSuccess ||
      cub::DeviceScan::ExclusiveSum (nullptr, scan_bytes, (int *) nullptr,
          (int *) nullptr, CAP + 1) != cudaSuccess)
    return false;
  const size_t keys = align256 (CAP * sizeof (unsigned long long)),
      ints = align256 ((CAP + 1) * sizeof (int));
  char *p = (char *) base;
  s->keys = (unsigned long long *) p;
  s->sorted = (unsigned long long *) (p + keys);
  s->keep = (int *) (p + 2 * keys);
  s->rank = (int *) (p + 2 * keys + ints);
  s->temp = p + 2 * keys + 2 * ints;
  s->temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
  *total = 2 * keys + 2 * ints + align256 (s->temp_bytes);
  return true;
}

/* keep: area at least @min_area; keys for the largest: area descending,
 * then label ascending */
__global__ void
keep_kernel (const CipBlobStats * stats, const uint32_t * count,
    uint32_t min_area, bool limit, Select s)
{
  const uint32_t n = min (*count, (uint32_t) CAP);
  for (int l = blockIdx.x * blockDim.x + threadIdx.x; l <= CAP;
      l += gridDim.x * blockDim.x) {
    const bool keep = l >= 1 && (uint32_t) l <= n &&
        stats[l].area >= min_area;
    s.keep[l] = keep && !limit;
    if (l >= 1)
      s.keys[l - 1] = keep ? ((unsigned long long) (0xffffffffu -
              stats[l].area) << 32) | (unsigned) l : DROPPED;
  }
}

__global__ void
largest_kernel (uint32_t max_blobs, Select s)
{
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < max_blobs &&
      j < CAP; j += gridDim.x * blockDim.x)
    if (s.sorted[j] != DROPPED)
      s.keep[s.sorted[j] & 0xffffffffu] = 1;
}

__global__ void
number_kernel (const CipBlobStats * stats, const uint32_t * count,
    uint16_t * newid, CipBlobsRecord * record, Select s)
{
  for (int l = blockIdx.x * blockDim.x + threadIdx.x; l <= CAP;
      l += gridDim.x * blockDim.x) {
    const int id = s.keep[l] ? s.rank[l] + 1 : 0;
    newid[l] = (uint16_t) id;
    if (id >= 1 && id <= CIP_BLOBS_REPORT_MAX)
      record->blob[id - 1] = stats[l];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const uint32_t kept = (uint32_t) (s.rank[CAP] + s.keep[CAP]);
    record->total = *count;
    record->kept = kept;
    record->described = min (kept, (uint32_t) CIP_BLOBS_REPORT_MAX);
    record->pad = 0;
  }
}

__global__ void
relabel_kernel (const int32_t * labels, int lpitch, int w, int h,
    const uint16_t * newid, uint16_t * out, int opitch)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y *
      blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int l = *(const int32_t *) ((const char *) labels + (size_t) y *
      lpitch + (size_t) x * 4);
  *(uint16_t *) ((char *) out + (size_t) y * opitch + (size_t) x * 2) =
      l > CAP ? (uint16_t) CAP : newid[l];
}

}                               /* namespace */

extern "C" size_t
cip_blobs_select_scratch_size (void)
{
  Select s;
  size_t total;
  return select_layout (nullptr, &s, &total) ? total : 0;
}

extern "C" cudaError_t
cip_blobs_select (const CipBlobStats * stats, const uint32_t * d_count,
    uint32_t min_area, uint32_t max_blobs, uint16_t * newid,
    CipBlobsRecord * record, void *scratch, size_t scratch_size,
    cudaStream_t stream)
{
  Select s;
  size_t total;
  cudaError_t err;

  if (!select_layout (scratch, &s, &total) || scratch_size < total)
    return cudaErrorInvalidValue;
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  const bool limit = max_blobs > 0 && max_blobs < (uint32_t) CAP;
  const int blocks = (CAP + 1 + 255) / 256;
  keep_kernel <<< blocks, 256, 0, stream >>> (stats, d_count, min_area,
      limit, s);
  if (limit) {
    err = cub::DeviceRadixSort::SortKeys (s.temp, s.temp_bytes, s.keys,
        s.sorted, CAP, 0, 64, stream);
    if (err != cudaSuccess)
      return err;
    largest_kernel <<< (max_blobs + 255) / 256, 256, 0, stream >>>
        (max_blobs, s);
  }
  err = cub::DeviceScan::ExclusiveSum (s.temp, s.temp_bytes, s.keep, s.rank,
      CAP + 1, stream);
  if (err != cudaSuccess)
    return err;
  number_kernel <<< blocks, 256, 0, stream >>> (stats, d_count, newid,
      record, s);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_blobs_relabel (const int32_t * labels, int labels_pitch, int width,
    int height, const uint16_t * newid, uint16_t * out, int out_pitch,
    cudaStream_t stream)
{
  if (width < 1 || height < 1)
    return cudaErrorInvalidValue;
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  const dim3 block (32, 8), grid ((width + 31) / 32, (height + 7) / 8);
  relabel_kernel <<< grid, block, 0, stream >>> (labels, labels_pitch,
      width, height, newid, out, out_pitch);
  return cudaGetLastError ();
}

/* cudaimgproc: connected components with OpenCV's numbering (blobs.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "blobs.h"

#include <climits>
#include <cstddef>
#include "cip_block.cuh"
#include "cip_pointwise.cuh"
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

namespace {

/* The union-find's nodes: pairs of a row's pixels at 4-connectivity, 2x2
 * blocks at 8 (Allegretti, Bolelli, Grana 2019: the foreground pixels of
 * a block are all 8-adjacent, so a block is one node, and a quarter as
 * many; two foreground pixels side by side are 4-adjacent, so a pair is
 * one, and half as many).  Nodes are numbered in raster order of the node
 * grid, and a union always hangs the larger root under the smaller, so a
 * component's root is its first node: at 4-connectivity the pair of its
 * first pixel in raster order, at 8 the first 2x2 block in OpenCV's block
 * scan (bands of two rows, blocks left to right), whose first foreground
 * pixel is the component's first in that scan.  So labels in OpenCV's
 * order are the roots' ranks by index.
 *
 * A tile: TW x TH nodes, one thread block of the local pass.  Components
 * are first found inside each tile in shared memory; only nodes on a
 * tile's border then join across it in global memory, so the global
 * union-find sees one root per piece of a component in a tile, and the
 * passes after the unions walk a list of those pieces, not the frame. */
constexpr int TW = 32, TH = 16, TN = TW * TH;

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

/* Per node only its tile root; the rest per piece or per root. */
struct Scratch
{
  int nw, nh;                   /* the node grid */
  int *parent;                  /* a node's tile root (-1: background); a
                                 * tile root's parent, then (assign_kernel)
                                 * -1 - its component's label */
  int *pieces;                  /* the tile roots, npieces of them */
  unsigned *npieces;
  unsigned *bits;               /* the roots, a bit a node */
  int nwords;
  int *wordpre;                 /* set bits in the words of bits before
                                 * each */
  void *cub_temp;
  size_t cub_bytes;
};

__device__ __forceinline__ bool
fg_at (const uint8_t * mask, int pitch, int w, int h, int x, int y)
{
  return x >= 0 && y >= 0 && x < w && y < h && mask[(size_t) y * pitch + x];
}

/* Node (@nx, @ny)'s links to the nodes before it in raster order: bit 0
 * left, 1 up, 2 upper left, 3 upper right; bit 4: the node is foreground.
 *
 * A pair of pixels a b (4-connectivity) links to the pair on its left
 * through a and that pair's right pixel l, to the pair above (ua ub)
 * through a and ua or b and ub.  The upper link is left out where the left
 * link is made and the upper left pixel and ua are foreground (by
 * induction along the row, the left pair is joined to the upper left
 * pair, which joins the upper one through l's upper neighbour and ua).
 *
 * A block (8-connectivity) of pixels a b / c d links to the block on its
 * left through a or c and that block's b or d, to the block above (T)
 * through a or b and T's c or d, to the upper left one through a and its
 * d, to the upper right one through b and its c.  A diagonal link is left
 * out where the block links up and T links to that diagonal block itself:
 * T links left when its a or c is set (the upper left block's d is), and
 * the upper right block links to T when T's b or d is (its c is).  On
 * solid regions that leaves a block two links, one of them its row's. */
template < bool EIGHT > __device__ __forceinline__ unsigned
links (const uint8_t * mask, int pitch, int w, int h, int nx, int ny)
{
  if (!EIGHT) {
    const int x = 2 * nx;
    const bool a = fg_at (mask, pitch, w, h, x, ny);
    const bool b = fg_at (mask, pitch, w, h, x + 1, ny);
    if (!(a || b))
      return 0;
    const bool ua = fg_at (mask, pitch, w, h, x, ny - 1);
    const bool l = a && fg_at (mask, pitch, w, h, x - 1, ny);
    const bool u = (a && ua) || (b && fg_at (mask, pitch, w, h, x + 1,
            ny - 1));
    const bool skip_u = l && ua && fg_at (mask, pitch, w, h, x - 1, ny - 1);
    return 16u | (l ? 1u : 0u) | (u && !skip_u ? 2u : 0u);
  }
  const int x = 2 * nx, y = 2 * ny;
  const bool a = fg_at (mask, pitch, w, h, x, y);
  const bool b = fg_at (mask, pitch, w, h, x + 1, y);
  const bool c = fg_at (mask, pitch, w, h, x, y + 1);
  const bool d = fg_at (mask, pitch, w, h, x + 1, y + 1);
  if (!(a || b || c || d))
    return 0;
  unsigned m = 16u;
  if ((a || c) && (fg_at (mask, pitch, w, h, x - 1, y) ||
          fg_at (mask, pitch, w, h, x - 1, y + 1)))
    m |= 1u;
  const bool tc = fg_at (mask, pitch, w, h, x, y - 1);
  const bool td = fg_at (mask, pitch, w, h, x + 1, y - 1);
  const bool up = (a || b) && (tc || td);
  if (up)
    m |= 2u;
  if (a && fg_at (mask, pitch, w, h, x - 1, y - 1) &&
      !(up && (tc || fg_at (mask, pitch, w, h, x, y - 2))))
    m |= 4u;
  if (b && fg_at (mask, pitch, w, h, x + 2, y - 1) &&
      !(up && (td || fg_at (mask, pitch, w, h, x + 1, y - 2))))
    m |= 8u;
  return m;
}

__device__ __forceinline__ void
link_offset (unsigned bit, int &dx, int &dy)
{
  dx = bit == 0 ? -1 : bit == 1 ? 0 : bit == 2 ? -1 : 1;
  dy = bit == 0 ? 0 : -1;
}

/* Labels each tile alone in shared memory; each node's parent is its
 * tile root's frame index (the tile's first node of the piece in raster
 * order, so parent <= index holds in the frame too).  Tile roots join the
 * list of pieces (a warp is a tile row: at 8-connectivity one atomic a
 * row, at 4 one a tile). */
template < bool EIGHT > __global__ void __launch_bounds__ (TN)
local_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s)
{
  __shared__ int sp[TN];
  const int tx = threadIdx.x, ty = threadIdx.y, li = ty * TW + tx;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int nx = x0 + tx, ny = y0 + ty;
  const bool in = nx < s.nw && ny < s.nh;
  const unsigned m = in ? links < EIGHT > (mask, pitch, w, h, nx, ny) : 0u;
  const bool fg = m & 16u;
  const int i = ny * s.nw + nx;

  /* a row's runs straight to their first node: lanes linked to their
   * left neighbour (inside the tile) continue a run */
  const unsigned joined = __ballot_sync (0xffffffffu, tx > 0 && (m & 1u));
  const unsigned starts = ~joined & ((2u << tx) - 1u);
  sp[li] = fg ? ty * TW + 31 - __clz (starts) : -1;
  __syncthreads ();
  if (fg) {
    for (unsigned bit = 1, r = (m >> 1) & 7u; r; bit++, r >>= 1) {
      int dx, dy;
      link_offset (bit, dx, dy);
      if ((r & 1u) && tx + dx >= 0 && tx + dx < TW && ty + dy >= 0)
        unite < false > (sp, li, li + dy * TW + dx);
    }
  }
  __syncthreads ();
  const int r = fg ? find_root < false > (sp, li) : -1;
  const bool root = fg && r == li;
  if (in)
    s.parent[i] = fg ? (y0 + r / TW) * s.nw + x0 + r % TW : -1;
  const unsigned roots = __ballot_sync (0xffffffffu, root);
  if (EIGHT) {
    /* one atomic a warp with roots */
    if (roots) {
      const int lead = __ffs (roots) - 1;
      unsigned at = 0;
      if (tx == lead)
        at = atomicAdd (s.npieces, (unsigned) __popc (roots));
      at = __shfl_sync (0xffffffffu, at, lead);
      if (root)
        s.pieces[at + __popc (roots & ((1u << tx) - 1u))] = i;
    }
    return;
  }
  /* At 4-connectivity one atomic a block: with one a warp, 4K noise's
   * 130 000 warps queued on the one counter (about one atomic a ns, what
   * one L2 address takes), and 4K noise took 252 us against 237, the
   * photo 147 against 119.  At 8, half the tiles and, on noise, a
   * twentieth of the components: the two barriers cost more than they
   * saved (4K photo 119.5 against 115.7 us).  Warp 0 sums the rows'
   * counts (a scan by shuffles) and takes the block's places. */
  static_assert (TW == 32 && TH <= 32, "a tile row is a warp");
  __shared__ unsigned row_at[TH];
  if (tx == 0)
    row_at[ty] = __popc (roots);
  __syncthreads ();
  if (ty == 0) {
    const unsigned n = tx < TH ? row_at[tx] : 0u;
    unsigned incl = n;
    for (int o = 1; o < TH; o <<= 1) {
      const unsigned v = __shfl_up_sync (0xffffffffu, incl, o);
      if (tx >= o)
        incl += v;
    }
    unsigned at = 0;
    if (tx == TH - 1 && incl)
      at = atomicAdd (s.npieces, incl);
    at = __shfl_sync (0xffffffffu, at, TH - 1);
    if (tx < TH)
      row_at[tx] = at + incl - n;
  }
  __syncthreads ();
  if (root)
    s.pieces[row_at[ty] + __popc (roots & ((1u << tx) - 1u))] = i;
}

/* The unions across tile borders, made by the node after the border in
 * raster order: a tile's top row, left column and (for the upper right
 * link) right column, TW + 2 (TH - 1) threads a tile. */
template < bool EIGHT > __global__ void
border_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s)
{
  const int t = threadIdx.x;

  /* launched overlapped: local_kernel's parents after this */
  cip::wait_for_previous ();
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
  const int nx = blockIdx.x * TW + tx, ny = blockIdx.y * TH + ty;
  if (nx >= s.nw || ny >= s.nh)
    return;
  const unsigned m = links < EIGHT > (mask, pitch, w, h, nx, ny);
  for (unsigned bit = 0, r = m & 15u; r; bit++, r >>= 1) {
    int dx, dy;
    link_offset (bit, dx, dy);
    if ((r & 1u) && (tx + dx < 0 || tx + dx >= TW || ty + dy < 0))
      unite < true > (s.parent, ny * s.nw + nx, (ny + dy) * s.nw + nx + dx);
  }
}

/* The passes over the pieces: a grid of a fixed size strides through
 * the list, whose length only the device knows. */
constexpr int LIST_THREADS = 256;

/* Each piece's tile root straight to its component's root, and each root
 * a bit.  A thread writes only its own tile root's parent, with the true
 * root, so a walk that passes it reads an ancestor either way. */
__global__ void __launch_bounds__ (LIST_THREADS)
roots_kernel (Scratch s)
{
  cip::wait_for_previous ();    /* border_kernel's unions */
  const unsigned n = *s.npieces;
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
      k += gridDim.x * blockDim.x) {
    const int t = s.pieces[k];
    const int r = find_root < false > (s.parent, t);
    if (r != t)
      s.parent[t] = r;
    else
      atomicOr (&s.bits[t >> 5], 1u << (t & 31));
  }
}

/* A word's set bits, read by the scan itself (no pass of its own) */
struct WordBits
{
  __host__ __device__ int operator() (unsigned v) const
  {
#ifdef __CUDA_ARCH__
    return __popc (v);
#else
    return __builtin_popcount (v);
#endif
  }
};

using BitCounts = thrust::transform_iterator < WordBits, const unsigned *>;

/* Each piece's label: its root's, the roots before it plus one, as
 * -1 - label in the piece's parent (which only this thread reads here);
 * and the number of components to @count.
 * Per piece, not per root, so that the labelling pass reads a node's label
 * one load after its tile root, not two; in the parents, not an array of
 * their own, so that the load is of a line the tile's nodes brought in
 * (in an array of its own, 4K 4-conn photo took 9 us longer). */
__global__ void __launch_bounds__ (LIST_THREADS)
assign_kernel (Scratch s, uint32_t * count)
{
  cip::wait_for_previous ();    /* the scan */
  const unsigned n = *s.npieces;
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *count = (uint32_t) (s.wordpre[s.nwords - 1] +
        __popc (s.bits[s.nwords - 1]));
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
      k += gridDim.x * blockDim.x) {
    const int t = s.pieces[k], r = s.parent[t];  /* roots_kernel's root */
    s.parent[t] = -2 - s.wordpre[r >> 5] -
        __popc (s.bits[r >> 5] & ((1u << (r & 31)) - 1u));
  }
}

/* the entries of the components found (at most @max_stats), after
 * assign_kernel: a frame of few components initializes few.  As 8-byte
 * words side by side in a warp: a thread an entry, seven stores 40 bytes
 * apart, took 35 us for 4K noise's 545 057 entries (partial sectors). */
static_assert (sizeof (CipBlobStats) == 40 &&
    offsetof (CipBlobStats, left) == 0 && offsetof (CipBlobStats, top) == 4 &&
    offsetof (CipBlobStats, right) == 8 &&
    offsetof (CipBlobStats, bottom) == 12 &&
    offsetof (CipBlobStats, area) == 16, "CipBlobStats' layout");
__global__ void
init_stats_kernel (CipBlobStats * stats, const uint32_t * count,
    uint32_t max_stats)
{
  cip::wait_for_previous ();    /* assign_kernel's count */
  const size_t words = (size_t) min (*count, max_stats) * 5;
  unsigned long long *w = (unsigned long long *) (stats + 1);
  for (size_t k = blockIdx.x * blockDim.x + threadIdx.x; k < words;
      k += gridDim.x * blockDim.x) {
    const unsigned f = (unsigned) (k % 5);
    /* left, top INT_MAX; right, bottom -1; area, pad, the sums 0 */
    w[k] = f == 0 ? 0x7fffffff7fffffffull : f == 1 ? ~0ull : 0ull;
  }
}

/* Tile rows a labelling block walks down: its statistics are summed in
 * shared memory over a 32 x 256 strip before they go to global memory. */
constexpr int STRIP = 16, HS = 1024, PROBES = 16;

/* A label's sums in a block: a shared hash table of HS slots, and global
 * memory for a label that finds no slot in PROBES tries.  The coordinate
 * sums relative to the strip's first column and row (@x0, @y0), in 32
 * bits: a strip has 32 x 256 pixels, so they stay below 2^21, and a
 * 32-bit shared atomic is one instruction where a 64-bit add is a loop
 * of compare-and-swaps. */
struct Table
{
  int *key, *sl, *st, *sr, *sb;
  unsigned *sa, *sx, *sy;
  int x0, y0;
};

/* Adds a run of @n pixels of label @l (x @left to @right, rows @top to
 * @bottom, coordinate sums @gx, @gy relative to the strip's origin) to the
 * table. */
__device__ void
table_add (const Table & t, CipBlobStats * stats, int l, int left,
    int right, int top, int bottom, unsigned n, unsigned gx, unsigned gy)
{
  int slot = -1;
  for (int k = 0, hs = (int) (((unsigned) l * 2654435761u) >> 22);
      k < PROBES; k++, hs = (hs + 1) & (HS - 1)) {
    const int old = atomicCAS (&t.key[hs], 0, l);
    if (old == 0 || old == l) {
      slot = hs;
      break;
    }
  }
  if (slot >= 0) {
    atomicMin (&t.sl[slot], left);
    atomicMax (&t.sr[slot], right);
    atomicMin (&t.st[slot], top);
    atomicMax (&t.sb[slot], bottom);
    atomicAdd (&t.sa[slot], n);
    atomicAdd (&t.sx[slot], gx);
    atomicAdd (&t.sy[slot], gy);
  } else {
    CipBlobStats *b = &stats[l];
    atomicMin (&b->left, left);
    atomicMax (&b->right, right);
    atomicMin (&b->top, top);
    atomicMax (&b->bottom, bottom);
    atomicAdd (&b->area, n);
    atomicAdd (&b->sum_x, gx + (unsigned long long) n * t.x0);
    atomicAdd (&b->sum_y, gy + (unsigned long long) n * t.y0);
  }
}

/* Labels out.  With @stats, a block sums its strip's pixels per label in a
 * shared hash table first, then adds each label's sums to its entry once:
 * a component covering the frame takes a few thousand global atomics on
 * its entry, not one a tile or a warp (same-address atomics serialize).
 * A warp is a row segment walking down the strip, its lanes in x order,
 * so a label's lowest and highest lane give its extent in a row.  The
 * label of a warp's first counted lane is summed in the warp's registers
 * from row to row until it changes: a large component's pixels reach the
 * table about once a warp, not once a row by every warp of the block on
 * the same slot (that serialized, and was most of the kernel's time).
 * At 4-connectivity only from the label's second row on: on noise the
 * label changes every row, and its flush by one lane added a table entry
 * a row (4K 4-conn noise 451 against 436 us), where at 8 the sum from its
 * first row saved the photo 2 us at 1080p (59.5 against 61.8).
 * The other labels of a row go to the table directly, each by one lane.
 * As many blocks an SM as it holds: four where it holds 2048 threads (32
 * registers). */
template < bool EIGHT > __global__ void
__launch_bounds__ (TN, CIP_SM_THREADS / TN)
label_kernel (const uint8_t * mask, int pitch, int w, int h, Scratch s,
    int32_t * labels, int lpitch, CipBlobStats * stats, uint32_t max_stats)
{
  __shared__ int key[HS], sl[HS], st[HS], sr[HS], sb[HS];
  __shared__ unsigned sa[HS];
  __shared__ unsigned sx[HS], sy[HS];
  const int sy0 = blockIdx.y * STRIP * TH, x0 = blockIdx.x * TW;
  const Table t = { key, sl, st, sr, sb, sa, sx, sy, x0, sy0 };
  const int tx = threadIdx.x, li = threadIdx.y * TW + tx, x = x0 + tx;
  /* the warp's running label and its sums (the same in every lane) */
  int al = 0, aleft = 0, aright = 0, atop = 0, abottom = 0;
  unsigned an = 0;
  unsigned asx = 0, asy = 0;  /* relative to the strip's origin */

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
  /* launched overlapped (init_stats_kernel's entries, or assign_kernel's
   * pieces' labels, after this): this block's table zeroed before */
  cip::wait_for_previous ();
  __syncthreads ();
  /* A pixel's node's parent: a tile root (its own or, after path halving
   * in the unions, an ancestor's), which holds its component's label, or
   * at a tile root the label itself; -1 for a background pixel (a node's
   * background pixels are not its).  Loaded a row ahead, so that the next
   * row's loads are in flight while this row's statistics are summed. */
  const auto node_parent = [&](int y) {
    return x < w && y < h && mask[(size_t) y * pitch + x] ?
        s.parent[(EIGHT ? y >> 1 : y) * s.nw + (x >> 1)] : -1;
  };
  int next = node_parent (sy0 + threadIdx.y);
  for (int r = 0; r < STRIP; r++) {
    const int y = (blockIdx.y * STRIP + r) * TH + threadIdx.y;
    const bool in = x < w && y < h;
    int l = 0, p = next;
    if (r + 1 < STRIP)
      next = node_parent (y + TH);
    if (in) {
      if (p >= 0)
        p = s.parent[p];
      l = p < -1 ? -1 - p : 0;
      *(int32_t *) ((char *) labels + (size_t) y * lpitch + (size_t) x * 4) =
          l;
    }
    if (!stats)
      continue;
    const bool counted = l > 0 && (uint32_t) l <= max_stats;
    unsigned active = __ballot_sync (0xffffffffu, counted);
    if (!active)
      continue;
    /* the running label: the first counted lane's (at 4-connectivity
     * summed from its second row on: a label that changes every row, as
     * in noise, goes to the table as the others do, not twice) */
    const int first = __shfl_sync (0xffffffffu, l, __ffs (active) - 1);
    bool run = true;
    if (first != al) {
      if (an && tx == 0)
        table_add (t, stats, al, aleft, aright, atop, abottom, an, asx, asy);
      al = first;
      an = 0;
      run = EIGHT;
    }
    if (run) {
      const unsigned same = __ballot_sync (0xffffffffu, counted && l == al);
      const unsigned n = __popc (same);
      if (!an) {
        aleft = INT_MAX;
        aright = -1;
        atop = y;
        asx = asy = 0;
      }
      an += n;
      aleft = min (aleft, x0 + __ffs (same) - 1);
      aright = max (aright, x0 + 31 - __clz (same));
      abottom = y;
      asx += cip::index_sum (same);
      asy += n * (unsigned) (y - sy0);
      active &= ~same;
    }
    if (!active || !(active >> tx & 1u))
      continue;
    const unsigned group = __match_any_sync (active, l);
    if (tx != __ffs (group) - 1)
      continue;
    const int gn = __popc (group), last = 31 - __clz (group);
    table_add (t, stats, l, x, x + last - tx, y, y, (unsigned) gn,
        cip::index_sum (group), gn * (unsigned) (y - sy0));
  }
  if (!stats)
    return;
  if (an && tx == 0)
    table_add (t, stats, al, aleft, aright, atop, abottom, an, asx, asy);
  __syncthreads ();
  for (int k = li; k < HS; k += TN)
    if (key[k]) {
      CipBlobStats *b = &stats[key[k]];
      atomicMin (&b->left, sl[k]);
      atomicMax (&b->right, sr[k]);
      atomicMin (&b->top, st[k]);
      atomicMax (&b->bottom, sb[k]);
      atomicAdd (&b->area, sa[k]);
      atomicAdd (&b->sum_x, sx[k] + (unsigned long long) sa[k] * t.x0);
      atomicAdd (&b->sum_y, sy[k] + (unsigned long long) sa[k] * sy0);
    }
}

size_t
align256 (size_t n)
{
  return (n + 255) & ~(size_t) 255;
}

/* The layout of the scratch, for either connectivity (the pairs' node
 * grid, the larger); false if too large. */
bool
layout (int width, int height, void *base, Scratch * s, size_t *total)
{
  size_t n, arr, warr, cub_bytes = 0;

  if (width < 1 || height < 1 || (size_t) width * height > INT_MAX / 2)
    return false;
  n = (size_t) ((width + 1) / 2) * height;
  s->nwords = (int) ((n + 31) / 32);
  arr = align256 (n * sizeof (int));
  warr = align256 ((size_t) s->nwords * sizeof (int));
  if (cub::DeviceScan::ExclusiveSum (nullptr, cub_bytes,
          BitCounts (nullptr, WordBits ()), (int *) nullptr,
          s->nwords) != cudaSuccess)
    return false;
  char *p = (char *) base;
  s->parent = (int *) p;
  s->pieces = (int *) (p + arr);
  s->bits = (unsigned *) (p + 2 * arr);
  s->wordpre = (int *) (p + 2 * arr + warr);
  s->npieces = (unsigned *) (p + 2 * arr + 2 * warr);
  s->cub_temp = p + 2 * arr + 2 * warr + 256;
  s->cub_bytes = cub_bytes;
  *total = 2 * arr + 2 * warr + 256 + align256 (cub_bytes);
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
  /* the node grid, and the bits of its nodes (the layout's are for the
   * pairs, the larger) */
  s.nw = (width + 1) / 2;
  s.nh = eight ? (height + 1) / 2 : height;
  s.nwords = (int) (((size_t) s.nw * s.nh + 31) / 32);
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  const dim3 block (TW, TH), nodes ((s.nw + TW - 1) / TW,
      (s.nh + TH - 1) / TH);
  /* the list of pieces and the roots' bits start empty */
  cudaError_t err = cudaMemsetAsync (s.npieces, 0, sizeof (unsigned), stream);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (s.bits, 0, (size_t) s.nwords * sizeof (unsigned),
        stream);
  if (err != cudaSuccess)
    return err;
  /* Each kernel after local_kernel launched overlapped
   * (cip::launch_overlapped), but no kernel lets the next one launch early
   * (no dependents_may_launch): the next one launches as the last block of
   * the one before leaves, not after its end is flushed, and it waits
   * (wait_for_previous) before it reads that one's output.  That saved
   * 1-2 us a frame (4K 4-conn noise 253.4 against 254.7).  Launched as
   * soon as the one before starts, its blocks took the SMs' slots from
   * the long list and labelling passes and lost noise 8-13 us
   * (docs/notes/blobs.md).  The scan's kernels, cub's, are plain
   * launches. */
  if (eight) {
    local_kernel < true > <<< nodes, block, 0, stream >>> (mask, mask_pitch,
        width, height, s);
    err = cip::launch_overlapped (border_kernel < true >, nodes, 64, stream,
        mask, mask_pitch, width, height, s);
  } else {
    local_kernel < false > <<< nodes, block, 0, stream >>> (mask, mask_pitch,
        width, height, s);
    err = cip::launch_overlapped (border_kernel < false >, nodes, 64, stream,
        mask, mask_pitch, width, height, s);
  }
  if (err == cudaSuccess)
    err = cudaGetLastError ();  /* local_kernel's launch */
  const dim3 list_grid (cip::sm_count () * 8);
  if (err == cudaSuccess)
    err = cip::launch_overlapped (roots_kernel, list_grid, LIST_THREADS,
        stream, s);
  if (err == cudaSuccess)
    err = cub::DeviceScan::ExclusiveSum (s.cub_temp, s.cub_bytes,
        BitCounts (s.bits, WordBits ()), s.wordpre, s.nwords, stream);
  if (err == cudaSuccess)
    err = cip::launch_overlapped (assign_kernel, list_grid, LIST_THREADS,
        stream, s, d_count);
  if (err == cudaSuccess && stats && max_stats)
    err = cip::launch_overlapped (init_stats_kernel, 256, 256, stream, stats,
        (const uint32_t *) d_count, max_stats);
  if (err != cudaSuccess)
    return err;
  const dim3 strips ((width + TW - 1) / TW,
      ((height + TH - 1) / TH + STRIP - 1) / STRIP);
  CipBlobStats *st = stats && max_stats ? stats : nullptr;
  if (eight)
    return cip::launch_overlapped (label_kernel < true >, strips, block,
        stream, mask, mask_pitch, width, height, s, labels, labels_pitch, st,
        max_stats);
  return cip::launch_overlapped (label_kernel < false >, strips, block,
      stream, mask, mask_pitch, width, height, s, labels, labels_pitch, st,
      max_stats);
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

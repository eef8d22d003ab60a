/* cudaimgproc: device-side building block: 256-bin histogram of a pitched
 * 8-bit plane.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Contention is what makes a histogram slow: lanes of one atomic
 * instruction that add to the same shared-memory word serialize, and a frame
 * of one value (or a smooth photo, whose neighbouring pixels share values)
 * is the worst case.  So each block keeps 32 columns of counters, one per
 * lane index, laid out [bin][lane]: the lanes of an instruction always hit
 * 32 different banks, whatever the pixels; only warps contend, and they are
 * different instructions.  A lane reads 32 pixels (two 16-byte loads) and
 * counts them one by one.  Each block then sums its columns and adds its
 * non-zero bins to one of HIST_COPIES copies of the frame's histogram in
 * global memory (integer atomics: the result does not depend on order).
 *
 * The last block to finish runs an epilogue on the complete histogram (for
 * cudaotsu, choosing the threshold), which saves a launch.  A second pass
 * over the frame may follow in the same launch (for cudaotsu, binarizing
 * with that threshold): the blocks then wait for the epilogue, so the
 * launch must be cooperative (all blocks resident at once), and each block
 * maps the pixels it counted, most still in registers.
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "cip_cooperative.cuh"
#include "cip_pointwise.cuh"

namespace cip {

/* Two blocks an SM, each with its own counters: with four of 256 threads,
 * zeroing and summing four sets of counters took as much shared memory
 * bandwidth as half the counting (a histogram-only prototype on an H200:
 * 4.6 against 4.0 us for 3072 x 2160; one block of 1024 threads, 4.3). */
constexpr int HIST_THREADS = 512, HIST_BLOCKS_PER_SM = 2;

/* The epilogue runs in the last block's first 256 threads, one a bin. */
constexpr int HIST_EPI_THREADS = 256;

/* The epilogue returns, in its thread 0, the value the pass needs; it
 * synchronises its HIST_EPI_THREADS threads by block_barrier, not
 * __syncthreads (the block's other threads are not in it). */
struct NoEpilogue
{
  __device__ uint32_t operator() (uint32_t *) const
  {
    return 0;
  }
};

struct Piece;

/* The second pass: PASS false, none.  Otherwise begin (value) runs in
 * every thread once the epilogue is done, with what its thread 0 returned,
 * and returns a state for piece<VEC> (state, pieces, h, v): piece h of
 * the pair, given its pixels v where VEC and whole.
 *
 * SPECULATE: while the epilogue runs, the blocks already run the pass on
 * the whole pieces they hold in registers with a guess, the value of the
 * launch before; once the real value is known, redo<VEC> (guess, real,
 * pieces, h, v) mends each of those pieces (same (guess, real): nothing
 * to mend).  The time of the epilogue and its hand-over is the pass's
 * when the value holds from launch to launch (steady video). */
struct NoPass
{
  static constexpr bool PASS = false, SPECULATE = false;
  __device__ int begin (uint32_t) const
  {
    return 0;
  }
  __device__ bool same (int, int) const
  {
    return true;
  }
  template <bool VEC>
  __device__ void piece (int, const Piece &, int, const uint4 &) const
  {
  }
  template <bool VEC>
  __device__ void redo (int, int, const Piece &, int, const uint4 &) const
  {
  }
};

/* Adds one to the shared counter at @addr (a shared-memory address). */
__device__ __forceinline__ void
shared_inc (uint32_t addr)
{
  asm volatile ("red.shared.add.u32 [%0], 1;"::"r" (addr):"memory");
}

/* The shared-memory address of @col, opaque to the compiler: given
 * col[byte * 32], it merged the lane into the index and took five
 * instructions a pixel with the atomic (SASS, 4K histogram); from this
 * address a pixel is a PRMT (its byte), a LEA and the atomic. */
__device__ __forceinline__ uint32_t
column_address (const uint32_t * col)
{
  uint32_t a = (uint32_t) __cvta_generic_to_shared (col);
  asm ("":"+r" (a));
  return a;
}

/* Counts 16 pixels (a 16-byte word) into this lane's column, at shared
 * address @col (column_address).  Straight-line atomics: adding runs of
 * equal pixels at once saves atomics on smooth content but costs more in
 * divergence (measured on an H200: 12.7 against 9.2 us for a 4K photo). */
__device__ __forceinline__ void
hist_add16 (uint32_t col, const uint4 & v)
{
  const uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int k = 0; k < 16; k++)
    shared_inc (col + (__byte_perm (w[k >> 2], 0, 0x4440 | (k & 3)) << 7));
}

/* The unit of work: a warp takes a group of 1024 pixels of a row, each lane
 * two 16-pixel pieces 512 apart, so that each 16-byte load or store of the
 * warp is 512 contiguous bytes (whole 32-byte sectors: with 32 pixels side
 * by side a lane, each instruction wrote half-sectors, twice the L2
 * requests).  Pieces past the row's end are short or empty; a whole piece
 * of an aligned plane (VEC) is one 16-byte access. */
constexpr int HIST_GROUP = 1024;

/* Groups a frame may have: Share counts them in an int.  A frame of 2 T
 * pixels. */
constexpr long long HIST_MAX_GROUPS = 1LL << 31;

/* Blocks a launch may have: Share's products within 32 bits. */
constexpr int HIST_MAX_GRID = 4096;

static inline bool
histogram_size_ok (int width, int height)
{
  return width > 0 && height > 0 &&
      (long long) ((width + HIST_GROUP - 1) / HIST_GROUP) * height <
      HIST_MAX_GROUPS;
}

struct Piece
{
  const uint8_t *p;             /* the first piece; the second is p + 512 */
  int x, y, n0, n1;             /* pixels in each piece, 0..16 */

  /* @g below HIST_MAX_GROUPS: 32-bit division (64-bit is a long
   * subroutine, as costly as counting a piece) */
  __device__ __forceinline__ Piece (const uint8_t * src, int pitch,
      int width, int groups, int g)
  {
    y = (unsigned) g / (unsigned) groups;
    x = (g - y * groups) * HIST_GROUP + (threadIdx.x & 31) * 16;
    n0 = min (16, max (0, width - x));
    n1 = min (16, max (0, width - x - 512));
    p = src + (size_t) y * pitch + x;
  }
  __device__ __forceinline__ int n (int h) const
  {
    return h ? n1 : n0;
  }
  /* piece @h is one 16-byte access: VEC and all 16 pixels in the row */
  template <bool VEC>
  __device__ __forceinline__ bool whole (int h) const
  {
    return VEC && n (h) == 16;
  }
  /* Loads both pieces into @v, each where VEC and the piece is whole (the
   * only pieces read as 16 bytes; the others are read byte by byte where
   * used). */
  template <bool VEC>
  __device__ __forceinline__ void load (uint4 (&v)[2]) const
  {
#pragma unroll
    for (int h = 0; h < 2; h++)
      if (whole<VEC> (h))
        v[h] = __ldg (reinterpret_cast<const uint4 *>(p + h * 512));
  }
};

/* How the launch's warps share a frame's groups: each takes the same
 * number of them (first, first + stride, ... below end), and the groups
 * left over go one each to warps spread evenly over the grid (extra).
 * Given to the first warps, they fell to whichever SMs held the first
 * blocks: at 4K one SM held 3 of those 24 blocks and finished its
 * histogram 0.9 us after the others (per-block %globaltimer stamps on an
 * H200).  Cutting them into lane units instead costs every warp as many
 * atomic instructions as a whole group, however few lanes are active. */
struct Share
{
  int first, stride, end;
  int extra;                    /* this warp's left-over group, or -1 */

  /* @total: below HIST_MAX_GROUPS; gridDim.x at most HIST_MAX_GRID */
  __device__ __forceinline__ Share (int total)
  {
    constexpr int WARPS = HIST_THREADS / 32;
    first = blockIdx.x * WARPS + threadIdx.x / 32;
    stride = gridDim.x * WARPS;
    end = total > stride ? (unsigned) total / stride * stride : total;
    extra = -1;
    /* left-over group j goes to warp j stride / left (j stride below
     * stride^2, below 2^32) */
    const unsigned left = total - end;
    if (left) {
      const unsigned j = (first * left + stride - 1) / stride;
      if (j < left && j * stride / left == (unsigned) first)
        extra = end + j;
    }
  }
};

/* Groups a warp loads before counting any, and keeps in registers for the
 * pass: at 4K, 2 is all a warp has (then the pass reads nothing). */
constexpr int HIST_KEEP = 2;

/* @sync: the block counter, then HIST_FLAG_LINES flags, a 128-byte line
 * each.  A flag is 64 bits: a count of events (high half: each epilogue
 * run, and where the pass speculates, each time every block had arrived
 * before it) and the value the last epilogue returned (low half), so that
 * one load tells a block both that it may go on and with what.  One line
 * polled by every block delayed the news by up to a microsecond: the polls
 * queue on its L2 slice. */
constexpr int HIST_FLAG_LINES = 8;
constexpr int HIST_SYNC_WORDS = 32 * (1 + HIST_FLAG_LINES);

__device__ __forceinline__ unsigned long long *
hist_flag (unsigned *sync, int b)
{
  return reinterpret_cast<unsigned long long *>(sync + 32 * (1 +
          b % HIST_FLAG_LINES));
}

/* Writes every flag: @events in the high half, @low in the low one. */
__device__ __forceinline__ void
hist_set_flags (unsigned *sync, unsigned events, uint32_t low)
{
#pragma unroll
  for (int f = 0; f < HIST_FLAG_LINES; f++)
    *(volatile unsigned long long *) hist_flag (sync, f) =
        (unsigned long long) events << 32 | low;
}

__device__ __forceinline__ unsigned
sm_id ()
{
  unsigned id;
  asm volatile ("mov.u32 %0, %%smid;" : "=r" (id));
  return id;
}

/* Copies of the frame's histogram in global memory, summed by the
 * epilogue: with one, every block adding its 256 bins to the same 8 L2
 * lines took 3.5 us at 4K (blocks queue on a few L2 slices). */
constexpr int HIST_COPIES = 16;

/* For the epilogue, one thread a bin: bin @b's count over all copies,
 * which it zeroes for the next frame. */
__device__ __forceinline__ uint32_t
hist_take (uint32_t * hist, int b)
{
  uint32_t v[HIST_COPIES], s = 0;
#pragma unroll
  for (int c = 0; c < HIST_COPIES; c++)
    v[c] = __ldcg (&hist[c * 256 + b]); /* other blocks' atomics: L2 */
#pragma unroll
  for (int c = 0; c < HIST_COPIES; c++) {
    s += v[c];
    hist[c * 256 + b] = 0;
  }
  return s;
}

/* Calls @f (pieces, h, pixels, kept) for both pieces of each group of
 * this warp (Share) in turn: the first HIST_KEEP groups' pixels from @keep
 * (kept true), the others loaded here (Piece::load); its left-over group
 * first, its pixels from @extra, where EXTRA_FIRST, else last.  The
 * histogram and the pass both go through it: the pass must see exactly the
 * groups counted, in the same registers. */
template <bool VEC, bool EXTRA_FIRST, class F>
__device__ __forceinline__ void
for_each_piece (const uint8_t * __restrict__ src, int pitch, int width,
    int groups, const Share & s, const uint4 (&keep)[HIST_KEEP][2],
    const uint4 (&extra)[2], F f)
{
  if (EXTRA_FIRST && s.extra >= 0) {
    const Piece k (src, pitch, width, groups, s.extra);
#pragma unroll
    for (int h = 0; h < 2; h++)
      f (k, h, extra[h], false);
  }
#pragma unroll
  for (int c = 0; c < HIST_KEEP; c++) {
    const int g = s.first + c * s.stride;
    if (g < s.end) {
      const Piece k (src, pitch, width, groups, g);
#pragma unroll
      for (int h = 0; h < 2; h++)
        f (k, h, keep[c][h], true);
    }
  }
  /* the others: loaded here */
  const auto loaded = [&](int g) {
    const Piece k (src, pitch, width, groups, g);
    uint4 v[2];
    k.load<VEC> (v);
#pragma unroll
    for (int h = 0; h < 2; h++)
      f (k, h, v[h], false);
  };
  for (int g = s.first + HIST_KEEP * s.stride; g < s.end; g += s.stride)
    loaded (g);
  if (!EXTRA_FIRST && s.extra >= 0)
    loaded (s.extra);
}

/* A block's counts @sh ([256][32]) zeroed, 16 bytes a store. */
template <int THREADS>
__device__ __forceinline__ void
hist_zero (uint32_t * sh)
{
  uint4 *q = reinterpret_cast<uint4 *>(sh);
  for (int i = threadIdx.x; i < 256 * 32 / 4; i += THREADS)
    q[i] = make_uint4 (0, 0, 0, 0);
}

/* A block's counts @sh ([256][32], a column a lane) summed and added to
 * its copy of the frame's in @hist, then the block arrives at @sync[0]:
 * true, in all its threads, in the last block to arrive, whose @hist is
 * then complete (and @sync[0] 0 again); @on_last runs first in its thread
 * 0.  One thread arrives for the block, after the barrier (a fence in
 * every thread cost 0.1-0.2 us more at 4K), by an acquire-release atomic:
 * the barrier before it puts the block's adds before its release, the
 * one after puts its acquire before the last block's reads.  Fenced as
 * cooperative groups' grid sync is (__threadfence, fence.sc, before and
 * after a relaxed atomic), a frame took 0.4-0.5 us more (H200, GRAY8
 * 640x480 5.7 against 5.2). */
template <int THREADS, class OnLast>
__device__ __forceinline__ bool
hist_block_done (const uint32_t * sh, uint32_t * hist, unsigned *sync,
    OnLast on_last)
{
  __shared__ bool last;

  /* a bin's 32 columns in 16-byte reads by SPLIT threads side by side
   * (two where the block has 512: the sums are at the end of every
   * block's work), rotated by the bin: the eight threads of a quarter
   * warp, whose reads are served together, read eight different quads of
   * banks (one word at a time, each read cost a load and its address
   * arithmetic: ncu counted the sums 15 % of the 4K histogram's
   * instructions) */
  constexpr int SPLIT = THREADS >= 512 ? 2 : 1, READS = 8 / SPLIT;
  __syncthreads ();
  for (int t = threadIdx.x; t < 256 * SPLIT; t += THREADS) {
    const int b = t / SPLIT, part = t % SPLIT;
    const uint4 *row = reinterpret_cast<const uint4 *>(sh + b * 32);
    uint32_t s = 0;
#pragma unroll
    for (int j = 0; j < READS; j++) {
      const uint4 q = row[(part * READS + j + b) & 7];
      s += q.x + q.y + q.z + q.w;
    }
    if (SPLIT == 2)
      s += __shfl_xor_sync (0xffffffffu, s, 1);
    if (s && part == 0)
      atomicAdd (&hist[(blockIdx.x % HIST_COPIES) * 256 + b], s);
  }
  __syncthreads ();
  if (threadIdx.x == 0) {
    unsigned arrived;
    asm volatile ("atom.acq_rel.gpu.add.u32 %0, [%1], 1;":"=r" (arrived)
        :"l" (sync):"memory");
    last = arrived == gridDim.x - 1;
    if (last)
      on_last ();
  }
  __syncthreads ();
  if (last && threadIdx.x == 0)
    sync[0] = 0;
  return last;
}

/* Counts piece @h of @k, given its pixels @v if VEC and whole. */
template <bool VEC>
__device__ __forceinline__ void
hist_add_piece (uint32_t col, const Piece & k, int h, const uint4 & v)
{
  if (k.whole<VEC> (h)) {
    hist_add16 (col, v);
  } else {
    const uint8_t *q = k.p + h * 512;
    for (int i = 0; i < k.n (h); i++)
      shared_inc (col + ((uint32_t) __ldg (q + i) << 7));
  }
}

/* Grid-stride, a warp a group; VEC: rows 16-byte aligned (and the pass's
 * output rows).  @sync (HIST_SYNC_WORDS): the block counter, 0 before the
 * launch and 0 again after, and the flags. */
template <bool VEC, class Epilogue, class Pass>
__global__ void
__launch_bounds__ (HIST_THREADS, HIST_BLOCKS_PER_SM)    /* 64 registers */
histogram_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, uint32_t * __restrict__ hist, unsigned *sync, Epilogue epi,
    Pass pass)
{
  extern __shared__ __align__ (16) uint32_t sh[];       /* [256][32] */
  const uint32_t col = column_address (sh + (threadIdx.x & 31));
  __shared__ unsigned events, guess, value, phase;

  /* a kernel launched to overlap this one's end (cudahistogram's picture)
   * may start */
  dependents_may_launch ();
  /* read before this block arrives below, so before the epilogue runs */
  if (Pass::PASS && threadIdx.x == 0) {
    const unsigned long long f =
        *(volatile unsigned long long *) hist_flag (sync, blockIdx.x);
    events = (unsigned) (f >> 32);
    guess = (unsigned) f;
  }
  const int groups = (width + HIST_GROUP - 1) / HIST_GROUP;
  const Share share (groups * height);

  /* the first HIST_KEEP groups and the left-over one: all loads in flight
   * at once.  The left-over group is counted first, then its registers are
   * free; counted last, its load came late and most SMs finished 0.2 us
   * later (stamps at 4K on an H200). */
  uint4 keep[HIST_KEEP][2], extra[2];
#pragma unroll
  for (int c = 0; c < HIST_KEEP; c++) {
    const int g = share.first + c * share.stride;
    if (VEC && g < share.end)
      Piece (src, pitch, width, groups, g).load<VEC> (keep[c]);
  }
  if (VEC && share.extra >= 0)
    Piece (src, pitch, width, groups, share.extra).load<VEC> (extra);
  /* the counters zeroed while the loads are in flight */
  hist_zero<HIST_THREADS> (sh);
  __syncthreads ();             /* the zeroed counters */
  for_each_piece<VEC, true> (src, pitch, width, groups, share, keep, extra,
      [&](const Piece & k, int h, const uint4 & v, bool) {
        hist_add_piece<VEC> (col, k, h, v);
      });
  /* every block has arrived: the others may speculate (the pass reads
   * nothing the epilogue writes, so no fence), but not those beside the
   * last one on its SM, named in the flag: their stores held up the
   * epilogue's shared memory and shuffles by 0.8 us at 4K */
  const bool last = hist_block_done<HIST_THREADS> (sh, hist, sync, [&]() {
        if (Pass::SPECULATE)
          hist_set_flags (sync, events + 1, sm_id ());
      });
  uint32_t v = 0;
  if (last && threadIdx.x < HIST_EPI_THREADS)
    v = epi (hist);
  if constexpr (Pass::PASS) {
    /* The epilogue's value to every block, in the flag itself: the pass
     * reads nothing else the epilogue wrote, so no fences (8 releasing
     * stores cost 2 us).  Its other results are for the host or the next
     * frame, ordered by the end of the launch. */
    constexpr unsigned DONE = Pass::SPECULATE ? 2 : 1;  /* events */
    const volatile unsigned long long *flag = hist_flag (sync, blockIdx.x);
    /* for thread 0: the flag once it holds the epilogue's value */
    const auto until_done = [&]() {
      unsigned long long seen;
      while ((unsigned) ((seen = *flag) >> 32) - events != DONE)
        __nanosleep (64);
      return seen;
    };
    if (threadIdx.x == 0) {
      if (last) {
        hist_set_flags (sync, events + DONE, v);
        value = v;
      } else {
        unsigned long long seen;
        while (((seen = *flag) >> 32) == events)
          __nanosleep (64);
        unsigned ph = (unsigned) (seen >> 32) - events;
        if (ph != DONE && (uint32_t) seen == sm_id ()) {
          seen = until_done ();
          ph = DONE;
        }
        value = (uint32_t) seen;
        phase = ph;
      }
    }
    __syncthreads ();
    const bool speculated = Pass::SPECULATE && !last && phase != DONE;
    const auto spec = pass.begin (guess);
    if (speculated) {
      /* the whole pieces in registers, with the guess (not the others:
       * loading them beside the kept pixels spilled) */
#pragma unroll
      for (int c = 0; c < HIST_KEEP; c++) {
        const int g = share.first + c * share.stride;
        if (VEC && g < share.end) {
          const Piece k (src, pitch, width, groups, g);
#pragma unroll
          for (int h = 0; h < 2; h++)
            if (k.whole<VEC> (h))
              pass.template piece<VEC> (spec, k, h, keep[c][h]);
        }
      }
      if (threadIdx.x == 0)
        value = (uint32_t) until_done ();
      __syncthreads ();
    }
    /* In the last block, the threads that were not in the epilogue read
     * @value atomically, one a warp: read plainly, after the epilogue's
     * named barriers in only some of the block's threads, compute-
     * sanitizer's racecheck reports a race where the barrier above leaves
     * none (a plain read of the flag instead cost 0.3 us at 4K). */
    uint32_t val = 0;
    if (last && threadIdx.x >= HIST_EPI_THREADS) {
      if ((threadIdx.x & 31) == 0)
        val = atomicOr (&value, 0u);
      val = __shfl_sync (0xffffffffu, val, 0);
    } else {
      val = value;
    }
    const auto state = pass.begin (val);
    const bool mend = speculated && !pass.same (spec, state);
    /* the pass: the pieces written with the guess mended where it was
     * wrong; the left-over group last, loaded again (its registers were
     * let go) */
    for_each_piece<VEC, false> (src, pitch, width, groups, share, keep,
        extra, [&](const Piece & k, int h, const uint4 & v, bool kept) {
          if (!(speculated && kept && k.whole<VEC> (h)))
            pass.template piece<VEC> (state, k, h, v);
          else if (mend)
            pass.template redo<VEC> (spec, state, k, h, v);
        });
  }
}

constexpr size_t HIST_SMEM = 256 * 32 * sizeof (uint32_t);

/* Blocks for a plane: HIST_BLOCKS_PER_SM an SM, and no more than @cap
 * (0: no cap). */
static inline unsigned
histogram_grid (int width, int height, int sms, int cap)
{
  const long long groups =
      (long long) ((width + HIST_GROUP - 1) / HIST_GROUP) * height;
  long long grid = (groups + HIST_THREADS / 32 - 1) / (HIST_THREADS / 32);
  const long long most = (long long) HIST_BLOCKS_PER_SM * sms;
  grid = grid < most ? grid : most;
  if (grid > HIST_MAX_GRID)
    grid = HIST_MAX_GRID;
  if (cap > 0 && grid > cap)
    grid = cap;
  return (unsigned) grid;
}

/* Adds the histogram of the plane to @hist (HIST_COPIES x 256 counters,
 * which the caller zeroes, whose sum is the histogram), then runs @epi in
 * the last block to finish, in HIST_EPI_THREADS threads. */
template <class Epilogue>
static cudaError_t
launch_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *sync, Epilogue epi, cudaStream_t stream)
{
  if (!histogram_size_ok (width, height))
    return cudaErrorInvalidValue;
  const unsigned grid = histogram_grid (width, height, sm_count (), 0);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  (void) cudaGetLastError ();
  /* 32 KB of dynamic shared memory: under the 48 KB default limit */
  if (is_aligned (src, pitch, 16))
    histogram_kernel<true><<<grid, HIST_THREADS, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, sync, epi, NoPass ());
  else
    histogram_kernel<false><<<grid, HIST_THREADS, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, sync, epi, NoPass ());
  return cudaGetLastError ();
}

/* As launch_histogram, then @pass over the plane in every block, in one
 * cooperative launch; @out_aligned: the pass's output rows are 16-byte
 * aligned.  cudaErrorNotSupported where the device cannot launch it (no
 * cooperative launch): the caller then runs the two steps apart. */
template <class Epilogue, class Pass>
static cudaError_t
launch_histogram_pass (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *sync, Epilogue epi, Pass pass,
    bool out_aligned, cudaStream_t stream)
{
  if (!histogram_size_ok (width, height))
    return cudaErrorInvalidValue;
  const bool vec = out_aligned && is_aligned (src, pitch, 16);
  auto kernel = vec ? histogram_kernel<true, Epilogue, Pass> :
      histogram_kernel<false, Epilogue, Pass>;
  /* how many blocks fit at once, per device and kernel; -1: no
   * cooperative launch there */
  static int capacity[MAX_DEVICES][2];
  const int dev = current_device ();
  int unkept = 0;
  int &cap = dev < MAX_DEVICES ? capacity[dev][vec] : unkept;
  if (!cap) {
    const cudaError_t err = cooperative_capacity (kernel, HIST_THREADS, &cap,
        HIST_SMEM);
    if (err == cudaErrorNotSupported) {
      cap = -1;
    } else if (err != cudaSuccess) {
      cap = 0;                  /* ask again next time */
      return err;
    }
  }
  if (cap < 0)
    return cudaErrorNotSupported;
  const unsigned grid = histogram_grid (width, height, sm_count (), cap);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  void *args[] = { &s, &pitch, &width, &height, &hist, &sync, &epi, &pass };
  (void) cudaGetLastError ();
  return cudaLaunchCooperativeKernel ((const void *) kernel, grid,
      HIST_THREADS, args, HIST_SMEM, stream);
}

}  /* namespace cip */

/* cudaimgproc: smoothing kernels (triangular, box, Gaussian, median).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every method works on bytes: a pixel of C bytes (1, 3 or 4) is C
 * channels, each smoothed on its own, its horizontal neighbours C bytes
 * away.  A block owns a 128-byte x 8 PY tile of the output, 32 x 8
 * threads, each thread one 4-byte word by PY rows; the tile and its halo
 * (R rows, R * C bytes rounded up to words) sit in shared memory
 * (cip::Tile), the border images mapped pixel by pixel.  A thread slides
 * down its column: each input row gives the K taps of its 4 bytes as two
 * words of two 16-bit lanes (bytes 0, 1 and 2, 3), and output row o is
 * taken from the last K rows, kept in registers as a ring.
 *
 * Linear methods: a row's horizontal sum is an integer below 2^16 in each
 * lane (the taps sum to at most 256, or 15 ones), so one 32-bit multiply-
 * add does a tap for two bytes.  Box and triangular sums stay below 2^16
 * down the column too (15^2 * 255, 81 * 255) and keep the lanes; the
 * Gaussian's reach 255 * 2^16 and take a word each.  The division that
 * ends each is a multiply-high by a reciprocal, exact for these sums.
 * Median: a sorting network over the K^2 taps, two bytes an instruction
 * (16-bit lane minimum and maximum, native from sm_90).
 *
 * GRAY8 on 8-byte aligned rows has kernels of its own, below, the same
 * sums and networks without the shared-memory tile: box 5 to 15,
 * triangular and the default 5x5 Gaussian sum each row of a block's
 * strip across once into shared memory, then down (running sums for
 * box); the rest keep register strips (box 3x3 and the default 3x3
 * Gaussian summed down first, then across).
 * Every path gives the same bytes.
 */
#include "smooth.h"
#include "cip_pointwise.cuh"
#include "cip_stencil.cuh"
#include "cip_strip.cuh"
#include "median5_network.cuh"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

constexpr int TW = 128;         /* bytes a tile row: 32 threads x 4 */

__host__ __device__ constexpr int
round4 (int n)
{
  return (n + 3) / 4 * 4;
}

__host__ __device__ constexpr int
round16 (int n)
{
  return (n + 15) / 16 * 16;
}

/* Tap @i of the Gaussian's default ksize-@k taps (sigma <= 0):
 * getGaussianKernelBitExact's own tables */
__host__ __device__ constexpr int
gaussian_default_tap (int k, int i)
{
  constexpr int taps[3][7] = {
    {64, 128, 64}, {16, 64, 96, 64, 16}, {8, 28, 56, 72, 56, 28, 8}
  };
  return taps[k / 2 - 1][i];
}

struct LinearParams
{
  uint32_t w[15];               /* taps, the same along x and y */
  uint32_t add, magic;          /* out = umulhi (sum + add, magic) */
  uint32_t keep_mask;           /* bytes of each word copied from the input */
  int border;
};

/* bytes @b and @b + 1 of the window @w as two 16-bit lanes; @b is a
 * constant once the callers' loops unroll */
template <int NW>
__device__ __forceinline__ uint32_t
pair16 (const uint32_t (&w)[NW], int b)
{
  const int q = b >> 2, r = b & 3;
  if (r == 3)
    return __byte_perm (__funnelshift_r (w[q], w[q + 1], 24), 0, 0x4140);
  return __byte_perm (w[q], 0, 0x4040 | (r + 1) << 8 | r);
}

/* The window of tile row @row that a thread's 4 bytes at tile column @c
 * need: NW words from column @c - HW. */
template <int NW, int HW, typename T>
__device__ __forceinline__ void
window (const T & tile, int row, int c, uint32_t (&w)[NW])
{
#pragma unroll
  for (int q = 0; q < NW; q++)
    w[q] = tile.word (row, c - HW + 4 * q);
}

__device__ __forceinline__ void
store_word (uint8_t * __restrict__ dst, int dst_pitch, int row_bytes, int x,
    int y, uint32_t v, bool aligned)
{
  uint8_t *d = dst + (size_t) y * dst_pitch + x;
  if (aligned && x + 4 <= row_bytes) {
    *reinterpret_cast<uint32_t *>(d) = v;
  } else {
#pragma unroll
    for (int k = 0; k < 4; k++)
      if (x + k < row_bytes)
        d[k] = (uint8_t) (v >> (8 * k));
  }
}

/* The linear methods' rows: each input row's K taps of the thread's 4
 * bytes (two 16-bit lanes a word) summed across, and each output row
 * summed down the last K of those.  PACKED: the vertical sums keep two
 * lanes a word (box, triangular). */
template <int K, int C, bool PACKED>
struct LinearOp
{
  static constexpr int R = K / 2, HW = round4 (R * C);
  /* the last K rows' horizontal sums: two words of two lanes, or (not
   * PACKED) four words of one */
  uint32_t ring[K][PACKED ? 2 : 4];

  template <int NW>
  __device__ __forceinline__ void row (int r, const uint32_t (&w)[NW],
      const LinearParams & p)
  {
    uint32_t lo = 0, hi = 0;
#pragma unroll
    for (int i = 0; i < K; i++) {
      const int b = HW + (i - R) * C;
      lo += p.w[i] * pair16 (w, b);
      hi += p.w[i] * pair16 (w, b + 2);
    }
    if (PACKED) {
      ring[r % K][0] = lo;
      ring[r % K][1] = hi;
    } else {
      ring[r % K][0] = lo & 0xffff;
      ring[r % K][1] = lo >> 16;
      ring[r % K][2] = hi & 0xffff;
      ring[r % K][3] = hi >> 16;
    }
  }

  /* output row @o (input rows o .. o + 2R): its 4 bytes */
  __device__ __forceinline__ uint32_t out (int o, const LinearParams & p)
  {
    uint32_t s[4];
    if (PACKED) {
      uint32_t l = 0, h = 0;
#pragma unroll
      for (int j = 0; j < K; j++) {
        l += p.w[j] * ring[(o + j) % K][0];
        h += p.w[j] * ring[(o + j) % K][1];
      }
      s[0] = l & 0xffff;
      s[1] = l >> 16;
      s[2] = h & 0xffff;
      s[3] = h >> 16;
    } else {
#pragma unroll
      for (int c = 0; c < 4; c++) {
        s[c] = 0;
#pragma unroll
        for (int j = 0; j < K; j++)
          s[c] += p.w[j] * ring[(o + j) % K][c];
      }
    }
    uint32_t v = 0;
#pragma unroll
    for (int c = 0; c < 4; c++)
      v |= __umulhi (s[c] + p.add, p.magic) << (8 * c);
    return v;
  }
};

__device__ __forceinline__ void
exchange (uint32_t & a, uint32_t & b)
{
  const uint32_t lo = __vminu2 (a, b);
  b = __vmaxu2 (a, b);
  a = lo;
}

/* @x inserted into the sorted @a: @o the N + 1 values sorted (2N minima
 * and maxima, two deep) */
template <int N>
__device__ __forceinline__ void
insert_sorted (const uint32_t (&a)[N], uint32_t x, uint32_t (&o)[N + 1])
{
  o[0] = __vminu2 (a[0], x);
#pragma unroll
  for (int t = 1; t < N; t++)
    o[t] = __vmaxu2 (a[t - 1], __vminu2 (a[t], x));
  o[N] = __vmaxu2 (a[N - 1], x);
}

__device__ __forceinline__ uint32_t
med3 (uint32_t a, uint32_t b, uint32_t c)
{
  return __vmaxu2 (__vminu2 (a, b), __vminu2 (__vmaxu2 (a, b), c));
}

/* Batcher's odd-even merge sort of 25 values (140 exchanges, padded to a
 * power of two with values that never move) */
__device__ __forceinline__ void
sort25 (uint32_t (&v)[25])
{
#define S(a, b) exchange (v[a], v[b])
  S (0, 1); S (2, 3); S (0, 2); S (1, 3); S (1, 2); S (4, 5);
  S (6, 7); S (4, 6); S (5, 7); S (5, 6); S (0, 4); S (2, 6);
  S (2, 4); S (1, 5); S (3, 7); S (3, 5); S (1, 2); S (3, 4);
  S (5, 6); S (8, 9); S (10, 11); S (8, 10); S (9, 11); S (9, 10);
  S (12, 13); S (14, 15); S (12, 14); S (13, 15); S (13, 14); S (8, 12);
  S (10, 14); S (10, 12); S (9, 13); S (11, 15); S (11, 13); S (9, 10);
  S (11, 12); S (13, 14); S (0, 8); S (4, 12); S (4, 8); S (2, 10);
  S (6, 14); S (6, 10); S (2, 4); S (6, 8); S (10, 12); S (1, 9);
  S (5, 13); S (5, 9); S (3, 11); S (7, 15); S (7, 11); S (3, 5);
  S (7, 9); S (11, 13); S (1, 2); S (3, 4); S (5, 6); S (7, 8);
  S (9, 10); S (11, 12); S (13, 14); S (16, 17); S (18, 19); S (16, 18);
  S (17, 19); S (17, 18); S (20, 21); S (22, 23); S (20, 22); S (21, 23);
  S (21, 22); S (16, 20); S (18, 22); S (18, 20); S (17, 21); S (19, 23);
  S (19, 21); S (17, 18); S (19, 20); S (21, 22); S (16, 24); S (20, 24);
  S (18, 20); S (22, 24); S (19, 21); S (17, 18); S (19, 20); S (21, 22);
  S (23, 24); S (0, 16); S (8, 24); S (8, 16); S (4, 20); S (12, 20);
  S (4, 8); S (12, 16); S (20, 24); S (2, 18); S (10, 18); S (6, 22);
  S (14, 22); S (6, 10); S (14, 18); S (2, 4); S (6, 8); S (10, 12);
  S (14, 16); S (18, 20); S (22, 24); S (1, 17); S (9, 17); S (5, 21);
  S (13, 21); S (5, 9); S (13, 17); S (3, 19); S (11, 19); S (7, 23);
  S (15, 23); S (7, 11); S (15, 19); S (3, 5); S (7, 9); S (11, 13);
  S (15, 17); S (19, 21); S (1, 2); S (3, 4); S (5, 6); S (7, 8);
  S (9, 10); S (11, 12); S (13, 14); S (15, 16); S (17, 18); S (19, 20);
  S (21, 22); S (23, 24);
#undef S
}

/* The median's rows, K = 3 or 5: each input row's K taps of the thread's
 * 4 bytes (two 16-bit lanes a word) kept, and each output row the median
 * of the last K rows' K^2 taps; 5x5 by a sorting network whose unused
 * exchanges the compiler drops (202 of 280 minima and maxima). */
template <int K, int C>
struct MedianOp
{
  static constexpr int R = K / 2, HW = round4 (R * C);
  uint32_t ring[K][2][K];       /* the last K rows' taps, two lanes a word */

  template <int NW>
  __device__ __forceinline__ void row (int r, const uint32_t (&w)[NW],
      const LinearParams &)
  {
#pragma unroll
    for (int i = 0; i < K; i++) {
      const int b = HW + (i - R) * C;
      ring[r % K][0][i] = pair16 (w, b);
      ring[r % K][1][i] = pair16 (w, b + 2);
    }
  }

  __device__ __forceinline__ uint32_t out (int o, const LinearParams &)
  {
    uint32_t m[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
      uint32_t v[K * K];
#pragma unroll
      for (int j = 0; j < K; j++)
#pragma unroll
        for (int i = 0; i < K; i++)
          v[j * K + i] = ring[(o + j) % K][h][i];
      if constexpr (K == 3) {
        /* the median of 3x3 is the middle of (the largest column
         * minimum, the middle column median, the smallest column
         * maximum): three sorted columns and 12 more operations, against
         * 40 for the network */
#pragma unroll
        for (int i = 0; i < 3; i++) {
          exchange (v[i], v[3 + i]);
          exchange (v[3 + i], v[6 + i]);
          exchange (v[i], v[3 + i]);
        }
        const uint32_t lo = __vmaxu2 (__vmaxu2 (v[0], v[1]), v[2]);
        const uint32_t hi = __vminu2 (__vminu2 (v[6], v[7]), v[8]);
        m[h] = med3 (lo, med3 (v[3], v[4], v[5]), hi);
      } else {
        sort25 (v);
        m[h] = v[K * K / 2];
      }
    }
    return __byte_perm (m[0], m[1], 0x6420);
  }
};

/* Every method: the block's tile and halo in shared memory, then each
 * thread down its 4 bytes by PY rows, each input row handed to the
 * method's Op, each output row taken from it once its K rows are in, the
 * kept byte (alpha) copied from the input. */
template <class Op, int K, int C, int PY>
__global__ void
__launch_bounds__ (256, 4)
smooth_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    LinearParams p, bool aligned_src, bool aligned_src16, bool aligned_dst)
{
  /* the tile's halo: whole 16-byte loads; a thread's window: words */
  constexpr int R = K / 2, HB = round16 (R * C), HW = round4 (R * C);
  constexpr int NW = (2 * HW + 4) / 4, TH = 8 * PY;
  __shared__ cip::Tile<TW, TH, R, HB, C> tile;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;

  tile.load (src, src_pitch, width, height, x0, y0, p.border, aligned_src,
      aligned_src16);
  __syncthreads ();

  const int cx = threadIdx.x * 4, cy = threadIdx.y * PY;
  const int row_bytes = width * C;
  if (x0 + cx >= row_bytes)
    return;
  Op op;
#pragma unroll
  for (int r = 0; r < PY + 2 * R; r++) {
    uint32_t w[NW];
    window<NW, HW> (tile, cy + r, cx + HB, w);
    op.row (r, w, p);
    if (r < 2 * R)
      continue;
    const int o = r - 2 * R;    /* output row: input rows o .. o + 2R */
    const int y = y0 + cy + o;
    if (y >= height)
      break;
    uint32_t v = op.out (o, p);
    if (p.keep_mask)
      v = (v & ~p.keep_mask) | (tile.word (cy + o + R, cx + HB) &
          p.keep_mask);
    store_word (dst, dst_pitch, row_bytes, x0 + cx, y, v, aligned_dst);
  }
}

/* ---- GRAY8 in registers ---------------------------------------------- */

/* GRAY8 on 8-byte aligned rows, K <= 7: register strips (cip_strip.cuh),
 * a thread 8 columns by ROWS rows, no shared memory and no barrier.  The
 * arithmetic is the tiled kernel's (two bytes a word in 16-bit lanes, the
 * same sums, the same division, the same networks), so the results are
 * the same bytes; what differs is where the rows come from: global
 * memory, several rows ahead (H100, 4K: Gaussian 5x5 21.0 -> 13.7 us,
 * median 3x3 26.6 -> 13.9, median 5x5 78.5 -> 60.3). */

/* TAPS_BINOMIAL: the Gaussian's default 3x3 and 5x5 taps over their
 * common factor, (1 2 1) and (1 4 6 4 1); TAPS_GAUSS7: its default 7x7
 * taps, (8 28 56 72 56 28 8) */
enum { TAPS_ANY, TAPS_BOX, TAPS_TRIANGULAR, TAPS_BINOMIAL, TAPS_GAUSS7 };

/* tap @i of K: compile-time constants but for TAPS_ANY */
template <int KIND, int K = 5>
__device__ __forceinline__ uint32_t
tap (const LinearParams & p, int i)
{
  if (KIND == TAPS_BINOMIAL)
    return K == 3 ? (i == 1 ? 2u : 1u) : i == 2 ? 6u : (i & 1) ? 4u : 1u;
  if (KIND == TAPS_GAUSS7)
    return (uint32_t) gaussian_default_tap (7, i);
  return KIND == TAPS_BOX ? 1u : KIND == TAPS_TRIANGULAR ?
      (uint32_t) (i < 3 ? i + 1 : 5 - i) : p.w[i];
}

/* @init plus the K taps of a symmetric kernel over a[0 .. K - 1], a tap
 * and its mirror on one sum (in 16-bit lanes too: no lane passes 2^16) */
template <int K, int KIND>
__device__ __forceinline__ uint32_t
symmetric_sum (const uint32_t (&a)[K], const LinearParams & p, uint32_t init)
{
  constexpr int R = K / 2;
  uint32_t s = tap<KIND, K> (p, R) * a[R] + init;
#pragma unroll
  for (int t = 0; t < R; t++)
    s += tap<KIND, K> (p, t) * (a[t] + a[K - 1 - t]);
  return s;
}

/* ring slot of row @j + @d, @j an unrolled constant */
template <int K>
__device__ __forceinline__ constexpr int
slot (int j, int d)
{
  return ((j + d) % K + K) % K;
}

/* A row's words as 16-bit lanes: the even bytes (@e) and the odd (@o) */
template <int NW>
__device__ __forceinline__ void
split_lanes (const uint32_t (&w)[NW], uint32_t (&e)[NW], uint32_t (&o)[NW])
{
#pragma unroll
  for (int q = 0; q < NW; q++) {
    e[q] = __byte_perm (w[q], 0, 0x4240);
    o[q] = __byte_perm (w[q], 0, 0x4341);
  }
}

/* The word of lanes (byte @b, byte @b + 2) of split_lanes' @e and @o; @b
 * a constant once the callers' loops unroll */
template <int NW>
__device__ __forceinline__ uint32_t
lanes_at (const uint32_t (&e)[NW], const uint32_t (&o)[NW], int b)
{
  const int q = b >> 2;
  switch (b & 3) {
    case 0:
      return e[q];
    case 1:
      return o[q];
    case 2:
      return __byte_perm (e[q], e[q + 1], 0x5432);
    default:
      return __byte_perm (o[q], o[q + 1], 0x5432);
  }
}

/* The 8 output bytes of sums in four words of lanes (columns 0, 2),
 * (1, 3), (4, 6), (5, 7), each lane's rounding already added: each lane
 * divided by a multiply-high with @magic. */
__device__ __forceinline__ uint2
lanes_divide (const uint32_t (&s)[4], uint32_t magic)
{
  uint32_t v[cip::STRIP_COLS];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const int c = (k & 1) + 4 * (k >> 1);
    v[c] = __umulhi (s[k] & 0xffff, magic);
    v[c + 2] = __umulhi (s[k] >> 16, magic);
  }
  return cip::strip_pack (v);
}

/* The rounding a sum of taps of KIND starts from, in both lanes, and its
 * lanes' output bytes (@s as lanes_divide's): the binomials' bits SHIFT
 * .. SHIFT + 7 (their common factor taken out), the others divided. */
template <int KIND, int SHIFT>
__device__ __forceinline__ uint32_t
lanes_rounding (const LinearParams & p)
{
  return (KIND == TAPS_BINOMIAL ? 1u << (SHIFT - 1) : p.add) * 0x10001u;
}

template <int KIND, int SHIFT>
__device__ __forceinline__ uint2
lanes_out (const uint32_t (&s)[4], const LinearParams & p)
{
  if constexpr (KIND == TAPS_BINOMIAL)
    return make_uint2 (__byte_perm (s[0] >> SHIFT, s[1] >> SHIFT, 0x6240),
        __byte_perm (s[2] >> SHIFT, s[3] >> SHIFT, 0x6240));
  else
    return lanes_divide (s, p.magic);
}

/* The K-tap symmetric sums across of a strip's 8 output columns, as
 * lanes_divide's four words, each from @init, of a row split into lanes
 * (@e, @o) whose column x sits at byte @h */
template <int K, int KIND, int NW>
__device__ __forceinline__ void
lanes_across (const uint32_t (&e)[NW], const uint32_t (&o)[NW], int h,
    const LinearParams & p, uint32_t init, uint32_t (&s)[4])
{
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const int c = (k & 1) + 4 * (k >> 1);
    uint32_t a[K];
#pragma unroll
    for (int t = 0; t < K; t++)
      a[t] = lanes_at (e, o, h + c + t - K / 2);
    s[k] = symmetric_sum<K, KIND> (a, p, init);
  }
}

/* Box and the binomial Gaussians, K <= 7: vertical first.  Each input
 * row is split once into lanes (even bytes, odd bytes) and kept in a ring
 * of K rows; an output row sums each column down its K rows in the
 * lanes, then the strip's 8 outputs across, as lanes (0, 2),
 * (1, 3), (4, 6), (5, 7).  Every sum stays below 2^16 (the binomials'
 * common factor, 64 or 16, taken out: 16 * 16 * 255 at most), and the
 * same integer sums as the horizontal-first kernels, in another order:
 * the same bytes.  Against horizontal first, no input row is summed
 * across twice (a strip's halo rows were), and no sum leaves the lanes.
 * Binomial: OpenCV's (f^2 v + 2^15) >> 16 with f^2 = 2^(16 - SHIFT) is
 * (v + 2^(SHIFT - 1)) >> SHIFT.  (H100, against horizontal first, plain
 * launches: Gaussian 5x5 1080p 8.2 -> 7.3 us, 4K 15.1 -> 13.4, 8K 36.8 ->
 * 32.2; box 7x7 4K 18.3 -> 17.3.) */
template <int K, int KIND>
struct VerticalStrip
{
  static constexpr int R = K / 2, HW = round4 (R), NW = 2 + HW / 2;
  static constexpr int SHIFT = K == 3 ? 4 : 8, MOST_ROWS = 4;
  static constexpr int BLOCKS_PER_SM = 8, MIN_BLOCKS = 0, AHEAD = 6;
  uint32_t e[K][NW], o[K][NW];

  __device__ __forceinline__ void row (int j, const uint32_t (&w)[NW],
      const LinearParams &)
  {
    split_lanes (w, e[j % K], o[j % K]);
  }

  /* the output row whose last input row is @j */
  __device__ __forceinline__ uint2 out (int j, const LinearParams & p)
  {
    uint32_t ve[NW], vo[NW];
#pragma unroll
    for (int q = 0; q < NW; q++) {
      uint32_t a[K], b[K];
#pragma unroll
      for (int t = 0; t < K; t++) {
        a[t] = e[slot<K> (j, t - 2 * R)][q];
        b[t] = o[slot<K> (j, t - 2 * R)][q];
      }
      ve[q] = symmetric_sum<K, KIND> (a, p, 0);
      vo[q] = symmetric_sum<K, KIND> (b, p, 0);
    }
    uint32_t s[4];
    lanes_across<K, KIND> (ve, vo, HW, p, lanes_rounding<KIND, SHIFT> (p), s);
    return lanes_out<KIND, SHIFT> (s, p);
  }
};

/* Linear methods, K <= 7: each input row's horizontal sums of the
 * strip's 8 columns as 4 words of two 16-bit lanes (columns x + 2k,
 * x + 2k + 1), kept in a ring of K rows; each output row their vertical
 * sum, in the lanes (box, triangular: below 2^16) or a word a column
 * (Gaussian), the rounding added where the sum starts. */
template <int K, int KIND>
struct LinearStrip
{
  static constexpr int R = K / 2, HW = round4 (R), NW = 2 + HW / 2;
  /* 7 taps: 80 registers (constant taps) or 96, 6 or 5 blocks an SM;
   * asking for 4 gives 1080p its 4-row strips (H100, plain launches: 8.85
   * -> 8.2 us; vertical first in the lanes, then across in words: 7.95
   * at 1080p, 2 % slower at 4K, kept out).  The default taps as
   * constants: 1080p 8.2 -> 8.1, 4K 17.8 -> 17.2, 8K 45.1 -> 43.5. */
  static constexpr int MOST_ROWS = 4, BLOCKS_PER_SM = K == 7 ? 4 : 8;
  static constexpr int MIN_BLOCKS = 0, AHEAD = 6;
  static constexpr bool PACKED = KIND != TAPS_ANY && KIND != TAPS_GAUSS7;
  uint32_t h[K][PACKED ? 4 : 8];

  __device__ __forceinline__ void row (int j, const uint32_t (&w)[NW],
      const LinearParams & p)
  {
#pragma unroll
    for (int k = 0; k < 4; k++) {
      uint32_t a[K];
#pragma unroll
      for (int t = 0; t < K; t++)
        a[t] = pair16 (w, HW + 2 * k + t - R);
      const uint32_t s = symmetric_sum<K, KIND> (a, p, 0);
      if (PACKED) {
        h[j % K][k] = s;
      } else {
        h[j % K][2 * k] = s & 0xffff;
        h[j % K][2 * k + 1] = s >> 16;
      }
    }
  }

  /* the output row whose last input row is @j */
  __device__ __forceinline__ uint2 out (int j, const LinearParams & p)
  {
    uint32_t o[cip::STRIP_COLS];
#pragma unroll
    for (int c = 0; c < (PACKED ? 4 : 8); c++) {
      uint32_t a[K];
#pragma unroll
      for (int t = 0; t < K; t++)
        a[t] = h[slot<K> (j, t - 2 * R)][c];
      if (PACKED) {
        const uint32_t v = symmetric_sum<K, KIND> (a, p, p.add * 0x10001u);
        o[2 * c] = __umulhi (v & 0xffff, p.magic);
        o[2 * c + 1] = __umulhi (v >> 16, p.magic);
      } else {                  /* OpenCV's fixed point: byte 2 */
        o[c] = symmetric_sum<K, KIND> (a, p, 32768);
      }
    }
    return PACKED ? cip::strip_pack (o) : cip::strip_pack<2> (o);
  }
};

/* Median 3x3: each column sorted down its three rows (shared by the three
 * outputs that take the column), the odd-aligned pairs made from the
 * sorted ones by byte permutes, and each output the middle of (the
 * largest minimum, the middle median, the smallest maximum) of its three
 * columns, as the tiled kernel.  Two output rows share two input rows:
 * their pair is sorted once (at the even output) and each output inserts
 * its third row into it, 5 minima and maxima a column word an output
 * instead of 6.  A row: the columns x - 2 .. x + 9 as six words of two
 * lanes (columns x - 2 + 2q, x - 1 + 2q). */
struct Median3Strip
{
  static constexpr int R = 1, HW = 4, NW = 4, NP = 6;
  /* 4 rows a thread only where that still makes 16 blocks an SM (H100,
   * plain launches: 4K 15.3 us at 2 rows, 15.6 at 4; 8K 43.0 and 41.3) */
  static constexpr int MOST_ROWS = 4, BLOCKS_PER_SM = 16, MIN_BLOCKS = 0;
  static constexpr int AHEAD = 6;
  uint32_t c[3][NP];            /* the last 3 rows' words */
  uint32_t pair[NP][2];         /* the shared pair of rows, sorted */

  __device__ __forceinline__ void row (int j, const uint32_t (&w)[NW],
      const LinearParams &)
  {
#pragma unroll
    for (int q = 0; q < NP; q++)
      c[j % 3][q] = pair16 (w, HW - 2 + 2 * q);
  }

  __device__ __forceinline__ uint2 out (int j, const LinearParams &)
  {
    uint32_t lo[NP], md[NP], hi[NP];
#pragma unroll
    for (int q = 0; q < NP; q++) {
      uint32_t x, v[3];
      if (j % 2 == 0) {         /* rows j - 1, j; then j - 2 */
        pair[q][0] = c[slot<3> (j, -1)][q];
        pair[q][1] = c[j % 3][q];
        exchange (pair[q][0], pair[q][1]);
        x = c[slot<3> (j, -2)][q];
      } else {                  /* rows j - 2, j - 1 (sorted at j - 1); j */
        x = c[j % 3][q];
      }
      insert_sorted (pair[q], x, v);
      lo[q] = v[0];
      md[q] = v[1];
      hi[q] = v[2];
    }
    uint32_t o[cip::STRIP_COLS];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      /* columns x + 2k - 1 .. x + 2k + 2: shifted pair k, pair k + 1,
       * shifted pair k + 1 */
#define CIP_SHIFT(v, q) __byte_perm (v[q], v[q + 1], 0x5432)
      const uint32_t l = __vmaxu2 (__vmaxu2 (CIP_SHIFT (lo, k), lo[k + 1]),
          CIP_SHIFT (lo, k + 1));
      const uint32_t u = __vminu2 (__vminu2 (CIP_SHIFT (hi, k), hi[k + 1]),
          CIP_SHIFT (hi, k + 1));
      const uint32_t m = med3 (CIP_SHIFT (md, k), md[k + 1],
          CIP_SHIFT (md, k + 1));
#undef CIP_SHIFT
      const uint32_t v = med3 (l, m, u);
      o[2 * k] = v;
      o[2 * k + 1] = v >> 16;
    }
    return cip::strip_pack (o);
  }
};

/* Median 5x5 (Adams' separable networks).  A row's words hold columns
 * four apart, word q (x - 2 + q, x + 2 + q), so that a lane's outputs are
 * neighbours: output word i (x + i, x + 4 + i) takes words i .. i + 4.
 * Each word's columns are sorted down their 5 rows, two output rows
 * sharing 4 of them (sorted once, at the even output; each output inserts
 * its fifth row).  Outputs 0 and 1 share words 1 .. 4, outputs 2 and 3
 * words 3 .. 6: the pairs (1, 2), (3, 4), (5, 6) are merged, (1, 2) with
 * (3, 4) and (3, 4) with (5, 6) cut to the six that can hold a median,
 * and each output takes its median from those six and its own fifth
 * word (median5_network.cuh).  Words 3 and 4 are only ever merged: their
 * shared rows are merged once, and each output merges its two fifth-row
 * values into that.  287 minima and maxima an output row of 8 bytes,
 * against 808 for the pruned network of all 25 taps. */
struct Median5Strip
{
  static constexpr int R = 2, HW = 4, NW = 4, NQ = 8;
  /* 4 rows a thread from 4K up, registers capped for 5 blocks an SM
   * (H100, plain launches, 4K: 29.5 us at 2 rows; at 4, 29.2 for 4
   * blocks, 28.9 for 5, 29.1 for 6; 8K 95.0 at 2 rows, 88.9 at 4 for 5
   * blocks; 1080p 11.5 at 2 rows, 12.7 at 4) */
  static constexpr int MOST_ROWS = 4, BLOCKS_PER_SM = 8, MIN_BLOCKS = 5;
  static constexpr int AHEAD = 6;
  uint32_t c[5][NQ];            /* the last 5 rows' words */
  uint32_t core[NQ][4];         /* the shared 4 rows, sorted (but 3, 4) */
  uint32_t core34[8];           /* words 3 and 4's, merged */

  __device__ __forceinline__ void row (int j, const uint32_t (&w)[NW],
      const LinearParams &)
  {
    /* window bytes q + 2 and q + 6: byte r of words i and i + 1, each
     * twice in its lane (v * 257: ordered as v, and one permute) */
#pragma unroll
    for (int q = 0; q < NQ; q++) {
      const int i = (q + 2) >> 2, r = (q + 2) & 3;
      c[j % 5][q] = __byte_perm (w[i], w[i + 1],
          0x1100 * (4 + r) + 0x11 * r);
    }
  }

  /* word @q's rows j - 3 .. j sorted into @a */
  __device__ __forceinline__ void sort_core (int j, int q, uint32_t (&a)[4])
  {
#pragma unroll
    for (int t = 0; t < 4; t++)
      a[t] = c[slot<5> (j, t - 3)][q];
    exchange (a[0], a[1]);
    exchange (a[2], a[3]);
    exchange (a[0], a[2]);
    exchange (a[1], a[3]);
    exchange (a[1], a[2]);
  }

  __device__ __forceinline__ uint2 out (int j, const LinearParams &)
  {
    /* the fifth row: j - 4 at an even output (rows j - 3 .. j shared
     * with the next), j at an odd one (rows j - 4 .. j - 1 sorted at
     * j - 1) */
    const int fifth = j % 2 == 0 ? slot<5> (j, -4) : j % 5;
    uint32_t p[NQ][5];
#pragma unroll
    for (int q = 0; q < NQ; q++) {
      if (q == 3 || q == 4)
        continue;
      uint32_t (&a)[4] = core[q];
      if (j % 2 == 0)
        sort_core (j, q, a);
      insert_sorted (a, c[fifth][q], p[q]);
    }
    if (j % 2 == 0) {
      uint32_t a3[4], a4[4];
      sort_core (j, 3, a3);
      sort_core (j, 4, a4);
      median5_merge44 (a3, a4, core34);
    }
    uint32_t m12[10], m34[10], m56[10], w[6];
    uint32_t x34[2] = { c[fifth][3], c[fifth][4] };
    exchange (x34[0], x34[1]);
    median5_merge82 (core34, x34, m34);
    median5_merge55 (p[1], p[2], m12);
    median5_merge55 (p[5], p[6], m56);
    median5_middle (m12, m34, w);
    const uint32_t v0 = median5_final (w, p[0]), v1 = median5_final (w, p[5]);
    median5_middle (m34, m56, w);
    const uint32_t v2 = median5_final (w, p[2]), v3 = median5_final (w, p[7]);
    /* each median's low bytes: columns x .. x + 3, then x + 4 .. x + 7 */
    return make_uint2 (__byte_perm (__byte_perm (v0, v1, 0x40),
            __byte_perm (v2, v3, 0x40), 0x5410),
        __byte_perm (__byte_perm (v0, v1, 0x62), __byte_perm (v2, v3, 0x62),
            0x5410));
  }
};

/* A thread down its strip: input rows y0 - R .. y0 + ROWS - 1 + R, read
 * Op::AHEAD rows before their turn, each handed to the method's Op, and an
 * output row taken from it from the 2R-th on.  Unrolled: the rings'
 * slots are constants.  (A loop over one period of the rings, for taller
 * strips, was slower at every height on an H100: 4K Gaussian 5x5 18.3 us
 * at 4 rows, 20.7 at 16, against 13.7 unrolled at 4.) */
template <class Op, int ROWS, bool INTERIOR, int BORDER>
__device__ __forceinline__ void
strip_run (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    const LinearParams & p, int x, int y0)
{
  constexpr int R = Op::R, HW = Op::HW, N = ROWS + 2 * R;
  constexpr int AHEAD = N < Op::AHEAD ? N : Op::AHEAD;
  uint32_t raw[N][Op::NW];
#pragma unroll
  for (int i = 0; i < AHEAD; i++)
    cip::strip_window<HW, INTERIOR, BORDER> (src, src_pitch, width,
        height, x, y0 - R + i, raw[i]);
  Op op;
#pragma unroll
  for (int i = 0; i < N; i++) {
    if (i + AHEAD < N)
      cip::strip_window<HW, INTERIOR, BORDER> (src, src_pitch, width,
          height, x, y0 - R + i + AHEAD, raw[i + AHEAD]);
    if constexpr (!INTERIOR && HW == 4)
      cip::edge_sides<4> (width, x, BORDER, raw[i][1], raw[i][2], raw[i][0],
          raw[i][3]);
    op.row (i, raw[i], p);
    if (i < 2 * R)
      continue;
    const int y = y0 + i - 2 * R;
    if (!INTERIOR && y >= height)
      return;
    cip::strip_store<INTERIOR> (dst, dst_pitch, width, x, y, op.out (i, p));
  }
}

/* 32 x 4 threads a block; BORDER a template argument, as cudasobel's
 * register kernels (replicate's border images fold into clamps);
 * Op::MIN_BLOCKS: the blocks an SM its registers are capped for, or 0
 * (no cap: 1 would let ptxas take more registers than no bound at all) */
template <class Op, int ROWS, int BORDER>
__global__ void
__launch_bounds__ (128, Op::MIN_BLOCKS)
strip_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    LinearParams p)
{
  int x, y0;
  bool interior;
  if (!cip::strip_at<ROWS, Op::R, Op::HW> (width, height, x, y0, interior))
    return;
  if (interior)
    strip_run<Op, ROWS, true, BORDER> (src, src_pitch, dst, dst_pitch,
        width, height, p, x, y0);
  else
    strip_run<Op, ROWS, false, BORDER> (src, src_pitch, dst, dst_pitch,
        width, height, p, x, y0);
}

/* ---- box, GRAY8: running sums ------------------------------------------ */

/* Box on GRAY8 (8-byte aligned rows), ksize 5 to 15, and triangular and
 * the default 5x5 Gaussian there (sep_kernel): a block owns 256 columns
 * (8 a thread) of a strip of T rows.  Its 8 warps take the strip's T + 2R
 * input rows in turn, each row read once and its horizontal sums of the
 * thread's 8 columns made in 16-bit lanes, into shared memory; after one
 * barrier each warp runs down T / 8 output rows.  Box sums a row's
 * windows by byte dot products and keeps a vertical running sum (adding
 * the entering row's sums, taking away the leaving one's), so a row costs
 * about the same at every ksize; the weighted sums take each output's K
 * rows.  Only the 2R rows round a strip are summed twice (by the blocks
 * either side).  Lanes stay exact through borrows: only final sums, each
 * below 2^16, are read. */
constexpr int BOX_HW = 8, BOX_NW = 2 + BOX_HW / 2, BOX_AHEAD = 4,
    BOX_WARPS = 8;

__device__ __forceinline__ uint4
operator+ (uint4 a, uint4 b)
{
  return make_uint4 (a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__device__ __forceinline__ uint4
operator- (uint4 a, uint4 b)
{
  return make_uint4 (a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}

/* __byte_perm selectors for the 8 columns beyond the frame's left (x is
 * 0) or right (x + 8 is the width) edge, words 0, 1 (left) or 4, 5
 * (right) of a window, from the body's two words (cip::edge_selector ():
 * the word nearer the edge, then the one 4 further out).  Column 8
 * beyond (x - 8, x + 15) no window of R <= 7 reads. */
__device__ __forceinline__ constexpr uint32_t
box_side_selector (bool right, bool reflect, int q)
{
  return cip::edge_selector (4, right, !reflect, right ? 4 * q : 4 - 4 * q);
}

/* Where a block's rows come from, on words: each lane reads its 8
 * bytes of a row as one 8-byte word, the 8 either side taken from the
 * neighbouring lanes; the warp's first and last lanes read theirs where
 * they lie in the frame.  INSIDE: the strip's rows and the R round them
 * lie in the frame (no row to map).  EDGES: the block holds the frame's
 * left or right edge, whose width is a multiple of 8 bytes: the lane at
 * the edge makes the 8 bytes beyond it, and lanes right of the frame read
 * nothing.  C: bytes a pixel, 1 (8 columns a lane, the columns beyond
 * permuted out of its body) or 4 (2 pixels a lane, the 2 beyond whole
 * words, the second from the neighbouring lane: frames of 4 pixels or
 * more). */
template <bool INSIDE, bool EDGES, int C = 1>
struct BoxWords
{
  static constexpr int N = 4;
  const uint8_t *src;           /* column x of row 0 */
  int pitch, height, border;
  int side;                     /* the side a lane reads: -8, 8 or 0 */
  bool in, left, right;         /* EDGES: x < width, x == 0, x + 8 == width */

  __device__ __forceinline__ void fetch (int y, uint32_t (&raw)[N]) const
  {
    if (EDGES && !in)
      return;
    const uint8_t *r = src + (size_t) (INSIDE ? y :
        cip::border_index (y, height, border)) * pitch;
    const uint2 c = __ldg (reinterpret_cast<const uint2 *>(r));
    raw[0] = c.x;
    raw[1] = c.y;
    if (side) {
      const uint2 e = __ldg (reinterpret_cast<const uint2 *>(r + side));
      raw[2] = e.x;
      raw[3] = e.y;
    }
  }

  __device__ __forceinline__ void window (const uint32_t (&raw)[N],
      uint32_t (&w)[BOX_NW]) const
  {
    const bool first = threadIdx.x == 0, last = threadIdx.x == 31;
#pragma unroll
    for (int q = 0; q < 2; q++) {
      const uint32_t l = __shfl_up_sync (0xffffffffu, raw[q], 1);
      const uint32_t h = __shfl_down_sync (0xffffffffu, raw[q], 1);
      w[q] = first ? raw[2 + q] : l;
      w[2 + q] = raw[q];
      w[4 + q] = last ? raw[2 + q] : h;
    }
    if (EDGES && C == 4) {
      /* pixels -2, -1 (P, P + 1) as 2, 1 (P - 2, P - 3), or 0 (P - 1) */
      const bool reflect = border == cip::BORDER_REFLECT_101;
      if (left) {
        w[0] = reflect ? w[4] : w[2];
        w[1] = reflect ? w[3] : w[2];
      }
      if (right) {
        w[4] = reflect ? w[2] : w[3];
        w[5] = reflect ? w[1] : w[3];
      }
    } else if (EDGES) {
      const bool reflect = border == cip::BORDER_REFLECT_101;
#pragma unroll
      for (int q = 0; q < 2; q++) {
        if (left)
          w[q] = __byte_perm (raw[0], raw[1], box_side_selector (false,
                  reflect, q));
        if (right)
          w[4 + q] = __byte_perm (raw[0], raw[1], box_side_selector (true,
                  reflect, q));
      }
    }
  }
};

/* Warps at the frame's left or right edge: the warp's 272 columns (its
 * 256 and 8 either side) mapped through the border once, each lane
 * reading 9 of them a row, and the row handed round through shared
 * memory (a byte per lane and column, instead of 24 mapped bytes a
 * thread). */
struct BoxEdge
{
  static constexpr int N = 9, BAND = 32 * cip::STRIP_COLS + 2 * BOX_HW;
  const uint8_t *src;
  int pitch, height, border, lane;
  int col[N];
  uint32_t *stage;              /* the warp's BAND bytes */

  __device__ __forceinline__ void init (int width, int xw)
  {
#pragma unroll
    for (int m = 0; m < N; m++) {
      const int j = lane + 32 * m;
      col[m] = j < BAND ? cip::border_index (xw - BOX_HW + j, width,
          border) : -1;
    }
  }

  __device__ __forceinline__ void fetch (int y, uint32_t (&raw)[N]) const
  {
    const uint8_t *r = src + (size_t) cip::border_index (y, height, border) *
        pitch;
#pragma unroll
    for (int m = 0; m < N; m++)
      raw[m] = col[m] >= 0 ? __ldg (r + col[m]) : 0;
  }

  __device__ __forceinline__ void window (const uint32_t (&raw)[N],
      uint32_t (&w)[BOX_NW]) const
  {
    uint8_t *b = reinterpret_cast<uint8_t *>(stage);
#pragma unroll
    for (int m = 0; m < N; m++)
      if (lane + 32 * m < BAND)
        b[lane + 32 * m] = (uint8_t) raw[m];
    __syncwarp ();
#pragma unroll
    for (int q = 0; q < BOX_NW; q++)
      w[q] = stage[2 * lane + q];
    __syncwarp ();
  }
};

/* mask of the window bytes of word @q (bytes 4q .. 4q + 3) in output
 * column @c's box of radius @r (window bytes c + 8 - r .. c + 8 + r) */
__host__ __device__ constexpr uint32_t
box_mask (int r, int c, int q)
{
  uint32_t m = 0;
  for (int k = 0; k < 4; k++) {
    const int b = 4 * q + k;
    if (b >= c + BOX_HW - r && b <= c + BOX_HW + r)
      m |= 1u << (8 * k);
  }
  return m;
}

/* The horizontal sums of columns x .. x + 7 (window bytes 8 .. 15) as
 * lanes (0, 2), (1, 3), (4, 6), (5, 7), by byte dot products: a column's
 * sum is the byte sums of the whole words in its window (made once a
 * row) and one dp4a a partial word, on the multiply-add pipe.  (H100,
 * graph replays, 4K, against the same sums slid along lanes by permutes
 * and adds on the integer pipe: box 15x15 10.4 -> 9.7 us, 7x7 10.0 ->
 * 8.9, 5x5 9.8 -> 9.4.) */
template <int R>
__device__ __forceinline__ uint4
box_row (const uint32_t (&w)[BOX_NW])
{
  uint32_t t[BOX_NW], sc[8];
#pragma unroll
  for (int q = 0; q < BOX_NW; q++)
    t[q] = __dp4a (w[q], 0x01010101u, 0u);
#pragma unroll
  for (int c = 0; c < 8; c++) {
    uint32_t acc = 0;
#pragma unroll
    for (int q = 0; q < BOX_NW; q++) {
      const uint32_t m = box_mask (R, c, q);
      if (m == 0x01010101u)
        acc += t[q];
      else if (m)
        acc = __dp4a (w[q], m, acc);
    }
    sc[c] = acc;
  }
  return make_uint4 (__byte_perm (sc[0], sc[2], 0x5410),
      __byte_perm (sc[1], sc[3], 0x5410), __byte_perm (sc[4], sc[6], 0x5410),
      __byte_perm (sc[5], sc[7], 0x5410));
}

/* Box: the vertical sums run down the strip, adding the entering row's
 * horizontal sums and taking away the leaving one's. */
template <int R_>
struct BoxSep
{
  static constexpr int R = R_, C = 1;
  static constexpr bool RUNNING = true;

  __device__ __forceinline__ uint4 row (const uint32_t (&w)[BOX_NW],
      const LinearParams &) const
  {
    return box_row<R> (w);
  }

  /* @v: sums with their rounding */
  __device__ __forceinline__ uint2 out (uint4 v, const LinearParams & p) const
  {
    const uint32_t s[4] = { v.x, v.y, v.z, v.w };
    return lanes_divide (s, p.magic);
  }
};

/* Triangular and the default Gaussians (3x3, 5x5): weighted sums across,
 * then down the K rows of an output, in the same lanes (below 2^16: 81 *
 * 255, or 256 * 255 and the binomials' common factor taken out as in
 * VerticalStrip).  C 4: 4-byte pixels (and box 3x3, 5x5 there), a lane's
 * two pixels' channels (0, 2) and (1, 3) summed across the words of the
 * pixels either side, R <= 2. */
template <int K, int KIND, int CB = 1>
struct TapSep
{
  static constexpr int R = K / 2, SHIFT = K == 3 ? 4 : 8, C = CB;
  static constexpr bool RUNNING = false;
  static_assert (C == 1 || R <= 2, "the window's 2 pixels either side");

  __device__ __forceinline__ uint4 row (const uint32_t (&w)[BOX_NW],
      const LinearParams & p) const
  {
    uint32_t e[BOX_NW], o[BOX_NW], s[4];
    split_lanes (w, e, o);
    if constexpr (C == 1) {
      lanes_across<K, KIND> (e, o, BOX_HW, p, 0, s);
    } else {
#pragma unroll
      for (int k = 0; k < 4; k++) {
        uint32_t a[K];
#pragma unroll
        for (int t = 0; t < K; t++)
          a[t] = (k & 1 ? o : e)[2 + (k >> 1) + t - R];
        s[k] = symmetric_sum<K, KIND> (a, p, 0);
      }
    }
    return make_uint4 (s[0], s[1], s[2], s[3]);
  }

  /* the output row of the horizontal sums @a of its K rows */
  __device__ __forceinline__ uint2 out (const uint4 (&a)[K],
      const LinearParams & p) const
  {
    const uint32_t init = lanes_rounding<KIND, SHIFT> (p);
    uint32_t s[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      uint32_t c[K];
#pragma unroll
      for (int t = 0; t < K; t++)
        c[t] = k == 0 ? a[t].x : k == 1 ? a[t].y : k == 2 ? a[t].z : a[t].w;
      s[k] = symmetric_sum<K, KIND> (c, p, init);
    }
    return lanes_out<KIND, SHIFT> (s, p);
  }
};

/* Rows ybase .. ybase + NH - 1 by the block's warps in turn (past
 * @last, when CLAMP, read as @last), each row's horizontal sums once
 * into @h, each read AHEAD rows early (a warp's).  A warp's last turn
 * may lie past the NH rows: nothing read there. */
template <class Op, int NH, bool CLAMP, class Rows>
__device__ __forceinline__ void
sep_rows (const Rows & in, const LinearParams & p, uint4 (*h)[32],
    int ybase, int last)
{
  /* the edge warps' 9 words a row: 2 rows ahead (4 spill at 64
   * registers) */
  constexpr int M = (NH + BOX_WARPS - 1) / BOX_WARPS,
      AA = Rows::N > 4 ? 2 : BOX_AHEAD, A = M < AA ? M : AA;
  const int warp = threadIdx.y;
  const Op op;
  uint32_t raw[A][Rows::N];
#pragma unroll
  for (int m = 0; m < A; m++) {
    const int i = warp + BOX_WARPS * m;
    if (m < M - 1 || i < NH)
      in.fetch (CLAMP ? min (ybase + i, last) : ybase + i, raw[m]);
  }
#pragma unroll
  for (int m = 0; m < M; m++) {
    const int i = warp + BOX_WARPS * m, j = i + BOX_WARPS * A;
    uint32_t w[BOX_NW];
    in.window (raw[m % A], w);
    if (m + A < M - 1 || (m + A == M - 1 && j < NH))
      in.fetch (CLAMP ? min (ybase + j, last) : ybase + j, raw[m % A]);
    if (m < M - 1 || i < NH)
      h[i][threadIdx.x] = op.row (w, p);
  }
}

/* A block a strip of T rows and 256 columns (8 a thread): the block's 8
 * warps make each of the strip's T + 2R input rows' horizontal sums once
 * into shared memory (Op::row), then, after one barrier, each runs down T
 * / 8 output rows (Op::out), as running sums (box) or from the K rows'
 * sums kept in registers. */
template <class Op, int T>
__global__ void
__launch_bounds__ (32 * BOX_WARPS, 32 / BOX_WARPS)
sep_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    LinearParams p)
{
  constexpr int R = Op::R, K = 2 * R + 1, NH = T + 2 * R,
      WR = T / BOX_WARPS;
  __shared__ uint4 h[NH][32];
  __shared__ uint32_t stage[BOX_WARPS][BoxEdge::BAND / 4];
  const int xw = blockIdx.x * 32 * cip::STRIP_COLS;
  const int x = xw + threadIdx.x * cip::STRIP_COLS;
  const int y0 = blockIdx.y * T, border = p.border;
  /* no output row in the frame needs a row past this one */
  const int last = min (y0 + T, height) + R - 1;
  const bool edges = xw < BOX_HW || xw + 32 * cip::STRIP_COLS + BOX_HW >
      width;
  /* (4-byte pixels: widths of 8-byte multiples only) */
  if (Op::C == 4 || !edges || (width & 7) == 0) {
    const bool first = threadIdx.x == 0, end = threadIdx.x == 31;
    const int side = first && x > 0 ? -BOX_HW : end && x + BOX_HW < width ?
        BOX_HW : 0;
    if (edges) {
      const BoxWords<false, true, Op::C> in = { src + x, src_pitch, height,
        border, side, x < width, x == 0, x + BOX_HW == width
      };
      sep_rows<Op, NH, true> (in, p, h, y0 - R, last);
    } else if (y0 >= R && y0 + T + R <= height) {
      const BoxWords<true, false> in = { src + x, src_pitch, height,
        border, side
      };
      sep_rows<Op, NH, false> (in, p, h, y0 - R, last);
    } else {
      const BoxWords<false, false> in = { src + x, src_pitch, height,
        border, side
      };
      sep_rows<Op, NH, true> (in, p, h, y0 - R, last);
    }
  } else {
    BoxEdge in = { src, src_pitch, height, border, (int) threadIdx.x };
    in.stage = stage[threadIdx.y];
    in.init (width, xw);
    sep_rows<Op, NH, true> (in, p, h, y0 - R, last);
  }
  __syncthreads ();
  const Op op;
  const int o0 = threadIdx.y * WR;
  if constexpr (Op::RUNNING) {
    /* the rounding rides in the sums from the start */
    const uint32_t add2 = p.add * 0x10001u;
    uint4 v = make_uint4 (add2, add2, add2, add2);
#pragma unroll
    for (int k = 0; k < 2 * R; k++)
      v = v + h[o0 + k][threadIdx.x];
#pragma unroll
    for (int j = 0; j < WR; j++) {
      const int y = y0 + o0 + j;
      if (y >= height)
        return;
      v = v + h[o0 + j + 2 * R][threadIdx.x];
      cip::strip_store<false> (dst, dst_pitch, width, x, y, op.out (v, p));
      v = v - h[o0 + j][threadIdx.x];
    }
  } else {
    uint4 a[K];
#pragma unroll
    for (int k = 1; k < K; k++)
      a[k] = h[o0 + k - 1][threadIdx.x];
#pragma unroll
    for (int j = 0; j < WR; j++) {
      const int y = y0 + o0 + j;
      if (y >= height)
        return;
#pragma unroll
      for (int k = 0; k + 1 < K; k++)
        a[k] = a[k + 1];
      a[K - 1] = h[o0 + j + 2 * R][threadIdx.x];
      uint2 v = op.out (a, p);
      if (Op::C == 4 && p.keep_mask && x < width) {
        /* the kept byte (alpha) of each pixel as it came in */
        const uint2 c = __ldg (reinterpret_cast<const uint2 *>(src +
                (size_t) y * src_pitch + x));
        v.x = (v.x & ~p.keep_mask) | (c.x & p.keep_mask);
        v.y = (v.y & ~p.keep_mask) | (c.y & p.keep_mask);
      }
      cip::strip_store<false> (dst, dst_pitch, width, x, y, v);
    }
  }
}

}  /* namespace */

extern "C" const char *
cip_smooth_check (const CipSmoothParams * p)
{
  if (p->bpp != 1 && p->bpp != 3 && p->bpp != 4)
    return "only 1, 3 or 4 bytes a pixel";
  if (p->keep_off >= p->bpp)
    return "the kept byte lies outside the pixel";
  switch (p->method) {
    case CIP_SMOOTH_TRIANGULAR:
      return NULL;
    case CIP_SMOOTH_BOX:
      return p->ksize >= 3 && p->ksize <= 15 && (p->ksize & 1) ? NULL :
          "box takes ksize 3, 5, ... 15";
    case CIP_SMOOTH_GAUSSIAN:
      return p->ksize >= 3 && p->ksize <= 7 && (p->ksize & 1) ? NULL :
          "gaussian takes ksize 3, 5 or 7";
    case CIP_SMOOTH_MEDIAN:
      return p->ksize == 3 || p->ksize == 5 ? NULL :
          "median takes ksize 3 or 5";
  }
  return "unknown method";
}

extern "C" void
cip_smooth_gaussian_taps (int ksize, double sigma, int *taps)
{
  const int r = ksize / 2;
  double v[8], sum = 0.0, err = 0.0;
  int total = 0;

  if (sigma <= 0.0) {
    for (int i = 0; i < ksize; i++)
      taps[i] = gaussian_default_tap (ksize, i);
    return;
  }
  /* getGaussianKernelBitExact's operations in its order, then
   * getGaussianKernelFixedPoint_ED's rounding (half to even, the error
   * carried to the next tap); tests/cpu_ref.c says why libm's exp serves */
  for (int i = 0; i < r; i++) {
    const double x = (double) (2 * i + 1 - ksize);
    v[i] = exp ((x * x) * (-0.125 / (sigma * sigma)));
    sum += v[i];
  }
  const double mul = 1.0 / (sum * 2.0 + 1.0);
  for (int i = 0; i < r; i++) {
    const double adj = (v[i] * mul) * 256.0 + err;
    const double q = nearbyint (adj);
    err = adj - q;
    taps[i] = taps[ksize - 1 - i] = (int) q;
    total += 2 * (int) q;
  }
  taps[r] = 256 - total;
}

/* sep_kernel on GRAY8: strips of T rows.  Taller strips sum fewer rows
 * twice, shorter ones spread a small frame over more SMs: 64 rows where
 * that still makes 3 blocks an SM (4K and up), else 32 for R from 6 where
 * that makes 2 (1080p), else 16.  (H100, graph replays: 4K box 15x15
 * 10.3 us at 64 rows, 12.2 at 32, 14.6 at 16, Gaussian 5x5 8.5, 9.2,
 * 10.6; 1080p box 7x7 3.6 us at 16, 3.9 at 32, box 15x15 5.2 and 5.0.) */
template <class Op>
static void
sep_launch (const uint8_t * s, int src_pitch, uint8_t * d, int dst_pitch,
    int width, int height, const LinearParams & lp, cudaStream_t stream)
{
  const int cols = (width + 32 * cip::STRIP_COLS - 1) / (32 *
      cip::STRIP_COLS);
  const long long sms = cip::sm_count ();
  const dim3 block (32, BOX_WARPS);
#define CIP_SEP(T) \
  sep_kernel<Op, T><<<dim3 (cols, (height + T - 1) / T), block, 0, \
      stream>>> (s, src_pitch, d, dst_pitch, width, height, lp)
  if ((long long) cols * ((height + 63) / 64) >= 3 * sms)
    CIP_SEP (64);
  else if (Op::R >= 6 && (long long) cols * ((height + 31) / 32) >= 2 * sms)
    CIP_SEP (32);
  else
    CIP_SEP (16);
#undef CIP_SEP
}

/* The register strips: ROWS 4 or 2, the most (Op::MOST_ROWS) that still
 * make Op::BLOCKS_PER_SM blocks an SM, 8 for most (taller strips read
 * fewer halo rows, shorter ones spread a small frame over more SMs; H100:
 * 4 rows from 1080p up). */
template <class Op, int ROWS>
static void
strip_launch_rows (const uint8_t * s, int src_pitch, uint8_t * d,
    int dst_pitch, int width, int height, int border, const LinearParams & lp,
    dim3 grid, cudaStream_t stream)
{
  const dim3 block (32, 4);
  if (border == cip::BORDER_REFLECT_101)
    strip_kernel<Op, ROWS, cip::BORDER_REFLECT_101><<<grid, block, 0,
        stream>>> (s, src_pitch, d, dst_pitch, width, height, lp);
  else
    strip_kernel<Op, ROWS, cip::BORDER_REPLICATE><<<grid, block, 0,
        stream>>> (s, src_pitch, d, dst_pitch, width, height, lp);
}

template <class Op>
static void
strip_launch_op (const uint8_t * s, int src_pitch, uint8_t * d,
    int dst_pitch, int width, int height, int border, const LinearParams & lp,
    cudaStream_t stream)
{
  const int cols = (width + 32 * cip::STRIP_COLS - 1) / (32 *
      cip::STRIP_COLS);
  const int rows = cip::rows_for (cols, height, 4, (long long)
      Op::BLOCKS_PER_SM * cip::sm_count (), Op::MOST_ROWS);
  const dim3 grid (cols, (height + 4 * rows - 1) / (4 * rows));
  if constexpr (Op::MOST_ROWS >= 4) {
    if (rows == 4) {
      strip_launch_rows<Op, 4> (s, src_pitch, d, dst_pitch, width, height,
          border, lp, grid, stream);
      return;
    }
  }
  strip_launch_rows<Op, 2> (s, src_pitch, d, dst_pitch, width, height,
      border, lp, grid, stream);
}

/* The Gaussian's taps in @lp are its default ones (sigma 0), which the
 * fixed-tap kernels hold as constants (TAPS_BINOMIAL, TAPS_GAUSS7) */
static bool
gaussian_default_taps (int ksize, const LinearParams & lp)
{
  int taps[7];
  cip_smooth_gaussian_taps (ksize, 0.0, taps);
  for (int i = 0; i < ksize; i++)
    if (lp.w[i] != (uint32_t) taps[i])
      return false;
  return true;
}

static cudaError_t
strip_launch (const uint8_t * s, int src_pitch, uint8_t * d, int dst_pitch,
    int width, int height, int method, int ksize, int border,
    const LinearParams & lp, cudaStream_t stream)
{
  const bool fixed = method == CIP_SMOOTH_GAUSSIAN &&
      gaussian_default_taps (ksize, lp);
#define CIP_STRIP(...) \
  strip_launch_op<__VA_ARGS__> (s, src_pitch, d, dst_pitch, width, height, \
      border, lp, stream)
  switch (method) {
    case CIP_SMOOTH_MEDIAN:
      if (ksize == 3)
        CIP_STRIP (Median3Strip);
      else
        CIP_STRIP (Median5Strip);
      break;
    case CIP_SMOOTH_TRIANGULAR:
      /* a block's rows summed across once, then down (H100, graph
       * replays, against LinearStrip: 1080p 3.95 -> 3.35 us, 4K 10.6 ->
       * 9.0, 8K 29.3 -> 30.8) */
      sep_launch<TapSep<5, TAPS_TRIANGULAR>> (s, src_pitch, d, dst_pitch,
          width, height, lp, stream);
      break;
    case CIP_SMOOTH_GAUSSIAN:
      /* 5x5 as triangular (against VerticalStrip: 1080p 3.89 -> 3.14,
       * 4K 10.9 -> 8.5, 8K 30.2 -> 28.9); 3x3 was as fast on strips */
      if (fixed && ksize == 3)
        CIP_STRIP (VerticalStrip<3, TAPS_BINOMIAL>);
      else if (fixed && ksize == 5)
        sep_launch<TapSep<5, TAPS_BINOMIAL>> (s, src_pitch, d, dst_pitch,
            width, height, lp, stream);
      else if (fixed)
        CIP_STRIP (LinearStrip<7, TAPS_GAUSS7>);
      else if (ksize == 3)
        CIP_STRIP (LinearStrip<3, TAPS_ANY>);
      else if (ksize == 5)
        CIP_STRIP (LinearStrip<5, TAPS_ANY>);
      else
        CIP_STRIP (LinearStrip<7, TAPS_ANY>);
      break;
    case CIP_SMOOTH_BOX:
      /* 5 and up: sep_kernel (box_launch) */
      CIP_STRIP (VerticalStrip<3, TAPS_BOX>);
      break;
  }
#undef CIP_STRIP
  return cudaGetLastError ();
}

static cudaError_t
box_launch (const uint8_t * s, int src_pitch, uint8_t * d, int dst_pitch,
    int width, int height, int ksize, const LinearParams & lp,
    cudaStream_t stream)
{
#define CIP_BOX(R) \
  sep_launch<BoxSep<R>> (s, src_pitch, d, dst_pitch, width, height, lp, \
      stream)
  switch (ksize) {
    case 5:
      CIP_BOX (2);
      break;
    case 7:
      CIP_BOX (3);
      break;
    case 9:
      CIP_BOX (4);
      break;
    case 11:
      CIP_BOX (5);
      break;
    case 13:
      CIP_BOX (6);
      break;
    default:
      CIP_BOX (7);
      break;
  }
#undef CIP_BOX
  return cudaGetLastError ();
}

/* 4-byte pixels on 8-byte aligned rows, an even width of 4 or more:
 * triangular, the default 3x3 and 5x5 Gaussians and box 3x3, 5x5 by
 * sep_kernel (false: not served here).  (H100, graph replays, RGBA 4K
 * Gaussian 5x5: the tiled kernel 57.4 us, 2.4x a frame copy.) */
template <int KIND>
static void
quad_sep (const uint8_t * s, int src_pitch, uint8_t * d, int dst_pitch,
    int wb, int height, int ksize, const LinearParams & lp,
    cudaStream_t stream)
{
  if constexpr (KIND != TAPS_TRIANGULAR) {     /* (triangular: 5 only) */
    if (ksize == 3) {
      sep_launch<TapSep<3, KIND, 4>> (s, src_pitch, d, dst_pitch, wb,
          height, lp, stream);
      return;
    }
  }
  sep_launch<TapSep<5, KIND, 4>> (s, src_pitch, d, dst_pitch, wb, height,
      lp, stream);
}

static bool
quad_launch (const uint8_t * s, int src_pitch, uint8_t * d, int dst_pitch,
    int width, int height, int method, int ksize, const LinearParams & lp,
    cudaStream_t stream)
{
  const int wb = 4 * width;
  if (method == CIP_SMOOTH_TRIANGULAR)
    quad_sep<TAPS_TRIANGULAR> (s, src_pitch, d, dst_pitch, wb, height, 5, lp,
        stream);
  else if (method == CIP_SMOOTH_BOX && ksize <= 5)
    quad_sep<TAPS_BOX> (s, src_pitch, d, dst_pitch, wb, height, ksize, lp,
        stream);
  else if (method == CIP_SMOOTH_GAUSSIAN && ksize <= 5 &&
      gaussian_default_taps (ksize, lp))
    quad_sep<TAPS_BINOMIAL> (s, src_pitch, d, dst_pitch, wb, height, ksize,
        lp, stream);
  else
    return false;
  return true;
}

/* The launches: K and C are template arguments (unrolled taps), PY the
 * rows a thread takes down its column.  Taller tiles recompute fewer halo
 * rows but were slower (H100, 4K Gaussian 5x5: 21.1 us at 4 rows, 25.8
 * at 8, 36.2 at 16; box 15x15 37 us at 4 and 8): a block loads its tile,
 * waits at the barrier, then computes, and fewer, longer blocks overlap
 * those phases less. */

constexpr int LINEAR_PY = 4, MEDIAN_PY = 8;

#define CIP_LIN(K, C, P) \
  smooth_kernel<LinearOp<K, C, P>, K, C, LINEAR_PY><<<dim3 (cols, \
      (height + 8 * LINEAR_PY - 1) / (8 * LINEAR_PY)), block, 0, stream>>> \
      (s, src_pitch, d, dst_pitch, width, height, lp, as, as16, ad)
#define CIP_LIN_C(K, P) \
  (p->bpp == 1 ? CIP_LIN (K, 1, P) : p->bpp == 3 ? CIP_LIN (K, 3, P) : \
      CIP_LIN (K, 4, P))
#define CIP_MED(K, C) \
  smooth_kernel<MedianOp<K, C>, K, C, MEDIAN_PY><<<dim3 (cols, \
      (height + 8 * MEDIAN_PY - 1) / (8 * MEDIAN_PY)), block, 0, stream>>> \
      (s, src_pitch, d, dst_pitch, width, height, lp, as, as16, ad)
#define CIP_MED_C(K) \
  (p->bpp == 1 ? CIP_MED (K, 1) : p->bpp == 3 ? CIP_MED (K, 3) : \
      CIP_MED (K, 4))

extern "C" cudaError_t
cip_smooth (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const CipSmoothParams * p, cudaStream_t stream)
{
  if (width <= 0 || height <= 0 || cip_smooth_check (p))
    return cudaErrorInvalidValue;
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  const bool as = cip::is_aligned (src, src_pitch, 4);
  const bool ad = cip::is_aligned (dst, dst_pitch, 4);
  const bool as16 = cip::is_aligned (src, src_pitch, 16);
  const int ksize = p->method == CIP_SMOOTH_TRIANGULAR ? 5 : p->ksize;
  LinearParams lp;
  uint32_t div = 1;

  memset (&lp, 0, sizeof (lp));
  lp.border = p->border;
  if (p->keep_off >= 0 && p->bpp == 4)
    lp.keep_mask = 0xffu << (8 * p->keep_off);
  switch (p->method) {
    case CIP_SMOOTH_TRIANGULAR:{
      static const uint32_t tri[5] = { 1, 2, 3, 2, 1 };
      memcpy (lp.w, tri, sizeof (tri));
      div = 81;
      break;
    }
    case CIP_SMOOTH_BOX:
      for (int i = 0; i < ksize; i++)
        lp.w[i] = 1;
      div = ksize * ksize;
      break;
    case CIP_SMOOTH_GAUSSIAN:{
      int taps[7];
      cip_smooth_gaussian_taps (ksize, p->sigma, taps);
      for (int i = 0; i < ksize; i++)
        lp.w[i] = taps[i];
      div = 65536;
      break;
    }
    case CIP_SMOOTH_MEDIAN:
      break;
  }
  /* round (sum / div): half up for 2^16 as OpenCV's fixed point, never a
   * tie for the odd divisors; the reciprocal rounded up is exact for sums
   * below 2^32 / div */
  lp.add = div / 2;
  lp.magic = (uint32_t) ((((uint64_t) 1 << 32) + div - 1) / div);

  (void) cudaGetLastError ();
  if (p->bpp == 1 && p->method == CIP_SMOOTH_BOX && ksize >= 5 &&
      cip::is_aligned (src, src_pitch, 8) &&
      cip::is_aligned (dst, dst_pitch, 8))
    return box_launch (s, src_pitch, d, dst_pitch, width, height, ksize, lp,
        stream);
  if (p->bpp == 1 && ksize <= 7 && cip::is_aligned (src, src_pitch, 8) &&
      cip::is_aligned (dst, dst_pitch, 8))
    return strip_launch (s, src_pitch, d, dst_pitch, width, height, p->method,
        ksize, p->border, lp, stream);
  if (p->bpp == 4 && width >= 4 && !(width & 1) &&
      cip::is_aligned (src, src_pitch, 8) &&
      cip::is_aligned (dst, dst_pitch, 8) &&
      quad_launch (s, src_pitch, d, dst_pitch, width, height, p->method,
          ksize, lp, stream))
    return cudaGetLastError ();

  const dim3 block (32, 8);
  const int cols = (width * p->bpp + TW - 1) / TW;
  if (p->method == CIP_SMOOTH_MEDIAN) {
    if (ksize == 3)
      CIP_MED_C (3);
    else
      CIP_MED_C (5);
    return cudaGetLastError ();
  }
  /* box and triangular sums fit 16-bit lanes; the Gaussian's do not */
  const bool packed = p->method != CIP_SMOOTH_GAUSSIAN;
  switch (ksize) {
    case 3:
      packed ? CIP_LIN_C (3, true) : CIP_LIN_C (3, false);
      break;
    case 5:
      packed ? CIP_LIN_C (5, true) : CIP_LIN_C (5, false);
      break;
    case 7:
      packed ? CIP_LIN_C (7, true) : CIP_LIN_C (7, false);
      break;
    case 9:
      CIP_LIN_C (9, true);
      break;
    case 11:
      CIP_LIN_C (11, true);
      break;
    case 13:
      CIP_LIN_C (13, true);
      break;
    case 15:
      CIP_LIN_C (15, true);
      break;
  }
  return cudaGetLastError ();
}

/* cudaimgproc: a pixel's luma, device side (cudagray's, and the luma
 * histogram counted straight from packed RGB).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_LUMA_CUH__
#define __CIP_LUMA_CUH__

#include "gray.h"

namespace cip {

/* Weights for luma_word: @cr, @cg and @cb (CIP_GRAY_SHIFT fixed point,
 * each below 2^16) as 16-bit halves at their channels' bytes @ro, @go and
 * @bo (distinct, 0..3) of a pixel's word: the low word's halves for bytes
 * 0 and 1, the high word's for bytes 2 and 3; a byte no channel names
 * weighs 0. */
struct LumaWeights
{
  uint32_t lo, hi;
};

__device__ __forceinline__ LumaWeights
luma_weights (int cr, int cg, int cb, int ro, int go, int bo)
{
  const uint32_t r = (uint32_t) cr << (ro * 16 % 32),
      g = (uint32_t) cg << (go * 16 % 32), b = (uint32_t) cb << (bo * 16 % 32);
  return { (ro < 2 ? r : 0u) | (go < 2 ? g : 0u) | (bo < 2 ? b : 0u),
    (ro >= 2 ? r : 0u) | (go >= 2 ? g : 0u) | (bo >= 2 ? b : 0u)
  };
}

/* The luma of the pixel in @px, its channels where @w places them: the
 * weighted sum in CIP_GRAY_SHIFT fixed point, rounded half up (gray.h:
 * with the BT.601 weights OpenCV's cvtColor RGB2GRAY), as two two-way
 * dot products of 16-bit weights and bytes (IDP2A): three instructions
 * with the shift, where extracting the channels and the multiply-adds
 * took eight.  Exact: each product is below 2^24. */
__device__ __forceinline__ int
luma_word (uint32_t px, LumaWeights w)
{
  return (int) (__dp2a_lo (w.lo, px, __dp2a_hi (w.hi, px,
              1u << (CIP_GRAY_SHIFT - 1))) >> CIP_GRAY_SHIFT);
}

}                               /* namespace cip */

#endif /* __CIP_LUMA_CUH__ */

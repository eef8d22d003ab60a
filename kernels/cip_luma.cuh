/* cudaimgproc: a pixel's luma, device side (cudagray's, and the luma
 * histogram counted straight from packed RGB).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_LUMA_CUH__
#define __CIP_LUMA_CUH__

#include "gray.h"

namespace cip {

/* Weights in CIP_GRAY_SHIFT fixed point, rounded half up: OpenCV's
 * cvtColor RGB2GRAY for BT.601 (gray.h). */
__device__ __forceinline__ int
luma (int r, int g, int b, int cr, int cg, int cb)
{
  return (r * cr + g * cg + b * cb + (1 << (CIP_GRAY_SHIFT - 1))) >>
      CIP_GRAY_SHIFT;
}

}                               /* namespace cip */

#endif /* __CIP_LUMA_CUH__ */

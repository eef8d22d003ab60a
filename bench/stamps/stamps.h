/* cudaimgproc: what the stamp tools (bench/stamps) share: the benchmark's
 * frames and a CUDA call's check.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C"
{
#include "content.h"
}

/* main's way out of a failed CUDA call */
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s: %s\n", #x, cudaGetErrorString (e_)); \
      return 1; } } while (0)

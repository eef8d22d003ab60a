/* cudaimgproc benchmarks: realistic frames, a photograph scaled up.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

/* Reads a raw RGB file of @w x @h; 0 if it cannot. */
int load_photo (const char *path, int w, int h);
int bench_have_photo (void);

/* Bilinear scale of the photo (or, without one, a smooth synthetic scene)
 * to @w x @h, @bpp bytes a pixel (3: RGB, 4: RGBA with alpha 255, 1: its
 * BT.601 luma); free () it. */
uint8_t *make_content (int w, int h, int bpp);

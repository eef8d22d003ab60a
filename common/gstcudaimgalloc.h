/* cudaimgproc: the allocation hook: counts, logs and (for tests) fails.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

void gst_cuda_img_alloc_init (void);

G_END_DECLS

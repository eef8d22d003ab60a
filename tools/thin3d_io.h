/* cudaimgproc-thin3d: the parsers of what a user gives the tool (a raw
 * volume's --size, a .npy file's header), apart from the tool so that the
 * fuzz target (tools/fuzz_thin3d_io.c) runs the very same code.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_THIN3D_IO_H__
#define __CIP_THIN3D_IO_H__

#include <stddef.h>

#define CIP_DIM_MAX 0x7fffffff  /* each dimension: 1 .. 2^31 - 1 */

/* "WxHxD": three decimal numbers, each 1..CIP_DIM_MAX, joined by 'x',
 * nothing else (no sign, space or leading text).  1 on success. */
int cip_parse_size (const char *s, int *w, int *h, int *d);

/* a * b * c, 0 where it overflows size_t. */
size_t cip_volume_bytes (size_t a, size_t b, size_t c);

typedef struct
{
  int is_bool;                  /* '|b1', else uint8 */
  int fortran_order;
  int ndim;                     /* 0 .. CIP_NPY_MAX_DIMS */
  unsigned long long shape[4];
} CipNpyHeader;

#define CIP_NPY_MAX_DIMS 4

/* The header dict of a .npy file (the @len bytes after the length field),
 * parsed as the format defines it: a Python dict literal with exactly the
 * keys 'descr', 'fortran_order' and 'shape', then spaces and a newline.
 * 'descr' must name uint8 or bool; 'shape' is a tuple of at most
 * CIP_NPY_MAX_DIMS non-negative integers.  Returns 1 on success, else 0
 * with a message in @why (for "'FILE': ..."). */
int cip_npy_parse_header (const char *hdr, size_t len, CipNpyHeader * out,
    char *why, size_t why_len);

#endif

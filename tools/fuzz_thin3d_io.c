/* cudaimgproc-thin3d: a libFuzzer target for the parsers of the tool's
 * inputs (thin3d_io.c): the first byte picks the parser, the rest is its
 * input: 'S' a --size value, anything else a .npy header dict.  Built and
 * run by tests/fuzz.sh (clang, ASan and UBSan).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "thin3d_io.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  char *s, why[256];
  int w, h, d;
  CipNpyHeader hdr;

  if (size < 1)
    return 0;
  /* an exact-size copy, so that ASan sees any read past the input */
  s = malloc (size);
  if (!s)
    return 0;
  memcpy (s, data + 1, size - 1);
  if (data[0] == 'S') {
    s[size - 1] = '\0';
    if (cip_parse_size (s, &w, &h, &d) && (w < 1 || h < 1 || d < 1))
      abort ();
  } else if (cip_npy_parse_header (s, size - 1, &hdr, why, sizeof why)) {
    if (hdr.ndim < 0 || hdr.ndim > CIP_NPY_MAX_DIMS)
      abort ();
    (void) cip_volume_bytes (hdr.ndim > 0 ? hdr.shape[0] : 1,
        hdr.ndim > 1 ? hdr.shape[1] : 1, hdr.ndim > 2 ? hdr.shape[2] : 1);
  } else if (!why[0]) {
    abort ();                   /* a refusal always says why */
  }
  free (s);
  return 0;
}

# cudaimgproc: what the golden-data generators (tests/gen_*_golden.py)
# share with tests/cpu_ref.c.
# Copyright (C) 2026 cudaimgproc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
import ctypes
import os
import subprocess
import tempfile

import numpy as np

_C = r"""
#include <stddef.h>
#include <stdint.h>
uint32_t fnv1a (const uint8_t *p, size_t n)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}
"""
_lib = None


def _fast():
    """The same hash compiled (cc), for frames up to 8K, where the Python
    loop takes minutes; None without a compiler."""
    global _lib
    if _lib is None:
        try:
            d = tempfile.mkdtemp()
            src, so = os.path.join(d, "fnv.c"), os.path.join(d, "fnv.so")
            with open(src, "w") as f:
                f.write(_C)
            subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", so, src],
                           check=True)
            _lib = ctypes.CDLL(so)
            _lib.fnv1a.restype = ctypes.c_uint32
            _lib.fnv1a.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        except (OSError, subprocess.CalledProcessError):
            _lib = False
    return _lib or None


def fnv1a(a):
    """FNV-1a of an array's bytes in C order, as ref_fnv1a () hashes
    them."""
    b = np.ascontiguousarray(a).tobytes()
    lib = _fast()
    if lib:
        return lib.fnv1a(b, len(b))
    h = 2166136261
    for c in b:
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h

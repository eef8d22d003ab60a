# cudaimgproc: what the golden-data generators (tests/gen_*_golden.py)
# share with tests/cpu_ref.c.
# Copyright (C) 2026 cudaimgproc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
import numpy as np


def fnv1a(a):
    """FNV-1a of an array's bytes in C order, as ref_fnv1a () hashes
    them."""
    h = 2166136261
    for b in np.ascontiguousarray(a).tobytes():
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h

/* cudaimgproc: the deletion templates of Palágyi & Kuba's 12-subiteration
 * 3D thinning, shared by the kernels and the CPU reference.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * K. Palágyi and A. Kuba, "A Parallel 3D 12-Subiteration Thinning
 * Algorithm", Graphical Models and Image Processing 61 (1999) 199-221.
 *
 * The 14 templates T1..T14 of direction US, as pictures of the 3x3x3
 * neighbourhood in the template frame: character 9c + 3b + a is the voxel
 * at (a, b, c), centre (1, 1, 1); U is +c (c = 2), S is -b (b = 0), a is the
 * E-W axis (every template set is its own mirror image along a).
 *   '1' object (black)           '0' background (white)
 *   'x' either                   'a' at least one of the 'a's is object
 *   'n', 'm' not both of the two 'n's (of the two 'm's) are object
 *   'o' exactly one of the two 'o's is object
 * Written plane by plane, c = 0, 1, 2, each row b = 0, 1, 2.
 */
#ifndef __CIP_KERNELS_THIN3D_TEMPLATES_H__
#define __CIP_KERNELS_THIN3D_TEMPLATES_H__

#define CIP_PK12_N_TEMPLATES 14
#define CIP_PK12_TEMPLATES \
  /* T1: U face white, d(p) black, another black below the U face */ \
  "aaa" "a1a" "aaa"  "aaa" "a1a" "aaa"  "000" "000" "000", \
  /* T2: S face white, n(p) black, another black north of it */ \
  "000" "aaa" "aaa"  "000" "a1a" "a1a"  "000" "aaa" "aaa", \
  /* T3: U and S faces white, the DN edge neighbour black */ \
  "000" "axa" "a1a"  "000" "a1a" "axa"  "000" "000" "000", \
  /* T4 */ \
  "xxx" "x1x" "xxx"  "n0m" "x1x" "x1x"  "000" "n0m" "xxx", \
  /* T5 */ \
  "xxx" "x1x" "xxx"  "n0o" "x1x" "x1x"  "001" "n0o" "xxx", \
  /* T6 */ \
  "xxx" "x1x" "xxx"  "o0m" "x1x" "x1x"  "100" "o0m" "xxx", \
  /* T7 */ \
  "xxx" "x1x" "xxx"  "n0x" "x11" "x1x"  "00x" "n0x" "xxx", \
  /* T8 */ \
  "xxx" "x1x" "xxx"  "x0m" "11x" "x1x"  "x00" "x0m" "xxx", \
  /* T9 */ \
  "xxx" "x1x" "xxx"  "o0x" "x11" "x1x"  "10x" "o0x" "xxx", \
  /* T10 */ \
  "xxx" "x1x" "xxx"  "x0o" "11x" "x1x"  "x01" "x0o" "xxx", \
  /* T11 */ \
  "00x" "xx1" "x1x"  "00x" "x1x" "xxx"  "000" "000" "000", \
  /* T12 */ \
  "x00" "1xx" "x1x"  "x00" "x1x" "xxx"  "000" "000" "000", \
  /* T13 */ \
  "000" "xxx" "x1x"  "000" "x1x" "xx1"  "000" "00x" "00x", \
  /* T14 */ \
  "000" "xxx" "x1x"  "000" "x1x" "1xx"  "000" "x00" "x00"

/* The 12 directions in the paper's order: US, NE, DW, SE, UW, DN, SW, UN,
 * DE, NW, UE, DS.  Direction PQ uses the templates turned so that the
 * template's U goes to P and its S to Q (a proper rotation: the template's
 * +a goes to P x Q).  On a volume of slices (x column, y row, z slice):
 * E = +x, W = -x, N = -y (the row above), S = +y, U = +z (the next slice),
 * D = -z.  Each entry: P's (dx, dy, dz), then Q's. */
#define CIP_PK12_N_DIRECTIONS 12
#define CIP_PK12_U { 0, 0, 1 }
#define CIP_PK12_D { 0, 0, -1 }
#define CIP_PK12_N { 0, -1, 0 }
#define CIP_PK12_S { 0, 1, 0 }
#define CIP_PK12_E { 1, 0, 0 }
#define CIP_PK12_W { -1, 0, 0 }
#define CIP_PK12_DIRECTIONS \
  { CIP_PK12_U, CIP_PK12_S }, { CIP_PK12_N, CIP_PK12_E }, \
  { CIP_PK12_D, CIP_PK12_W }, { CIP_PK12_S, CIP_PK12_E }, \
  { CIP_PK12_U, CIP_PK12_W }, { CIP_PK12_D, CIP_PK12_N }, \
  { CIP_PK12_S, CIP_PK12_W }, { CIP_PK12_U, CIP_PK12_N }, \
  { CIP_PK12_D, CIP_PK12_E }, { CIP_PK12_N, CIP_PK12_W }, \
  { CIP_PK12_U, CIP_PK12_E }, { CIP_PK12_D, CIP_PK12_S }

#endif /* __CIP_KERNELS_THIN3D_TEMPLATES_H__ */

/* A sequential model of kernels/blobs.cu's labelling (pairs of a row's
 * pixels as the nodes at 4-connectivity, 2x2 blocks at 8; tiles, runs,
 * links with their pruning, border unions, pieces, roots' ranks),
 * checked against ref_label: the algorithm, not the concurrency.
 * gcc -O2 -Itests -Ikernels -Ibuild docs/notes/blobs_model.c tests/cpu_ref.c -lm -lpthread */
#include "cpu_ref.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#define TW 32
#define TH 16
#define TN (TW * TH)

static int fg_at (const uint8_t * m, int pitch, int w, int h, int x, int y)
{
  return x >= 0 && y >= 0 && x < w && y < h && m[(size_t) y * pitch + x];
}

static unsigned links (int eight, const uint8_t * mask, int pitch, int w, int h, int nx, int ny)
{
  if (!eight) {
    int x = 2 * nx, y = ny;
    int a = fg_at (mask, pitch, w, h, x, y), b = fg_at (mask, pitch, w, h, x + 1, y);
    if (!(a || b)) return 0;
    int ua = fg_at (mask, pitch, w, h, x, y - 1);
    int l = a && fg_at (mask, pitch, w, h, x - 1, y);
    int u = (a && ua) || (b && fg_at (mask, pitch, w, h, x + 1, y - 1));
    int skip_u = l && ua && fg_at (mask, pitch, w, h, x - 1, y - 1);
    return 16u | (l ? 1u : 0u) | (u && !skip_u ? 2u : 0u);
  }
  int x = 2 * nx, y = 2 * ny;
  int a = fg_at (mask, pitch, w, h, x, y), b = fg_at (mask, pitch, w, h, x + 1, y);
  int c = fg_at (mask, pitch, w, h, x, y + 1), d = fg_at (mask, pitch, w, h, x + 1, y + 1);
  if (!(a || b || c || d)) return 0;
  unsigned m = 16u;
  if ((a || c) && (fg_at (mask, pitch, w, h, x - 1, y) || fg_at (mask, pitch, w, h, x - 1, y + 1))) m |= 1u;
  int tc = fg_at (mask, pitch, w, h, x, y - 1), td = fg_at (mask, pitch, w, h, x + 1, y - 1);
  int up = (a || b) && (tc || td);
  if (up) m |= 2u;
  if (a && fg_at (mask, pitch, w, h, x - 1, y - 1) && !(up && (tc || fg_at (mask, pitch, w, h, x, y - 2)))) m |= 4u;
  if (b && fg_at (mask, pitch, w, h, x + 2, y - 1) && !(up && (td || fg_at (mask, pitch, w, h, x + 1, y - 2)))) m |= 8u;
  return m;
}

static void link_offset (unsigned bit, int *dx, int *dy)
{
  *dx = bit == 0 ? -1 : bit == 1 ? 0 : bit == 2 ? -1 : 1;
  *dy = bit == 0 ? 0 : -1;
}

static int find_root (int *p, int x, int halve)
{
  for (;;) {
    int q = p[x];
    if (q == x) return x;
    int g = p[q];
    if (g == q) return q;
    if (halve) p[x] = g;
    x = g;
  }
}

static void unite (int *p, int a, int b, int halve)
{
  for (;;) {
    a = find_root (p, a, halve);
    b = find_root (p, b, halve);
    if (a == b) return;
    if (a < b) { int t = a; a = b; b = t; }
    if (p[a] == a) { p[a] = b; return; }
    a = p[a];
  }
}

static int label_sim (int eight, const uint8_t * mask, int pitch, int w, int h, int32_t * out)
{
  int nw = (w + 1) / 2, nh = eight ? (h + 1) / 2 : h;
  int nn = nw * nh;
  int *parent = malloc (sizeof (int) * nn), *pieces = malloc (sizeof (int) * nn);
  int *label = malloc (sizeof (int) * nn);
  unsigned char *bits = calloc (nn, 1);
  int np = 0;
  int gx = (nw + TW - 1) / TW, gy = (nh + TH - 1) / TH;
  for (int by = 0; by < gy; by++)
    for (int bx = 0; bx < gx; bx++) {
      int sp[TN];
      unsigned m[TN];
      int x0 = bx * TW, y0 = by * TH;
      for (int ty = 0; ty < TH; ty++) {
        unsigned joined = 0;
        for (int tx = 0; tx < TW; tx++) {
          int nx = x0 + tx, ny = y0 + ty, in = nx < nw && ny < nh;
          m[ty * TW + tx] = in ? links (eight, mask, pitch, w, h, nx, ny) : 0u;
          if (tx > 0 && (m[ty * TW + tx] & 1u)) joined |= 1u << tx;
        }
        for (int tx = 0; tx < TW; tx++) {
          unsigned starts = ~joined & (tx == 31 ? 0xffffffffu : ((2u << tx) - 1u));
          int start = 31 - __builtin_clz (starts);
          sp[ty * TW + tx] = (m[ty * TW + tx] & 16u) ? ty * TW + start : -1;
        }
      }
      for (int li = 0; li < TN; li++) {
        int tx = li % TW, ty = li / TW;
        if (!(m[li] & 16u)) continue;
        for (unsigned bit = 1, r = (m[li] >> 1) & 7u; r; bit++, r >>= 1) {
          int dx, dy;
          link_offset (bit, &dx, &dy);
          if ((r & 1u) && tx + dx >= 0 && tx + dx < TW && ty + dy >= 0) {
            if (sp[li + dy * TW + dx] < 0) { fprintf (stderr, "link to background\n"); exit (2); }
            unite (sp, li, li + dy * TW + dx, 0);
          }
        }
      }
      for (int li = 0; li < TN; li++) {
        int tx = li % TW, ty = li / TW, nx = x0 + tx, ny = y0 + ty;
        if (nx >= nw || ny >= nh) continue;
        int i = ny * nw + nx;
        if (m[li] & 16u) {
          int r = find_root (sp, li, 0);
          parent[i] = (y0 + r / TW) * nw + x0 + r % TW;
          if (r == li) pieces[np++] = i;
        } else parent[i] = -1;
      }
    }
  /* border */
  for (int by = 0; by < gy; by++)
    for (int bx = 0; bx < gx; bx++)
      for (int t = 0; t < 64; t++) {
        int tx, ty;
        if (t < TW) { tx = t; ty = 0; }
        else if (t < TW + TH - 1) { tx = 0; ty = t - TW + 1; }
        else if (eight && t < TW + 2 * (TH - 1)) { tx = TW - 1; ty = t - TW - TH + 2; }
        else continue;
        int nx = bx * TW + tx, ny = by * TH + ty;
        if (nx >= nw || ny >= nh) continue;
        unsigned mm = links (eight, mask, pitch, w, h, nx, ny);
        for (unsigned bit = 0, r = mm & 15u; r; bit++, r >>= 1) {
          int dx, dy;
          link_offset (bit, &dx, &dy);
          if ((r & 1u) && (tx + dx < 0 || tx + dx >= TW || ty + dy < 0)) {
            if (parent[(ny + dy) * nw + nx + dx] < 0) { fprintf (stderr, "border link to background\n"); exit (2); }
            unite (parent, ny * nw + nx, (ny + dy) * nw + nx + dx, 1);
          }
        }
      }
  for (int k = 0; k < np; k++) {
    int t = pieces[k], r = find_root (parent, t, 0);
    if (r != t) parent[t] = r; else bits[t] = 1;
  }
  int rank = 0;
  for (int i = 0; i < nn; i++) if (bits[i]) label[i] = ++rank;
  /* each piece's label, its root's (assign_kernel) */
  for (int k = 0; k < np; k++) label[pieces[k]] = label[parent[pieces[k]]];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int l = 0;
      if (mask[(size_t) y * pitch + x]) {
        int p = parent[(eight ? y >> 1 : y) * nw + (x >> 1)];
        if (p >= 0) {
          if (parent[parent[p]] != parent[p]) { fprintf (stderr, "not two levels\n"); exit (2); }
          l = label[p];
        }
      }
      out[(size_t) y * w + x] = l;
    }
  free (parent); free (pieces); free (label); free (bits);
  return rank;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned xr (void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (unsigned) rng; }

int main (void)
{
  int sizes[][2] = { {1,1},{3,2},{2,3},{7,5},{33,17},{64,32},{65,33},{127,61},{200,150},{333,257},{640,480},{1001,77},{1920,1080},{3840,2160} };
  int fails = 0, cases = 0;
  for (unsigned si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (int dens = 5; dens <= 95; dens += 15)
      for (int kind = 0; kind < 6; kind++)
        for (int conn = 4; conn <= 8; conn += 4) {
          int w = sizes[si][0], h = sizes[si][1], pitch = w + 3;
          uint8_t *m = calloc ((size_t) pitch * h, 1);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
              int v;
              if (kind == 0) v = (int) (xr () % 100) < dens;
              else if (kind == 1) v = ((x / 3 + y / 2) % 4) != 0 && (int) (xr () % 100) < dens + 20;
              else if (kind == 3) v = 1;                      /* the whole frame */
              else if (kind == 4) v = ((x + y) & 1) == 0;     /* checkerboard */
              else if (kind == 5) v = (x == 0 || y == 0 || x == w - 1 || y == h - 1 || (x % 7 == 3 && y % 5 == 2));
              else v = ((x * x + y * y) % (dens + 7)) < (dens + 7) / 2;  /* rings */
              m[(size_t) y * pitch + x] = v ? 255 : 0;
            }
          int32_t *a = malloc (sizeof (int32_t) * w * h), *b = malloc (sizeof (int32_t) * w * h);
          RefBlob *blobs = malloc (sizeof (RefBlob) * ((size_t) w * h + 1));
          int n = ref_label (m, pitch, w, h, conn, a, blobs);
          int k = label_sim (conn == 8, m, pitch, w, h, b);
          cases++;
          if (n - 1 != k || memcmp (a, b, sizeof (int32_t) * w * h)) {
            if (fails++ < 10) fprintf (stderr, "FAIL %dx%d dens %d kind %d conn %d: ref %d sim %d\n", w, h, dens, kind, conn, n - 1, k);
          }
          free (m); free (a); free (b); free (blobs);
        }
  printf ("%d cases, %d failed\n", cases, fails);
  return fails != 0;
}

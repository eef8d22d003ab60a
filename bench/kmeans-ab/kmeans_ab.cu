/* cudaimgproc: cold cudakmeans frames timed by CUDA events, for A/B runs
 * of two or more builds of kernels/kmeans.cu on one GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built by bench/kmeans-ab/build.sh, one binary a revision or variant of
 * the kernel; bench/kmeans-ab/run.sh takes them in turns.  Usage:
 *   kmeans-ab PHOTO.rgb PHOTO_W PHOTO_H FRAMES ITERATIONS W H K [W H K ...]
 * For each case: the photo (raw RGB) scaled to W x H, RGBA in 16-byte
 * aligned rows (the benchmark's layout), labels out, k = K, k-means++ on
 * every frame and exactly ITERATIONS iterations (epsilon 0), as the
 * benchmark's cold rows; FRAMES frames timed after 3 not counted.  Prints
 * the median, p10 and p90 in µs and an FNV-1a hash of the labels and
 * centres of the last frame, which two builds of the same semantics must
 * share.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kmeans.h"
extern "C"
{
#include "content.h"
}

namespace {

struct Case
{
  int w, h, k;
};

unsigned long long
fnv (unsigned long long h, const void *p, size_t n)
{
  const unsigned char *b = (const unsigned char *) p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* One case: 0, or prints why not and returns 1 */
int
run_case (const Case & c, int frames, int iterations, cudaStream_t stream)
{
  const int warmup = 3;
  const char *fenv = getenv ("KMEANS_AB_FORMAT");
  const bool rgb3 = fenv && !strcmp (fenv, "rgb");
  const bool nv12 = fenv && !strcmp (fenv, "nv12");
  const int bpp = rgb3 ? 3 : 4;
  uint8_t *rgba = make_content (c.w, c.h, bpp);
  void *src = NULL, *dst = NULL, *uv = NULL;
  size_t sp = 0, dp = 0, up = 0;
  CipKmeans *km = NULL;
  CipKmeansResult *res = NULL, hres;
  cudaEvent_t e0 = NULL, e1 = NULL;
  std::vector<float> us;
  std::vector<uint8_t> labels ((size_t) c.w * c.h);
  cudaError_t err = rgba ? cudaSuccess : cudaErrorMemoryAllocation;

  const int cw = (c.w + 1) / 2, ch = (c.h + 1) / 2;
  if (err == cudaSuccess)
    err = cudaMallocPitch (&src, &sp, (size_t) c.w * (nv12 ? 1 : bpp), c.h);
  if (err == cudaSuccess && nv12)
    err = cudaMallocPitch (&uv, &up, (size_t) cw * 2, ch);
  if (err == cudaSuccess)
    err = cudaMallocPitch (&dst, &dp, (size_t) c.w, c.h);
  if (err == cudaSuccess)
    err = cudaMalloc ((void **) &res, sizeof *res);
  if (err == cudaSuccess && nv12) {
    std::vector<uint8_t> y ((size_t) c.w * c.h), u ((size_t) cw * ch * 2);
    for (int j = 0; j < c.h; j++)
      for (int i = 0; i < c.w; i++) {
        const uint8_t *q = rgba + ((size_t) j * c.w + i) * 4;
        y[(size_t) j * c.w + i] = (uint8_t) (((66 * q[0] + 129 * q[1] +
                    25 * q[2] + 128) >> 8) + 16);
      }
    for (int j = 0; j < ch; j++)
      for (int i = 0; i < cw; i++) {
        int r = 0, g = 0, b = 0, n = 0;
        for (int d = 0; d < 4; d++) {
          const int xx = 2 * i + (d & 1), yy = 2 * j + (d >> 1);
          if (xx < c.w && yy < c.h) {
            const uint8_t *q = rgba + ((size_t) yy * c.w + xx) * 4;
            r += q[0];
            g += q[1];
            b += q[2];
            n++;
          }
        }
        r /= n;
        g /= n;
        b /= n;
        u[((size_t) j * cw + i) * 2] = (uint8_t) (((-38 * r - 74 * g +
                    112 * b + 128) >> 8) + 128);
        u[((size_t) j * cw + i) * 2 + 1] = (uint8_t) (((112 * r - 94 * g -
                    18 * b + 128) >> 8) + 128);
      }
    err = cudaMemcpy2D (src, sp, y.data (), c.w, c.w, c.h,
        cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
      err = cudaMemcpy2D (uv, up, u.data (), (size_t) cw * 2, (size_t) cw * 2,
          ch, cudaMemcpyHostToDevice);
  } else if (err == cudaSuccess) {
    err = cudaMemcpy2D (src, sp, rgba, (size_t) c.w * bpp, (size_t) c.w * bpp,
        c.h, cudaMemcpyHostToDevice);
  }
  if (err == cudaSuccess)
    err = cip_kmeans_create (&km, c.w, c.h);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e0);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e1);

  CipKmeansFormat fmt;
  memset (&fmt, 0, sizeof fmt);
  fmt.layout = nv12 ? CIP_KMEANS_NV12 : CIP_KMEANS_PACKED;
  fmt.bpp = bpp;
  fmt.r_off = 0;
  fmt.g_off = 1;
  fmt.b_off = 2;
  if (nv12)
    cip_yuv_matrix_init (&fmt.yuv, 0.2126, 0.0722, 0);
  CipKmeansPlanes in, out;
  memset (&in, 0, sizeof in);
  memset (&out, 0, sizeof out);
  in.data[0] = src;
  in.pitch[0] = (int) sp;
  if (nv12) {
    in.data[1] = uv;
    in.pitch[1] = (int) up;
  }
  out.data[0] = dst;
  out.pitch[0] = (int) dp;
  CipKmeansParams p;
  memset (&p, 0, sizeof p);
  p.k = c.k;
  p.max_iterations = iterations;
  p.epsilon = 0.0f;
  p.init = 0;
  p.seed = 0;
  p.reinit = 1;
  p.output = 1;
  p.attempts = 1;

  for (int f = 0; err == cudaSuccess && f < warmup + frames; f++) {
    float ms = 0.0f;
    err = cudaEventRecord (e0, stream);
    if (err == cudaSuccess)
      err = cip_kmeans (km, &fmt, &in, &out, &p, res, stream);
    if (err == cudaSuccess)
      err = cudaEventRecord (e1, stream);
    if (err == cudaSuccess)
      err = cudaEventSynchronize (e1);
    if (err == cudaSuccess)
      err = cudaEventElapsedTime (&ms, e0, e1);
    if (err == cudaSuccess && f >= warmup)
      us.push_back (ms * 1000.0f);
  }
  if (err == cudaSuccess)
    err = cudaMemcpy2D (labels.data (), c.w, dst, dp, c.w, c.h,
        cudaMemcpyDeviceToHost);
  if (err == cudaSuccess)
    err = cudaMemcpy (&hres, res, sizeof hres, cudaMemcpyDeviceToHost);
  if (err == cudaSuccess) {
    std::sort (us.begin (), us.end ());
    unsigned long long h = fnv (1469598103934665603ull, labels.data (),
        labels.size ());
    h = fnv (h, hres.centres, sizeof (float) * 5 * c.k);
    printf ("%dx%d k=%d it=%d: median %.1f us (p10 %.1f p90 %.1f) "
        "hash %016llx iterations %u\n", c.w, c.h, c.k, iterations,
        us[us.size () / 2], us[us.size () / 10], us[us.size () * 9 / 10],
        h, hres.iterations);
  } else {
    fprintf (stderr, "%dx%d k=%d: %s\n", c.w, c.h, c.k,
        cudaGetErrorString (err));
  }
  if (e0)
    cudaEventDestroy (e0);
  if (e1)
    cudaEventDestroy (e1);
  cip_kmeans_destroy (km);
  cudaFree (res);
  cudaFree (dst);
  cudaFree (src);
  cudaFree (uv);
  free (rgba);
  return err != cudaSuccess;
}

}                               /* namespace */

int
main (int argc, char **argv)
{
  if (argc < 9 || (argc - 6) % 3 != 0) {
    fprintf (stderr, "usage: %s PHOTO.rgb PHOTO_W PHOTO_H FRAMES "
        "ITERATIONS W H K [W H K ...]\n", argv[0]);
    return 2;
  }
  if (!load_photo (argv[1], atoi (argv[2]), atoi (argv[3]))) {
    fprintf (stderr, "%s: cannot read %s as a %sx%s RGB photo\n", argv[0],
        argv[1], argv[2], argv[3]);
    return 2;
  }
  const int frames = atoi (argv[4]), iterations = atoi (argv[5]);
  if (frames < 1 || iterations < 0) {
    fprintf (stderr, "%s: FRAMES must be 1 or more, ITERATIONS 0 or more\n",
        argv[0]);
    return 2;
  }
  std::vector<Case> cases;
  for (int a = 6; a + 2 < argc; a += 3) {
    const Case c = { atoi (argv[a]), atoi (argv[a + 1]), atoi (argv[a + 2]) };
    if (c.w < 1 || c.h < 1 || c.k < 2 || c.k > CIP_KMEANS_MAX_K) {
      fprintf (stderr, "%s: no case %s %s %s (W, H 1 or more, K 2..%d)\n",
          argv[0], argv[a], argv[a + 1], argv[a + 2], CIP_KMEANS_MAX_K);
      return 2;
    }
    cases.push_back (c);
  }
  cudaStream_t stream;
  cudaError_t err = cudaStreamCreate (&stream);
  if (err != cudaSuccess) {
    fprintf (stderr, "%s: %s\n", argv[0], cudaGetErrorString (err));
    return 1;
  }
  int failed = 0;
  for (const Case & c : cases)
    failed |= run_case (c, frames, iterations, stream);
  cudaStreamDestroy (stream);
  return failed;
}

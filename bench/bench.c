/* cudaimgproc benchmark: GPU time per frame of each element's kernels,
 * against the device's measured copy bandwidth (the floor) and NPP.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-bench [--repeats N] [--batch N]
 *
 * Times with CUDA events around batches of launches, after warm-up, over
 * rotating input buffers (so no frame is served from L2), and prints the
 * median and the 10th/90th percentiles of the time per frame.  The floor of a kernel is the bytes it must
 * move (read each input byte once, write each output byte once) over the
 * device-to-device copy bandwidth measured in the same run.  NPP, when the
 * host has it, is loaded at run time and timed on the same frames.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gray.h"
#include "cpu_ref.h"

#define ROTATE 4                /* input sets, to defeat the 50-60 MB L2 */

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); exit (1); } } while (0)

static int repeats = 100;
static int batch = 10;

typedef struct
{
  double median, p10, p90;
} Stat;

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

typedef void (*RunFn) (void *ctx, int i, cudaStream_t s);

/* GPU time per frame in microseconds: events around a batch of launches
 * back to back on one stream (as frames flow in a pipeline), divided by the
 * batch; the median and spread are over the repeats. */
static Stat
time_fn (RunFn fn, void *ctx, cudaStream_t s)
{
  float *t = malloc (sizeof (float) * repeats);
  cudaEvent_t a, b;
  Stat st;
  int i;

  CK (cudaEventCreate (&a));
  CK (cudaEventCreate (&b));
  for (i = 0; i < 20; i++)
    fn (ctx, i, s);
  CK (cudaStreamSynchronize (s));
  for (i = 0; i < repeats; i++) {
    int j;
    CK (cudaEventRecord (a, s));
    for (j = 0; j < batch; j++)
      fn (ctx, i * batch + j, s);
    CK (cudaEventRecord (b, s));
    CK (cudaEventSynchronize (b));
    CK (cudaEventElapsedTime (&t[i], a, b));
    t[i] *= 1000.0f / batch;
  }
  CK (cudaGetLastError ());
  qsort (t, repeats, sizeof (float), cmp_float);
  st.median = t[repeats / 2];
  st.p10 = t[repeats / 10];
  st.p90 = t[repeats * 9 / 10];
  free (t);
  cudaEventDestroy (a);
  cudaEventDestroy (b);
  return st;
}

/* ---- the floor: device-to-device copy bandwidth ------------------------ */

typedef struct
{
  void *a, *b;
  size_t n;
} CopyCtx;

static void
run_copy (void *p, int i, cudaStream_t s)
{
  CopyCtx *c = p;
  CK (cudaMemcpyAsync (i & 1 ? c->a : c->b, i & 1 ? c->b : c->a, c->n,
          cudaMemcpyDeviceToDevice, s));
}

static double
measure_bandwidth (cudaStream_t s)
{
  CopyCtx c;
  Stat st;
  int saved = repeats;

  c.n = (size_t) 1 << 30;
  CK (cudaMalloc (&c.a, c.n));
  CK (cudaMalloc (&c.b, c.n));
  CK (cudaMemset (c.a, 1, c.n));
  CK (cudaMemset (c.b, 2, c.n));
  repeats = 10;
  st = time_fn (run_copy, &c, s);
  repeats = saved;
  cudaFree (c.a);
  cudaFree (c.b);
  /* read + write, bytes per microsecond = MB/s */
  return 2.0 * c.n / st.median;
}

/* ---- NPP, loaded at run time ------------------------------------------- */

typedef struct
{
  cudaStream_t hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
} NppStreamContext;

typedef struct
{
  int width, height;
} NppiSize;

typedef int (*NppGrayFn) (const uint8_t *, int, uint8_t *, int, NppiSize,
    NppStreamContext);

static NppGrayFn npp_gray_ac4, npp_gray_c3;
static NppStreamContext npp_ctx;

static void
load_npp (cudaStream_t s)
{
  const char *names[] = { "libnppicc.so.13", "libnppicc.so.12",
    "libnppicc.so", NULL
  };
  struct cudaDeviceProp prop;
  void *h = NULL;
  int i, dev;

  for (i = 0; names[i] && !h; i++)
    h = dlopen (names[i], RTLD_NOW);
  if (!h) {
    printf ("NPP: not found (%s); NPP columns left empty\n", dlerror ());
    return;
  }
  npp_gray_ac4 = (NppGrayFn) dlsym (h, "nppiRGBToGray_8u_AC4C1R_Ctx");
  npp_gray_c3 = (NppGrayFn) dlsym (h, "nppiRGBToGray_8u_C3C1R_Ctx");
  CK (cudaGetDevice (&dev));
  CK (cudaGetDeviceProperties (&prop, dev));
  memset (&npp_ctx, 0, sizeof (npp_ctx));
  npp_ctx.hStream = s;
  npp_ctx.nCudaDeviceId = dev;
  npp_ctx.nMultiProcessorCount = prop.multiProcessorCount;
  npp_ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  npp_ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  npp_ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  npp_ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  npp_ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  cudaStreamGetFlags (s, &npp_ctx.nStreamFlags);
}

/* ---- cudagray ---------------------------------------------------------- */

typedef struct
{
  uint8_t *src[ROTATE];
  size_t src_pitch;
  uint8_t *dst[ROTATE];
  size_t dst_pitch;
  int w, h, bpp;
  CipGrayParams p;
} GrayCtx;

static void
run_gray (void *p, int i, cudaStream_t s)
{
  GrayCtx *c = p;
  int k = i % ROTATE;
  if (c->bpp == 1)
    CK (cip_gray_luma (c->src[k], (int) c->src_pitch, c->dst[k],
            (int) c->dst_pitch, c->w, c->h, c->p.scale_q16, s));
  else
    CK (cip_gray_packed (c->src[k], (int) c->src_pitch, c->bpp, 0, 1, 2,
            c->dst[k], (int) c->dst_pitch, c->w, c->h, &c->p, s));
}

static void
run_npp_gray (void *p, int i, cudaStream_t s)
{
  GrayCtx *c = p;
  int k = i % ROTATE;
  NppiSize roi = { c->w, c->h };
  NppGrayFn fn = c->bpp == 4 ? npp_gray_ac4 : npp_gray_c3;
  int r = fn (c->src[k], (int) c->src_pitch, c->dst[k], (int) c->dst_pitch,
      roi, npp_ctx);
  if (r < 0) {
    fprintf (stderr, "NPP error %d\n", r);
    exit (1);
  }
}

static void
bench_gray (double bw, cudaStream_t s, int w, int h, int bpp, const char *fmt)
{
  GrayCtx c;
  uint8_t *host, *out, *ref;
  size_t row = (size_t) w * bpp;
  Stat ours, npp = { 0 };
  double bytes, floor_us;
  int k;
  long bad = 0;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.bpp = bpp;
  c.p.cr = CIP_GRAY_BT601_R;
  c.p.cg = CIP_GRAY_BT601_G;
  c.p.cb = CIP_GRAY_BT601_B;
  c.p.scale_q16 = CIP_GRAY_SCALE_ONE;
  host = malloc (row * h);
  for (size_t i = 0; i < row * h; i++)
    host[i] = (uint8_t) ((i * 2654435761u) >> 13);
  for (k = 0; k < ROTATE; k++) {
    CK (cudaMallocPitch ((void **) &c.src[k], &c.src_pitch, row, h));
    CK (cudaMallocPitch ((void **) &c.dst[k], &c.dst_pitch, w, h));
    CK (cudaMemcpy2D (c.src[k], c.src_pitch, host, row, row, h,
            cudaMemcpyHostToDevice));
  }
  ours = time_fn (run_gray, &c, s);

  /* correctness of what was timed, against the CPU reference */
  out = malloc ((size_t) w * h);
  ref = malloc ((size_t) w * h);
  CK (cudaMemcpy2D (out, w, c.dst[0], c.dst_pitch, w, h,
          cudaMemcpyDeviceToHost));
  if (bpp == 1)
    ref_gray_luma (host, (int) row, ref, w, w, h, CIP_GRAY_SCALE_ONE);
  else
    ref_gray_packed (host, (int) row, bpp, 0, 1, 2, ref, w, w, h, c.p.cr,
        c.p.cg, c.p.cb, CIP_GRAY_SCALE_ONE);
  for (size_t i = 0; i < (size_t) w * h; i++)
    bad += out[i] != ref[i];

  if ((bpp == 4 && npp_gray_ac4) || (bpp == 3 && npp_gray_c3))
    npp = time_fn (run_npp_gray, &c, s);

  bytes = (double) (row * h + (size_t) w * h);
  floor_us = bytes / bw;
  printf ("| cudagray %-5s | %5dx%-5d | %8.2f | %6.2f-%-6.2f | %7.2f | %5.2f |",
      fmt, w, h, ours.median, ours.p10, ours.p90, floor_us,
      ours.median / floor_us);
  if (npp.median > 0)
    printf (" %8.2f | %5.2fx |", npp.median, npp.median / ours.median);
  else
    printf ("        - |     - |");
  printf (" %s |\n", bad ? "MISMATCH" : "exact");
  if (bad)
    fprintf (stderr, "cudagray %s %dx%d: %ld pixels differ from the "
        "reference\n", fmt, w, h, bad);

  for (k = 0; k < ROTATE; k++) {
    cudaFree (c.src[k]);
    cudaFree (c.dst[k]);
  }
  free (host);
  free (out);
  free (ref);
}

int
main (int argc, char **argv)
{
  static const int sizes[][2] = { {640, 480}, {1920, 1080}, {3840, 2160},
  {7680, 4320}
  };
  struct cudaDeviceProp prop;
  cudaStream_t s;
  double bw;
  int i;

  for (i = 1; i < argc; i++)
    if (!strcmp (argv[i], "--repeats") && i + 1 < argc)
      repeats = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--batch") && i + 1 < argc)
      batch = atoi (argv[++i]);
  if (cudaGetDeviceProperties (&prop, 0) != cudaSuccess) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  CK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  bw = measure_bandwidth (s);
  load_npp (s);
  printf ("device: %s, %d SMs, L2 %d MB; copy bandwidth %.0f GB/s "
      "(read + write); per frame: median of %d batches of %d launches\n\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
      bw / 1000.0, repeats, batch);
  printf ("| kernel | size | ours µs | p10-p90 µs | floor µs | ×floor | "
      "NPP µs | NPP/ours | check |\n");
  printf ("|---|---|---|---|---|---|---|---|---|\n");
  for (i = 0; i < 4; i++) {
    bench_gray (bw, s, sizes[i][0], sizes[i][1], 4, "RGBA");
    bench_gray (bw, s, sizes[i][0], sizes[i][1], 3, "RGB");
    bench_gray (bw, s, sizes[i][0], sizes[i][1], 1, "NV12");
  }
  cudaStreamDestroy (s);
  return 0;
}

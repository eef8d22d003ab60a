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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gray.h"
#include "otsu.h"
#include "smooth.h"
#include "sobel.h"
#include "thin.h"
#include "thin3d.h"
#include "kmeans.h"
#include "overlay.h"
#include "blobs.h"
#include "histogram.h"
#include "cpu_ref.h"
#include "content.h"
#include "shapes.h"

#define ROTATE 4                /* input sets, to defeat the 50-60 MB L2 */

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); exit (1); } } while (0)

static int repeats = 100;
static int batch = 10;
static int only_w, only_h;      /* --size WxH: just that size */
static const char *only;        /* --only gray|otsu|sobel|thin|thin3d ... */

static int
want (const char *what)
{
  return !only || strstr (only, what) != NULL;
}

/* --size: is @w x @h the one asked for (any, without it)? */
static int
size_wanted (int w, int h)
{
  return !only_w || (w == only_w && h == only_h);
}

typedef struct
{
  double median, p10, p90;
  int direct;                   /* timed by direct launches, not a graph */
} Stat;

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

static FILE *json;              /* --json FILE: one record a figure */

/* A figure for bench/report.py's summary and plot: @who ("ours", "floor",
 * a peer) took @us per frame of @op at @w x @h. */
static void
record (const char *op, int w, int h, const char *who, double us)
{
  if (json && us > 0)
    fprintf (json, "{\"kind\": \"kernel\", \"op\": \"%s\", \"w\": %d, "
        "\"h\": %d, \"who\": \"%s\", \"us\": %.3f}\n", op, w, h, who, us);
}

typedef void (*RunFn) (void *ctx, int i, cudaStream_t s);

/* GPU time per frame in microseconds: a batch of launches back to back on
 * one stream (as frames follow each other in a pipeline) is captured once
 * as a CUDA graph and its replays are timed with events, divided by the
 * batch; the median and spread are over the repeats.  Replaying a graph
 * keeps the host's launch cost (about 2.5 us a launch on the lent VMs,
 * more than a small kernel takes) out of the GPU time; where a peer cannot
 * be captured, its launches are timed directly (marked in the output). */
static int no_graph;            /* time direct launches (the copy floor) */

static Stat
time_fn (RunFn fn, void *ctx, cudaStream_t s)
{
  float *t = malloc (sizeof (float) * repeats);
  cudaEvent_t a, b;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  Stat st;
  int i, j;

  CK (cudaEventCreate (&a));
  CK (cudaEventCreate (&b));
  for (i = 0; i < 20; i++)
    fn (ctx, i, s);
  CK (cudaStreamSynchronize (s));
  st.direct = 0;
  if (!no_graph && cudaStreamBeginCapture (s,
          cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
    for (j = 0; j < batch; j++)
      fn (ctx, j, s);
    if (cudaStreamEndCapture (s, &graph) != cudaSuccess ||
        cudaGraphInstantiate (&exec, graph, 0) != cudaSuccess)
      exec = NULL;
  }
  if (!exec) {
    st.direct = 1;
    cudaGetLastError ();
  }
  for (i = 0; i < repeats; i++) {
    CK (cudaEventRecord (a, s));
    if (exec)
      CK (cudaGraphLaunch (exec, s));
    else
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
  if (exec)
    cudaGraphExecDestroy (exec);
  if (graph)
    cudaGraphDestroy (graph);
  cudaEventDestroy (a);
  cudaEventDestroy (b);
  return st;
}

/* A peer's two columns: its time (with * where it was timed by direct
 * launches) and its time over @ours; dashes where it did not run. */
static void
print_peer (Stat peer, double ours)
{
  if (peer.median > 0)
    printf (" %8.2f%s | %5.2fx |", peer.median, peer.direct ? "*" : "",
        peer.median / ours);
  else
    printf ("        - |     - |");
}

/* An NPP function's time: one call first (@fn sets *@err to NPP's error,
 * if any), and the timing only if that call left no error, NPP's or
 * CUDA's; else the error on stderr and a zero Stat, the peer's columns
 * then empty.  @what names it in the message. */
static Stat
time_npp (RunFn fn, void *ctx, const int *err, const char *what, cudaStream_t s)
{
  Stat st = { 0 };
  cudaError_t e;

  fn (ctx, 0, s);
  CK (cudaStreamSynchronize (s));
  e = cudaGetLastError ();
  if (!*err && e == cudaSuccess)
    st = time_fn (fn, ctx, s);
  else if (*err)
    fprintf (stderr, "NPP %s error %d\n", what, *err);
  else
    fprintf (stderr, "NPP %s: %s\n", what, cudaGetErrorString (e));
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
  /* direct: the same copies in a graph measured 2.8 instead of 4.25 TB/s */
  repeats = 10;
  no_graph = 1;
  st = time_fn (run_copy, &c, s);
  no_graph = 0;
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

typedef int (*NppHistSizeFn) (NppiSize, int, size_t *, NppStreamContext);
typedef int (*NppHistFn) (const uint8_t *, int, NppiSize, int32_t *, int,
    int32_t, int32_t, uint8_t *, NppStreamContext);
typedef int (*NppCmpFn) (const uint8_t *, int, uint8_t, uint8_t *, int,
    NppiSize, int, NppStreamContext);
typedef struct
{
  int x, y;
} NppiPoint;
typedef int (*NppSobelFn) (const uint8_t *, int, NppiSize, NppiPoint,
    int16_t *, int, int16_t *, int, int16_t *, int, float *, int, NppiSize,
    int, int, int, NppStreamContext);
static NppSobelFn npp_sobel;
#define NPP_MASK_3X3 200
#define NPP_MASK_5X5 201
#define NPP_NORM_L2 2
#define NPP_BORDER_REPLICATE 2
static NppHistSizeFn npp_hist_size;
static NppHistFn npp_hist;
static NppCmpFn npp_cmp;
#define NPP_CMP_GREATER 4
/* labelling: nppiLabelMarkersUF then nppiCompressMarkerLabelsUF */
typedef int (*NppLabelSizeFn) (NppiSize, int *);
typedef int (*NppLabelFn) (uint8_t *, int, uint32_t *, int, NppiSize, int,
    uint8_t *, NppStreamContext);
typedef int (*NppCompressSizeFn) (int, int *);
typedef int (*NppCompressFn) (uint32_t *, int, NppiSize, int, int *,
    uint8_t *, NppStreamContext);
static NppLabelSizeFn npp_label_size;
static NppLabelFn npp_label;
static NppCompressSizeFn npp_compress_size;
static NppCompressFn npp_compress;
#define NPP_NORM_INF 0          /* 8 neighbours */
#define NPP_NORM_L1 1           /* 4 neighbours */

/* The NPP function @name from whichever of its libraries has it. */
static void *
npp_sym (const char *name)
{
  static const char *libs[] = { "nppicc", "nppist", "nppial", "nppidei",
    "nppif", "nppig", "nppim", "nppitc", "nppisu", "nppc", NULL
  };
  static const char *vers[] = { ".so.13", ".so.12", ".so", NULL };
  int i, j;

  for (i = 0; libs[i]; i++)
    for (j = 0; vers[j]; j++) {
      char path[64];
      void *h, *f;
      snprintf (path, sizeof (path), "lib%s%s", libs[i], vers[j]);
      h = dlopen (path, RTLD_NOW | RTLD_NOLOAD);
      if (!h)
        h = dlopen (path, RTLD_NOW);
      if (h && (f = dlsym (h, name)))
        return f;
    }
  return NULL;
}

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
  npp_hist_size = (NppHistSizeFn)
      npp_sym ("nppiHistogramEvenGetBufferSize_8u_C1R_Ctx");
  npp_hist = (NppHistFn) npp_sym ("nppiHistogramEven_8u_C1R_Ctx");
  npp_cmp = (NppCmpFn) npp_sym ("nppiCompareC_8u_C1R_Ctx");
  npp_sobel = (NppSobelFn)
      npp_sym ("nppiGradientVectorSobelBorder_8u16s_C1R_Ctx");
  npp_label_size = (NppLabelSizeFn)
      npp_sym ("nppiLabelMarkersUFGetBufferSize_32u_C1R");
  npp_label = (NppLabelFn) npp_sym ("nppiLabelMarkersUF_8u32u_C1R_Ctx");
  npp_compress_size = (NppCompressSizeFn)
      npp_sym ("nppiCompressMarkerLabelsGetBufferSize_32u_C1R");
  npp_compress = (NppCompressFn)
      npp_sym ("nppiCompressMarkerLabelsUF_32u_C1IR_Ctx");
  if (!npp_hist || !npp_cmp || !npp_hist_size)
    printf ("NPP: histogram/compare not found\n");
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

/* ---- frames: ROTATE pitched inputs holding the same content, outputs ---- */

typedef struct
{
  uint8_t *src[ROTATE];
  size_t src_pitch;
  uint8_t *dst[ROTATE];
  size_t dst_pitch;
} Frames;

/* @host: @h rows of @row bytes, uploaded to every input; outputs are
 * @out_row bytes wide. */
static void
frames_alloc (Frames * f, const uint8_t * host, size_t row, size_t out_row,
    int h)
{
  for (int k = 0; k < ROTATE; k++) {
    CK (cudaMallocPitch ((void **) &f->src[k], &f->src_pitch, row, h));
    CK (cudaMallocPitch ((void **) &f->dst[k], &f->dst_pitch, out_row, h));
    CK (cudaMemcpy2D (f->src[k], f->src_pitch, host, row, row, h,
            cudaMemcpyHostToDevice));
  }
}

/* The first output, tightly packed, for the correctness check. */
static uint8_t *
frames_download (const Frames * f, size_t out_row, int h)
{
  uint8_t *out = malloc (out_row * h);
  CK (cudaMemcpy2D (out, out_row, f->dst[0], f->dst_pitch, out_row, h,
          cudaMemcpyDeviceToHost));
  return out;
}

static void
frames_free (Frames * f)
{
  for (int k = 0; k < ROTATE; k++) {
    cudaFree (f->src[k]);
    cudaFree (f->dst[k]);
  }
}

/* ---- cudagray ---------------------------------------------------------- */

typedef struct
{
  Frames f;
  int w, h, bpp;
  CipGrayParams p;
} GrayCtx;

static void
run_gray (void *p, int i, cudaStream_t s)
{
  GrayCtx *c = p;
  int k = i % ROTATE;
  if (c->bpp == 1)
    CK (cip_gray_luma (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
            (int) c->f.dst_pitch, c->w, c->h, c->p.scale_q16, s));
  else
    CK (cip_gray_packed (c->f.src[k], (int) c->f.src_pitch, c->bpp, 0, 1, 2,
            c->f.dst[k], (int) c->f.dst_pitch, c->w, c->h, &c->p, s));
}

static void
run_npp_gray (void *p, int i, cudaStream_t s)
{
  GrayCtx *c = p;
  int k = i % ROTATE;
  NppiSize roi = { c->w, c->h };
  NppGrayFn fn = c->bpp == 4 ? npp_gray_ac4 : npp_gray_c3;
  int r = fn (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
      (int) c->f.dst_pitch, roi, npp_ctx);
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
  frames_alloc (&c.f, host, row, w, h);
  ours = time_fn (run_gray, &c, s);

  /* correctness of what was timed, against the CPU reference */
  out = frames_download (&c.f, w, h);
  ref = malloc ((size_t) w * h);
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
  {
    char op[64];
    snprintf (op, sizeof op, "cudagray %s", fmt);
    record (op, w, h, "ours", ours.median);
    record (op, w, h, "floor", floor_us);
    record (op, w, h, "NPP", npp.median);
  }
  print_peer (npp, ours.median);
  printf (" %s |\n", bad ? "MISMATCH" : "exact");
  if (bad)
    fprintf (stderr, "cudagray %s %dx%d: %ld pixels differ from the "
        "reference\n", fmt, w, h, bad);

  frames_free (&c.f);
  free (host);
  free (out);
  free (ref);
}

static double frame_copy_us (const Frames * f, int w, int h, cudaStream_t s);

/* ---- cudaoverlay -------------------------------------------------------- */

/* A binary mask (cudaotsu's kind) painted green at alpha 0.6 over RGBA, or
 * over NV12 (two launches: luma, then the 4:2:0 chroma). */
typedef struct
{
  Frames f, uv;                 /* RGBA or Y; NV12's UV plane */
  uint8_t *mask;
  size_t mask_pitch;
  int w, h, nv12;
  CipOverlayTable t[2], *d_t;   /* the tables, on the host and the device */
} OverlayCtx;

static void
run_overlay (void *p, int i, cudaStream_t s)
{
  OverlayCtx *c = p;
  int k = i % ROTATE;
  CipOverlayPlane pl = { c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
    (int) c->f.dst_pitch, c->nv12 ? 1 : 4, c->nv12 ? 0 : 8, 0, 0
  };
  CK (cip_overlay_plane (&pl, c->mask, (int) c->mask_pitch, c->w, c->h, c->w,
          c->h, &c->d_t[0], s));
  if (c->nv12) {
    CipOverlayPlane uv = { c->uv.src[k], (int) c->uv.src_pitch, c->uv.dst[k],
      (int) c->uv.dst_pitch, 2, 0, 1, 1
    };
    CK (cip_overlay_plane (&uv, c->mask, (int) c->mask_pitch, c->w, c->h,
            c->w, c->h, &c->d_t[1], s));
  }
}

static void
bench_overlay (double bw, cudaStream_t s, int w, int h, int nv12)
{
  OverlayCtx c;
  const size_t row = (size_t) w * (nv12 ? 1 : 4);
  uint8_t *host, *mask, *out, *ref;
  Stat ours;
  double bytes, floor_us, copy_us;
  long bad = 0;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.nv12 = nv12;
  for (int v = 0; v < 256; v++) {
    const uint8_t a = v ? 153 : 0;
    c.t[0].alpha[v] = c.t[1].alpha[v] = a;
    /* green: RGBA 0,255,0; BT.601 studio Y 145, then U 54, V 34 */
    c.t[0].colour[v][0] = nv12 ? 145 : 0;
    c.t[0].colour[v][1] = 255;
    c.t[0].colour[v][2] = 0;
    c.t[1].colour[v][0] = 54;
    c.t[1].colour[v][1] = 34;
  }
  CK (cudaMalloc ((void **) &c.d_t, sizeof c.t));
  CK (cudaMemcpy (c.d_t, c.t, sizeof c.t, cudaMemcpyHostToDevice));
  host = make_content (w, h, nv12 ? 1 : 4);
  mask = malloc ((size_t) w * h);
  for (size_t i = 0; i < (size_t) w * h; i++)
    mask[i] = ((i * 2654435761u) >> 20) & 1 ? 255 : 0;
  CK (cudaMallocPitch ((void **) &c.mask, &c.mask_pitch, w, h));
  CK (cudaMemcpy2D (c.mask, c.mask_pitch, mask, w, w, h,
          cudaMemcpyHostToDevice));
  frames_alloc (&c.f, host, row, row, h);
  if (nv12)
    frames_alloc (&c.uv, host, w, w, h / 2);
  ours = time_fn (run_overlay, &c, s);

  /* what was timed, against the CPU reference (luma or RGBA plane) */
  out = frames_download (&c.f, row, h);
  ref = malloc (row * h);
  ref_overlay_plane (host, (int) row, ref, (int) row, nv12 ? 1 : 4,
      nv12 ? 0 : 8, 0, 0, mask, w, w, h, w, h, c.t[0].alpha,
      &c.t[0].colour[0][0]);
  for (size_t i = 0; i < row * h; i++)
    bad += out[i] != ref[i];
  free (out);
  free (ref);
  if (nv12) {
    out = frames_download (&c.uv, w, h / 2);
    ref = malloc ((size_t) w * (h / 2));
    ref_overlay_plane (host, w, ref, w, 2, 0, 1, 1, mask, w, w, h, w, h,
        c.t[1].alpha, &c.t[1].colour[0][0]);
    for (size_t i = 0; i < (size_t) w * (h / 2); i++)
      bad += out[i] != ref[i];
    free (out);
    free (ref);
  }

  /* video in, mask in, video out */
  bytes = (double) (row * h * (nv12 ? 1.5 : 1.0) * 2 + (double) w * h);
  floor_us = bytes / bw;
  copy_us = frame_copy_us (&c.f, (int) row, h, s);
  if (nv12)
    copy_us += frame_copy_us (&c.uv, w, h / 2, s);
  printf ("| cudaoverlay %-4s | %5dx%-5d | %8.2f | %6.2f-%-6.2f | %7.2f | "
      "%5.2f | %7.2f | %5.2f | %s |\n", nv12 ? "NV12" : "RGBA", w, h,
      ours.median, ours.p10, ours.p90, floor_us, ours.median / floor_us,
      copy_us, ours.median / copy_us, bad ? "MISMATCH" : "exact");
  {
    char op[64];
    snprintf (op, sizeof op, "cudaoverlay %s", nv12 ? "NV12" : "RGBA");
    record (op, w, h, "ours", ours.median);
    record (op, w, h, "floor", floor_us);
    record (op, w, h, "copy", copy_us);
  }
  if (bad)
    fprintf (stderr, "cudaoverlay %dx%d: %ld bytes differ from the "
        "reference\n", w, h, bad);
  frames_free (&c.f);
  if (nv12)
    frames_free (&c.uv);
  cudaFree (c.mask);
  cudaFree (c.d_t);
  free (mask);
  free (host);
}

/* ---- NPP's histogram, for cudaotsu and cudahistogram --------------------- */

/* nppiHistogramEven of a GRAY8 frame into @hist (257 levels), @buf its
 * scratch; exits on an NPP error. */
static void
npp_histogram (const uint8_t * src, size_t pitch, int w, int h,
    int32_t * hist, uint8_t * buf)
{
  NppiSize roi = { w, h };
  if (npp_hist (src, (int) pitch, roi, hist, 257, 0, 256, buf, npp_ctx) < 0) {
    fprintf (stderr, "NPP histogram failed\n");
    exit (1);
  }
}

/* Times @fn with NPP's histogram buffers for a @w x @h frame in *@hist
 * and *@buf; a zero Stat where this NPP lacks the histogram. */
static Stat
time_with_npp_hist (RunFn fn, void *ctx, int32_t ** hist, uint8_t ** buf,
    int w, int h, cudaStream_t s)
{
  Stat st = { 0 };
  NppiSize roi = { w, h };
  size_t sz = 0;

  if (!npp_hist || !npp_hist_size)
    return st;
  CK (cudaMalloc ((void **) hist, 257 * 4));
  if (npp_hist_size (roi, 257, &sz, npp_ctx) >= 0) {
    CK (cudaMalloc ((void **) buf, sz ? sz : 1));
    st = time_fn (fn, ctx, s);
    cudaFree (*buf);
  }
  cudaFree (*hist);
  return st;
}

/* ---- cudaotsu ---------------------------------------------------------- */

typedef struct
{
  Frames f;
  int w, h;
  uint32_t *hist;
  unsigned *sync;
  CipOtsuResult *res;
  float *ema;
  int32_t *npp_hist;
  int32_t *npp_levels;
  uint8_t *npp_buf;
  int stage;                    /* 0 all, 1 histogram, 2 threshold, 3 binarize,
                                 * 4 choose + binarize (two launches) */
} OtsuCtx;

static void
run_otsu (void *p, int i, cudaStream_t s)
{
  OtsuCtx *c = p;
  int k = i % ROTATE;
  CipOtsuParams par = { 0, 128, 0, 0.0f, 0, 0 };
  if (c->stage == 0)
    CK (cip_otsu_frame (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
            (int) c->f.dst_pitch, c->w, c->h, c->hist, c->sync, &par, 0,
            c->res, c->ema, s));
  if (c->stage == 4)
    CK (cip_otsu_choose (c->f.src[k], (int) c->f.src_pitch, c->w, c->h, c->hist,
            c->sync, &par, c->res, c->ema, s));
  if (c->stage == 1)
    CK (cip_otsu_histogram (c->f.src[k], (int) c->f.src_pitch, c->w, c->h,
            c->hist, c->sync, s));
  if (c->stage == 2)
    CK (cip_otsu_threshold (c->hist, (uint64_t) c->w * c->h, &par, c->res,
            c->ema, s));
  if (c->stage == 3 || c->stage == 4)
    CK (cip_otsu_binarize (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
            (int) c->f.dst_pitch, c->w, c->h, &c->res->threshold, 0, s));
}

static void
run_npp_otsu (void *p, int i, cudaStream_t s)
{
  OtsuCtx *c = p;
  int k = i % ROTATE;
  NppiSize roi = { c->w, c->h };
  npp_histogram (c->f.src[k], c->f.src_pitch, c->w, c->h, c->npp_hist,
      c->npp_buf);
  if (npp_cmp (c->f.src[k], (int) c->f.src_pitch, 128, c->f.dst[k],
          (int) c->f.dst_pitch, roi, NPP_CMP_GREATER, npp_ctx) < 0) {
    fprintf (stderr, "NPP compare failed\n");
    exit (1);
  }
}

static void
bench_otsu (double bw, cudaStream_t s, int w, int h, int uniform)
{
  OtsuCtx c;
  uint8_t *host, *out, *ref;
  uint32_t hist[256];
  Stat all, changing = { 0 }, two, st_h, st_t, st_b, npp = { 0 };
  CipOtsuResult res;
  double floor1, floor2;
  long bad = 0;
  int k, t;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  if (uniform) {
    host = malloc ((size_t) w * h);
    memset (host, 77, (size_t) w * h);
  } else {
    host = make_content (w, h, 1);
  }
  frames_alloc (&c.f, host, w, w, h);
  CK (cudaMalloc ((void **) &c.hist, CIP_OTSU_STATE_WORDS * 4));
  CK (cudaMemset (c.hist, 0, CIP_OTSU_STATE_WORDS * 4));
  c.sync = (unsigned *) (c.hist + CIP_OTSU_HIST_WORDS);
  CK (cudaMalloc ((void **) &c.res, sizeof (CipOtsuResult)));
  CK (cudaMalloc ((void **) &c.ema, sizeof (float)));
  all = time_fn (run_otsu, &c, s);

  /* what was timed is right: threshold and pixels */
  CK (cudaMemcpy (&res, c.res, sizeof (res), cudaMemcpyDeviceToHost));
  ref_histogram (host, w, w, h, hist);
  t = ref_otsu_threshold (hist, (uint64_t) w * h);
  out = frames_download (&c.f, w, h);
  ref = malloc ((size_t) w * h);
  ref_binarize (host, w, ref, w, w, h, t, 0);
  for (size_t i = 0; i < (size_t) w * h; i++)
    bad += out[i] != ref[i];
  bad += (int) res.threshold != t;
  /* the histogram of the last frame, each counted once */
  for (k = 0; k < 256; k++)
    bad += res.hist[k] != hist[k];

  /* The threshold changing every frame: the photo and its negative in
   * turn, so that the one launch's guess (the frame before's threshold) is
   * always wrong and its pieces are mended.  Both outputs checked. */
  if (!uniform) {
    uint8_t *neg = malloc ((size_t) w * h), *nref = malloc ((size_t) w * h);
    uint32_t nhist[256];
    for (size_t i = 0; i < (size_t) w * h; i++)
      neg[i] = 255 - host[i];
    for (k = 1; k < ROTATE; k += 2)
      CK (cudaMemcpy2D (c.f.src[k], c.f.src_pitch, neg, w, w, h,
              cudaMemcpyHostToDevice));
    changing = time_fn (run_otsu, &c, s);
    ref_histogram (neg, w, w, h, nhist);
    ref_binarize (neg, w, nref, w, w, h, ref_otsu_threshold (nhist,
            (uint64_t) w * h), 0);
    for (k = 0; k < 2; k++) {   /* into @out, checked already */
      CK (cudaMemcpy2D (out, w, c.f.dst[k], c.f.dst_pitch, w, h,
              cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < (size_t) w * h; i++)
        bad += out[i] != (k ? nref : ref)[i];
    }
    for (k = 1; k < ROTATE; k += 2)
      CK (cudaMemcpy2D (c.f.src[k], c.f.src_pitch, host, w, w, h,
              cudaMemcpyHostToDevice));
    free (neg);
    free (nref);
  }

  c.stage = 4;
  two = time_fn (run_otsu, &c, s);
  c.stage = 1;
  st_h = time_fn (run_otsu, &c, s);
  CK (cudaMemset (c.hist, 0, CIP_OTSU_HIST_WORDS * 4));
  c.stage = 2;
  st_t = time_fn (run_otsu, &c, s);
  c.stage = 3;
  st_b = time_fn (run_otsu, &c, s);

  if (npp_cmp)
    npp = time_with_npp_hist (run_npp_otsu, &c, &c.npp_hist, &c.npp_buf, w,
        h, s);

  floor1 = 2.0 * w * h / bw;    /* read once, write once */
  floor2 = 3.0 * w * h / bw;    /* read twice (histogram, binarize) */
  printf ("| cudaotsu %-7s | %5dx%-5d | %7.2f | %6.2f-%-6.2f | ",
      uniform ? "uniform" : "photo", w, h, all.median, all.p10, all.p90);
  if (uniform)
    printf ("      - | ");      /* the negative's threshold: 0 too */
  else
    printf ("%7.2f | ", changing.median);
  printf ("%7.2f | %5.2f / %5.2f / %5.2f | %6.2f | %6.2f | %5.2f | %5.2f |",
      two.median, st_h.median, st_t.median, st_b.median, floor1, floor2,
      all.median / floor1, all.median / floor2);
  {
    const char *op = uniform ? "cudaotsu uniform" : "cudaotsu photo";
    record (op, w, h, "ours", all.median);
    record (op, w, h, "floor", floor1);
    record (op, w, h, "floor 2R1W", floor2);
    record (op, w, h, "NPP", npp.median);
  }
  print_peer (npp, all.median);
  printf (" t=%d %s, %s path |\n", t, bad ? "MISMATCH" : "exact",
      res.exact_path ? "recurrence" : "certified");
  if (bad)
    fprintf (stderr, "cudaotsu %dx%d: %ld mismatches\n", w, h, bad);

  frames_free (&c.f);
  cudaFree (c.hist);
  cudaFree (c.res);
  cudaFree (c.ema);
  free (host);
  free (out);
  free (ref);
}

/* ---- cudasobel --------------------------------------------------------- */

typedef struct
{
  Frames f;
  int w, h;
  CipSobelParams p;
  int16_t *nx, *ny, *nm;
  float *na;
  size_t n_pitch, na_pitch;
  int npp_err;
} SobelCtx;

static void
run_sobel (void *p, int i, cudaStream_t s)
{
  SobelCtx *c = p;
  int k = i % ROTATE;
  CK (cip_sobel (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
          (int) c->f.dst_pitch, c->w, c->h, &c->p, s));
}

/* A copy of the frame, timed as ours is: the bytes a stencil must move at
 * least, through the same launches and graph (cudagray's luma kernel at
 * scale 1.0, which copies). */
static void
run_frame_copy (void *p, int i, cudaStream_t s)
{
  SobelCtx *c = p;
  int k = i % ROTATE;
  CK (cip_gray_luma (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
          (int) c->f.dst_pitch, c->w, c->h, CIP_GRAY_SCALE_ONE, s));
}

/* The frame copy's median time on @f's frames (it writes their outputs) */
static double
frame_copy_us (const Frames * f, int w, int h, cudaStream_t s)
{
  SobelCtx c;

  memset (&c, 0, sizeof (c));
  c.f = *f;
  c.w = w;
  c.h = h;
  return time_fn (run_frame_copy, &c, s).median;
}

static void
run_npp_sobel (void *p, int i, cudaStream_t s)
{
  SobelCtx *c = p;
  int k = i % ROTATE;
  NppiSize size = { c->w, c->h };
  NppiPoint off = { 0, 0 };
  int r = npp_sobel (c->f.src[k], (int) c->f.src_pitch, size, off, c->nx,
      (int) c->n_pitch, c->ny, (int) c->n_pitch, c->nm, (int) c->n_pitch,
      c->na, (int) c->na_pitch, size,
      c->p.ksize == 3 ? NPP_MASK_3X3 : NPP_MASK_5X5, NPP_NORM_L2,
      NPP_BORDER_REPLICATE, npp_ctx);
  if (r < 0)
    c->npp_err = r;
}

/* @copy_us: the frame copy's time at this size, measured here where 0;
 * returned for the next ksize. */
static double
bench_sobel (double bw, cudaStream_t s, int w, int h, int ksize, double copy_us)
{
  SobelCtx c;
  uint8_t *host, *out, *ref;
  Stat ours, npp = { 0 };
  double floor_us;
  long bad = 0;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.p.ksize = ksize;
  c.p.scale = 1.0f;
  host = make_content (w, h, 1);
  frames_alloc (&c.f, host, w, w, h);
  ours = time_fn (run_sobel, &c, s);
  out = frames_download (&c.f, w, h);
  ref = malloc ((size_t) w * h);
  ref_sobel (host, w, w, h, ksize, 0, 0, 1.0f, 0, ref, w);
  for (size_t i = 0; i < (size_t) w * h; i++)
    bad += out[i] != ref[i];
  if (copy_us <= 0)             /* after the check: it writes dst */
    copy_us = frame_copy_us (&c.f, w, h, s);

  if (npp_sobel && ksize <= 5) {
    CK (cudaMallocPitch ((void **) &c.nx, &c.n_pitch, (size_t) w * 2, h));
    CK (cudaMallocPitch ((void **) &c.ny, &c.n_pitch, (size_t) w * 2, h));
    CK (cudaMallocPitch ((void **) &c.nm, &c.n_pitch, (size_t) w * 2, h));
    CK (cudaMallocPitch ((void **) &c.na, &c.na_pitch, (size_t) w * 4, h));
    npp = time_npp (run_npp_sobel, &c, &c.npp_err, "Sobel", s);
    cudaFree (c.nx);
    cudaFree (c.ny);
    cudaFree (c.nm);
    cudaFree (c.na);
  }

  floor_us = 2.0 * w * h / bw;  /* read once, write once */
  printf ("| cudasobel %dx%d | %5dx%-5d | %8.2f | %6.2f-%-6.2f | %7.2f | "
      "%5.2f | %7.2f | %5.2f |", ksize, ksize, w, h, ours.median, ours.p10,
      ours.p90, floor_us, ours.median / floor_us, copy_us,
      ours.median / copy_us);
  {
    char op[64];
    snprintf (op, sizeof op, "cudasobel %dx%d", ksize, ksize);
    record (op, w, h, "ours", ours.median);
    record (op, w, h, "floor", floor_us);
    record (op, w, h, "copy", copy_us);
    record (op, w, h, "NPP", npp.median);
  }
  print_peer (npp, ours.median);
  printf (" %s |\n", bad ? "MISMATCH" : "exact");
  frames_free (&c.f);
  free (host);
  free (out);
  free (ref);
  return copy_us;
}

/* ---- cudasmooth ---------------------------------------------------------- */

typedef int (*NppGaussFn) (const uint8_t *, int, NppiSize, NppiPoint,
    uint8_t *, int, NppiSize, int, int, NppStreamContext);
typedef int (*NppBoxFn) (const uint8_t *, int, NppiSize, NppiPoint,
    uint8_t *, int, NppiSize, NppiSize, NppiPoint, int, NppStreamContext);
typedef int (*NppMedianFn) (const uint8_t *, int, uint8_t *, int, NppiSize,
    NppiSize, NppiPoint, uint8_t *, NppStreamContext);
typedef int (*NppMedianSizeFn) (NppiSize, NppiSize, uint32_t *,
    NppStreamContext);

typedef struct
{
  Frames f;
  int w, h;
  CipSmoothParams p;
  uint8_t *npp_buf;
  int npp_err;
} SmoothCtx;

static void
run_smooth (void *p, int i, cudaStream_t s)
{
  SmoothCtx *c = p;
  int k = i % ROTATE;
  CK (cip_smooth (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
          (int) c->f.dst_pitch, c->w, c->h, &c->p, s));
}

/* NPP's nearest filter, replicate border (its Gaussian taps are its own,
 * not OpenCV's: a speed peer only).  Its median has no border mode: the
 * frame's interior, 2 pixels in from each edge. */
static void
run_npp_smooth (void *p, int i, cudaStream_t s)
{
  static NppGaussFn gauss;
  static NppBoxFn box;
  static NppMedianFn median;
  static int looked;
  SmoothCtx *c = p;
  int k = i % ROTATE, r = -1, ks = c->p.ksize;
  NppiSize size = { c->w, c->h }, mask = { ks, ks };
  NppiPoint off = { 0, 0 }, anchor = { ks / 2, ks / 2 };

  if (!looked) {
    gauss = (NppGaussFn) npp_sym ("nppiFilterGaussBorder_8u_C1R_Ctx");
    box = (NppBoxFn) npp_sym ("nppiFilterBoxBorder_8u_C1R_Ctx");
    median = (NppMedianFn) npp_sym ("nppiFilterMedian_8u_C1R_Ctx");
    looked = 1;
  }
  if (c->p.method == CIP_SMOOTH_GAUSSIAN && gauss)
    r = gauss (c->f.src[k], (int) c->f.src_pitch, size, off, c->f.dst[k],
        (int) c->f.dst_pitch, size, ks == 3 ? 200 : ks == 5 ? 201 : 400,
        NPP_BORDER_REPLICATE, npp_ctx);
  else if (c->p.method == CIP_SMOOTH_BOX && box)
    r = box (c->f.src[k], (int) c->f.src_pitch, size, off, c->f.dst[k],
        (int) c->f.dst_pitch, size, mask, anchor, NPP_BORDER_REPLICATE,
        npp_ctx);
  else if (c->p.method == CIP_SMOOTH_MEDIAN && median && c->npp_buf) {
    NppiSize roi = { c->w - 2 * (ks / 2), c->h - 2 * (ks / 2) };
    size_t o = (size_t) (ks / 2) * c->f.src_pitch + ks / 2;
    r = median (c->f.src[k] + o, (int) c->f.src_pitch, c->f.dst[k] + o,
        (int) c->f.dst_pitch, roi, mask, anchor, c->npp_buf, npp_ctx);
  }
  if (r < 0)
    c->npp_err = r;
}

static double
bench_smooth (double bw, cudaStream_t s, int w, int h, CipSmoothMethod m,
    int ksize, double copy_us)
{
  static const char *names[] = { "triangular", "box", "gaussian", "median" };
  SmoothCtx c;
  uint8_t *host, *out, *ref;
  Stat ours, npp = { 0 };
  double floor_us;
  long bad = 0;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.p.method = m;
  c.p.ksize = ksize;
  c.p.border = 1;
  c.p.bpp = 1;
  c.p.keep_off = -1;
  host = make_content (w, h, 1);
  frames_alloc (&c.f, host, w, w, h);
  ours = time_fn (run_smooth, &c, s);
  out = frames_download (&c.f, w, h);
  ref = malloc ((size_t) w * h);
  ref_smooth (host, w, ref, w, w, h, 1, -1, m, ksize, 0, 1);
  for (size_t i = 0; i < (size_t) w * h; i++)
    bad += out[i] != ref[i];
  if (copy_us <= 0)             /* after the check: it writes dst */
    copy_us = frame_copy_us (&c.f, w, h, s);
  if (m != CIP_SMOOTH_TRIANGULAR) {
    if (m == CIP_SMOOTH_MEDIAN) {
      NppMedianSizeFn size_fn = (NppMedianSizeFn)
          npp_sym ("nppiFilterMedianGetBufferSize_8u_C1R_Ctx");
      NppiSize roi = { w - 2 * (ksize / 2), h - 2 * (ksize / 2) },
          mask = { ksize, ksize };
      uint32_t sz = 0;
      if (size_fn && size_fn (roi, mask, &sz, npp_ctx) >= 0)
        CK (cudaMalloc ((void **) &c.npp_buf, sz ? sz : 1));
    }
    npp = time_npp (run_npp_smooth, &c, &c.npp_err, names[m], s);
    if (c.npp_buf)
      cudaFree (c.npp_buf);
  }
  floor_us = 2.0 * w * h / bw;
  printf ("| cudasmooth %s %dx%d | %5dx%-5d | %8.2f | %6.2f-%-6.2f | %7.2f | "
      "%5.2f | %7.2f | %5.2f |", names[m], m ? ksize : 5, m ? ksize : 5, w,
      h, ours.median, ours.p10, ours.p90, floor_us, ours.median / floor_us,
      copy_us, ours.median / copy_us);
  {
    char op[64];
    snprintf (op, sizeof op, "cudasmooth %s %dx%d", names[m], m ? ksize : 5,
        m ? ksize : 5);
    record (op, w, h, "ours", ours.median);
    record (op, w, h, "floor", floor_us);
    record (op, w, h, "copy", copy_us);
    record (op, w, h, "NPP", npp.median);
  }
  print_peer (npp, ours.median);
  printf (" %s |\n", bad ? "MISMATCH" : "exact");
  if (bad)
    fprintf (stderr, "cudasmooth %s %d %dx%d: %ld pixels differ from the "
        "reference\n", names[m], ksize, w, h, bad);
  frames_free (&c.f);
  free (host);
  free (out);
  free (ref);
  return copy_us;
}

/* ---- cudathin ----------------------------------------------------------- */

typedef struct
{
  CipThin *th;
  uint8_t *src, *dst;
  int w, h;
  CipThinMethod m;
  CipThinResult *res;
} ThinCtx;

static void
run_thin (void *p, int i, cudaStream_t s)
{
  ThinCtx *c = p;
  CK (cip_thin (c->th, c->src, c->w, c->dst, c->w, c->m,
          CIP_THIN_BORDER_BACKGROUND, 0, c->res, s));
}

static const char *thin_names[] = { "hilditch", "zhang-suen", "guo-hall" };

static const char *dump_dir;    /* --dump DIR: the binary frames, for peers */

/* The naive loop: one launch per sub-iteration, the changed flag copied
 * back and tested on the host after each pass.  Milliseconds on the GPU's
 * clock from first launch to last read-back; result left in @a (0/1). */
static double
naive_loop (uint8_t * a, uint8_t * b, int w, int h, CipThinMethod m,
    unsigned *flag, unsigned *passes, cudaStream_t s)
{
  cudaEvent_t e0, e1;
  float ms;
  unsigned changed;
  uint8_t *cur = a, *nxt = b;

  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));
  *passes = 0;
  CK (cudaEventRecord (e0, s));
  for (;;) {
    CK (cudaMemsetAsync (flag, 0, sizeof (unsigned), s));
    for (int sub = 0; sub < (m == CIP_THIN_HILDITCH ? 1 : 2); sub++) {
      uint8_t *t = cur;
      CK (cip_thin_naive_step (cur, nxt, w, w, h, m, sub, flag, s));
      cur = nxt;
      nxt = t;
    }
    CK (cudaMemcpyAsync (&changed, flag, sizeof (unsigned),
            cudaMemcpyDeviceToHost, s));
    CK (cudaStreamSynchronize (s));
    if (!changed)
      break;
    (*passes)++;
  }
  CK (cudaEventRecord (e1, s));
  CK (cudaEventSynchronize (e1));
  CK (cudaEventElapsedTime (&ms, e0, e1));
  if (cur != a)
    CK (cudaMemcpy (a, cur, (size_t) w * h, cudaMemcpyDeviceToDevice));
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return ms;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* ---- cudathin3d --------------------------------------------------------- */

typedef struct
{
  CipThin3d *th;
  uint8_t *src, *dst;
  int w, h, d;
  CipThin3dMethod method;
  CipThin3dResult *res;
} Thin3dCtx;

static void
run_thin3d (void *p, int i, cudaStream_t s)
{
  Thin3dCtx *c = p;
  const size_t slice = (size_t) c->w * c->h;
  CK (cip_thin3d (c->th, c->src, c->w, slice, c->dst, c->w, slice,
          c->method, 0, c->res, s));
}

/* Balls of radius n/32 .. n/10 at random places until the volume holds
 * @target object voxels. */
static size_t
make_balls (uint8_t * v, int n, size_t target)
{
  uint32_t s = 2026;
  size_t count = 0;

  memset (v, 0, (size_t) n * n * n);
  while (count < target) {
    int c[3], r, x, y, z;
    for (int k = 0; k < 3; k++) {
      s = s * 1664525u + 1013904223u;
      c[k] = n / 8 + (int) ((s >> 8) % (uint32_t) (n - n / 4));
    }
    s = s * 1664525u + 1013904223u;
    r = n / 32 + (int) ((s >> 8) % (uint32_t) (n / 10 - n / 32 + 1));
    for (z = c[2] - r; z <= c[2] + r; z++)
      for (y = c[1] - r; y <= c[1] + r; y++)
        for (x = c[0] - r; x <= c[0] + r; x++) {
          uint8_t *p;
          if (x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= n ||
              (x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) +
              (z - c[2]) * (z - c[2]) > r * r)
            continue;
          p = v + ((size_t) z * n + y) * n + x;
          count += !*p;
          *p = 1;
        }
  }
  return count;
}

/* The naive loop: 12 launches a round, the deletion count read back after
 * each round.  Milliseconds on the GPU's clock; the result left in @a. */
static double
naive_loop_3d (uint8_t * a, uint8_t * b, int n, unsigned long long *del,
    unsigned *rounds, cudaStream_t s)
{
  cudaEvent_t e0, e1;
  float ms;
  unsigned long long deleted;
  uint8_t *cur = a, *nxt = b;

  CK (cudaEventCreate (&e0));
  CK (cudaEventCreate (&e1));
  *rounds = 0;
  CK (cudaEventRecord (e0, s));
  for (;;) {
    CK (cudaMemsetAsync (del, 0, sizeof (*del), s));
    for (int k = 0; k < 12; k++) {
      uint8_t *t = cur;
      CK (cip_thin3d_naive_step (cur, nxt, n, n, n, k, del, s));
      cur = nxt;
      nxt = t;
    }
    CK (cudaMemcpyAsync (&deleted, del, sizeof (deleted),
            cudaMemcpyDeviceToHost, s));
    CK (cudaStreamSynchronize (s));
    if (!deleted)
      break;
    (*rounds)++;
  }
  CK (cudaEventRecord (e1, s));
  CK (cudaEventSynchronize (e1));
  CK (cudaEventElapsedTime (&ms, e0, e1));
  if (cur != a)
    CK (cudaMemcpy (a, cur, (size_t) n * n * n, cudaMemcpyDeviceToDevice));
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return ms;
}

/* Dumps @n^3 bytes of @v as DIR/thin3d-@what-@content-@n.u8 for
 * bench/thin3d_peers.py */
static void
dump_volume (const uint8_t * v, int n, const char *what, int content)
{
  char path[512];
  FILE *f;

  if (!dump_dir)
    return;
  snprintf (path, sizeof path, "%s/thin3d-%s%s-%d.u8", dump_dir, what,
      content ? "balls" : "knot", n);
  if ((f = fopen (path, "wb"))) {
    fwrite (v, 1, (size_t) n * n * n, f);
    fclose (f);
  }
}

/* @content 0: a trefoil-knot tube; 1: a union of balls, about 10 M object
 * voxels at 512^3 (scaled with the volume).  pk12 against the naive loop,
 * then lee94 (against the CPU reference up to 128^3; its skeleton dumped
 * for scikit-image to match) */
static void
bench_thin3d (cudaStream_t s, int n, int content)
{
  const size_t total = (size_t) n * n * n;
  Thin3dCtx c;
  uint8_t *host = malloc (total), *out, *naive, *d_a, *d_b;
  unsigned long long *del;
  unsigned nrounds = 0;
  CipThin3dResult res;
  size_t objects = 0, bad = 0;
  double nv[3];
  int saved_r = repeats, saved_b = batch;
  Stat st, lst;
  CipThin3dResult lres;
  uint8_t *lee;
  const char *lee_check = "(skimage: thin3d_peers.py)";

  memset (&c, 0, sizeof (c));
  c.w = c.h = c.d = n;
  if (content == 0) {
    ref_thin3d_volume (host, n, n, n, 5, 1);
    for (size_t i = 0; i < total; i++)
      objects += host[i];
  } else {
    objects = make_balls (host, n, (size_t) (10e6 * total / (512.0 * 512 *
                512)));
  }
  dump_volume (host, n, "", content);
  CK (cip_thin3d_create (&c.th, n, n, n));
  CK (cudaMalloc ((void **) &c.src, total));
  CK (cudaMalloc ((void **) &c.dst, total));
  CK (cudaMalloc ((void **) &c.res, sizeof (CipThin3dResult)));
  CK (cudaMalloc ((void **) &d_a, total));
  CK (cudaMalloc ((void **) &d_b, total));
  CK (cudaMalloc ((void **) &del, sizeof (*del)));
  CK (cudaMemcpy (c.src, host, total, cudaMemcpyHostToDevice));

  repeats = 5;
  batch = 1;
  c.method = CIP_THIN3D_PK12;
  st = time_fn (run_thin3d, &c, s);
  CK (cudaMemcpy (&res, c.res, sizeof (res), cudaMemcpyDeviceToHost));
  c.method = CIP_THIN3D_LEE94;
  lst = time_fn (run_thin3d, &c, s);
  CK (cudaMemcpy (&lres, c.res, sizeof (lres), cudaMemcpyDeviceToHost));
  repeats = saved_r;
  batch = saved_b;
  lee = malloc (total);
  CK (cudaMemcpy (lee, c.dst, total, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < total; i++)
    lee[i] = lee[i] != 0;
  dump_volume (lee, n, "lee94-", content);
  if (dump_dir) {
    char path[512];
    FILE *f;
    snprintf (path, sizeof path, "%s/thin3d-lee94-ms.txt", dump_dir);
    if ((f = fopen (path, "a"))) {
      fprintf (f, "%s %d %.3f\n", content ? "balls" : "knot", n,
          lst.median / 1000.0);
      fclose (f);
    }
  }
  if (n <= 128) {
    uint8_t *ref = malloc (total);
    memcpy (ref, host, total);
    ref_thin3d_lee (ref, n, n, n, 0);
    lee_check = memcmp (ref, lee, total) ? "MISMATCH" : "= CPU reference";
    free (ref);
  }
  /* pk12's skeleton back in dst, for the naive loop to match */
  c.method = CIP_THIN3D_PK12;
  run_thin3d (&c, 0, s);

  for (int k = 0; k < 3; k++) {
    CK (cudaMemcpy (d_a, host, total, cudaMemcpyHostToDevice));
    nv[k] = naive_loop_3d (d_a, d_b, n, del, &nrounds, s);
  }
  qsort (nv, 3, sizeof (double), cmp_double);
  out = malloc (total);
  naive = malloc (total);
  CK (cudaMemcpy (out, c.dst, total, cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (naive, d_a, total, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < total; i++)
    bad += (out[i] != 0) != (naive[i] != 0);
  bad += res.rounds != nrounds;

  printf ("| %-5s | %4d^3 | %6.2f M | %8llu | %6u | %9.2f | %7.2f-%-7.2f | "
      "%5.1f %% | %9.2f | %6.1fx | %s | %9.2f | %8llu | %6u | %s |\n",
      content ? "balls" : "knot", n,
      objects / 1e6, (unsigned long long) res.voxels, res.rounds,
      st.median / 1000.0, st.p10 / 1000.0, st.p90 / 1000.0,
      100.0 * res.bricks / ((double) res.subiterations * ((n + 31) / 32) *
          ((n + 7) / 8) * ((n + 3) / 4)), nv[1], nv[1] * 1000.0 / st.median,
      bad ? "MISMATCH" : "= naive", lst.median / 1000.0,
      (unsigned long long) lres.voxels, lres.rounds, lee_check);
  {
    char op[64];
    snprintf (op, sizeof op, "cudathin3d pk12 %s", content ? "balls" : "knot");
    record (op, n, n * n, "ours", st.median);
    record (op, n, n * n, "naive loop", nv[1] * 1000.0);
    snprintf (op, sizeof op, "cudathin3d lee94 %s", content ? "balls" : "knot");
    record (op, n, n * n, "ours", lst.median);
  }
  if (bad)
    fprintf (stderr, "cudathin3d %d^3: %zu mismatches with the naive loop "
        "(rounds %u vs %u)\n", n, bad, res.rounds, nrounds);
  cip_thin3d_destroy (c.th);
  cudaFree (c.src);
  cudaFree (c.dst);
  cudaFree (c.res);
  cudaFree (d_a);
  cudaFree (d_b);
  cudaFree (del);
  free (host);
  free (lee);
  free (out);
  free (naive);
}

/* @content 0: the photo binarized at its Otsu threshold; 1: all
 * foreground. */
static void
bench_thin (cudaStream_t s, int w, int h, int content, CipThinMethod m)
{
  ThinCtx c;
  uint8_t *host = NULL, *out, *naive, *d_a, *d_b;
  unsigned *flag, npasses = 0;
  CipThinResult res;
  double nv[3];
  int saved_r = repeats, saved_b = batch;
  long bad = 0;
  Stat st;

  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.m = m;
  if (content == 0) {
    uint32_t hist[256];
    uint8_t *gray = make_content (w, h, 1);
    host = malloc ((size_t) w * h);
    ref_histogram (gray, w, w, h, hist);
    ref_binarize (gray, w, host, w, w, h, ref_otsu_threshold (hist,
            (uint64_t) w * h), 0);
    free (gray);
  } else {
    host = malloc ((size_t) w * h);
    memset (host, 255, (size_t) w * h);
  }
  if (dump_dir && m == CIP_THIN_HILDITCH) {
    char path[512];
    FILE *f;
    snprintf (path, sizeof path, "%s/thin-%s-%dx%d.gray", dump_dir,
        content ? "full" : "photo", w, h);
    if ((f = fopen (path, "wb"))) {
      fwrite (host, 1, (size_t) w * h, f);
      fclose (f);
    }
  }
  CK (cip_thin_create (&c.th, w, h));
  CK (cudaMalloc ((void **) &c.src, (size_t) w * h));
  CK (cudaMalloc ((void **) &c.dst, (size_t) w * h));
  CK (cudaMalloc ((void **) &c.res, sizeof (CipThinResult)));
  CK (cudaMalloc ((void **) &d_a, (size_t) w * h));
  CK (cudaMalloc ((void **) &d_b, (size_t) w * h));
  CK (cudaMalloc ((void **) &flag, sizeof (unsigned)));
  CK (cudaMemcpy (c.src, host, (size_t) w * h, cudaMemcpyHostToDevice));

  repeats = content ? 5 : 20;
  batch = 1;
  st = time_fn (run_thin, &c, s);
  repeats = saved_r;
  batch = saved_b;
  CK (cudaMemcpy (&res, c.res, sizeof (res), cudaMemcpyDeviceToHost));

  for (int k = 0; k < 3; k++) {
    CK (cudaMemcpy (d_a, host, (size_t) w * h, cudaMemcpyHostToDevice));
    nv[k] = naive_loop (d_a, d_b, w, h, m, flag, &npasses, s);
  }
  qsort (nv, 3, sizeof (double), cmp_double);
  out = malloc ((size_t) w * h);
  naive = malloc ((size_t) w * h);
  CK (cudaMemcpy (out, c.dst, (size_t) w * h, cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (naive, d_a, (size_t) w * h, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < (size_t) w * h; i++)
    bad += (out[i] != 0) != (naive[i] != 0);
  bad += res.passes != npasses;

  printf ("| %-10s | %-5s | %5dx%-5d | %5u | %9.3f | %6.2f-%-6.2f | %6.2f | "
      "%5.1f %% | %9.2f | %6.1fx | %s |\n", thin_names[m],
      content ? "full" : "photo", w, h, res.passes, st.median / 1000.0,
      st.p10 / 1000.0, st.p90 / 1000.0,
      res.passes ? st.median / (res.passes + 1) : st.median,
      100.0 * res.tiles / ((double) res.steps * ((w + 255) / 256) *
          ((h + 31) / 32)), nv[1], nv[1] * 1000.0 / st.median,
      bad ? "MISMATCH" : "= naive");
  {
    char op[64];
    snprintf (op, sizeof op, "cudathin %s %s", thin_names[m],
        content ? "full" : "photo");
    record (op, w, h, "ours", st.median);
    record (op, w, h, "naive loop", nv[1] * 1000.0);
  }
  if (bad)
    fprintf (stderr, "cudathin %s %dx%d: %ld mismatches with the naive "
        "loop (passes %u vs %u)\n", thin_names[m], w, h, bad, res.passes,
        npasses);
  cip_thin_destroy (c.th);
  cudaFree (c.src);
  cudaFree (c.dst);
  cudaFree (c.res);
  cudaFree (d_a);
  cudaFree (d_b);
  cudaFree (flag);
  free (host);
  free (out);
  free (naive);
}

/* ---- cudahistogram ----------------------------------------------------- */

typedef struct
{
  Frames f;
  int w, h, bpp;
  uint32_t *state;
  CipHistResult *res;
  int32_t *npp_hist;
  uint8_t *npp_buf;
} HistCtx;

#define HIST_PW 256
#define HIST_PH 128

static void
run_histogram (void *p, int i, cudaStream_t s)
{
  HistCtx *c = p;
  int k = i % ROTATE;
  const uint8_t *luma = c->f.src[k];
  int pitch = (int) c->f.src_pitch;

  if (c->bpp == 4)
    CK (cip_hist_luma_packed (luma, pitch, c->w, c->h, 4, 0, 1, 2, c->state,
            c->res, s));
  else
    CK (cip_hist_gray (luma, pitch, c->w, c->h, c->state, c->res, s));
  CK (cip_hist_picture (c->res, 1, 0, c->f.dst[k], (int) c->f.dst_pitch,
          HIST_PW, HIST_PH, s));
}

static void
run_npp_histogram (void *p, int i, cudaStream_t s)
{
  HistCtx *c = p;
  int k = i % ROTATE;
  npp_histogram (c->f.src[k], c->f.src_pitch, c->w, c->h, c->npp_hist,
      c->npp_buf);
}

/* The luma histogram's picture (256 x 128, linear) of the photograph:
 * from GRAY8, beside NPP's nppiHistogramEven on the same frame (the counts
 * alone, no picture), and from RGBA (the luma made on the way, as
 * cudahistogram does).  Floor: the frame read once.  The counts and the picture are
 * checked against ref_histogram and ref_histogram_picture. */
static void
bench_histogram (double bw, cudaStream_t s, int w, int h, int bpp)
{
  HistCtx c;
  uint8_t *host = make_content (w, h, bpp), *gray, *pic, *ref;
  uint32_t counts[3][256] = { {0} };
  CipHistResult res;
  Stat ours, npp = { 0 };
  double floor_us;
  long bad = 0;

  if (h < HIST_PH) {
    printf ("| cudahistogram %-5s | %5dx%-5d | (fewer rows than the picture: "
        "not run) |\n", bpp == 4 ? "RGBA" : "GRAY8", w, h);
    free (host);
    return;
  }
  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.bpp = bpp;
  /* the pictures in frames of the input's rows (h >= HIST_PH) */
  frames_alloc (&c.f, host, (size_t) w * bpp, HIST_PW, h);
  CK (cudaMalloc ((void **) &c.state, CIP_HIST_STATE_WORDS * 4));
  CK (cudaMemset (c.state, 0, CIP_HIST_STATE_WORDS * 4));
  CK (cudaMalloc ((void **) &c.res, sizeof (CipHistResult)));
  ours = time_fn (run_histogram, &c, s);

  gray = malloc ((size_t) w * h);
  if (bpp == 4)
    ref_gray_packed (host, w * 4, 4, 0, 1, 2, gray, w, w, h,
        CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B,
        CIP_GRAY_SCALE_ONE);
  else
    memcpy (gray, host, (size_t) w * h);
  ref_histogram (gray, w, w, h, counts[0]);
  CK (cudaMemcpy (&res, c.res, sizeof res, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 256; b++)
    bad += res.hist[0][b] != counts[0][b];
  pic = frames_download (&c.f, HIST_PW, HIST_PH);
  ref = malloc (HIST_PW * HIST_PH);
  ref_histogram_picture ((const uint32_t (*)[256]) counts, 1, 0, ref, HIST_PW,
      HIST_PW, HIST_PH);
  for (int i = 0; i < HIST_PW * HIST_PH; i++)
    bad += pic[i] != ref[i];

  if (bpp == 1)
    npp = time_with_npp_hist (run_npp_histogram, &c, &c.npp_hist, &c.npp_buf,
        w, h, s);
  floor_us = (double) w *h * bpp / bw;
  printf ("| cudahistogram %-5s | %5dx%-5d | %7.2f | %6.2f-%-6.2f | %7.2f | "
      "%5.2f | ", bpp == 4 ? "RGBA" : "GRAY8", w, h, ours.median, ours.p10,
      ours.p90, floor_us, ours.median / floor_us);
  if (npp.median > 0)
    printf ("%7.2f%s | %5.2fx | ", npp.median, npp.direct ? "*" : "",
        npp.median / ours.median);
  else
    printf ("      - |     - | ");
  printf ("%s |\n", bad ? "MISMATCH" : "exact");
  {
    const char *op = bpp == 4 ? "cudahistogram RGBA" : "cudahistogram GRAY8";
    record (op, w, h, "ours", ours.median);
    record (op, w, h, "floor", floor_us);
    if (npp.median > 0)
      record (op, w, h, "NPP", npp.median);
  }
  frames_free (&c.f);
  cudaFree (c.state);
  cudaFree (c.res);
  free (host);
  free (gray);
  free (pic);
  free (ref);
}

/* ---- the floors of a kernel's shape (bench/shapes.cu) ---------------- */

typedef struct
{
  Frames f;
  int row, h, w, picture;
  unsigned *sink;
} ShapeCtx;

static void
run_shape_read (void *p, int i, cudaStream_t s)
{
  ShapeCtx *c = p;
  int k = i % ROTATE;
  CK (shape_read (c->f.src[k], (int) c->f.src_pitch, c->row, c->h, c->sink,
          c->picture, c->f.dst[k], HIST_PW * HIST_PH, s));
}

static void
run_shape_gray (void *p, int i, cudaStream_t s)
{
  ShapeCtx *c = p;
  int k = i % ROTATE;
  CK (shape_gray (c->f.src[k], (int) c->f.src_pitch, c->f.dst[k],
          (int) c->f.dst_pitch, c->w, c->h, s));
}

static void
shape_row (const char *shape, int w, int h, Stat st, double floor_us)
{
  printf ("| %-44s | %5dx%-5d | %7.2f | %6.2f-%-6.2f | %7.2f | %5.2f |\n",
      shape, w, h, st.median, st.p10, st.p90, floor_us, st.median / floor_us);
}

/* What cudahistogram's and cudagray's shapes cost with nothing else in
 * them: a frame read by one launch, then a dependent launch writing a
 * 256x128 picture, or the read's last block writing it; packed RGB in and
 * a byte a pixel out, with no arithmetic.  Beside the floor of the bytes
 * moved: a kernel's ×floor can come no lower than its shape's. */
static void
bench_shapes (double bw, cudaStream_t s, int w, int h)
{
  static const char *what[] = { "read", "read, then a picture launch",
    "read, the last block draws the picture"
  };
  ShapeCtx c;

  for (int bpp = 1; bpp <= 4; bpp += 3) {
    uint8_t *host = make_content (w, h, bpp);
    memset (&c, 0, sizeof (c));
    c.row = w * bpp;
    c.h = h;
    /* the pictures in frames of the input's rows, as bench_histogram's
     * (h >= HIST_PH) */
    frames_alloc (&c.f, host, (size_t) c.row, HIST_PW, h);
    CK (cudaMalloc ((void **) &c.sink, 2 * sizeof (unsigned)));
    CK (cudaMemset (c.sink, 0, 2 * sizeof (unsigned)));
    for (int p = SHAPE_NOTHING; p <= SHAPE_LAST_BLOCK; p++) {
      char name[64];
      c.picture = p;
      snprintf (name, sizeof name, "%s %s", bpp == 4 ? "RGBA" : "GRAY8",
          what[p]);
      shape_row (name, w, h, time_fn (run_shape_read, &c, s),
          (double) c.row * h / bw);
    }
    cudaFree (c.sink);
    frames_free (&c.f);
    free (host);
  }
  {
    uint8_t *host = make_content (w, h, 3);
    memset (&c, 0, sizeof (c));
    c.w = w;
    c.h = h;
    frames_alloc (&c.f, host, (size_t) w * 3, (size_t) w, h);
    shape_row ("RGB in, a byte a pixel out (cudagray's memory)", w, h,
        time_fn (run_shape_gray, &c, s), 4.0 * w * h / bw);
    frames_free (&c.f);
    free (host);
  }
}

/* ---- cudablobs ---------------------------------------------------------- */

typedef struct
{
  const uint8_t *mask;
  int w, h, conn;
  int32_t *labels;
  uint32_t *count, max_stats;
  CipBlobStats *stats;
  void *scratch;
  size_t scratch_size;
} BlobsCtx;

static void
run_blobs (void *p, int i, cudaStream_t s)
{
  BlobsCtx *c = p;
  CK (cip_blobs_label (c->mask, c->w, c->w, c->h, c->conn, c->labels,
          c->w * 4, c->count, c->stats, c->max_stats, c->scratch,
          c->scratch_size, s));
}

/* NPP's labelling as its users call it: nppiLabelMarkersUF (which labels
 * every region of one value, the background's too, with numbers that
 * have gaps), then nppiCompressMarkerLabelsUF to consecutive numbers,
 * whose count it hands to the host (a wait a frame: not capturable, so
 * timed by direct launches).  No statistics. */
typedef struct
{
  uint8_t *mask;
  int w, h, conn, err, count;
  uint32_t *labels;
  uint8_t *buf, *cbuf;
} NppBlobsCtx;

static void
run_npp_blobs (void *p, int i, cudaStream_t s)
{
  NppBlobsCtx *c = p;
  NppiSize roi = { c->w, c->h };
  int r = npp_label (c->mask, c->w, c->labels, c->w * 4, roi,
      c->conn == 8 ? NPP_NORM_INF : NPP_NORM_L1, c->buf, npp_ctx);

  if (r >= 0)
    r = npp_compress (c->labels, c->w * 4, roi, c->w * c->h, &c->count,
        c->cbuf, npp_ctx);
  if (r < 0 && !c->err)
    c->err = r;
}

static int
cmp_u64 (const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

/* Whether NPP's labels (@npp) and ours (@ours, 0 the background) split the
 * foreground of @n pixels into the same components: the distinct (NPP's,
 * ours) pairs on the foreground pair each label of either with one label
 * of the other. */
static int
same_components (const uint32_t * npp, const int32_t * ours, size_t n)
{
  uint64_t *pairs = malloc (sizeof (uint64_t) * (n ? n : 1));
  size_t m = 0, u = 0, i;
  int same = pairs != NULL;

  for (i = 0; same && i < n; i++)
    if (ours[i] != 0)
      pairs[m++] = (uint64_t) npp[i] << 32 | (uint32_t) ours[i];
  if (same) {
    qsort (pairs, m, sizeof (uint64_t), cmp_u64);
    for (i = 0; i < m; i++)
      if (i == 0 || pairs[i] != pairs[u - 1])
        pairs[u++] = pairs[i];
    /* NPP's labels: sorted first, so a repeat is next to its twin */
    for (i = 1; same && i < u; i++)
      same = pairs[i] >> 32 != pairs[i - 1] >> 32;
    for (i = 0; i < u; i++)
      pairs[i] &= 0xffffffffu;
    qsort (pairs, u, sizeof (uint64_t), cmp_u64);
    for (i = 1; same && i < u; i++)
      same = pairs[i] != pairs[i - 1];
  }
  free (pairs);
  return same;
}

/* Where NPP's components differ from ours: on stderr, how many NPP labels
 * and ours the foreground holds, and whether NPP's equal the other
 * connectivity's (@host: the mask). */
static void
npp_blobs_differ (const NppBlobsCtx * c, const uint32_t * npp,
    const int32_t * ours, const uint8_t * host)
{
  const size_t n = (size_t) c->w * c->h;
  int32_t *other = malloc (n * 4);
  RefBlob *blobs = malloc (sizeof (RefBlob) * (n + 1));
  uint32_t *seen = calloc (n + 1, sizeof (uint32_t));
  size_t i, fg = 0, npp_fg = 0, bg_shared = 0;
  int32_t most = 0;

  for (i = 0; i < n && seen; i++) {
    if (!ours[i])
      continue;
    fg++;
    if (ours[i] > most)
      most = ours[i];
    if (npp[i] <= n && !seen[npp[i]]++)
      npp_fg++;
  }
  /* an NPP label of the foreground on background pixels too */
  for (i = 0; i < n && seen; i++)
    if (!ours[i] && npp[i] <= n && seen[npp[i]])
      bg_shared++;
  fprintf (stderr, "NPP labelling %dx%d %d-conn: %zu foreground pixels, "
      "ours %d components, NPP %zu labels on them, %zu background pixels "
      "with one of those labels", c->w, c->h, c->conn, fg, most, npp_fg,
      bg_shared);
  if (other && blobs) {
    ref_label (host, c->w, c->w, c->h, c->conn == 8 ? 4 : 8, other, blobs);
    fprintf (stderr, "; equal to %d-connectivity's: %s",
        c->conn == 8 ? 4 : 8, same_components (npp, other, n) ? "yes" : "no");
  }
  fprintf (stderr, "\n");
  free (other);
  free (blobs);
  free (seen);
}

/* NPP's time on @c's mask (a zero Stat where this NPP lacks the functions
 * or fails), and whether its components equal ours (@ours, host copy;
 * where they differ and BENCH_NPP_WHY is set, how, from the mask @host). */
static Stat
time_npp_blobs (NppBlobsCtx * c, const int32_t * ours, const uint8_t * host,
    const char **check, cudaStream_t s)
{
  Stat st = { 0 };
  NppiSize roi = { c->w, c->h };
  const size_t n = (size_t) c->w * c->h;
  int bytes = 0, cbytes = 0;

  *check = "-";
  if (!npp_label || !npp_label_size || !npp_compress || !npp_compress_size
      || n > INT_MAX || npp_label_size (roi, &bytes) < 0
      || npp_compress_size ((int) n, &cbytes) < 0)
    return st;
  CK (cudaMalloc ((void **) &c->labels, n * 4));
  CK (cudaMalloc ((void **) &c->buf, bytes ? bytes : 1));
  CK (cudaMalloc ((void **) &c->cbuf, cbytes ? cbytes : 1));
  c->err = 0;
  no_graph++;
  st = time_npp (run_npp_blobs, c, &c->err, "labelling", s);
  no_graph--;
  if (st.median > 0 && ours) {
    uint32_t *got = malloc (n * 4);
    CK (cudaMemcpy (got, c->labels, n * 4, cudaMemcpyDeviceToHost));
    *check = same_components (got, ours, n) ? "same components" : "DIFFERENT";
    if (getenv ("BENCH_NPP_WHY") && strcmp (*check, "DIFFERENT") == 0)
      npp_blobs_differ (c, got, ours, host);
    free (got);
  }
  cudaFree (c->labels);
  cudaFree (c->buf);
  cudaFree (c->cbuf);
  return st;
}

/* Labels and statistics of a mask: the photograph binarized at its Otsu
 * threshold (large components, as cudaotsu gives), or 50 % noise (many
 * small ones, the worst case).  Floor: the mask read once and the labels
 * (int32) written once.  Checked against ref_label (OpenCV's numbering)
 * in the same run, up to 4K. */
static void
bench_blobs (double bw, cudaStream_t s, int w, int h, int noise, int conn)
{
  BlobsCtx c;
  NppBlobsCtx nc = { 0 };
  const size_t n = (size_t) w * h;
  uint8_t *host = malloc (n), *d_mask;
  int32_t *got = NULL;
  uint32_t count = 0;
  const char *check = "-", *npp_check;
  double floor_us;
  Stat st, npp;

  memset (&c, 0, sizeof (c));
  if (noise) {
    uint32_t r = 12345;
    for (size_t i = 0; i < n; i++) {
      r = r * 1103515245u + 12345u;
      host[i] = (r >> 16) % 100 < 50 ? 255 : 0;
    }
  } else {
    uint32_t hist[256];
    uint8_t *gray = make_content (w, h, 1);
    ref_histogram (gray, w, w, h, hist);
    ref_binarize (gray, w, host, w, w, h, ref_otsu_threshold (hist,
            (uint64_t) n), 0);
    free (gray);
  }
  c.w = w;
  c.h = h;
  c.conn = conn;
  c.max_stats = (uint32_t) (n / 2 + 1);
  c.scratch_size = cip_blobs_scratch_size (w, h);
  CK (cudaMalloc ((void **) &d_mask, n));
  CK (cudaMalloc ((void **) &c.labels, n * 4));
  CK (cudaMalloc ((void **) &c.count, sizeof (uint32_t)));
  CK (cudaMalloc ((void **) &c.stats, sizeof (CipBlobStats) *
          ((size_t) c.max_stats + 1)));
  CK (cudaMalloc (&c.scratch, c.scratch_size));
  CK (cudaMemcpy (d_mask, host, n, cudaMemcpyHostToDevice));
  c.mask = d_mask;
  st = time_fn (run_blobs, &c, s);
  CK (cudaMemcpy (&count, c.count, sizeof count, cudaMemcpyDeviceToHost));
  if (w <= 3840) {
    int32_t *ref = malloc (n * 4);
    RefBlob *blobs = malloc (sizeof (RefBlob) * (n + 1));
    int nref = ref_label (host, w, w, h, conn, ref, blobs);
    got = malloc (n * 4);
    CK (cudaMemcpy (got, c.labels, n * 4, cudaMemcpyDeviceToHost));
    check = (uint32_t) nref - 1 == count && !memcmp (got, ref, n * 4) ?
        "= reference" : "MISMATCH";
    free (ref);
    free (blobs);
  }
  nc.mask = d_mask;
  nc.w = w;
  nc.h = h;
  nc.conn = conn;
  npp = time_npp_blobs (&nc, got, host, &npp_check, s);
  floor_us = (double) n *5 / bw;
  printf ("| cudablobs %d-conn | %-5s | %5dx%-5d | %8u | %8.2f | "
      "%6.2f-%-6.2f | %7.2f | %6.2f |", conn, noise ? "noise" :
      "photo", w, h, count, st.median, st.p10, st.p90, floor_us,
      st.median / floor_us);
  print_peer (npp, st.median);
  printf (" %s | %s |\n", check, npp_check);
  {
    char op[64];
    snprintf (op, sizeof op, "cudablobs %d-conn %s", conn, noise ? "noise" :
        "photo");
    record (op, w, h, "ours", st.median);
    record (op, w, h, "NPP", npp.median);
  }
  free (got);
  cudaFree (d_mask);
  cudaFree (c.labels);
  cudaFree (c.count);
  cudaFree (c.stats);
  cudaFree (c.scratch);
  free (host);
}

/* ---- cudakmeans --------------------------------------------------------- */

typedef struct
{
  CipKmeans *km;
  Frames f;
  int w, h;
  CipKmeansParams p;
} KmCtx;

/* RGBA frame @i of the rotation */
static void
kmeans_frame (KmCtx * c, int i, CipKmeansResult * res, cudaStream_t s)
{
  const CipKmeansFormat fmt = { CIP_KMEANS_PACKED, 4, 0, 1, 2 };
  CipKmeansPlanes src = { {c->f.src[i]}, {(int) c->f.src_pitch} };
  CipKmeansPlanes dst = { {c->f.dst[i]}, {(int) c->f.dst_pitch} };
  CK (cip_kmeans (c->km, &fmt, &src, &dst, &c->p, res, s));
}

static void
run_kmeans (void *p, int i, cudaStream_t s)
{
  kmeans_frame (p, i % ROTATE, NULL, s);
}

/* Sum of squared colour distances of every pixel to its centre. */
static double
inertia (const uint8_t * rgba, int w, int h, const uint8_t * labels,
    float (*c)[5])
{
  double sum = 0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    for (int ch = 0; ch < 3; ch++) {
      double d = rgba[i * 4 + ch] - (double) c[labels[i]][ch];
      sum += d * d;
    }
  return sum;
}

static FILE *km_quality;        /* --dump: our inertia for kmeans_peers.py */

/* The photo (tight RGB, returned) as RGBA frames of the rotation, and a
 * k-means state for them; @rgba gets the RGBA frame. */
static uint8_t *
km_ctx_init (KmCtx * c, int w, int h, uint8_t ** rgba, CipKmeansResult ** res)
{
  uint8_t *rgb = make_content (w, h, 3);

  *rgba = malloc ((size_t) w * h * 4);
  for (size_t i = 0; i < (size_t) w * h; i++) {
    memcpy (*rgba + i * 4, rgb + i * 3, 3);
    (*rgba)[i * 4 + 3] = 255;
  }
  memset (c, 0, sizeof (*c));
  c->w = w;
  c->h = h;
  CK (cip_kmeans_create (&c->km, w, h));
  CK (cudaMalloc ((void **) res, sizeof (CipKmeansResult)));
  frames_alloc (&c->f, *rgba, (size_t) w * 4, (size_t) w * 4, h);
  return rgb;
}

static void
km_ctx_free (KmCtx * c, CipKmeansResult * res, uint8_t * rgb, uint8_t * rgba)
{
  cip_kmeans_destroy (c->km);
  frames_free (&c->f);
  cudaFree (res);
  free (rgb);
  free (rgba);
}

static void
bench_kmeans (cudaStream_t s, int w, int h, int k)
{
  KmCtx c;
  uint8_t *rgba, *labels = malloc ((size_t) w * h);
  uint8_t *ref = malloc ((size_t) w * h);
  float centres[CIP_KMEANS_MAX_K][5];
  uint32_t counts[CIP_KMEANS_MAX_K];
  CipKmeansResult *d_res, res;
  uint8_t *rgb = km_ctx_init (&c, w, h, &rgba, &d_res);
  Stat cold, warm;
  int saved = repeats, it;
  long bad = 0;

  /* cold: k-means++ every frame and all 10 iterations (epsilon 0) */
  c.p = (CipKmeansParams) {
  k, 10, 0.0f, 0.0f, 0, 0, 1, 0};
  repeats = 30;
  cold = time_fn (run_kmeans, &c, s);
  /* live video: warm start, epsilon 1 */
  c.p.reinit = 0;
  c.p.epsilon = 1.0f;
  warm = time_fn (run_kmeans, &c, s);
  repeats = saved;

  /* one cold frame checked against the reference, labels and centres */
  c.p = (CipKmeansParams) {
  k, 10, 0.0f, 0.0f, 0, 0, 1, 1};
  kmeans_frame (&c, 0, d_res, s);
  CK (cudaStreamSynchronize (s));
  CK (cudaMemcpy2D (labels, w, c.f.dst[0], c.f.dst_pitch, w, h,
          cudaMemcpyDeviceToHost));
  CK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
  if ((size_t) w * h <= 3840 * 2160) {  /* the CPU is slow at 8K */
    it = ref_kmeans (rgba, w * 4, 4, 0, 1, 2, w, h, k, 10, 0.0f, 0.0f, 0, 0,
        0, centres, ref, counts);
    for (size_t i = 0; i < (size_t) w * h; i++)
      bad += labels[i] != ref[i];
    bad += memcmp (res.centres, centres, sizeof (float) * 5 * k) != 0;
    bad += (int) res.iterations != it;
  } else {
    memcpy (ref, labels, (size_t) w * h);
    memcpy (centres, res.centres, sizeof (float) * 5 * k);
  }

  printf ("| cudakmeans k=%-2d | %5dx%-5d | %8.1f | %6.1f-%-6.1f | %6.1f | "
      "%8.1f | %.4g | %s |\n", k, w, h, cold.median, cold.p10, cold.p90,
      cold.median / 10, warm.median, inertia (rgba, w, h, labels, centres),
      bad ? "MISMATCH" : (size_t) w * h <= 3840 * 2160 ? "= reference" :
      "not checked");
  {
    char op[64];
    snprintf (op, sizeof op, "cudakmeans k=%d", k);
    record (op, w, h, "ours", cold.median);
    record (op, w, h, "ours, warm start", warm.median);
  }
  if (km_quality && w == 1920) {
    char path[512];
    FILE *f;
    snprintf (path, sizeof path, "%s/kmeans-photo-%dx%d.rgb", dump_dir, w, h);
    if ((f = fopen (path, "wb"))) {
      fwrite (rgb, 1, (size_t) w * h * 3, f);
      fclose (f);
    }
    /* and with the iterations run to convergence */
    c.p.max_iterations = 300;
    c.p.epsilon = 0.01f;
    kmeans_frame (&c, 0, d_res, s);
    CK (cudaStreamSynchronize (s));     /* s does not block on stream 0 */
    CK (cudaMemcpy2D (labels, w, c.f.dst[0], c.f.dst_pitch, w, h,
            cudaMemcpyDeviceToHost));
    CK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
    fprintf (km_quality, "%d %d %d %.6f %.6f %u\n", w, h, k,
        inertia (rgba, w, h, ref, centres), inertia (rgba, w, h, labels,
            res.centres), res.iterations);
  }
  if (bad)
    fprintf (stderr, "cudakmeans %dx%d k=%d: %ld mismatches\n", w, h, k, bad);
  km_ctx_free (&c, d_res, rgb, rgba);
  free (labels);
  free (ref);
}

/* Several k-means++ starts a frame, the lowest inertia kept (issue 26):
 * k-means++ and 30 iterations (epsilon 0) every frame, 1, 4 and 10 starts;
 * the inertia (sum of squared colour distances, as cv2.kmeans' compactness)
 * of the kept one.  --dump writes it for kmeans_peers.py. */
static void
bench_kmeans_attempts (cudaStream_t s, int w, int h, int k)
{
  static const int attempts[] = { 1, 4, 10 };
  KmCtx c;
  uint8_t *rgba, *labels = malloc ((size_t) w * h);
  CipKmeansResult *d_res, res;
  uint8_t *rgb = km_ctx_init (&c, w, h, &rgba, &d_res);
  FILE *dump = NULL;
  double one = 0, one_inertia = 0;
  int saved = repeats;

  if (dump_dir) {
    char path[512];
    snprintf (path, sizeof path, "%s/kmeans-attempts.txt", dump_dir);
    dump = fopen (path, "w");
  }
  printf ("\n<!-- bench:kmeans-attempts -->\n");
  printf ("cudakmeans `attempts`, RGBA photo %dx%d, k=%d: k-means++ and 30 "
      "iterations (epsilon 0) from each start on every frame, the start of "
      "the lowest inertia kept\n\n", w, h, k);
  printf ("| attempts | µs | p10-p90 µs | × 1 attempt | inertia | × 1 "
      "attempt's |\n|---|---|---|---|---|---|\n");
  for (size_t a = 0; a < sizeof attempts / sizeof attempts[0]; a++) {
    Stat t;
    double in;
    char op[64];

    c.p = (CipKmeansParams) {
    k, 30, 0.0f, 0.0f, 0, 0, 1, 0, attempts[a]};
    repeats = 10;
    t = time_fn (run_kmeans, &c, s);
    repeats = saved;
    c.p.output = 1;
    kmeans_frame (&c, 0, d_res, s);
    CK (cudaStreamSynchronize (s));
    CK (cudaMemcpy2D (labels, w, c.f.dst[0], c.f.dst_pitch, w, h,
            cudaMemcpyDeviceToHost));
    CK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
    in = inertia (rgba, w, h, labels, res.centres);
    if (a == 0) {
      one = t.median;
      one_inertia = in;
    }
    printf ("| %d | %.1f | %.1f-%.1f | %.2f | %.6g | %.4f |\n", attempts[a],
        t.median, t.p10, t.p90, t.median / one, in, in / one_inertia);
    snprintf (op, sizeof op, "cudakmeans k=%d attempts=%d", k, attempts[a]);
    record (op, w, h, "ours", t.median);
    if (dump)
      fprintf (dump, "%d %d %d %d %.3f %.6f\n", w, h, k, attempts[a],
          t.median, in);
  }
  printf ("<!-- /bench:kmeans-attempts -->\n");
  if (dump)                     /* the frame: bench_kmeans wrote it */
    fclose (dump);
  km_ctx_free (&c, d_res, rgb, rgba);
  free (labels);
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

  /* a row at a time, so that a run cut short keeps what it measured */
  setvbuf (stdout, NULL, _IOLBF, 0);
  for (i = 1; i < argc; i++)
    if (!strcmp (argv[i], "--repeats") && i + 1 < argc)
      repeats = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--batch") && i + 1 < argc)
      batch = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--dump") && i + 1 < argc)
      dump_dir = argv[++i];
    else if (!strcmp (argv[i], "--json") && i + 1 < argc)
      json = fopen (argv[++i], "a");
    else if (!strcmp (argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp (argv[i], "--size") && i + 1 < argc)
      sscanf (argv[++i], "%dx%d", &only_w, &only_h);
    else if (!strcmp (argv[i], "--photo") && i + 3 < argc) {
      if (!load_photo (argv[i + 1], atoi (argv[i + 2]), atoi (argv[i + 3])))
        fprintf (stderr, "could not read %s\n", argv[i + 1]);
      i += 3;
    }
  if (cudaGetDeviceProperties (&prop, 0) != cudaSuccess) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  CK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  bw = measure_bandwidth (s);
  load_npp (s);
  printf ("<!-- bench:device -->\n");
  printf ("device: %s, %d SMs, L2 %d MB; copy bandwidth %.0f GB/s "
      "(read + write); per frame: median of %d graph replays of %d frames "
      "(* = peer timed by direct launches: its calls could not be captured)"
      "\n\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
      bw / 1000.0, repeats, batch);
  printf ("<!-- /bench:device -->\n");
  if (want ("gray")) {
    printf ("<!-- bench:gray -->\n");
    printf ("| kernel | size | ours µs | p10-p90 µs | floor µs | ×floor | "
        "NPP µs | NPP/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      bench_gray (bw, s, sizes[i][0], sizes[i][1], 4, "RGBA");
      bench_gray (bw, s, sizes[i][0], sizes[i][1], 3, "RGB");
      bench_gray (bw, s, sizes[i][0], sizes[i][1], 1, "NV12");
    }
    printf ("<!-- /bench:gray -->\n");
  }
  printf ("\ncontent: %s\n\n",
      bench_have_photo ()? "the photograph, scaled up" :
      "synthetic (no --photo)");
  if (want ("otsu")) {
    printf ("<!-- bench:otsu -->\n");
    printf
        ("| kernel | size | ours µs | p10-p90 µs | threshold changing µs | "
        "two launches µs | hist / thresh / binarize µs (alone) | "
        "floor 1R1W µs | floor 2R1W µs | ×floor 1R1W | ×floor 2R1W | "
        "NPP hist+cmp µs | NPP/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      bench_otsu (bw, s, sizes[i][0], sizes[i][1], 0);
      bench_otsu (bw, s, sizes[i][0], sizes[i][1], 1);
    }
    printf ("<!-- /bench:otsu -->\n");
  }
  if (want ("sobel")) {
    printf ("\n<!-- bench:sobel -->\n");
    printf
        ("| kernel (L2 magnitude) | size | ours µs | p10-p90 µs | floor µs | "
        "×floor | frame copy µs | ×copy | NPP GradientVectorSobel µs | "
        "NPP/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      double copy_us = 0;       /* one frame copy a size, for all three */
      int k;

      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      for (k = 3; k <= 7; k += 2)
        copy_us = bench_sobel (bw, s, sizes[i][0], sizes[i][1], k, copy_us);
    }
    printf ("<!-- /bench:sobel -->\n");
  }
  if (want ("smooth")) {
    static const struct
    {
      CipSmoothMethod m;
      int k;
    } rows[] = {
      {CIP_SMOOTH_TRIANGULAR, 5}, {CIP_SMOOTH_GAUSSIAN, 3},
      {CIP_SMOOTH_GAUSSIAN, 5}, {CIP_SMOOTH_GAUSSIAN, 7},
      {CIP_SMOOTH_BOX, 3}, {CIP_SMOOTH_BOX, 5}, {CIP_SMOOTH_BOX, 7},
      {CIP_SMOOTH_BOX, 11}, {CIP_SMOOTH_BOX, 15},
      {CIP_SMOOTH_MEDIAN, 3}, {CIP_SMOOTH_MEDIAN, 5},
    };
    printf ("\n<!-- bench:smooth -->\n");
    printf ("GRAY8, reflect-101 (NPP: replicate; its median on the frame's "
        "interior, having no border mode)\n\n");
    printf ("| kernel | size | ours µs | p10-p90 µs | floor µs | ×floor | "
        "frame copy µs | ×copy | NPP µs | NPP/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      double copy_us = 0;

      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      for (size_t r = 0; r < sizeof (rows) / sizeof (rows[0]); r++)
        copy_us = bench_smooth (bw, s, sizes[i][0], sizes[i][1], rows[r].m,
            rows[r].k, copy_us);
    }
    printf ("<!-- /bench:smooth -->\n");
  }
  if (want ("kmeans")) {
    printf ("\n<!-- bench:kmeans -->\n");
    if (dump_dir) {
      char path[512];
      snprintf (path, sizeof path, "%s/kmeans-ours.txt", dump_dir);
      km_quality = fopen (path, "w");
    }
    printf ("cudakmeans, RGBA photo: *cold* = k-means++ on every frame "
        "and 10 iterations (epsilon 0), *warm* = live video (warm start, "
        "epsilon 1); one launch a frame\n\n");
    printf
        ("| kernel | size | cold µs | p10-p90 µs | µs/iteration | warm µs "
        "| inertia (10 it.) | check |\n");
    printf ("|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      bench_kmeans (s, sizes[i][0], sizes[i][1], 4);
      bench_kmeans (s, sizes[i][0], sizes[i][1], 8);
      if (sizes[i][0] == 1920)
        bench_kmeans (s, sizes[i][0], sizes[i][1], 16);
    }
    if (km_quality)
      fclose (km_quality);
    printf ("<!-- /bench:kmeans -->\n");
    if (size_wanted (1920, 1080))
      bench_kmeans_attempts (s, 1920, 1080, 8);
  }
  if (want ("overlay")) {
    printf ("\n<!-- bench:overlay -->\n");
    printf ("cudaoverlay: a binary mask painted at alpha 0.6; floor = video "
        "in + mask in + video out at the copy bandwidth; copy = the video "
        "frame copied by the same kind of launch\n\n");
    printf ("| kernel | size | ours µs | p10-p90 µs | floor µs | ×floor | "
        "copy µs | ×copy | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      bench_overlay (bw, s, sizes[i][0], sizes[i][1], 0);
      bench_overlay (bw, s, sizes[i][0], sizes[i][1], 1);
    }
    printf ("<!-- /bench:overlay -->\n");
  }
  if (want ("thin") && !(only && !strcmp (only, "thin3d"))) {
    printf ("\n<!-- bench:thin -->\n");
    printf ("cudathin: one launch per frame; naive = one launch per "
        "sub-iteration and a flag read back per pass (GPU clock, median of "
        "3); tiles = share of tile-steps computed, the rest skipped\n\n");
    printf ("| method | frame | size | passes | ours ms | p10-p90 ms | "
        "µs/pass | tiles | naive ms | naive/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      for (int m = 0; m < 3; m++)
        bench_thin (s, sizes[i][0], sizes[i][1], 0, m);
    }
    if (size_wanted (4096, 4096))
      for (int m = 0; m < 3; m++)
        bench_thin (s, 4096, 4096, 1, m);
    printf ("<!-- /bench:thin -->\n");
  }
  if (want ("histogram")) {
    printf ("\n<!-- bench:histogram -->\n");
    printf ("cudahistogram: the luma histogram's picture (256x128, linear) "
        "of the photograph; floor = the frame read once; NPP = "
        "nppiHistogramEven on the same GRAY8 frame (the counts alone)\n\n");
    printf ("| kernel | size | ours µs | p10-p90 µs | floor µs | ×floor | "
        "NPP µs | NPP/ours | check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      bench_histogram (bw, s, sizes[i][0], sizes[i][1], 1);
      bench_histogram (bw, s, sizes[i][0], sizes[i][1], 4);
    }
    printf ("<!-- /bench:histogram -->\n");
  }
  /* not in the default run: floors, not kernels (docs/notes/histogram.md) */
  if (only && strstr (only, "shapes")) {
    printf ("\n<!-- bench:shapes -->\n");
    printf ("the floors of kernels' shapes (bench/shapes.cu); floor = the "
        "bytes moved at the copy bandwidth\n\n");
    printf ("| shape | size | µs | p10-p90 µs | floor µs | ×floor |\n");
    printf ("|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++)
      if (size_wanted (sizes[i][0], sizes[i][1]))
        bench_shapes (bw, s, sizes[i][0], sizes[i][1]);
    printf ("<!-- /bench:shapes -->\n");
  }
  if (want ("blobs")) {
    printf ("\n<!-- bench:blobs -->\n");
    printf ("cudablobs: labels (OpenCV's numbering) and statistics of a "
        "mask, one frame a launch sequence; photo = the photograph at its "
        "Otsu threshold, noise = 50 %% random pixels; floor = the mask read "
        "and the int32 labels written once\n\n");
    printf ("NPP = nppiLabelMarkersUF + nppiCompressMarkerLabelsUF (labels "
        "only, no statistics; its count read back each frame, so timed by "
        "direct launches, *); its check: its components equal ours\n\n");
    printf ("| kernel | mask | size | components | ours µs | p10-p90 µs | "
        "floor µs | ×floor | NPP µs | NPP/ours | check | NPP check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < 4; i++) {
      if (!size_wanted (sizes[i][0], sizes[i][1]))
        continue;
      for (int noise = 0; noise < 2; noise++)
        for (int conn = 8; conn >= 4; conn -= 4)
          bench_blobs (bw, s, sizes[i][0], sizes[i][1], noise, conn);
    }
    printf ("<!-- /bench:blobs -->\n");
  }
  if (want ("thin3d")) {
    static const int ns[] = { 128, 256, 512 };
    printf ("\n<!-- bench:thin3d -->\n");
    printf ("cudathin3d pk12: one launch per volume; naive = 12 launches a "
        "round and the deletions read back after each round (GPU clock, "
        "median of 3); bricks = share of brick evaluations made, the rest "
        "skipped.  lee94: one launch per volume, median of 5; scikit-image "
        "beside it in the thin3d-peers table\n\n");
    printf ("| volume | size | objects | left | rounds | ours ms | "
        "p10-p90 ms | bricks | naive ms | naive/ours | check | lee94 ms | "
        "lee94 left | lee94 rounds | lee94 check |\n");
    printf ("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        "\n");
    for (i = 0; i < 3; i++)
      if (!only_w || only_w == ns[i])
        for (int content = 0; content < 2; content++)
          bench_thin3d (s, ns[i], content);
    printf ("<!-- /bench:thin3d -->\n");
  }
  cudaStreamDestroy (s);
  return 0;
}

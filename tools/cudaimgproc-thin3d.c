/* cudaimgproc-thin3d: 3D thinning of a voxel volume file on the GPU, for
 * users outside GStreamer.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads a raw uint8 volume (--size WxHxD, x fastest, then y, then z) or a
 * NumPy .npy file (uint8 or bool, C order, shape (D, H, W) or (H, W)),
 * thins it with the same kernels as the cudathin3d element and writes the
 * skeleton in the same format: 0 and 255 (0 and 1 with --ones, and for a
 * bool .npy).  Non-zero input voxels are object; outside the volume is
 * background.
 *
 * The volume is thinned a round per launch, in place, so that a long
 * volume can report its progress; a round starts from the volume alone,
 * so the result is the one a single launch gives.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "thin3d.h"

#define PROG "cudaimgproc-thin3d"

typedef struct
{
  const char *in, *out;
  int w, h, d;                  /* from --size, or the .npy header */
  int npy, npy_dims, npy_bool;
  CipThin3dMethod method;
  unsigned max_rounds;
  int device, ones, quiet, verbose;
} Options;

static void
usage (FILE * f)
{
  fprintf (f,
      "Usage: " PROG " [OPTION...] INPUT OUTPUT\n"
      "Thins a voxel volume to its curve skeleton on an NVIDIA GPU.\n"
      "\n"
      "INPUT is a raw uint8 volume (x fastest, then y, then z; give\n"
      "--size) or a NumPy .npy file (uint8 or bool, C order, shape\n"
      "(depth, height, width) or (height, width)).  Non-zero voxels are\n"
      "object, outside the volume is background.  OUTPUT gets the skeleton\n"
      "in the same format: 255 on the skeleton and 0 elsewhere (1 and 0\n"
      "with --ones or for a bool .npy).\n"
      "\n"
      "  -s, --size WxHxD      size of a raw volume\n"
      "  -m, --method METHOD   pk12 (default): Palagyi-Kuba 12-subiteration\n"
      "                        curve thinning; lee94: Lee-Kashyap-Chu, as\n"
      "                        scikit-image's skeletonize on 3D input\n"
      "  -r, --max-rounds N    stop after N rounds (0, the default: until a\n"
      "                        round deletes nothing)\n"
      "  -d, --device N        CUDA device (default 0)\n"
      "      --ones            write 1, not 255, on the skeleton\n"
      "  -q, --quiet           no progress or summary on stderr\n"
      "  -v, --verbose         a progress line every round (otherwise every\n"
      "                        half second, once a volume takes that long)\n"
      "  -h, --help            this help\n"
      "\n"
      "Exit status: 0 done, 1 an error reading, writing or thinning, 2 bad\n"
      "arguments.\n");
}

static int
fail (int status, const char *fmt, ...)
{
  va_list ap;

  fprintf (stderr, PROG ": ");
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  return status;
}

static int
ends_with (const char *s, const char *suffix)
{
  const size_t n = strlen (s), m = strlen (suffix);
  return n >= m && strcmp (s + n - m, suffix) == 0;
}

static int
parse_uint (const char *s, unsigned long max, unsigned long *out)
{
  char *end;

  errno = 0;
  if (*s < '0' || *s > '9')
    return 0;
  *out = strtoul (s, &end, 10);
  return !errno && !*end && *out <= max;
}

static int
parse_size (const char *s, Options * o)
{
  int n = 0;
  char tail;

  if (sscanf (s, "%dx%dx%d%n%c", &o->w, &o->h, &o->d, &n, &tail) != 3 ||
      s[n] || o->w < 1 || o->h < 1 || o->d < 1)
    return 0;
  return 1;
}

/* 0 on success, -1 for --help (printed), else the exit status (the
 * message printed) */
static int
parse_args (int argc, char **argv, Options * o)
{
  int i, pos = 0, have_size = 0;

  memset (o, 0, sizeof (*o));
  o->method = CIP_THIN3D_PK12;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    unsigned long u;

#define OPT(s, l) (!strcmp (a, s) || !strcmp (a, l))
#define VALUE() \
    do { \
      if (i + 1 >= argc) \
        return fail (2, "%s needs a value (see --help)", a); \
      val = argv[++i]; \
    } while (0)
    if (OPT ("-h", "--help")) {
      usage (stdout);
      return -1;
    } else if (OPT ("-s", "--size")) {
      VALUE ();
      if (!parse_size (val, o))
        return fail (2, "--size '%s': expected WIDTHxHEIGHTxDEPTH, each at "
            "least 1 (e.g. 256x256x128)", val);
      have_size = 1;
    } else if (OPT ("-m", "--method")) {
      VALUE ();
      if (!strcmp (val, "pk12"))
        o->method = CIP_THIN3D_PK12;
      else if (!strcmp (val, "lee94"))
        o->method = CIP_THIN3D_LEE94;
      else
        return fail (2, "--method '%s': expected pk12 or lee94", val);
    } else if (OPT ("-r", "--max-rounds")) {
      VALUE ();
      if (!parse_uint (val, 0x7fffffff, &u))
        return fail (2, "--max-rounds '%s': expected a whole number", val);
      o->max_rounds = (unsigned) u;
    } else if (OPT ("-d", "--device")) {
      VALUE ();
      if (!parse_uint (val, 1024, &u))
        return fail (2, "--device '%s': expected a device number", val);
      o->device = (int) u;
    } else if (!strcmp (a, "--ones")) {
      o->ones = 1;
    } else if (OPT ("-q", "--quiet")) {
      o->quiet = 1;
    } else if (OPT ("-v", "--verbose")) {
      o->verbose = 1;
    } else if (a[0] == '-' && a[1]) {
      return fail (2, "unknown option '%s' (see --help)", a);
    } else if (pos == 0) {
      o->in = a;
      pos++;
    } else if (pos == 1) {
      o->out = a;
      pos++;
    } else {
      return fail (2, "one INPUT and one OUTPUT, not '%s' too", a);
    }
#undef VALUE
#undef OPT
  }
  if (pos < 2)
    return fail (2, "give an INPUT and an OUTPUT file (see --help)");
  o->npy = ends_with (o->in, ".npy");
  if (!o->npy && !have_size)
    return fail (2, "'%s' is raw (not .npy): give its --size WxHxD", o->in);
  if (o->npy && have_size)
    return fail (2, "--size is for raw volumes; '%s' has its own shape", o->in);
  if (o->npy != ends_with (o->out, ".npy"))
    return fail (2, "the output is written in the input's format: both "
        ".npy or neither");
  return 0;
}

/* ---- .npy ---------------------------------------------------------------- */

/* Reads the header of the .npy @f: dtype, order, shape.  Leaves @f at the
 * data.  0 on success, else the exit status. */
static int
npy_read_header (FILE * f, Options * o)
{
  unsigned char pre[10];
  char *hdr, *p;
  size_t len, dims[3];
  int ver, nd = 0;

  if (fread (pre, 1, 8, f) != 8 || memcmp (pre, "\x93NUMPY", 6))
    return fail (1, "'%s' is not a NumPy .npy file", o->in);
  ver = pre[6];
  if (ver == 1) {
    if (fread (pre + 8, 1, 2, f) != 2)
      return fail (1, "'%s': truncated .npy header", o->in);
    len = pre[8] | (size_t) pre[9] << 8;
  } else if (ver == 2 || ver == 3) {
    unsigned char l[4];
    if (fread (l, 1, 4, f) != 4)
      return fail (1, "'%s': truncated .npy header", o->in);
    len = l[0] | (size_t) l[1] << 8 | (size_t) l[2] << 16 | (size_t) l[3] << 24;
  } else {
    return fail (1, "'%s': .npy format version %d is not known", o->in, ver);
  }
  if (len > 1 << 20 || !(hdr = calloc (1, len + 1)))
    return fail (1, "'%s': .npy header too long", o->in);
  if (fread (hdr, 1, len, f) != len) {
    free (hdr);
    return fail (1, "'%s': truncated .npy header", o->in);
  }
  if (strstr (hdr, "'descr': '|u1'") || strstr (hdr, "'descr': '<u1'") ||
      strstr (hdr, "'descr': '>u1'") || strstr (hdr, "'descr': 'u1'"))
    o->npy_bool = 0;
  else if (strstr (hdr, "'descr': '|b1'"))
    o->npy_bool = 1;
  else {
    free (hdr);
    return fail (1, "'%s': the volume must be uint8 or bool (convert with "
        "volume.astype(numpy.uint8))", o->in);
  }
  if (!strstr (hdr, "'fortran_order': False")) {
    free (hdr);
    return fail (1, "'%s' is in Fortran order: save "
        "numpy.ascontiguousarray(volume)", o->in);
  }
  p = strstr (hdr, "'shape': (");
  if (p) {
    p += strlen ("'shape': (");
    while (nd < 3) {
      char *end;
      unsigned long long v;
      while (*p == ' ')
        p++;
      if (*p == ')')
        break;
      errno = 0;
      v = strtoull (p, &end, 10);
      if (end == p || errno || v > 0x7fffffff)
        break;
      dims[nd++] = v;
      p = end;
      while (*p == ' ')
        p++;
      if (*p == ',')
        p++;
    }
    while (*p == ' ')
      p++;
  }
  if (!p || *p != ')' || nd < 2) {
    free (hdr);
    return fail (1, "'%s': expected a 3D (depth, height, width) or 2D "
        "(height, width) array", o->in);
  }
  free (hdr);
  o->npy_dims = nd;
  o->d = nd == 3 ? (int) dims[0] : 1;
  o->h = (int) dims[nd - 2];
  o->w = (int) dims[nd - 1];
  if (o->w < 1 || o->h < 1 || o->d < 1)
    return fail (1, "'%s': the volume is empty", o->in);
  return 0;
}

static int
npy_write_header (FILE * f, const Options * o)
{
  char hdr[256];
  int n;

  if (o->npy_dims == 3)
    n = snprintf (hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': "
        "False, 'shape': (%d, %d, %d), }", o->npy_bool ? "|b1" : "|u1",
        o->d, o->h, o->w);
  else
    n = snprintf (hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': "
        "False, 'shape': (%d, %d), }", o->npy_bool ? "|b1" : "|u1", o->h, o->w);
  /* version 1.0: spaces and a newline pad the header to 64 bytes */
  while ((10 + n + 1) % 64)
    hdr[n++] = ' ';
  hdr[n++] = '\n';
  return fwrite ("\x93NUMPY\x01\x00", 1, 8, f) == 8 &&
      fputc (n & 0xff, f) != EOF && fputc (n >> 8, f) != EOF &&
      fwrite (hdr, 1, (size_t) n, f) == (size_t) n;
}

/* ---- the volume -------------------------------------------------------- */

static uint8_t *
read_volume (Options * o, size_t *bytes, int *status)
{
  FILE *f = fopen (o->in, "rb");
  uint8_t *v;
  long here, end;

  *status = 1;
  if (!f) {
    fail (1, "cannot open '%s': %s", o->in, strerror (errno));
    return NULL;
  }
  if (o->npy && (*status = npy_read_header (f, o))) {
    fclose (f);
    return NULL;
  }
  *status = 1;
  *bytes = (size_t) o->w * o->h * o->d;
  here = ftell (f);
  if (fseek (f, 0, SEEK_END) || (end = ftell (f)) < 0 ||
      fseek (f, here, SEEK_SET)) {
    fail (1, "cannot read '%s': %s", o->in, strerror (errno));
    fclose (f);
    return NULL;
  }
  if ((size_t) (end - here) != *bytes) {
    if (o->npy)
      fail (1, "'%s' holds %ld bytes of data; its shape needs %zu", o->in,
          end - here, *bytes);
    else
      fail (1, "'%s' has %ld bytes; --size %dx%dx%d needs %zu", o->in,
          end - here, o->w, o->h, o->d, *bytes);
    fclose (f);
    return NULL;
  }
  if (!(v = malloc (*bytes))) {
    fail (1, "out of host memory for %zu bytes", *bytes);
    fclose (f);
    return NULL;
  }
  if (fread (v, 1, *bytes, f) != *bytes) {
    fail (1, "cannot read '%s': %s", o->in, ferror (f) ? strerror (errno) :
        "file shorter than it was");
    free (v);
    fclose (f);
    return NULL;
  }
  fclose (f);
  *status = 0;
  return v;
}

/* Writes the skeleton to @f, opened on the output before thinning (a
 * path that cannot be written fails at once, not after the GPU's work). */
static int
write_volume (const Options * o, FILE * f, uint8_t * v, size_t bytes)
{
  const uint8_t on = o->ones || o->npy_bool ? 1 : 255;
  size_t i;
  int ok;

  for (i = 0; i < bytes; i++)
    v[i] = v[i] ? on : 0;
  ok = (!o->npy || npy_write_header (f, o)) && fwrite (v, 1, bytes, f) == bytes;
  ok = (fclose (f) == 0) && ok;
  if (!ok)
    return fail (1, "cannot write '%s': %s", o->out, strerror (errno));
  return 0;
}

/* ---- thinning ---------------------------------------------------------- */

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int
cuda_fail (cudaError_t err, const char *what)
{
  if (err == cudaErrorNoDevice)
    return fail (1, "no usable CUDA GPU found (%s)", what);
  if (err == cudaErrorInsufficientDriver)
    return fail (1, "no CUDA driver found, or one older than this build's "
        "CUDA %d.%d (%s)", CUDART_VERSION / 1000, CUDART_VERSION % 100 / 10,
        what);
  if (err == cudaErrorMemoryAllocation)
    return fail (1, "out of GPU memory (%s)", what);
  return fail (1, "CUDA error while %s: %s", what, cudaGetErrorString (err));
}

static int
thin (const Options * o, uint8_t * v, size_t bytes, uint64_t objects)
{
  const size_t pitch = (size_t) o->w, slice = pitch * o->h;
  const int tty = isatty (2);
  struct cudaDeviceProp prop;
  CipThin3d *th = NULL;
  CipThin3dResult *dres = NULL, res;
  uint8_t *dv = NULL;
  size_t need, free_b = 0, total_b = 0;
  unsigned rounds = 0;
  double t0, last, gpu_s = 0;
  int count = 0, status = 1, converged = 0;
  cudaError_t err;

  if ((err = cudaGetDeviceCount (&count)) != cudaSuccess)
    return cuda_fail (err, "looking for a GPU");
  if (o->device >= count)
    return fail (1, "CUDA device %d does not exist (%d found)", o->device,
        count);
  if ((err = cudaSetDevice (o->device)) != cudaSuccess ||
      (err = cudaGetDeviceProperties (&prop, o->device)) != cudaSuccess ||
      (err = cudaMemGetInfo (&free_b, &total_b)) != cudaSuccess)
    return cuda_fail (err, "opening the GPU");
  need = cip_thin3d_scratch_size (o->w, o->h, o->d);
  if (!need)
    return fail (1, "a %dx%dx%d volume is too large to thin", o->w, o->h, o->d);
  need += bytes;
  if (need > free_b)
    return fail (1, "a %dx%dx%d volume needs %.0f MiB of GPU memory; %s "
        "has %.0f MiB free", o->w, o->h, o->d, need / 1048576.0, prop.name,
        free_b / 1048576.0);
  if ((err = cudaMalloc ((void **) &dv, bytes)) != cudaSuccess ||
      (err = cudaMalloc ((void **) &dres, sizeof res)) != cudaSuccess) {
    status = cuda_fail (err, "allocating the volume");
    goto out;
  }
  if ((err = cip_thin3d_create (&th, o->w, o->h, o->d)) != cudaSuccess) {
    status = cuda_fail (err, "allocating the thinning scratch");
    goto out;
  }
  err = cudaMemcpy (dv, v, bytes, cudaMemcpyHostToDevice);
  if (err != cudaSuccess) {
    status = cuda_fail (err, "uploading the volume");
    goto out;
  }

  /* a round a launch, in place, the state of a round being the volume */
  t0 = last = now ();
  for (;;) {
    const double s = now ();
    if ((err = cip_thin3d (th, dv, pitch, slice, dv, pitch, slice,
                o->method, 1, dres, 0)) != cudaSuccess ||
        (err = cudaMemcpy (&res, dres, sizeof res,
                cudaMemcpyDeviceToHost)) != cudaSuccess) {
      status = cuda_fail (err, "thinning");
      goto out;
    }
    gpu_s += now () - s;
    rounds += res.rounds;
    if (res.converged) {
      converged = 1;
      break;
    }
    if (!o->quiet && (o->verbose || now () - last >= 0.5)) {
      fprintf (stderr, "%sround %u: %" PRIu64 " of %" PRIu64 " voxels "
          "left, %.1f s%s", tty ? "\r" : "", rounds, (uint64_t) res.voxels,
          objects, now () - t0, tty ? "" : "\n");
      last = now ();
    }
    if (o->max_rounds && rounds >= o->max_rounds)
      break;
  }
  if (!o->quiet && tty && last > t0)
    fputc ('\n', stderr);
  err = cudaMemcpy (v, dv, bytes, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    status = cuda_fail (err, "downloading the skeleton");
    goto out;
  }
  if (!o->quiet)
    fprintf (stderr, PROG ": %dx%dx%d %s, %" PRIu64 " -> %" PRIu64
        " voxels, %u rounds%s, %.1f ms on %s\n", o->w, o->h, o->d,
        o->method == CIP_THIN3D_PK12 ? "pk12" : "lee94", objects,
        (uint64_t) res.voxels, rounds, converged ? "" : " (stopped at "
        "--max-rounds)", gpu_s * 1000.0, prop.name);
  status = 0;
out:
  cip_thin3d_destroy (th);
  cudaFree (dv);
  cudaFree (dres);
  return status;
}

int
main (int argc, char **argv)
{
  Options o;
  FILE *out;
  uint8_t *v;
  size_t bytes = 0, i;
  uint64_t objects = 0;
  int status;

  if ((status = parse_args (argc, argv, &o)))
    return status < 0 ? 0 : status;
  if (!(v = read_volume (&o, &bytes, &status)))
    return status;
  if (!(out = fopen (o.out, "wb"))) {
    status = fail (1, "cannot create '%s': %s", o.out, strerror (errno));
    free (v);
    return status;
  }
  for (i = 0; i < bytes; i++)
    objects += v[i] != 0;
  status = thin (&o, v, bytes, objects);
  if (!status)
    status = write_volume (&o, out, v, bytes);
  else
    fclose (out);
  /* no half-written or empty output left behind an error */
  if (status)
    unlink (o.out);
  free (v);
  return status;
}

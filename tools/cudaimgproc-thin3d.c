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
 *
 * No user file is lost: the skeleton goes to a new file beside OUTPUT,
 * renamed over it only once complete (through a symbolic link, over the
 * link's target); OUTPUT may not be INPUT or anything but a regular file,
 * and on any error, or a signal, only that new file is removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "thin3d.h"
#include "thin3d_io.h"

#define PROG "cudaimgproc-thin3d"

typedef struct
{
  const char *in, *out;
  int to_stdout;                /* OUTPUT is - */
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
      "with --ones or for a bool .npy); - writes it to standard output.\n"
      "OUTPUT is replaced only once the skeleton is complete, and may not\n"
      "be INPUT.\n"
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
  return cip_parse_size (s, &o->w, &o->h, &o->d);
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
        return fail (2, "--size '%s': expected WIDTHxHEIGHTxDEPTH, each a "
            "whole number from 1 to %d (e.g. 256x256x128)", val, CIP_DIM_MAX);
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
  o->to_stdout = !strcmp (o->out, "-");
  if (!o->npy && !have_size)
    return fail (2, "'%s' is raw (not .npy): give its --size WxHxD", o->in);
  if (o->npy && have_size)
    return fail (2, "--size is for raw volumes; '%s' has its own shape", o->in);
  if (!o->to_stdout && o->npy != ends_with (o->out, ".npy"))
    return fail (2, "the output is written in the input's format: both "
        ".npy or neither");
  if (o->to_stdout && isatty (1))
    return fail (2, "not writing a volume to a terminal: redirect standard "
        "output, or name an OUTPUT file");
  return 0;
}

/* ---- .npy ---------------------------------------------------------------- */

/* Reads the header of the .npy @f: dtype, order, shape.  Leaves @f at the
 * data.  0 on success, else the exit status. */
static int
npy_read_header (FILE * f, Options * o)
{
  unsigned char pre[12];
  char *hdr, why[256];
  size_t len;
  CipNpyHeader h;
  int ver, i, ok;

  if (fread (pre, 1, 8, f) != 8 || memcmp (pre, "\x93NUMPY", 6))
    return fail (1, "'%s' is not a NumPy .npy file", o->in);
  ver = pre[6];
  if (ver == 1) {
    if (fread (pre + 8, 1, 2, f) != 2)
      return fail (1, "'%s': truncated .npy header", o->in);
    len = pre[8] | (size_t) pre[9] << 8;
  } else if (ver == 2 || ver == 3) {
    if (fread (pre + 8, 1, 4, f) != 4)
      return fail (1, "'%s': truncated .npy header", o->in);
    len = pre[8] | (size_t) pre[9] << 8 | (size_t) pre[10] << 16 |
        (size_t) pre[11] << 24;
  } else {
    return fail (1, "'%s': .npy format version %d is not known", o->in, ver);
  }
  if (len > 1 << 20)
    return fail (1, "'%s': .npy header of %zu bytes (at most 1 MiB)", o->in,
        len);
  if (!(hdr = malloc (len + 1)))
    return fail (1, "out of host memory for the .npy header");
  if (fread (hdr, 1, len, f) != len) {
    free (hdr);
    return fail (1, "'%s': truncated .npy header", o->in);
  }
  ok = cip_npy_parse_header (hdr, len, &h, why, sizeof why);
  free (hdr);
  if (!ok)
    return fail (1, "'%s': %s", o->in, why);
  if (h.fortran_order)
    return fail (1, "'%s' is in Fortran order: save "
        "numpy.ascontiguousarray(volume)", o->in);
  if (h.ndim < 2 || h.ndim > 3)
    return fail (1, "'%s': expected a 3D (depth, height, width) or 2D "
        "(height, width) array, not %dD", o->in, h.ndim);
  for (i = 0; i < h.ndim; i++) {
    if (h.shape[i] == 0)
      return fail (1, "'%s': the volume is empty (shape has a 0)", o->in);
    if (h.shape[i] > CIP_DIM_MAX)
      return fail (1, "'%s': a dimension of %llu is more than this tool "
          "takes (%d)", o->in, h.shape[i], CIP_DIM_MAX);
  }
  o->npy_bool = h.is_bool;
  o->npy_dims = h.ndim;
  o->d = h.ndim == 3 ? (int) h.shape[0] : 1;
  o->h = (int) h.shape[h.ndim - 2];
  o->w = (int) h.shape[h.ndim - 1];
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
  struct stat st;
  uint8_t *v;
  long here;
  off_t data;

  *status = 1;
  if (!f) {
    fail (1, "cannot open '%s': %s", o->in, strerror (errno));
    return NULL;
  }
  if (fstat (fileno (f), &st) || !S_ISREG (st.st_mode)) {
    fail (1, "'%s' is %s, not a volume file", o->in, S_ISDIR (st.st_mode) ?
        "a directory" : "not a regular file");
    fclose (f);
    return NULL;
  }
  if (o->npy && (*status = npy_read_header (f, o))) {
    fclose (f);
    return NULL;
  }
  *status = 1;
  *bytes = cip_volume_bytes ((size_t) o->w, (size_t) o->h, (size_t) o->d);
  if (!*bytes) {
    fail (1, "a %dx%dx%d volume does not fit in this machine's memory",
        o->w, o->h, o->d);
    fclose (f);
    return NULL;
  }
  here = ftell (f);
  data = here < 0 ? -1 : st.st_size - here;
  if (data < 0 || (uint64_t) data != (uint64_t) * bytes) {
    if (o->npy)
      fail (1, "'%s' holds %jd bytes of data; its shape needs %zu", o->in,
          (intmax_t) data, *bytes);
    else
      fail (1, "'%s' has %jd bytes; --size %dx%dx%d needs %zu", o->in,
          (intmax_t) data, o->w, o->h, o->d, *bytes);
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

/* ---- the output ---------------------------------------------------------
 * A new file in OUTPUT's directory (through a symbolic link, its
 * target's), renamed over OUTPUT once written; the only file this tool
 * ever removes. */

typedef struct
{
  char final[PATH_MAX];         /* where the skeleton goes */
  char tmp[PATH_MAX];           /* the new file, while it is written */
  FILE *f;
} Output;

static volatile sig_atomic_t have_tmp;
static char tmp_path[PATH_MAX];

static void
on_signal (int sig)
{
  if (have_tmp)
    unlink (tmp_path);
  signal (sig, SIG_DFL);
  raise (sig);
}

/* 0 on success, else the exit status (the message printed). */
static int
output_open (const Options * o, Output * out)
{
  struct stat in_st, st;
  char dir[PATH_MAX], base[PATH_MAX];
  mode_t mask;
  int fd, exists;

  memset (out, 0, sizeof (*out));
  if (o->to_stdout) {
    out->f = stdout;
    return 0;
  }
  exists = stat (o->out, &st) == 0;
  if (exists && stat (o->in, &in_st) == 0 && st.st_dev == in_st.st_dev &&
      st.st_ino == in_st.st_ino)
    return fail (1, "'%s' is the input file: write the skeleton to "
        "another file", o->out);
  if (exists && !S_ISREG (st.st_mode))
    return fail (1, "'%s' exists and is not a regular file: not replacing "
        "it", o->out);
  /* a link's target is what the user means to replace */
  if (exists && !realpath (o->out, out->final))
    return fail (1, "cannot resolve '%s': %s", o->out, strerror (errno));
  if (!exists) {
    if (errno != ENOENT)
      return fail (1, "cannot create '%s': %s", o->out, strerror (errno));
    if (strlen (o->out) >= sizeof out->final)
      return fail (1, "cannot create '%s': %s", o->out, strerror
          (ENAMETOOLONG));
    strcpy (out->final, o->out);
  }
  strcpy (dir, out->final);
  strcpy (base, out->final);
  if ((size_t) snprintf (out->tmp, sizeof out->tmp, "%s/.%s.XXXXXX",
          dirname (dir), basename (base)) >= sizeof out->tmp)
    return fail (1, "cannot create '%s': %s", o->out, strerror (ENAMETOOLONG));
  fd = mkstemp (out->tmp);
  if (fd < 0)
    return fail (1, "cannot create '%s': %s", o->out, strerror (errno));
  memcpy (tmp_path, out->tmp, sizeof tmp_path);
  have_tmp = 1;
  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  signal (SIGHUP, on_signal);
  /* the mode a new file gets (or the replaced one had), not mkstemp's */
  mask = umask (0);
  umask (mask);
  if (fchmod (fd, exists ? st.st_mode & 07777 : 0666 & ~mask) ||
      !(out->f = fdopen (fd, "wb"))) {
    int e = errno;
    close (fd);
    unlink (out->tmp);
    have_tmp = 0;
    return fail (1, "cannot create '%s': %s", o->out, strerror (e));
  }
  return 0;
}

/* Removes what output_open made (after an error). */
static void
output_discard (Output * out)
{
  if (out->f && out->f != stdout)
    fclose (out->f);
  if (have_tmp)
    unlink (out->tmp);
  have_tmp = 0;
  out->f = NULL;
}

/* Writes the skeleton and puts it in place.  0 on success, else the exit
 * status (the new file removed). */
static int
write_volume (const Options * o, Output * out, uint8_t * v, size_t bytes)
{
  const uint8_t on = o->ones || o->npy_bool ? 1 : 255;
  size_t i;
  int ok, e;

  for (i = 0; i < bytes; i++)
    v[i] = v[i] ? on : 0;
  ok = (!o->npy || npy_write_header (out->f, o)) &&
      fwrite (v, 1, bytes, out->f) == bytes && fflush (out->f) == 0;
  if (ok && out->f != stdout)
    ok = fsync (fileno (out->f)) == 0;
  e = errno;
  if (out->f == stdout)
    return ok ? 0 : fail (1, "cannot write the skeleton to standard output: "
        "%s", strerror (e));
  ok = (fclose (out->f) == 0) && ok;
  e = ok ? errno : e;
  out->f = NULL;
  if (ok && rename (out->tmp, out->final) == 0) {
    have_tmp = 0;
    return 0;
  }
  if (ok)
    e = errno;
  output_discard (out);
  return fail (1, "cannot write '%s': %s", o->out, strerror (e));
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
  if (__builtin_add_overflow (need, bytes, &need) || need > free_b)
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
  Output out;
  uint8_t *v;
  size_t bytes = 0, i;
  uint64_t objects = 0;
  int status;

  if ((status = parse_args (argc, argv, &o)))
    return status < 0 ? 0 : status;
  if (!(v = read_volume (&o, &bytes, &status)))
    return status;
  /* before the GPU's work: a path that cannot be written fails at once */
  if ((status = output_open (&o, &out))) {
    free (v);
    return status;
  }
  for (i = 0; i < bytes; i++)
    objects += v[i] != 0;
  status = thin (&o, v, bytes, objects);
  if (!status)
    status = write_volume (&o, &out, v, bytes);
  else
    output_discard (&out);
  free (v);
  return status;
}

/* cudaimgproc-thin3d: the parsers of the tool's inputs (thin3d_io.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "thin3d_io.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One decimal number of at most 10 digits, 1..CIP_DIM_MAX, from *p;
 * advances *p.  1 on success. */
static int
parse_dim (const char **p, int *out)
{
  unsigned long long v = 0;
  int n = 0;

  while (**p >= '0' && **p <= '9') {
    if (++n > 10)
      return 0;
    v = v * 10 + (unsigned) (**p - '0');
    (*p)++;
  }
  if (!n || v < 1 || v > CIP_DIM_MAX)
    return 0;
  *out = (int) v;
  return 1;
}

int
cip_parse_size (const char *s, int *w, int *h, int *d)
{
  const char *p = s;

  return parse_dim (&p, w) && *p++ == 'x' && parse_dim (&p, h) &&
      *p++ == 'x' && parse_dim (&p, d) && *p == '\0';
}

size_t
cip_volume_bytes (size_t a, size_t b, size_t c)
{
  size_t ab, abc;

  if (__builtin_mul_overflow (a, b, &ab) || __builtin_mul_overflow (ab, c,
          &abc))
    return 0;
  return abc;
}

/* ---- .npy header ---------------------------------------------------------
 * A small reader of the one Python literal the format allows:
 *   { 'key': value, ... }  with an optional trailing comma,
 * values a string ('...' or "..."), True/False or a tuple of integers. */

typedef struct
{
  const char *p, *end;
  char *why;
  size_t why_len;
} Reader;

static int
bad (Reader * r, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (r->why, r->why_len, fmt, ap);
  va_end (ap);
  return 0;
}

static void
skip_space (Reader * r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
    r->p++;
}

static int
eat (Reader * r, char c)
{
  skip_space (r);
  if (r->p < r->end && *r->p == c) {
    r->p++;
    return 1;
  }
  return 0;
}

/* a quoted string without escapes, into @buf */
static int
read_string (Reader * r, char *buf, size_t len)
{
  char q;
  size_t n = 0;

  skip_space (r);
  if (r->p >= r->end || (*r->p != '\'' && *r->p != '"'))
    return 0;
  q = *r->p++;
  while (r->p < r->end && *r->p != q) {
    if (*r->p == '\\' || *r->p == '\n' || n + 1 >= len)
      return 0;
    buf[n++] = *r->p++;
  }
  if (r->p >= r->end)
    return 0;
  r->p++;
  buf[n] = '\0';
  return 1;
}

static int
read_word (Reader * r, const char *w)
{
  size_t n = strlen (w);

  skip_space (r);
  if ((size_t) (r->end - r->p) >= n && !memcmp (r->p, w, n)) {
    r->p += n;
    return 1;
  }
  return 0;
}

/* (), (n,), (a, b), (a, b, c, ...): plain decimal integers, no sign */
static int
read_shape (Reader * r, CipNpyHeader * h)
{
  h->ndim = 0;
  if (!eat (r, '('))
    return bad (r, "'shape' must be a tuple of whole numbers");
  for (;;) {
    unsigned long long v = 0;
    int digits = 0;

    skip_space (r);
    if (eat (r, ')'))
      break;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
      digits++;
      if (__builtin_mul_overflow (v, 10, &v) ||
          __builtin_add_overflow (v, (unsigned) (*r->p++ - '0'), &v))
        return bad (r, "a 'shape' dimension is too large");
    }
    if (!digits)
      return bad (r, "'shape' must be a tuple of whole numbers");
    if (h->ndim == CIP_NPY_MAX_DIMS)
      return bad (r, "'shape' has more than %d dimensions", CIP_NPY_MAX_DIMS);
    h->shape[h->ndim++] = v;
    if (eat (r, ','))
      continue;
    if (eat (r, ')'))
      break;
    return bad (r, "'shape' must be a tuple of whole numbers");
  }
  /* a one-element tuple is written (n,); (n) is a plain number */
  return 1;
}

int
cip_npy_parse_header (const char *hdr, size_t len, CipNpyHeader * out,
    char *why, size_t why_len)
{
  Reader r = { hdr, hdr + len, why, why_len };
  int have_descr = 0, have_order = 0, have_shape = 0;
  char key[32], descr[32];

  memset (out, 0, sizeof (*out));
  if (why_len)
    why[0] = '\0';
  if (!eat (&r, '{'))
    return bad (&r, "the .npy header is not a dictionary");
  for (;;) {
    if (eat (&r, '}'))
      break;
    if (!read_string (&r, key, sizeof key))
      return bad (&r, "the .npy header is not a dictionary of named values");
    if (!eat (&r, ':'))
      return bad (&r, "the .npy header's '%s' has no value", key);
    if (!strcmp (key, "descr")) {
      if (have_descr++)
        return bad (&r, "the .npy header names 'descr' twice");
      if (!read_string (&r, descr, sizeof descr))
        return bad (&r, "the .npy header's 'descr' is not a type name");
      if (!strcmp (descr, "|u1") || !strcmp (descr, "<u1") ||
          !strcmp (descr, ">u1") || !strcmp (descr, "u1") ||
          !strcmp (descr, "=u1"))
        out->is_bool = 0;
      else if (!strcmp (descr, "|b1") || !strcmp (descr, "b1") ||
          !strcmp (descr, "?"))
        out->is_bool = 1;
      else
        return bad (&r, "the volume must be uint8 or bool, not '%s' "
            "(convert with volume.astype(numpy.uint8))", descr);
    } else if (!strcmp (key, "fortran_order")) {
      if (have_order++)
        return bad (&r, "the .npy header names 'fortran_order' twice");
      if (read_word (&r, "False"))
        out->fortran_order = 0;
      else if (read_word (&r, "True"))
        out->fortran_order = 1;
      else
        return bad (&r, "the .npy header's 'fortran_order' is not True or "
            "False");
    } else if (!strcmp (key, "shape")) {
      if (have_shape++)
        return bad (&r, "the .npy header names 'shape' twice");
      if (!read_shape (&r, out))
        return 0;
    } else {
      return bad (&r, "the .npy header has a key '%s' the format does not "
          "define", key);
    }
    if (eat (&r, ','))
      continue;
    if (eat (&r, '}'))
      break;
    return bad (&r, "the .npy header is not a dictionary (expected ',' or "
        "'}')");
  }
  /* padding: spaces, then the newline that ends the header */
  while (r.p < r.end && (*r.p == ' ' || *r.p == '\t'))
    r.p++;
  if (r.p < r.end && *r.p == '\n')
    r.p++;
  if (r.p != r.end)
    return bad (&r, "the .npy header has text after its dictionary");
  if (!have_descr)
    return bad (&r, "the .npy header lacks 'descr'");
  if (!have_order)
    return bad (&r, "the .npy header lacks 'fortran_order'");
  if (!have_shape)
    return bad (&r, "the .npy header lacks 'shape'");
  return 1;
}

/* cudaimgproc: the allocation hook: counts, logs and (for tests) fails.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every device and page-locked allocation of the plugin, and every free of
 * one, passes the hook of kernels/cip_alloc.h.  Here each allocation is
 * numbered from 1 and logged with what it is for, its size and what is
 * left allocated after it (debug category cudaimgalloc, LOG level), and so
 * is each free: a test reads from the log that a pipeline torn down freed
 * all it allocated.  With CUDAIMGPROC_FAIL_ALLOC=N in the environment the
 * N-th allocation fails as if the GPU were out of memory (logged as a
 * warning), and with N:WHAT the N-th of those for WHAT (as the log names
 * it), so a test can walk every allocation site and see what the element
 * makes of the failure, whatever order threads allocate in.  The counts
 * start again whenever the variable's value changes (unset included), so a
 * test can set it between pipelines; it is read at each allocation, which
 * is never per frame.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgalloc.h"
#include "cip_alloc.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_alloc_debug);
#define GST_CAT_DEFAULT gst_cuda_img_alloc_debug

#define FAIL_ENV "CUDAIMGPROC_FAIL_ALLOC"

typedef struct
{
  const gchar *what;            /* a literal, in our code */
  gsize bytes;
} Live;

static GMutex lock;
static gchar *env_seen;         /* FAIL_ENV's value at the last allocation */
static guint64 count;           /* allocations since it changed */
static guint64 fail_at;         /* 0: none */
static gchar *fail_what;        /* only allocations for this count; NULL:
                                 * all */
static guint64 matched;         /* allocations counted towards fail_at */
static GHashTable *live;        /* pointer -> Live */
static gsize live_bytes;

static cudaError_t
ask (const char *what, size_t bytes)
{
  const gchar *env = g_getenv (FAIL_ENV);
  guint64 n;

  if (g_strcmp0 (env, env_seen) != 0) {
    gchar *end = NULL;

    g_free (env_seen);
    env_seen = g_strdup (env);
    count = matched = 0;
    fail_at = env ? g_ascii_strtoull (env, &end, 10) : 0;
    g_clear_pointer (&fail_what, g_free);
    if (end && *end == ':')
      fail_what = g_strdup (end + 1);
  }
  n = ++count;
  if (fail_what && g_strcmp0 (what, fail_what) != 0)
    return cudaSuccess;
  if (++matched != fail_at)
    return cudaSuccess;
  GST_WARNING ("allocation %" G_GUINT64_FORMAT " (%s, %" G_GSIZE_FORMAT
      " bytes) fails: " FAIL_ENV "=%s", n, what, bytes, env);
  return cudaErrorMemoryAllocation;
}

static cudaError_t
alloc_hook (CipAllocEvent event, const void *ptr, const char *what,
    size_t bytes)
{
  cudaError_t err = cudaSuccess;
  Live *l;

  g_mutex_lock (&lock);
  switch (event) {
    case CIP_ALLOC_ASK:
      err = ask (what, bytes);
      break;
    case CIP_ALLOC_MADE:
      l = g_new (Live, 1);
      l->what = what;
      l->bytes = bytes;
      g_hash_table_insert (live, (gpointer) ptr, l);
      live_bytes += bytes;
      GST_LOG ("allocation %" G_GUINT64_FORMAT ": %s, %" G_GSIZE_FORMAT
          " bytes; live %u, %" G_GSIZE_FORMAT " bytes", count, what, bytes,
          g_hash_table_size (live), live_bytes);
      break;
    case CIP_ALLOC_FREED:
      l = g_hash_table_lookup (live, ptr);
      if (!l) {
        GST_ERROR ("freed %p, which was never allocated", ptr);
        break;
      }
      live_bytes -= l->bytes;
      GST_LOG ("freed: %s, %" G_GSIZE_FORMAT " bytes; live %u, %"
          G_GSIZE_FORMAT " bytes", l->what, l->bytes,
          g_hash_table_size (live) - 1, live_bytes);
      g_hash_table_remove (live, ptr);
      break;
  }
  g_mutex_unlock (&lock);
  return err;
}

/* Once per process, before any element allocates (plugin_init). */
void
gst_cuda_img_alloc_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_alloc_debug, "cudaimgalloc", 0,
        "cudaimgproc device and page-locked allocations");
    live = g_hash_table_new_full (NULL, NULL, NULL, g_free);
    cip_alloc_set_hook (alloc_hook);
    g_once_init_leave (&done, 1);
  }
}

/* cudaimgproc: ThreadSanitizer annotations for GLib's locks.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GLib's GMutex, GRecMutex and GCond are built on futexes on Linux, which
 * ThreadSanitizer cannot see: every access under GST_OBJECT_LOCK would be
 * reported as a race.  Linked into a test program built with
 * -fsanitize=thread (and exported, -rdynamic), these wrappers stand in for
 * the GLib calls GStreamer and the plugin make, call the real ones and
 * tell ThreadSanitizer what they did.  GLib's own internal calls bypass
 * them (it binds its symbols to itself), but GLib is not instrumented.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>

void __tsan_acquire (void *addr);
void __tsan_release (void *addr);

static void (*real_g_mutex_lock) (GMutex *);
static gboolean (*real_g_mutex_trylock) (GMutex *);
static void (*real_g_mutex_unlock) (GMutex *);
static void (*real_g_rec_mutex_lock) (GRecMutex *);
static gboolean (*real_g_rec_mutex_trylock) (GRecMutex *);
static void (*real_g_rec_mutex_unlock) (GRecMutex *);
static void (*real_g_cond_wait) (GCond *, GMutex *);
static gboolean (*real_g_cond_wait_until) (GCond *, GMutex *, gint64);

/* before main () and before any thread: no race on the pointers */
static void tsan_glib_init (void) __attribute__((constructor));

static void
tsan_glib_init (void)
{
  real_g_mutex_lock = dlsym (RTLD_NEXT, "g_mutex_lock");
  real_g_mutex_trylock = dlsym (RTLD_NEXT, "g_mutex_trylock");
  real_g_mutex_unlock = dlsym (RTLD_NEXT, "g_mutex_unlock");
  real_g_rec_mutex_lock = dlsym (RTLD_NEXT, "g_rec_mutex_lock");
  real_g_rec_mutex_trylock = dlsym (RTLD_NEXT, "g_rec_mutex_trylock");
  real_g_rec_mutex_unlock = dlsym (RTLD_NEXT, "g_rec_mutex_unlock");
  real_g_cond_wait = dlsym (RTLD_NEXT, "g_cond_wait");
  real_g_cond_wait_until = dlsym (RTLD_NEXT, "g_cond_wait_until");
}

void
g_mutex_lock (GMutex * m)
{
  real_g_mutex_lock (m);
  __tsan_acquire (m);
}

gboolean
g_mutex_trylock (GMutex * m)
{
  if (!real_g_mutex_trylock (m))
    return FALSE;
  __tsan_acquire (m);
  return TRUE;
}

void
g_mutex_unlock (GMutex * m)
{
  __tsan_release (m);
  real_g_mutex_unlock (m);
}

void
g_rec_mutex_lock (GRecMutex * m)
{
  real_g_rec_mutex_lock (m);
  __tsan_acquire (m);
}

gboolean
g_rec_mutex_trylock (GRecMutex * m)
{
  if (!real_g_rec_mutex_trylock (m))
    return FALSE;
  __tsan_acquire (m);
  return TRUE;
}

void
g_rec_mutex_unlock (GRecMutex * m)
{
  __tsan_release (m);
  real_g_rec_mutex_unlock (m);
}

void
g_cond_wait (GCond * c, GMutex * m)
{
  __tsan_release (m);
  real_g_cond_wait (c, m);
  __tsan_acquire (m);
}

gboolean
g_cond_wait_until (GCond * c, GMutex * m, gint64 end_time)
{
  gboolean r;
  __tsan_release (m);
  r = real_g_cond_wait_until (c, m, end_time);
  __tsan_acquire (m);
  return r;
}

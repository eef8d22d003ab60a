/* cudaimgproc: a sampling profiler of host time for the GPU host, which
 * has no perf.  Preloaded (LD_PRELOAD=libcudaimgproc-hostprof.so), it
 * samples the thread that SIGPROF interrupts (process CPU time, at the
 * kernel's tick) for the interrupted address and a few return addresses,
 * and at exit writes them, each thread's name and /proc/self/maps to
 * HOSTPROF_OUT.PID; bench/hostprof.py names the functions back on the
 * build machine.  docs/gpu-host.md has the command line.
 *   HOSTPROF_OUT      where to write (unset: the library does nothing)
 *   HOSTPROF_EXE      only a process whose executable's path holds this
 *   HOSTPROF_DELAY    seconds before sampling starts (default 0)
 *   HOSTPROF_SECONDS  seconds of sampling (default 5)
 *   HOSTPROF_ALL      MS: instead, every MS milliseconds, every thread's
 *                     stack, running or waiting (each signalled in turn):
 *                     where threads wait, for bench/hostprof.py --stacks
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_SAMPLES 400000
#define DEPTH 12
#define MAX_THREADS 1024        /* whose names are written */

typedef struct
{
  int tid, n;
  void *pc[DEPTH];
} Sample;

static Sample *samples;
static volatile int n_samples, sampling;

static void
on_sigprof (int sig, siginfo_t * si, void *ucv)
{
  ucontext_t *uc = ucv;
  void *bt[DEPTH + 2];
  int i, n, k = 1;

  if (!sampling)
    return;
  i = __sync_fetch_and_add (&n_samples, 1);
  if (i >= MAX_SAMPLES)
    return;
  samples[i].tid = (int) syscall (SYS_gettid);
#if defined(__x86_64__)
  samples[i].pc[0] = (void *) uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  samples[i].pc[0] = (void *) uc->uc_mcontext.pc;
#endif
  /* frames 0 and 1: this handler and the signal trampoline */
  n = backtrace (bt, DEPTH + 1);
  for (int j = 2; j < n && k < DEPTH; j++)
    samples[i].pc[k++] = bt[j];
  samples[i].n = k;
}

static void *
timer_thread (void *arg)
{
  const char *d = getenv ("HOSTPROF_DELAY"), *l = getenv ("HOSTPROF_SECONDS");
  const char *all = getenv ("HOSTPROF_ALL");
  struct timespec delay = { d ? atoi (d) : 0, 0 }, len =
      { l ? atoi (l) : 5, 0 };

  nanosleep (&delay, NULL);
  sampling = 1;
  if (all) {
    const long ms = atoi (all) > 0 ? atoi (all) : 100;
    const struct timespec step = { ms / 1000, ms % 1000 * 1000000 };
    const int self = (int) syscall (SYS_gettid), pid = (int) getpid ();
    long k;

    for (k = 0; k * ms < len.tv_sec * 1000; k++) {
      DIR *tasks = opendir ("/proc/self/task");
      struct dirent *e;

      while (tasks && (e = readdir (tasks))) {
        const int tid = atoi (e->d_name);
        if (tid > 0 && tid != self)
          syscall (SYS_tgkill, pid, tid, SIGPROF);
      }
      if (tasks)
        closedir (tasks);
      nanosleep (&step, NULL);
    }
  } else {
    nanosleep (&len, NULL);
  }
  sampling = 0;
  return NULL;
}

static void
write_samples (void)
{
  char path[4096], line[4096];
  int n = n_samples < MAX_SAMPLES ? n_samples : MAX_SAMPLES, i, j;
  int tids[MAX_THREADS], n_tids = 0;
  FILE *f, *m;

  sampling = 0;
  snprintf (path, sizeof path, "%s.%d", getenv ("HOSTPROF_OUT"),
      (int) getpid ());
  if (!(f = fopen (path, "w")))
    return;
  for (i = 0; i < n; i++) {
    fprintf (f, "S %d", samples[i].tid);
    for (j = 0; j < samples[i].n; j++)
      fprintf (f, " %p", samples[i].pc[j]);
    fputc ('\n', f);
  }
  /* the names of the threads still there, each once (a process has few
   * threads and many samples) */
  for (i = 0; i < n; i++) {
    for (j = 0; j < n_tids && tids[j] != samples[i].tid; j++);
    if (j < n_tids || n_tids == MAX_THREADS)
      continue;
    tids[n_tids++] = samples[i].tid;
    snprintf (path, sizeof path, "/proc/self/task/%d/comm", samples[i].tid);
    if ((m = fopen (path, "r"))) {
      if (fgets (line, sizeof line, m))
        fprintf (f, "T %d %s", samples[i].tid, line);
      fclose (m);
    }
  }
  if ((m = fopen ("/proc/self/maps", "r"))) {
    while (fgets (line, sizeof line, m))
      fprintf (f, "M %s", line);
    fclose (m);
  }
  fclose (f);
}

static void hostprof_init (void) __attribute__((constructor));

static void
hostprof_init (void)
{
  const char *exe = getenv ("HOSTPROF_EXE");
  char self[4096] = "";
  struct sigaction sa;
  struct itimerval it = { {0, 100}, {0, 100} };
  pthread_t t;
  void *warm[2];
  ssize_t len;

  if (!getenv ("HOSTPROF_OUT"))
    return;
  len = readlink ("/proc/self/exe", self, sizeof self - 1);
  self[len > 0 ? len : 0] = '\0';
  if (exe && !strstr (self, exe))
    return;
  if (!(samples = calloc (MAX_SAMPLES, sizeof *samples)))
    return;
  backtrace (warm, 2);          /* loads libgcc now, not in the handler */
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction (SIGPROF, &sa, NULL);
  if (!getenv ("HOSTPROF_ALL"))
    setitimer (ITIMER_PROF, &it, NULL);
  if (pthread_create (&t, NULL, timer_thread, NULL) == 0)
    pthread_detach (t);
  atexit (write_samples);
}

/* cudaimgproc: out of memory at every allocation site (issue 24, item 5).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each pipeline below, written as an application writes it (system memory
 * at both ends), runs once as it is, then once with each of its device and
 * page-locked allocations made to fail in turn: for each kind of
 * allocation the run without failures made (what it is for, as the
 * allocation log names it), the first, the second ... until none is left
 * (CUDAIMGPROC_FAIL_ALLOC=N:KIND, common/gstcudaimgalloc.c; by kind, as
 * threads allocate in an order that varies).  A failed allocation must end
 * in one of two ways:
 *  - an element error of ours, RESOURCE / NO_SPACE_LEFT, whose message
 *    names what could not be allocated, the pipeline stopping cleanly
 *    (EOS never comes, NULL is reached within a bound); or
 *  - where the element can do without (page-locked memory), a warning on
 *    the bus and every frame as in the run without failures.
 * Never silence, a hang, a crash or another element's error in our place.
 * After each pipeline is torn down, everything it allocated is freed (the
 * allocation log's live count is back where it was), and the same pipeline
 * run again in the same process gives the same frames, bit for bit.
 *
 * A frame the GPU cannot hold at all is test_out_of_memory in
 * test_gray_gpu.c (the device filled first).
 */
#include "gputest.h"
#include "cpu_ref.h"

#include <string.h>

#define SRC "videotestsrc pattern=ball num-buffers=4 "
#define SIZE "width=161,height=97,framerate=30/1"
#define SINK "video/x-raw ! fakesink name=out signal-handoffs=true sync=false"
#define CUDA "video/x-raw(memory:CUDAMemory)"

static const struct
{
  const gchar *name, *launch;
} pipelines[] = {
  {"chain", SRC "! video/x-raw,format=RGBA," SIZE " ! cudagray ! cudaotsu "
        "! cudasobel ! cudathin ! " SINK},
  {"chain-cuda", SRC "! video/x-raw,format=RGBA," SIZE " ! cudagray ! " CUDA
        " ! cudaotsu ! " CUDA " ! cudasobel ! " CUDA " ! cudathin ! " SINK},
  {"i420", SRC "! video/x-raw,format=I420," SIZE " ! cudagray ! " SINK},
  {"smooth-kmeans", SRC "! video/x-raw,format=BGRx," SIZE " ! cudasmooth "
        "method=median ksize=5 ! cudakmeans k=4 ! " SINK},
  {"overlay", SRC "! video/x-raw,format=RGBA," SIZE " ! tee name=t "
        "t. ! queue ! cudagray ! cudaotsu ! cudathin ! o.mask "
        "t. ! queue ! cudaoverlay name=o ! " SINK},
  {"blobs", SRC "! video/x-raw,format=RGBA," SIZE " ! cudagray ! cudaotsu "
        "! cudablobs post-messages=true output=labels ! " SINK},
  /* 20 slices: the volume grows once (16, then 32 slices) */
  {"thin3d", "videotestsrc pattern=ball num-buffers=20 ! video/x-raw,"
        "format=RGBA,width=64,height=48 ! cudagray ! cudaotsu ! cudathin3d "
        "! " SINK},
};

/* ---- the allocation log (debug category cudaimgalloc) ---- */

static struct
{
  GMutex lock;
  gint live;                    /* allocations not freed */
  gchar *failed;                /* what the failed allocation was for */
  GHashTable *made;             /* what allocations were for: how many */
  gboolean unknown_free;
} alog;

/* "allocation 3: what, 123 bytes; live 2, 456 bytes" and the like */
static void
log_func (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *m, *p;

  if (strcmp (gst_debug_category_get_name (cat), "cudaimgalloc") != 0) {
    gst_debug_log_default (cat, level, file, function, line, object, message,
        NULL);
    return;
  }
  m = gst_debug_message_get (message);
  g_mutex_lock (&alog.lock);
  if ((p = strstr (m, "; live ")))
    alog.live = atoi (p + 7);
  if (level == GST_LEVEL_WARNING && (p = strchr (m, '('))) {
    g_free (alog.failed);
    alog.failed = g_strndup (p + 1, strcspn (p + 1, ","));
  } else if (level == GST_LEVEL_LOG && g_str_has_prefix (m, "allocation ") &&
      (p = strstr (m, ": "))) {
    gchar *kind = g_strndup (p + 2, strcspn (p + 2, ","));

    g_hash_table_insert (alog.made, kind, GUINT_TO_POINTER
        (GPOINTER_TO_UINT (g_hash_table_lookup (alog.made, kind)) + 1));
  } else if (level == GST_LEVEL_ERROR) {
    alog.unknown_free = TRUE;
  }
  g_mutex_unlock (&alog.lock);
}

/* What went wrong, all of it: the walk goes on past a failed check, so
 * that one run shows every site that misbehaves. */
static GString *problems;

#define check(cond, ...) G_STMT_START {                                 \
    if (!(cond)) {                                                      \
      gchar *_m = g_strdup_printf (__VA_ARGS__);                        \
      g_print ("PROBLEM: %s\n", _m);                                    \
      g_string_append_printf (problems, "\n  %s", _m);                  \
      g_free (_m);                                                      \
    }                                                                   \
  } G_STMT_END

/* ---- one run ---- */

typedef struct
{
  gint frames;
  guint32 hash;                 /* of every frame's visible bytes */
  gboolean eos;
  GError *error;
  gchar *error_src, *error_debug;
  gboolean error_ours;          /* from an element of this plugin */
  GString *warnings;
  gchar *failed;                /* the allocation made to fail, if any */
} Run;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Run * r)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo info;
  GBytes *bytes;

  fail_unless (caps != NULL);
  bytes = visible_bytes (buf, caps, &info);
  gst_caps_unref (caps);
  /* the frames' hashes in order */
  r->hash = r->hash * 16777619u ^ ref_fnv1a (g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes));
  g_bytes_unref (bytes);
  r->frames++;
}

/* Runs @launch to EOS or an error, then to NULL; fails the test on a hang,
 * or if what it allocated is not all freed after it. */
static Run
run (const gchar * launch)
{
  Run r = { 0, 2166136261u, FALSE, NULL, NULL, NULL, FALSE,
    g_string_new (NULL), NULL
  };
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err), *sink;
  GstContext *ctx = gst_context_new_cuda_context (gpu_test_context ());
  GstBus *bus;
  GstMessage *msg;
  gint live_before;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "?");
  /* a leak of an earlier run stays counted, but is reported once */
  g_mutex_lock (&alog.lock);
  live_before = alog.live;
  g_clear_pointer (&alog.failed, g_free);
  g_mutex_unlock (&alog.lock);

  /* one context for all runs, as an application with its own would */
  gst_element_set_context (p, ctx);
  gst_context_unref (ctx);
  sink = gst_bin_get_by_name (GST_BIN (p), "out");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &r);
  gst_object_unref (sink);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *w = NULL;

      gst_message_parse_warning (msg, &w, NULL);
      g_string_append_printf (r.warnings, "[%s: %s]",
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), w->message);
      g_error_free (w);
      gst_message_unref (msg);
      continue;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      r.eos = TRUE;
    } else {
      gst_message_parse_error (msg, &r.error, &r.error_debug);
      r.error_src = g_strdup (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
      r.error_ours = GST_IS_ELEMENT (GST_MESSAGE_SRC (msg)) &&
          g_str_has_prefix (GST_OBJECT_NAME (gst_element_get_factory
              (GST_ELEMENT (GST_MESSAGE_SRC (msg)))), "cuda");
    }
    gst_message_unref (msg);
    break;
  }
  check (r.eos || r.error, "%s: neither EOS nor an error in 30 s (%d "
      "frames)", launch, r.frames);
  check (gst_element_set_state (p, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS, "%s: NULL not reached", launch);
  gst_object_unref (bus);
  gst_object_unref (p);

  g_mutex_lock (&alog.lock);
  check (alog.live == live_before, "%s: %d allocations not freed after "
      "the pipeline was torn down", launch, alog.live - live_before);
  check (!alog.unknown_free, "a pointer never allocated was freed");
  alog.unknown_free = FALSE;
  r.failed = g_steal_pointer (&alog.failed);
  g_mutex_unlock (&alog.lock);
  return r;
}

static void
run_clear (Run * r)
{
  g_clear_error (&r->error);
  g_free (r->error_src);
  g_free (r->error_debug);
  g_string_free (r->warnings, TRUE);
  g_free (r->failed);
}

/* The outcome of run @r, whose allocation @i of @kind was made to fail */
static void
judge (const gchar * name, const gchar * kind, gint i, const Run * r,
    const Run * clean, gint * errors, gint * warned)
{
  check (g_strcmp0 (r->failed, kind) == 0, "%s: asked to fail allocation %d "
      "of %s, the hook failed one of %s", name, i, kind, r->failed);
  if (r->error) {
    g_print ("%s: allocation %d of %s failed: %s: \"%s\"\n", name, i, kind,
        r->error_src, r->error->message);
    check (r->error_ours, "%s: allocation %d of %s failed, and the error "
        "came from %s: %s (%s)", name, i, kind, r->error_src,
        r->error->message, r->error_debug);
    check (r->error->domain == GST_RESOURCE_ERROR &&
        r->error->code == GST_RESOURCE_ERROR_NO_SPACE_LEFT &&
        strstr (r->error->message, "memory") != NULL, "%s: allocation %d of "
        "%s failed: %s: %s (%s)", name, i, kind, r->error_src,
        r->error->message, r->error_debug);
    (*errors)++;
  } else {
    g_print ("%s: allocation %d of %s failed; went on: %s\n", name, i, kind,
        r->warnings->str);
    check (r->warnings->len > 0, "%s: allocation %d of %s failed and nobody "
        "said so", name, i, kind);
    check (r->eos && r->frames == clean->frames && r->hash == clean->hash,
        "%s: allocation %d of %s failed and the pipeline went on, with "
        "other frames (%d of %d)", name, i, kind, r->frames, clean->frames);
    (*warned)++;
  }
}

/* Every allocation of the pipeline failed in turn: the first, second ...
 * of each kind (what it is for, as the allocation log names it), so that
 * the order threads allocate in does not matter. */
static void
walk (const gchar * name, const gchar * launch)
{
  GList *kinds, *k;
  GHashTable *made;
  Run clean;
  gint errors = 0, warned = 0;

  g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
  g_mutex_lock (&alog.lock);
  g_hash_table_remove_all (alog.made);
  g_mutex_unlock (&alog.lock);
  clean = run (launch);
  check (clean.eos && clean.frames > 0 && !clean.failed &&
      clean.warnings->len == 0, "%s: a run without failures did not end "
      "cleanly: %s %s", name, clean.error ? clean.error->message : "",
      clean.warnings->str);
  g_mutex_lock (&alog.lock);
  made = alog.made;
  alog.made = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_unlock (&alog.lock);
  kinds = g_list_sort (g_hash_table_get_keys (made), (GCompareFunc) strcmp);
  check (kinds != NULL, "%s allocated nothing", name);

  for (k = kinds; k; k = k->next) {
    const gchar *kind = k->data;
    gint i;

    for (i = 1; i <= 64; i++) {
      gchar *v = g_strdup_printf ("%d:%s", i, kind);
      Run r, again;

      g_setenv ("CUDAIMGPROC_FAIL_ALLOC", v, TRUE);
      g_free (v);
      r = run (launch);
      g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
      if (!r.failed) {
        /* past the last of them: the run is the clean one */
        check (i > 1, "%s: %s was allocated in the run without failures, "
            "but not when asked to fail", name, kind);
        check (r.eos && !r.error && r.warnings->len == 0 &&
            r.hash == clean.hash, "%s: allocation %d of %s was not made, "
            "yet the run differs from the one without failures", name, i, kind);
        run_clear (&r);
        break;
      }
      judge (name, kind, i, &r, &clean, &errors, &warned);
      run_clear (&r);

      /* the same pipeline again, in the same process, without failures */
      again = run (launch);
      check (again.eos && !again.error && again.warnings->len == 0 &&
          again.frames == clean.frames && again.hash == clean.hash,
          "%s: after allocation %d of %s failed, the next run differs: %s "
          "%s", name, i, kind, again.error ? again.error->message : "",
          again.warnings->str);
      run_clear (&again);
    }
  }
  g_print ("%s: %d allocations of %u kinds failed in turn: %d errors, %d "
      "went on without\n", name, errors + warned, g_list_length (kinds),
      errors, warned);
  g_list_free (kinds);
  g_hash_table_unref (made);
  run_clear (&clean);
}

GST_START_TEST (test_every_allocation)
{
  guint i;

  problems = g_string_new (NULL);
  for (i = 0; i < G_N_ELEMENTS (pipelines); i++)
    walk (pipelines[i].name, pipelines[i].launch);
  fail_unless (problems->len == 0, "%s", problems->str);
  g_string_free (problems, TRUE);
}

GST_END_TEST;

static void
setup (void)
{
  g_mutex_init (&alog.lock);
  alog.made = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gst_debug_set_threshold_for_name ("cudaimgalloc", GST_LEVEL_LOG);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (log_func, NULL, NULL);
  gst_debug_set_active (TRUE);
}

static Suite *
oom_gpu_suite (void)
{
  Suite *s = suite_create ("oom-gpu");
  TCase *tc = tcase_create ("general");

  setup ();
  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_every_allocation);
  return s;
}

GPU_CHECK_MAIN (oom_gpu);

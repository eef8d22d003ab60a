/* cudaimgproc: the allocation hook, without a GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What oom-gpu relies on, checked where CI runs: CUDAIMGPROC_FAIL_ALLOC=N
 * fails the N-th allocation asked for and N:WHAT the N-th for WHAT, the
 * counts start again when the variable changes, and the log lines (debug
 * category cudaimgalloc) name each allocation, each free and the live count
 * in the words the test parses.  Allocations are only asked for here
 * (cip_alloc_check, then cip_alloc_made and cip_alloc_freed), so no CUDA
 * call is made.
 */
#include <gst/check/gstcheck.h>

#include "gstcudaimgalloc.h"
#include "cip_alloc.h"

static GPtrArray *lines;

static void
log_func (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (g_str_equal (gst_debug_category_get_name (cat), "cudaimgalloc"))
    g_ptr_array_add (lines, g_strdup_printf ("%s %s",
            level == GST_LEVEL_LOG ? "LOG" : level == GST_LEVEL_WARNING ?
            "WARN" : level == GST_LEVEL_ERROR ? "ERROR" : "OTHER",
            gst_debug_message_get (message)));
}

/* Asks for @n allocations for @what; returns a bit per failed one. */
static guint
ask (const gchar * what, guint n)
{
  guint i, failed = 0;

  for (i = 0; i < n; i++)
    if (cip_alloc_check (what, 100) != cudaSuccess)
      failed |= 1u << i;
  return failed;
}

GST_START_TEST (test_fail_nth)
{
  g_setenv ("CUDAIMGPROC_FAIL_ALLOC", "3", TRUE);
  fail_unless_equals_int (ask ("a", 5), 1u << 2);
  /* the same value: the count goes on, past 3 */
  fail_unless_equals_int (ask ("a", 5), 0);
  /* a new value: counted afresh */
  g_setenv ("CUDAIMGPROC_FAIL_ALLOC", "1", TRUE);
  fail_unless_equals_int (ask ("b", 3), 1u << 0);
  g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
  fail_unless_equals_int (ask ("b", 40), 0);
  /* set again to an earlier value: still afresh */
  g_setenv ("CUDAIMGPROC_FAIL_ALLOC", "3", TRUE);
  fail_unless_equals_int (ask ("c", 4), 1u << 2);
  g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
}

GST_END_TEST;

GST_START_TEST (test_fail_nth_of_kind)
{
  guint i, failed = 0;

  /* the second "page-locked frame", among others; not the second of a
   * kind whose name holds it */
  g_setenv ("CUDAIMGPROC_FAIL_ALLOC", "2:page-locked frame", TRUE);
  for (i = 0; i < 6; i++) {
    fail_unless_equals_int (cip_alloc_check ("page-locked frame plus", 1),
        cudaSuccess);
    if (cip_alloc_check (i % 2 ? "page-locked frame" : "other", 1) !=
        cudaSuccess)
      failed |= 1u << i;
  }
  fail_unless_equals_int (failed, 1u << 3);
  g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
}

GST_END_TEST;

GST_START_TEST (test_log)
{
  int x, y;

  g_ptr_array_set_size (lines, 0);
  g_setenv ("CUDAIMGPROC_FAIL_ALLOC", "2:state", TRUE);
  fail_unless_equals_int (cip_alloc_check ("state", 64), cudaSuccess);
  cip_alloc_made (&x, "state", 64);
  fail_unless_equals_int (cip_alloc_check ("frame", 1000), cudaSuccess);
  cip_alloc_made (&y, "frame", 1000);
  fail_unless_equals_int (cip_alloc_check ("state", 32),
      cudaErrorMemoryAllocation);
  cip_alloc_freed (&x);
  cip_alloc_freed (&y);
  g_unsetenv ("CUDAIMGPROC_FAIL_ALLOC");
  fail_unless_equals_int (lines->len, 5);
  fail_unless_equals_string (g_ptr_array_index (lines, 0),
      "LOG allocation 1: state, 64 bytes; live 1, 64 bytes");
  fail_unless_equals_string (g_ptr_array_index (lines, 1),
      "LOG allocation 2: frame, 1000 bytes; live 2, 1064 bytes");
  fail_unless_equals_string (g_ptr_array_index (lines, 2),
      "WARN allocation 3 (state, 32 bytes) fails: "
      "CUDAIMGPROC_FAIL_ALLOC=2:state");
  fail_unless_equals_string (g_ptr_array_index (lines, 3),
      "LOG freed: state, 64 bytes; live 1, 1000 bytes");
  fail_unless_equals_string (g_ptr_array_index (lines, 4),
      "LOG freed: frame, 1000 bytes; live 0, 0 bytes");
  /* a pointer never allocated */
  cip_alloc_freed (&lines);
  fail_unless_equals_int (lines->len, 6);
  fail_unless (g_str_has_prefix (g_ptr_array_index (lines, 5), "ERROR freed "));
}

GST_END_TEST;

static Suite *
alloc_suite (void)
{
  Suite *s = suite_create ("cudaimgalloc");
  TCase *tc = tcase_create ("general");

  lines = g_ptr_array_new_with_free_func (g_free);
  gst_debug_set_threshold_for_name ("cudaimgalloc", GST_LEVEL_LOG);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (log_func, NULL, NULL);
  gst_debug_set_active (TRUE);
  gst_cuda_img_alloc_init ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_fail_nth);
  tcase_add_test (tc, test_fail_nth_of_kind);
  tcase_add_test (tc, test_log);
  return s;
}

GST_CHECK_MAIN (alloc);

/* cudaimgproc: helpers shared by all test programs.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/check/gstcheck.h>

/* Pops the next error from @bus and checks its domain, code, and that its
 * message (what a person reads) contains @words; returns the source's name. */
static inline gchar *
expect_error (GstBus * bus, GQuark domain, gint code, const gchar * words)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *dbg = NULL, *src;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &dbg);
  GST_INFO ("error: %s (%s)", err->message, dbg);
  fail_unless (err->domain == domain && err->code == code,
      "unexpected error %s", err->message);
  fail_unless (strstr (err->message, words) != NULL, "message '%s' lacks '%s'",
      err->message, words);
  src = g_strdup (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  return src;
}

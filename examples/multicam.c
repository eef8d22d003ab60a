/* cudaimgproc example: many cameras in one process, one pipeline a camera,
 * as a recorder or an inspection station runs them.  Each pipeline is
 *   videotestsrc ! CHAIN ! fakesink
 * (a camera's source in a real application), all of them in one process
 * and one main loop; at the end it prints each stream's frames, the frames
 * a second of all of them, and how many CUDA contexts the pipelines' first
 * elements use: one per GPU, shared by every pipeline, where the
 * application gives none.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-multicam                          16 streams of 640x480
 *   cudaimgproc-multicam --streams 64 --size 1920x1080 --chain thin
 *   cudaimgproc-multicam --streams 8 --device-ids 0,1   (a GPU each in turn)
 *
 * Exit status 0 when every stream reached its end, 1 on an error (a
 * missing GPU included: the elements say so), 2 on bad arguments.
 */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 16

typedef struct _App App;

typedef struct
{
  App *app;
  GstElement *pipeline;
  gint frames;                  /* atomic: frames out */
  gboolean done;
} Stream;

struct _App
{
  GMainLoop *loop;
  Stream *streams;
  gint n, running, status;
};

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  g_atomic_int_inc (&((Stream *) data)->frames);
}

/* A stream's bus. */
static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  Stream *s = data;
  App *app = s->app;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("stream %d: error from %s: %s\n%s\n",
          (gint) (s - app->streams), GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      if (!s->done) {
        s->done = TRUE;
        if (--app->running == 0)
          g_main_loop_quit (app->loop);
      }
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* The CUDA context @e answers a context query with (a GstCudaContext, kept
 * by the pipeline), or NULL. */
static gpointer
context_of (GstElement * e)
{
  GstQuery *q = gst_query_new_context ("gst.cuda.context");
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  gpointer ctx = NULL;

  if (pad && gst_pad_query (pad, q)) {
    GstContext *c = NULL;
    const GValue *v;

    gst_query_parse_context (q, &c);
    if (c && (v = gst_structure_get_value (gst_context_get_structure (c),
                "gst.cuda.context")) && G_VALUE_HOLDS_OBJECT (v))
      ctx = g_value_get_object (v);
  }
  gst_clear_object (&pad);
  gst_query_unref (q);
  return ctx;
}

static int
usage (const gchar * prog)
{
  g_printerr ("usage: %s [--streams N] [--frames N] [--size WxH] "
      "[--chain sobel|thin] [--device-ids 0,1,...]\n", prog);
  return 2;
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  gint n = 16, frames = 300, w = 640, h = 480, i;
  gint devices[MAX_DEVICES] = { -1 }, n_devices = 1;
  const gchar *chain = "cudagray ! cudaotsu ! cudasobel";
  GPtrArray *contexts = g_ptr_array_new ();
  GstBus **buses;
  gint64 t0, t1;
  gint total = 0;

  gst_init (&argc, &argv);
  for (i = 1; i < argc; i++) {
    const gchar *v = i + 1 < argc ? argv[i + 1] : NULL;
    gchar *end = NULL;

    if (!strcmp (argv[i], "--streams") && v) {
      n = (gint) g_ascii_strtoll (v, &end, 10);
      if (*end || n < 1 || n > 4096)
        return usage (argv[0]);
    } else if (!strcmp (argv[i], "--frames") && v) {
      frames = (gint) g_ascii_strtoll (v, &end, 10);
      if (*end || frames < 1)
        return usage (argv[0]);
    } else if (!strcmp (argv[i], "--size") && v) {
      if (sscanf (v, "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
        return usage (argv[0]);
    } else if (!strcmp (argv[i], "--chain") && v) {
      if (!strcmp (v, "sobel"))
        chain = "cudagray ! cudaotsu ! cudasobel";
      else if (!strcmp (v, "thin"))
        chain = "cudagray ! cudaotsu ! cudathin";
      else
        return usage (argv[0]);
    } else if (!strcmp (argv[i], "--device-ids") && v) {
      gchar **ids = g_strsplit (v, ",", MAX_DEVICES);

      for (n_devices = 0; ids[n_devices]; n_devices++) {
        devices[n_devices] = (gint) g_ascii_strtoll (ids[n_devices], &end, 10);
        if (*end || devices[n_devices] < 0) {
          g_strfreev (ids);
          return usage (argv[0]);
        }
      }
      g_strfreev (ids);
      if (!n_devices)
        return usage (argv[0]);
    } else {
      return usage (argv[0]);
    }
    i++;
  }

  app.loop = g_main_loop_new (NULL, FALSE);
  app.streams = g_new0 (Stream, n);
  app.n = app.running = n;
  buses = g_new0 (GstBus *, n);
  for (i = 0; i < n; i++) {
    gint dev = devices[i % n_devices];
    gchar *desc = g_strdup_printf ("videotestsrc pattern=%d num-buffers=%d "
        "! video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1 ! %s "
        "! fakesink name=sink sync=false signal-handoffs=true", i % 25,
        frames, w, h, chain);
    GError *err = NULL;
    GstElement *sink;
    GstIterator *it;
    GValue item = G_VALUE_INIT;

    app.streams[i].pipeline = gst_parse_launch (desc, &err);
    g_free (desc);
    if (!app.streams[i].pipeline) {
      g_printerr ("stream %d: %s\n", i, err->message);
      return 1;
    }
    /* every element of ours in this pipeline on the stream's GPU */
    it = gst_bin_iterate_elements (GST_BIN (app.streams[i].pipeline));
    while (dev >= 0 && gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
      GObject *e = g_value_get_object (&item);

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
              "cuda-device-id"))
        g_object_set (e, "cuda-device-id", dev, NULL);
      g_value_reset (&item);
    }
    g_value_unset (&item);
    gst_iterator_free (it);
    sink = gst_bin_get_by_name (GST_BIN (app.streams[i].pipeline), "sink");
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff),
        &app.streams[i]);
    gst_object_unref (sink);
    app.streams[i].app = &app;
    buses[i] = gst_element_get_bus (app.streams[i].pipeline);
    gst_bus_add_watch (buses[i], on_message, &app.streams[i]);
  }

  t0 = g_get_monotonic_time ();
  for (i = 0; i < n && !app.status; i++)
    if (gst_element_set_state (app.streams[i].pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE) {
      /* the reason is on the bus: an element error, printed by on_message */
      GstMessage *msg = gst_bus_pop_filtered (buses[i], GST_MESSAGE_ERROR);

      app.status = 1;
      if (msg) {
        on_message (buses[i], msg, &app.streams[i]);
        gst_message_unref (msg);
      } else {
        g_printerr ("stream %d did not start\n", i);
      }
    }
  if (!app.status)
    g_main_loop_run (app.loop);
  t1 = g_get_monotonic_time ();

  for (i = 0; i < n; i++) {
    GstElement *first = NULL;
    GstIterator *it;
    GValue item = G_VALUE_INIT;

    total += g_atomic_int_get (&app.streams[i].frames);
    /* the chain's first element of ours (sorted from the sink up, so the
     * last of them) */
    it = gst_bin_iterate_sorted (GST_BIN (app.streams[i].pipeline));
    while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
      GstElement *e = g_value_get_object (&item);

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
              "cuda-device-id"))
        first = e;              /* sorted sink to source: the last one */
      g_value_reset (&item);
    }
    g_value_unset (&item);
    gst_iterator_free (it);
    if (!app.status && first) {
      gpointer ctx = context_of (first);

      if (ctx && !g_ptr_array_find (contexts, ctx, NULL))
        g_ptr_array_add (contexts, ctx);
    }
  }
  if (!app.status) {
    for (i = 0; i < n; i++)
      g_print ("stream %d: %d frames\n", i, app.streams[i].frames);
    g_print ("%d streams of %dx%d through `%s`: %d frames in %.2f s, "
        "%.0f frames a second in all\n", n, w, h, chain, total,
        (t1 - t0) * 1e-6, total / MAX ((t1 - t0) * 1e-6, 1e-6));
    g_print ("CUDA contexts used: %u (on %d GPU%s)\n", contexts->len,
        n_devices, n_devices > 1 ? "s" : "");
  }

  for (i = 0; i < n; i++) {
    gst_element_set_state (app.streams[i].pipeline, GST_STATE_NULL);
    gst_bus_remove_watch (buses[i]);
    gst_object_unref (buses[i]);
    gst_object_unref (app.streams[i].pipeline);
  }
  g_ptr_array_unref (contexts);
  g_free (buses);
  g_free (app.streams);
  g_main_loop_unref (app.loop);
  return app.status;
}

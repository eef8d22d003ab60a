/* cudaimgproc example: the skeleton of a camera, a file or a test pattern,
 * shown in a window or written to PNG, with each frame's Otsu threshold
 * and thinning passes printed as the elements post them.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-skeleton                      test pattern, in a window
 *   cudaimgproc-skeleton --camera /dev/video0
 *   cudaimgproc-skeleton movie.mp4 --output 'skel-%05d.png'
 *   cudaimgproc-skeleton --frames 30 --output skel.png   (the last frame)
 *
 * Ctrl-C ends the stream cleanly (EOS: files are complete); a second
 * Ctrl-C quits at once.  Exit status 0 on EOS, 1 on an error (a missing
 * GPU included: the elements say so), 2 on bad arguments.
 */
#include <gst/gst.h>
#include <glib-unix.h>
#include <string.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  gboolean interrupted;
  int status;
} App;

static gboolean
on_sigint (gpointer data)
{
  App *app = data;

  if (app->interrupted) {
    g_printerr ("interrupted again: quitting\n");
    app->status = 1;
    g_main_loop_quit (app->loop);
    return G_SOURCE_REMOVE;
  }
  app->interrupted = TRUE;
  g_printerr ("interrupted: finishing the stream (Ctrl-C again to quit)\n");
  gst_element_send_event (app->pipeline, gst_event_new_eos ());
  return G_SOURCE_CONTINUE;
}

/* cudaotsu's and cudathin's per-frame messages, as a line each */
static void
print_element_message (GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  guint64 ts = GST_CLOCK_TIME_NONE;
  guint v;
  gboolean converged;

  if (!s)
    return;
  gst_structure_get_uint64 (s, "timestamp", &ts);
  if (gst_structure_has_name (s, "cudaotsu") &&
      gst_structure_get_uint (s, "threshold", &v))
    g_print ("%" GST_TIME_FORMAT "  otsu threshold %u\n", GST_TIME_ARGS (ts),
        v);
  else if (gst_structure_has_name (s, "cudathin") &&
      gst_structure_get_uint (s, "passes", &v) &&
      gst_structure_get_boolean (s, "converged", &converged))
    g_print ("%" GST_TIME_FORMAT "  thinning: %u passes%s\n",
        GST_TIME_ARGS (ts), v, converged ? "" : " (not converged)");
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  App *app = data;
  GError *err = NULL;
  gchar *debug = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &debug);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, debug ? debug : "");
      g_clear_error (&err);
      g_free (debug);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &debug);
      g_printerr ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      g_clear_error (&err);
      g_free (debug);
      break;
    case GST_MESSAGE_EOS:
      g_print ("end of stream\n");
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_ELEMENT:
      print_element_message (msg);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* @s in double quotes for gst_parse_launch */
static gchar *
quoted (const gchar * s)
{
  GString *q = g_string_new ("\"");

  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c (q, '\\');
    g_string_append_c (q, *s);
  }
  g_string_append_c (q, '"');
  return g_string_free (q, FALSE);
}

int
main (int argc, char **argv)
{
  gchar *camera = NULL, *output = NULL;
  gint frames = -1;
  GOptionEntry entries[] = {
    {"camera", 'c', 0, G_OPTION_ARG_FILENAME, &camera,
        "Read a V4L2 camera (e.g. /dev/video0)", "DEVICE"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
        "Write PNG instead of showing a window: FILE.png keeps the last "
          "frame, a name with %05d one file a frame", "FILE"},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames,
        "Stop after N frames (test pattern and camera)", "N"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  gchar *src, *sink, *desc;
  App app = { 0 };
  GstBus *bus;

  ctx = g_option_context_new ("[FILE-OR-URI]");
  g_option_context_set_summary (ctx, "The skeleton of a video, computed on "
      "the GPU by cudagray, cudasmooth, cudaotsu and cudathin.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || argc > 2 ||
      (camera && argc == 2)) {
    g_printerr ("%s\n", err ? err->message : "give one input: a file, a "
        "URI or --camera");
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  if (camera) {
    gchar *q = quoted (camera);
    src = g_strdup_printf ("v4l2src device=%s num-buffers=%d", q, frames);
    g_free (q);
  } else if (argc == 2) {
    gchar *uri = gst_uri_is_valid (argv[1]) ? g_strdup (argv[1]) :
        gst_filename_to_uri (argv[1], NULL);
    gchar *q;

    if (!uri) {
      g_printerr ("not a file or URI: %s\n", argv[1]);
      return 2;
    }
    q = quoted (uri);
    src = g_strdup_printf ("uridecodebin uri=%s", q);
    g_free (q);
    g_free (uri);
  } else {
    src = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d", frames);
  }
  if (output) {
    gchar *q = quoted (output);
    /* a name with a % pattern: every frame; otherwise the file is
     * rewritten each frame and keeps the last */
    sink = g_strdup_printf ("pngenc ! multifilesink sync=false location=%s", q);
    g_free (q);
  } else {
    sink = g_strdup ("autovideosink");
  }
  desc = g_strdup_printf ("%s ! videoconvert ! cudagray ! cudasmooth "
      "method=gaussian ksize=5 ! cudaotsu post-messages=true ! cudathin "
      "post-messages=true ! videoconvert ! %s", src, sink);
  g_free (src);
  g_free (sink);
  g_print ("pipeline: %s\n", desc);
  app.pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!app.pipeline) {
    g_printerr ("could not build the pipeline: %s\n", err->message);
    g_clear_error (&err);
    return 1;
  }
  g_clear_error (&err);         /* a missing optional element: non-fatal */

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_message, &app);
  g_unix_signal_add (SIGINT, on_sigint, &app);
  if (gst_element_set_state (app.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the reason is on the bus: an element error, printed by on_message */
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      on_message (bus, msg, &app);
      gst_message_unref (msg);
    } else {
      g_printerr ("the pipeline could not start\n");
    }
    app.status = 1;
  } else {
    g_main_loop_run (app.loop);
  }
  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  g_free (camera);
  g_free (output);
  return app.status;
}

/* cudaimgproc: every property of every filter element changed from another
 * thread while frames flow (issue 24, item 1).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A changer thread walks a cycle of single-property settings on the
 * element while the test thread pushes frames through it.  The changer
 * announces each step before it sets it and marks it done after, so for
 * every frame the test knows the range of settings states that could have
 * been in effect while the element worked on it; the output must equal the
 * CPU reference of one of them.  A frame that mixed two states (one
 * property read before a change, another after) matches none.  Frames that
 * no change overlapped pin the state exactly: every state of the cycle
 * must be seen that way, so each setting took effect at the next frame.
 * Then the changer runs flat out (no pause) and every frame must still
 * match a state of its window.  No warning or error may reach the bus.
 *
 * cudaoverlay runs inside a bin that tees each frame to its video pad and,
 * through cudagray, to its mask pad.
 *
 * LIVE_FRAMES (default 1500) frames per element and memory; less under
 * compute-sanitizer.
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "gray.h"
#include "kmeans.h"
#include "blobs.h"
#include <math.h>

#define MAX_PROPS 10
#define N_INPUTS 3

typedef struct
{
  guint slot;                   /* index into LiveCase.props */
  const gchar *value;           /* as a launch line writes it */
} LiveStep;

/* Settings of one state, by slot, as strings. */
typedef const gchar *Values[MAX_PROPS];

typedef struct
{
  const gchar *launch;          /* the element, named e, fixed properties */
  GstVideoFormat in_format;
  const gchar *out_formats;     /* what the test's sink accepts */
  const gchar *props[MAX_PROPS];        /* NULL-terminated */
  const gchar *initial[MAX_PROPS];
  const LiveStep *steps;
  guint n_steps;
  /* the input frame (tight) for seed @seed */
  void (*fill) (guint8 * p, gint w, gint h, GstVideoFormat f, guint32 seed);
  /* the reference output (tight) of @in under @v; sets *@format */
  guint8 *(*ref) (const Values v, const guint8 * in, gint w, gint h,
      GstVideoFormat * format);
  /* frames need timestamps, each later than the last (an aggregator) */
  gboolean stamp;
} LiveCase;

static gint
vint (const gchar * s)
{
  return (gint) g_ascii_strtoll (s, NULL, 10);
}

static gboolean
vbool (const gchar * s)
{
  return g_str_equal (s, "true");
}

/* ---- the changer thread ------------------------------------------------ */

typedef struct
{
  GstElement *e;
  const LiveCase *c;
  gint announced, done, stop;
  gint frames;                  /* frames the test thread has finished */
  gint every;                   /* a step every that many frames; 0: flat out */
} Changer;

static gpointer
changer_run (gpointer data)
{
  Changer *ch = data;
  gint s, mark = g_atomic_int_get (&ch->frames);

  /* a second drive goes on from the state the first left */
  for (s = g_atomic_int_get (&ch->done); !g_atomic_int_get (&ch->stop); s++) {
    const LiveStep *st = &ch->c->steps[s % ch->c->n_steps];

    g_atomic_int_set (&ch->announced, s + 1);
    gst_util_set_object_arg (G_OBJECT (ch->e), ch->c->props[st->slot],
        st->value);
    g_atomic_int_set (&ch->done, s + 1);
    /* paced by frames rather than time, so that a sanitizer's uneven
     * slow-down still leaves frames alone under every state; the step
     * itself lands anywhere inside a frame */
    while (ch->every && g_atomic_int_get (&ch->frames) < mark + ch->every &&
        !g_atomic_int_get (&ch->stop))
      g_usleep (10);
    mark = g_atomic_int_get (&ch->frames);
    if (!ch->every)
      g_thread_yield ();
  }
  return NULL;
}

/* ---- states and their references --------------------------------------- */

typedef struct
{
  const LiveCase *c;
  guint n_props;
  Values *table;                /* 2 n_steps states: j steps applied */
  guint8 *in[N_INPUTS];
  GstBuffer *buf[N_INPUTS];
  guint8 *ref[N_INPUTS][64];
  GstVideoFormat ref_format[N_INPUTS][64];
  gint w, h;
  gint pushed;                  /* frames pushed, for timestamps */
} States;

/* After one whole cycle every property has been set by it, so state j >=
 * n_steps equals state n_steps + (j - n_steps) % n_steps. */
static guint
state_key (const States * st, gint j)
{
  const gint n = st->c->n_steps;

  return j < 2 * n ? (guint) j : (guint) (n + (j - n) % n);
}

static void
states_init (States * st, const LiveCase * c, gint w, gint h, gboolean cuda)
{
  GstVideoInfo info;
  gboolean set[MAX_PROPS] = { FALSE };
  guint i, j;

  memset (st, 0, sizeof (*st));
  st->c = c;
  st->w = w;
  st->h = h;
  while (c->props[st->n_props])
    st->n_props++;
  fail_unless (2 * c->n_steps <= G_N_ELEMENTS (st->ref[0]));
  st->table = g_new0 (Values, 2 * c->n_steps);
  for (i = 0; i < st->n_props; i++)
    st->table[0][i] = c->initial[i];
  for (j = 1; j < 2 * c->n_steps; j++) {
    const LiveStep *s = &c->steps[(j - 1) % c->n_steps];
    memcpy (st->table[j], st->table[j - 1], sizeof (Values));
    st->table[j][s->slot] = s->value;
    set[s->slot] = TRUE;
  }
  for (i = 0; i < st->n_props; i++)
    fail_unless (set[i], "%s: the cycle never sets %s", c->launch, c->props[i]);
  gst_video_info_set_format (&info, c->in_format, w, h);
  for (i = 0; i < N_INPUTS; i++) {
    const gsize size = (gsize) w * h * GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
    st->in[i] = g_malloc (size);
    if (c->fill)
      c->fill (st->in[i], w, h, c->in_format, i + 1);
    else
      fill_random (st->in[i], size, i + 1);
    st->buf[i] = packed_frame_buffer (st->in[i], c->in_format, w, h, cuda);
  }
}

static void
states_clear (States * st)
{
  guint i, j;

  for (i = 0; i < N_INPUTS; i++) {
    for (j = 0; j < G_N_ELEMENTS (st->ref[i]); j++)
      g_free (st->ref[i][j]);
    g_free (st->in[i]);
    gst_buffer_unref (st->buf[i]);
  }
  g_free (st->table);
}

/* Input @i to push next (a reference; stamped where the case asks) */
static GstBuffer *
next_input (States * st, guint i)
{
  GstBuffer *b = gst_buffer_ref (st->buf[i]);

  if (st->c->stamp)             /* a copy sharing the memory */
    b = stamp (gst_buffer_make_writable (b), st->pushed);
  st->pushed++;
  return b;
}

/* Does @out (of @info) equal the reference of input @i under state @key? */
static gboolean
states_match (States * st, guint i, guint key, GstBuffer * out,
    const GstVideoInfo * info)
{
  GstVideoFrame f;
  gsize row;
  gboolean same = TRUE;
  gint y;

  if (!st->ref[i][key])
    st->ref[i][key] = st->c->ref (st->table[key], st->in[i], st->w, st->h,
        &st->ref_format[i][key]);
  if (GST_VIDEO_INFO_FORMAT (info) != st->ref_format[i][key])
    return FALSE;
  row = (gsize) st->w * GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  fail_unless (gst_video_frame_map (&f, info, out, GST_MAP_READ));
  for (y = 0; y < st->h && same; y++)
    same = memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
        st->ref[i][key] + y * row, row) == 0;
  gst_video_frame_unmap (&f);
  return same;
}

static gchar *
describe (const States * st, guint key)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < st->n_props; i++)
    g_string_append_printf (s, "%s%s=%s", i ? " " : "", st->c->props[i],
        st->table[key][i]);
  return g_string_free (s, FALSE);
}

/* ---- the driver -------------------------------------------------------- */

/* Pushes @frames frames with the changer taking a step every @every frames
 * (0: flat out); every output must match a state of its window.  Counts,
 * per state of the cycle, the frames that no change overlapped. */
static void
drive (States * st, MsgHarness * m, Changer * ch, gint frames, gint every,
    guint * pinned)
{
  GThread *t;
  gint i, widest = 0;

  ch->every = every;
  g_atomic_int_set (&ch->stop, 0);
  t = g_thread_new ("changer", changer_run, ch);
  for (i = 0; i < frames; i++) {
    const guint f = i % N_INPUTS;
    GstBuffer *out;
    GstCaps *caps;
    GstVideoInfo info;
    gint b, a, j;
    gboolean ok = FALSE;

    b = g_atomic_int_get (&ch->done);
    fail_unless_equals_int (gst_harness_push (m->h, next_input (st, f)),
        GST_FLOW_OK);
    out = gst_harness_pull (m->h);
    a = g_atomic_int_get (&ch->announced);
    fail_unless (out != NULL);
    caps = gst_pad_get_current_caps (m->h->sinkpad);
    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    /* a window of more than a whole cycle holds every state: no test */
    for (j = b; j <= a && j < b + (gint) st->c->n_steps * 2 && !ok; j++)
      ok = states_match (st, f, state_key (st, j), out, &info);
    if (!ok) {
      gchar *d = describe (st, state_key (st, b));
      fail ("%s: frame %d matches no settings state from %d (%s) to %d",
          st->c->launch, i, b, d, a);
    }
    if (a == b && pinned && b >= (gint) st->c->n_steps)
      pinned[state_key (st, b) - st->c->n_steps]++;
    widest = MAX (widest, a - b + 1);
    gst_buffer_unref (out);
    g_atomic_int_inc (&ch->frames);
  }
  g_atomic_int_set (&ch->stop, 1);
  g_thread_join (t);
  GST_INFO ("%s: %d frames, a step every %d, widest window %d states",
      st->c->launch, frames, every, widest);
}

static void
live_case (const LiveCase * c, gboolean cuda)
{
  const gint w = 161, h = 97;
  const gchar *env = g_getenv ("LIVE_FRAMES");
  const gint frames = env ? MAX (atoi (env), 60) : 1500;
  gchar *in_caps = caps_str (cuda, gst_video_format_to_string (c->in_format),
      w, h);
  gchar *out_caps = g_strdup_printf ("video/x-raw%s,format=%s",
      cuda ? "(memory:CUDAMemory)" : "", c->out_formats);
  MsgHarness m = msg_harness_new (c->launch, in_caps, out_caps, "e");
  guint pinned[32] = { 0 };
  Changer ch = { m.e, c, 0, 0, 0, 0, 0 };
  States st;
  GstMessage *msg;
  gint64 t0;
  gulong frame_us;
  guint i;

  fail_unless (c->n_steps <= G_N_ELEMENTS (pinned));
  for (i = 0; c->props[i]; i++)
    gst_util_set_object_arg (G_OBJECT (m.e), c->props[i], c->initial[i]);
  states_init (&st, c, w, h, cuda);

  /* a frame's time with no changes, for the log */
  t0 = g_get_monotonic_time ();
  for (i = 0; i < 30; i++) {
    fail_unless_equals_int (gst_harness_push (m.h, next_input (&st, 0)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (m.h));
  }
  frame_us = (gulong) MAX ((g_get_monotonic_time () - t0) / 30, 20);

  drive (&st, &m, &ch, frames, 3, pinned);
  for (i = 0; i < c->n_steps; i++) {
    gchar *d = describe (&st, c->n_steps + i);
    fail_unless (pinned[i] > 0, "%s (%s): no frame ran alone under state "
        "%u (%s) of the cycle", c->launch, cuda ? "CUDA" : "system", i, d);
    g_free (d);
  }
  /* flat out: a step whenever the changer gets the CPU */
  drive (&st, &m, &ch, frames / 3, 0, NULL);
  g_print ("%-58s %s memory: %d frames, ~%lu us each, every state pinned, "
      "then %d flat out\n", c->launch, cuda ? "CUDA" : "system", frames,
      frame_us, frames / 3);

  while ((msg = gst_bus_pop (m.bus))) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR ||
        GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
        "%s: %" GST_PTR_FORMAT, c->launch, msg);
    gst_message_unref (msg);
  }
  states_clear (&st);
  msg_harness_free (&m);
  g_free (in_caps);
  g_free (out_caps);
}

/* ---- the elements ------------------------------------------------------ */

static guint8 *
ref_gray (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  const gboolean bt709 = g_str_equal (v[0], "bt709");
  guint8 *out = g_malloc ((gsize) w * h);

  ref_gray_packed (in, w * 4, 4, 0, 1, 2, out, w, w, h,
      bt709 ? CIP_GRAY_BT709_R : CIP_GRAY_BT601_R,
      bt709 ? CIP_GRAY_BT709_G : CIP_GRAY_BT601_G,
      bt709 ? CIP_GRAY_BT709_B : CIP_GRAY_BT601_B,
      (gint) lround (g_ascii_strtod (v[1], NULL) * 65536));
  *format = GST_VIDEO_FORMAT_GRAY8;
  return out;
}

static const LiveStep gray_steps[] = {
  {0, "bt709"}, {1, "0.5"}, {0, "bt601"}, {1, "2.25"}, {1, "1.0"},
};

static const LiveCase gray_case = {
  "cudagray name=e", GST_VIDEO_FORMAT_RGBA, "GRAY8",
  {"matrix", "scale"}, {"bt601", "1.0"},
  gray_steps, G_N_ELEMENTS (gray_steps), NULL, ref_gray
};

/* mode, threshold, threshold-offset, invert */
static guint8 *
ref_otsu (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  guint8 *out = g_malloc ((gsize) w * h);
  guint32 hist[256];
  float ema = -1.0f;
  gint t;

  ref_histogram (in, w, w, h, hist);
  t = g_str_equal (v[0], "otsu") ? ref_otsu_threshold (hist,
      (guint64) w * h) : vint (v[1]);
  t = ref_otsu_final (t, vint (v[2]), 0.0, &ema);
  ref_binarize (in, w, out, w, w, h, t, vbool (v[3]));
  *format = GST_VIDEO_FORMAT_GRAY8;
  return out;
}

static const LiveStep otsu_steps[] = {
  {0, "fixed"}, {1, "30"}, {3, "true"}, {2, "12"}, {0, "otsu"},
  {2, "-7"}, {3, "false"}, {1, "100"}, {2, "0"},
};

/* Smoothing is left at 0: its state carries over frames, so a frame's
 * output depends on the settings of every frame before it. */
static const LiveCase otsu_case = {
  "cudaotsu name=e", GST_VIDEO_FORMAT_GRAY8, "GRAY8",
  {"mode", "threshold", "threshold-offset", "invert"},
  {"otsu", "100", "0", "false"},
  otsu_steps, G_N_ELEMENTS (otsu_steps), NULL, ref_otsu
};

/* ksize, border, norm, scale, threshold */
static guint8 *
ref_sobel_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  guint8 *out = g_malloc ((gsize) w * h);

  ref_sobel (in, w, w, h, vint (v[0]), g_str_equal (v[1], "reflect-101"),
      g_str_equal (v[2], "l1"), (float) g_ascii_strtod (v[3], NULL),
      vint (v[4]), out, w);
  *format = GST_VIDEO_FORMAT_GRAY8;
  return out;
}

static const LiveStep sobel_steps[] = {
  {0, "5"}, {2, "l1"}, {1, "replicate"}, {3, "0.25"}, {0, "7"},
  {4, "40"}, {2, "l2"}, {1, "reflect-101"}, {0, "3"}, {3, "1.0"}, {4, "0"},
};

static const LiveCase sobel_case = {
  "cudasobel name=e", GST_VIDEO_FORMAT_GRAY8, "GRAY8",
  {"ksize", "border", "norm", "scale", "threshold"},
  {"3", "reflect-101", "l2", "1.0", "0"},
  sobel_steps, G_N_ELEMENTS (sobel_steps), NULL, ref_sobel_live
};

/* method, ksize, sigma, border; RGBA, alpha kept */
static guint8 *
ref_smooth_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  static const gchar *methods[] = { "triangular", "box", "gaussian",
    "median"
  };
  guint8 *out = g_malloc ((gsize) w * h * 4);
  gint m;

  for (m = 0; !g_str_equal (methods[m], v[0]); m++);
  ref_smooth (in, w * 4, out, w * 4, w, h, 4, 3, m, vint (v[1]),
      g_ascii_strtod (v[2], NULL), g_str_equal (v[3], "reflect-101"));
  *format = GST_VIDEO_FORMAT_RGBA;
  return out;
}

static void
fill_smooth (guint8 * p, gint w, gint h, GstVideoFormat f, guint32 seed)
{
  ref_smooth_frame (p, w * 4, w, h, 4, 1, seed);
}

/* ksize 3 and 5 only: every method takes both, so no step passes through
 * a pair the element refuses (it would keep the last valid one, which
 * depends on the frames before) */
static const LiveStep smooth_steps[] = {
  {0, "box"}, {1, "3"}, {3, "replicate"}, {0, "median"}, {1, "5"},
  {0, "gaussian"}, {2, "1.3"}, {1, "3"}, {3, "reflect-101"}, {0, "triangular"},
  {2, "0"}, {0, "gaussian"}, {1, "5"},
};

static const LiveCase smooth_case = {
  "cudasmooth name=e", GST_VIDEO_FORMAT_RGBA, "RGBA",
  {"method", "ksize", "sigma", "border"},
  {"gaussian", "5", "0", "reflect-101"},
  smooth_steps, G_N_ELEMENTS (smooth_steps), fill_smooth, ref_smooth_live
};

/* method, border, max-iterations */
static guint8 *
ref_thin_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  static const gchar *methods[] = { "hilditch", "zhang-suen", "guo-hall" };
  guint8 *out = g_memdup2 (in, (gsize) w * h);
  gint m;
  gsize i;

  for (m = 0; !g_str_equal (methods[m], v[0]); m++);
  ref_thin (out, w, h, m, vint (v[2]), NULL, g_str_equal (v[1], "opencv"));
  for (i = 0; i < (gsize) w * h; i++)
    out[i] = out[i] ? 255 : 0;
  *format = GST_VIDEO_FORMAT_GRAY8;
  return out;
}

static void
fill_thin (guint8 * p, gint w, gint h, GstVideoFormat f, guint32 seed)
{
  ref_thin_frame (p, w, h, seed % 2 ? 0 : 2, seed, 0);
}

static const LiveStep thin_steps[] = {
  {0, "zhang-suen"}, {2, "2"}, {1, "opencv"}, {0, "guo-hall"}, {2, "0"},
  {1, "background"}, {0, "hilditch"}, {2, "5"}, {2, "0"},
};

static const LiveCase thin_case = {
  "cudathin name=e", GST_VIDEO_FORMAT_GRAY8, "GRAY8",
  {"method", "border", "max-iterations"}, {"hilditch", "background", "0"},
  thin_steps, G_N_ELEMENTS (thin_steps), fill_thin, ref_thin_live
};

/* k, init, seed, max-iterations, epsilon, spatial-weight, output,
 * spread-labels; warm-start off: a warm start carries centres over frames,
 * so a frame's output would depend on the settings of the frames before */
static guint8 *
ref_kmeans_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  const gint k = vint (v[0]);
  float centres[CIP_KMEANS_MAX_K][5];
  guint32 counts[CIP_KMEANS_MAX_K];
  guint8 *labels = g_malloc ((gsize) w * h), *out;
  gsize i;

  ref_kmeans (in, w * 4, 4, 0, 1, 2, w, h, k, vint (v[3]),
      (float) g_ascii_strtod (v[4], NULL), (float) g_ascii_strtod (v[5],
          NULL), g_str_equal (v[1], "uniform"), (guint32) vint (v[2]), 0,
      centres, labels, counts);
  if (g_str_equal (v[6], "labels")) {
    if (vbool (v[7]))
      for (i = 0; i < (gsize) w * h; i++)
        labels[i] = labels[i] * 255 / (k - 1);
    *format = GST_VIDEO_FORMAT_GRAY8;
    return labels;
  }
  out = g_malloc ((gsize) w * h * 4);
  for (i = 0; i < (gsize) w * h; i++) {
    const float *c = centres[labels[i]];
    out[4 * i] = (guint8) rintf (c[0]);
    out[4 * i + 1] = (guint8) rintf (c[1]);
    out[4 * i + 2] = (guint8) rintf (c[2]);
    out[4 * i + 3] = in[4 * i + 3];
  }
  g_free (labels);
  *format = GST_VIDEO_FORMAT_RGBA;
  return out;
}

static const LiveStep kmeans_steps[] = {
  {0, "6"}, {6, "labels"}, {2, "7"}, {7, "true"}, {1, "uniform"},
  {3, "3"}, {6, "color"}, {4, "0"}, {5, "0.5"}, {0, "3"}, {1, "kmeans++"},
  {6, "labels"}, {3, "10"}, {7, "false"}, {5, "0"}, {2, "0"}, {4, "1.0"},
  {6, "color"}, {0, "4"},
};

static const LiveCase kmeans_case = {
  "cudakmeans name=e warm-start=false", GST_VIDEO_FORMAT_RGBA,
  "{ RGBA, GRAY8 }",
  {"k", "init", "seed", "max-iterations", "epsilon", "spatial-weight",
      "output", "spread-labels"},
  {"4", "kmeans++", "0", "10", "1.0", "0", "color", "false"},
  kmeans_steps, G_N_ELEMENTS (kmeans_steps), NULL, ref_kmeans_live
};

/* connectivity, min-area, max-blobs, output: the mask passed through, or
 * the GRAY16 map of the blobs kept (OpenCV's components of at least
 * min-area pixels, of those the max-blobs largest, ties to the smaller
 * label, numbered 1.. in their order) */
static guint8 *
ref_blobs_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  const guint min_area = (guint) vint (v[1]), max_blobs = (guint) vint (v[2]);
  gint32 *labels, *kept;
  RefBlob *blobs;
  guint16 *newid, *out;
  gint n, k, l;
  gsize i;

  if (g_str_equal (v[3], "mask")) {
    *format = GST_VIDEO_FORMAT_GRAY8;
    return g_memdup2 (in, (gsize) w * h);
  }
  labels = g_new (gint32, (gsize) w * h);
  blobs = g_new (RefBlob, (gsize) w * h + 1);
  n = ref_label (in, w, w, h, vint (v[0]), labels, blobs) - 1;
  kept = g_new (gint32, MAX (n, 1));
  k = ref_blobs_select (blobs, n, CIP_BLOBS_LABEL_MAX, min_area, max_blobs,
      kept);
  newid = g_new0 (guint16, CIP_BLOBS_LABEL_MAX + 1);
  for (l = 0; l < k; l++)
    newid[kept[l]] = (guint16) (l + 1);
  out = g_new (guint16, (gsize) w * h);
  for (i = 0; i < (gsize) w * h; i++)
    out[i] = GUINT16_TO_LE (labels[i] > CIP_BLOBS_LABEL_MAX ?
        CIP_BLOBS_LABEL_MAX : newid[labels[i]]);
  g_free (labels);
  g_free (blobs);
  g_free (kept);
  g_free (newid);
  *format = GST_VIDEO_FORMAT_GRAY16_LE;
  return (guint8 *) out;
}

/* about 40 % foreground in specks and clusters: components of many sizes,
 * some joined only diagonally */
static void
fill_blobs (guint8 * p, gint w, gint h, GstVideoFormat f, guint32 seed)
{
  gsize i;

  fill_random (p, (gsize) w * h, seed);
  for (i = 0; i < (gsize) w * h; i++)
    p[i] = p[i] < 102 ? 255 : 0;
}

static const LiveStep blobs_steps[] = {
  {3, "labels"}, {1, "5"}, {0, "4"}, {2, "3"}, {1, "0"}, {0, "8"},
  {3, "mask"}, {2, "0"}, {3, "labels"}, {1, "2"},
};

static const LiveCase blobs_case = {
  "cudablobs name=e", GST_VIDEO_FORMAT_GRAY8, "{ GRAY8, GRAY16_LE }",
  {"connectivity", "min-area", "max-blobs", "output"},
  {"8", "0", "0", "mask"},
  blobs_steps, G_N_ELEMENTS (blobs_steps), fill_blobs, ref_blobs_live
};

/* mode, color, alpha, palette; the mask is cudagray's BT.601 luma of the
 * frame itself (the launch line tees it) */
static guint8 *
ref_overlay_live (const Values v, const guint8 * in, gint w, gint h,
    GstVideoFormat * format)
{
  guint8 *mask = g_malloc ((gsize) w * h), *out = g_malloc ((gsize) w * h * 4);
  const guint color = (guint) g_ascii_strtoull (v[1], NULL, 0);
  const guint8 a = (guint8) lround (g_ascii_strtod (v[2], NULL) * 255);
  gchar **pal = g_strsplit_set (v[3], "<>, ", -1);
  guint palette[8], n_pal = 0, i;
  guint8 alpha[256], colour[256 * 4];
  gint m;

  for (i = 0; pal[i]; i++)
    if (*pal[i] && n_pal < G_N_ELEMENTS (palette))
      palette[n_pal++] = (guint) g_ascii_strtoull (pal[i], NULL, 0);
  g_strfreev (pal);
  fail_unless (n_pal > 0, "the cycle sets explicit palettes only");
  ref_gray_packed (in, w * 4, 4, 0, 1, 2, mask, w, w, h, CIP_GRAY_BT601_R,
      CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, 65536);
  for (m = 0; m < 256; m++) {
    guint rgb = color;

    if (g_str_equal (v[0], "mask"))
      alpha[m] = m ? a : 0;
    else if (g_str_equal (v[0], "alpha"))
      alpha[m] = (a * m + 127) / 255;
    else {
      alpha[m] = a;
      rgb = palette[m % n_pal];
    }
    colour[m * 4] = (rgb >> 16) & 255;
    colour[m * 4 + 1] = (rgb >> 8) & 255;
    colour[m * 4 + 2] = rgb & 255;
    colour[m * 4 + 3] = 0;
  }
  ref_overlay_plane (in, w * 4, out, w * 4, 4, 1u << 3, 0, 0, mask, w, w, h,
      w, h, alpha, colour);
  g_free (mask);
  *format = GST_VIDEO_FORMAT_RGBA;
  return out;
}

static const LiveStep overlay_steps[] = {
  {1, "0x00ff00"}, {2, "1.0"}, {0, "alpha"}, {3, "<0xff0000, 0x0000ff>"},
  {0, "labels"}, {2, "0.25"}, {1, "0x123456"}, {3, "<0x808080, 0x102030, "
        "0xf0e0d0>"}, {0, "mask"}, {2, "0.5"}, {1, "0xff0000"},
};

/* The video teed to the video pad and through cudagray to the mask */
static const LiveCase overlay_case = {
  "tee name=t t. ! queue ! e.video t. ! queue ! cudagray ! e.mask "
      "cudaoverlay name=e", GST_VIDEO_FORMAT_RGBA, "RGBA",
  {"mode", "color", "alpha", "palette"},
  {"mask", "0xff0000", "0.5", "<0x000000, 0xffffff>"},
  overlay_steps, G_N_ELEMENTS (overlay_steps), NULL, ref_overlay_live, TRUE
};

#define LIVE_TEST(name, c)                                              \
  GST_START_TEST (test_live_##name)                                     \
  {                                                                     \
    live_case (&c, FALSE);                                              \
    live_case (&c, TRUE);                                               \
  }                                                                     \
  GST_END_TEST;

LIVE_TEST (gray, gray_case);
LIVE_TEST (otsu, otsu_case);
LIVE_TEST (sobel, sobel_case);
LIVE_TEST (smooth, smooth_case);
LIVE_TEST (thin, thin_case);
LIVE_TEST (kmeans, kmeans_case);
LIVE_TEST (blobs, blobs_case);
LIVE_TEST (overlay, overlay_case);

static Suite *
live_gpu_suite (void)
{
  Suite *s = suite_create ("live-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_live_gray);
  tcase_add_test (tc, test_live_otsu);
  tcase_add_test (tc, test_live_sobel);
  tcase_add_test (tc, test_live_smooth);
  tcase_add_test (tc, test_live_thin);
  tcase_add_test (tc, test_live_kmeans);
  tcase_add_test (tc, test_live_blobs);
  tcase_add_test (tc, test_live_overlay);
  return s;
}

GPU_CHECK_MAIN (live_gpu);

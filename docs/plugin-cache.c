/* cudaimgproc: writes the plugin's documentation cache, the JSON that
 * GStreamer's documentation (hotdoc's gst extension) reads for every
 * plugin: each element's metadata, hierarchy, pad templates and properties
 * (type, range, default, flags), and the enums it marks as plugin API.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: cudaimgproc-plugin-cache PLUGIN.so > gst_plugins_cache.json
 * (tests/plugin-docs.sh compares its output, keys sorted, with
 * docs/gst_plugins_cache.json).
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

static void
put_str (GString * j, const gchar * s)
{
  const gchar *p;

  g_string_append_c (j, '"');
  for (p = s ? s : ""; *p; p++) {
    const guchar c = (guchar) * p;
    if (c == '"' || c == '\\')
      g_string_append_printf (j, "\\%c", c);
    else if (c == '\n')
      g_string_append (j, "\\n");
    else if (c < 0x20)
      g_string_append_printf (j, "\\u%04x", c);
    else
      g_string_append_c (j, (gchar) c);
  }
  g_string_append_c (j, '"');
}

static void
put_key (GString * j, gboolean * first, const gchar * key)
{
  if (!*first)
    g_string_append_c (j, ',');
  *first = FALSE;
  put_str (j, key);
  g_string_append_c (j, ':');
}

static void
put_kv (GString * j, gboolean * first, const gchar * key, const gchar * val)
{
  put_key (j, first, key);
  put_str (j, val);
}

/* caps as the cache writes them: a structure a paragraph, a field a line */
static gboolean
caps_field (GQuark field, const GValue * value, gpointer data)
{
  gchar *str = gst_value_serialize (value);
  const gchar *name = g_quark_to_string (field);

  if (!strcmp (name, "format")) {
    /* "(string)" type markers are noise here */
    gchar **parts = g_strsplit (str, "(string)", -1);
    g_free (str);
    str = g_strjoinv ("", parts);
    g_strfreev (parts);
  }
  g_string_append_printf (data, "%15s: %s\n", name, str);
  g_free (str);
  return TRUE;
}

static gchar *
caps_text (GstCaps * caps)
{
  GString *s = g_string_new (NULL);
  guint i;

  if (gst_caps_is_any (caps))
    g_string_append (s, "ANY");
  else if (gst_caps_is_empty (caps))
    g_string_append (s, "EMPTY");
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *st = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (i)
      g_string_append_c (s, '\n');
    if (f && !gst_caps_features_is_equal (f,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
      gchar *fs = gst_caps_features_to_string (f);
      g_string_append_printf (s, "%s(%s):\n", gst_structure_get_name (st), fs);
      g_free (fs);
    } else {
      g_string_append_printf (s, "%s:\n", gst_structure_get_name (st));
    }
    gst_structure_foreach (st, caps_field, s);
  }
  return g_string_free (s, FALSE);
}

static const gchar *
mutable_name (GParamFlags flags)
{
  if (flags & GST_PARAM_MUTABLE_PLAYING)
    return "playing";
  if (flags & GST_PARAM_MUTABLE_PAUSED)
    return "paused";
  if (flags & GST_PARAM_MUTABLE_READY)
    return "ready";
  return "null";
}

/* the enum types the properties use, for "other-types" */
static GPtrArray *enums;

static void
put_property (GString * j, GstElement * e, GParamSpec * ps)
{
  GValue v = G_VALUE_INIT;
  gboolean first = TRUE;
  gchar buf[128];

  g_value_init (&v, ps->value_type);
  if (ps->flags & G_PARAM_READABLE)
    g_object_get_property (G_OBJECT (e), ps->name, &v);
  else
    g_param_value_set_default (ps, &v);

  g_string_append_c (j, '{');
  put_kv (j, &first, "blurb", g_param_spec_get_blurb (ps));
  put_key (j, &first, "conditionally-available");
  g_string_append (j, "false");
  put_key (j, &first, "construct");
  g_string_append (j, ps->flags & G_PARAM_CONSTRUCT ? "true" : "false");
  put_key (j, &first, "construct-only");
  g_string_append (j, ps->flags & G_PARAM_CONSTRUCT_ONLY ? "true" : "false");
  put_key (j, &first, "controllable");
  g_string_append (j, ps->flags & GST_PARAM_CONTROLLABLE ? "true" : "false");

#define RANGE(fmt, get, spec_t, SPEC) \
  do { \
    spec_t *r = SPEC (ps); \
    g_snprintf (buf, sizeof buf, fmt, get (&v)); \
    put_kv (j, &first, "default", buf); \
    g_snprintf (buf, sizeof buf, fmt, r->maximum); \
    put_kv (j, &first, "max", buf); \
    g_snprintf (buf, sizeof buf, fmt, r->minimum); \
    put_kv (j, &first, "min", buf); \
  } while (0)
  switch (G_VALUE_TYPE (&v)) {
    case G_TYPE_BOOLEAN:
      put_kv (j, &first, "default", g_value_get_boolean (&v) ? "true" :
          "false");
      break;
    case G_TYPE_INT:
      RANGE ("%d", g_value_get_int, GParamSpecInt, G_PARAM_SPEC_INT);
      break;
    case G_TYPE_UINT:
      RANGE ("%u", g_value_get_uint, GParamSpecUInt, G_PARAM_SPEC_UINT);
      break;
    case G_TYPE_INT64:
      RANGE ("%" G_GINT64_FORMAT, g_value_get_int64, GParamSpecInt64,
          G_PARAM_SPEC_INT64);
      break;
    case G_TYPE_UINT64:
      RANGE ("%" G_GUINT64_FORMAT, g_value_get_uint64, GParamSpecUInt64,
          G_PARAM_SPEC_UINT64);
      break;
    case G_TYPE_FLOAT:
      RANGE ("%g", g_value_get_float, GParamSpecFloat, G_PARAM_SPEC_FLOAT);
      break;
    case G_TYPE_DOUBLE:
      RANGE ("%g", g_value_get_double, GParamSpecDouble, G_PARAM_SPEC_DOUBLE);
      break;
    case G_TYPE_STRING:
      put_kv (j, &first, "default", g_value_get_string (&v));
      break;
    default:
      if (G_IS_PARAM_SPEC_ENUM (ps)) {
        GEnumClass *ec = g_type_class_ref (ps->value_type);
        GEnumValue *ev = g_enum_get_value (ec, g_value_get_enum (&v));
        g_snprintf (buf, sizeof buf, "%s (%d)", ev ? ev->value_nick : "",
            g_value_get_enum (&v));
        put_kv (j, &first, "default", buf);
        g_type_class_unref (ec);
        if (!g_ptr_array_find (enums, GSIZE_TO_POINTER (ps->value_type), NULL))
          g_ptr_array_add (enums, GSIZE_TO_POINTER (ps->value_type));
      }
      break;
  }
#undef RANGE
  put_kv (j, &first, "mutable", mutable_name (ps->flags));
  put_key (j, &first, "readable");
  g_string_append (j, ps->flags & G_PARAM_READABLE ? "true" : "false");
  put_kv (j, &first, "type", g_type_name (ps->value_type));
  put_key (j, &first, "writable");
  g_string_append (j, ps->flags & G_PARAM_WRITABLE ? "true" : "false");
  g_string_append_c (j, '}');
  g_value_unset (&v);
}

static void
put_element (GString * j, GstElementFactory * f)
{
  GstElement *e = gst_element_factory_create (f, NULL);
  GParamSpec **specs;
  const GList *t;
  gboolean first = TRUE, pfirst = TRUE;
  gchar **keys, **k;
  guint i, n;
  GType type;

  g_string_append_c (j, '{');
  keys = gst_element_factory_get_metadata_keys (f);
  for (k = keys; k && *k; k++)
    put_kv (j, &first, *k, gst_element_factory_get_metadata (f, *k));
  g_strfreev (keys);

  put_key (j, &first, "hierarchy");
  g_string_append_c (j, '[');
  for (type = G_OBJECT_TYPE (e);; type = g_type_parent (type)) {
    put_str (j, g_type_name (type));
    if (type == G_TYPE_OBJECT || type == G_TYPE_INITIALLY_UNOWNED)
      break;
    g_string_append_c (j, ',');
  }
  g_string_append_c (j, ']');

  put_key (j, &first, "pad-templates");
  g_string_append_c (j, '{');
  for (t = gst_element_factory_get_static_pad_templates (f); t; t = t->next) {
    GstStaticPadTemplate *pt = t->data;
    GstCaps *caps = gst_static_caps_get (&pt->static_caps);
    gchar *text = caps_text (caps);
    gboolean tf = TRUE;

    put_key (j, &pfirst, pt->name_template);
    g_string_append_c (j, '{');
    put_kv (j, &tf, "caps", text);
    put_kv (j, &tf, "direction", pt->direction == GST_PAD_SRC ? "src" : "sink");
    put_kv (j, &tf, "presence", pt->presence == GST_PAD_ALWAYS ? "always" :
        pt->presence == GST_PAD_SOMETIMES ? "sometimes" : "request");
    g_string_append_c (j, '}');
    g_free (text);
    gst_caps_unref (caps);
  }
  g_string_append_c (j, '}');

  /* the element's own properties, not GstObject's name and parent */
  put_key (j, &first, "properties");
  g_string_append_c (j, '{');
  pfirst = TRUE;
  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n);
  for (i = 0; i < n; i++) {
    if (specs[i]->owner_type == GST_TYPE_OBJECT)
      continue;
    put_key (j, &pfirst, specs[i]->name);
    put_property (j, e, specs[i]);
  }
  g_free (specs);
  g_string_append_c (j, '}');

  put_kv (j, &first, "rank", gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
          (f)) == GST_RANK_NONE ? "none" : "other");
  g_string_append_c (j, '}');
  gst_object_unref (e);
}

int
main (int argc, char **argv)
{
  GstPlugin *plugin;
  GError *err = NULL;
  GList *features, *l;
  GString *j;
  gboolean first = TRUE, efirst = TRUE, tfirst = TRUE;
  guint i;

  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  gst_init (NULL, NULL);
  if (argc != 2) {
    fprintf (stderr, "usage: %s PLUGIN.so\n", argv[0]);
    return 2;
  }
  plugin = gst_plugin_load_file (argv[1], &err);
  if (!plugin) {
    fprintf (stderr, "%s: %s\n", argv[1], err->message);
    g_clear_error (&err);
    return 1;
  }
  enums = g_ptr_array_new ();
  j = g_string_new ("{");
  put_key (j, &first, gst_plugin_get_name (plugin));
  g_string_append_c (j, '{');
  first = TRUE;
  put_kv (j, &first, "description", gst_plugin_get_description (plugin));
  put_key (j, &first, "elements");
  g_string_append_c (j, '{');
  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      gst_plugin_get_name (plugin));
  for (l = features; l; l = l->next)
    if (GST_IS_ELEMENT_FACTORY (l->data)) {
      put_key (j, &efirst, GST_OBJECT_NAME (l->data));
      put_element (j, GST_ELEMENT_FACTORY (l->data));
    }
  gst_plugin_feature_list_free (features);
  g_string_append_c (j, '}');
  put_kv (j, &first, "filename", "gstcudaimgproc");
  put_kv (j, &first, "license", gst_plugin_get_license (plugin));

  put_key (j, &first, "other-types");
  g_string_append_c (j, '{');
  for (i = 0; i < enums->len; i++) {
    GType type = GPOINTER_TO_SIZE (g_ptr_array_index (enums, i));
    GEnumClass *ec = g_type_class_ref (type);
    gboolean vf = TRUE;
    guint v;

    put_key (j, &tfirst, g_type_name (type));
    g_string_append (j, "{\"kind\":\"enum\",\"values\":[");
    for (v = 0; v < ec->n_values; v++) {
      gchar num[16];
      gboolean f2 = TRUE;
      if (!vf)
        g_string_append_c (j, ',');
      vf = FALSE;
      g_string_append_c (j, '{');
      put_kv (j, &f2, "desc", ec->values[v].value_name);
      put_kv (j, &f2, "name", ec->values[v].value_nick);
      g_snprintf (num, sizeof num, "%d", ec->values[v].value);
      put_kv (j, &f2, "value", num);
      g_string_append_c (j, '}');
    }
    g_string_append (j, "]}");
    g_type_class_unref (ec);
  }
  g_string_append_c (j, '}');
  put_kv (j, &first, "package", gst_plugin_get_package (plugin));
  put_kv (j, &first, "source", gst_plugin_get_source (plugin));
  put_key (j, &first, "tracers");
  g_string_append (j, "{}");
  put_kv (j, &first, "url", gst_plugin_get_origin (plugin));
  g_string_append (j, "}}\n");

  fputs (j->str, stdout);
  g_string_free (j, TRUE);
  g_ptr_array_unref (enums);
  gst_object_unref (plugin);
  return 0;
}

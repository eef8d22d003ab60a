/* cudaimgproc: the metadata cudablobs attaches, without a GPU: its finish
 * step (which runs once the frame's record is back on the host) given a
 * record made here, then the frame through GStreamer's own
 * objectdetectionoverlay where it exists (1.24 and later, with
 * gst-plugins-bad's analyticsoverlay), which must draw each blob's box.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "gstcudaimgfilter.h"
#include "blobs.h"
#include "testutil.h"

#if HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#define W 64
#define H 48

/* Two blobs: (10, 8) 20 x 16 of area 200, (40, 30) 1 x 1 of area 1. */
static CipBlobsRecord *
make_record (void)
{
  CipBlobsRecord *r = g_new0 (CipBlobsRecord, 1);

  r->total = 3;
  r->kept = r->described = 2;
  r->blob[0].area = 200;
  r->blob[0].left = 10;
  r->blob[0].top = 8;
  r->blob[0].right = 29;
  r->blob[0].bottom = 23;
  r->blob[0].sum_x = 200 * 19;
  r->blob[0].sum_y = 200 * 15;
  r->blob[1].area = 1;
  r->blob[1].left = r->blob[1].right = 40;
  r->blob[1].top = r->blob[1].bottom = 30;
  r->blob[1].sum_x = 40;
  r->blob[1].sum_y = 30;
  return r;
}

/* A black GRAY8 frame with the metadata cudablobs' finish attaches for
 * make_record's blobs. */
static GstBuffer *
frame_with_blobs (void)
{
  GstElement *e = gst_element_factory_make ("cudablobs", NULL);
  GstCudaImgFilterClass *klass;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);
  CipBlobsRecord *r = make_record ();

  fail_unless (e != NULL);
  gst_buffer_memset (buf, 0, 0, W * H);
  /* the class struct by layout: the test links no part of the plugin */
  klass = (GstCudaImgFilterClass *) G_OBJECT_GET_CLASS (e);
  fail_unless (klass->finish != NULL);
  klass->finish ((GstCudaImgFilter *) e, buf, r);
  g_free (r);
  gst_object_unref (e);
  return buf;
}

GST_START_TEST (test_roi_metas)
{
  GstBuffer *buf = frame_with_blobs ();
  GstVideoRegionOfInterestMeta *roi;
  const GstStructure *s;
  gpointer state = NULL;
  guint n = 0;
  gdouble cx;
  guint area;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    fail_unless_equals_string (g_quark_to_string (roi->roi_type), "blob");
    fail_unless_equals_int (roi->id, (gint) n + 1);
    s = gst_video_region_of_interest_meta_get_param (roi, "cudablobs");
    fail_unless (s != NULL);
    fail_unless (gst_structure_get_uint (s, "area", &area));
    fail_unless (gst_structure_get_double (s, "centroid-x", &cx));
    if (n == 0) {
      fail_unless (roi->x == 10 && roi->y == 8 && roi->w == 20 && roi->h == 16);
      fail_unless_equals_int (area, 200);
      fail_unless (cx == 19.0);
    } else {
      fail_unless (roi->x == 40 && roi->y == 30 && roi->w == 1 && roi->h == 1);
      fail_unless_equals_int (area, 1);
    }
    n++;
  }
  fail_unless_equals_int (n, 2);
  gst_buffer_unref (buf);
}

GST_END_TEST;

#if HAVE_GST_ANALYTICS
/* GStreamer's analytics convention: a relation meta with one
 * object-detection entry a blob, type "blob", confidence 1. */
GST_START_TEST (test_analytics_meta)
{
  GstBuffer *buf = frame_with_blobs ();
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (buf);
  GstAnalyticsODMtd od;
  gpointer state = NULL;
  gint x, y, w, h, n = 0;
  gfloat conf;

  fail_unless (rmeta != NULL);
  while (gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
    fail_unless (gst_analytics_od_mtd_get_location (&od, &x, &y, &w, &h,
            &conf));
    fail_unless_equals_string (g_quark_to_string
        (gst_analytics_od_mtd_get_obj_type (&od)), "blob");
    fail_unless (conf == 1.0f);
    if (n == 0)
      fail_unless (x == 10 && y == 8 && w == 20 && h == 16);
    else
      fail_unless (x == 40 && y == 30 && w == 1 && h == 1);
    n++;
  }
  fail_unless_equals_int (n, 2);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* objectdetectionoverlay draws the first blob's outline (white by
 * default) on the black frame: pixels on its top edge lit, its inside and
 * the far corner left black. */
GST_START_TEST (test_objectdetectionoverlay)
{
  GstElementFactory *f = gst_element_factory_find ("objectdetectionoverlay");
  GstHarness *hr;
  GstBuffer *out;
  GstMapInfo map;
  guint lit = 0, x;

  if (!f) {
    g_print ("SKIP test_objectdetectionoverlay: no objectdetectionoverlay "
        "(gst-plugins-bad's analyticsoverlay, 1.24+) in this GStreamer\n");
    return;
  }
  gst_object_unref (f);
  hr = gst_harness_new_parse ("objectdetectionoverlay draw-labels=false");
  gst_harness_set_src_caps_str (hr, "video/x-raw,format=GRAY8,width=64,"
      "height=48,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (hr, frame_with_blobs ()),
      GST_FLOW_OK);
  out = gst_harness_pull (hr);
  fail_unless (out != NULL);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (x = 12; x < 28; x++)
    lit += map.data[8 * W + x] > 64 || map.data[9 * W + x] > 64 ||
        map.data[7 * W + x] > 64;
  fail_unless (lit >= 12, "the box's top edge: %u of 16 pixels lit", lit);
  fail_unless_equals_int (map.data[16 * W + 20], 0);
  fail_unless_equals_int (map.data[(H - 1) * W + 1], 0);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (hr);
}

GST_END_TEST;
#endif

static Suite *
blobs_meta_suite (void)
{
  Suite *s = suite_create ("cudablobs-meta");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_roi_metas);
#if HAVE_GST_ANALYTICS
  tcase_add_test (tc, test_analytics_meta);
  tcase_add_test (tc, test_objectdetectionoverlay);
#else
  g_print ("SKIP test_analytics_meta, test_objectdetectionoverlay: built "
      "against GStreamer before 1.24 (no gstreamer-analytics-1.0)\n");
#endif
  return s;
}

GST_CHECK_MAIN (blobs_meta);

/* cudaimgproc: plain CPU references that define each element's semantics.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "cip_yuv.h"

#ifdef __cplusplus
extern "C"
{
#endif

/* cudagray on packed RGB: bpp 3 or 4, byte offsets of R, G, B in a pixel,
 * Q15 weights, Q16 scale (65536 = 1.0). */
  void ref_gray_packed (const uint8_t * src, int src_stride, int bpp, int r_off,
      int g_off, int b_off, uint8_t * dst, int dst_stride, int width,
      int height, int cr, int cg, int cb, int scale_q16);

/* cudagray on a luma plane (YUV, GRAY8). */
  void ref_gray_luma (const uint8_t * y, int y_stride, uint8_t * dst,
      int dst_stride, int width, int height, int scale_q16);

/* cudaotsu: Otsu's threshold of a 256-bin histogram of @total pixels,
 * exactly as OpenCV's getThreshVal_Otsu_8u computes it (double arithmetic,
 * same order of operations, first maximum wins; 0 when no candidate has a
 * positive between-class variance, e.g. a frame of one value). */
  int ref_otsu_threshold (const uint32_t hist[256], uint64_t total);

  void ref_histogram (const uint8_t * src, int stride, int width, int height,
      uint32_t hist[256]);

/* out = (in > t) ? 255 : 0, or the reverse with @invert. */
  void ref_binarize (const uint8_t * src, int src_stride, uint8_t * dst,
      int dst_stride, int width, int height, int t, int invert);

/* The threshold cudaotsu applies to one frame: @otsu is this frame's Otsu
 * threshold (or the fixed one), @ema the smoothing state (< 0: none yet),
 * updated in place when @smoothing > 0. */
  int ref_otsu_final (int otsu, int offset, double smoothing, float *ema);

/* OpenCV's borderInterpolate for BORDER_REPLICATE (0) and
 * BORDER_REFLECT_101 (1): the source index that stands for @p. */
  int ref_border (int p, int len, int border);

/* cudasobel's gradients: OpenCV's Sobel kernels of @ksize (3, 5, 7),
 * integer, at every pixel (gx, gy: width * height each). */
  void ref_sobel_grad (const uint8_t * src, int stride, int width, int height,
      int ksize, int border, int32_t * gx, int32_t * gy);

/* cudasobel's output from the gradients: l1 = |gx| + |gy|, l2 = sqrt
 * (gx^2 + gy^2) in single precision; times @scale, rounded half to even,
 * saturated to 0..255; with @threshold > 0, 255 where that is above
 * @threshold, else 0. */
  uint8_t ref_sobel_value (int32_t gx, int32_t gy, int l1, float scale,
      int threshold);

  void ref_sobel (const uint8_t * src, int stride, int width, int height,
      int ksize, int border, int l1, float scale, int threshold, uint8_t * dst,
      int dst_stride);

/* cudathin.  @img: 0 background, anything else foreground, tight
 * (stride @width), thinned in place to 0/1.  Pixels outside the frame are
 * background.  Passes run until one removes nothing, or @max_passes of
 * them when that is above 0.  Returns the passes that removed a pixel;
 * *@converged (if not NULL) is 1 when a pass removed nothing.
 * @method: 0 Hilditch as the cudathin documentation defines it, 1
 * Zhang-Suen and 2 Guo-Hall as cv::ximgproc::thinning computes them (a
 * pass being its two sub-iterations).  @keep_border 1: the outermost rows
 * and columns are never removed (they are read as they are), as OpenCV's
 * thinning does (cudathin border=opencv). */
  unsigned ref_thin (uint8_t * img, int width, int height, int method,
      unsigned max_passes, int *converged, int keep_border);

/* Test frames for cudathin, 0/255, the same as tests/gen_thin_golden.py
 * draws them: @kind 0 discs, 1 noise, 2 rectangles and lines, 3 sparse
 * noise (20 %: many small components, for cudablobs); for cudablobs also
 * 4 a square spiral, 5 concentric square rings, 6 all foreground, 7 a
 * checkerboard, 8 foreground on every border and 30 % noise inside, and
 * 20 .. 30 noise at 5, 10, 20, 30 .. 90 and 95 %; @margin 1
 * keeps the outermost pixels background (where OpenCV's thinning, which
 * never touches them, and ours agree). */
  void ref_thin_frame (uint8_t * img, int width, int height, int kind,
      uint32_t seed, int margin);

/* cudakmeans on packed RGB (@bpp 3 or 4, byte offsets of R, G, B): the
 * exact computation cip_kmeans does.  @centres (k x 5: r, g, b, x, y) in:
 * the previous frame's when @warm, out: the final ones.  Writes each
 * pixel's label (tight, @width a row) and @counts (k); returns the Lloyd
 * iterations run.  @init 0 k-means++, 1 uniform. */
  int ref_kmeans (const uint8_t * src, int stride, int bpp, int r_off,
      int g_off, int b_off, int width, int height, int k, int max_iterations,
      float epsilon, float spatial_weight, int init, uint32_t seed, int warm,
      float (*centres)[5], uint8_t * labels, uint32_t * counts);

/* cudakmeans' inertia of @centres on the frame: the sum over pixels of the
 * squared feature distance to the nearest centre (the one of its label),
 * each in units of 1/64 rounded to nearest, even on ties. */
  uint64_t ref_kmeans_inertia (const uint8_t * src, int stride, int bpp,
      int r_off, int g_off, int b_off, int width, int height,
      float spatial_weight, float (*centres)[5], int k);

/* Threads a pass of ref_kmeans runs on: 0 (the default) one a core for
 * frames of 2^14 pixels or more; the results are the same bits either
 * way (integer sums and maxima, added band by band) */
  void ref_kmeans_set_threads (int n);

/* cudakmeans with @attempts fresh starts: ref_kmeans from seed + a *
 * 0x9e3779b9 (mod 2^32) for attempt a = 0, 1, ..., the one of the lowest
 * inertia (the earliest of equals) kept in @centres, @labels, @counts and
 * @inertia; each attempt's inertia in @each[a] unless @each is NULL;
 * returns its iterations.  The attempts run side by side on threads. */
  int ref_kmeans_attempts (const uint8_t * src, int stride, int bpp,
      int r_off, int g_off, int b_off, int width, int height, int k,
      int max_iterations, float epsilon, float spatial_weight, int init,
      uint32_t seed, int attempts, float (*centres)[5], uint8_t * labels,
      uint32_t * counts, uint64_t * inertia, uint64_t * each);

/* 4:2:0 (I420: @cstep 1, U and V planes; NV12: @cstep 2, @v = @u + 1) to
 * tight R'G'B' (3 bytes a pixel) with @m, each pixel with its own chroma
 * sample: what cudakmeans clusters. */
  void ref_yuv420_to_rgb (const uint8_t * y, int y_stride, const uint8_t * u,
      const uint8_t * v, int c_stride, int cstep, int width, int height,
      const CipYuvMatrix * m, uint8_t * rgb);

/* cudakmeans' colour output in 4:2:0: Y of each pixel's centre (rounded to
 * 8-bit RGB, then @m), each chroma sample the mean, rounded half up, of
 * the centre chroma of the pixels it covers. */
  void ref_kmeans_paint_yuv420 (const uint8_t * labels, int width,
      int height, float (*centres)[5], int k, const CipYuvMatrix * m,
      uint8_t * y, int y_stride, uint8_t * u, uint8_t * v, int c_stride,
      int cstep);

/* cudasmooth's methods */
  enum
  {
    REF_SMOOTH_TRIANGULAR = 0,
    REF_SMOOTH_BOX = 1,
    REF_SMOOTH_GAUSSIAN = 2,
    REF_SMOOTH_MEDIAN = 3,
  };

/* cv::GaussianBlur's 8-bit taps: cv::getGaussianKernel (@ksize, @sigma;
 * @sigma <= 0: OpenCV's default from @ksize) in units of 1/256, rounded
 * by error diffusion as its fixed-point path rounds them; they sum to 256. */
  void ref_gaussian_taps_q8 (int ksize, double sigma, int *taps);

/* cudasmooth on interleaved 8-bit channels (@bpp 1, 3 or 4 bytes a pixel),
 * each channel on its own; the byte at @keep_off of each pixel (alpha or
 * padding; -1: none) is copied.  @border 0 replicate, 1 reflect-101.
 * triangular: weights (1 2 3 2 1) along x and y, round (sum / 81);
 * box: round (sum / ksize^2), cv::blur; gaussian: (sum over rows of
 * taps_y * (sum of taps_x * p) + 2^15) >> 16, cv::GaussianBlur's 8-bit
 * fixed point; median: the middle of the sorted ksize^2 values,
 * cv::medianBlur (which always uses replicate). */
  void ref_smooth (const uint8_t * src, int src_stride, uint8_t * dst,
      int dst_stride, int width, int height, int bpp, int keep_off,
      int method, int ksize, double sigma, int border);

/* Test frames for cudasmooth, the same as tests/gen_smooth_golden.py draws
 * them: @kind 0 uniform noise, 1 a gradient with noise and salt and
 * pepper. */
  void ref_smooth_frame (uint8_t * img, int stride, int width, int height,
      int bpp, int kind, uint32_t seed);

/* 3D thinning by Lee, Kashyap and Chu (1994), as scikit-image's
 * skeletonize (method "lee") does it on 3D input: @v (@w x @h x @d, x
 * fastest, non-zero = object, outside = background) thinned in place to
 * 0/1.  Rounds over six border directions in skimage's order; in each,
 * the border voxels that are not endpoints, keep the Euler characteristic
 * and are simple are collected in raster order, then each deleted if it
 * still is simple.  Rounds until one deletes nothing, or @max_rounds (0:
 * no limit).  Returns the rounds that deleted a voxel. */
  int ref_thin3d_lee (uint8_t * v, int w, int h, int d, int max_rounds);

/* Lee's condition 1 on the 3x3x3 neighbourhood @n (index (dz + 1) * 9 +
 * (dy + 1) * 3 + dx + 1): deleting the centre keeps the Euler
 * characteristic, computed from the cells of the voxels' cubes */
  int ref_thin3d_lee_euler_invariant (const uint8_t n[27]);

/* 3D thinning by Palágyi and Kuba's 12-subiteration algorithm (1999), the
 * templates and directions of kernels/thin3d_templates.h: @v thinned in
 * place to 0/1 (non-zero = object, outside = background).  A round is the
 * 12 directions in order; in each, the object voxels whose neighbourhood,
 * turned to the direction, matches a template are deleted together.
 * Rounds until one deletes nothing, or @max_rounds (0: no limit).
 * Returns the rounds that deleted a voxel. */
  int ref_thin3d_pk (uint8_t * v, int w, int h, int d, int max_rounds);

/* 1 if sub-iteration @k (0..11) would delete voxel (@x, @y, @z) of the 0/1
 * volume @v as it stands */
  int ref_thin3d_pk_deletable (const uint8_t * v, int w, int h, int d,
      int x, int y, int z, int k);

/* 1 if the template-frame neighbourhood @t (t[9c + 3b + a], centre 13)
 * matches one of the 14 templates of direction US */
  int ref_thin3d_pk_match (const uint8_t t[27]);

/* Test volumes.  @kind 0 a union of 3 to 6 balls, 1 the same with 3 %
 * salt, 2 all object (these three as tests/gen_thin3d_golden.py draws
 * them); 3 balls and capsules (cylinders with round ends), 4 a torus, 5 a
 * trefoil-knot tube, 6 one-voxel lines and plates, 7 three slabs crossing
 * at the centre (touching every face), 8 a solid box one voxel in from
 * every face. */
#define REF_THIN3D_KINDS 9
  void ref_thin3d_volume (uint8_t * v, int w, int h, int d, int kind,
      uint32_t seed);

/* Components of the 0/1 volume @v padded by one background voxel each
 * side: object (@value 1) 26-connected, background (@value 0, the padding
 * included) 6-connected. */
  int ref_volume_components (const uint8_t * v, int w, int h, int d, int value);

/* cudablobs: the connected components of the non-zero pixels of a GRAY8
 * mask, @connectivity 8 or 4, as cv2.connectedComponentsWithStats
 * (default algorithm, CV_32S) labels them: background 0, components from
 * 1, numbered in the order in which OpenCV's scan first meets them.  For
 * 4-connectivity that scan is the raster order (SAUF, a row at a time),
 * so the component whose first pixel comes first in raster order is 1.
 * For 8-connectivity OpenCV scans 2x2 blocks (BBDT, Spaghetti): rows
 * two at a time, blocks left to right, and in a block the top-left,
 * top-right, bottom-left then bottom-right pixel, so a component starting
 * on a band's second row left of another that starts on its first row
 * comes first.  (Checked on OpenCV 4.6 for every algorithm it has, and
 * for 1 to 16 threads.)  @labels gets width × height labels; @blobs, with
 * room for width × height + 1, gets each component's statistics at its
 * label (index 0 is not written: OpenCV's background row is no blob).
 * Returns the number of labels, background included. */
  typedef struct
  {
    int left, top, width, height;
    int64_t area;
    double cx, cy;              /* sum of x (y) over area, as OpenCV */
  } RefBlob;
  int ref_label (const uint8_t * src, int stride, int width, int height,
      int connectivity, int32_t * labels, RefBlob * blobs);

/* cudablobs' choice of blobs (kernels/blobs.h) among ref_label's @n
 * components: of components 1 .. min (@n, @max_label), those of area >=
 * @min_area, and of them the @max_blobs largest (0: all; equal areas: the
 * smaller label first), written to @kept in label order (room for @n).
 * Returns how many. */
  int ref_blobs_select (const RefBlob * blobs, int n, int max_label,
      unsigned min_area, unsigned max_blobs, int32_t * kept);

/* FNV-1a of @n bytes */
  uint32_t ref_fnv1a (const uint8_t * p, size_t n);

/* cudahistogram's picture (kernels/histogram.h defines it): @counts, one
 * or three histograms of 256 bins, drawn into @dst (GRAY8 for one, RGBA
 * for three), @width x @height; @log_scale 0 linear, 1 log. */
  void ref_histogram_picture (const uint32_t counts[][256], int channels,
      int log_scale, uint8_t * dst, int stride, int width, int height);
/* cudaoverlay mode=boxes: @mask (GRAY8, w x h) cleared, then 255 on the
 * pixels of each box (x, y, width, height: four ints a box) within
 * @line_width of its edge, inside it, clipped to the frame. */
  void ref_overlay_boxes (uint8_t * mask, int stride, int w, int h,
      const int *boxes, int n, int line_width);
/* cudaoverlay, one plane (kernels/overlay.h defines it): @alpha and
 * @colour (4 bytes a value) by mask value, @keep the bytes copied. */
  void ref_overlay_plane (const uint8_t * src, int src_stride, uint8_t * dst,
      int dst_stride, int bpp, unsigned keep, int sub_x, int sub_y,
      const uint8_t * mask, int mask_stride, int mask_w, int mask_h,
      int luma_w, int luma_h, const uint8_t * alpha, const uint8_t * colour);
/* The same with the mask placed, not stretched: its top left corner at
 * video pixel (@mask_x, @mask_y) where @placed, pixels outside it left. */
  void ref_overlay_plane_at (const uint8_t * src, int src_stride,
      uint8_t * dst, int dst_stride, int bpp, unsigned keep, int sub_x,
      int sub_y, const uint8_t * mask, int mask_stride, int mask_w,
      int mask_h, int luma_w, int luma_h, const uint8_t * alpha,
      const uint8_t * colour, int placed, int mask_x, int mask_y);

#ifdef __cplusplus
}
#endif

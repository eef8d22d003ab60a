/* cudaimgproc: frames between system memory and the GPU: uploads and
 * downloads on copy streams of their own, from and to page-locked memory,
 * overlapping the kernels of the frames around them.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

#include "gstcudaimgframe.h"

G_BEGIN_DECLS
/* Frames uploaded ahead: one being read by the kernels, the next copying. */
#define GST_CUDA_IMG_UPLOAD_SLOTS 2
/* System-memory frames a last element has in flight before it blocks. */
#define GST_CUDA_IMG_DOWNLOAD_SLOTS 3
typedef struct _GstCudaImgUploader GstCudaImgUploader;

GstCudaImgUploader *gst_cuda_img_uploader_new (GstElement * element,
    GstCudaContext * context, const GstVideoInfo * info, cudaError_t * err);
void gst_cuda_img_uploader_free (GstCudaImgUploader * up);
gboolean gst_cuda_img_uploader_upload (GstCudaImgUploader * up,
    GstBuffer * buf, cudaStream_t stream, GstCudaImgFrame * frame,
    cudaError_t * err);
cudaError_t gst_cuda_img_uploader_consumed (GstCudaImgUploader * up,
    cudaStream_t stream);
void gst_cuda_img_uploader_release (GstCudaImgUploader * up);

typedef struct _GstCudaImgDownloader GstCudaImgDownloader;

/* Called from the pushing thread when a frame is on the host (or done on
 * the device), with the buffer about to be pushed (writable). */
typedef void (*GstCudaImgDownloadedFunc) (GstElement * element,
    GstBuffer * buf);

GstCudaImgDownloader *gst_cuda_img_downloader_new (GstElement * element,
    GstPad * srcpad, GstCudaContext * context, const GstVideoInfo * info,
    GstCudaImgDownloadedFunc downloaded, cudaError_t * err);
void gst_cuda_img_downloader_free (GstCudaImgDownloader * down);
GstFlowReturn gst_cuda_img_downloader_acquire (GstCudaImgDownloader * down,
    GstCudaImgFrame * frame);
gboolean gst_cuda_img_downloader_download (GstCudaImgDownloader * down,
    GstBuffer * outbuf, GstBuffer * hold, cudaStream_t stream,
    cudaError_t * err);
gboolean gst_cuda_img_downloader_is_device (GstCudaImgDownloader * down);
cudaError_t gst_cuda_img_downloader_await (GstCudaImgDownloader * down,
    GstBuffer * hold, cudaStream_t stream);
void gst_cuda_img_downloader_abort (GstCudaImgDownloader * down);
GstFlowReturn gst_cuda_img_downloader_commit (GstCudaImgDownloader * down,
    GstBuffer * outbuf);
void gst_cuda_img_downloader_drain (GstCudaImgDownloader * down);
void gst_cuda_img_downloader_set_flushing (GstCudaImgDownloader * down,
    gboolean flushing);

G_END_DECLS

/*
 * CFaceKitTools: the native code that only FaceKit's training and evaluation tools use
 * (facekit-train, facekit-evaluate, through FaceKitDatasets), kept out of the runtime library so
 * that the library links neither it nor OpenCV's objdetect module. The facekit executable does
 * not link this target.
 *
 * Every convention of CFaceKit.h holds here too: a status returned, results through
 * out-parameters, an optional caller-owned fk_error last, _create/_free pairs with _free(NULL) a
 * no-op, no C++ exception crossing. Images are CFaceKit's fk_image handles.
 */
#ifndef CFACEKIT_TOOLS_H
#define CFACEKIT_TOOLS_H

#include <CFaceKit.h>

/* The C API is called from FaceKit's Swift code in the same binary: not exported from it. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dlib's face detectors ------------------------------------------------------------------
 * Finds face boxes. The HOG detector is dlib's frontal_face_detector (80x80 px window); the CNN
 * detector is dlib's MMOD detector loaded from mmod_human_face_detector.dat (CFaceKit.h's
 * fk_mmod_detector, run here at a scale). FaceKit finds faces with YuNet (CFaceKit.h); these
 * remain for measuring it against them (facekit-evaluate --detector). Detections are CFaceKit.h's
 * fk_detection; a HOG score is the SVM margin (dlib's threshold 0).
 *
 * Thread safety: an fk_detector may not be shared between threads (dlib's detectors are not
 * const while detecting); use one per thread.
 */
typedef struct fk_detector fk_detector;

typedef enum fk_detector_kind {
    FK_DETECTOR_HOG = 0,
    FK_DETECTOR_CNN = 1
} fk_detector_kind;

/* model_path is ignored for FK_DETECTOR_HOG (its model is compiled into dlib). */
int32_t fk_detector_create(int32_t kind, const char *model_path, fk_detector **out,
                           fk_error *error);

void fk_detector_free(fk_detector *detector);

/* Runs the detector on image resized by scale (0.05 ... 8; 1 = as is), and reports boxes in the
 * coordinates of the unscaled image. At most capacity detections, highest score first, are
 * written to out; *count receives how many were found in all, which may exceed capacity (call
 * again with more room to get them all). */
int32_t fk_detector_detect(fk_detector *detector, const fk_image *image, float scale,
                           fk_detection *out, int32_t capacity, int32_t *count,
                           fk_error *error);

/* fk_detector_detect with the detector's threshold moved from 0 to `threshold` (dlib's
 * adjust_threshold, on HOG's SVM margin or the CNN's confidence; finite): a negative one also
 * reports faces it is unsure of, with their (negative) scores. */
int32_t fk_detector_detect_above(fk_detector *detector, const fk_image *image, float scale,
                                 float threshold, fk_detection *out, int32_t capacity,
                                 int32_t *count, fk_error *error);

/* ---- Cascade classifier -----------------------------------------------------------------------
 * OpenCV's Viola-Jones cascade classifier (cv::CascadeClassifier), loaded from one of OpenCV's
 * XML files such as haarcascade_smile.xml (Debian package opencv-data).
 *
 * This exists to measure a baseline, not for analysis: facekit-train scores
 * haarcascade_smile.xml on the same held-out faces as FaceKit's smile model, and
 * docs/accuracy.md compares the two. Nothing in FaceKit's analysis calls it.
 *
 * Thread safety: an fk_cascade may not be shared between threads (detectMultiScale keeps
 * scratch state); use one per thread.
 */
typedef struct fk_cascade fk_cascade;

/* Loads the cascade XML at path. Fails with FK_MODEL_UNAVAILABLE when the file is missing,
 * unreadable or not a cascade OpenCV can load. On success *out owns a new cascade, to be
 * released with fk_cascade_free. */
int32_t fk_cascade_create(const char *path, fk_cascade **out, fk_error *error);

void fk_cascade_free(fk_cascade *cascade);

/* The cascade's response in one region of image, as a count: the largest number of raw
 * detections that fall into one group.
 *
 * The region (clipped to the image) is converted to grey and histogram-equalised, then
 * detectMultiScale runs over it with scale_factor (> 1 and <= 4; 1.1 is OpenCV's default),
 * minNeighbors 0 (no grouping, no rejection) and the cascade's own window as the smallest size.
 * The raw detections are grouped as OpenCV's groupRectangles groups them (cv::partition with
 * SimilarRects, eps 0.2), and *neighbours receives the size of the largest group: the number
 * detectMultiScale's minNeighbors is compared against (a group of n survives minNeighbors < n).
 * *neighbours is 0 when nothing is detected, or when the clipped region is smaller than the
 * cascade's window. The count grows with the region's size in pixels (more positions and
 * scales are tried), so it compares regions of similar size best. For haarcascade_smile.xml the
 * usual region is the lower half of the face box (the mouth). A NULL argument, a non-finite or
 * negative region, or scale_factor out of range fails with FK_INVALID_ARGUMENT. */
int32_t fk_cascade_best_neighbours(fk_cascade *cascade, const fk_image *image, fk_rect region,
                                   float scale_factor, int32_t *neighbours, fk_error *error);

/* ---- dlib's own face descriptor network -----------------------------------------------------
 * The face descriptor as dlib computes it, with dlib's own convolution layer: the reference the
 * runtime's faster layer (fk_face_descriptor, descriptor_conv.hpp) must match bit for bit. The
 * same model file, chip and checks as fk_face_descriptor_create and fk_face_descriptor_compute.
 *
 * Thread safety: as fk_face_descriptor, one per thread.
 */
typedef struct fk_dlib_face_descriptor fk_dlib_face_descriptor;

int32_t fk_dlib_face_descriptor_create(const char *model_path, fk_dlib_face_descriptor **out, fk_error *error);

void fk_dlib_face_descriptor_free(fk_dlib_face_descriptor *descriptor);

int32_t fk_dlib_face_descriptor_compute(fk_dlib_face_descriptor *descriptor, const fk_image *image,
                                        const fk_point *points, int32_t count,
                                        float out[FK_FACE_DESCRIPTOR_LENGTH], fk_error *error);

/* ---- OpenCV's own image decoding ------------------------------------------------------------
 * cv::imdecode in colour (IMREAD_COLOR: EXIF orientation applied, 8-bit BGR), or at 1/2, 1/4 or
 * 1/8 of the size (IMREAD_REDUCED_COLOR_2, _4, _8) for reduction 2, 4 or 8: the reference that
 * FaceKit's own JPEG and PNG reading (libjpeg and libpng called directly, jpeg_decoder.cpp and
 * png_decoder.cpp, for quiet failures and DCT scaling) is compared with. FK_NOT_AN_IMAGE when
 * OpenCV decodes nothing. On success *out owns a new fk_image.
 */
int32_t fk_opencv_image_decode(const uint8_t *bytes, size_t count, int32_t reduction, fk_image **out,
                               fk_error *error);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* CFACEKIT_TOOLS_H */

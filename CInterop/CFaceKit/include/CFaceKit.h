/*
 * CFaceKit: the narrow C API that FaceKit's Swift code uses to reach OpenCV and dlib.
 *
 * Conventions, for every function below:
 *   - The return value is a status (fk_status); FK_OK is 0.
 *   - Results come back through out-parameters. On failure, out-parameters are left untouched
 *     unless the function says otherwise.
 *   - The last parameter is an optional, caller-owned error record. When it is not NULL and the
 *     call fails, it receives the same status and a message naming the cause. It is not touched
 *     on success.
 *   - Handles are opaque. Each has a _create/_free pair; _free(NULL) is a no-op.
 *   - No C++ exception ever leaves this API: every entry point converts them into a status.
 *   - Borrowed pointers (paths, byte buffers) are only read during the call.
 *   - A path is a NUL-terminated string of the file system's bytes, used as it is: it need not
 *     be UTF-8 (FaceKit's Swift code passes a name's original bytes).
 *
 * Thread safety: an fk_image and an fk_shape_predictor may be shared between threads for
 * reading. An fk_yunet, an fk_patch_classifier and an fk_point_tracker may not:
 * they keep scratch state, so use one per thread.
 */
#ifndef CFACEKIT_H
#define CFACEKIT_H

#include <stddef.h>
#include <stdint.h>

/* The C API is called from FaceKit's Swift code in the same binary: not exported from it. */
#pragma GCC visibility push(hidden)

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fk_status {
    FK_OK = 0,
    FK_INVALID_ARGUMENT = 1,   /* a NULL handle, a negative size, a scale out of range */
    FK_FILE_UNREADABLE = 2,    /* missing file, not a regular file (a folder, a named pipe, a
                                  device), no permission, I/O error */
    FK_NOT_AN_IMAGE = 3,       /* empty file, unknown format, corrupt or truncated data */
    FK_IMAGE_TOO_LARGE = 4,    /* more pixels than the caller allows */
    FK_MODEL_UNAVAILABLE = 5,  /* model file missing or not a model of the expected kind */
    FK_OUT_OF_MEMORY = 6,
    FK_INTERNAL = 7,           /* an unexpected OpenCV or dlib failure */
    FK_NOT_A_VIDEO = 8,        /* empty file, no video stream, or a container FFmpeg cannot open */
    FK_FILE_UNWRITABLE = 9,    /* a file that cannot be created or written: missing folder, no
                                  permission, a folder in the way, nothing written */
    FK_INVALID_SETTING = 10    /* an environment variable the shim reads (FACEKIT_NATIVE) holds a
                                  value it does not take; the message says what it takes */
} fk_status;

/* Caller-owned error record. message is always NUL-terminated when status != FK_OK. */
typedef struct fk_error {
    int32_t status;
    char message[512];
} fk_error;

typedef struct fk_point {
    float x;
    float y;
} fk_point;

typedef struct fk_rect {
    float x;       /* left, pixels */
    float y;       /* top, pixels */
    float width;
    float height;
} fk_rect;

/* ---- Kernels and their references -------------------------------------------------------------
 * Where FaceKit runs native code of its own in place of a library call (docs/architecture.md,
 * "Kernels and their references"), the library's call is built too, as the portable reference:
 *
 *   FK_KERNEL_YUNET      YuNet's network: small_cnn.cpp (and onnx_model.cpp, its ONNX reader)
 *                        or OpenCV's DNN module (cv::dnn::readNetFromONNX, Net::forward)
 *   FK_KERNEL_LANDMARKS  the shape predictor: shape_predictor.cpp's flat trees (and their copy
 *                        in the model cache) or dlib's shape_predictor, read by dlib
 *   FK_KERNEL_DESCRIPTOR the face descriptor's convolutions: descriptor_conv.hpp or dlib's con_
 *
 * The environment variable FACEKIT_NATIVE chooses for the whole process: unset, empty or "fast",
 * FaceKit's own code; "reference", every kernel on the library's code; "reference:" and a
 * comma-separated list of kernel names (yunet, landmarks, descriptor), only those. It is read
 * once, when first needed. A value it does not take makes every call that consults it fail with
 * FK_INVALID_SETTING, the message saying what it takes.
 *
 * Elsewhere the library's call is the only path: the point tracker's flow is
 * cv::calcOpticalFlowPyrLK and the head pose's refinement cv::solvePnP(SOLVEPNP_ITERATIVE), whose
 * own native replacements measured below the 10% of a user's time that keeps one.
 */
typedef enum fk_kernel {
    FK_KERNEL_YUNET = 0,
    FK_KERNEL_LANDMARKS = 1,
    FK_KERNEL_DESCRIPTOR = 2,
    FK_KERNEL_COUNT = 3
} fk_kernel;

typedef enum fk_kernel_path {
    FK_PATH_FROM_ENVIRONMENT = 0, /* as FACEKIT_NATIVE says */
    FK_PATH_FAST = 1,             /* FaceKit's own code */
    FK_PATH_REFERENCE = 2         /* the library's call */
} fk_kernel_path;

/* The path `kernel` takes when FK_PATH_FROM_ENVIRONMENT is asked: FK_PATH_FAST or
 * FK_PATH_REFERENCE in *path. Fails with FK_INVALID_ARGUMENT for an unknown kernel, and with
 * FK_INVALID_SETTING when FACEKIT_NATIVE holds a value it does not take. */
int32_t fk_kernel_path_chosen(int32_t kernel, int32_t *path, fk_error *error);

/* The path `kernel` would take if FACEKIT_NATIVE held `value` (NULL: unset), as
 * fk_kernel_path_chosen reads it; the environment is not consulted. FK_INVALID_SETTING for a
 * value it does not take. */
int32_t fk_kernel_path_parse(const char *value, int32_t kernel, int32_t *path, fk_error *error);

/* ---- Images ---------------------------------------------------------------------------------
 * An fk_image is an upright 8-bit BGR image: grey images are expanded, alpha is dropped and
 * 16-bit (or HDR) samples are reduced to 8 bits.
 *
 * Upright means: a JPEG gets its EXIF Orientation applied (so does any other format whose EXIF
 * OpenCV reads). HEIF (HEIC, AVIF) gets its transformative properties applied instead (irot rotation, imir mirror, clap crop, by
 * libheif), and its EXIF Orientation is ignored: ISO/IEC 23008-12 makes the properties
 * authoritative and EXIF informative only, and phones write both with the same meaning, so
 * applying EXIF too would turn a portrait photo twice.
 *
 * Formats are recognised by content, not by name: JPEG through libjpeg, PNG through libpng, BMP,
 * TIFF and WebP through OpenCV, HEIF through libheif when the file opens with an ftyp box whose
 * brands name a HEIF image (heic, heix, heim, heis, hevc, hevx, hevm, hevs, mif1, mif2, msf1,
 * avif, avis). Nothing is printed to stderr: OpenCV's logging is off, libjpeg's and libpng's
 * warnings go to the shim instead of being printed, and AV1 goes to libaom rather than dav1d,
 * which prints (libheif falls back to dav1d only where libaom is missing).
 */
typedef struct fk_image fk_image;

/* Pixel layouts accepted by fk_image_create_from_pixels. */
typedef enum fk_pixel_format {
    FK_PIXEL_GRAY8 = 0,
    FK_PIXEL_RGB8 = 1,
    FK_PIXEL_BGR8 = 2,
    FK_PIXEL_RGBA8 = 3,
    FK_PIXEL_BGRA8 = 4
} fk_pixel_format;

/* Reads and decodes the file at path (JPEG, PNG, BMP, TIFF, WebP, HEIC, AVIF, ...).
 * Only a regular file is read: anything else (a folder, a named pipe, a device) fails with
 * FK_FILE_UNREADABLE before it is opened, so the call never blocks on a pipe without a writer.
 * max_pixels bounds width*height as read from the file header before anything is decoded;
 * 0 means no bound of the caller's own (OpenCV's limit of 2^30 pixels, and libheif's of 32768
 * pixels a side, still hold).
 * These fail with FK_NOT_AN_IMAGE: a JPEG that lacks its end-of-image marker ("truncated JPEG");
 * a JPEG smaller than the pixels its header claims can be coded in (at least one bit per 8x8
 * block, so 1 byte per 512 pixels), refused before decoding ("truncated or corrupt JPEG: N bytes
 * cannot hold WxH pixels"); a JPEG whose coded data libjpeg reports as damaged (its "Corrupt JPEG
 * data" and "Premature end of JPEG file" warnings: "corrupt image data (libjpeg: ...)"), the
 * decode stopping at the first such warning; a HEIF cut short or whose boxes or codec stream the
 * decoder rejects ("corrupt or truncated HEIF"). Damage inside the coded data of the other
 * formats may still decode to a damaged picture.
 * On success *out owns a new image, to be released with fk_image_free. */
int32_t fk_image_create_from_file(const char *path, int64_t max_pixels, fk_image **out,
                                  fk_error *error);

/* Like fk_image_create_from_file, but a JPEG may be decoded at 1/2, 1/4 or 1/8 of its size:
 * libjpeg then scales while decoding (DCT scaling: scale_denom 2, 4 or 8), which
 * is several times faster and needs a fraction of the memory of a full decode.
 * The reduction r is the largest of 8, 4 and 2 for which the upright image stays at least
 * min_width pixels wide (libjpeg's width is ceil(full width / r)), otherwise 1. Other formats,
 * and min_width 0, are decoded at full size (r = 1). EXIF orientation is applied as usual and
 * max_pixels bounds the full size from the header. min_width must not be negative.
 * *reduction receives r: the image's pixel (x, y) covers the full-size upright image's pixels
 * x*r ... x*r + r-1 and y*r ... y*r + r-1 (where the EXIF orientation reverses an axis, by a
 * rotation or a mirror, and the full length along it is not a multiple of r, the blocks along it
 * are shifted by less than r pixels).
 * On failure *out and *reduction are left untouched. */
int32_t fk_image_create_from_file_reduced(const char *path, int64_t max_pixels, int32_t min_width,
                                          fk_image **out, int32_t *reduction, fk_error *error);

/* Same as fk_image_create_from_file, for an encoded image held in memory. */
int32_t fk_image_create_from_encoded(const uint8_t *bytes, size_t count, int64_t max_pixels,
                                     fk_image **out, fk_error *error);

/* Copies raw pixels (rows of bytes_per_row bytes, top row first) into a new image. */
int32_t fk_image_create_from_pixels(const uint8_t *pixels, int32_t width, int32_t height,
                                    int32_t bytes_per_row, int32_t format, fk_image **out,
                                    fk_error *error);

void fk_image_free(fk_image *image);

/* Width and height in pixels of the upright image. */
int32_t fk_image_get_size(const fk_image *image, int32_t *width, int32_t *height,
                          fk_error *error);

/* ---- YuNet face detector --------------------------------------------------------------------
 * YuNet (Wu, Peng and Yu, "YuNet: A Tiny Millisecond-level Face Detector", 2023), an ONNX export
 * of libfacedetection.train, run by the shim's own small network runner (src/small_cnn.cpp: the
 * operators YuNet is made of, a pass 15-25% faster than through OpenCV 4.6's DNN module; a
 * file using others is refused with FK_MODEL_UNAVAILABLE, naming the operator). The network is fully convolutional:
 * although the files are exported for a 320x320 input, it runs on any input whose sides are
 * multiples of 32, so each call feeds it exactly the region asked for, padded with black on the
 * right and bottom to the next multiple of 32.
 *
 * Decoding (12 outputs cls_S, obj_S, bbox_S, kps_S for strides S = 8, 16, 32, one row per grid
 * cell in row-major order): score = sqrt(clamp(cls) * clamp(obj)); box centre = (col + dx,
 * row + dy) * S; box size = exp(dw, dh) * S; keypoint k = (col + kx, row + ky) * S.
 * Candidates at or above min_score are then thinned by non-maximum suppression (a candidate is
 * dropped when it overlaps a better one with intersection over union above nms_overlap).
 *
 * Thread safety: an fk_yunet may not be shared between threads (it keeps its activations); use
 * one per thread. It is small (about 0.3 MB of weights).
 */
typedef struct fk_yunet fk_yunet;

/* The five keypoints YuNet places, in this order. Left and right are the subject's: in a frontal
 * face the subject's right eye is on the image's left. */
enum {
    FK_YUNET_RIGHT_EYE = 0,
    FK_YUNET_LEFT_EYE = 1,
    FK_YUNET_NOSE_TIP = 2,
    FK_YUNET_RIGHT_MOUTH_CORNER = 3,
    FK_YUNET_LEFT_MOUTH_CORNER = 4,
    FK_YUNET_KEYPOINT_COUNT = 5
};

typedef struct fk_yunet_face {
    fk_rect box;                                   /* image pixels; YuNet's own box convention */
    fk_point keypoints[FK_YUNET_KEYPOINT_COUNT];   /* image pixels */
    float score;                                   /* 0 ... 1 */
} fk_yunet_face;

/* Loads the ONNX file at model_path and checks that it has YuNet's 12 outputs. Fails with
 * FK_MODEL_UNAVAILABLE, naming the path, when the file is missing, unreadable, truncated, not
 * ONNX, or another network. On success *out owns a new handle, to be released with
 * fk_yunet_free. */
int32_t fk_yunet_create(const char *model_path, fk_yunet **out, fk_error *error);

/* fk_yunet_create with the network run on `path` (an fk_kernel_path): FaceKit's runner or
 * OpenCV's DNN module, the reference. fk_yunet_create is this with FK_PATH_FROM_ENVIRONMENT.
 * The two give the same faces within float rounding (CInterop/differential/differential.cpp). */
int32_t fk_yunet_create_on_path(const char *model_path, int32_t path, fk_yunet **out, fk_error *error);

void fk_yunet_free(fk_yunet *yunet);

/* Runs the network once on region (image pixels) resized by scale (finite, > 0 and <= 8),
 * mirrored left-right first when mirrored is non-zero, then turned clockwise by quarter_turns
 * quarter turns (0 ... 3), and reports the faces found in image pixels (boxes and keypoints are
 * mapped back through the turn and the mirror, and a mirrored pass swaps left and right keypoints
 * so their names stay the subject's; a box is the image-axis box of the network's box).
 * The region must keep at least one pixel of the image; what of it lies outside the image is
 * mid-grey (a face larger than the picture is then seen with a border round it, and its box may
 * reach outside the image).
 * The resized region may hold at most 4096 x 4096 pixels (FK_INVALID_ARGUMENT otherwise: tile
 * larger searches). min_score is in [0, 1], nms_overlap in (0, 1].
 * The faces are written to out best score first, at most capacity of them; *count receives how
 * many were found in all, which may exceed capacity (call again with more room to get them all). */
int32_t fk_yunet_detect(fk_yunet *yunet, const fk_image *image, fk_rect region, float scale,
                        int32_t mirrored, int32_t quarter_turns, float min_score, float nms_overlap,
                        fk_yunet_face *out, int32_t capacity, int32_t *count, fk_error *error);

/* ---- dlib's CNN face detector -----------------------------------------------------------------
 * dlib's MMOD face detector (mmod_human_face_detector.dat, from face_recognition_models): a CNN
 * trained on other photos than YuNet, finding faces about 80 px wide and larger. FaceKit asks it
 * about a face both of YuNet's looks score under the minimum, on a small upright view of that face
 * (FaceKit's CNNFaceCheck); the tools also run it over whole photos (CFaceKitTools' fk_detector).
 *
 * Thread safety: an fk_mmod_detector may not be shared between threads (dlib's network keeps its
 * activations); use one per thread. It is small (0.7 MB of weights).
 */
typedef struct fk_mmod_detector fk_mmod_detector;

typedef struct fk_detection {
    fk_rect box;   /* in the coordinates of the image given to the detector */
    float score;   /* detector confidence; dlib's own threshold is 0 */
} fk_detection;

/* The most pixels fk_mmod_detector_detect takes (its image pyramid's memory grows with them). */
#define FK_MMOD_MAX_PIXELS (4096 * 4096)

/* Loads the network at model_path. Fails with FK_MODEL_UNAVAILABLE, naming the path, when the
 * file is missing, not a regular file, larger than any dlib model, or another network. On success
 * *out owns a new handle, to be released with fk_mmod_detector_free. */
int32_t fk_mmod_detector_create(const char *model_path, fk_mmod_detector **out, fk_error *error);

void fk_mmod_detector_free(fk_mmod_detector *detector);

/* Runs the network over image (at most FK_MMOD_MAX_PIXELS) and reports the faces whose confidence
 * is at least threshold (finite; a negative one also reports faces it is unsure of), best first.
 * levels 0 searches dlib's whole image pyramid (each level 5/6 of the last, down to 5 px: every
 * face from its 80 px window up); levels 1 ... 32 only its first levels, each searched alone and
 * the detections thinned across them as dlib thins one pyramid: faces of about 80 to
 * 80 x (6/5)^(levels-1) px, for a fifth of the time when a face's size is known (FaceKit's third
 * look searches 3). At most capacity are written to out; *count receives how many were found in
 * all, which may exceed capacity (call again with more room to get them all). */
int32_t fk_mmod_detector_detect(fk_mmod_detector *detector, const fk_image *image, float threshold,
                                int32_t levels, fk_detection *out, int32_t capacity, int32_t *count,
                                fk_error *error);

/* ---- Patch classification ---------------------------------------------------------------------
 * A small ONNX network over square grey patches, run through OpenCV's DNN module: the eye-state
 * model (open or closed), which FaceKit ships in its BundledModels. The network takes a batch of
 * N x 1 x side x side float patches and gives one logit per patch. Each patch is standardised
 * before the pass, as in training: its mean grey level subtracted, then divided by its standard
 * deviation (at least 4 grey levels, so that a flat patch is not amplified into noise).
 *
 * Thread safety: an fk_patch_classifier may not be shared between threads (cv::dnn::Net keeps its
 * activations); use one per thread. It is small (a few hundred kB).
 */
typedef struct fk_patch_classifier fk_patch_classifier;

/* Loads the ONNX file at model_path for patches of side x side pixels (8 ... 256) and runs it once
 * on a blank patch. The file must name its graph graph_name (ONNX's GraphProto.name, such as
 * "facekit_eye_state"): networks of the same shapes are told apart by it before use. Fails with
 * FK_MODEL_UNAVAILABLE, naming the path, when the file is missing, unreadable, not ONNX, names its
 * graph otherwise, takes another input size, or gives more than one output per patch. On success
 * *out owns a new handle, to be released with fk_patch_classifier_free. */
int32_t fk_patch_classifier_create(const char *model_path, const char *graph_name, int32_t side,
                                   fk_patch_classifier **out, fk_error *error);

void fk_patch_classifier_free(fk_patch_classifier *classifier);

/* Runs the network on count (1 ... 4096) patches, packed one after the other in patches (count x
 * side x side bytes, rows packed), and writes one logit per patch to logits (count floats). */
int32_t fk_patch_classifier_run(fk_patch_classifier *classifier, const uint8_t *patches, int32_t count,
                                float *logits, fk_error *error);

/* ---- Point tracking between frames ------------------------------------------------------------
 * Pyramidal Lucas-Kanade optical flow (OpenCV's calcOpticalFlowPyrLK) from one frame to the next,
 * checked forward and backward: each point is followed into the new frame, then back, and its
 * forward-backward error is the distance between where it started and where it came back to
 * (Kalal, Mikolajczyk and Matas, "Forward-Backward Error", ICPR 2010). A point followed
 * correctly comes back to within a pixel or so; one that slid onto other texture, was covered or
 * left the picture does not.
 *
 * An fk_point_tracker keeps the grey image pyramid (with its derivatives) of the last frame
 * given, so each frame is converted, pyramided and differentiated once. A frame may be followed reduced (the points are scaled in and
 * out): the caller chooses by how much, from the size of the smallest face it follows.
 *
 * Thread safety: an fk_point_tracker may not be shared between threads; use one per video.
 */
typedef struct fk_point_tracker fk_point_tracker;

/* window: the side of the square search window in pixels (odd, 5 ... 63); levels: pyramid levels
 * above the frame itself (0 ... 6). */
int32_t fk_point_tracker_create(int32_t window, int32_t levels, fk_point_tracker **out,
                                fk_error *error);

void fk_point_tracker_free(fk_point_tracker *tracker);

/* Makes frame the tracker's current frame; the current one becomes the previous one. The frame
 * is followed reduced by `reduction` (1 ... 64: 1 is full size, 2 half the width and height;
 * powers of two are the fastest). Frames of a different size or reduction than the previous
 * one are accepted (the tracker then has no previous frame). */
int32_t fk_point_tracker_push_frame(fk_point_tracker *tracker, const fk_image *frame,
                                    int32_t reduction, fk_error *error);

/* Follows count points (pixels of the previous frame, finite) into the current frame: out[i]
 * receives the new position and fb_error[i] the forward-backward error in pixels of the frame,
 * or -1 when the point could not be followed (lost in either direction). Fails with
 * FK_INVALID_ARGUMENT when the tracker has no previous frame of the current frame's size.
 * count may be 0. out and fb_error are left untouched on failure. */
int32_t fk_point_tracker_follow(fk_point_tracker *tracker, const fk_point *points, int32_t count,
                                fk_point *out, float *fb_error, fk_error *error);

/* ---- Shape predictor ------------------------------------------------------------------------
 * dlib's shape_predictor (an ensemble of regression trees), for example the 68-point model.
 */
typedef struct fk_shape_predictor fk_shape_predictor;

/* Reads the model at model_path (dlib's serialization of a shape_predictor). cache_folder, when
 * not NULL, is a folder of flat copies of models (FaceKit's model cache, which the shim keeps):
 * the copy of this model's content is mapped instead of reading the model when it is there and
 * sound (its checksum, every count and offset), otherwise made there (a hidden file, then
 * renamed) once the model is read. Copies are named after the model file's name and the checksum
 * of its content, `<name>-<16 hex digits>.flat`; `<name>.index` remembers the last 8 model files
 * seen (size, device, inode, modification time) with that checksum, so that a start need not read
 * the model, and copies no remembered file needs are removed. Trouble with the copy is never an
 * error: the model is then read as without one, and the points are the same either way. A copy
 * cut short while mapped, or that places a point at no finite position, is dropped while in use:
 * the model file is read again (the message "facekit: the model cache <copy> <why>; reading
 * <model> again" on standard error, once) and the points are the model's. Installs a SIGBUS
 * handler for that, which passes every other fault on to the handler before it. */
int32_t fk_shape_predictor_create(const char *model_path, const char *cache_folder, fk_shape_predictor **out,
                                  fk_error *error);

/* fk_shape_predictor_create with the points placed on `path` (an fk_kernel_path): FaceKit's flat
 * trees (cache_folder used) or dlib's own shape_predictor read by dlib (cache_folder ignored),
 * the reference. fk_shape_predictor_create is this with FK_PATH_FROM_ENVIRONMENT. */
int32_t fk_shape_predictor_create_on_path(const char *model_path, const char *cache_folder, int32_t path,
                                          fk_shape_predictor **out, fk_error *error);

void fk_shape_predictor_free(fk_shape_predictor *predictor);

/* Number of points the model places (68 for the iBUG 300-W model). */
int32_t fk_shape_predictor_point_count(const fk_shape_predictor *predictor, int32_t *count,
                                       fk_error *error);

/* Places the model's points in each of the box_count boxes: box i's points at out[i * points ...],
 * where points is the model's point count (fk_shape_predictor_point_count). capacity (in points)
 * must be at least box_count * points. Several boxes are placed in parallel on OpenCV's thread
 * pool. box_count may be 0; out is left untouched on failure. Fails with FK_MODEL_UNAVAILABLE when
 * the model file places a point at no finite position (damaged leaves), or when it cannot be read
 * again after its flat copy failed (fk_shape_predictor_create). */
int32_t fk_shape_predictor_predict(const fk_shape_predictor *predictor, const fk_image *image,
                                   const fk_rect *boxes, int32_t box_count, fk_point *out,
                                   int32_t capacity, fk_error *error);

/* ---- Head pose ------------------------------------------------------------------------------
 * Solves for the rotation of a rigid 3D mean face that projects onto the given 2D points
 * (OpenCV's solvePnP: iterative from an upright face and, where SQPnP accepts the points, SQPnP
 * refined by Levenberg-Marquardt; the better fit kept), with a pinhole camera of focal_length
 * pixels (> 0) whose centre is the image centre.
 *
 * model_points: count points in the face's own frame (x toward the image's right for a frontal
 * face, y down, z away from the camera), any unit. image_points: the same count of pixels.
 * rotation: row-major 3x3 matrix taking face-frame vectors into the camera frame (x right,
 * y down, z forward). translation: the face origin in the camera frame, in model units. */
typedef struct fk_pose {
    double rotation[9];
    double translation[3];
} fk_pose;

int32_t fk_solve_pose(const float *model_points_xyz, const fk_point *image_points, int32_t count,
                      int32_t image_width, int32_t image_height, double focal_length, fk_pose *out,
                      fk_error *error);

/* ---- Video ----------------------------------------------------------------------------------
 * Sequential frame reading on FFmpeg's libavformat and libavcodec (MP4/H.264, MOV/HEVC, AVI/MPEG-4,
 * MPEG-TS, Matroska, WebM, ...), decoded and converted to BGR as OpenCV's FFmpeg backend does it
 * (the same bytes). Frames come out upright: quarter and half turns of the rotation metadata are
 * applied. Timestamps are the container's presentation times (edit lists applied).
 * An fk_video may not be shared between threads (but for fk_video_interrupt). Each open fk_video keeps a thread of its own that
 * decodes the next frame while the caller works on the current one.
 */
typedef struct fk_video fk_video;

typedef struct fk_video_info {
    int32_t width;         /* of the upright frames as the stream opens (a stream may change its
                              resolution on the way: each frame comes at its own size) */
    int32_t height;
    double fps;            /* as the container declares; 0 when unknown */
    int64_t frame_count;   /* as the container declares; an estimate, 0 when unknown */
    double duration_ms;    /* the container's duration, its edit lists applied; 0 when unknown */
} fk_video_info;

/* Opens the file at path; fails with FK_FILE_UNREADABLE (missing, not a regular file such as a
 * folder or a named pipe, no permission; checked without blocking, before FFmpeg opens it),
 * FK_NOT_A_VIDEO (empty, no video stream, or no frame can be decoded) or, when max_pixels is
 * positive, FK_IMAGE_TOO_LARGE (frames of more pixels than that, before any is decoded; a later
 * frame of more, in a stream whose size changes, is not decoded and reads as damaged). 0: no
 * limit. */
int32_t fk_video_open(const char *path, int64_t max_pixels, fk_video **out, fk_error *error);

/* What fk_video_open_live opens. */
typedef enum fk_live_kind {
    FK_LIVE_STANDARD_INPUT = 0, /* file descriptor 0, as FFmpeg's pipe:0 (MPEG-TS, Matroska, ...) */
    FK_LIVE_URL = 1,            /* a stream URL FFmpeg opens: udp://, rtsp://, http(s)://, ... */
    FK_LIVE_DEVICE = 2,         /* a V4L2 camera, /dev/video* */
} fk_live_kind;

/* Opens a live source. open_timeout_ms bounds the wait for a stream to open (FFmpeg sources),
 * timeout_ms each wait for the next frame: fk_video_next reports the end after a wait that long,
 * and fk_video_get_end then says FK_VIDEO_END_STALLED. frame_count is 0; timestamps are the
 * stream's own. Fails with FK_NOT_A_VIDEO when the source cannot be opened in time; max_pixels as for
 * fk_video_open. */
int32_t fk_video_open_live(const char *source, int32_t kind, int32_t timeout_ms, int32_t open_timeout_ms,
                           int64_t max_pixels, fk_video **out, fk_error *error);

/* Why fk_video_next reported the end. */
typedef enum fk_video_end {
    FK_VIDEO_END_OF_STREAM = 0, /* the data ended, or stopped decoding */
    FK_VIDEO_END_STALLED = 1,   /* a live source sent nothing for its timeout */
    FK_VIDEO_END_INTERRUPTED = 2, /* fk_video_interrupt was called */
} fk_video_end;

/* Makes the next (or the current, blocked) fk_video_next report the end at once, with
 * FK_VIDEO_END_INTERRUPTED. The only fk_video call that is safe from another thread. */
int32_t fk_video_interrupt(fk_video *video, fk_error *error);

/* The frames read so far that FFmpeg could not decode cleanly: frames its decoder flagged
 * (damage concealed as grey or smeared areas, missing references), packets it refused, or errors
 * it logged for this video since the frame before: how many, the first's and the last's index
 * (-1 when none). Its decoding threads run a frame or two ahead, so logged errors may name the
 * frames around the damaged one. */
int32_t fk_video_get_damage(const fk_video *video, int64_t *frames, int64_t *first, int64_t *last,
                            fk_error *error);

/* Why the video ended (FK_VIDEO_END_OF_STREAM before it has). */
int32_t fk_video_get_end(const fk_video *video, fk_video_end *out, fk_error *error);

void fk_video_free(fk_video *video);

int32_t fk_video_get_info(const fk_video *video, fk_video_info *out, fk_error *error);

/* Advances by one frame. When decode is non-zero the frame is decoded into *frame (a new image,
 * to be released with fk_image_free); otherwise it is only skipped, which is much cheaper.
 * *index receives the 0-based frame index and *timestamp_ms its presentation time. A frame
 * comes at its own size: after a resolution change in the stream (legal in broadcast and adaptive
 * streams) that is not fk_video_info's, and it is not damage (fk_video_get_damage).
 * At the end of the stream, or when the data stops decoding, *frame is NULL and *ended is 1
 * (compare the last index with fk_video_info.frame_count to tell the two apart); *index and
 * *timestamp_ms are then left as they were. frame may be NULL when decode is 0. On failure no
 * out-parameter is written. */
int32_t fk_video_next(fk_video *video, int32_t decode, fk_image **frame, int64_t *index,
                      double *timestamp_ms, int32_t *ended, fk_error *error);

/* ---- Face descriptor ------------------------------------------------------------------------
 * dlib's ResNet face descriptor (dlib_face_recognition_resnet_model_v1.dat, as in dlib's
 * dnn_face_recognition_ex.cpp): maps an aligned 150x150 face chip to 128 numbers such that two
 * photos of the same person lie closer than about 0.6 (Euclidean), two people further apart.
 *
 * Thread safety: an fk_face_descriptor may NOT be shared between threads: dlib's network keeps
 * its activations in the object (its operator() is not const). Use one handle per thread.
 */
typedef struct fk_face_descriptor fk_face_descriptor;

/* Number of values fk_face_descriptor_compute writes. */
#define FK_FACE_DESCRIPTOR_LENGTH 128

/* Loads the network from model_path. Fails with FK_MODEL_UNAVAILABLE when the file is missing
 * or is not this network. On success *out owns a new handle, to be released with
 * fk_face_descriptor_free. */
int32_t fk_face_descriptor_create(const char *model_path, fk_face_descriptor **out,
                                  fk_error *error);

/* fk_face_descriptor_create with the convolutions on `path` (an fk_kernel_path):
 * descriptor_conv.hpp's or dlib's own con_ layer, the reference (the same bits at one BLAS
 * thread). fk_face_descriptor_create is this with FK_PATH_FROM_ENVIRONMENT; a copy keeps its
 * source's path. */
int32_t fk_face_descriptor_create_on_path(const char *model_path, int32_t path, fk_face_descriptor **out,
                                          fk_error *error);

/* A second handle on the same network as source, for another thread: a copy of its weights,
 * without parsing the file again. source must not be computing meanwhile.
 * On success *out owns a new handle, to be released with fk_face_descriptor_free. */
int32_t fk_face_descriptor_copy(const fk_face_descriptor *source, fk_face_descriptor **out, fk_error *error);

void fk_face_descriptor_free(fk_face_descriptor *descriptor);

/* Computes the descriptor of the face whose landmarks are points: count must be 68 (iBUG 300-W
 * order, fk_shape_predictor_predict with the 68-point model) or 5 (dlib's 5-point model), in
 * pixels of image. The face is cut out as dlib's get_face_chip_details(shape, 150, 0.25) says
 * (rotated, scaled and centred on the points; parts outside the image are black), then run
 * through the network. The points must be finite and not all (nearly) the same; otherwise
 * FK_INVALID_ARGUMENT. out receives FK_FACE_DESCRIPTOR_LENGTH floats; on failure it is left
 * untouched. points and out are only used during the call. */
int32_t fk_face_descriptor_compute(fk_face_descriptor *descriptor, const fk_image *image,
                                   const fk_point *points, int32_t count,
                                   float out[FK_FACE_DESCRIPTOR_LENGTH], fk_error *error);

/* ---- Image output ---------------------------------------------------------------------------
 * Getting pixels and encoded files out of an fk_image. Both functions only read the image, so
 * they may run on an image shared between threads.
 */

/* Copies the image's pixels into out in the given layout (fk_pixel_format; RGBA and BGRA get
 * alpha 255), rows top first, bytes_per_row bytes apart (at least width times the layout's
 * bytes per pixel). capacity is out's size in bytes and must hold
 * bytes_per_row * (height - 1) + width * bytes per pixel; otherwise FK_INVALID_ARGUMENT and out
 * is not touched. */
int32_t fk_image_copy_pixels(const fk_image *image, int32_t format, uint8_t *out, size_t capacity,
                             int32_t bytes_per_row, fk_error *error);

/* Samples a width x height grey patch of the image: patch pixel (x, y) (pixel centres, origin
 * top left) takes the bilinearly interpolated grey value at image point
 * (a[0] x + a[1] y + a[2], a[3] x + a[4] y + a[5]); points outside the image take the nearest
 * edge pixel. For appearance features of a part of a face (an eye, aligned by its corners).
 * width and height must be 1 ... 1024 and capacity at least width * height; rows are packed. */
int32_t fk_image_sample_gray(const fk_image *image, const float affine[6], int32_t width, int32_t height,
                             uint8_t *out, size_t capacity, fk_error *error);

/* Cuts region out of the image (image pixels; clipped to the image, and must keep at least one
 * pixel) and scales it to width x height (1 ... 8192 each) into a new image: by pixel area when
 * shrinking, which keeps thin lines and avoids aliasing, bilinearly when enlarging. For
 * thumbnails and face crops. On success *out owns a new image, to be released with
 * fk_image_free; on failure it is left untouched. */
int32_t fk_image_resize(const fk_image *image, fk_rect region, int32_t width, int32_t height, fk_image **out,
                        fk_error *error);

/* Makes *out a new width x height colour image whose pixel (x, y) takes the bilinearly
 * interpolated colour at image point (a[0] x + a[1] y + a[2], a[3] x + a[4] y + a[5]); points
 * outside the image are the grey level border (0 ... 255: 0 is black). For an upright crop of a face (rotated, scaled and centred).
 * width and height must be 1 ... 4096 and the affine finite; otherwise FK_INVALID_ARGUMENT. On
 * success *out owns the new image, to be released with fk_image_free. */
int32_t fk_image_warp(const fk_image *image, const float affine[6], int32_t width, int32_t height,
                      int32_t border, fk_image **out, fk_error *error);

/* Encodes the image in the format file_extension names, with or without its dot: "png", "jpg"
 * ("jpeg", "jpe"), "bmp" ("dib"), "tif" ("tiff") or "webp", any case. quality (1 ... 100) sets
 * JPEG's and WebP's quality; PNG, BMP and TIFF are lossless and ignore it. An unknown extension
 * or a quality out of range fails with FK_INVALID_ARGUMENT.
 * On success *bytes points to *count bytes allocated by the shim, to be released with
 * fk_bytes_free; on failure both are left untouched. */
int32_t fk_image_encode(const fk_image *image, const char *file_extension, int32_t quality,
                        uint8_t **bytes, size_t *count, fk_error *error);

/* Releases bytes returned by fk_image_encode. fk_bytes_free(NULL) is a no-op. */
void fk_bytes_free(uint8_t *bytes);

/* ---- Drawing --------------------------------------------------------------------------------
 * An fk_canvas is a private copy of an fk_image to draw on. It draws primitives only (polylines,
 * circles, filled rectangles, text), antialiased, in the image's pixel coordinates (origin
 * top-left, x right, y down, fractions kept to 1/16 pixel); what to draw, where and in which
 * colour is the caller's policy. Anything outside the image is clipped, which is not an error.
 * The image the canvas was made from is never changed: fk_canvas_copy_image gives the result.
 *
 * Thread safety: an fk_canvas may not be shared between threads. fk_text_measure may be called
 * from any thread.
 */
typedef struct fk_canvas fk_canvas;

typedef struct fk_color {
    uint8_t red;
    uint8_t green;
    uint8_t blue;
} fk_color;

/* How a line, a circle or text is drawn: in color, width pixels wide (rounded to a whole number,
 * at least 1), over an outline that extends outline_width pixels beyond it on each side in
 * outline_color, so that the line reads on light and dark pictures alike. outline_width 0 draws
 * no outline. Widths must be finite and not negative. */
typedef struct fk_stroke {
    fk_color color;
    float width;
    fk_color outline_color;
    float outline_width;
} fk_stroke;

/* The size of a line of text as fk_canvas_draw_text draws it, in pixels: ascent above the
 * baseline (the tallest glyph and half the stroke), descent below it (descenders such as 'g'). */
typedef struct fk_text_extent {
    float width;
    float ascent;
    float descent;
} fk_text_extent;

/* Copies image into a new canvas. On success *out owns it, to be released with fk_canvas_free. */
int32_t fk_canvas_create(const fk_image *image, fk_canvas **out, fk_error *error);

void fk_canvas_free(fk_canvas *canvas);

/* Width and height in pixels. */
int32_t fk_canvas_get_size(const fk_canvas *canvas, int32_t *width, int32_t *height,
                           fk_error *error);

/* Draws count points (at least 2; a line is 2) joined by straight segments, and the segment
 * from the last back to the first when closed is non-zero. Points must be finite. */
int32_t fk_canvas_draw_polyline(fk_canvas *canvas, const fk_point *points, int32_t count,
                                int32_t closed, fk_stroke stroke, fk_error *error);

/* Draws a circle of radius pixels (finite, > 0) around center: a ring of stroke.width, or, when
 * filled is non-zero, a disc in stroke.color ringed by the outline. */
int32_t fk_canvas_draw_circle(fk_canvas *canvas, fk_point center, float radius, int32_t filled,
                              fk_stroke stroke, fk_error *error);

/* Fills rect (finite, width and height not negative) with color, opaque. */
int32_t fk_canvas_fill_rect(fk_canvas *canvas, fk_rect rect, fk_color color, fk_error *error);

/* Draws one line of text with its baseline starting at origin, in OpenCV's Hershey Simplex
 * font scaled so that capital letters are height pixels tall (finite, >= 1), strokes
 * stroke.width thick, outlined as stroke says. text is NUL-terminated; the font has ASCII
 * glyphs only, and other bytes are drawn as '?'. */
int32_t fk_canvas_draw_text(fk_canvas *canvas, const char *text, fk_point origin, float height,
                            fk_stroke stroke, fk_error *error);

/* The extent of text drawn by fk_canvas_draw_text with this height and stroke (the outline
 * included). */
int32_t fk_text_measure(const char *text, float height, fk_stroke stroke, fk_text_extent *out,
                        fk_error *error);

/* Copies the canvas's current pixels into a new image (*out, to be released with
 * fk_image_free); the canvas can still be drawn on afterwards. */
int32_t fk_canvas_copy_image(const fk_canvas *canvas, fk_image **out, fk_error *error);

/* ---- Video writing --------------------------------------------------------------------------
 * Writes frames into a new video file on FFmpeg's libavformat and libavcodec. The container
 * follows the path's extension (.mp4, .mov, .m4v, .mkv, .avi, .webm, ...); the codec is named by
 * a four-character code, looked up as OpenCV's writer looks it up: "avc1" (H.264, when FFmpeg has an H.264 encoder), "mp4v"
 * (MPEG-4 Part 2), "MJPG", "VP80", ... No audio is written.
 *
 * Thread safety: an fk_video_writer may not be shared between threads.
 */
typedef struct fk_video_writer fk_video_writer;

/* Creates (or replaces) the file at path for frames of width x height pixels (2 ... 16384 each:
 * the encoders keep colour at half resolution, so an odd width or height is written one pixel
 * smaller, leaving out the last column or row) shown fps times a second (finite, > 0), encoded
 * with the codec fourcc names (exactly 4 characters).
 * Fails with FK_FILE_UNWRITABLE when the file cannot be created (the message gives the system's
 * reason, or says a folder or a symbolic link is in the way: a link at path is never written
 * through), and with FK_INVALID_ARGUMENT for values out of range
 * or when FFmpeg cannot encode this codec into this container; a file created by a failed call
 * is removed. On success *out owns a new writer, to
 * be released with fk_video_writer_free.
 * FFmpeg's own messages are not printed. */
int32_t fk_video_writer_create(const char *path, const char *fourcc, double fps, int32_t width,
                               int32_t height, fk_video_writer **out, fk_error *error);

/* fk_video_writer_create for a file the caller has made and opened for writing: descriptor is
 * duplicated (the caller keeps and closes its own), truncated and written from its start, and
 * name only tells the container by its extension, as path does above; nothing is opened by
 * name. A caller that made the file in a folder it holds open (openat) so writes that very file,
 * whatever a link put in the folder's place meanwhile. On failure the file is left, empty, to
 * its caller. */
int32_t fk_video_writer_create_on_descriptor(int32_t descriptor, const char *name, const char *fourcc, double fps,
                                             int32_t width, int32_t height, fk_video_writer **out,
                                             fk_error *error);

/* Encodes frame as the next frame. Its size must be the writer's (FK_INVALID_ARGUMENT
 * otherwise). Fails with FK_FILE_UNWRITABLE when writing the encoded data fails (the system's
 * reason), and after fk_video_writer_finish. */
int32_t fk_video_writer_write(fk_video_writer *writer, const fk_image *frame, fk_error *error);

/* Flushes the encoder and completes the file (the container's index). Fails with
 * FK_FILE_UNWRITABLE when a write fails (the system's reason: a full disk, an I/O error) or the
 * file is then missing or empty, and with FK_INTERNAL when the encoder fails. Calling it again
 * does nothing. */
int32_t fk_video_writer_finish(fk_video_writer *writer, fk_error *error);

/* Finishes the file if fk_video_writer_finish was not called (without reporting failures), then
 * releases the writer. */
void fk_video_writer_free(fk_video_writer *writer);

/* ---- BLAS threads ---------------------------------------------------------------------------
 * dlib's CNNs (the face descriptor; the tools' MMOD detector) multiply matrices through the
 * system BLAS, which scripts/setup makes OpenBLAS. OpenBLAS runs every call on as many threads
 * as there are cores, so N workers each running a CNN ask for N x cores threads. Its
 * OPENBLAS_NUM_THREADS variable is read when the library loads, too early for a program to set;
 * this sets the same number at run time.
 */

/* Makes OpenBLAS use threads (>= 1) threads for each call from now on, in the whole process,
 * through openblas_set_num_threads found with dlsym. Call it before workers start.
 * *in_use receives the number OpenBLAS reports afterwards (openblas_get_num_threads), or 0 when
 * the BLAS in the process is not OpenBLAS, which is then left as it is (the reference BLAS is
 * single-threaded anyway). */
int32_t fk_blas_set_threads(int32_t threads, int32_t *in_use, fk_error *error);

/* ---- The process's allocator -----------------------------------------------------------------
 * glibc's malloc returns every block of 32 MB or more (a decoded 12-megapixel photo) to the
 * system when it is freed, and the block of the next photo then arrives as fresh pages, each
 * zeroed by the kernel on its first touch: a tenth of the time of analysing a folder of
 * photos. Worker threads' own arenas do the same with any block that fills their 64 MB heap.
 */

/* Makes malloc keep what the process frees for its next allocations: one arena for every thread,
 * no block mapped apart below 1 GB, the heap never trimmed. Peak memory is unchanged; memory
 * freed after the peak stays with the process until it exits. For an executable that decodes
 * one large image after another (facekit analyze), never for a library's caller. Returns 1 when
 * the C library took the settings (glibc), 0 otherwise. Call it before threads start. */
int32_t fk_allocator_keep_freed_memory(void);

/* ---- Background threads ---------------------------------------------------------------------
 * Work that runs ahead of the thread a user waits on (decoding a file ahead, describing tracked
 * faces, face descriptors) has queues that let it fall behind for a while; on a machine whose
 * cores are all busy it should give way to that thread rather than share the cores equally.
 */

/* Lowers the calling thread's scheduling priority by steps (1 ... 19) nice levels, down to the
 * lowest (19), and returns the nice value it runs at afterwards. A thread that cannot be
 * lowered (a system that refuses) keeps its priority: the priority is a hint, not a result. */
int32_t fk_thread_lower_priority(int32_t steps);

/* Names the calling thread as ps, top, perf and gdb show it: the first 15 bytes of name (the
 * system keeps no more). A name the system refuses is left as it was. */
void fk_thread_set_name(const char *name);

/* ---- Face clustering ------------------------------------------------------------------------
 * Grouping faces into people: squared distances between descriptors through the system BLAS,
 * for a nearest-neighbour graph built by the caller, and dlib's chinese_whispers over that graph.
 * Both keep no state: they may run on several threads at once.
 */

/* Writes to out (a_count x b_count floats, row-major) the squared Euclidean distance between
 * every row of a (a_count rows of dimension floats, row-major) and every row of b, as
 * |a|^2 + |b|^2 - 2 a.b with one cblas_sgemm (rounding can make a distance slightly negative
 * near 0; it is written as 0). a_count, b_count and dimension must be at least 1, and a and b
 * must each hold fewer than 2^31 floats; otherwise FK_INVALID_ARGUMENT. The product runs on as
 * many threads as fk_blas_set_threads allows. */
int32_t fk_squared_distances(const float *a, int32_t a_count, const float *b, int32_t b_count,
                             int32_t dimension, float *out, fk_error *error);

/* One undirected edge of a graph between nodes 0..node_count-1, with a positive weight. */
typedef struct fk_graph_edge {
    int32_t a;
    int32_t b;
    float weight;
} fk_graph_edge;

/* Clusters the nodes 0..node_count-1 of the undirected graph given by edge_count edges with
 * dlib's chinese_whispers (iterations passes over the nodes, each node taking the label of the
 * greatest total edge weight among its neighbours; dlib's default random generator, so the same
 * graph always gives the same clusters). An edge from a node to itself counts as a vote for its
 * own label; a repeated edge counts twice. A node without edges is a cluster of its own.
 * labels receives node_count cluster numbers, 0 to *cluster_count - 1, numbered in order of
 * their first node. edges may be NULL when edge_count is 0, labels when node_count is 0. Fails with FK_INVALID_ARGUMENT when
 * node_count or edge_count is negative, iterations is not positive, or an edge names a node
 * outside 0..node_count-1 or has a weight that is not finite and positive. */
int32_t fk_chinese_whispers(const fk_graph_edge *edges, int64_t edge_count, int32_t node_count,
                            int32_t iterations, int32_t *labels, int32_t *cluster_count,
                            fk_error *error);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* CFACEKIT_H */

// Refining a head pose by Levenberg-Marquardt: what cv::solvePnP(SOLVEPNP_ITERATIVE) does from a
// guess, without its cost (pose_refinement.cpp).
#pragma once

#include <opencv2/core.hpp>

#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Moves rvec and tvec (a rotation vector and a translation) to where the projections of
/// `object` through a pinhole camera (focal length f, centre cx, cy; no distortion) best match
/// `projected`, in the least-squares sense, starting from the values given: OpenCV's iterative
/// refinement (cvFindExtrinsicCameraParams2 and its CvLevMarq), step for step, on fixed-size
/// arrays.
void refine_pose(const std::vector<cv::Point3d> &object, const std::vector<cv::Point2d> &projected, double f,
                 double cx, double cy, cv::Vec3d &rvec, cv::Vec3d &tvec);

}  // namespace fk

#pragma GCC visibility pop

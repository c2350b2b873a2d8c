// Head pose: the rotation of a rigid 3D mean face that best projects onto 2D landmarks.
#include "CFaceKit.h"
#include "guard.hpp"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

// An upright face in front of the camera, turned in the image plane as the points are and as
// far away as their spread says: the start for the iterative solver. Without it solvePnP starts
// from a linear estimate that, for a few faces in a thousand, lands in a mirrored minimum (a head
// rolled by 180 degrees).
void upright_guess(const std::vector<cv::Point3d> &object, const std::vector<cv::Point2d> &projected, double f,
                   double cx, double cy, cv::Vec3d &rvec, cv::Vec3d &tvec) {
    cv::Point3d model_mean(0, 0, 0);
    cv::Point2d image_mean(0, 0);
    for (size_t i = 0; i < object.size(); ++i) {
        model_mean += object[i];
        image_mean += projected[i];
    }
    model_mean *= 1.0 / object.size();
    image_mean *= 1.0 / object.size();
    double cross = 0, dot = 0, model_spread = 0, image_spread = 0;
    for (size_t i = 0; i < object.size(); ++i) {
        const double mx = object[i].x - model_mean.x, my = object[i].y - model_mean.y;
        const double px = projected[i].x - image_mean.x, py = projected[i].y - image_mean.y;
        cross += mx * py - my * px;
        dot += mx * px + my * py;
        model_spread += mx * mx + my * my;
        image_spread += px * px + py * py;
    }
    const double distance = f * std::sqrt(model_spread / std::max(image_spread, 1e-12));
    rvec = cv::Vec3d(0, 0, std::atan2(cross, dot));
    tvec = cv::Vec3d((image_mean.x - cx) * distance / f, (image_mean.y - cy) * distance / f, distance);
}

double reprojection_error(const std::vector<cv::Point3d> &object, const std::vector<cv::Point2d> &projected,
                          const cv::Matx33d &camera, const cv::Vec3d &rvec, const cv::Vec3d &tvec) {
    std::vector<cv::Point2d> reprojected;
    cv::projectPoints(object, rvec, tvec, camera, cv::noArray(), reprojected);
    double sum = 0;
    for (size_t i = 0; i < projected.size(); ++i) {
        const cv::Point2d d = reprojected[i] - projected[i];
        sum += d.dot(d);
    }
    return sum;
}

/// The angle of the rotation between two rotation vectors' rotations.
double degrees_between(const cv::Vec3d &a, const cv::Vec3d &b) {
    cv::Matx33d ra, rb;
    cv::Rodrigues(a, ra);
    cv::Rodrigues(b, rb);
    const double cosine = (cv::trace(ra.t() * rb) - 1) / 2;
    return std::acos(std::max(-1.0, std::min(1.0, cosine))) * 180 / M_PI;
}

/// SQPnP's unrefined answer lies within 3.2 degrees of the refined one (990 Helen shapes, at the
/// shipped and at a short focal length); a mirrored minimum, the failure the second start guards
/// against, is far further away.
constexpr double kSameBasinDegrees = 10;

}  // namespace

extern "C" int32_t fk_solve_pose(const float *model_points_xyz, const fk_point *image_points, int32_t count,
                                 int32_t image_width, int32_t image_height, double focal_length, fk_pose *out,
                                 fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_points_xyz != nullptr && image_points != nullptr && out != nullptr, "NULL argument");
        fk::require(count >= 6, "solvePnP needs at least 6 points");
        fk::require(image_width > 0 && image_height > 0, "image size must be positive");
        fk::require(focal_length > 0 && std::isfinite(focal_length), "focal length must be positive");
        std::vector<cv::Point3d> object;
        std::vector<cv::Point2d> projected;
        for (int32_t i = 0; i < count; ++i) {
            object.emplace_back(model_points_xyz[3 * i], model_points_xyz[3 * i + 1], model_points_xyz[3 * i + 2]);
            projected.emplace_back(image_points[i].x, image_points[i].y);
        }
        const double f = focal_length, cx = image_width / 2.0, cy = image_height / 2.0;
        cv::Matx33d camera(f, 0, cx, 0, f, cy, 0, 0, 1);
        // Two starts: iterative from an upright face, and SQPnP (a global search). SQPnP's own
        // answer only tells which basin the best fit lies in: within kSameBasinDegrees of the
        // iterative fit, that fit is the minimum SQPnP's would be refined to (on 990 Helen shapes
        // the two agreed to 0.0003 degrees), so the refinement, 40% of the solve's time, is
        // skipped. Otherwise SQPnP's answer is refined by Levenberg-Marquardt and the better fit
        // kept. That has not happened yet (990 Helen shapes; 10,478 poses up to 86 degrees of yaw
        // and pitch, projected with 2 px of noise): the check stays, at about 65 us a face where
        // SQPnP runs (5 December; it refuses faces narrower than about a seventh of the image), because a
        // mirrored minimum turns a head upside down.
        cv::Vec3d rvec, tvec;
        upright_guess(object, projected, f, cx, cy, rvec, tvec);
        cv::solvePnP(object, projected, camera, cv::noArray(), rvec, tvec, true, cv::SOLVEPNP_ITERATIVE);
        const bool found = tvec[2] > 0;
        cv::Vec3d global_rvec, global_tvec;
        bool global_found = false;
        try {
            global_found = cv::solvePnP(object, projected, camera, cv::noArray(), global_rvec, global_tvec, false,
                                        cv::SOLVEPNP_SQPNP);
        } catch (const cv::Exception &) {
            // SQPnP refuses points whose spread, in focal lengths, is tiny (a small face through a
            // long lens): the iterative solution stands alone.
        }
        bool global_better = false;
        if (global_found && !(found && degrees_between(rvec, global_rvec) < kSameBasinDegrees)) {
            cv::solvePnPRefineLM(object, projected, camera, cv::noArray(), global_rvec, global_tvec);
            global_better = global_tvec[2] > 0 &&
                (!found || reprojection_error(object, projected, camera, global_rvec, global_tvec) <
                               reprojection_error(object, projected, camera, rvec, tvec));
        }
        if (global_better) {
            rvec = global_rvec;
            tvec = global_tvec;
        } else if (!found) {
            throw fk::failure(FK_INTERNAL, "solvePnP found no pose");
        }
        cv::Matx33d rotation;
        cv::Rodrigues(rvec, rotation);
        for (int i = 0; i < 9; ++i) out->rotation[i] = rotation.val[i];
        for (int i = 0; i < 3; ++i) out->translation[i] = tvec[i];
    });
}

#pragma GCC visibility pop

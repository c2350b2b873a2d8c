// Head pose: the rotation of a rigid 3D mean face that best projects onto 2D landmarks.
#include "CFaceKit.h"
#include "guard.hpp"

#include <opencv2/calib3d.hpp>

#include <vector>

extern "C" int32_t fk_solve_pose(const float *model_points_xyz, const fk_point *image_points, int32_t count,
                                 int32_t image_width, int32_t image_height, fk_pose *out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_points_xyz != nullptr && image_points != nullptr && out != nullptr, "NULL argument");
        fk::require(count >= 6, "solvePnP needs at least 6 points");
        fk::require(image_width > 0 && image_height > 0, "image size must be positive");
        std::vector<cv::Point3d> object;
        std::vector<cv::Point2d> projected;
        for (int32_t i = 0; i < count; ++i) {
            object.emplace_back(model_points_xyz[3 * i], model_points_xyz[3 * i + 1], model_points_xyz[3 * i + 2]);
            projected.emplace_back(image_points[i].x, image_points[i].y);
        }
        const double f = image_width;
        cv::Matx33d camera(f, 0, image_width / 2.0, 0, f, image_height / 2.0, 0, 0, 1);
        cv::Vec3d rvec, tvec;
        if (!cv::solvePnP(object, projected, camera, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_ITERATIVE))
            throw fk::failure(FK_INTERNAL, "solvePnP found no pose");
        cv::Matx33d rotation;
        cv::Rodrigues(rvec, rotation);
        for (int i = 0; i < 9; ++i) out->rotation[i] = rotation.val[i];
        for (int i = 0; i < 3; ++i) out->translation[i] = tvec[i];
    });
}

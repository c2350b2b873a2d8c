// The head pose's refinement (pose_refinement.cpp) against cv::solvePnP(SOLVEPNP_ITERATIVE) from
// the same guesses: time per solve and the largest angle between their answers, over random poses
// of a made-up rigid 68-point face (yaw up to 80 degrees, roll all round), 0.2-4 px of noise, at a
// focal length of one and of sixteen image widths. Run by scripts/benchmark-native pose.
#include "pose_refinement.hpp"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

/// A rigid face of 68 points, roughly face-shaped: the solvers are compared, not the model.
std::vector<cv::Point3d> face() {
    std::vector<cv::Point3d> points;
    for (int i = 0; i < 68; ++i) {
        const double a = i * 0.37;
        points.emplace_back(7 * std::sin(a), 7 * std::cos(1.3 * a), 2 * std::sin(2.1 * a) - (i >= 27 && i < 36 ? 3 : 0));
    }
    return points;
}

double degrees_between(const cv::Vec3d &a, const cv::Vec3d &b) {
    cv::Matx33d ra, rb;
    cv::Rodrigues(a, ra);
    cv::Rodrigues(b, rb);
    return std::acos(std::clamp((cv::trace(ra.t() * rb) - 1) / 2, -1.0, 1.0)) * 180 / M_PI;
}

}  // namespace

int main() {
    const std::vector<cv::Point3d> object = face();
    std::mt19937 random(7);
    std::uniform_real_distribution<double> yaw(-1.4, 1.4), pitch(-0.8, 0.8), roll(-3.1, 3.1), noise_sd(0.2, 4);
    std::normal_distribution<double> normal(0, 1);
    for (double f : {640.0, 10240.0}) {
        const double cx = 320, cy = 180;
        const cv::Matx33d camera(f, 0, cx, 0, f, cy, 0, 0, 1);
        struct problem {
            std::vector<cv::Point2d> projected;
            cv::Vec3d rvec, tvec;  // the guess
        };
        std::vector<problem> problems;
        for (int n = 0; n < 20000; ++n) {
            cv::Vec3d rotation(pitch(random), yaw(random), roll(random));
            std::uniform_real_distribution<double> distance(30, f / 2);
            const double z = distance(random);
            const cv::Vec3d translation(normal(random) * z * 0.2, normal(random) * z * 0.1, z);
            problem p;
            cv::projectPoints(object, rotation, translation, camera, cv::noArray(), p.projected);
            const double sd = noise_sd(random);
            for (auto &q : p.projected) q += cv::Point2d(sd * normal(random), sd * normal(random));
            // FaceKit starts from an upright face at the right roll and distance; a guess off
            // by a few tenths of a radian in each angle is a harder start than that.
            p.rvec = rotation + cv::Vec3d(0.3 * normal(random), 0.3 * normal(random), 0.1 * normal(random));
            p.tvec = translation * (1 + 0.1 * normal(random));
            problems.push_back(p);
        }
        std::vector<cv::Vec3d> ours(problems.size()), theirs(problems.size());
        auto time = [&](auto solve) {
            const auto start = std::chrono::steady_clock::now();
            for (size_t i = 0; i < problems.size(); ++i) solve(i);
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 1e6 /
                   double(problems.size());
        };
        double mine = 1e9, opencv = 1e9;
        for (int round = 0; round < 3; ++round) {
            mine = std::min(mine, time([&](size_t i) {
                cv::Vec3d r = problems[i].rvec, t = problems[i].tvec;
                fk::refine_pose(object, problems[i].projected, f, cx, cy, r, t);
                ours[i] = r;
            }));
            opencv = std::min(opencv, time([&](size_t i) {
                cv::Vec3d r = problems[i].rvec, t = problems[i].tvec;
                cv::solvePnP(object, problems[i].projected, camera, cv::noArray(), r, t, true, cv::SOLVEPNP_ITERATIVE);
                theirs[i] = r;
            }));
        }
        std::vector<double> apart;
        for (size_t i = 0; i < problems.size(); ++i) apart.push_back(degrees_between(ours[i], theirs[i]));
        std::sort(apart.begin(), apart.end());
        std::printf("focal length %5.0f px, %zu poses: fk::refine_pose %.1f us, cv::solvePnP %.1f us; apart: median %.1e, "
                    "99th percentile %.1e, largest %.1e degrees\n",
                    f, problems.size(), mine, opencv, apart[apart.size() / 2], apart[apart.size() * 99 / 100],
                    apart.back());
    }
}

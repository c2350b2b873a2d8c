// Levenberg-Marquardt over a rotation vector and a translation, as OpenCV's solvePnP runs it from
// a guess (SOLVEPNP_ITERATIVE: cvFindExtrinsicCameraParams2 and CvLevMarq in calib3d). OpenCV's
// goes through its C matrix API, allocating and converting at every step and projecting through
// its general projectPoints (distortion, aspect ratio, Jacobians by every parameter): about
// 100 us of the 160 us a head pose took. Here the same steps run on fixed-size arrays in about a
// tenth of that. The steps are OpenCV's: JtJ's diagonal scaled by 1 + lambda; lambda from 1e-3,
// ten times smaller after a step that lowers the error, ten times larger (retrying from the same
// point) after one that raises it; at most 20 steps; done once a step moves the parameters by less
// than FLT_EPSILON of their length. Each 6x6 system is solved by Cholesky where OpenCV uses an
// SVD, so the answers agree to rounding, not to the bit: within 1e-5 degrees on 40,000 random
// poses (scripts/benchmark-pose).
#include "pose_refinement.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

namespace {

/// R (row-major) and dR/dr (row k: the derivative of R's nine entries by r[k]) for the rotation
/// vector r: Rodrigues' formula, differentiated as cv::Rodrigues does.
void rotation(const double *r, double *R, double *dR) {
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    // d[r]x/dr: the cross-product matrix's derivative by each component.
    static const double d_cross[27] = {0, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0,
                                       0, -1, 0, 1, 0, 0, 0, 0, 0};
    const double theta = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    if (theta < DBL_EPSILON) {
        std::copy(identity, identity + 9, R);
        std::copy(d_cross, d_cross + 27, dR);
        return;
    }
    const double c = std::cos(theta), s = std::sin(theta), c1 = 1 - c, itheta = 1 / theta;
    const double x = r[0] * itheta, y = r[1] * itheta, z = r[2] * itheta;
    const double rrt[9] = {x * x, x * y, x * z, x * y, y * y, y * z, x * z, y * z, z * z};
    const double cross[9] = {0, -z, y, z, 0, -x, -y, x, 0};
    for (int k = 0; k < 9; ++k) R[k] = c * identity[k] + c1 * rrt[k] + s * cross[k];
    const double d_rrt[27] = {x + x, y, z, y, 0, 0, z, 0, 0, 0, x, 0, x, y + y, z, 0, z, 0, 0, 0, x, 0, 0, y, x, y, z + z};
    const double unit[3] = {x, y, z};
    for (int i = 0; i < 3; ++i) {
        const double a0 = -s * unit[i], a1 = (s - 2 * c1 * itheta) * unit[i], a2 = c1 * itheta,
                     a3 = (c - s * itheta) * unit[i], a4 = s * itheta;
        for (int k = 0; k < 9; ++k)
            dR[i * 9 + k] = a0 * identity[k] + a1 * rrt[k] + a2 * d_rrt[i * 9 + k] + a3 * cross[k] + a4 * d_cross[i * 9 + k];
    }
}

class problem {
  public:
    problem(const std::vector<cv::Point3d> &object, const std::vector<cv::Point2d> &projected, double f, double cx,
            double cy)
        : object_(object), projected_(projected), f_(f), cx_(cx), cy_(cy) {}

    /// JtJ and Jt e at param (rotation vector, translation), e being the projections less the
    /// image points; returns |e|.
    double normal_equations(const double *param, double *jtj, double *jte) const {
        double R[9], dR[27];
        rotation(param, R, dR);
        std::fill(jtj, jtj + 36, 0.0);
        std::fill(jte, jte + 6, 0.0);
        double sum = 0;
        for (size_t i = 0; i < object_.size(); ++i) {
            const cv::Point3d &X = object_[i];
            double Y[3], e[2];
            project(R, param + 3, i, Y, e);
            const double iz = Y[2] != 0 ? 1 / Y[2] : 1;
            // The projection's derivative by Y, then through Y = R X + t.
            const double dx[3] = {f_ * iz, 0, -f_ * Y[0] * iz * iz}, dy[3] = {0, f_ * iz, -f_ * Y[1] * iz * iz};
            double J[2][6];
            for (int k = 0; k < 3; ++k) {
                const double *d = dR + 9 * k;
                const double dY[3] = {d[0] * X.x + d[1] * X.y + d[2] * X.z, d[3] * X.x + d[4] * X.y + d[5] * X.z,
                                      d[6] * X.x + d[7] * X.y + d[8] * X.z};
                J[0][k] = dx[0] * dY[0] + dx[1] * dY[1] + dx[2] * dY[2];
                J[1][k] = dy[0] * dY[0] + dy[1] * dY[1] + dy[2] * dY[2];
                J[0][3 + k] = dx[k];
                J[1][3 + k] = dy[k];
            }
            for (int row = 0; row < 2; ++row) {
                for (int a = 0; a < 6; ++a) {
                    jte[a] += J[row][a] * e[row];
                    for (int b = a; b < 6; ++b) jtj[a * 6 + b] += J[row][a] * J[row][b];
                }
                sum += e[row] * e[row];
            }
        }
        for (int a = 0; a < 6; ++a)
            for (int b = 0; b < a; ++b) jtj[a * 6 + b] = jtj[b * 6 + a];
        return std::sqrt(sum);
    }

    /// |e| at param.
    double residual(const double *param) const {
        double R[9], dR[27];
        rotation(param, R, dR);
        double sum = 0;
        for (size_t i = 0; i < object_.size(); ++i) {
            double Y[3], e[2];
            project(R, param + 3, i, Y, e);
            sum += e[0] * e[0] + e[1] * e[1];
        }
        return std::sqrt(sum);
    }

  private:
    /// Point i in the camera frame (Y) and its projection less the image point (e).
    void project(const double *R, const double *t, size_t i, double *Y, double *e) const {
        const cv::Point3d &X = object_[i];
        Y[0] = R[0] * X.x + R[1] * X.y + R[2] * X.z + t[0];
        Y[1] = R[3] * X.x + R[4] * X.y + R[5] * X.z + t[1];
        Y[2] = R[6] * X.x + R[7] * X.y + R[8] * X.z + t[2];
        const double iz = Y[2] != 0 ? 1 / Y[2] : 1;  // as cvProjectPoints2
        e[0] = f_ * Y[0] * iz + cx_ - projected_[i].x;
        e[1] = f_ * Y[1] * iz + cy_ - projected_[i].y;
    }

    const std::vector<cv::Point3d> &object_;
    const std::vector<cv::Point2d> &projected_;
    const double f_, cx_, cy_;
};

/// param = from - (JtJ, its diagonal times 1 + lambda)^-1 Jt e; false when that system is singular.
bool step(const double *from, const double *jtj, const double *jte, double lambda, double *param) {
    cv::Matx66d A(jtj);
    for (int i = 0; i < 6; ++i) A(i, i) *= 1 + lambda;
    cv::Vec6d x;
    if (!cv::solve(A, cv::Vec6d(jte), x, cv::DECOMP_CHOLESKY)) return false;
    for (int i = 0; i < 6; ++i) param[i] = from[i] - x[i];
    return true;
}

}  // namespace

void refine_pose(const std::vector<cv::Point3d> &object, const std::vector<cv::Point2d> &projected, double f,
                 double cx, double cy, cv::Vec3d &rvec, cv::Vec3d &tvec) {
    constexpr int max_steps = 20;
    const problem fit(object, projected, f, cx, cy);
    double param[6] = {rvec[0], rvec[1], rvec[2], tvec[0], tvec[1], tvec[2]}, previous[6], jtj[36], jte[6];
    int lambda_lg10 = -3;
    double previous_error = fit.normal_equations(param, jtj, jte);
    for (int steps = 1;; ++steps) {
        std::copy(param, param + 6, previous);
        // A step that raises the error is retried from the same point with a larger lambda, up
        // to 1e16; past that the last one stands, as in CvLevMarq.
        while (step(previous, jtj, jte, std::pow(10.0, lambda_lg10), param) &&
               fit.residual(param) > previous_error && ++lambda_lg10 <= 16) {
        }
        lambda_lg10 = std::max(lambda_lg10 - 1, -16);
        double moved = 0, length = 0;
        for (int i = 0; i < 6; ++i) {
            moved += (param[i] - previous[i]) * (param[i] - previous[i]);
            length += previous[i] * previous[i];
        }
        if (steps >= max_steps || std::sqrt(moved) < FLT_EPSILON * (std::sqrt(length) + DBL_EPSILON)) break;
        previous_error = fit.normal_equations(param, jtj, jte);
    }
    rvec = cv::Vec3d(param[0], param[1], param[2]);
    tvec = cv::Vec3d(param[3], param[4], param[5]);
}

}  // namespace fk

#pragma GCC visibility pop

// Loads libopencv_imgcodecs beside the libopencv_core this process runs with, and calls its two
// functions through pointers to their C++ symbols (their mangled names are OpenCV 4's stable ABI).
#include "opencv_codecs.hpp"

#include "guard.hpp"

#include <dlfcn.h>
#include <mutex>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {
namespace {

using imdecode_function = cv::Mat (*)(cv::InputArray, int);
using imencode_function = bool (*)(const cv::String &, cv::InputArray, std::vector<uchar> &, const std::vector<int> &);

struct codecs {
    imdecode_function decode = nullptr;
    imencode_function encode = nullptr;
    std::string failure;
};

const codecs &loaded() {
    static codecs loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        // The path of the libopencv_core in use, with "core" made "imgcodecs": the same version.
        Dl_info core{};
        if (dladdr(reinterpret_cast<void *>(&cv::getBuildInformation), &core) == 0 || core.dli_fname == nullptr) {
            loaded.failure = "cannot find OpenCV's core library";
            return;
        }
        std::string path = core.dli_fname;
        const auto at = path.rfind("opencv_core");
        if (at == std::string::npos) {
            loaded.failure = "unexpected name of OpenCV's core library: " + path;
            return;
        }
        path.replace(at, std::string("opencv_core").size(), "opencv_imgcodecs");
        void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            loaded.failure = std::string("cannot load OpenCV's imgcodecs: ") + dlerror();
            return;
        }
        loaded.decode = reinterpret_cast<imdecode_function>(dlsym(library, "_ZN2cv8imdecodeERKNS_11_InputArrayEi"));
        loaded.encode = reinterpret_cast<imencode_function>(dlsym(
            library,
            "_ZN2cv8imencodeERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_11_InputArrayERSt6vectorIhSaIhEERKSB_IiSaIiEE"));
        if (loaded.decode == nullptr || loaded.encode == nullptr) loaded.failure = "OpenCV's imgcodecs lacks imdecode or imencode";
    });
    if (!loaded.failure.empty()) throw failure(FK_INTERNAL, loaded.failure);
    return loaded;
}

}  // namespace

cv::Mat imdecode(cv::InputArray bytes, int flags) { return loaded().decode(bytes, flags); }

bool imencode(const std::string &extension, cv::InputArray image, std::vector<uchar> &encoded,
              const std::vector<int> &parameters) {
    return loaded().encode(extension, image, encoded, parameters);
}

}  // namespace fk

#pragma GCC visibility pop

// FACEKIT_NATIVE: FaceKit's own kernels or the libraries' calls they replace (kernel_path.hpp).
#include "kernel_path.hpp"

#include "guard.hpp"

#include <array>
#include <cstdlib>
#include <optional>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// The kernels' names in FACEKIT_NATIVE, in fk_kernel's order.
constexpr std::array<const char *, FK_KERNEL_COUNT> kNames = {"yunet", "landmarks", "descriptor"};

const char *const kUsage =
    "it takes \"fast\" (FaceKit's own kernels, the default), \"reference\" (every kernel on the "
    "library's code) or \"reference:\" and a comma-separated list of yunet, landmarks, descriptor";

/// What FACEKIT_NATIVE says: for each kernel, whether it runs on the library's code; nothing
/// when the value cannot be read.
struct Choice {
    std::optional<std::array<bool, FK_KERNEL_COUNT>> reference;
    std::string value;
};

Choice read(const char *raw) {
    Choice choice;
    std::array<bool, FK_KERNEL_COUNT> reference{};
    choice.value = raw == nullptr ? "" : raw;
    const std::string &value = choice.value;
    if (value.empty() || value == "fast") {
        choice.reference = reference;
        return choice;
    }
    if (value == "reference") {
        reference.fill(true);
        choice.reference = reference;
        return choice;
    }
    const std::string prefix = "reference:";
    if (value.compare(0, prefix.size(), prefix) != 0) return choice;
    size_t start = prefix.size();
    while (true) {
        const size_t comma = value.find(',', start);
        const std::string name = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool known = false;
        for (size_t k = 0; k < kNames.size(); ++k) {
            if (name == kNames[k]) reference[k] = known = true;
        }
        if (!known) return choice;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    choice.reference = reference;
    return choice;
}

/// The path `kernel` takes by `choice`; throws FK_INVALID_SETTING when it could not be read.
fk_kernel_path path_by(const Choice &choice, fk_kernel kernel) {
    if (!choice.reference) {
        std::string shown;
        for (const char c : choice.value.substr(0, 64)) shown += (c >= 0x20 && c < 0x7F) ? c : '?';
        if (choice.value.size() > 64) shown += "...";
        throw fk::failure(FK_INVALID_SETTING, "\"" + shown + "\" is not a value of FACEKIT_NATIVE: " + kUsage);
    }
    return (*choice.reference)[size_t(kernel)] ? FK_PATH_REFERENCE : FK_PATH_FAST;
}

}  // namespace

fk_kernel_path fk::kernel_path(fk_kernel kernel, int32_t asked) {
    fk::require(kernel >= 0 && kernel < FK_KERNEL_COUNT, "unknown kernel");
    if (asked == FK_PATH_FAST) return FK_PATH_FAST;
    if (asked == FK_PATH_REFERENCE) return FK_PATH_REFERENCE;
    fk::require(asked == FK_PATH_FROM_ENVIRONMENT, "path must be FK_PATH_FROM_ENVIRONMENT, FK_PATH_FAST or FK_PATH_REFERENCE");
    static const Choice choice = read(std::getenv("FACEKIT_NATIVE"));
    return path_by(choice, kernel);
}

extern "C" int32_t fk_kernel_path_chosen(int32_t kernel, int32_t *path, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr, "path must not be NULL");
        fk::require(kernel >= 0 && kernel < FK_KERNEL_COUNT, "unknown kernel");
        *path = fk::kernel_path(fk_kernel(kernel), FK_PATH_FROM_ENVIRONMENT);
    });
}

extern "C" int32_t fk_kernel_path_parse(const char *value, int32_t kernel, int32_t *path, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr, "path must not be NULL");
        fk::require(kernel >= 0 && kernel < FK_KERNEL_COUNT, "unknown kernel");
        *path = path_by(read(value), fk_kernel(kernel));
    });
}

#pragma GCC visibility pop

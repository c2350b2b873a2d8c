// The model cache's folder: see model_cache.hpp.
//
// Before, a copy was named after the model's path: every distinct path (a copy of the models in a
// test's folder, a second checkout) added 66 MB that nothing removed (one machine had 100, 6.7 GB).
// Named after the model's content, copies of one model are one file; the index maps the files
// seen to their content without reading them (a checksum of the 95 MB model file takes 60 ms,
// against 0.26 s for a whole start), and bounds what is kept. The index is small and rewritten
// whole (renamed into place, as every file here); two runs learning a model at once may each
// drop the other's record, which costs the next run of that model one checksum.
#include "model_cache.hpp"
#include "content_hash.hpp"
#include "owned_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <set>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

constexpr char index_magic[8] = {'F', 'K', 'I', 'N', 'D', 'E', 'X', '1'};

/// One model file seen, and the checksum of its content.
struct index_record {
    model_identity identity;
    uint64_t content;
};

/// The index's layout: magic, record count, the records, and the checksum of all that.
struct index_header {
    char magic[8];
    uint64_t count;
};

static_assert(sizeof(index_record) == 48 && sizeof(index_header) == 16, "the index is written as it lies in memory");

std::string hex(uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

/// The 16 hex digits at `text` as a number, or none.
std::optional<uint64_t> parse_hex(const char *text) {
    uint64_t value = 0;
    for (int i = 0; i < 16; ++i) {
        const char c = text[i];
        const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0) return std::nullopt;
        value = value << 4 | uint64_t(digit);
    }
    return value;
}

bool starts_with(const std::string &text, const std::string &prefix) {
    return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

bool ends_with(const std::string &text, const std::string &suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The records of the index file open on fd; none when it is damaged or not one.
std::vector<index_record> read_index(int fd) {
    struct stat info {};
    constexpr size_t largest = sizeof(index_header) + fk::model_cache::remembered_models * sizeof(index_record) + 8;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size < off_t(sizeof(index_header) + 8) ||
        uint64_t(info.st_size) > largest)
        return {};
    std::vector<uint8_t> bytes(size_t(info.st_size));
    if (::pread(fd, bytes.data(), bytes.size(), 0) != ssize_t(bytes.size())) return {};
    index_header header{};
    std::memcpy(&header, bytes.data(), sizeof header);
    uint64_t checksum = 0;
    std::memcpy(&checksum, bytes.data() + bytes.size() - 8, 8);
    if (std::memcmp(header.magic, index_magic, sizeof index_magic) != 0 ||
        header.count > uint64_t(fk::model_cache::remembered_models) ||
        bytes.size() != sizeof header + header.count * sizeof(index_record) + 8 ||
        checksum != fk::content_hash(bytes.data(), bytes.size() - 8))
        return {};
    std::vector<index_record> records(size_t(header.count));
    // An index of no records has no memory to copy to (memcpy's pointers must not be null).
    if (!records.empty()) std::memcpy(records.data(), bytes.data() + sizeof header, records.size() * sizeof(index_record));
    return records;
}

}  // namespace

fk::model_cache::model_cache(const std::string &folder, const std::string &model) : folder_(folder), model_(model) {
    // The folder may be reached through links (a cache folder the user chose); the names inside
    // it never are.
    if (!model_.empty()) folder_fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

fk::model_cache::~model_cache() {
    if (folder_fd_ >= 0) ::close(folder_fd_);
}

std::optional<uint64_t> fk::model_cache::known_content(const model_identity &identity) const {
    if (folder_fd_ < 0) return std::nullopt;
    const int fd = ::openat(folder_fd_, (model_ + ".index").c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    const auto records = read_index(fd);
    ::close(fd);
    for (const auto &record : records)
        if (record.identity == identity) return record.content;
    return std::nullopt;
}

std::string fk::model_cache::copy_path(uint64_t content) const {
    return folder_ + "/" + model_ + "-" + hex(content) + ".flat";
}

int fk::model_cache::open_copy(uint64_t content) const {
    if (folder_fd_ < 0) return -1;
    const std::string name = model_ + "-" + hex(content) + ".flat";
    const int fd = ::openat(folder_fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat info {};
    if (fd >= 0 && (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))) {
        ::close(fd);
        return -1;
    }
    return fd;
}

void fk::model_cache::remember(const model_identity &identity, uint64_t content) {
    if (folder_fd_ < 0) return;
    // The newest first. A record of the same file (device and inode) is dropped: the file has
    // changed since, and its old content is gone. Records of contents beyond the kept_contents
    // newest are dropped with their copies.
    std::vector<index_record> records{{identity, content}};
    std::set<uint64_t> contents{content};
    const int fd = ::openat(folder_fd_, (model_ + ".index").c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        for (const auto &record : read_index(fd)) {
            const bool same_file = record.identity.device == identity.device && record.identity.inode == identity.inode;
            if (same_file || records.size() == size_t(remembered_models)) continue;
            if (contents.count(record.content) == 0) {
                if (contents.size() == size_t(kept_contents)) continue;
                contents.insert(record.content);
            }
            records.push_back(record);
        }
        ::close(fd);
    }
    std::vector<uint8_t> bytes(sizeof(index_header) + records.size() * sizeof(index_record));
    index_header header{};
    std::memcpy(header.magic, index_magic, sizeof index_magic);
    header.count = records.size();
    std::memcpy(bytes.data(), &header, sizeof header);
    std::memcpy(bytes.data() + sizeof header, records.data(), records.size() * sizeof(index_record));
    const uint64_t checksum = content_hash(bytes.data(), bytes.size());
    bytes.insert(bytes.end(), reinterpret_cast<const uint8_t *>(&checksum), reinterpret_cast<const uint8_t *>(&checksum) + 8);
    {
        owned_file index(folder_ + "/" + model_ + ".index", 0644);
        if (index.fd() < 0 || ::write(index.fd(), bytes.data(), bytes.size()) != ssize_t(bytes.size()) || !index.commit())
            return;  // without the index, nothing is known to be unused
    }

    // Then every file of this model's that no remembered model file needs.
    std::set<std::string> kept;
    for (const auto content_kept : contents) kept.insert(model_ + "-" + hex(content_kept) + ".flat");
    const int listing = ::dup(folder_fd_);
    DIR *folder = listing >= 0 ? ::fdopendir(listing) : nullptr;
    if (folder == nullptr) {
        if (listing >= 0) ::close(listing);
        return;
    }
    ::rewinddir(folder);
    const std::string copy_prefix = model_ + "-", hidden_prefix = "." + model_;
    const time_t an_hour_ago = ::time(nullptr) - 3600;
    while (const dirent *entry = ::readdir(folder)) {
        const std::string name = entry->d_name;
        struct stat info {};
        if (::fstatat(folder_fd_, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        // A copy: "<model>-<16 hex>.flat"; a copy of the format before (named after the model's
        // path, with the same pattern) is removed too unless its digits happen to be kept.
        const bool copy = starts_with(name, copy_prefix) && name.size() == copy_prefix.size() + 16 + 5 &&
                          ends_with(name, ".flat") && parse_hex(name.c_str() + copy_prefix.size());
        // A partial file: owned_file's ".<name>.<16 hex>.tmp", or the old "<copy>.partial-<pid>".
        const bool partial = (starts_with(name, hidden_prefix) && ends_with(name, ".tmp")) ||
                             (starts_with(name, copy_prefix) && name.find(".flat.partial-") != std::string::npos);
        if (copy && kept.count(name) == 0) ::unlinkat(folder_fd_, name.c_str(), 0);
        else if (partial && info.st_mtime < an_hour_ago) ::unlinkat(folder_fd_, name.c_str(), 0);
    }
    ::closedir(folder);
}

#pragma GCC visibility pop

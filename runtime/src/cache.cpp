// The on-disk cache of on-demand kernels (ondemand_cache.hpp): its entries' names, their
// checksums, and reading and writing them whole.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "kernels.hpp"
#include "ondemand_cache.hpp"

namespace mpgen {
namespace {

namespace fs = std::filesystem;
using detail::error_text;
using detail::read_file;

// The process's umask, without changing it (umask() would, for every thread): cache files
// get the permissions an ordinary file would.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

// A file made by mkstemp, removed when it goes out of scope unless kept.
struct TemporaryFile {
  fs::path path;
  bool keep = false;
  TemporaryFile() = default;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

// Writes text to a new, uniquely named file beside `path` (in the same directory, so that
// it can be renamed over it), whole and flushed to disk; throws CompileError naming path.
void write_beside(const fs::path& path, const std::string& text, TemporaryFile& temporary) {
  std::string name = path.string() + ".tmp-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw CompileError("cannot write the kernel cache entry " + path.string() + ": " + error_text(errno));
  temporary.path = name;
  int error = 0;
  for (std::size_t done = 0; done < text.size() && !error;) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n >= 0)
      done += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (!error && ::fchmod(fd, 0666 & ~current_umask()) != 0) error = errno;
  if (!error && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error)  // the temporary goes with `temporary`
    throw CompileError("cannot write the kernel cache entry " + path.string() + ": " + error_text(error));
}

// An exclusive lock on the cache directory while it lives (flock: released by the kernel
// if the process dies). Best effort: where the directory cannot be locked, nothing is.
struct DirectoryLock {
  int fd;
  explicit DirectoryLock(const fs::path& dir) : fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd >= 0)
      while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  ~DirectoryLock() {
    if (fd >= 0) ::close(fd);  // releases the lock
  }
};

// The cached entry (PTX or a host library), if it is whole (its checksum file agrees with
// it) and a module of mpgen's. The files are replaced only by renames, so each read sees
// one whole version of its file; an entry and a checksum of different versions disagree,
// and count as no entry.
std::optional<std::string> read_cached(const fs::path& path) {
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) return std::nullopt;
  const std::optional<std::string> sum = read_file(path.string() + ".sum");
  if (!sum || *sum != detail::cache_checksum(*bytes)) return std::nullopt;
  if (bytes->find("mpgen_manifest") == std::string::npos) return std::nullopt;
  return bytes;
}

}  // namespace

namespace detail {

std::string setting(const char* variable, const char* built_in) {
  const char* value = std::getenv(variable);
  return value && *value ? value : built_in;
}

std::string error_text(int error) { return std::system_category().message(error); }

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return std::nullopt;
  return text.str();
}

uint64_t fnv1a(std::string_view text, uint64_t h) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex64(uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

void check_op_names(std::string_view ops) {
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(ops.find(',', start), ops.size());
    const std::string_view op = ops.substr(start, end - start);
    if (op.empty() || op.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos)
      throw InputError("'" + escaped(op) + "' is not an operation name");
    if (end == ops.size()) return;
    start = end + 1;
  }
}

std::string host_target() { return "host " + setting("MPGEN_CXX", "c++"); }

std::string cache_checksum(const std::string& ptx) { return hex64(fnv1a(ptx)); }

fs::path cache_entry(const fs::path& cache, const std::string& key_request, std::string_view op,
                     const std::string& target) {
  const std::string key = "mpgen " MPGEN_VERSION " schema " + std::to_string(manifest_schema) + " " + key_request +
                          " " + std::string(op) + " " + target;
  const std::string stem = op.find(',') == std::string_view::npos ? std::string(op) : "ops";
  return cache / (stem + "-" + hex64(fnv1a(key)) + (target == host_target() ? ".so" : ".ptx"));
}

std::string cached_build(const fs::path& cache, const std::string& key_request, std::string_view op,
                         const std::string& target, const std::function<std::string()>& build,
                         const std::function<bool(const std::string&, const fs::path&)>& usable) {
  check_op_names(op);
  const fs::path entry = cache_entry(cache, key_request, op, target);
  if (std::optional<std::string> bytes = read_cached(entry))
    if (!usable || usable(*bytes, entry)) return std::move(*bytes);
  const std::string bytes = build();
  std::error_code error;
  fs::create_directories(cache, error);
  if (error) throw CompileError("cannot create the kernel cache " + cache.string() + ": " + error.message());
  // Both files whole beside the entry first; then, under the directory's lock, renamed over
  // it, the entry before its checksum. A reader sees whole files only, and accepts an entry
  // only with a checksum of the same bytes; the lock keeps a pair of two writers from
  // ending up mixed (an entry of one and the checksum of the other), which readers would
  // take for no entry and rebuild. A writer that dies between the renames leaves the same.
  const fs::path sum_path = entry.string() + ".sum";
  TemporaryFile entry_file, sum_file;
  write_beside(entry, bytes, entry_file);
  write_beside(sum_path, cache_checksum(bytes), sum_file);
  const DirectoryLock lock(cache);
  for (auto [from, to] : {std::pair{&entry_file, &entry}, std::pair{&sum_file, &sum_path}}) {
    if (::rename(from->path.c_str(), to->c_str()) != 0)
      throw CompileError("cannot write the kernel cache entry " + to->string() + ": " + error_text(errno));
    from->keep = true;  // it is the entry now
  }
  return bytes;
}

}  // namespace detail
}  // namespace mpgen

// libFuzzer over the on-demand kernel cache's reading of an entry (runtime/src/cache.cpp):
// the input is what lies in the cache before a request, its first byte saying which files
// are there (bit 0 the entry, bit 1 its checksum file, bit 2 a checksum that is the
// entry's own rather than the input's text after the first '\n', bit 3 whether the caller
// refuses the entry (its `usable`)), the rest the entry's bytes. cached_build must return
// the entry exactly where it is whole (entry and checksum agree), holds an mpgen manifest
// and the caller takes it, and otherwise build afresh, once; either way the cache then
// holds a whole pair (an entry and its own checksum) of what it returned, and nothing else.
// Any other outcome aborts (a finding).
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "ondemand_cache.hpp"

namespace {

namespace fs = std::filesystem;

// A directory of its own (in memory where /dev/shm is: the cache fsyncs what it writes),
// removed at the end.
struct CacheDir {
  fs::path path;
  CacheDir() {
    const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string name = (base / "mpgen-fuzz-cache-XXXXXX").string();
    if (!::mkdtemp(name.data())) std::abort();
    path = name;
  }
  ~CacheDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

const fs::path& cache_dir() {
  static const CacheDir dir;
  return dir.path;
}

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), std::streamsize(bytes.size()));
  if (!file) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const unsigned mode = data[0];
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t cut = input.find('\n');
  const std::string entry = input.substr(0, cut), written_sum = cut == std::string::npos ? "" : input.substr(cut + 1);
  const fs::path& dir = cache_dir();
  for (const auto& file : fs::directory_iterator(dir)) fs::remove(file.path());
  const fs::path path = mpgen::detail::cache_entry(dir, "fuzz request", "add", "sm_90");
  const std::string own_sum = mpgen::detail::cache_checksum(entry);
  if (mode & 1) write(path, entry);
  if (mode & 2) write(path.string() + ".sum", mode & 4 ? own_sum : written_sum);

  const bool whole = (mode & 1) && (mode & 2) && ((mode & 4) || written_sum == own_sum) &&
                     entry.find("mpgen_manifest") != std::string::npos;
  const bool refused = mode & 8;
  unsigned builds = 0, offered = 0;
  const std::string built = "built mpgen_manifest " + std::to_string(size);
  const std::string got = mpgen::detail::cached_build(
      dir, "fuzz request", "add", "sm_90", [&] { return ++builds, built; },
      [&](const std::string& bytes, const fs::path& at) {
        if (bytes != entry || at != path) std::abort();  // offers the entry it read, as it lies there
        ++offered;
        return !refused;
      });
  const bool kept = whole && !refused;
  if (got != (kept ? entry : built) || builds != !kept || offered != whole) std::abort();
  const auto read = [](const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  if (read(path) != got || read(path.string() + ".sum") != mpgen::detail::cache_checksum(got)) std::abort();
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& file : fs::directory_iterator(dir)) ++files;
  if (files != 2) std::abort();  // the pair, no temporary left beside it
  return 0;
}

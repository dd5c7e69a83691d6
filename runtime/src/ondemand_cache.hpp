// On-demand kernels below the GPU: running the generator (ondemand.cpp), and the on-disk
// cache of PTX and host libraries (cache.cpp). (Internal: the runtime, and the tests and
// tests/fuzz/cache.cpp, which need neither a GPU nor a shell.)
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels.hpp"

namespace mpgen::detail {

// The environment's variable where set and not empty, else built_in.
std::string setting(const char* variable, const char* built_in);

// errno's text.
std::string error_text(int error);

// The file's bytes, or nothing where it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path);

// FNV-1a 64 of text, or of text after what gave h; and 16 hex digits of a hash.
uint64_t fnv1a(std::string_view text, uint64_t h = 1469598103934665603ull);
std::string hex64(uint64_t v);

// ops: one operation's name, or several joined by commas (one module holding them all);
// throws InputError for anything else (they name cache files).
void check_op_names(std::string_view ops);

// `python -m mpgen generate <request...> --ops OPS --kernels --out DIR` (OPS: one operation,
// or several joined by commas, as in the functions below), started with an
// argument vector (no shell), PYTHONPATH set to the generator; returns the header and
// kernels its manifest names. `what` names the request in errors. Exit status 2 (mpgen's own refusal) throws InputError with mpgen's
// message; any other failure, starting Python included, throws CompileError.
KernelSource generate_kernels(const std::vector<std::string>& request, std::string_view op,
                              const std::string& what);

// The kernel cache entry of one request: <cache>/<op>-<hash>.ptx (ops-<hash> for several; .so for the host's
// shared libraries) and its checksum, the same path plus ".sum", where the hash covers
// mpgen's version, the manifest's schema, key_request, op and target (a GPU architecture,
// or host_target()). build_on_demand's key_request names what makes the entry: the
// generator's fingerprint (a hash of its content) and the request's words.
std::filesystem::path cache_entry(const std::filesystem::path& cache, const std::string& key_request,
                                  std::string_view op, const std::string& target);

// The entry of one request for target: the cache entry when it is whole (its checksum
// agrees with it), holds an mpgen manifest, and `usable(bytes, path)` (when given;
// build_on_demand loads it there and looks for the request) accepts it; else build(),
// stored in the cache. Each file of the entry is written to a unique temporary file beside
// it (mkstemp) and renamed over it, the entry before its checksum, both renames under an
// flock of the cache directory: readers (threads or processes, who take no lock) see no
// entry, a mismatched pair (which they rebuild) or a whole one, never half a file, and two
// writers leave one whole pair. Needs no GPU. Throws what build throws, and CompileError,
// naming the file, when the cache cannot be written.
std::string cached_build(const std::filesystem::path& cache, const std::string& key_request, std::string_view op,
                         const std::string& target, const std::function<std::string()>& build,
                         const std::function<bool(const std::string& bytes, const std::filesystem::path& path)>&
                             usable = nullptr);

// cached_build of compile_to_ptx(source(), arch).
std::string cached_ptx(const std::filesystem::path& cache, const std::string& key_request, std::string_view op,
                       const std::string& arch, const std::function<KernelSource()>& source,
                       const std::function<bool(const std::string& ptx, const std::filesystem::path& path)>&
                           usable = nullptr);

// The host's target in cache keys: its C++ compiler ($MPGEN_CXX, else c++).
std::string host_target();

// A generated kernels source compiled by the host's C++ compiler into a shared library of
// its host batch functions (the bytes of the .so); throws CompileError with its first error.
std::string compile_to_library(const KernelSource& source);

// Loads such a library (dlopen, kept loaded) and adds its operations to the table, to run
// on the CPU; throws InputError naming the file where it does not load or holds no mpgen
// module.
std::vector<OpInfo> load_library(const std::filesystem::path& path);

// The checksum that a cache entry's ".sum" file holds: 16 hex digits of FNV-1a 64.
std::string cache_checksum(const std::string& ptx);

}  // namespace mpgen::detail

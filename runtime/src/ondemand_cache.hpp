// On-demand kernels below the GPU: running the generator, and the on-disk cache of PTX.
// (Internal: ondemand.cpp, and the tests, which need neither a GPU nor a shell.)
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "mpgen/runtime.hpp"

namespace mpgen::detail {

// `python -m mpgen generate <request...> --ops OP --kernels --out DIR`, started with an
// argument vector (no shell), PYTHONPATH set to the generator; returns the header and
// kernels its manifest names. `what` names the request in errors. Exit status 2 (mpgen's own refusal) throws InputError with mpgen's
// message; any other failure, starting Python included, throws CompileError.
KernelSource generate_kernels(const std::vector<std::string>& request, std::string_view op,
                              const std::string& what);

// The kernel cache entry of one request: <cache>/<op>-<hash>.ptx and its checksum, the
// same path plus ".sum", where the hash covers mpgen's version, key_request, op and arch.
std::filesystem::path cache_entry(const std::filesystem::path& cache, const std::string& key_request,
                                  std::string_view op, const std::string& arch);

// The PTX of one request for arch: the cache entry when it is whole (its checksum agrees
// with it), holds an mpgen manifest, and `usable(ptx, path)` (when given; build_on_demand
// loads it there and looks for the request) accepts it; else compile_to_ptx(source(),
// arch), stored in the cache. Each file of the entry is written to a unique temporary file
// beside it (mkstemp) and renamed over it, the PTX before its checksum, both renames under
// an flock of the cache directory: readers (threads or processes, who take no lock) see no
// entry, a mismatched pair (which they rebuild) or a whole one, never half a file, and two
// writers leave one whole pair. Needs no GPU. Throws what source and compile_to_ptx throw,
// and CompileError, naming the file, when the cache cannot be written.
std::string cached_ptx(const std::filesystem::path& cache, const std::string& key_request, std::string_view op,
                       const std::string& arch,
                       const std::function<KernelSource()>& source,
                       const std::function<bool(const std::string& ptx, const std::filesystem::path& path)>&
                           usable = nullptr);

// The checksum that a cache entry's ".sum" file holds: 16 hex digits of FNV-1a 64.
std::string cache_checksum(const std::string& ptx);

}  // namespace mpgen::detail

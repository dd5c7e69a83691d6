// The runtime's table of built-in operations is generated: each module's entries
// (`mpgen generate --table`: its batch functions in the order of its manifest, beside
// that manifest) and the list of modules (`mpgen table`). This is what they are made of.
#pragma once
#include "kernels.hpp"

namespace mpgen::detail {

struct Entry {
  BatchFn host;    // on host memory
  BatchFn device;  // launches on device memory; null when built without CUDA
};

// One generated module: its manifest (JSON, mpgen_manifest.json's schema) and one entry
// per operation it lists, in its order.
struct ModuleTable {
  const char* manifest;
  const Entry* entries;
  std::size_t count;
};

// Every module built in (written by `mpgen table`).
const std::vector<const ModuleTable*>& built_in_modules();

#ifdef MPGEN_PRELUDE  // after a generated header: the entry of one of its operations
#ifdef __CUDACC__
template <class Op>
void launch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  launch_batch<Op>(n, layout, in, out);  // the caller checks cudaGetLastError
}
template <class Op>
constexpr Entry entry() { return {&host_batch<Op>, &launch<Op>}; }
#else
template <class Op>
constexpr Entry entry() { return {&host_batch<Op>, nullptr}; }
#endif
#endif

#ifdef MPGEN_RNS  // after an RNS set's header: the same over cuda/rns.cuh's batch loops
#ifdef __CUDACC__
template <class Op>
void launch_rns(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  rns::launch_batch<Op>(n, layout, in, out);
}
template <class Op>
constexpr Entry rns_entry() { return {&rns::host_batch<Op>, &launch_rns<Op>}; }
#else
template <class Op>
constexpr Entry rns_entry() { return {&rns::host_batch<Op>, nullptr}; }
#endif
#endif

}  // namespace mpgen::detail

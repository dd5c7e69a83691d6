// The runtime's table of built-in operations is generated: each module's entries
// (`mpgen generate --table`: its batch functions in the order of its manifest, beside
// that manifest) and the list of modules (`mpgen table`). This is what they are made of.
#pragma once
#include "kernels.hpp"

namespace mpgen::detail {

struct Entry {
  RangeFn cpu;     // on host memory (through the 64-bit list where the operation has one)
  BatchFn device;  // launches on device memory; null when built without CUDA
  RangeFn cpu32 = nullptr;  // on host memory through the GPU's own 32-bit list, where cpu is not
};

// One generated module: its manifest (JSON, mpgen_manifest.json's schema) and one entry
// per operation it lists, in its order; a generalized Fermat field's FFT where it has one.
struct ModuleTable {
  const char* manifest;
  const Entry* entries;
  std::size_t count;
  const TransformEntry* transform = nullptr;
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
constexpr BatchFn launcher() { return &launch<Op>; }
#else
template <class Op>
constexpr BatchFn launcher() { return nullptr; }
#endif
template <class Op>
constexpr Entry entry() {
  return {&cpu_range<Op>, launcher<Op>(), has_host64<Op>::value ? &host_range<Op> : nullptr};
}
#endif

#ifdef MPGEN_RNS  // after an RNS set's header: the same over headers/rns.cuh's batch loops
#ifdef __CUDACC__
template <class Op>
void launch_rns(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  rns::launch_batch<Op>(n, layout, in, out);
}
template <class Op>
constexpr Entry rns_entry() { return {&rns::host_range<Op>, &launch_rns<Op>}; }
#else
template <class Op>
constexpr Entry rns_entry() { return {&rns::host_range<Op>, nullptr}; }
#endif
#endif

#ifdef MPGEN_GF_FFT  // after a generalized Fermat field's header with its FFT (headers/gf_fft.cuh)
template <class F>
void host_transforms(std::size_t n, std::size_t count, bool inverse, uint32_t* data) {
  for (std::size_t c = 0; c < count; ++c) gf_fft::host_transform<F>(data + c * n * F::words, n, inverse);
}
#ifdef __CUDACC__
// On device memory: the twiddles, then the transforms together, back in their place (the
// passes alternate between data and a scratch as large).
template <class F>
void device_transforms(std::size_t n, std::size_t count, bool inverse, uint32_t* data) {
  uint32_t *table = nullptr, *scratch = nullptr, *result = nullptr;
  auto check = [&](cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaFree(table), cudaFree(scratch);
    throw GpuError(std::string("GPU: ") + what + ": " + cudaGetErrorString(e));
  };
  const std::size_t bytes = n * count * F::words * sizeof(uint32_t);
  check(cudaMalloc(&table, n / gf_fft::shape<F>::K * F::words * sizeof(uint32_t)), "cudaMalloc");
  check(cudaMalloc(&scratch, bytes), "cudaMalloc");
  check(gf_fft::device_twiddles<F>(table, n), "the FFT's twiddles");
  check(gf_fft::device_transform<F>(data, scratch, table, n, inverse, &result, count), "the FFT");
  if (result != data) check(cudaMemcpy(data, result, bytes, cudaMemcpyDeviceToDevice), "the FFT");
  check(cudaDeviceSynchronize(), "the FFT");
  cudaFree(table), cudaFree(scratch);
}
template <class F>
constexpr TransformEntry transform_entry = {&host_transforms<F>, &device_transforms<F>};
#else
template <class F>
constexpr TransformEntry transform_entry = {&host_transforms<F>, nullptr};
#endif
#endif

}  // namespace mpgen::detail

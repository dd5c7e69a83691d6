// The GPU side of the runtime: device discovery, transfers and launches.
#include <cuda_runtime.h>

#include "kernels.hpp"

namespace mpgen::detail {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw GpuError(std::string("GPU: ") + what + ": " + cudaGetErrorString(e));
}

// Device memory released however the call ends.
struct DeviceWords {
  explicit DeviceWords(std::size_t words) { check(cudaMalloc(&ptr, words * sizeof(uint32_t)), "cudaMalloc"); }
  ~DeviceWords() { cudaFree(ptr); }
  DeviceWords(const DeviceWords&) = delete;
  DeviceWords& operator=(const DeviceWords&) = delete;
  uint32_t* ptr = nullptr;
};

}  // namespace

bool gpu_usable(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device found";
    return false;
  }
  return true;
}

void run_on_gpu(const Kernel& k, Layout layout, std::size_t n, const uint32_t* in, uint32_t* out) {
  std::string why;
  if (!gpu_usable(&why)) throw GpuError("no GPU can be used: " + why);
  if (n == 0) return;
  const std::size_t in_words = k.info.in_words() * n, out_words = k.info.out_words() * n;
  DeviceWords d_in(in_words), d_out(out_words);
  check(cudaMemcpy(d_in.ptr, in, in_words * sizeof(uint32_t), cudaMemcpyHostToDevice), "copy in");
  k.device(n, layout, d_in.ptr, d_out.ptr);
  check(cudaGetLastError(), "launch");
  check(cudaMemcpy(out, d_out.ptr, out_words * sizeof(uint32_t), cudaMemcpyDeviceToHost), "copy out");
}

}  // namespace mpgen::detail

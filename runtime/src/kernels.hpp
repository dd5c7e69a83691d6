// The table of generated operations: for each, its shape and its batch functions.
#pragma once
#include <vector>

#include "mpgen/runtime.hpp"

namespace mpgen::detail {

using BatchFn = void (*)(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out);

struct Kernel {
  OpInfo info;
  BatchFn host;    // on host memory
  BatchFn device;  // launches on device memory; null when built without CUDA
};

const std::vector<Kernel>& kernels();  // every size and operation built in

// GPU side (gpu.cu, or gpu_none.cpp when built without CUDA).
bool gpu_usable(std::string* why);
void run_on_gpu(const Kernel& k, Layout layout, std::size_t n, const uint32_t* in, uint32_t* out);

}  // namespace mpgen::detail

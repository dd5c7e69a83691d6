// The GPU side when the runtime is built without CUDA.
#include "kernels.hpp"

namespace mpgen::detail {

static const char* const kNoCuda = "this mpgen runtime was built without CUDA";

bool gpu_usable(std::string* why) {
  if (why) *why = kNoCuda;
  return false;
}

void run_on_gpu(const Kernel&, Layout, std::size_t, const uint32_t*, uint32_t*) {
  throw GpuError(std::string("no GPU can be used: ") + kNoCuda);
}

}  // namespace mpgen::detail

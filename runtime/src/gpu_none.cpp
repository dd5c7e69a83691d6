// The GPU side when the runtime is built without CUDA.
#include "kernels.hpp"

namespace mpgen::detail {

const char* const kNoCuda = "this mpgen runtime was built without CUDA";

bool gpu_usable(std::string* why) {
  if (why) *why = kNoCuda;
  return false;
}

void run_on_gpu(const Kernel&, Layout, std::size_t, const uint32_t*, uint32_t*) {
  throw GpuError(std::string("no GPU can be used: ") + kNoCuda);
}

void transform_on_gpu(const TransformEntry&, std::size_t, std::size_t, bool, unsigned, uint32_t*) {
  throw GpuError(std::string("no GPU can be used: ") + kNoCuda);
}

std::string gpu_arch() { throw GpuError(std::string("no GPU can be used: ") + kNoCuda); }

std::vector<OpInfo> load_module(const std::string&, const std::string&) {
  throw GpuError(std::string("no GPU can be used: ") + kNoCuda);
}

}  // namespace mpgen::detail

namespace mpgen {
std::string compile_to_ptx(const KernelSource&, const std::string&) {
  throw CompileError(std::string("NVRTC is not available: ") + detail::kNoCuda);
}
}  // namespace mpgen

// The GPU side of the runtime: device discovery, transfers and launches.
#include <cuda_runtime.h>

#include <algorithm>

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

// The groups of `blocks` blocks a cooperative launch runs at once: as many as the GPU holds
// resident (the kernel's blocks an SM, by its registers and shared memory, times the SMs), at
// most `most` (its scratch's) and n; 0 where the GPU cannot hold one group's blocks.
std::size_t span_groups(const void* kernel, unsigned block_threads, unsigned shared, unsigned blocks, unsigned most,
                        std::size_t n) {
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "counting SMs");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(block_threads), shared),
        "counting a kernel's blocks an SM");
  return std::min({std::size_t(sms) * std::size_t(per_sm) / blocks, std::size_t(most), n});
}

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

void require_gpu() {
  std::string why;
  if (!gpu_usable(&why)) throw GpuError("no GPU can be used: " + why);
}

void run_on_gpu(const Kernel& k, Layout layout, std::size_t n, const uint32_t* in, uint32_t* out) {
  require_gpu();
  if (!k.loaded && !k.device)
    throw GpuError(k.info.name + ": this runtime was built without the GPU side of its built-in modules "
                   "(-DMPGEN_RUNTIME_GPU_TABLES=OFF); build it with ON to run them on the GPU");
  if (n == 0) return;
  const std::size_t in_words = k.info.in_words() * n, out_words = k.info.out_words() * n;
  DeviceWords d_in(in_words), d_out(out_words);
  check(cudaMemcpy(d_in.ptr, in, in_words * sizeof(uint32_t), cudaMemcpyHostToDevice), "copy in");
  if (k.loaded) {
    const uint32_t* d_in_ptr = d_in.ptr;
    uint32_t* d_out_ptr = d_out.ptr;
    void* args[] = {&n, &layout, &d_in_ptr, &d_out_ptr};
    const unsigned block = k.info.block_threads;
    const unsigned shared = layout == Layout::contiguous ? k.info.contiguous_shared_bytes : k.info.shared_bytes;
    if (shared != 0)  // with the static shared memory it may pass what a launch gets without asking
      check(cudaFuncSetAttribute(k.loaded, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
            "asking for shared memory");
    if (k.info.blocks_per_instance > 1) {  // a group spanning blocks: all of them resident at once
      const std::size_t groups = span_groups(k.loaded, block, shared, k.info.blocks_per_instance,
                                               k.info.launch_groups, n);
      if (groups == 0)
        throw GpuError(k.info.name + ": this GPU cannot hold the " + std::to_string(k.info.blocks_per_instance) +
                       " blocks of one group at once");
      check(cudaLaunchCooperativeKernel(k.loaded, dim3(unsigned(groups * k.info.blocks_per_instance)), dim3(block),
                                        args, shared, 0),
            "cooperative launch");
    } else {
      const std::size_t blocks = (n * k.info.threads_per_instance + block - 1) / block;
      check(cudaLaunchKernel(k.loaded, dim3(unsigned(blocks)), dim3(block), args, shared, 0), "launch");
    }
  } else {
    k.device(n, layout, d_in.ptr, d_out.ptr);
  }
  check(cudaGetLastError(), "launch");
  check(cudaMemcpy(out, d_out.ptr, out_words * sizeof(uint32_t), cudaMemcpyDeviceToHost), "copy out");
}

void transform_on_gpu(const TransformEntry& t, std::size_t n, std::size_t count, bool inverse, unsigned point_words,
                      uint32_t* data) {
  require_gpu();
  const std::size_t words = n * count * point_words;
  if (words == 0) return;
  DeviceWords d(words);
  check(cudaMemcpy(d.ptr, data, words * sizeof(uint32_t), cudaMemcpyHostToDevice), "copy in");
  t.device(n, count, inverse, d.ptr);
  check(cudaMemcpy(data, d.ptr, words * sizeof(uint32_t), cudaMemcpyDeviceToHost), "copy out");
}

std::string gpu_arch() {
  require_gpu();
  int device = 0;
  cudaDeviceProp properties;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  return "compute_" + std::to_string(properties.major) + std::to_string(properties.minor);
}

std::vector<OpInfo> load_module(const std::string& ptx, const std::string& origin) {
  require_gpu();
  cudaLibrary_t library;  // kept loaded for the life of the process
  const cudaError_t e = cudaLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e != cudaSuccess) throw InputError(origin + " does not load as a CUDA module: " + cudaGetErrorString(e));
  void* manifest = nullptr;
  std::size_t bytes = 0;
  if (cudaLibraryGetGlobal(&manifest, &bytes, library, "mpgen_manifest") != cudaSuccess)
    throw InputError(origin + " holds no mpgen kernels (no mpgen_manifest)");
  std::string text(bytes, '\0');
  check(cudaMemcpy(text.data(), manifest, bytes, cudaMemcpyDeviceToHost), "reading the manifest");
  text.resize(text.find('\0') == std::string::npos ? bytes : text.find('\0'));
  std::vector<OpInfo> ops = parse_manifest(text, origin);
  for (const OpInfo& info : ops) {
    cudaKernel_t kernel;
    if (cudaLibraryGetKernel(&kernel, library, info.kernel.c_str()) != cudaSuccess)
      throw InputError(origin + " lists " + info.name + " but has no kernel " + info.kernel);
    add_loaded(Kernel{info, nullptr, nullptr, reinterpret_cast<const void*>(kernel)});
  }
  return ops;
}

}  // namespace mpgen::detail

// NVRTC: a generated kernels source to PTX, without a GPU.
#include <nvrtc.h>

#include "mpgen/runtime.hpp"

namespace mpgen {

std::string compile_to_ptx(const KernelSource& source, const std::string& arch) {
  const std::string where = "NVRTC (" + source.header_name + ", " + arch + ")";
  nvrtcProgram program;
  const char* headers[] = {source.header.c_str()};
  const char* names[] = {source.header_name.c_str()};
  if (nvrtcCreateProgram(&program, source.kernels.c_str(), "mpgen_kernels.cu", 1, headers, names) !=
      NVRTC_SUCCESS)
    throw CompileError(where + ": cannot create the program");
  const std::string arch_option = "--gpu-architecture=" + arch;
  const char* options[] = {arch_option.c_str(), "--std=c++17"};
  const nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
  std::string ptx;
  if (compiled == NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetPTXSize(program, &size);
    ptx.resize(size);
    nvrtcGetPTX(program, ptx.data());
    ptx.resize(ptx.find('\0') == std::string::npos ? size : ptx.find('\0'));
  } else {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    nvrtcDestroyProgram(&program);
    throw CompileError(where + " failed: " + log.substr(0, log.find('\n')));
  }
  nvrtcDestroyProgram(&program);
  return ptx;
}

}  // namespace mpgen

// For tests built by nvcc: whether a GPU can be used (with MPGEN_REQUIRE_GPU set, its
// absence fails the test), and one batch kernel run over n instances. Include it after a
// generated header (it names mpgen::device_batch).
#pragma once
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

bool gpu_present() {
  int count = 0;
  const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  if (std::getenv("MPGEN_REQUIRE_GPU")) REQUIRE_MESSAGE(present, "MPGEN_REQUIRE_GPU is set and no GPU is present");
  return present;
}

// In Op's launch geometry; the contiguous layout staged through shared memory where the
// manifest gives it rows (staged = false: launched without them, as a user may).
template <class Op>
std::vector<uint32_t> on_gpu(std::size_t n, const std::vector<uint32_t>& in, mpgen::Layout layout,
                             bool staged = true) {
  std::vector<uint32_t> out(Op::out_words * n);
  uint32_t *d_in = nullptr, *d_out = nullptr;
  REQUIRE(cudaMalloc(&d_in, in.size() * 4) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_out, out.size() * 4) == cudaSuccess);
  cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  REQUIRE(mpgen::launch_batch<Op>(n, layout, d_in, d_out, staged) == cudaSuccess);
  REQUIRE(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(d_in);
  cudaFree(d_out);
  return out;
}

}  // namespace

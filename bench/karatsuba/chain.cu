// Chained products on the GPU (bench/chain.cuh), and the same with squares.
// Prints one CSV row per operation: op,bits,method,products per second.
// Built per size and method by run.sh: -DMPGEN_NS=u1024 -include mpgen_u1024.cuh.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../chain.cuh"

#ifndef MPGEN_NS
#error "build with -DMPGEN_NS=u<bits> and -include mpgen_u<bits>.cuh"
#endif

namespace ns = mpgen::MPGEN_NS;

template <class Op, bool square>
double products_per_second(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  const unsigned threads = 128, blocks = unsigned((n + threads - 1) / threads);
  chain<Op, square><<<blocks, threads>>>(n, iterations, in, out);  // warm-up
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const int runs = 3;
  cudaEventRecord(start);
  for (int k = 0; k < runs; ++k) chain<Op, square><<<blocks, threads>>>(n, iterations, in, out);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "CUDA error\n");
    std::exit(1);
  }
  return double(n) * iterations * runs / (ms * 1e-3);
}

int main(int argc, char** argv) {
  const char* method = argc > 1 ? argv[1] : "?";
  const std::size_t n = std::size_t(1) << 18;
  const unsigned iterations = 100 * 8192 / ns::bits;
  std::vector<uint32_t> host(ns::limbs * n);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = uint32_t(i * 2654435761u + 12345);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, host.size() * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  std::printf("mul,%u,%s,%.4g\n", ns::bits, method, products_per_second<ns::mul, false>(n, iterations, in, out));
  std::printf("sqr,%u,%s,%.4g\n", ns::bits, method, products_per_second<ns::sqr, true>(n, iterations, in, out));
  return 0;
}

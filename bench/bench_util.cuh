// Helpers every mpgen-bench source shares: a CUDA error ends the run with one line, GPU
// and host timing, random operands, a batch's blocks.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

namespace bench {

// Seconds one call of f takes on the host: the mean of `rounds` calls after one that warms up.
inline double host_seconds(const std::function<void()>& f, int rounds) {
  f();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < rounds; ++k) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / rounds;
}

// Seconds one call of each of fs takes on the host (ours and its peers): each timed in turn
// as host_seconds(f, rounds), `turns` times over, and the fastest turn of each kept. On a
// shared machine a neighbour's load then weighs on all of them alike, not on whichever ran
// while it lasted (the H100 machine's Xeon moved GMP's own rate 2-3x within one call).
inline std::vector<double> host_seconds_in_turns(const std::vector<std::function<void()>>& fs, int rounds,
                                                 int turns = 3) {
  std::vector<double> best(fs.size(), 1e300);
  for (int t = 0; t < turns; ++t)
    for (std::size_t k = 0; k < fs.size(); ++k) best[k] = std::min(best[k], host_seconds(fs[k], rounds));
  return best;
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "mpgen-bench: error: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Seconds per call of f on the GPU: one warm-up, then the mean of `runs`.
inline double gpu_seconds(const std::function<void()>& f, int runs = 3) {
  f();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int k = 0; k < runs; ++k) f();
  cudaEventRecord(stop);
  check(cudaEventSynchronize(stop), "timing");
  check(cudaGetLastError(), "kernel");
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms * 1e-3 / runs;
}

inline std::vector<uint32_t> random_words(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(count);
  for (auto& w : v) w = rng();
  return v;
}

// The blocks that cover n instances of Op, in its launch geometry (the manifest's).
template <class Op>
inline unsigned blocks_for(std::size_t n) {
  return unsigned((n * Op::threads_per_instance + Op::block_threads - 1) / Op::block_threads);
}

// Seconds per launch(in, out) (gpu_seconds over `runs`) with `host` copied to the device as
// in and `out_words` words for out; where `got` is given, out comes back into it.
inline double timed_on_device(const std::vector<uint32_t>& host, std::size_t out_words,
                              const std::function<void(const uint32_t*, uint32_t*)>& launch, int runs,
                              std::vector<uint32_t>* got = nullptr) {
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, out_words * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const double s = gpu_seconds([&] { launch(in, out); }, runs);
  if (got) {
    got->resize(out_words);
    cudaMemcpy(got->data(), out, out_words * 4, cudaMemcpyDeviceToHost);
  }
  cudaFree(in);
  cudaFree(out);
  return s;
}

}  // namespace bench

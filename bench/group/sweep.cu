// One geometry of one group-tier operation, from memory (contiguous layout, 2^32 bits per
// operand, the batches of Oancea and Watt, "GPU implementations for midsize integer addition
// and multiplication"): prints its operations and bytes per second. Built once per
// geometry by bench/group/build.sh (HEADER, NS and OP name the header, size and operation).
// Beside it the device-to-device copy of the same bytes, the bound of a pass over memory,
// timed in the same process.
#define MPGEN_QUOTE_(x) #x
#define MPGEN_QUOTE(x) MPGEN_QUOTE_(x)
#include MPGEN_QUOTE(HEADER)
#include <cstdio>
#include <algorithm>
#include <vector>
#include <random>
int main() {
  using Op = mpgen::NS::OP;
  const std::size_t n = (std::size_t(1) << 32) / Op::bits;
  std::vector<uint32_t> host(Op::in_words * n);
  std::mt19937 rng(1);
  for (auto& w : host) w = rng();
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4); cudaMalloc(&out, Op::out_words * n * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const auto launch = [&] { return mpgen::launch_batch<Op>(n, mpgen::Layout::contiguous, in, out, false); };
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaError_t launched = launch();
  cudaEventRecord(a);
  const int reps = 5;
  for (int r = 0; r < reps; ++r) launched = launched != cudaSuccess ? launched : launch();
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  const double s = ms / 1e3 / reps;
  const std::size_t bytes = (Op::in_words + Op::out_words) * 4 * n;
  uint32_t* copy;
  cudaMalloc(&copy, bytes);
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) cudaMemcpy(copy + bytes / 8, copy, bytes / 2, cudaMemcpyDeviceToDevice);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float copy_ms; cudaEventElapsedTime(&copy_ms, a, b);
  const double copy_gbs = bytes * reps / (copy_ms / 1e3) / 1e9;  // read + write, as the operation's bytes
  // The first instances against the host rendering (itself tested against GMP): a
  // geometry that computes wrongly is not a measurement. Past 2^20 bits one (the host's
  // division takes half a minute at 2^24).
  std::vector<uint32_t> got(Op::out_words * n), want(Op::out_words);
  cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost);
  unsigned wrong = 0;
  const std::size_t checked = Op::bits > (1u << 20) ? 1 : 4;
  for (std::size_t j = 0; j < checked; ++j) {
    Op::host(want.data(), host.data() + j * Op::in_words);
    wrong += !std::equal(want.begin(), want.end(), got.begin() + j * Op::out_words);
  }
  printf("%s %s %u bits T=%u Q=%u block=%u: %.4g ops/s, %.4g GB/s (copy %.4g GB/s: %.2f), %.1f us per batch (%s, %u of %zu checked wrong)\n",
         MPGEN_QUOTE(NS), Op::name, Op::bits, Op::threads_per_instance, Op::limbs_per_thread, Op::block_threads, n / s,
         bytes / s / 1e9, copy_gbs, bytes / s / 1e9 / copy_gbs, s * 1e6,
         cudaGetErrorString(launched != cudaSuccess ? launched : cudaDeviceSynchronize()), wrong, checked);
}

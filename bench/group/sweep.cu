// One geometry of one group-tier operation, from memory (contiguous layout, 2^32 bits per
// operand, seed 003's batches): prints its operations and bytes per second. Built once per
// geometry by bench/group/build.sh (HEADER, NS and OP name the header, size and operation).
#define MPGEN_QUOTE_(x) #x
#define MPGEN_QUOTE(x) MPGEN_QUOTE_(x)
#include MPGEN_QUOTE(HEADER)
#include <cstdio>
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
  const unsigned blocks = unsigned((n * Op::threads_per_instance + Op::block_threads - 1) / Op::block_threads);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  mpgen::device_batch<Op><<<blocks, Op::block_threads>>>(n, mpgen::Layout::contiguous, in, out);
  cudaEventRecord(a);
  const int reps = 5;
  for (int r = 0; r < reps; ++r) mpgen::device_batch<Op><<<blocks, Op::block_threads>>>(n, mpgen::Layout::contiguous, in, out);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  const double s = ms / 1e3 / reps;
  printf("%s %u bits T=%u Q=%u block=%u: %.4g ops/s, %.4g GB/s, %.1f us per batch (%s)\n", Op::name, Op::bits,
         Op::threads_per_instance, Op::limbs_per_thread, Op::block_threads, n / s,
         (Op::in_words + Op::out_words) * 4.0 * n / s / 1e9, s * 1e6, cudaGetErrorString(cudaGetLastError()));
}

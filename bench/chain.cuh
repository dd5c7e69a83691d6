// CGBN's mul workload on the GPU, for any generated product or square Op: r = x0,
// then repeatedly r = the low limbs of r * x0 (the full product each time, or mul_lo).
// Operands interleaved (limb i of instance j at i n + j); in the group tier each thread
// of an instance's group holds its Q limbs of r and x0 (Op::thread, the launch's dynamic
// shared memory for a product's tables).
#pragma once
#include <cstddef>
#include <cstdint>

template <class Op, bool square>
__device__ __forceinline__ void group_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned T = Op::threads_per_instance, Q = Op::limbs_per_thread, limbs = Op::operand_limbs[0];
  const std::size_t j = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / T;
  const unsigned t = threadIdx.x % T;
  const bool live = j < n;  // every thread of the block takes part in the group's steps
  uint32_t x0[Q], r[Q];
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) r[i] = x0[i] = live && t * Q + i < limbs ? in[(t * Q + i) * n + j] : 0;
#pragma unroll 1
  for (unsigned it = 0; it < iterations; ++it) {
    uint32_t x[Op::thread_in_words], y[Op::thread_out_words];
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) {
      x[i] = r[i];
      if (!square) x[Q + i] = x0[i];
    }
    Op::thread(y, x);
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) r[i] = y[i];
  }
  if (!live) return;
#pragma unroll
  for (unsigned i = 0; i < Q; ++i)
    if (t * Q + i < limbs) out[(t * Q + i) * n + j] = r[i];
}

template <class Op, bool square>
__device__ __forceinline__ void thread_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned limbs = Op::operand_limbs[0];
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x0[limbs], r[limbs];
#pragma unroll
  for (unsigned i = 0; i < limbs; ++i) r[i] = x0[i] = in[i * n + j];
#pragma unroll 1
  for (unsigned it = 0; it < iterations; ++it) {
    uint32_t x[Op::in_words], y[Op::out_words];
#pragma unroll
    for (unsigned i = 0; i < limbs; ++i) {
      x[i] = r[i];
      if (!square) x[limbs + i] = x0[i];
    }
    Op::device(y, x);
#pragma unroll
    for (unsigned i = 0; i < limbs; ++i) r[i] = y[i];
  }
#pragma unroll
  for (unsigned i = 0; i < limbs; ++i) out[i * n + j] = r[i];
}

template <class Op, bool square>
__global__ void __launch_bounds__(Op::block_threads)
    chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  if constexpr (Op::threads_per_instance > 1) group_chain<Op, square>(n, iterations, in, out);
  else thread_chain<Op, square>(n, iterations, in, out);
}

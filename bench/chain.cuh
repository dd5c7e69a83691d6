// CGBN's mul workload on the GPU, for any generated product or square Op: r = x0,
// then repeatedly r = the low limbs of r * x0 (the full product each time).
#pragma once
#include <cstddef>
#include <cstdint>

template <class Op, bool square>
__global__ void chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
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

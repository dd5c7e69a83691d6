// A prototype of the NTT product's transform on the GPU (docs/group-tier.md), to measure its layout
// before the generator emits it: one block of 1024 threads per transform of N = 2^14
// points modulo one of the product's primes (NS), each thread holding 16 points in
// registers; decimation in frequency (natural order in, bit-reversed order out, which the
// inverse transform of a product would take as it is), four radix-2 stages at a time in
// registers, the points exchanged through shared memory between the groups of stages (a
// padding word every 32). Butterflies from the field's generated operations: b' = (a - b) w
// by montmul with w in Montgomery form. Built by bench/ntt/build.sh; prints transforms per
// second and checks 8 outputs of 2 transforms against the direct sum (64-bit arithmetic).
#define MPGEN_QUOTE_(x) #x
#define MPGEN_QUOTE(x) MPGEN_QUOTE_(x)
#include MPGEN_QUOTE(HEADER)
#include <cstdio>
#include <random>
#include <vector>

using Mul = mpgen::NS::montmul;
using Add = mpgen::NS::modadd;
using Sub = mpgen::NS::modsub;
#ifndef THREADS
#define THREADS 1024
#endif
#ifndef SHARED_TWIDDLES
#define SHARED_TWIDDLES 0
#endif
constexpr unsigned LOG_N = 14, N = 1u << LOG_N, POINTS = N / THREADS, LEVELS = __builtin_ctz(POINTS);

template <class Op>
__device__ __forceinline__ uint32_t op(uint32_t a, uint32_t b) {
  uint32_t x[2] = {a, b}, y[1];
  Op::device(y, x);
  return y[0];
}

__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// The stages with halves S POINTS / 2, ..., S 2, S (the first `skip` of them left out) on
// the POINTS points base + S k of this thread; index i = base + S k.
__device__ __forceinline__ void stages(uint32_t* x, unsigned base, unsigned stride, unsigned skip,
                                       const uint32_t* twiddles) {
#pragma unroll
  for (unsigned level = 0; level < LEVELS; ++level) {
    if (level < skip) continue;
    const unsigned span = POINTS / 2 >> level, half = stride * span;  // pairs k, k + span: indices half apart
#pragma unroll
    for (unsigned k = 0; k < POINTS; ++k) {
      if (k & span) continue;
      const unsigned i = base + stride * k, j = i & (2 * half - 1);
#if SHARED_TWIDDLES
      const uint32_t w = twiddles[j * (N / (2 * half))];
#else
      const uint32_t w = __ldg(twiddles + j * (N / (2 * half)));
#endif
      const uint32_t a = x[k], b = x[k + span];
      x[k] = op<Add>(a, b);
      x[k + span] = op<Mul>(w, op<Sub>(a, b));
    }
  }
}

__global__ void __launch_bounds__(THREADS) forward(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                                  const uint32_t* twiddles) {
  extern __shared__ uint32_t points[];  // N + N / 32 words: over the 48 KB of static ones
  const unsigned t = threadIdx.x;
#if SHARED_TWIDDLES  // the table copied after the points (N / 2 words more)
  uint32_t* const table = points + N + N / 32;
  for (unsigned e = t; e < N / 2; e += THREADS) table[e] = twiddles[e];
  __syncthreads();
  twiddles = table;
#endif
  const uint32_t* const mine = in + std::size_t(blockIdx.x) * N;
  uint32_t x[POINTS];
#pragma unroll
  for (unsigned k = 0; k < POINTS; ++k) x[k] = mine[t + THREADS * k];  // coalesced
  // groups of LEVELS stages at strides N / POINTS, N / POINTS^2, ..., the last at stride 1
  // skipping the stages done (1024 threads: strides 1024, 64, 4, 1, 4 + 4 + 4 + 2 stages)
  constexpr unsigned groups = (LOG_N + LEVELS - 1) / LEVELS;
#pragma unroll
  for (unsigned g = 0; g < groups; ++g) {
    const unsigned s = g + 1 < groups ? N >> LEVELS * (g + 1) : 1, base = t / s * (POINTS * s) + t % s;
    if (g) {
#pragma unroll
      for (unsigned k = 0; k < POINTS; ++k) x[k] = points[padded(base + s * k)];
    }
    stages(x, base, s, g + 1 < groups ? 0 : LEVELS * groups - LOG_N, twiddles);
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < POINTS; ++k) points[padded(base + s * k)] = x[k];
    __syncthreads();
  }
  uint32_t* const result = out + std::size_t(blockIdx.x) * N;
#pragma unroll
  for (unsigned k = 0; k < POINTS; ++k) result[t + THREADS * k] = points[padded(t + THREADS * k)];
}

uint64_t power(uint64_t b, uint64_t e, uint64_t p) {
  uint64_t r = 1;
  for (b %= p; e; e >>= 1, b = b * b % p)
    if (e & 1) r = r * b % p;
  return r;
}

unsigned bit_reversed(unsigned i) {
  unsigned r = 0;
  for (unsigned b = 0; b < LOG_N; ++b) r |= (i >> b & 1) << (LOG_N - 1 - b);
  return r;
}

int main() {
  const uint64_t p = mpgen::NS::modulus[0];
  std::vector<uint64_t> factors;  // of p - 1, for the primitive root
  for (uint64_t m = p - 1, q = 2; m > 1; ++q)
    if (m % q == 0) {
      factors.push_back(q);
      while (m % q == 0) m /= q;
    }
  uint64_t g = 2;
  for (bool primitive = false; !primitive; primitive || ++g) {
    primitive = true;
    for (uint64_t q : factors) primitive = primitive && power(g, (p - 1) / q, p) != 1;
  }
  const uint64_t root = power(g, (p - 1) / N, p);
  std::vector<uint32_t> twiddles(N / 2);
  for (unsigned e = 0; e < N / 2; ++e) twiddles[e] = uint32_t((power(root, e, p) << 32) % p);
  const unsigned transforms = 16384;  // a 2^32-bit batch of 2^18-bit operands: one prime's
  std::vector<uint32_t> host(std::size_t(N) * transforms);
  std::mt19937 rng(1);
  for (auto& v : host) v = rng() % p;
  uint32_t *in, *out, *tw;
  cudaMalloc(&in, host.size() * 4), cudaMalloc(&out, host.size() * 4), cudaMalloc(&tw, twiddles.size() * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(tw, twiddles.data(), twiddles.size() * 4, cudaMemcpyHostToDevice);
  const int shared = 4 * (N + N / 32 + (SHARED_TWIDDLES ? N / 2 : 0));
  cudaFuncSetAttribute(forward, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);
  forward<<<transforms, THREADS, shared>>>(in, out, tw);
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  const int reps = 5;
  cudaEventRecord(start);
  for (int r = 0; r < reps; ++r) forward<<<transforms, THREADS, shared>>>(in, out, tw);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::vector<uint32_t> got(host.size());
  cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost);
  unsigned wrong = 0;
  for (unsigned j : {0u, transforms - 1})
    for (unsigned r : {0u, 1u, 2u, 777u, 4096u, 8191u, 12345u, N - 1}) {
      const uint64_t k = bit_reversed(r), step = power(root, k, p);
      uint64_t sum = 0, w = 1;
      for (unsigned i = 0; i < N; ++i, w = w * step % p) sum = (sum + host[std::size_t(j) * N + i] * w) % p;
      wrong += sum != got[std::size_t(j) * N + r];
    }
  const double s = ms * 1e-3 / reps;
  std::printf("%s, %u threads of %u points, twiddles from %s: forward transforms of 2^%u points: %.4g per second (%.1f us per batch of %u; %.3g T butterflies/s;"
              " %s, %u of 16 checked wrong)\n", MPGEN_QUOTE(NS), THREADS, POINTS, SHARED_TWIDDLES ? "shared memory" : "the read-only cache", LOG_N, transforms / s, s * 1e6, transforms,
              transforms / s * (N / 2) * LOG_N / 1e12, cudaGetErrorString(cudaGetLastError()), wrong);
}

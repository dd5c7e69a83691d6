// One candidate prime's NTT butterfly (data/ntt.toml's candidates): (a, b) -> (a + w b,
// a - w b) mod p, from the field's generated operations (MUL: montmul with w in Montgomery
// form, which gives w b itself, or modmul), chained in registers, 8 independent pairs a
// thread: butterflies per second. Built once per prime by bench/ntt/build.sh (HEADER, NS and MUL name them).
#define MPGEN_QUOTE_(x) #x
#define MPGEN_QUOTE(x) MPGEN_QUOTE_(x)
#include MPGEN_QUOTE(HEADER)
#include <cstdio>

using Mul = mpgen::NS::MUL;
using Add = mpgen::NS::modadd;
using Sub = mpgen::NS::modsub;
constexpr unsigned L = Add::result_limbs, P = 8;

__global__ void butterflies(unsigned iterations, uint32_t* out) {
  uint32_t a[P][L], b[P][L], w[L];
  const uint32_t seed = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned i = 0; i < L; ++i) {  // below every candidate p: 29 bits a limb
    w[i] = (seed * 0x9E3779B9u + i) & 0x1fffffffu;
    for (unsigned k = 0; k < P; ++k)
      a[k][i] = (seed * 0x85EBCA6Bu + 77 * k + i) & 0x1fffffffu, b[k][i] = (seed * 0xC2B2AE35u + 31 * k + i) & 0x1fffffffu;
  }
#pragma unroll 1
  for (unsigned it = 0; it < iterations; ++it) {
#pragma unroll
    for (unsigned k = 0; k < P; ++k) {
      uint32_t x[2 * L], t[L], s[L], d[L];
      for (unsigned i = 0; i < L; ++i) x[i] = w[i], x[L + i] = b[k][i];
      Mul::device(t, x);
      for (unsigned i = 0; i < L; ++i) x[i] = a[k][i], x[L + i] = t[i];
      Add::device(s, x);
      Sub::device(d, x);
      for (unsigned i = 0; i < L; ++i) a[k][i] = s[i], b[k][i] = d[i];
    }
  }
  uint32_t folded = 0;
  for (unsigned k = 0; k < P; ++k)
    for (unsigned i = 0; i < L; ++i) folded ^= a[k][i] ^ b[k][i];
  out[seed] = folded;
}

int main() {
  const unsigned threads = 256, blocks = 1024 * 132 / 128, iterations = 2048;
  uint32_t* out;
  cudaMalloc(&out, 4u * threads * blocks);
  butterflies<<<blocks, threads>>>(16, out);
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  cudaEventRecord(start);
  butterflies<<<blocks, threads>>>(iterations, out);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  const double count = double(threads) * blocks * iterations * P;
  std::printf("%s (%u bits, %s): %.4g butterflies/s (%s)\n", MPGEN_QUOTE(NS), Add::bits, Mul::name,
              count / (ms * 1e-3), cudaGetErrorString(cudaGetLastError()));
}

// Embedding: this file includes one generated header and nothing else of mpgen (no
// runtime), compiles with nvcc, and its kernels must give GMP's answers: on the GPU
// when one is present, and on the CPU through the header's host rendering always.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <gmp.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "mpgen_u131.cuh"  // after gmp.h: its value type converts from and to mpz_t
#include "on_gpu.cuh"

namespace {

// The value of words [first, first + count) of instance j (interleaved, n instances).
void value(mpz_t v, const std::vector<uint32_t>& words, std::size_t n, std::size_t j, unsigned first,
           unsigned count) {
  std::vector<uint32_t> limbs(count);
  for (unsigned i = 0; i < count; ++i) limbs[i] = words[(first + i) * n + j];
  mpz_import(v, count, -1, 4, 0, 0, limbs.data());
}

template <class Op>
void check(void (*reference)(mpz_t, const mpz_t, const mpz_t)) {
  constexpr std::size_t n = 4096;
  constexpr unsigned limbs = Op::operand_limbs[0];
  std::mt19937 rng(131);
  std::vector<uint32_t> in(Op::in_words * n, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (unsigned k = 0; k < Op::operands; ++k)
      for (unsigned i = 0; i < limbs; ++i) {
        uint32_t w = j % 7 == 0 ? 0xffffffffu : rng();
        if (i == limbs - 1) w &= (1u << (Op::bits % 32)) - 1;  // 131 bits: 3 in the top limb
        in[(k * limbs + i) * n + j] = w;
      }
  std::vector<std::vector<uint32_t>> results;
  std::vector<uint32_t> host(Op::out_words * n);
  mpgen::host_batch<Op>(n, mpgen::Layout::interleaved, in.data(), host.data());
  results.push_back(host);
  if (gpu_present()) {
    results.push_back(on_gpu<Op>(n, in, mpgen::Layout::interleaved));
    // The contiguous layout, staged through shared memory and not, over a last warp of 27
    // instances: the host's words.
    const std::size_t m = n - 5;
    std::vector<uint32_t> contiguous(Op::out_words * m);
    mpgen::host_batch<Op>(m, mpgen::Layout::contiguous, in.data(), contiguous.data());
    static_assert(Op::stage_stride != 0, "the staged path is what this checks");
    for (bool staged : {true, false})
      CHECK_MESSAGE(on_gpu<Op>(m, in, mpgen::Layout::contiguous, staged) == contiguous,
                    Op::name << ": contiguous layout on the GPU, " << (staged ? "staged" : "unstaged"));
  }

  mpz_t a, b, want, got;
  mpz_inits(a, b, want, got, nullptr);
  for (const auto& out : results) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < n; ++j) {
      value(a, in, n, j, 0, limbs);
      value(b, in, n, j, limbs, limbs);
      reference(want, a, Op::operands == 2 ? b : a);
      value(got, out, n, j, 0, Op::out_words);
      wrong += mpz_cmp(got, want) != 0;
    }
    CHECK_MESSAGE(wrong == 0, Op::name << ": " << wrong << " of " << n << " differ from GMP ("
                                      << (&out == &results.front() ? "CPU" : "GPU") << ")");
  }
  mpz_clears(a, b, want, got, nullptr);
}

}  // namespace

TEST_CASE("a generated header alone gives GMP's products and squares") {
  check<mpgen::u131::mul>(mpz_mul);
  check<mpgen::u131::sqr>(mpz_mul);
  MESSAGE("GPU path " << (gpu_present() ? "checked" : "not checked: no GPU"));
}

namespace {

using Value = mpgen::u131::value;

// What the value test computes: (a ^ b) + (a << 7) - (b >> 3), and a * b in full.
struct Computed {
  Value mixed;
  Value::wide product;
};

__host__ __device__ Computed compute(const Value& a, const Value& b) {
  return {(a ^ b) + (a << 7u) - (b >> 3u), a * b};
}

__global__ void compute_kernel(std::size_t n, const Value* a, const Value* b, Computed* r) {
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j < n) r[j] = compute(a[j], b[j]);
}

}  // namespace

TEST_CASE("the header's value type gives GMP's answers, on the CPU and the GPU") {
  constexpr std::size_t n = 1000;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  mpz_t a, b, want, got, modulus, t;
  mpz_inits(a, b, want, got, modulus, t, nullptr);
  mpz_setbit(modulus, Value::bits);
  std::vector<Value> x(n), y(n);
  std::vector<Computed> host(n), gpu(n);
  for (std::size_t j = 0; j < n; ++j) {
    mpz_urandomb(a, rng, Value::bits);
    mpz_urandomb(b, rng, Value::bits);
    x[j] = Value::from_mpz(a);
    y[j] = Value::from_mpz(b);
    host[j] = compute(x[j], y[j]);
  }
  std::vector<const std::vector<Computed>*> results = {&host};
  if (gpu_present()) {
    Value *d_x, *d_y;
    Computed* d_r;
    REQUIRE(cudaMalloc(&d_x, n * sizeof(Value)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_y, n * sizeof(Value)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_r, n * sizeof(Computed)) == cudaSuccess);
    cudaMemcpy(d_x, x.data(), n * sizeof(Value), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y.data(), n * sizeof(Value), cudaMemcpyHostToDevice);
    compute_kernel<<<unsigned((n + 127) / 128), 128>>>(n, d_x, d_y, d_r);
    REQUIRE(cudaMemcpy(gpu.data(), d_r, n * sizeof(Computed), cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_r);
    results.push_back(&gpu);
  }
  for (const auto* result : results) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < n; ++j) {
      x[j].to_mpz(a);
      y[j].to_mpz(b);
      mpz_xor(want, a, b);
      mpz_mul_2exp(t, a, 7);
      mpz_add(want, want, t);
      mpz_fdiv_q_2exp(t, b, 3);
      mpz_sub(want, want, t);
      mpz_mod(want, want, modulus);
      (*result)[j].mixed.to_mpz(got);
      wrong += mpz_cmp(got, want) != 0;
      mpz_mul(want, a, b);
      mpz_import(got, Value::wide::limbs, -1, 4, 0, 0, (*result)[j].product.w);
      wrong += mpz_cmp(got, want) != 0;
    }
    CHECK_MESSAGE(wrong == 0, wrong << " wrong on the " << (result == &host ? "CPU" : "GPU"));
  }
  MESSAGE("value type on the GPU " << (gpu_present() ? "checked" : "not checked: no GPU"));
  mpz_clears(a, b, want, got, modulus, t, nullptr);
  gmp_randclear(rng);
}

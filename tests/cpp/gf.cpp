// Generalized Fermat prime fields p = r^k + 1 (seed 002) against GMP: add, sub, neg, mul and
// multiplication by r and r^3 for the seed's table 3.1 at k = 2, 4, 8, 16, on edge values (0,
// 1, p - 1, p - 2, r^i, r^i +- 1, digits at their largest) and random elements; each result
// must be the exact residue's unique representation (digits below r; p - 1 as (0, ..., 0, r)).
// Built by nvcc (MPGEN_GPU_TESTS), the same lists run on the GPU too.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <gmp.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpgen_gf16.cuh"
#include "mpgen_gf2.cuh"
#include "mpgen_gf4.cuh"
#include "mpgen_gf8.cuh"
#include "mpz.hpp"

namespace {

template <unsigned K>
struct Field {
  Mpz r, p;
  explicit Field(const uint32_t (&radix)[2]) {
    mpz_set_ui(r.v, radix[1]);
    mpz_mul_2exp(r.v, r.v, 32);
    mpz_add_ui(r.v, r.v, radix[0]);
    mpz_pow_ui(p.v, r.v, K);
    mpz_add_ui(p.v, p.v, 1);
  }

  // v (0 <= v < p) as its 2K words: digits by GMP's division by r.
  std::vector<uint32_t> words(const mpz_t v) const {
    std::vector<uint32_t> w(2 * K, 0);
    Mpz rest, digit, top;
    mpz_sub_ui(top.v, p.v, 1);
    if (mpz_cmp(v, top.v) == 0) {  // r^K: the top digit is r
      w[2 * K - 2] = uint32_t(mpz_get_ui(r.v) & 0xffffffffu);
      mpz_tdiv_q_2exp(digit.v, r.v, 32);
      w[2 * K - 1] = uint32_t(mpz_get_ui(digit.v));
      return w;
    }
    mpz_set(rest.v, v);
    for (unsigned i = 0; i < K; ++i) {
      mpz_fdiv_qr(rest.v, digit.v, rest.v, r.v);
      std::vector<uint32_t> pair(2, 0);
      mpz_export(pair.data(), nullptr, -1, 4, 0, 0, digit.v);
      w[2 * i] = pair[0], w[2 * i + 1] = pair[1];
    }
    return w;
  }

  // Edge values and random ones, below p.
  std::vector<Mpz> values(gmp_randstate_t state, unsigned random_count) const {
    std::vector<Mpz> v(6 + 3 * K + K + random_count);
    std::size_t n = 0;
    mpz_set_ui(v[n++].v, 0);
    mpz_set_ui(v[n++].v, 1);
    mpz_set_ui(v[n++].v, 2);
    mpz_sub_ui(v[n++].v, p.v, 1);
    mpz_sub_ui(v[n++].v, p.v, 2);
    mpz_sub_ui(v[n++].v, r.v, 1);
    Mpz power, largest;
    mpz_set_ui(power.v, 1);
    for (unsigned i = 0; i < K; ++i) {
      mpz_set(v[n++].v, power.v);          // r^i
      mpz_sub_ui(v[n++].v, power.v, 1);     // r^i - 1: digits at their largest below i
      mpz_add_ui(v[n++].v, power.v, 1);
      mpz_mul(power.v, power.v, r.v);
      mpz_sub_ui(largest.v, power.v, 1);    // r^(i+1) - 1
      mpz_mod(v[n++].v, largest.v, p.v);
    }
    while (n < v.size()) mpz_urandomm(v[n++].v, state, p.v);
    for (auto& x : v) mpz_mod(x.v, x.v, p.v);
    return v;
  }
};

// The operations tested and GMP's answer for each.
enum class Op { add, sub, neg, mul, mul_r1, mul_r3 };
const char* const op_names[] = {"add", "sub", "neg", "mul", "mul_r1", "mul_r3"};

template <unsigned K>
void expected(const Field<K>& f, Op op, mpz_t out, const mpz_t a, const mpz_t b) {
  Mpz t;
  switch (op) {
    case Op::add: mpz_add(out, a, b); break;
    case Op::sub: mpz_sub(out, a, b); break;
    case Op::neg: mpz_neg(out, a); break;
    case Op::mul: mpz_mul(out, a, b); break;
    case Op::mul_r1: mpz_mul(out, a, f.r.v); break;
    case Op::mul_r3: mpz_pow_ui(t.v, f.r.v, 3), mpz_mul(out, a, t.v); break;
  }
  mpz_mod(out, out, f.p.v);
}

template <class Module, class F>
void with_op(Op op, F&& f) {
  switch (op) {
    case Op::add: f(typename Module::add{}); break;
    case Op::sub: f(typename Module::sub{}); break;
    case Op::neg: f(typename Module::neg{}); break;
    case Op::mul: f(typename Module::mul{}); break;
    case Op::mul_r1: f(typename Module::mul_r1{}); break;
    case Op::mul_r3: f(typename Module::mul_r3{}); break;
  }
}

#ifdef __CUDACC__
template <class O>
__global__ void each(std::size_t n, const uint32_t* in, uint32_t* out) {
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j < n) O::device(out + j * O::out_words, in + j * O::in_words);
}

bool gpu_present() {
  int count = 0;
  const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  if (std::getenv("MPGEN_REQUIRE_GPU")) REQUIRE_MESSAGE(present, "MPGEN_REQUIRE_GPU is set and no GPU is present");
  return present;
}
#endif

// Every operation on every pair of the values (the second operand from a sample of them),
// on the host and, built by nvcc with a GPU present, on the GPU.
template <class Module, unsigned K>
void check_field() {
  const Field<K> f(Module::radix);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 22 + K);
  const std::vector<Mpz> values = f.values(state, 40);
  Mpz want;
  for (Op op : {Op::add, Op::sub, Op::neg, Op::mul, Op::mul_r1, Op::mul_r3})
    with_op<Module>(op, [&](auto o) {
      using O = decltype(o);
      const unsigned operands = O::in_words / Module::words;
      std::vector<uint32_t> in, out_host, want_words;
      std::size_t n = 0;
      for (std::size_t a = 0; a < values.size(); ++a)
        for (std::size_t b = 0; b < (operands == 2 ? values.size() : 1); b += operands == 2 ? 3 : 1) {
          const auto x = f.words(values[a].v), y = f.words(values[b].v);
          in.insert(in.end(), x.begin(), x.end());
          if (operands == 2) in.insert(in.end(), y.begin(), y.end());
          expected(f, op, want.v, values[a].v, values[b].v);
          const auto w = f.words(want.v);
          want_words.insert(want_words.end(), w.begin(), w.end());
          ++n;
        }
      out_host.resize(n * O::out_words);
      for (std::size_t j = 0; j < n; ++j) O::host(&out_host[j * O::out_words], &in[j * O::in_words]);
      INFO(op_names[int(op)] << " modulo (r^" << K << " + 1)");
      for (std::size_t j = 0; j < n; ++j) {
        CAPTURE(j);
        REQUIRE(std::vector<uint32_t>(out_host.begin() + j * O::out_words, out_host.begin() + (j + 1) * O::out_words) ==
                std::vector<uint32_t>(want_words.begin() + j * O::out_words, want_words.begin() + (j + 1) * O::out_words));
      }
#ifdef __CUDACC__
      if (!gpu_present()) return;
      uint32_t *d_in = nullptr, *d_out = nullptr;
      REQUIRE(cudaMalloc(&d_in, in.size() * 4) == cudaSuccess);
      REQUIRE(cudaMalloc(&d_out, n * O::out_words * 4) == cudaSuccess);
      cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
      each<O><<<unsigned((n + 127) / 128), 128>>>(n, d_in, d_out);
      std::vector<uint32_t> out_gpu(n * O::out_words);
      REQUIRE(cudaMemcpy(out_gpu.data(), d_out, out_gpu.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
      cudaFree(d_in);
      cudaFree(d_out);
      INFO("on the GPU");
      REQUIRE(out_gpu == want_words);
#endif
    });
  gmp_randclear(state);
}

}  // namespace

TEST_CASE("generalized Fermat fields of the seed's table 3.1 agree with GMP") {
  check_field<mpgen::gf2::module, 2>();
  check_field<mpgen::gf4::module, 4>();
  check_field<mpgen::gf8::module, 8>();
  check_field<mpgen::gf16::module, 16>();
}

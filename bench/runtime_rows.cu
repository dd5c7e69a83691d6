// mpgen-bench's rows with the modulus given at run time, one integer per thread: CGBN's
// powm_odd and mont_reduce workloads with each instance its own modulus, and its div_qr,
// gcd, modinv and sqrt workloads.
#include "mpgen_u1024.cuh"
#include "mpgen_u128.cuh"
#include "mpgen_u2048.cuh"
#include "mpgen_u256.cuh"
#include "mpgen_u512.cuh"

#include "measures.cuh"
#include "powm_check.hpp"

// Random odd moduli of the full size, as CGBN's powm_odd workload.
#define MPGEN_BENCH_RUNTIME(X) X(128) X(256) X(512) X(1024) X(2048)

namespace bench {
namespace {

// The same workload with the modulus given at run time, as CGBN's: each instance its own
// random odd p of the full size, its constants computed first (runtime_montgomery's
// set_modulus: mont_minus_inverse, then mont_radix_squared's two divisions), then the same
// windows in its Montgomery form (the integer module's montmul and montsqr).
template <class MontMul, class MontSqr, class MinusInverse, class Normalize, class Step, class Finish, unsigned window>
__global__ void powm_runtime(std::size_t n, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = MontMul::result_limbs, W = powm_exponent_bits / 32;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t a[N], e[W], p[N], r[N];
  for (unsigned i = 0; i < N; ++i) a[i] = in[i * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);  // below p
  for (unsigned i = 0; i < W; ++i) e[i] = in[(N + i) * n + j];
  for (unsigned i = 0; i < N; ++i) p[i] = in[(N + W + i) * n + j] | (i == 0 ? 1u : 0u) | (i == N - 1 ? 0x80000000u : 0u);
  mpgen::loops::runtime_montgomery<MontMul, MontSqr, N, window, false> d;
  d.template set_modulus<MinusInverse, Normalize, Step, Finish>(p);
  mpgen::loops::window_power<decltype(d), powm_exponent_bits, window, false>(d, r, a, e);
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = r[i];
}

template <class MontMul, class MontSqr, class MinusInverse, class Normalize, class Step, class Finish>
Row powm_runtime_row(const Ceilings& c, std::size_t n) {
  constexpr unsigned N = MontMul::result_limbs, window = 5;
  const auto host = random_words((2 * N + powm_exponent_bits / 32) * n, 13);
  std::vector<uint32_t> got;
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    powm_runtime<MontMul, MontSqr, MinusInverse, Normalize, Step, Finish, window>
        <<<blocks_for<MontMul>(n), MontMul::block_threads>>>(n, in, out);
  }, 1, &got);
  check_powm(host, got, n, N, powm_exponent_bits / 32, MontMul::bits, "modexp (modulus at run time)");
  constexpr unsigned windows = (powm_exponent_bits + window - 1) / window, half = 1u << (window - 1);
  const double squares = half - 1 + window * (windows - 1.0), products = half - 1 + windows - 1.0 + 3;
  const double halves = squares * MontSqr::multiplies + products * MontMul::multiplies;  // the setup's not counted
  const double rate = n / s;
  return {"modexp, 512-bit exponent, 5-bit windows, modulus at run time (CGBN powm_odd)", "gpu", MontMul::bits, rate,
          rate * halves / c.multiply_halves_per_s, "multiply-add ceiling (products only)", cgbn_powm(MontMul::bits),
          "CGBN powm_odd"};
}

// CGBN's mont_reduce workload with the modulus at run time: r = (x0 R + r) R^-1 mod p,
// `iterations` times per thread, each thread its own random odd p of the full size (its
// -p^-1 mod 2^32 from mont_minus_inverse), x0 below p.
template <class Redc, class MinusInverse>
__global__ void runtime_redc_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Redc::result_limbs;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[3 * N + 1], y[N], word[2];
  for (unsigned i = 0; i < N; ++i) {
    x[i] = in[i * n + j];
    x[N + i] = in[(N + i) * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);
    x[2 * N + i] = in[(2 * N + i) * n + j] | (i == 0 ? 1u : 0u) | (i == N - 1 ? 0x80000000u : 0u);
  }
  MinusInverse::device(word, x + 2 * N);
  x[3 * N] = word[0];
#pragma unroll 1  // one copy of the long body: unrolling it costs ptxas minutes and gains nothing
  for (unsigned k = 0; k < iterations; ++k) {
    Redc::device(y, x);
    for (unsigned i = 0; i < N; ++i) x[i] = y[i];
  }
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = x[i];
}

template <class Redc, class MinusInverse>
Row runtime_redc_row(std::size_t n, unsigned iterations) {
  constexpr unsigned N = Redc::result_limbs;
  const auto host = random_words(3 * N * n, 23);
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    runtime_redc_chain<Redc, MinusInverse><<<blocks_for<Redc>(n), Redc::block_threads>>>(n, iterations, in, out);
  }, 3);
  return {"montredc chain, modulus at run time (CGBN mont_reduce)", "gpu", Redc::bits, double(n) * iterations / s,
          0, "", cgbn_mont_reduce(Redc::bits), "CGBN mont_reduce"};
}

// CGBN's div_qr workload: (q, r) = (r 2^(32 N) + q) / b, `iterations` times per thread,
// from q = a and r = b / 2 (below b, so every quotient fits).
template <class Div>
__global__ void divide_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Div::operand_limbs[1];
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[3 * N], y[2 * N + 1];
  for (unsigned i = 0; i < N; ++i) {
    x[i] = in[i * n + j];
    x[2 * N + i] = in[(N + i) * n + j] | (i == N - 1 ? 0x80000000u : 0u);
  }
  for (unsigned i = 0; i < N; ++i) x[N + i] = (x[2 * N + i] >> 1) | (i + 1 < N ? x[2 * N + i + 1] << 31 : 0u);
#pragma unroll 1  // one copy of the long body: unrolling it costs ptxas minutes and gains nothing
  for (unsigned k = 0; k < iterations; ++k) {
    Div::device(y, x);
    for (unsigned i = 0; i < 2 * N; ++i) x[i] = y[i];
  }
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = x[N + i];
}

template <class Div>
Row divide_row(std::size_t n, unsigned iterations) {
  constexpr unsigned N = Div::operand_limbs[1];
  const auto host = random_words(2 * N * n, 17);
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    divide_chain<Div><<<blocks_for<Div>(n), Div::block_threads>>>(n, iterations, in, out);
  }, 1);
  return {"div_qr_wide chain (CGBN div_qr)", "gpu", Div::bits, double(n) * iterations / s, 0, "", 0, ""};
}

// CGBN's gcd and modinv workloads: r = Op(a, b), then a + 1 and b + 1, `iterations` times per
// thread (modinv's modulus b forced odd, as ours needs); and its sqrt workload, here on a
// value of the width: r = sqrt(a), then a's low half replaced by r.
template <class Op, bool odd_second>
__global__ void pair_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Op::result_limbs, K = Op::operands;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[K * N], y[Op::out_words], acc = 0;
  for (unsigned i = 0; i < K * N; ++i) x[i] = in[i * n + j];
  if (odd_second) x[N] |= 1;
  if (K == 2 && odd_second) x[N - 1] &= 0x7fffffffu, x[2 * N - 1] |= 0x80000000u;  // a below p
#pragma unroll 1  // one copy of the long body: unrolling it costs ptxas minutes and gains nothing
  for (unsigned k = 0; k < iterations; ++k) {
    Op::device(y, x);
    acc += y[0];
    if (K == 1) {
      for (unsigned i = 0; i < N / 2; ++i) x[i] = y[i];
    } else {
      x[0] += 1;
      x[N] += odd_second ? 2 : 1;
    }
  }
  out[j] = acc;
}

template <class Op, bool odd_second>
Row pair_row(const char* workload, std::size_t n, unsigned iterations) {
  const auto host = random_words(Op::in_words * n, 19);
  const double s = timed_on_device(host, n, [&](const uint32_t* in, uint32_t* out) {
    pair_chain<Op, odd_second><<<blocks_for<Op>(n), Op::block_threads>>>(n, iterations, in, out);
  }, 1);
  return {workload, "gpu", Op::bits, double(n) * iterations / s, 0, "", 0, ""};
}

}  // namespace

void runtime_modulus_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty()) return;
  const Ceilings& c = s.ceilings;
#define RUNTIME_MODULUS_ROWS(b)                                                                                    \
  if (s.wanted(b)) {                                                                                              \
    rows.push_back(powm_runtime_row<mpgen::u##b::montmul, mpgen::u##b::montsqr, mpgen::u##b::mont_minus_inverse,  \
                                    mpgen::u##b::division_normalize, mpgen::u##b::division_step,                  \
                                    mpgen::u##b::division_finish>(c, s.powm_n(b)));                                 \
    rows.push_back(                                                                                               \
        runtime_redc_row<mpgen::u##b::montredc, mpgen::u##b::mont_minus_inverse>(s.chain_n(), 100 * 8192 / b));   \
    rows.push_back(divide_row<mpgen::u##b::div_qr_wide>(s.powm_n(b), 8));                                           \
    rows.push_back(pair_row<mpgen::u##b::gcd, false>("gcd chain (CGBN gcd)", s.powm_n(b) / 4, 2));                  \
    rows.push_back(pair_row<mpgen::u##b::modinv, true>("modinv chain, modulus at run time (CGBN modinv)",         \
                                                       s.powm_n(b) / 4, 2));                                        \
    rows.push_back(pair_row<mpgen::u##b::sqrt, false>("sqrt chain, of a value of the width", s.powm_n(b) / 4, 4));  \
  }
  MPGEN_BENCH_RUNTIME(RUNTIME_MODULUS_ROWS)
}

}  // namespace bench

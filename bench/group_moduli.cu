// The group tier's run-time-modulus, division, gcd, modinv and sqrt workloads for mpgen-bench (bench/group_moduli.cuh), apart
// from its main source: these sizes hold Montgomery's operations (CMakeLists.txt), where
// mpgen-bench's own group modules hold the products alone.
#include "group_moduli.cuh"
#include "bench_util.cuh"
#include "powm_check.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "mpgen_u4096.cuh"
#include "mpgen_u8192.cuh"

namespace group_moduli {
namespace {

using bench::blocks_for, bench::check, bench::random_words, bench::timed_on_device;

template <class Kernel>
void ask_shared(Kernel kernel, unsigned bytes) {
  if (bytes) check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
                   "asking for shared memory");
}

template <class Redc, class MinusInverse>
double redc_rate(std::size_t n, unsigned iterations) {
  static_assert(Redc::threads_per_instance == MinusInverse::threads_per_instance &&
                Redc::limbs_per_thread == MinusInverse::limbs_per_thread, "one geometry");
  const unsigned shared = std::max(Redc::shared_bytes, MinusInverse::shared_bytes);
  ask_shared(redc_chain<Redc, MinusInverse>, shared);
  const double s = timed_on_device(random_words(3 * Redc::result_limbs * n, 23), Redc::result_limbs * n,
                                   [&](const uint32_t* in, uint32_t* out) {
    redc_chain<Redc, MinusInverse><<<blocks_for<Redc>(n), Redc::block_threads, shared>>>(n, iterations, in, out);
  }, 3);
  return double(n) * iterations / s;
}

template <class MontMul, class MontSqr, class MinusInverse, class RadixSquared, class FromMont>
double powm_instances_rate(std::size_t n) {
  constexpr unsigned N = MontMul::result_limbs, E = exponent_bits / 32;
  const unsigned shared = std::max({MontMul::shared_bytes, MontSqr::shared_bytes, MinusInverse::shared_bytes,
                                    RadixSquared::shared_bytes, FromMont::shared_bytes});
  const auto kernel = powm<MontMul, MontSqr, MinusInverse, RadixSquared, FromMont>;
  ask_shared(kernel, shared);
  const auto host = random_words((2 * N + E) * n, 13);
  std::vector<uint32_t> got;
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    kernel<<<blocks_for<MontMul>(n), MontMul::block_threads, shared>>>(n, in, out);
  }, 1, &got);
  check_powm(host, got, n, N, E, MontMul::bits, "powm (group tier, modulus at run time)");
  return n / s;
}

// The chain's first instances again with GMP: a row's words as the kernel reads them.
void check_divide(const std::vector<uint32_t>& host, const std::vector<uint32_t>& got, std::size_t n, unsigned N,
                  unsigned iterations, unsigned bits) {
  mpz_t q, r, b, a, result;
  mpz_inits(q, r, b, a, result, nullptr);
  for (std::size_t j = 0; j < std::min<std::size_t>(n, 8); ++j) {
    const auto at = [&](mpz_t v, unsigned first, uint32_t clear, uint32_t top, uint32_t low) {
      std::vector<uint32_t> w(N);
      for (unsigned i = 0; i < N; ++i)
        w[i] = (host[(first + i) * n + j] & ~(i == N - 1 ? clear : 0u)) | (i == N - 1 ? top : 0u) | (i ? 0u : low);
      mpz_import(v, N, -1, 4, 0, 0, w.data());
    };
    at(q, 0, 0, 0, 0);
    at(r, N, 0x80000000u, 0, 0);
    at(b, N, 0, 0x80000000u, 1);
    for (unsigned k = 0; k < iterations; ++k) {
      mpz_mul_2exp(a, r, 32 * N);
      mpz_add(a, a, q);
      mpz_fdiv_qr(q, r, a, b);
    }
    std::vector<uint32_t> w(N);
    for (unsigned i = 0; i < N; ++i) w[i] = got[i * n + j];
    mpz_import(result, N, -1, 4, 0, 0, w.data());
    if (mpz_cmp(r, result) != 0) {
      std::fprintf(stderr, "mpgen-bench: error: div_qr_wide chain (group tier) at %u bits: instance %zu differs "
                   "from GMP\n", bits, j);
      std::exit(1);
    }
  }
  mpz_clears(q, r, b, a, result, nullptr);
}

template <class Div>
double divide_rate(std::size_t n, unsigned iterations) {
  constexpr unsigned N = Div::operand_limbs[1];
  ask_shared(divide_chain<Div>, Div::shared_bytes);
  const auto host = random_words(2 * N * n, 17);
  std::vector<uint32_t> got;
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    divide_chain<Div><<<blocks_for<Div>(n), Div::block_threads, Div::shared_bytes>>>(n, iterations, in, out);
  }, 1, &got);
  check_divide(host, got, n, N, iterations, Div::bits);
  return double(n) * iterations / s;
}

template <class Op, bool modulus>
double pair_rate(std::size_t n, unsigned iterations) {
  ask_shared(pair_chain<Op, modulus>, Op::shared_bytes);
  const double s = timed_on_device(random_words(2 * Op::result_limbs * n, 19), n, [&](const uint32_t* in, uint32_t* out) {
    pair_chain<Op, modulus><<<blocks_for<Op>(n), Op::block_threads, Op::shared_bytes>>>(n, iterations, in, out);
  }, 1);
  return double(n) * iterations / s;
}

// The generated operation itself from memory (its own batch kernel), random operands:
// constant time, so that the values do not change the rate.
template <class Op>
double batch_rate(std::size_t n) {
  const double s = timed_on_device(random_words(Op::in_words * n, 29), Op::out_words * n,
                                   [&](const uint32_t* in, uint32_t* out) {
    check(mpgen::launch_batch<Op>(n, mpgen::Layout::contiguous, in, out), "launching the batch");
  }, 1);
  return n / s;
}

}  // namespace

double modexp_rate(unsigned bits, std::size_t n) {
  switch (bits) {
    case 4096: return batch_rate<mpgen::u4096::modexp>(n);
    case 8192: return batch_rate<mpgen::u8192::modexp>(n);
    default: return 0;
  }
}

double step_chain_rate(const std::string& op, unsigned bits, std::size_t n, unsigned iterations) {
  switch (bits) {
#define STEPS(m, b)                                                                                 \
  case b:                                                                                           \
    return op == "gcd"      ? pair_rate<mpgen::m::gcd, false>(n, iterations)                        \
           : op == "modinv" ? pair_rate<mpgen::m::modinv, true>(n, iterations)                      \
                            : pair_rate<mpgen::m::sqrt, false>(n, iterations);
    STEPS(u4096, 4096) STEPS(u8192, 8192)
#undef STEPS
    default: return 0;
  }
}

double divide_chain_rate(unsigned bits, std::size_t n, unsigned iterations) {
  switch (bits) {
#define DIVIDE(m, b) \
  case b: return divide_rate<mpgen::m::div_qr_wide>(n, iterations);
    DIVIDE(u4096, 4096) DIVIDE(u8192, 8192)
#undef DIVIDE
    default: return 0;
  }
}

double redc_chain_rate(unsigned bits, std::size_t n, unsigned iterations) {
  switch (bits) {
#define REDC(m, b) \
  case b: return redc_rate<mpgen::m::montredc, mpgen::m::mont_minus_inverse>(n, iterations);
    REDC(u4096, 4096) REDC(u8192, 8192)
#undef REDC
    default: return 0;
  }
}

double powm_rate(unsigned bits, std::size_t n) {
  switch (bits) {
#define POWM(m, b)                                                                                            \
  case b:                                                                                                     \
    return powm_instances_rate<mpgen::m::montmul, mpgen::m::montsqr, mpgen::m::mont_minus_inverse,            \
                               mpgen::m::mont_radix_squared, mpgen::m::frommont>(n);
    POWM(u4096, 4096) POWM(u8192, 8192)
#undef POWM
    default: return 0;
  }
}

}  // namespace group_moduli

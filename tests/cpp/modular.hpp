// Shared by the modular tests (modular.cpp, modular_presets.cpp): the check of every
// modular operation of one generated field against GMP, as MODULAR_CASE(namespace).
// Include it after the generated headers.
#pragma once
#include <doctest/doctest.h>
#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "mpz.hpp"

#ifdef __CUDACC__
#include "on_gpu.cuh"
#endif

namespace {  // each test file its own copy

void from_words(mpz_t v, const uint32_t* w, unsigned count) { mpz_import(v, count, -1, 4, 0, 0, w); }

void to_words(uint32_t* w, const mpz_t v, unsigned count) {
  std::fill(w, w + count, 0u);
  REQUIRE(mpz_sizeinbase(v, 2) <= 32 * count);
  mpz_export(w, nullptr, -1, 4, 0, 0, v);
}

// GMP's answer r for operands a, b (b unused by unary operations) modulo p.
using Reference = std::function<void(mpz_t r, const mpz_t a, const mpz_t b)>;

// How many cases an operation gets. Straight-line operations: every pair of edge values
// (each edge value once where the operation has one operand), then random pairs below p:
// MPGEN_TEST_CASES, by default 10,000 where the GPU runs them and 1,000 on the CPU alone
// (CI's machines; the CPU runs the lists the GPU runs, whose carry paths the edge pairs
// take). The loops (modexp ... modsqrt): on the GPU the same; on the CPU each edge value
// against a random partner (over the 64-bit lists every pair of edge values up to 24
// limbs), then 1,000 random pairs, but 20 over the GPU's 32-bit lists (host) where their
// products run in the host's interpreter (loop_on_steps: beside a host64, and past 24
// limbs; one 1024-bit modexp: 28 ms, ladder 47 ms on the dev machine), whose edge values
// of ones and top bits are those of 1, half and all the limbs, as the same loop
// over the 64-bit lists takes the 1,000. The loops call the straight-line products checked
// above: 10,000 random pairs of each made them 200 s of CI's 2-core tests.
enum class Effort { full, loop_on_cpu, loop_on_host64, loop_on_steps };

std::size_t random_pairs(Effort effort) {
  if (effort == Effort::loop_on_steps) return 20;
  if (effort != Effort::full) return 1000;
  if (const char* s = std::getenv("MPGEN_TEST_CASES")) return std::strtoull(s, nullptr, 0);
#ifdef __CUDACC__
  if (gpu_present()) return 10000;
#endif
  return 1000;
}

std::string random_below(const mpz_t p, gmp_randstate_t rng) {
  Mpz v;
  mpz_urandomm(v.v, rng, p);
  return mpz_get_str(nullptr, 16, v.v);
}

// Operands: edge values, then random pairs below p (see Effort).
std::vector<std::pair<std::string, std::string>> operand_pairs(const mpz_t p, unsigned limbs, unsigned operands,
                                                               gmp_randstate_t rng, Effort effort) {
  std::vector<std::string> edges;
  Mpz v;
  const auto add_edge = [&](const mpz_t x) {
    Mpz r;
    mpz_mod(r.v, x, p);
    edges.push_back(mpz_get_str(nullptr, 16, r.v));
  };
  for (long k : {0L, 1L, 2L, -1L, -2L}) {  // 0, 1, 2, p-1, p-2
    mpz_set_si(v.v, k);
    add_edge(v.v);
  }
  mpz_fdiv_q_2exp(v.v, p, 1);  // (p-1)/2 and (p+1)/2
  add_edge(v.v);
  mpz_add_ui(v.v, v.v, 1);
  add_edge(v.v);
  for (unsigned i = 1; i <= limbs; ++i) {  // limbs of ones (long carry chains), and 2^(32i-1)
    if (effort == Effort::loop_on_steps && i != 1 && i != limbs / 2 && i != limbs) continue;
    mpz_set_ui(v.v, 1);
    mpz_mul_2exp(v.v, v.v, 32 * i);
    mpz_sub_ui(v.v, v.v, 1);
    add_edge(v.v);
    mpz_set_ui(v.v, 1);
    mpz_mul_2exp(v.v, v.v, 32 * i - 1);
    add_edge(v.v);
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  const bool all_edge_pairs = effort == Effort::full || (effort == Effort::loop_on_host64 && limbs <= 24);
  for (const auto& a : edges) {
    if (operands == 1) {
      pairs.emplace_back(a, a);  // the second is unused
    } else if (all_edge_pairs) {
      for (const auto& b : edges) pairs.emplace_back(a, b);
    } else {
      pairs.emplace_back(a, random_below(p, rng));
      pairs.emplace_back(random_below(p, rng), a);
    }
  }
  for (std::size_t k = random_pairs(effort); k-- > 0;) {
    std::string a = random_below(p, rng);
    pairs.emplace_back(a, random_below(p, rng));
  }
  return pairs;
}


// An operation as the checks see it: its shape and its renderings by address, so that the
// checks compile once for all operations (templates over each operation, they were most of
// these files' compile: 1.6 MB of code in modular_presets.cpp).
struct Operation {
  const char* name;
  unsigned limbs, operands, in_words, out_words;
  void (*host)(uint32_t* y, const uint32_t* x);  // the GPU's 32-bit list
  // n instances (contiguous) through the 64-bit list, where the operation has one
  void (*host64)(std::size_t n, const uint32_t* in, uint32_t* out);
  std::vector<uint32_t> (*gpu)(std::size_t n, const std::vector<uint32_t>& in);  // built by nvcc
};

template <class Op>
Operation operation() {
  Operation op{Op::name, Op::operand_limbs[0], Op::operands, Op::in_words, Op::out_words, &Op::host, nullptr, nullptr};
  if constexpr (mpgen::has_host64<Op>::value)
    op.host64 = [](std::size_t n, const uint32_t* in, uint32_t* out) {
      // two ranges, the first of one instance: a batch's lanes (host64_lanes, modexp's)
      // and the instances left over, run one by one
      mpgen::host64_range<Op>(n, mpgen::Layout::contiguous, in, out, 0, 1);
      mpgen::host64_range<Op>(n, mpgen::Layout::contiguous, in, out, 1, n);
    };
#ifdef __CUDACC__
  op.gpu = [](std::size_t n, const std::vector<uint32_t>& in) { return on_gpu<Op>(n, in, mpgen::Layout::contiguous); };
#endif
  return op;
}

// n instances (contiguous) through the GPU's 32-bit list on the host, and through the 64-bit one.
std::vector<uint32_t> run_host(const Operation& op, std::size_t n, const std::vector<uint32_t>& in) {
  std::vector<uint32_t> out(op.out_words * n);
  for (std::size_t j = 0; j < n; ++j) op.host(&out[j * op.out_words], &in[j * op.in_words]);
  return out;
}
std::vector<uint32_t> run_host64(const Operation& op, std::size_t n, const std::vector<uint32_t>& in) {
  std::vector<uint32_t> out(op.out_words * n);
  op.host64(n, in.data(), out.data());
  return out;
}

// Whether got (the operation's output words) is right for operands a, b.
using Accept = std::function<bool(const mpz_t a, const mpz_t b, const uint32_t* got)>;

void check_by(const Operation& op, const uint32_t* modulus, gmp_randstate_t rng, const Accept& accept,
              Effort cpu_effort) {
  const unsigned limbs = op.limbs;
  Mpz p;
  from_words(p.v, modulus, limbs);
  using Run = std::function<std::vector<uint32_t>(std::size_t n, const std::vector<uint32_t>& in)>;
  // Runs the operation on pairs (by `run`) and returns the first pair it gets wrong, or "".
  const auto first_wrong = [&](const std::vector<std::pair<std::string, std::string>>& pairs, const Run& run) {
    const std::size_t n = pairs.size();
    std::vector<uint32_t> in(op.in_words * n);
    std::vector<Mpz> a(n), b(n);
    for (std::size_t j = 0; j < n; ++j) {
      mpz_set_str(a[j].v, pairs[j].first.c_str(), 16);
      mpz_set_str(b[j].v, pairs[j].second.c_str(), 16);
      to_words(&in[j * op.in_words], a[j].v, limbs);
      if (op.operands == 2) to_words(&in[j * op.in_words + limbs], b[j].v, limbs);
    }
    const std::vector<uint32_t> got = run(n, in);
    for (std::size_t j = 0; j < n; ++j)
      if (!accept(a[j].v, b[j].v, &got[j * op.out_words])) return pairs[j].first + ", " + pairs[j].second;
    return std::string();
  };
  const auto on_host = [&](std::size_t n, const std::vector<uint32_t>& in) { return run_host(op, n, in); };
  const auto pairs = [&](Effort effort) { return operand_pairs(p.v, limbs, op.operands, rng, effort); };
  // A loop over the GPU's 32-bit lists whose products run from the interpreter's steps
  // (printers/host.py: beside a host64, and past 1,500 instructions).
  const bool on_steps = cpu_effort == Effort::loop_on_cpu && (op.host64 || limbs > 24);
  const auto cpu_pairs = pairs(on_steps ? Effort::loop_on_steps : cpu_effort);
  INFO(op.name, " modulo ", mpz_get_str(nullptr, 16, p.v));
  CHECK_MESSAGE(first_wrong(cpu_pairs, on_host) == "", "host, ", cpu_pairs.size(), " operand pairs");
  if (op.host64) {
    const auto on_host64 = [&](std::size_t n, const std::vector<uint32_t>& in) { return run_host64(op, n, in); };
    const auto host64_pairs = cpu_effort == Effort::full ? cpu_pairs : pairs(Effort::loop_on_host64);
    CHECK_MESSAGE(first_wrong(host64_pairs, on_host64) == "", "host64, ", host64_pairs.size(), " operand pairs");
  }
#ifdef __CUDACC__
  if (gpu_present()) {
    const auto gpu_pairs = cpu_effort == Effort::full ? cpu_pairs : pairs(Effort::full);
    CHECK_MESSAGE(first_wrong(gpu_pairs, op.gpu) == "", "gpu, ", gpu_pairs.size(), " operand pairs");
    // Operands not below p: the result is unspecified (README) but the same on both sides.
    const std::size_t n = cpu_effort == Effort::full ? 4096 : 64;
    std::vector<uint32_t> wide(op.in_words * n);
    for (auto& w : wide) w = uint32_t(gmp_urandomb_ui(rng, 32));
    CHECK_MESSAGE(op.gpu(n, wide) == on_host(n, wide), "gpu and host, operands not below p");
  }
#endif
}

// The operation's words equal GMP's answer, the flag word (if any) above the result limbs.
void check(const Operation& op, const uint32_t* modulus, gmp_randstate_t rng, const Reference& reference,
           Effort cpu_effort) {
  check_by(op, modulus, rng, [&](const mpz_t a, const mpz_t b, const uint32_t* got) {
    Mpz r;
    std::vector<uint32_t> expected(op.out_words);
    reference(r.v, a, b);
    to_words(expected.data(), r.v, op.out_words);
    return std::equal(got, got + op.out_words, expected.begin());
  }, cpu_effort);
}

// The checks by Op's type, as the cases below name them.
template <class Op>
void check_by(const uint32_t* modulus, gmp_randstate_t rng, const Accept& accept, Effort cpu_effort) {
  check_by(operation<Op>(), modulus, rng, accept, cpu_effort);
}
template <class Op>
void check(const uint32_t* modulus, gmp_randstate_t rng, const Reference& reference, Effort cpu_effort = Effort::full) {
  check(operation<Op>(), modulus, rng, reference, cpu_effort);
}

// r = the inverse of a mod p, or 2^(32 limbs) (result 0, flag word 1) where none exists.
void inverse_or_flag(mpz_t r, const mpz_t a, const mpz_t p, unsigned limbs) {
  if (!mpz_invert(r, a, p)) {
    mpz_set_ui(r, 1);
    mpz_mul_2exp(r, r, 32 * limbs);
  }
}

// The lazy Montgomery product: for operands below 2p (edges and random pairs), a
// result below 2p and congruent to a b R^-1; the GPU's words equal the host's.
void check_lazy(const Operation& op, const uint32_t* modulus, gmp_randstate_t rng) {
  const unsigned limbs = op.limbs;
  Mpz p, two_p, radix_inverse;
  from_words(p.v, modulus, limbs);
  mpz_mul_2exp(two_p.v, p.v, 1);
  mpz_set_ui(radix_inverse.v, 1);
  mpz_mul_2exp(radix_inverse.v, radix_inverse.v, 32 * limbs);
  REQUIRE(mpz_invert(radix_inverse.v, radix_inverse.v, p.v));
  std::vector<std::pair<std::string, std::string>> pairs;
  for (long k : {0L, 1L, -1L}) {  // 0, 1, 2p - 1 against p, p + 1
    Mpz a;
    mpz_set_si(a.v, k);
    mpz_mod(a.v, a.v, two_p.v);
    for (long d : {0L, 1L}) {
      Mpz b;
      mpz_add_ui(b.v, p.v, d);
      pairs.emplace_back(mpz_get_str(nullptr, 16, a.v), mpz_get_str(nullptr, 16, b.v));
    }
  }
  for (std::size_t k = random_pairs(Effort::full); k-- > 0;) {
    Mpz a, b;
    mpz_urandomm(a.v, rng, two_p.v);
    mpz_urandomm(b.v, rng, two_p.v);
    pairs.emplace_back(mpz_get_str(nullptr, 16, a.v), mpz_get_str(nullptr, 16, b.v));
  }
  const std::size_t n = pairs.size();
  std::vector<uint32_t> in(op.in_words * n);
  for (std::size_t j = 0; j < n; ++j) {
    Mpz a, b;
    mpz_set_str(a.v, pairs[j].first.c_str(), 16);
    mpz_set_str(b.v, pairs[j].second.c_str(), 16);
    to_words(&in[j * op.in_words], a.v, limbs);
    to_words(&in[j * op.in_words + limbs], b.v, limbs);
  }
  const std::vector<uint32_t> host = run_host(op, n, in);
  // The words of the results that are not below 2p or not congruent to a b R^-1.
  const auto wrong = [&](const std::vector<uint32_t>& out) {
    std::size_t count = 0;
    for (std::size_t j = 0; j < n; ++j) {
      Mpz a, b, r, expected;
      from_words(a.v, &in[j * op.in_words], limbs);
      from_words(b.v, &in[j * op.in_words + limbs], limbs);
      from_words(r.v, &out[j * op.out_words], limbs);
      mpz_mul(expected.v, a.v, b.v);
      mpz_mul(expected.v, expected.v, radix_inverse.v);
      count += mpz_cmp(r.v, two_p.v) >= 0 || !mpz_congruent_p(r.v, expected.v, p.v);
    }
    return count;
  };
  INFO(op.name, " modulo ", mpz_get_str(nullptr, 16, p.v), ", ", n, " operand pairs below 2p");
  CHECK_MESSAGE(wrong(host) == 0, "host");
  if (op.host64) CHECK_MESSAGE(wrong(run_host64(op, n, in)) == 0, "host64");
#ifdef __CUDACC__
  if (gpu_present()) CHECK_MESSAGE(op.gpu(n, in) == host, "gpu");
#endif
}

#define LAZY_CASE(F)                                                                                   \
  TEST_CASE("the lazy Montgomery product modulo " #F " agrees with GMP") {                              \
    gmp_randstate_t rng;                                                                                \
    gmp_randinit_default(rng);                                                                          \
    gmp_randseed_ui(rng, 7);                                                                            \
    check_lazy(operation<mpgen::F::montmul_lazy>(), mpgen::F::modulus, rng);                                         \
    gmp_randclear(rng);                                                                                 \
  }

// r = x * R^k mod p, R = 2^(32 limbs).
void times_radix(mpz_t r, const mpz_t x, const mpz_t p, unsigned limbs, int k) {
  Mpz radix;
  mpz_set_ui(radix.v, 1);
  mpz_mul_2exp(radix.v, radix.v, 32 * limbs);
  if (k < 0) REQUIRE(mpz_invert(radix.v, radix.v, p));
  mpz_mul(r, x, radix.v);
  mpz_mod(r, r, p);
}

// The operations of every modulus; f, p, rng and mod are the test case's.
#define ORDINARY_CHECKS                                                                                 \
  check<f::modadd>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t b) { mpz_add(r, a, b); mod(r); }); \
  check<f::modsub>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t b) { mpz_sub(r, a, b); mod(r); }); \
  check<f::modneg>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { mpz_neg(r, a); mod(r); });   \
  check<f::is_zero>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { mpz_set_ui(r, mpz_sgn(a) == 0); }); \
  check<f::modmul>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t b) { mpz_mul(r, a, b); mod(r); }); \
  check<f::modsqr>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { mpz_mul(r, a, a); mod(r); });

// The Montgomery operations, of odd moduli only.
#define MONTGOMERY_CHECKS                                                                               \
  check<f::montmul>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t b) {                       \
    mpz_mul(r, a, b);                                                                                   \
    times_radix(r, r, p.v, f::limbs, -1);                                                               \
  });                                                                                                   \
  check<f::montsqr>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) {                         \
    mpz_mul(r, a, a);                                                                                   \
    times_radix(r, r, p.v, f::limbs, -1);                                                               \
  });                                                                                                   \
  check<f::montredc>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t b) {                      \
    times_radix(r, b, p.v, f::limbs, 1);                                                                \
    mpz_add(r, r, a);                                                                                   \
    times_radix(r, r, p.v, f::limbs, -1);                                                               \
  });                                                                                                   \
  check<f::tomont>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { times_radix(r, a, p.v, f::limbs, 1); }); \
  check<f::frommont>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { times_radix(r, a, p.v, f::limbs, -1); });

// The loops, for any modulus (exponentiation) and any odd one (the gcd inverse).
#define POWER_CHECKS                                                                                    \
  check<f::modexp>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t e) { mpz_powm(r, a, e, p.v); }, Effort::loop_on_cpu); \
  check<f::modexp_ladder>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t e) { mpz_powm(r, a, e, p.v); }, Effort::loop_on_cpu);
#define GCD_INVERSE_CHECKS                                                                              \
  check<f::modinv_gcd>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { inverse_or_flag(r, a, p.v, f::limbs); }, Effort::loop_on_cpu);

// And for prime moduli: Fermat's inverse, and roots (r^2 = a, r < p; or flag 1, r = 0 and
// a not a square).
#define PRIME_CHECKS                                                                                    \
  check<f::modinv>(f::modulus, rng, [&](mpz_t r, const mpz_t a, const mpz_t) { inverse_or_flag(r, a, p.v, f::limbs); }, Effort::loop_on_cpu); \
  check_by<f::modsqrt>(f::modulus, rng, [&](const mpz_t a, const mpz_t, const uint32_t* got) {          \
    Mpz r, square;                                                                                      \
    from_words(r.v, got, f::limbs);                                                                     \
    if (got[f::limbs] == 1) return mpz_sgn(r.v) == 0 && mpz_legendre(a, p.v) == -1;                     \
    mpz_mul(square.v, r.v, r.v);                                                                        \
    return got[f::limbs] == 0 && mpz_cmp(r.v, p.v) < 0 && mpz_congruent_p(square.v, a, p.v);            \
  }, Effort::loop_on_cpu);

#ifdef __CUDACC__
#define REQUIRE_GPU_IF_ASKED gpu_present();
#else
#define REQUIRE_GPU_IF_ASKED \
  REQUIRE_MESSAGE(!std::getenv("MPGEN_REQUIRE_GPU"), "MPGEN_REQUIRE_GPU is set and these tests were built without CUDA (MPGEN_GPU_TESTS)");
#endif

#define FIELD_CASE(F, CHECKS)                                                                           \
  TEST_CASE("modular operations modulo " #F " agree with GMP") {                                        \
    REQUIRE_GPU_IF_ASKED                                                                                \
    namespace f = mpgen::F;                                                                             \
    gmp_randstate_t rng;                                                                                \
    gmp_randinit_default(rng);                                                                          \
    gmp_randseed_ui(rng, std::getenv("MPGEN_TEST_SEED") ? std::atol(std::getenv("MPGEN_TEST_SEED")) : 1); \
    Mpz p;                                                                                              \
    from_words(p.v, f::modulus, f::limbs);                                                              \
    const auto mod = [&](mpz_t r) { mpz_mod(r, r, p.v); };                                              \
    CHECKS                                                                                              \
    gmp_randclear(rng);                                                                                 \
  }
#define MODULAR_CASE(F) FIELD_CASE(F, ORDINARY_CHECKS MONTGOMERY_CHECKS POWER_CHECKS GCD_INVERSE_CHECKS)
#define PRIME_FIELD_CASE(F) \
  FIELD_CASE(F, ORDINARY_CHECKS MONTGOMERY_CHECKS POWER_CHECKS GCD_INVERSE_CHECKS PRIME_CHECKS)
#define EVEN_MODULUS_CASE(F) FIELD_CASE(F, ORDINARY_CHECKS POWER_CHECKS)

}  // namespace

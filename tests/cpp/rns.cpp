// RNS integers (seed 001) against GMP on the host, for sets of 8, 32, 64 and 256 moduli:
// conversions both ways, the interval evaluation from the residues, neg and sign; add by
// Algorithms 1 and 2, sub, mul and cmp on the seed's three datasets and on edge values (0,
// +-1, +-(M - 1) / 2, sums within a few units of 0 and of +-M, where the intervals cannot
// decide), each result, its sign, its interval (which must hold the exact |z| / M) and its
// overflow flag (exactly where GMP's result leaves (-M, M)).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpgen_rns256.cuh"
#include "mpgen_rns32.cuh"
#include "mpgen_rns64.cuh"
#include "mpgen_rns8.cuh"
#include "mpz.hpp"

namespace {

using Words = mpgen::rns::words<uint32_t>;
using ConstWords = mpgen::rns::words<const uint32_t>;

// Random cases of each kind (MPGEN_TEST_CASES, default 2000), a tenth of them for sets of
// 256 moduli and more, whose exact steps cost n^2 / 2 products each.
std::size_t random_cases(unsigned moduli) {
  const char* s = std::getenv("MPGEN_TEST_CASES");
  const std::size_t cases = s ? std::strtoull(s, nullptr, 0) : 2000;
  return moduli >= 256 ? (cases + 9) / 10 : cases;
}

template <class Module>
struct Rns {
  using Set = typename Module::set;
  static constexpr unsigned n = Module::count, words = Module::words, limbs = Module::count + 1;
  Mpz M, half;  // M and (M - 1) / 2

  Rns() {
    mpz_set_ui(M.v, 1);
    for (unsigned i = 0; i < n; ++i) mpz_mul_ui(M.v, M.v, Set::modulus(i));
    mpz_sub_ui(half.v, M.v, 1);
    mpz_fdiv_q_2exp(half.v, half.v, 1);
  }

  // v (|v| < M) as an RNS integer, converted by the header's own code from binary.
  std::vector<uint32_t> from(const mpz_t v) const {
    std::vector<uint32_t> magnitude(limbs, 0), z(words);
    mpz_export(magnitude.data(), nullptr, -1, 4, 0, 0, v);
    mpgen::rns::from_binary<Set>(Words{z.data(), 1}, ConstWords{magnitude.data(), 1}, limbs, mpz_sgn(v) < 0);
    return z;
  }

  void to(mpz_t v, const uint32_t* z) const {
    std::vector<uint32_t> magnitude(limbs);
    mpgen::rns::to_binary<Set>(Words{magnitude.data(), 1}, limbs, ConstWords{z, 1});
    mpz_import(v, limbs, -1, 4, 0, 0, magnitude.data());
    if (z[n]) mpz_neg(v, v);
  }

  // Whether z's interval holds |v| / M (bounds f 2^e, exact in an mpq).
  bool interval_holds(const uint32_t* z, const mpz_t v) const {
    Mpq exact, bound;
    mpz_abs(mpq_numref(exact.v), v);
    mpz_set(mpq_denref(exact.v), M.v);
    mpq_canonicalize(exact.v);
    for (unsigned k = 0; k < 2; ++k) {
      const auto b = mpgen::rns::load_bound(ConstWords{z, 1}, k ? n + 4 : n + 1);
      mpq_set_d(bound.v, b.f);
      if (b.e >= 0) mpq_mul_2exp(bound.v, bound.v, b.e);
      else mpq_div_2exp(bound.v, bound.v, -b.e);
      if (k == 0 ? mpq_cmp(bound.v, exact.v) > 0 : mpq_cmp(bound.v, exact.v) < 0) return false;
      if (b.f != 0 && (b.f < 0.5 || b.f >= 1)) return false;  // normalized
    }
    return true;
  }
};

enum class Op { add, add_branching, sub, mul, cmp };
const char* const op_names[] = {"add", "add_branching", "sub", "mul", "cmp"};
constexpr Op all_ops[] = {Op::add, Op::add_branching, Op::sub, Op::mul, Op::cmp};

template <class Module>
void check_pair(const Rns<Module>& rns, Op op, const mpz_t a, const mpz_t b) {
  std::vector<uint32_t> x = rns.from(a), y = rns.from(b), z(Module::words + 1);
  x.insert(x.end(), y.begin(), y.end());
  const Words out{z.data(), 1};
  const ConstWords in{x.data(), 1};
  if (op == Op::add) Module::add::run(out, in);
  else if (op == Op::add_branching) Module::add_branching::run(out, in);
  else if (op == Op::sub) Module::sub::run(out, in);
  else if (op == Op::mul) Module::mul::run(out, in);
  else Module::cmp::run(out, in);
  const auto context = [&] {
    return std::string(op_names[int(op)]) + " of " + mpz_get_str(nullptr, 16, a) + " and " + mpz_get_str(nullptr, 16, b);
  };
  INFO(context());
  if (op == Op::cmp) {
    const int order = mpz_cmp(a, b);
    REQUIRE(z[0] == (order < 0 ? ~0u : order > 0 ? 1u : 0u));
    return;
  }
  Mpz want, got, magnitude;
  if (op == Op::mul) mpz_mul(want.v, a, b);
  else if (op == Op::sub) mpz_sub(want.v, a, b);
  else mpz_add(want.v, a, b);
  mpz_abs(magnitude.v, want.v);
  const unsigned overflow = mpz_cmp(magnitude.v, rns.M.v) >= 0;
  REQUIRE(z[Module::words] == overflow);
  if (overflow) return;
  rns.to(got.v, z.data());
  REQUIRE(mpz_cmp(got.v, want.v) == 0);
  REQUIRE(z[Module::count] == unsigned(mpz_sgn(want.v) < 0));
  REQUIRE(rns.interval_holds(z.data(), want.v));
}

template <class Module>
void check_module() {
  const Rns<Module> rns;
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 20261126);
  Mpz a, b, t;

  SUBCASE("conversions round-trip and the intervals hold the value") {
    for (std::size_t k = 0; k < random_cases(Module::count); ++k) {
      mpz_urandomm(a.v, state, rns.M.v);
      if (k % 3 == 1) mpz_fdiv_q_2exp(a.v, a.v, gmp_urandomm_ui(state, mpz_sizeinbase(rns.M.v, 2)));
      if (k % 2) mpz_neg(a.v, a.v);
      if (k < 4) mpz_set_si(a.v, int(k) - 2);
      const auto z = rns.from(a.v);
      rns.to(t.v, z.data());
      INFO(mpz_get_str(nullptr, 16, a.v));
      REQUIRE(mpz_cmp(t.v, a.v) == 0);
      REQUIRE(rns.interval_holds(z.data(), a.v));
      // The evaluation from the residues alone (the CRT's fractions, refined for small X).
      std::vector<uint32_t> evaluated(Module::words);
      Module::evaluate::run(Words{evaluated.data(), 1}, ConstWords{z.data(), 1});
      REQUIRE(std::equal(z.begin(), z.begin() + Module::count + 1, evaluated.begin()));
      REQUIRE(rns.interval_holds(evaluated.data(), a.v));
      // neg and sign
      std::vector<uint32_t> negated(Module::words), sign(1);
      Module::neg::run(Words{negated.data(), 1}, ConstWords{z.data(), 1});
      mpz_neg(t.v, a.v);
      Mpz back;
      rns.to(back.v, negated.data());
      REQUIRE(mpz_cmp(back.v, t.v) == 0);
      REQUIRE(negated[Module::count] == unsigned(mpz_sgn(t.v) < 0));
      REQUIRE(rns.interval_holds(negated.data(), t.v));
      Module::sign::run(Words{sign.data(), 1}, ConstWords{z.data(), 1});
      REQUIRE(sign[0] == (mpz_sgn(a.v) < 0 ? ~0u : mpz_sgn(a.v) > 0 ? 1u : 0u));
    }
  }

  // The seed's datasets: [0, (M - 1) / 2], [(1 - M) / 2, 0], and both signs.
  for (int dataset = 1; dataset <= 3; ++dataset)
    for (Op op : all_ops) {
      SUBCASE((std::string("dataset ") + std::to_string(dataset) + ", " + op_names[int(op)]).c_str()) {
        for (std::size_t k = 0; k < random_cases(Module::count); ++k) {
          mpz_t* operands[] = {&a.v, &b.v};
          for (auto* v : operands) {
            mpz_add_ui(t.v, rns.half.v, 1);
            mpz_urandomm(*v, state, t.v);
            if (op == Op::mul && k % 2) mpz_fdiv_q_2exp(*v, *v, mpz_sizeinbase(rns.M.v, 2) / 2);
            if (dataset == 2 || (dataset == 3 && gmp_urandomm_ui(state, 2))) mpz_neg(*v, *v);
          }
          check_pair(rns, op, a.v, b.v);
        }
      }
    }

  SUBCASE("edge values: 0, +-1, +-(M - 1) / 2, sums near 0 and near +-M") {
    std::vector<Mpz> values(12);
    mpz_set_ui(values[1].v, 1);
    mpz_set(values[2].v, rns.half.v);
    mpz_sub_ui(values[3].v, rns.M.v, 1);  // M - 1
    mpz_sub_ui(values[4].v, rns.M.v, 2);
    mpz_add_ui(values[5].v, rns.half.v, 1);
    mpz_set_ui(values[6].v, 2);
    mpz_sqrt(values[7].v, rns.M.v);  // products near M
    mpz_add_ui(values[8].v, values[7].v, 1);
    mpz_urandomm(values[9].v, state, rns.M.v);
    mpz_add_ui(values[10].v, values[9].v, 1);
    mpz_sub_ui(values[11].v, values[9].v, 1);
    for (Op op : all_ops)
      for (const auto& x : values)
        for (const auto& y : values)
          for (int signs = 0; signs < 4; ++signs) {
            mpz_set(a.v, x.v);
            mpz_set(b.v, y.v);
            if (signs & 1) mpz_neg(a.v, a.v);
            if (signs & 2) mpz_neg(b.v, b.v);
            check_pair(rns, op, a.v, b.v);
          }
  }
  gmp_randclear(state);
}

}  // namespace


TEST_CASE("RNS integers of 8 moduli agree with GMP") { check_module<mpgen::rns8::module>(); }
TEST_CASE("RNS integers of 32 moduli agree with GMP") { check_module<mpgen::rns32::module>(); }
TEST_CASE("RNS integers of 64 moduli agree with GMP") { check_module<mpgen::rns64::module>(); }
TEST_CASE("RNS integers of 256 moduli agree with GMP") { check_module<mpgen::rns256::module>(); }

// RNS integers (after Isupov and Knyazkov, "Efficient GPU implementation of multiple-precision
// addition based on residue arithmetic") against GMP on the host, for sets of 8, 32, 64 and
// 256 moduli: conversions both ways, the interval evaluation from the residues, neg and sign;
// add by the paper's Algorithms 1 and 2, sub, mul and cmp on its three datasets and on edge
// values (0, +-1, +-(M - 1) / 2, sums within a few units of 0 and of +-M, where the
// intervals cannot decide), each result, its sign, its interval (which must hold the exact
// |z| / M) and its overflow flag (exactly where GMP's result leaves (-M, M)).
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

// z = op(a, b) as GMP has it: value, sign, interval and overflow flag (cmp: its word).
template <class Module>
void verify(const Rns<Module>& rns, Op op, const mpz_t a, const mpz_t b, const uint32_t* z) {
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
  rns.to(got.v, z);
  REQUIRE(mpz_cmp(got.v, want.v) == 0);
  REQUIRE(z[Module::count] == unsigned(mpz_sgn(want.v) < 0));
  REQUIRE(rns.interval_holds(z, want.v));
}

// Calls f with the operation's struct.
template <class Module, class F>
void with_op(Op op, F&& f) {
  if (op == Op::add) f(typename Module::add{});
  else if (op == Op::add_branching) f(typename Module::add_branching{});
  else if (op == Op::sub) f(typename Module::sub{});
  else if (op == Op::mul) f(typename Module::mul{});
  else f(typename Module::cmp{});
}

template <class Module>
void check_pair(const Rns<Module>& rns, Op op, const mpz_t a, const mpz_t b) {
  std::vector<uint32_t> x = rns.from(a), y = rns.from(b), z(Module::words + 1);
  x.insert(x.end(), y.begin(), y.end());
  with_op<Module>(op, [&](auto o) { decltype(o)::run(Words{z.data(), 1}, ConstWords{x.data(), 1}); });
  verify(rns, op, a, b, z.data());
}

// 0, 1, (M - 1) / 2, M - 1, M - 2, (M + 1) / 2, 2, sqrt(M) and sqrt(M) + 1 (products near
// M), a random v and v +- 1 (with -v: sums within units of 0).
template <class Module>
std::vector<Mpz> edge_values(const Rns<Module>& rns, gmp_randstate_t state) {
  std::vector<Mpz> values(12);
  mpz_set_ui(values[1].v, 1);
  mpz_set(values[2].v, rns.half.v);
  mpz_sub_ui(values[3].v, rns.M.v, 1);
  mpz_sub_ui(values[4].v, rns.M.v, 2);
  mpz_add_ui(values[5].v, rns.half.v, 1);
  mpz_set_ui(values[6].v, 2);
  mpz_sqrt(values[7].v, rns.M.v);
  mpz_add_ui(values[8].v, values[7].v, 1);
  mpz_urandomm(values[9].v, state, rns.M.v);
  mpz_add_ui(values[10].v, values[9].v, 1);
  mpz_sub_ui(values[11].v, values[9].v, 1);
  return values;
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

  // Isupov and Knyazkov's datasets: [0, (M - 1) / 2], [(1 - M) / 2, 0], and both signs.
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
    const std::vector<Mpz> values = edge_values(rns, state);
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

#ifdef __CUDACC__
// Built by nvcc (MPGEN_GPU_TESTS): every operation's batch on the GPU through
// mpgen::rns::launch_batch in both layouts (the contiguous one digit-parallel for add, sub
// and mul from 129 moduli), each result against GMP: every pair of edge values with every
// sign, then random ones of both signs.
#include "on_gpu.cuh"

namespace {

template <class Module>
void check_module_on_gpu() {
  if (!gpu_present()) return;
  const Rns<Module> rns;
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 20261127);
  const std::vector<Mpz> edges = edge_values(rns, state);
  const std::size_t n = 4 * edges.size() * edges.size() + 1000;
  std::vector<Mpz> as(n), bs(n);
  for (std::size_t j = 0; j < n; ++j) {
    if (j < 4 * edges.size() * edges.size()) {
      mpz_set(as[j].v, edges[j / 4 / edges.size()].v);
      mpz_set(bs[j].v, edges[j / 4 % edges.size()].v);
    } else {
      mpz_urandomm(as[j].v, state, rns.M.v);
      mpz_urandomm(bs[j].v, state, rns.M.v);
      if (j % 3 == 0) mpz_fdiv_q_2exp(as[j].v, as[j].v, mpz_sizeinbase(rns.M.v, 2) / 2);  // products below M too
      if (j % 3 == 0) mpz_fdiv_q_2exp(bs[j].v, bs[j].v, mpz_sizeinbase(rns.M.v, 2) / 2);
    }
    if (j & 1) mpz_neg(as[j].v, as[j].v);
    if (j & 2) mpz_neg(bs[j].v, bs[j].v);
  }
  for (Op op : all_ops)
    for (const auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous})
      with_op<Module>(op, [&](auto o) {
        using O = decltype(o);
        const auto si = mpgen::Strides::of(layout, n, O::in_words), so = mpgen::Strides::of(layout, n, O::out_words);
        std::vector<uint32_t> in(n * O::in_words), out(n * O::out_words), z(O::out_words);
        for (std::size_t j = 0; j < n; ++j) {
          const auto x = rns.from(as[j].v), y = rns.from(bs[j].v);
          for (unsigned w = 0; w < Module::words; ++w) {
            in[w * si.word + j * si.instance] = x[w];
            in[(Module::words + w) * si.word + j * si.instance] = y[w];
          }
        }
        uint32_t *d_in = nullptr, *d_out = nullptr;
        REQUIRE(cudaMalloc(&d_in, in.size() * 4) == cudaSuccess);
        REQUIRE(cudaMalloc(&d_out, out.size() * 4) == cudaSuccess);
        cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
        REQUIRE(mpgen::rns::launch_batch<O>(n, layout, d_in, d_out) == cudaSuccess);
        REQUIRE(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        cudaFree(d_in);
        cudaFree(d_out);
        const char* layout_name = layout == mpgen::Layout::contiguous ? "contiguous layout" : "interleaved layout";
        INFO(layout_name);
        INFO("lanes an integer in the contiguous layout: " << O::digit_lanes);
        for (std::size_t j = 0; j < n; ++j) {
          for (unsigned w = 0; w < O::out_words; ++w) z[w] = out[w * so.word + j * so.instance];
          verify(rns, op, as[j].v, bs[j].v, z.data());
        }
      });
  gmp_randclear(state);
}

}  // namespace

TEST_CASE("RNS integers on the GPU agree with GMP in both layouts") {
  check_module_on_gpu<mpgen::rns8::module>();
  check_module_on_gpu<mpgen::rns32::module>();
  check_module_on_gpu<mpgen::rns64::module>();
  check_module_on_gpu<mpgen::rns256::module>();
}
#endif

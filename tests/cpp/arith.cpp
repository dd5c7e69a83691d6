// Every built operation at every built size against GMP: edge values and random
// operands, on the CPU, and on the GPU when one is present.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "against_gmp.hpp"
#include "mpgen/runtime.hpp"

namespace {

using namespace against_gmp;

unsigned carry_out_and_reduce(mpz_t r, unsigned bits) {
  const unsigned out = mpz_sgn(r) < 0 || mpz_sizeinbase(r, 2) > bits;
  mpz_fdiv_r_2exp(r, r, bits);  // a negative value becomes its two's complement
  return out;
}

Reference reduced(void (*f)(mpz_t, const mpz_t, const mpz_t)) {
  return [f](mpz_t r, const auto& x, unsigned bits) {
    f(r, x[0]->v, x[1]->v);
    mpz_fdiv_r_2exp(r, r, bits);
    return 0u;
  };
}

Reference predicate(bool (*f)(const std::vector<const Mpz*>&)) {
  return [f](mpz_t r, const auto& x, unsigned) {
    mpz_set_ui(r, f(x));
    return 0u;
  };
}

Reference shift(bool left, long constant = -1) {
  return [left, constant](mpz_t r, const auto& x, unsigned bits) {
    const unsigned long s = constant >= 0 ? constant : mpz_get_ui(x[1]->v);
    if (left) mpz_mul_2exp(r, x[0]->v, s);
    else mpz_fdiv_q_2exp(r, x[0]->v, s);
    mpz_fdiv_r_2exp(r, r, bits);
    return 0u;
  };
}

// Division: the quotient's limbs then the remainder's (where asked), both 0 with the flag
// where b = 0 or, for a dividend of twice the width, where a's high half is not below b.
Reference division(bool quotient, bool remainder) {
  return [quotient, remainder](mpz_t r, const auto& x, unsigned bits) {
    const unsigned limb_bits = 32 * ((bits + 31) / 32);
    Mpz high, q, rest;
    mpz_fdiv_q_2exp(high.v, x[0]->v, limb_bits);
    if (mpz_sgn(x[1]->v) == 0 || mpz_cmp(high.v, x[1]->v) >= 0) {
      mpz_set_ui(r, 0);
      return 1u;
    }
    mpz_fdiv_qr(q.v, rest.v, x[0]->v, x[1]->v);
    if (quotient && remainder) mpz_mul_2exp(rest.v, rest.v, limb_bits);
    mpz_set_ui(r, 0);
    if (quotient) mpz_add(r, r, q.v);
    if (remainder) mpz_add(r, r, rest.v);
    return 0u;
  };
}

const std::map<std::string, Reference>& references() {
  static const std::map<std::string, Reference> refs = {
      {"mont_radix_squared", [](mpz_t r, const auto& x, unsigned bits) {  // R^2 mod p; p even: 0, flag
         if (mpz_even_p(x[0]->v)) return mpz_set_ui(r, 0), 1u;
         mpz_set_ui(r, 1);
         mpz_mul_2exp(r, r, 64 * ((bits + 31) / 32));
         mpz_mod(r, r, x[0]->v);
         return 0u;
       }},
      {"barrett_reciprocal", [](mpz_t r, const auto& x, unsigned bits) {  // p = 0: 0, flag
         if (!mpz_sgn(x[0]->v)) return mpz_set_ui(r, 0), 1u;
         mpgen::to_mpz(r, barrett_reciprocal(*x[0], bits));
         return 0u;
       }},
      {"gcd", [](mpz_t r, const auto& x, unsigned) { return mpz_gcd(r, x[0]->v, x[1]->v), 0u; }},
      {"sqrt", [](mpz_t r, const auto& x, unsigned) {  // the flag: 1 where a is an exact square
         Mpz rest;
         mpz_sqrtrem(r, rest.v, x[0]->v);
         return unsigned(mpz_sgn(rest.v) == 0);
       }},
      {"div_qr", division(true, true)},
      {"div_qr_wide", division(true, true)},
      {"div", division(true, false)},
      {"rem", division(false, true)},
      {"add", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_add(r, x[0]->v, x[1]->v);
         mpz_add(r, r, x[2]->v);
         return carry_out_and_reduce(r, bits);
       }},
      {"sub", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_sub(r, x[0]->v, x[1]->v);
         mpz_sub(r, r, x[2]->v);
         return carry_out_and_reduce(r, bits);
       }},
      {"add_ui", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_add(r, x[0]->v, x[1]->v);
         return carry_out_and_reduce(r, bits);
       }},
      {"sub_ui", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_sub(r, x[0]->v, x[1]->v);
         return carry_out_and_reduce(r, bits);
       }},
      {"neg", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_neg(r, x[0]->v);
         mpz_fdiv_r_2exp(r, r, bits);
         return 0u;
       }},
      {"mul", [](mpz_t r, const auto& x, unsigned) { return mpz_mul(r, x[0]->v, x[1]->v), 0u; }},
      {"mul_ui", [](mpz_t r, const auto& x, unsigned) { return mpz_mul(r, x[0]->v, x[1]->v), 0u; }},
      {"sqr", [](mpz_t r, const auto& x, unsigned) { return mpz_mul(r, x[0]->v, x[0]->v), 0u; }},
      {"mad", [](mpz_t r, const auto& x, unsigned) {
         mpz_mul(r, x[0]->v, x[1]->v);
         mpz_add(r, r, x[2]->v);
         return 0u;
       }},
      {"mul_lo", reduced(mpz_mul)},
      {"mul_hi", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_mul(r, x[0]->v, x[1]->v);
         mpz_fdiv_q_2exp(r, r, bits);
         return 0u;
       }},
      {"eq", predicate([](const auto& x) { return mpz_cmp(x[0]->v, x[1]->v) == 0; })},
      {"lt", predicate([](const auto& x) { return mpz_cmp(x[0]->v, x[1]->v) < 0; })},
      {"is_zero", predicate([](const auto& x) { return mpz_sgn(x[0]->v) == 0; })},
      {"cmp", [](mpz_t r, const auto& x, unsigned) {
         const int c = mpz_cmp(x[0]->v, x[1]->v);
         mpz_set_ui(r, uint32_t(c < 0 ? -1 : c > 0 ? 1 : 0));
         return 0u;
       }},
      {"and", reduced(mpz_and)},
      {"or", reduced(mpz_ior)},
      {"xor", reduced(mpz_xor)},
      {"not", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_com(r, x[0]->v);
         mpz_fdiv_r_2exp(r, r, bits);
         return 0u;
       }},
      {"shl", shift(true)},
      {"shr", shift(false)},
      {"popc", [](mpz_t r, const auto& x, unsigned) { return mpz_set_ui(r, mpz_popcount(x[0]->v)), 0u; }},
      {"clz", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_set_ui(r, mpz_sgn(x[0]->v) ? bits - mpz_sizeinbase(x[0]->v, 2) : bits);
         return 0u;
       }},
      {"ctz", [](mpz_t r, const auto& x, unsigned bits) {
         mpz_set_ui(r, mpz_sgn(x[0]->v) ? mpz_scan1(x[0]->v, 0) : bits);
         return 0u;
       }},
  };
  return refs;
}

// The reference of a built operation; constant shifts are shl<K> and shr<K>.
// -p^-1 mod 2^width (32 bits per thread, R's in a group); p even: 0 and the flag.
Reference minus_inverse(unsigned width) {
  return [width](mpz_t r, const std::vector<const Mpz*>& x, unsigned) {
    if (mpz_even_p(x[0]->v)) return mpz_set_ui(r, 0), 1u;
    Mpz radix;
    mpz_set_ui(radix.v, 1);
    mpz_mul_2exp(radix.v, radix.v, width);
    mpz_invert(r, x[0]->v, radix.v);
    mpz_sub(r, radix.v, r);
    mpz_mod(r, r, radix.v);
    return 0u;
  };
}

Reference reference_for(const mpgen::OpInfo& op) {
  const std::string& name = op.name;
  if (name == "mont_minus_inverse") return minus_inverse(32 * op.result_limbs);
  if (references().count(name)) return references().at(name);
  for (bool left : {true, false}) {
    const std::string prefix = left ? "shl" : "shr";
    if (name.rfind(prefix, 0) == 0) return shift(left, std::stol(name.substr(3)));
  }
  FAIL("no GMP reference for " << name);
  return {};
}

// in is 0 or 1; a shift amount crosses the limb and size boundaries.
std::vector<Limbs> operand_edges(const mpgen::OpInfo& op, unsigned k) {
  const unsigned width = op.operand_bits[k];
  if (width == 1) return {{0}, {1}};
  if (width < 32) {  // a run-time shift amount
    std::vector<Limbs> v;
    for (uint64_t s : {0u, 1u, 31u, 32u, 33u, op.bits - 1, op.bits, (1u << width) - 1})
      if (s < (uint64_t(1) << width)) v.push_back({uint32_t(s)});
    return v;
  }
  return edge_values(width, op.limbs_per_thread, op.threads_per_instance);
}

// The first edge values (0, all ones, the alternating patterns, 1, 2), which every other
// edge value meets where all pairs would be too many (the group tier's widths).
constexpr std::size_t all_pairs_up_to = 250, partners = 6;

// At most about `most` of the cases: every k-th, the first and the last kept.
template <class Case>
std::vector<Case> thinned(std::vector<Case> cases, std::size_t most) {
  if (cases.size() <= most) return cases;
  std::vector<Case> kept;
  const std::size_t k = (cases.size() + most - 1) / most;
  for (std::size_t i = 0; i < cases.size(); i += k) kept.push_back(cases[i]);
  kept.push_back(cases.back());
  return kept;
}

// The group tier's divisions run T steps of two Q-by-Q products and three scans each (R^2
// mod p two of them), its sqrt T / 2 such steps, its gcd bits / 10 rounds of divsteps with
// four exchanges each: on the host (every thread's lists in turn) a hundred cases a size and
// operation (gcd past 4096 bits forty), on the GPU all of them.
bool slow_on_host(const mpgen::OpInfo& op) {
  return op.tier == "group" && (op.name.rfind("div", 0) == 0 || op.name == "rem" || op.name == "gcd" ||
                                op.name == "sqrt" || op.name == "mont_radix_squared");
}
constexpr std::size_t host_divisions = 100;
std::size_t host_edge_cases(const mpgen::OpInfo& op) {
  return op.name == "gcd" && op.bits > 4096 ? 40 : host_divisions;
}

// Edge values (all pairs, or each with the first few where that is too many) and
// random operands for op, checked against GMP on the CPU and the GPU, as asked.
void check_operation(const mpgen::OpInfo& op, bool cpu, bool gpu, uint64_t seed, std::size_t random_count,
                     std::size_t most_edge_cases = SIZE_MAX) {
  const unsigned bits = op.bits;
  const std::string& name = op.name;
  const unsigned arity = op.operand_bits.size();
  std::vector<std::vector<Limbs>> edges;
  for (unsigned k = 0; k < arity; ++k) edges.push_back(operand_edges(op, k));
  // Pairs of edge values of the first two operands; a third runs through its own. Picked
  // as indices and thinned before they are built: the group tier's widths have thousands.
  std::vector<std::array<std::size_t, 3>> picks;
  const auto add_case = [&](std::size_t a, std::size_t b) {
    if (arity == 2) picks.push_back({a, b, 0});
    else if (edges[2].size() <= 2)
      for (std::size_t c = 0; c < edges[2].size(); ++c) picks.push_back({a, b, c});
    else
      picks.push_back({a, b, picks.size() % edges[2].size()});
  };
  for (std::size_t i = 0; i < edges[0].size(); ++i) {
    if (arity == 1) picks.push_back({i, 0, 0});
    else if (edges[0].size() <= all_pairs_up_to || edges[1].size() <= all_pairs_up_to)
      for (std::size_t j = 0; j < edges[1].size(); ++j) add_case(i, j);
    else
      for (std::size_t k = 0; k < partners; ++k) {
        add_case(i, k);
        if (i >= partners && i < edges[1].size()) add_case(k, i);
      }
  }
  std::vector<std::vector<Limbs>> cases;
  for (const auto& pick : thinned(std::move(picks), most_edge_cases)) {
    cases.emplace_back();
    for (unsigned k = 0; k < arity; ++k) cases.back().push_back(edges[k][pick[k]]);
  }
  std::mt19937_64 rng(seed ^ (uint64_t(bits) << 32) ^ std::hash<std::string>{}(name));
  for (std::size_t i = 0; i < random_count; ++i) {
    std::vector<Limbs> operands;
    for (unsigned k = 0; k < arity; ++k) operands.push_back(random_value(rng, op.operand_bits[k]));
    cases.push_back(operands);
  }
  check_against_gmp(op, reference_for(op), cases, cpu, gpu);
}

}  // namespace

// At the sizes compiled on demand, these, which both tiers have (the modular ones: moduli.cpp).
const std::vector<std::string> on_demand_arithmetic = {"add", "sub", "mul", "sqr", "div_qr", "div_qr_wide", "gcd",
                                                       "sqrt"};

TEST_CASE("every operation at every size agrees with GMP") {
  const bool gpu = gpu_for_tests();
  const uint64_t seed = test_seed();
  MESSAGE("random operands from seed " << seed << " (MPGEN_TEST_SEED changes it), "
                                       << random_cases() << " sets per operation and size");
  for_each_operation(gpu, on_demand_arithmetic, [&](const mpgen::OpInfo& op, bool on_cpu, bool on_gpu) {
    if (op.modulus_operand >= 0) return;  // those with a modulus operand: moduli.cpp
    // Past 768 bits gcd's rounds run in the host's interpreter (lists over 1,500
    // instructions: printers/host.py): 1,000 random cases and 2,000 edge pairs; the group
    // tier's mont_minus_inverse (Newton's steps of group products) a tenth of the random
    // cases on the host, all of them on the GPU
    const bool long_loop = op.name == "gcd" && op.bits > 768;
    const std::size_t count = long_loop ? random_cases() / 10 : random_cases();
    if (slow_on_host(op)) {
      const std::size_t edges = host_edge_cases(op);
      if (on_cpu) check_operation(op, true, false, seed, edges / 4, edges);
      if (on_gpu) check_operation(op, false, true, seed, count);
      return;
    }
    if (op.name == "mont_minus_inverse" && op.tier == "group") {
      if (on_cpu) check_operation(op, true, false, seed, count / 10);
      if (on_gpu) check_operation(op, false, true, seed, count);
      return;
    }
    check_operation(op, on_cpu, on_gpu, seed, count, long_loop ? 2000 : SIZE_MAX);
  });
}

// Division by constructed quotients: a = q b + r for divisors b among the edge values
// (b = 1, powers of two, 2^k - 1, all ones, ...; in the group tier those at its threads'
// ends) and random ones, quotients of all ones,
// all ones less 1, a top bit alone, 1 and 0 (all ones makes every digit's estimate 2^32 - 1
// or its corrections), remainders 0, b - 1 and random: for div_qr_wide quotients below
// 2^(32 limbs) (a's high half below b), for div_qr, div and rem (and div_qr_wide where bits
// is not a multiple of 32) the largest that keeps a within its width.
std::vector<std::vector<Limbs>> constructed_division_cases(const mpgen::OpInfo& op, std::mt19937_64& rng,
                                                           std::size_t most = SIZE_MAX) {
  const unsigned bits = op.bits, n = (bits + 31) / 32;
  std::vector<Limbs> divisors;
  for (const Limbs& b : edge_values(bits, op.limbs_per_thread, op.threads_per_instance))
    if (std::any_of(b.begin(), b.end(), [](uint32_t w) { return w != 0; })) divisors.push_back(b);
  for (int i = 0; i < 40; ++i) {
    Limbs b = random_value(rng, 1 + rng() % bits);
    b[0] |= 1u << (rng() % 32);  // nonzero
    divisors.push_back(mask_to(b, bits));
  }
  divisors = thinned(std::move(divisors), std::max<std::size_t>(most / 15, 1));  // 15 cases a divisor
  std::vector<std::vector<Limbs>> cases;
  for (const Limbs& b : divisors) {
    const Mpz bm(b);
    for (int qi = 0; qi < 5; ++qi)
      for (int ri = 0; ri < 3; ++ri) {
        Mpz q, r, a, limit;
        mpz_set_ui(q.v, 1);
        mpz_mul_2exp(q.v, q.v, 32 * n);  // B^n
        if (qi == 0) mpz_sub_ui(q.v, q.v, 1);
        else if (qi == 1) mpz_sub_ui(q.v, q.v, 2);
        else if (qi == 2) mpz_fdiv_q_2exp(q.v, q.v, 1);
        else mpz_set_ui(q.v, qi - 3);  // 0, 1
        if (ri == 1) mpz_sub_ui(r.v, bm.v, 1);
        else if (ri == 2) {
          Mpz x(random_value(rng, bits));
          mpz_mod(r.v, x.v, bm.v);
        }
        mpz_set_ui(limit.v, 1);  // the largest quotient with q b + r within a's width
        mpz_mul_2exp(limit.v, limit.v, op.operand_bits[0]);
        mpz_sub(limit.v, limit.v, r.v);
        mpz_sub_ui(limit.v, limit.v, 1);
        mpz_fdiv_q(limit.v, limit.v, bm.v);
        if (mpz_cmp(q.v, limit.v) > 0) mpz_set(q.v, limit.v);
        mpz_mul(a.v, q.v, bm.v);
        mpz_add(a.v, a.v, r.v);
        cases.push_back({mpgen::from_mpz(a.v, op.operand_bits[0]), b});
      }
  }
  return cases;
}

TEST_CASE("division by quotients of all ones and other edges agrees with GMP at every size") {
  const bool gpu = gpu_for_tests();
  for_each_operation(gpu, on_demand_arithmetic, [&](const mpgen::OpInfo& op, bool on_cpu, bool on_gpu) {
    if (op.name != "div_qr_wide" && op.name != "div_qr" && op.name != "div" && op.name != "rem") return;
    std::mt19937_64 rng(test_seed() ^ op.bits);
    auto cases = constructed_division_cases(op, rng);
    if (!slow_on_host(op)) {
      check_against_gmp(op, reference_for(op), cases, on_cpu, on_gpu);
      return;
    }
    if (on_gpu) check_against_gmp(op, reference_for(op), cases, false, true);
    if (on_cpu) check_against_gmp(op, reference_for(op), thinned(std::move(cases), host_divisions), true, false);
  });
}

// The group tier's division, square root and R^2 mod p (two of the division's remainders)
// compiled on demand: at 3000 bits, where the group holds more limbs than the size (94 limbs
// in 96, a wide dividend's high half moved to the held width, the remainder after the size's
// limbs); at 16384, 65536, 131072 and 262144 bits (the last two by Newton's reciprocal after
// the schoolbook's 64 digits, data/group.toml's [division]: 2 and 3 Newton steps; R^2 mod p
// then mixes the rows' products and the transforms') and 50000 (1563 limbs, the top limb
// part used, 128 threads of 13 in 1664). Constructed quotients (of all ones among them, divisors of
// powers of two and 2^k - 1, remainders 0 and b - 1), edge values and random operands: on the
// host a few dozen of each (past 16384 bits a quarter of that, past 65536 a handful, for
// CI's time), on the GPU all (past 65536 bits 3000 constructed ones); sqrt's steps are the
// division's, on a value whose top limbs the group holds as zeros at 3000 and 50000 bits.
TEST_CASE("the group tier's division and what runs on it (sqrt and R^2 mod p) at 3000 to 262144 bits agree with GMP") {
  const bool gpu = gpu_for_tests();
  for (const unsigned bits : {3000u, 16384u, 50000u, 65536u, 131072u, 262144u})
    for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
      if (device == mpgen::Device::gpu && !gpu) continue;
      for (const mpgen::OpInfo* divide :
           mpgen::compile_on_demand(bits, {"div_qr_wide", "div_qr", "sqrt", "mont_radix_squared"}, device)) {
        const mpgen::OpInfo& op = *divide;
        CHECK(op.tier == "group");
        std::mt19937_64 rng(test_seed() ^ bits);
        const bool cpu = device == mpgen::Device::cpu;
        const std::size_t host = bits > 65536 ? 8 : bits > 16384 ? host_divisions / 4 : host_divisions;
        if (op.name.rfind("div", 0) == 0) {  // at 262144 bits all would be 47 K cases of 64 KB
          const auto cases = constructed_division_cases(op, rng, cpu ? 15 * host : bits > 65536 ? 3000 : SIZE_MAX);
          check_against_gmp(op, reference_for(op), cpu ? thinned(cases, host) : cases, cpu, !cpu);
        }
        check_operation(op, cpu, !cpu, test_seed(), cpu ? host / 4 : random_cases() / 10, cpu ? host : 300);
      }
    }
}

// RSA-3072's modulus size (no default size: 96 limbs on 16 threads of 6, the group tier's
// held width exactly), compiled on demand: the division by constructed quotients, sqrt and
// gcd; on the CPU a quarter of the host's usual cases (the 3000-bit case above runs the
// division's every path at a width not held exactly), on the GPU all of them.
TEST_CASE("RSA-3072's modulus size: the group tier's division, sqrt and gcd at 3072 bits agree with GMP") {
  const bool gpu = gpu_for_tests();
  for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
    if (device == mpgen::Device::gpu && !gpu) continue;
    const bool cpu = device == mpgen::Device::cpu;
    std::size_t checked = 0;
    for (const mpgen::OpInfo* found : mpgen::compile_on_demand(3072, rsa3072_ops, device)) {
      const mpgen::OpInfo& op = *found;
      if (op.name != "div_qr" && op.name != "sqrt" && op.name != "gcd") continue;  // moduli.cpp's the rest
      CHECK(op.tier == "group");
      ++checked;
      if (op.name == "div_qr") {
        std::mt19937_64 rng(test_seed() ^ 3072);
        check_against_gmp(op, reference_for(op), thinned(constructed_division_cases(op, rng), cpu ? 25 : SIZE_MAX),
                          cpu, !cpu);
      }
      check_operation(op, cpu, !cpu, test_seed(), cpu ? 6 : random_cases() / 10, cpu ? 25 : 300);
    }
    CHECK(checked == 3);
  }
}

// The group tier at the sizes that are not built in (3000 bits: 94 limbs, the top thread
// partly used; 32768; 262144, the largest), generated and compiled on demand for each
// device (the shifts by a constant: across limbs, and across threads at 3000 bits; by a
// run-time amount: every stage); random cases as above up to 32768 bits, a tenth of them
// at 262144. The products cost the host n^2: at 32768 bits, 300 edge cases and 1% of the
// random ones; at 262144 (tables in more shared memory than a launch gets unasked), 12
// edge cases and 2 random ones.
TEST_CASE("the group tier at 3000, 32768 and 262144 bits agrees with GMP, compiled on demand") {
  const bool gpu = gpu_for_tests();
  const std::vector<std::string> names = {"add", "sub", "neg", "eq",  "lt",  "cmp", "is_zero", "mul",
                                          "mul_lo", "sqr", "mad", "shl", "shr", "shl33", "shr1000"};
  for (unsigned bits : {3000u, 32768u, 262144u}) {
    const auto check = [&](const mpgen::OpInfo& op, bool on_cpu) {
      const bool product = op.name.rfind("mul", 0) == 0 || op.name == "sqr" || op.name == "mad";
      const std::size_t count = product && bits > 32768 ? 2
                                : bits > 32768         ? random_cases() / 10
                                : product && bits > 4096 ? random_cases() / 100
                                                         : random_cases();
      // the other operations' pairs of edge values (thousands past 4096 bits) on the CPU
      // spread over 1,000, and 500 past 32768 bits
      const std::size_t edges = product && bits > 32768   ? 12
                                : product && bits > 4096  ? 300
                                : !on_cpu || bits <= 4096 ? SIZE_MAX
                                : bits > 32768            ? 500
                                                          : 1000;
      CHECK(op.tier == "group");
      check_operation(op, on_cpu, !on_cpu, test_seed(), count, edges);
    };
    for (const mpgen::OpInfo* op : mpgen::compile_on_demand(bits, names, mpgen::Device::cpu)) check(*op, true);
    if (gpu)
      for (const mpgen::OpInfo* op : mpgen::compile_on_demand(bits, names, mpgen::Device::gpu)) check(*op, false);
  }
}

// Past 2^18 bits a group spans blocks (tiers.py; headers/group.cuh's on_device with Span < T:
// barriers of the group's blocks, its exchanges and transforms in global memory, a
// cooperative launch): 2^20 bits (2048 threads of 16 limbs, 4 blocks of 512; the products
// 4096 of 8 on 8), 600000 bits (2048 threads of 10, the top ones partly used; the products
// 4096 of 5) and 2^19 bits (1024 threads of 16: one block for the sums, two of 512 for the
// products' transforms and the division on them), compiled on demand:
// sums, comparisons and shifts (across blocks), the products by transform, the division
// by Newton's reciprocal, and sqrt in one block (512 threads of 32 at 2^19, 1024 of 19 and
// of 32 above). GMP and the host take a while there: on the CPU (for
// CI's time) 2^20 bits alone, a handful of cases each (edge values and random), on the GPU
// every size, 40 and 100.
TEST_CASE("past 2^18 bits a group spans blocks: 524288 600000 and 1048576 bits agree with GMP") {
  const bool gpu = gpu_for_tests();
  const std::vector<std::string> names = {"add", "sub", "lt", "cmp", "shl", "shr1000", "mul", "mul_lo", "sqr",
                                          "div_qr", "sqrt"};
  for (const unsigned bits : {524288u, 600000u, 1048576u})
    for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
      if (device == mpgen::Device::gpu ? !gpu : bits != 1048576) continue;
      const bool cpu = device == mpgen::Device::cpu;
      std::size_t checked = 0;
      for (const mpgen::OpInfo* found : mpgen::compile_on_demand(bits, names, device)) {
        const mpgen::OpInfo& op = *found;
        const bool product = op.name.rfind("mul", 0) == 0 || op.name == "sqr";
        const bool on_products = product || op.name == "div_qr";
        const bool root = op.name == "sqrt";  // its rows hold the group in one block to 2^20 bits
        const unsigned threads = root ? (bits == 524288 ? 512 : 1024)
                                 : bits == 524288 ? 1024
                                 : product        ? 4096
                                                  : 2048;
        CHECK(op.tier == "group");
        CHECK(op.threads_per_instance == threads);
        CHECK(op.blocks_per_instance == (root || (bits == 524288 && !on_products) ? 1 : threads / 512));
        const bool slow = slow_on_host(op) || product;
        if (op.name == "div_qr") {
          std::mt19937_64 rng(test_seed() ^ bits);
          check_against_gmp(op, reference_for(op), thinned(constructed_division_cases(op, rng, cpu ? 60 : 400),
                                                           cpu ? 2 : 40),
                            cpu, !cpu);
        }
        check_operation(op, cpu, !cpu, test_seed(), cpu ? (slow ? 0 : 3) : 100, cpu ? (slow ? 2 : 8) : 40);
        ++checked;
      }
      CHECK(checked == names.size());
    }
}

// Past 2^20 bits sqrt goes by Newton's inverse square root (group/sqrt.py: a dozen steps of
// three products by transform at the held width) where its group spans blocks, on mul's
// geometry: 2^21 bits (4096 threads of 16 limbs, 8 blocks of 512) and 2^20 + 32 (the same
// threads, of 9 limbs, the top one's partly used). On the CPU, for CI's time, two edge
// values at 2^21; on the GPU 40 edge values and 20 random ones each.
TEST_CASE("sqrt by Newton past 2^20 bits agrees with GMP") {
  const bool gpu = gpu_for_tests();
  for (const unsigned bits : {(1u << 21), (1u << 20) + 32})
    for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
      if (device == mpgen::Device::gpu ? !gpu : bits != (1u << 21)) continue;
      const bool cpu = device == mpgen::Device::cpu;
      const mpgen::OpInfo& op = mpgen::compile_on_demand(bits, "sqrt", device);
      CHECK(op.threads_per_instance == 4096);
      CHECK(op.limbs_per_thread == (bits == (1u << 21) ? 16 : 9));
      CHECK(op.blocks_per_instance == 8);
      check_operation(op, cpu, !cpu, test_seed(), cpu ? 0 : 20, cpu ? 2 : 40);
    }
}

// 2^24 bits: 16384 threads of 32 limbs over 32 blocks (the most a group spans), their
// transforms of 2^20 points a prime with twiddles computed at first use: the sum, the
// product, and on the GPU the division by Newton's reciprocal (after the schoolbook's 64
// digits, 8 steps). The host takes half a minute for one division there (its Q = 32 lists
// run in the host's interpreter), past CI's budget: on the CPU the sum's edge values and
// two products (the host's division past 2^18 bits runs at 2^20 above); on the GPU a dozen
// edge and constructed cases each.
TEST_CASE("at 2^24 bits a group spans 32 blocks: add mul and div_qr agree with GMP") {
  const bool gpu = gpu_for_tests();
  for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
    if (device == mpgen::Device::gpu && !gpu) continue;
    const bool cpu = device == mpgen::Device::cpu;
    const std::vector<std::string> names = cpu ? std::vector<std::string>{"add", "mul"}
                                               : std::vector<std::string>{"add", "mul", "div_qr"};
    std::size_t checked = 0;
    for (const mpgen::OpInfo* found : mpgen::compile_on_demand(1u << 24, names, device)) {
      const mpgen::OpInfo& op = *found;
      CHECK(op.threads_per_instance == 16384);
      CHECK(op.blocks_per_instance == 32);
      ++checked;
      if (op.name == "div_qr") {
        std::mt19937_64 rng(test_seed() ^ 24);
        check_against_gmp(op, reference_for(op), thinned(constructed_division_cases(op, rng, 200), 12), false, true);
      }
      check_operation(op, cpu, !cpu, test_seed(), cpu ? 0 : 6, cpu ? (op.name == "add" ? 6 : 1) : 12);
    }
    CHECK(checked == names.size());
  }
}

// 2048 bits, which both tiers hold, in the group tier by name: a module of its own
// (u2048_group) with a cache entry of its own, found by its tier, while the size's own tier
// (what the generator's auto picks, and what is built in) stays the thread tier.
TEST_CASE("2048 bits in the group tier, named, compiles on demand and agrees with GMP; the default stays thread") {
  const bool gpu = gpu_for_tests();
  const mpgen::OpInfo& group = mpgen::compile_on_demand(2048, "mul", mpgen::Device::cpu, "group");
  CHECK(group.tier == "group");
  CHECK(group.module == "u2048_group");
  CHECK(&mpgen::find(2048, "mul", "group") == &group);
  const mpgen::OpInfo& own = mpgen::compile_on_demand(2048, "mul", mpgen::Device::cpu);
  CHECK(own.tier == "thread");
  for (const char* tier : {"", "auto", "thread"}) CHECK(&mpgen::find(2048, "mul", tier) == &own);
  check_operation(group, true, false, test_seed(), random_cases());
  if (gpu) {
    const mpgen::OpInfo& on_gpu = mpgen::compile_on_demand(2048, "mul", mpgen::Device::gpu, "group");
    CHECK(on_gpu.tier == "group");
    check_operation(on_gpu, false, true, test_seed(), random_cases());
  }
}

namespace {

// The cases of a product by transform (mul, mul_lo: two operands; sqr: one): edge cases,
// then `random_count` random ones. First the core values (0, all ones, the alternating
// patterns, 1, 2 and 2^(bits-1)), each with each: all ones times all ones makes every
// coefficient of the convolution its largest, and the top of the result full; then each
// other edge value of edge_values (a single bit, 2^(32 i) - 1 and all ones with limb i
// cleared, for each of its limbs i) with all ones and with the same kind of value at the
// next of those limbs (a single bit times a single bit: one coefficient alone).
std::vector<std::vector<Limbs>> product_cases(const mpgen::OpInfo& op, std::size_t random_count, uint64_t seed) {
  const bool square = op.operand_bits.size() == 1;
  const std::vector<Limbs> edges = operand_edges(op, 0);
  std::vector<Limbs> core(edges.begin(), edges.begin() + partners), rest(edges.begin() + partners, edges.end() - 1);
  core.push_back(edges.back());  // 2^(bits-1)
  const Limbs& ones = edges[1];
  std::vector<std::vector<Limbs>> cases;
  for (const Limbs& a : core) {
    if (square) cases.push_back({a});
    else
      for (const Limbs& b : core) cases.push_back({a, b});
  }
  for (std::size_t i = 0; i < rest.size(); ++i) {  // three values a limb: bit, below, holed
    if (square) cases.push_back({rest[i]});
    else {
      cases.push_back({rest[i], ones});
      cases.push_back({rest[i], rest[(i + 3) % rest.size()]});
    }
  }
  std::mt19937_64 rng(seed ^ (uint64_t(op.bits) << 32) ^ std::hash<std::string>{}(op.name + "ntt"));
  for (std::size_t i = 0; i < random_count; ++i) {
    std::vector<Limbs> operands;
    for (unsigned k = 0; k < op.operand_bits.size(); ++k) operands.push_back(random_value(rng, op.operand_bits[k]));
    cases.push_back(operands);
  }
  return cases;
}

}  // namespace

// Products by number-theoretic transform (the group tier's --mul ntt: the modules
// u<bits>_ntt), generated and compiled on demand for each device, against GMP: at 16384
// bits, 32864 (2^15 + 96: just past a power of two, so a transform twice 32768's, and the
// last threads partly used or idle), 65536, 131072 and 262144 (the largest). Per operation
// (mul, mul_lo, sqr) and size, the edge cases of product_cases (the core values' pairs,
// all ones times all ones among them, then each other edge value with all ones and with
// another: 433 at 16384 bits for mul, 133 at 262144) and random ones: on the CPU 1000,
// 400, 200, 100 and 40 (each case runs twice, in both layouts, where the host's rendering
// runs one instance at a time: on this project's 2-core machine, Release build, 2026-11-24,
// a mul took 0.45 ms at 16384 bits and 8.5 ms at 262144, the whole test 21.5 s of CPU with
// its 15 modules cached, 37.6 s compiling them), on the GPU ten times as many. (On an H100,
// 2026-11-24, the GPU half passed only with __launch_bounds__ on the C-named kernels of
// templates/kernels.cu.j2: without, the blocks of 512 threads at 131072 and 262144 bits
// take 255 registers and fail to launch, as the quadratic 262144-bit mul does.)
TEST_CASE("products by transform (mul ntt) at 16384, 32864, 65536, 131072 and 262144 bits agree with GMP") {
  const bool gpu = gpu_for_tests();
  struct Counts {
    unsigned bits;
    std::size_t random;
  };
  const std::vector<std::string> products = {"mul", "mul_lo", "sqr"};
  // random cases on the CPU (whose long column lists run in the host's interpreter); 40 times
  // as many on the GPU
  for (const Counts c : {Counts{16384, 250}, Counts{32864, 100}, Counts{65536, 50}, Counts{131072, 25},
                         Counts{262144, 10}}) {
    const auto check = [&](const mpgen::OpInfo& op, bool on_cpu) {
      CHECK(op.mul == "ntt");
      CHECK(op.tier == "group");
      CHECK(op.module == "u" + std::to_string(c.bits) + "_ntt");
      check_against_gmp(op, reference_for(op), product_cases(op, on_cpu ? c.random : 40 * c.random, test_seed()),
                        on_cpu, !on_cpu);
    };
    for (const mpgen::OpInfo* op : mpgen::compile_on_demand(c.bits, products, mpgen::Device::cpu, "", "ntt"))
      check(*op, true);
    if (gpu)
      for (const mpgen::OpInfo* op : mpgen::compile_on_demand(c.bits, products, mpgen::Device::gpu, "", "ntt"))
        check(*op, false);
  }
}

// A size's products by transform are a module of their own (u16384_ntt, with a cache entry
// of its own), found by their method, while the size's own module (u16384, the generator's
// auto: quadratic products) stays what "" and "auto" find, whatever the tier is named. The
// thread tier (2048 bits by default) has no ntt: the generator's refusal; 2048 bits in
// the group tier has (u2048_group_ntt). Another method's name is a one-line InputError
// naming the allowed ones.
TEST_CASE("products by transform (mul ntt) are a module of their own, found by their method; a bad method is refused") {
  const mpgen::OpInfo& ntt = mpgen::compile_on_demand(16384, "mul", mpgen::Device::cpu, "", "ntt");
  CHECK(ntt.module == "u16384_ntt");
  CHECK(ntt.mul == "ntt");
  CHECK(ntt.tier == "group");
  const mpgen::OpInfo& plain = mpgen::compile_on_demand(16384, "mul", mpgen::Device::cpu);
  CHECK(plain.module == "u16384");
  CHECK(plain.mul == "auto");
  CHECK(plain.tier == "group");
  CHECK(&plain != &ntt);
  for (const char* tier : {"", "auto", "group"}) {
    for (const char* mul : {"", "auto"}) CHECK(&mpgen::find(16384, "mul", tier, mul) == &plain);
    CHECK(&mpgen::find(16384, "mul", tier, "ntt") == &ntt);
    CHECK(&mpgen::compile_on_demand(16384, "mul", mpgen::Device::cpu, tier, "ntt") == &ntt);
    CHECK(&mpgen::compile_on_demand(16384, "mul", mpgen::Device::cpu, tier, "auto") == &plain);
  }
  const std::vector<std::string> ops = mpgen::operations(16384, "", "ntt");
  CHECK(std::find(ops.begin(), ops.end(), "mul") != ops.end());
  check_operation(plain, true, false, test_seed(), 8, 16);  // each its own kernels, both right
  check_operation(ntt, true, false, test_seed(), 8, 16);
  CHECK_THROWS_WITH_AS(mpgen::find(16384, "mul", "thread", "ntt"),
                       doctest::Contains("16384 bits in the thread tier with mul ntt is not built in"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::find(16384, "mul", "thread", "ntt"), doctest::Contains("group with mul ntt"),
                       mpgen::InputError);

  for (const char* tier : {"", "thread"})  // 2048 bits: the thread tier's by default
    CHECK_THROWS_WITH_AS(mpgen::compile_on_demand(2048, "mul", mpgen::Device::cpu, tier, "ntt"),
                         doctest::Contains("mul ntt"), mpgen::InputError);
  CHECK(mpgen::generate_source(2048, "mul", "group", "ntt").header_name == "mpgen_u2048_group_ntt.cuh");
  CHECK(mpgen::generate_source(65536, "sqr", "", "ntt").header_name == "mpgen_u65536_ntt.cuh");

  const auto one_line_refusal = [](const std::function<void()>& call, const std::string& mul) {
    try {
      call();
      FAIL_CHECK("the method '" << mul << "' was not refused");
    } catch (const mpgen::InputError& e) {
      const std::string message = e.what();
      CHECK_MESSAGE(message.find("allowed: auto, ntt") != std::string::npos, message);
      CHECK_MESSAGE(message.find("'" + mul + "'") != std::string::npos, message);
      CHECK_MESSAGE(message.find('\n') == std::string::npos, message);
    }
  };
  for (const std::string mul : {"fft", "NTT", " ntt", "ntt ", "schoolbook", "karatsuba"}) {
    one_line_refusal([&] { mpgen::find(16384, "mul", "", mul); }, mul);
    one_line_refusal([&] { mpgen::find(16384, "mul", "group", mul); }, mul);
    one_line_refusal([&] { mpgen::operations(16384, "", mul); }, mul);
    one_line_refusal([&] { mpgen::compile_on_demand(16384, "mul", mpgen::Device::cpu, "", mul); }, mul);
    one_line_refusal([&] { mpgen::generate_source(16384, "mul", "", mul); }, mul);
  }
}

TEST_CASE("a batch on the CPU is split over MPGEN_CPU_THREADS threads, the same products as GMP's at any count") {
  const mpgen::OpInfo& op = mpgen::find(256, "mul");
  const std::size_t n = 50000;  // 12 ranges of 4,096 instances at most
  std::mt19937_64 rng(256);
  std::vector<std::vector<Limbs>> cases(n);
  std::vector<Limbs> want(n);
  for (std::size_t j = 0; j < n; ++j) {
    cases[j] = {random_value(rng, 256), random_value(rng, 256)};
    Mpz a(cases[j][0]), b(cases[j][1]), r;
    mpz_mul(r.v, a.v, b.v);
    want[j] = mpgen::from_mpz(r.v, 32 * op.result_limbs);
  }
  const char* before = std::getenv("MPGEN_CPU_THREADS");
  const std::string kept = before ? before : "";
  for (const char* threads : {"1", "3", "7", "64"}) {
    ::setenv("MPGEN_CPU_THREADS", threads, 1);
    CHECK(mpgen::cpu_threads() == unsigned(std::atoi(threads)));
    for (auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous})
      for (auto device : {mpgen::Device::cpu, mpgen::Device::cpu_32}) {
        mpgen::Batch batch(op, n, layout);
        for (std::size_t j = 0; j < n; ++j)
          for (unsigned k = 0; k < 2; ++k) batch.set_operand(j, k, cases[j][k]);
        batch.run(device);
        std::size_t wrong = 0;
        for (std::size_t j = 0; j < n; ++j) wrong += batch.result(j) != want[j];
        CHECK_MESSAGE(wrong == 0, threads << " threads, " << (device == mpgen::Device::cpu ? "cpu" : "cpu_32") << ", "
                                          << (layout == mpgen::Layout::interleaved ? "interleaved" : "contiguous"));
      }
  }
  for (const char* bad : {"0", "-2", "4x", "1025"}) {
    ::setenv("MPGEN_CPU_THREADS", bad, 1);
    CHECK_THROWS_WITH_AS(mpgen::cpu_threads(), ("MPGEN_CPU_THREADS is '" + std::string(bad) +
                                                "'; give a number of threads from 1 to 1024").c_str(),
                         mpgen::InputError);
  }
  if (before) ::setenv("MPGEN_CPU_THREADS", kept.c_str(), 1);
  else ::unsetenv("MPGEN_CPU_THREADS");
}

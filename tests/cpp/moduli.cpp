// Operations whose modulus is an operand (Montgomery arithmetic modulo an odd p given at
// run time, with -p^-1 mod 2^32 beside it, mod R in the group tier) at every built size
// against GMP, on the CPU and on the GPU when one is present; and the checked entry
// points' refusals.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "against_gmp.hpp"
#include "mpgen/runtime.hpp"

namespace {

using namespace against_gmp;

// x mod p for limbs x (p as an Mpz), as limbs of `bits` bits.
Limbs reduce(const Limbs& x, const Mpz& p, unsigned bits) {
  Mpz v(x);
  mpz_mod(v.v, v.v, p.v);
  return mpgen::from_mpz(v.v, bits);
}

// -p^-1 mod 2^width (32 per thread, R's width in a group), by GMP.
Limbs minus_inverse(const Mpz& p, unsigned width = 32) {
  Mpz radix, inverse;
  mpz_set_ui(radix.v, 1);
  mpz_mul_2exp(radix.v, radix.v, width);
  REQUIRE(mpz_invert(inverse.v, p.v, radix.v));
  mpz_sub(inverse.v, radix.v, inverse.v);
  mpz_mod(inverse.v, inverse.v, radix.v);
  return mpgen::from_mpz(inverse.v, width);
}

// GMP's answer for an operation modulo the operand p, R = 2^(32 limbs).
Reference montgomery_reference(const mpgen::OpInfo& op) {
  const unsigned at = unsigned(op.modulus_operand), radix_bits = 32 * ((op.bits + 31) / 32);
  const std::string name = op.name;
  return [at, radix_bits, name](mpz_t r, const std::vector<const Mpz*>& x, unsigned) {
    const mpz_t& p = x[at]->v;
    Mpz radix, inverse;
    mpz_set_ui(radix.v, 1);
    mpz_mul_2exp(radix.v, radix.v, radix_bits);
    if (mpz_cmp_ui(p, 1) == 0) {  // everything is 0 modulo 1
      mpz_set_ui(r, 0);
      return 0u;
    }
    if (name == "modexp") {
      mpz_powm(r, x[0]->v, x[1]->v, p);
      return 0u;
    }
    if (name == "modmul" || name == "barrett_modmul") {
      mpz_mul(r, x[0]->v, x[1]->v);
      mpz_mod(r, r, p);
      return 0u;
    }
    if (name == "modinv") {  // flag 1 and 0 where gcd(a, p) > 1
      if (mpz_invert(r, x[0]->v, p)) return 0u;
      mpz_set_ui(r, 0);
      return 1u;
    }
    REQUIRE(mpz_invert(inverse.v, radix.v, p));
    if (name == "montmul" || name == "tomont") mpz_mul(r, x[0]->v, x[1]->v);
    else if (name == "montsqr") mpz_mul(r, x[0]->v, x[0]->v);
    else if (name == "frommont") mpz_set(r, x[0]->v);
    else if (name == "montredc") {
      mpz_mul(r, x[1]->v, radix.v);
      mpz_add(r, r, x[0]->v);
    } else FAIL("no GMP reference for " << name);
    mpz_mul(r, r, inverse.v);
    mpz_mod(r, r, p);
    return 0u;
  };
}

// The moduli of the edge cases: 1, 3, 2^bits - 1, 2^(bits-1) + 1, all ones but the lowest
// limb (2^bits - 2^32 + 1 and so on), 2^32 - 1 (a top limb of 0 above one word, where
// bits > 32), and an odd alternating pattern; and, where p need not be odd, 2, 2^(bits-1)
// and 2^bits - 2.
std::vector<Limbs> edge_moduli(unsigned bits, bool odd) {
  const unsigned n = (bits + 31) / 32;
  std::vector<Limbs> moduli;
  Limbs small(n, 0);
  for (uint32_t p : {1u, 3u}) {
    small[0] = p;
    moduli.push_back(small);
  }
  const Limbs ones = mask_to(Limbs(n, 0xffffffffu), bits);
  moduli.push_back(ones);
  Limbs top(n, 0);
  top[(bits - 1) / 32] = 1u << ((bits - 1) % 32);
  top[0] |= 1;
  moduli.push_back(top);
  if (n > 1) {
    Limbs low = ones;
    low[0] = 1;
    moduli.push_back(low);
    small[0] = 0xffffffffu;
    moduli.push_back(small);
  }
  moduli.push_back(mask_to(Limbs(n, 0xaaaaaaabu), bits));
  if (!odd) {  // 2, 2^(bits-1), 2^bits - 2
    small.assign(n, 0);
    small[0] = 2;
    top[0] &= ~1u;
    Limbs below = ones;
    below[0] &= ~1u;
    for (const Limbs& p : {small, top, below}) moduli.push_back(p);
  }
  return moduli;
}

// The operands of one instance: values, then p and -p^-1 (mod 2^32, or R in a group) where op takes it.
std::vector<Limbs> instance(const mpgen::OpInfo& op, const std::vector<Limbs>& values, const Limbs& p) {
  std::vector<Limbs> operands = values;
  operands.push_back(p);
  if (op.minus_inverse_operand >= 0)
    operands.push_back(minus_inverse(Mpz(p), op.operand_bits.at(unsigned(op.minus_inverse_operand))));
  if (op.reciprocal_operand >= 0) operands.push_back(barrett_reciprocal(Mpz(p), op.bits));
  return operands;
}

// Edge cases for each edge modulus p: the values 0, 1, 2, p - 1, p - 2, (p - 1) / 2 and
// (p + 1) / 2 (those below p), each with each; then every edge value of the width reduced
// modulo p, with p - 1 and with 1. Then random cases: p a random odd value of a random
// width (its limbs often 0 or all ones), the values random below it. Operands that need not
// be below p (montredc's low half, modexp's exponent) take the width's edge and random
// values unreduced; modexp takes each core value (0, 1, p - 1 only past 768 bits) with the
// first six edge exponents (0, all ones, the alternating patterns, 1, 2).
std::vector<std::vector<Limbs>> modulus_cases(const mpgen::OpInfo& op, std::size_t random_count, uint64_t seed) {
  const unsigned bits = op.bits, at = unsigned(op.modulus_operand);
  const bool loop = op.name == "modexp";  // modinv's rounds and modmul's division take the edge values too
  const auto value = [&](const Limbs& x, unsigned k, const Mpz& p) {
    return op.below_modulus >> k & 1 ? reduce(x, p, bits) : x;
  };
  std::vector<std::vector<Limbs>> cases;
  const auto add = [&](const std::vector<Limbs>& picks, const Limbs& p) {
    const Mpz pm(p);
    std::vector<Limbs> values;
    for (unsigned k = 0; k < at; ++k) values.push_back(value(picks[k % picks.size()], k, pm));
    cases.push_back(instance(op, values, p));
  };
  for (const Limbs& p : edge_moduli(bits, op.odd_modulus)) {
    const Mpz pm(p);
    std::vector<Limbs> core;
    for (long d : {0L, 1L, 2L, -1L, -2L}) {
      Mpz v;
      if (d >= 0) mpz_set_ui(v.v, d);
      else mpz_sub_ui(v.v, pm.v, -d);
      if (mpz_sgn(v.v) >= 0 && mpz_cmp(v.v, pm.v) < 0) core.push_back(mpgen::from_mpz(v.v, bits));
    }
    for (unsigned half : {0u, 1u}) {
      Mpz v;
      mpz_add_ui(v.v, pm.v, half);
      mpz_fdiv_q_2exp(v.v, v.v, 1);
      if (mpz_cmp(v.v, pm.v) < 0) core.push_back(mpgen::from_mpz(v.v, bits));
    }
    if (loop) {  // a^e: a among the core values (0, 1, p - 1 past 24 limbs), e among the width's
      // first edges (0, all ones, the alternating patterns, 1, 2; past 32 limbs not the patterns)
      const std::vector<Limbs> exponents = edge_values(bits);
      for (std::size_t i = 0; i < core.size(); ++i)
        if (bits <= 768 || i == 0 || i == 1 || i == 3)
          for (std::size_t k = 0; k < (at > 1 ? 6 : 1); ++k)
            if (bits <= 1024 || k < 2 || k > 3) add({core[i], exponents[k]}, p);
      continue;
    }
    for (const Limbs& a : core)
      for (const Limbs& b : at > 1 ? core : std::vector<Limbs>{a}) add({a, b}, p);
    const Limbs& last = core.size() > 3 ? core[3] : core[0];  // p - 1
    for (const Limbs& e : edge_values(bits)) {
      add({e, last}, p);
      add({e, core[core.size() > 1]}, p);
    }
  }
  std::mt19937_64 rng(seed ^ (uint64_t(bits) << 32) ^ std::hash<std::string>{}(op.name + "modulus"));
  for (std::size_t i = 0; i < random_count; ++i) {
    Limbs p = random_value(rng, 2 + rng() % (bits - 1));
    p.resize((bits + 31) / 32, 0);
    p[0] |= op.odd_modulus ? 1u : 1u << (rng() % 32);  // odd, or any but 0
    std::vector<Limbs> picks;
    for (unsigned k = 0; k < at; ++k) picks.push_back(random_value(rng, bits));
    add(picks, p);
  }
  return cases;
}

// `count` of the cases, evenly spread from the last (a random one) to the first (one: the last).
std::vector<std::vector<Limbs>> spread(const std::vector<std::vector<Limbs>>& cases, std::size_t count) {
  if (cases.size() <= count) return cases;
  std::vector<std::vector<Limbs>> kept;
  const std::size_t last = cases.size() - 1;
  for (std::size_t k = 0; k < count; ++k) kept.push_back(cases[last - (count > 1 ? k * last / (count - 1) : 0)]);
  return kept;
}

}  // namespace

// At the sizes compiled on demand, these (RSA's and Diffie-Hellman's), one module a size.
const std::vector<std::string> on_demand_moduli = {"montmul", "modexp", "modinv"};

TEST_CASE("operations with the modulus as an operand agree with GMP at every size") {
  const bool gpu = gpu_for_tests();
  std::size_t checked = 0;
  for_each_operation(gpu, on_demand_moduli, [&](const mpgen::OpInfo& op, bool on_cpu, bool on_gpu) {
    if (op.modulus_operand < 0) return;
    const std::string& name = op.name;
    const unsigned bits = op.bits;
    // modexp loops bits times: the random cases (random_cases()) up to 256 bits, a tenth
    // to 768, then 20; modinv's divsteps (bits / 10 rounds of O(limbs), in the host's
    // interpreter past 768 bits) a fiftieth from there; and every edge case (the thread
    // tier past 768 bits on the CPU: 24, below). The group tier's modexp (1.25 bits Montgomery
    // products of the group: 4-bit windows) and modinv (bits / 10 rounds of divsteps) on the CPU 4 of their
    // cases at 4096 bits and 1 at 8192 (seconds each), its modmul (a product and a division's 20) 40, spread
    // over the edge moduli and two random ones; on the GPU all the edge cases and a tenth of
    // the random ones. Its other operations (a few group products each) on the CPU the edge
    // cases and a tenth of the random ones (at 8192 bits 300 of them, spread), all on the GPU
    const bool group_slow = op.tier == "group" && (name == "modexp" || name == "modinv" || name == "modmul");
    const std::size_t count = group_slow                        ? 2
                              : name == "modinv"                ? (bits <= 768 ? random_cases() : random_cases() / 50)
                              : name != "modexp" || bits <= 256 ? random_cases()
                              : bits <= 768                     ? random_cases() / 10
                                                                : 20;
    const std::vector<std::vector<Limbs>> cases = modulus_cases(op, count, test_seed());
    if (group_slow) {
      if (on_cpu)
        check_against_gmp(op, montgomery_reference(op), spread(cases, name == "modmul" ? 40 : bits <= 4096 ? 4 : 1),
                          true, false);
      if (on_gpu)
        check_against_gmp(op, montgomery_reference(op), modulus_cases(op, random_cases() / 10, test_seed()), false, true);
    } else if (op.tier == "group") {
      if (on_cpu)
        check_against_gmp(op, montgomery_reference(op),
                          spread(modulus_cases(op, count / 10, test_seed()), bits > 4096 ? 300 : SIZE_MAX), true, false);
      if (on_gpu) check_against_gmp(op, montgomery_reference(op), cases, false, true);
    } else if (on_cpu && bits > 768 && (name == "modexp" || name == "modinv")) {
      // Past 768 bits (the sizes compiled on demand) their products run in the host's
      // interpreter (32-bit lists past 1,500 instructions; one 2048-bit modexp 0.2 s on
      // CI's machine): on the CPU 24 of the cases, spread over the edge moduli and the
      // random ones; on the GPU all of them (a call of its own at these sizes).
      check_against_gmp(op, montgomery_reference(op), spread(cases, 24), true, false);
      if (on_gpu) check_against_gmp(op, montgomery_reference(op), cases, false, true);
    } else {
      check_against_gmp(op, montgomery_reference(op), cases, on_cpu, on_gpu);
    }
    ++checked;
  });
  CHECK(checked >= 8);  // montmul, montsqr, montredc, tomont, frommont, modexp, modinv, modmul at least
}

// RSA-3072's sizes, which no default size is: its modulus (3072 bits, the group tier: 96
// limbs on 16 threads of 6) and, on the GPU, its CRT halves' modexp (1536 bits, one a
// thread), compiled on demand. At 3072 bits one module for this case and arith.cpp's
// (rsa3072_ops, one compile). On the CPU a few cases each, spread over the edge moduli and a
// random one; on the GPU the edge cases and a tenth of the random ones.
TEST_CASE("RSA-3072's sizes agree with GMP: 3072 bits in the group tier, 1536 one a thread") {
  const bool gpu = gpu_for_tests();
  for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
    if (device == mpgen::Device::gpu && !gpu) continue;
    const bool cpu = device == mpgen::Device::cpu;
    std::vector<const mpgen::OpInfo*> ops = mpgen::compile_on_demand(3072, rsa3072_ops, device);
    if (!cpu)  // on the CPU the per-thread modexp's loop runs at 1024 and 2048 bits
      for (const mpgen::OpInfo* op : mpgen::compile_on_demand(1536, std::vector<std::string>{"modexp"}, device))
        ops.push_back(op);
    std::size_t checked = 0;
    for (const mpgen::OpInfo* found : ops) {
      const mpgen::OpInfo& op = *found;
      if (op.modulus_operand < 0) continue;
      CHECK(op.tier == (op.bits == 1536 ? "thread" : "group"));
      const auto cases = modulus_cases(op, cpu ? 1 : random_cases() / 10, test_seed());
      check_against_gmp(op, montgomery_reference(op), cpu ? spread(cases, op.name == "modexp" ? 2 : 12) : cases, cpu,
                        !cpu);
      ++checked;
    }
    CHECK(checked == (cpu ? 2 : 3));  // modexp and montredc at 3072; on the GPU modexp at 1536
  }
}

TEST_CASE("the modulus operand is checked: odd, with its -p^-1 or Barrett's reciprocal, the values below it") {
  const mpgen::OpInfo& op = mpgen::find(256, "montmul");
  REQUIRE(op.modulus_operand == 2);
  const Limbs p = mask_to(Limbs(8, 0xffffffffu), 256), one = {1};
  const uint32_t np0 = minus_inverse(Mpz(p))[0];
  mpgen::check_modulus_operands(op, {one, one, p, {np0}});
  Limbs even = p;
  even[0] = 0xfffffffeu;
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(op, {one, one, even, {np0}}),
                       "operand 3 of montmul, the modulus, is even; it must be odd (Montgomery form)",
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(op, {one, one, p, {np0 + 2}}),
                       doctest::Contains("operand 4 of montmul is not -p^-1 mod 2^32 for p = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff: that is 0x00000001"), mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(op, {one, p, p, {np0}}),
                       doctest::Contains("operand 2 of montmul is not below the modulus"), mpgen::InputError);
  mpgen::check_modulus_operands(mpgen::find(256, "montredc"), {p, one, p, {np0}});  // its low half need not be
  mpgen::check_modulus_operands(mpgen::find(256, "modmul"), {one, one, even});  // any p: by division
  const mpgen::OpInfo& barrett = mpgen::find(256, "barrett_modmul");  // any p, with its reciprocal
  const Limbs v = barrett_reciprocal(Mpz(even), 256);
  mpgen::check_modulus_operands(barrett, {one, one, even, v});
  Limbs wrong = v;
  wrong[0] ^= 1;
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(barrett, {one, one, even, wrong}),
                       doctest::Contains("operand 4 of barrett_modmul is not Barrett's reciprocal of p = 0xffff"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(barrett, {one, even, even, v}),
                       doctest::Contains("operand 2 of barrett_modmul is not below the modulus"), mpgen::InputError);
  mpgen::Batch batch(op, 2);
  for (unsigned k = 0; k < 2; ++k) batch.set_operand(0, k, one);
  batch.set_operand(0, 2, p);
  batch.set_operand(0, 3, {np0});
  CHECK_THROWS_WITH_AS(batch.run(mpgen::Device::cpu), doctest::Contains("instance 1: operand 3 of montmul, the modulus, is even"),
                       mpgen::InputError);
}

// modmul at 131072 bits (256 threads of 16), whose remainder comes from Newton's reciprocal
// (data/group.toml's [division]) beside the rows' product a b: one program of the rows'
// tables and the transforms' residues, compiled on demand. For each edge modulus (even ones
// too) (p - 1)^2, (p - 1) r and r s (r, s random below p): on the CPU 6 of them, spread, on
// the GPU all (modulus_cases' edge values of every limb would be 264 K cases here).
TEST_CASE("the group tier's modmul at 131072 bits (by Newton's division) agrees with GMP") {
  const bool gpu = gpu_for_tests();
  constexpr unsigned bits = 131072;
  for (const mpgen::Device device : {mpgen::Device::cpu, mpgen::Device::gpu}) {
    if (device == mpgen::Device::gpu && !gpu) continue;
    const bool cpu = device == mpgen::Device::cpu;
    const mpgen::OpInfo& op = *mpgen::compile_on_demand(bits, std::vector<std::string>{"modmul"}, device).front();
    CHECK(op.tier == "group");
    std::mt19937_64 rng(test_seed() ^ bits);
    std::vector<std::vector<Limbs>> cases;
    for (const Limbs& p : edge_moduli(bits, false)) {
      const Mpz pm(p);
      Mpz last;
      mpz_sub_ui(last.v, pm.v, 1);
      const Limbs top = mpgen::from_mpz(last.v, bits), r = reduce(random_value(rng, bits), pm, bits),
                  s = reduce(random_value(rng, bits), pm, bits);
      for (const auto& [a, b] : {std::pair{top, top}, std::pair{top, r}, std::pair{r, s}})
        cases.push_back(instance(op, {a, b}, p));
    }
    check_against_gmp(op, montgomery_reference(op), cpu ? spread(cases, 6) : cases, cpu, !cpu);
  }
}

// The group tier's Montgomery operations take -p^-1 mod R (R = 2^(32 limbs)): at 3000 bits
// the group holds 96 limbs for R's 94, so that the product interleaved word by word (and
// montredc and frommont, its loop without products) runs R's 94 limbs (group/montgomery.py;
// the reduction by whole products, which moves its sums down to R, is tested against
// Python's integers in tests/python/test_group_montgomery.py); compiled on demand. Its refusal names the whole -p^-1.
TEST_CASE("the group tier's Montgomery operations at 3000 bits agree with GMP; a wrong -p^-1 mod R is refused") {
  const bool gpu = gpu_for_tests();
  const std::size_t count = random_cases() / 10;
  const std::vector<std::string> names = {"montmul", "montsqr", "montredc", "tomont", "frommont", "mont_minus_inverse"};
  const std::vector<const mpgen::OpInfo*> on_cpu = mpgen::compile_on_demand(3000, names, mpgen::Device::cpu, "group");
  for (std::size_t k = 0; k + 1 < names.size(); ++k) {
    const mpgen::OpInfo& cpu_op = *on_cpu[k];
    CHECK(cpu_op.tier == "group");
    check_against_gmp(cpu_op, montgomery_reference(cpu_op), modulus_cases(cpu_op, count, test_seed()), true, false);
    if (gpu) {
      const mpgen::OpInfo& gpu_op = *mpgen::compile_on_demand(3000, names, mpgen::Device::gpu, "group")[k];
      check_against_gmp(gpu_op, montgomery_reference(gpu_op), modulus_cases(gpu_op, count, test_seed()), false, true);
    }
  }
  // -p^-1 mod 2^3008 itself: the edge moduli (even ones too: the flag) and random odd ones
  const mpgen::OpInfo& inverse = *on_cpu.back();
  REQUIRE(inverse.result_limbs == 94);
  std::vector<std::vector<Limbs>> moduli;
  for (const Limbs& p : edge_moduli(3000, false)) moduli.push_back({p});
  std::mt19937_64 rng(test_seed());
  for (std::size_t i = 0; i < count; ++i) {
    Limbs p = random_value(rng, 3000);
    p[0] |= 1;
    moduli.push_back({p});
  }
  const Reference reference = [](mpz_t r, const std::vector<const Mpz*>& x, unsigned) {
    if (mpz_even_p(x[0]->v)) return mpz_set_ui(r, 0), 1u;
    mpgen::to_mpz(r, minus_inverse(*x[0], 3008));
    return 0u;
  };
  check_against_gmp(inverse, reference, moduli, true, false);
  if (gpu)
    check_against_gmp(*mpgen::compile_on_demand(3000, names, mpgen::Device::gpu, "group").back(), reference,
                      moduli, false, true);
  const mpgen::OpInfo& op = *mpgen::compile_on_demand(4096, on_demand_moduli, mpgen::Device::cpu).front();
  REQUIRE(op.name == "montmul");
  REQUIRE(op.operand_bits.at(3) == 4096);
  const Limbs p = mask_to(Limbs(128, 0xffffffffu), 4096), one = {1};
  Limbs np = minus_inverse(Mpz(p), 4096);
  mpgen::check_modulus_operands(op, {one, one, p, np});
  np[127] ^= 1;  // right in its low word, wrong above
  CHECK_THROWS_WITH_AS(mpgen::check_modulus_operands(op, {one, one, p, np}),
                       doctest::Contains("operand 4 of montmul is not -p^-1 mod 2^4096 for p = 0xffff"),
                       mpgen::InputError);
}

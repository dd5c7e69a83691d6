// Every built operation at every built size against GMP: edge values and random
// operands, on the CPU, and on the GPU when one is present.
#include <doctest/doctest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "mpgen/runtime.hpp"

namespace {

using Limbs = std::vector<uint32_t>;

// An mpz_t that frees itself.
struct Mpz {
  Mpz() { mpz_init(v); }
  explicit Mpz(const Limbs& limbs) : Mpz() { mpgen::to_mpz(v, limbs); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
  mpz_t v;
};

// GMP's answer for an operation: the result as a number (cmp's -1 as 2^32 - 1), and
// the flag where the operation has one.
using Reference = std::function<unsigned(mpz_t r, const std::vector<const Mpz*>& x, unsigned bits)>;

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

const std::map<std::string, Reference>& references() {
  static const std::map<std::string, Reference> refs = {
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
Reference reference_for(const std::string& name) {
  if (references().count(name)) return references().at(name);
  for (bool left : {true, false}) {
    const std::string prefix = left ? "shl" : "shr";
    if (name.rfind(prefix, 0) == 0) return shift(left, std::stol(name.substr(3)));
  }
  FAIL("no GMP reference for " << name);
  return {};
}

uint64_t test_seed() {
  const char* s = std::getenv("MPGEN_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261122;
}

std::size_t random_cases() {
  const char* s = std::getenv("MPGEN_TEST_CASES");
  return s ? std::strtoull(s, nullptr, 0) : 10000;
}

Limbs mask_to(Limbs v, unsigned bits) {
  for (unsigned i = 0; i < v.size(); ++i) {
    const unsigned low = 32 * i;
    if (low >= bits) v[i] = 0;
    else if (bits - low < 32) v[i] &= (1u << (bits - low)) - 1;
  }
  return v;
}

// Whether the edge values include limb i of a group of `threads` threads of q limbs: the
// first and last limb of a thread (where carries cross), of every thread up to 32 of
// them, else of the first and last threads and some evenly between (fewer past 32768
// bits, where each value is 4 KB or more).
bool edge_limb(unsigned i, unsigned q, unsigned threads, unsigned bits) {
  if (q == 0) return true;  // the thread tier: every limb
  if (q > 2 && i % q != 0 && i % q != q - 1) return false;
  const unsigned t = i / q, ends = bits > 32768 ? 2 : 4, between = bits > 32768 ? 4 : 16;
  return threads <= 32 || t < ends || t + ends >= threads || t % (threads / between) == 0;
}

// 0, 1, 2, the largest value, single bits and all-ones runs at limb boundaries (every one
// in the thread tier; edge_limb's in the group tier), alternating bit patterns, and
// all-ones with one limb cleared.
std::vector<Limbs> edge_values(unsigned bits, unsigned limbs_per_thread = 0, unsigned threads = 1) {
  const unsigned n = (bits + 31) / 32;
  const Limbs zero(n, 0), ones = mask_to(Limbs(n, 0xffffffffu), bits);
  std::vector<Limbs> v = {zero, ones, mask_to(Limbs(n, 0xaaaaaaaau), bits),
                          mask_to(Limbs(n, 0x55555555u), bits)};
  for (uint32_t small : {1u, 2u}) {
    Limbs x = zero;
    x[0] = small;
    v.push_back(x);
  }
  for (unsigned i = 0; i < n; ++i) {
    if (!edge_limb(i, limbs_per_thread, threads, bits)) continue;
    Limbs bit = zero, below = zero, holed = ones;
    bit[i] = 1;  // 2^(32 i)
    for (unsigned k = 0; k < i; ++k) below[k] = 0xffffffffu;  // 2^(32 i) - 1
    holed[i] = 0;
    for (const Limbs& x : {bit, below, holed}) v.push_back(mask_to(x, bits));
  }
  Limbs top = zero;
  top[(bits - 1) / 32] = 1u << ((bits - 1) % 32);  // 2^(bits-1)
  v.push_back(top);
  return v;
}

// Edge values of an operand of the given width at an operation of `bits` bits: a carry
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

// Random values whose limbs are often 0 or all ones, so that carries run far.
Limbs random_value(std::mt19937_64& rng, unsigned bits) {
  Limbs x((bits + 31) / 32);
  const unsigned style = rng() % 4;
  for (auto& limb : x) {
    const uint32_t r = uint32_t(rng());
    limb = style == 0 ? r : (rng() % 3 == 0 ? r : (rng() % 2 ? 0xffffffffu : 0u));
  }
  return mask_to(x, bits);
}

std::string hex(const Limbs& x) { return "0x" + mpgen::to_hex(x); }

// Runs op on every set of operands on each device and layout, and checks each answer.
void check_against_gmp(const mpgen::OpInfo& op, const std::vector<std::vector<Limbs>>& cases,
                       bool cpu, bool gpu) {
  const Reference reference = reference_for(op.name);
  std::vector<Limbs> want(cases.size());
  std::vector<unsigned> want_flag(cases.size());
  for (std::size_t j = 0; j < cases.size(); ++j) {
    std::vector<Mpz> x(cases[j].size());
    std::vector<const Mpz*> xp;
    for (std::size_t k = 0; k < cases[j].size(); ++k) {
      mpgen::to_mpz(x[k].v, cases[j][k]);
      xp.push_back(&x[k]);
    }
    Mpz r;
    want_flag[j] = reference(r.v, xp, op.bits);
    want[j] = mpgen::from_mpz(r.v, 32 * op.result_limbs);
  }

  std::vector<std::pair<mpgen::Device, const char*>> devices;
  if (cpu) devices.push_back({mpgen::Device::cpu, "cpu"});
  if (gpu) devices.push_back({mpgen::Device::gpu, "gpu"});
  for (auto [device, device_name] : devices)
    for (auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous}) {
      mpgen::Batch batch(op, cases.size(), layout);
      for (std::size_t j = 0; j < cases.size(); ++j)
        for (unsigned k = 0; k < cases[j].size(); ++k) batch.set_operand(j, k, cases[j][k]);
      batch.run(device);
      std::size_t wrong = 0;
      for (std::size_t j = 0; j < cases.size(); ++j) {
        const bool ok = batch.result(j) == want[j] && (!op.has_flag || batch.flag(j) == want_flag[j]);
        if (!ok && ++wrong <= 3) {
          std::string operands;
          for (const auto& x : cases[j]) operands += " " + hex(x);
          FAIL_CHECK(op.name << " at " << op.bits << " bits on " << device_name << ", "
                             << (layout == mpgen::Layout::interleaved ? "interleaved" : "contiguous")
                             << ":" << operands << " gave " << hex(batch.result(j))
                             << (op.has_flag ? " flag " + std::to_string(batch.flag(j)) : "")
                             << ", GMP says " << hex(want[j])
                             << (op.has_flag ? " flag " + std::to_string(want_flag[j]) : ""));
        }
      }
      CHECK_MESSAGE(wrong == 0, op.name << " at " << op.bits << " bits on " << device_name << ": "
                                        << wrong << " of " << cases.size() << " wrong");
    }
}

bool gpu_for_tests() {
  std::string why;
  const bool present = mpgen::gpu_available(&why);
  static bool told = false;
  if (!told) {
    told = true;
    MESSAGE("GPU path: " << (present ? "checked" : "NOT checked: " + why));
  }
  if (std::getenv("MPGEN_REQUIRE_GPU")) REQUIRE_MESSAGE(present, "MPGEN_REQUIRE_GPU is set: " << why);
  return present;
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
  // Pairs of edge values of the first two operands; a third runs through its own.
  std::vector<std::vector<Limbs>> cases;
  const auto add_case = [&](const Limbs& a, const Limbs& b) {
    if (arity == 2) cases.push_back({a, b});
    else if (edges[2].size() <= 2)
      for (const auto& c : edges[2]) cases.push_back({a, b, c});
    else
      cases.push_back({a, b, edges[2][cases.size() % edges[2].size()]});
  };
  for (std::size_t i = 0; i < edges[0].size(); ++i) {
    const Limbs& a = edges[0][i];
    if (arity == 1) cases.push_back({a});
    else if (edges[0].size() <= all_pairs_up_to || edges[1].size() <= all_pairs_up_to)
      for (const auto& b : edges[1]) add_case(a, b);
    else
      for (std::size_t k = 0; k < partners; ++k) {
        add_case(a, edges[1][k]);
        if (i >= partners && i < edges[1].size()) add_case(edges[0][k], edges[1][i]);
      }
  }
  if (cases.size() > most_edge_cases) {  // every k-th, the first and last kept
    std::vector<std::vector<Limbs>> kept;
    const std::size_t k = (cases.size() + most_edge_cases - 1) / most_edge_cases;
    for (std::size_t i = 0; i < cases.size(); i += k) kept.push_back(cases[i]);
    kept.push_back(cases.back());
    cases = std::move(kept);
  }
  std::mt19937_64 rng(seed ^ (uint64_t(bits) << 32) ^ std::hash<std::string>{}(name));
  for (std::size_t i = 0; i < random_count; ++i) {
    std::vector<Limbs> operands;
    for (unsigned k = 0; k < arity; ++k) operands.push_back(random_value(rng, op.operand_bits[k]));
    cases.push_back(operands);
  }
  check_against_gmp(op, cases, cpu, gpu);
}

}  // namespace

TEST_CASE("every operation at every size agrees with GMP") {
  const bool gpu = gpu_for_tests();
  const uint64_t seed = test_seed();
  MESSAGE("random operands from seed " << seed << " (MPGEN_TEST_SEED changes it), "
                                       << random_cases() << " sets per operation and size");
  for (unsigned bits : mpgen::sizes())
    for (const std::string& name : mpgen::operations(bits))
      check_operation(mpgen::find(bits, name), true, gpu, seed, random_cases());
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
  for (unsigned bits : {3000u, 32768u, 262144u})
    for (const char* name : {"add", "sub", "neg", "eq", "lt", "cmp", "is_zero", "mul", "mul_lo", "sqr", "mad", "shl",
                             "shr", "shl33", "shr1000"}) {
      const bool product = std::string(name).rfind("mul", 0) == 0 || std::string(name) == "sqr" ||
                           std::string(name) == "mad";
      const std::size_t count = product && bits > 32768 ? 2
                                : bits > 32768         ? random_cases() / 10
                                : product && bits > 4096 ? random_cases() / 100
                                                         : random_cases();
      const std::size_t edges = product && bits > 32768 ? 12 : product && bits > 4096 ? 300 : SIZE_MAX;
      const mpgen::OpInfo& cpu_op = mpgen::compile_on_demand(bits, name, mpgen::Device::cpu);
      CHECK(cpu_op.tier == "group");
      check_operation(cpu_op, true, false, test_seed(), count, edges);
      if (gpu)
        check_operation(mpgen::compile_on_demand(bits, name, mpgen::Device::gpu), false, true, test_seed(), count,
                        edges);
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

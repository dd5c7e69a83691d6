// What the tests against GMP share: values as limbs, an mpz_t that frees itself, edge
// values and random operands, and the check of a batch's answers on each device and layout
// against GMP's.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mpgen/runtime.hpp"

namespace against_gmp {

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

inline uint64_t test_seed() {
  const char* s = std::getenv("MPGEN_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261122;
}

// Random cases an operation gets beside its edge cases (MPGEN_TEST_CASES sets it): 10,000
// where a GPU runs the tests, 1,000 on the CPU alone (CI's machines: the CPU runs the same
// instruction lists, whose every carry path the edge cases take; the sizes' counts below
// scale with it).
inline std::size_t random_cases() {
  const char* s = std::getenv("MPGEN_TEST_CASES");
  return s ? std::strtoull(s, nullptr, 0) : mpgen::gpu_available() ? 10000 : 1000;
}

inline Limbs mask_to(Limbs v, unsigned bits) {
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
inline bool edge_limb(unsigned i, unsigned q, unsigned threads, unsigned bits) {
  if (q == 0) return true;  // the thread tier: every limb
  if (q > 2 && i % q != 0 && i % q != q - 1) return false;
  const unsigned t = i / q, ends = bits > 32768 ? 2 : 4, between = bits > 32768 ? 4 : 16;
  return threads <= 32 || t < ends || t + ends >= threads || t % (threads / between) == 0;
}

// 0, 1, 2, the largest value, single bits and all-ones runs at limb boundaries (every one
// in the thread tier; edge_limb's in the group tier), alternating bit patterns, and
// all-ones with one limb cleared.
inline std::vector<Limbs> edge_values(unsigned bits, unsigned limbs_per_thread = 0, unsigned threads = 1) {
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
// Random values whose limbs are often 0 or all ones, so that carries run far.
inline Limbs random_value(std::mt19937_64& rng, unsigned bits) {
  Limbs x((bits + 31) / 32);
  const unsigned style = rng() % 4;
  for (auto& limb : x) {
    const uint32_t r = uint32_t(rng());
    limb = style == 0 ? r : (rng() % 3 == 0 ? r : (rng() % 2 ? 0xffffffffu : 0u));
  }
  return mask_to(x, bits);
}

inline std::string hex(const Limbs& x) { return "0x" + mpgen::to_hex(x); }

// Barrett's reciprocal of p != 0 at W = 32 limbs of `bits`: floor((2^(2W) - 1) / p') - 2^W,
// p' = p shifted up by its leading zeros (barrett_modmul's v), by GMP.
inline Limbs barrett_reciprocal(const Mpz& p, unsigned bits) {
  const unsigned width = 32 * ((bits + 31) / 32);
  Mpz normal, v;
  mpz_mul_2exp(normal.v, p.v, width - mpz_sizeinbase(p.v, 2));
  mpz_setbit(v.v, 2 * width);
  mpz_sub_ui(v.v, v.v, 1);
  mpz_fdiv_q(v.v, v.v, normal.v);
  mpz_clrbit(v.v, width);
  return mpgen::from_mpz(v.v, width);
}

// The cases the CPU runs in its second layout (contiguous): the first tenth, at least one
// and at most 1,000 (see check_against_gmp).
inline std::size_t cpu_second_layout_cases(std::size_t cases) {
  return std::min<std::size_t>(cases, std::clamp<std::size_t>(cases / 10, 1, 1000));
}

// Runs op on every set of operands on each device and layout, and checks each answer.
inline void check_against_gmp(const mpgen::OpInfo& op, const Reference& reference,
                              const std::vector<std::vector<Limbs>>& cases, bool cpu, bool gpu) {
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
  if (cpu) devices.push_back({mpgen::Device::cpu, op.host64 ? "cpu (64-bit list)" : "cpu"});
  if (cpu && op.host64) devices.push_back({mpgen::Device::cpu_32, "cpu (the GPU's 32-bit list)"});
  if (gpu) devices.push_back({mpgen::Device::gpu, "gpu"});
  for (auto [device, device_name] : devices)
    for (auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous}) {
      // On the CPU a layout is only where the batch's template reads and writes an instance's
      // words, the same for every operation: the second gets the first cases (edge values
      // first). On the GPU each layout is its own kernel: all of them.
      const std::size_t count = device != mpgen::Device::gpu && layout == mpgen::Layout::contiguous
                                    ? cpu_second_layout_cases(cases.size())
                                    : cases.size();
      mpgen::Batch batch(op, count, layout);
      for (std::size_t j = 0; j < count; ++j)
        for (unsigned k = 0; k < cases[j].size(); ++k) batch.set_operand(j, k, cases[j][k]);
      batch.run(device);
      std::size_t wrong = 0;
      for (std::size_t j = 0; j < count; ++j) {
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
                                        << wrong << " of " << count << " wrong");
    }
}

inline bool gpu_for_tests() {
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

// The default sizes that the runtime does not build in (it builds up to 521 bits; these
// compile at first use, on demand), which the tests check through that path.
inline const std::vector<unsigned> on_demand_sizes = {1024, 2048, 4096, 8192};

// RSA-3072's modulus size (no default size), one module of what its tests check there
// (arith.cpp's division, sqrt and gcd; moduli.cpp's modexp and montredc: modmul and modinv
// run at 3000, 4096 and 8192 bits in the group tier, on the CPU too, and cost this module's
// compile a third more).
inline const std::vector<std::string> rsa3072_ops = {"div_qr", "sqrt", "gcd", "modexp", "montredc"};

// Runs each(op, cpu, gpu) over every operation built in (on the CPU, and on the GPU where
// `gpu`), then over `on_demand_ops` at the on-demand sizes: compiled for the CPU, and apart
// for the GPU where `gpu` (a module of them all for each size and device).
template <class Check>
void for_each_operation(bool gpu, const std::vector<std::string>& on_demand_ops, Check each) {
  for (unsigned bits : mpgen::sizes())
    for (const std::string& name : mpgen::operations(bits)) each(mpgen::find(bits, name), true, gpu);
  for (unsigned bits : on_demand_sizes) {
    for (const mpgen::OpInfo* op : mpgen::compile_on_demand(bits, on_demand_ops, mpgen::Device::cpu))
      each(*op, true, false);
    if (gpu)
      for (const mpgen::OpInfo* op : mpgen::compile_on_demand(bits, on_demand_ops, mpgen::Device::gpu))
        each(*op, false, true);
  }
}

}  // namespace against_gmp

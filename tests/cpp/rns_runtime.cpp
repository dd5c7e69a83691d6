// The runtime's RNS integers (RnsBatch: the set's conversions and operations as batches on
// the device) against GMP's signed integers, on the CPU and, where present, the GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpgen/runtime.hpp"
#include "mpz.hpp"

namespace {

std::vector<mpgen::Device> devices() {
  std::vector<mpgen::Device> d{mpgen::Device::cpu};
  if (mpgen::gpu_available() || std::getenv("MPGEN_REQUIRE_GPU")) d.push_back(mpgen::Device::gpu);
  return d;
}

// GMP's answer for op on x, y: false where the result leaves (-M, M) (the overflow flag's case).
bool expected(const std::string& op, mpz_t r, const mpz_t x, const mpz_t y, const mpz_t m) {
  if (op == "add" || op == "add_branching") mpz_add(r, x, y);
  else if (op == "sub") mpz_sub(r, x, y);
  else if (op == "mul") mpz_mul(r, x, y);
  else if (op == "neg") mpz_neg(r, x);
  else if (op == "evaluate") mpz_set(r, x);
  else if (op == "sign") mpz_set_si(r, mpz_sgn(x));
  else if (op == "cmp") mpz_set_si(r, mpz_cmp(x, y) < 0 ? -1 : mpz_cmp(x, y) > 0);
  else FAIL("no reference for " << op);
  return mpz_cmpabs(r, m) < 0;
}

// Operand values: the three datasets of Isupov and Knyazkov, "Efficient GPU implementation
// of multiple-precision addition based on residue arithmetic", their products' halves, and
// the edges.
void operand(mpz_t v, std::size_t j, const mpz_t m, gmp_randstate_t rng) {
  Mpz half;
  mpz_sub_ui(half.v, m, 1);
  mpz_fdiv_q_2exp(half.v, half.v, 1);  // (M - 1) / 2
  switch (j % 8) {
    case 0: mpz_set_ui(v, j % 3), mpz_sub_ui(v, v, 1); break;  // -1, 0, 1
    case 1: mpz_sub_ui(v, m, 1 + j % 2); break;                // M - 1, M - 2
    case 2: mpz_set(v, half.v); break;                         // (M - 1) / 2
    case 3: mpz_sqrt(v, m), mpz_urandomm(half.v, rng, v), mpz_set(v, half.v); break;  // below sqrt(M): products fit
    default: mpz_urandomm(v, rng, m);
  }
  if (j / 8 % 2) mpz_neg(v, v);
}

}  // namespace

TEST_CASE("RNS integers through the runtime agree with GMP, overflow flags included") {
  const auto sets = mpgen::rns_sets();
  REQUIRE(sets == std::vector<std::string>{"rns8", "rns32"});
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 21);
  Mpz m, x, y, want, got;
  const std::size_t n = 400;
  for (const auto& set : sets) {
    mpgen::to_mpz(m.v, mpgen::find_rns(set, "from_binary").modulus);
    for (const std::string op : {"add", "add_branching", "sub", "mul", "neg", "evaluate", "sign", "cmp"}) {
      const mpgen::OpInfo& info = mpgen::find_rns(set, op);
      const unsigned operands = unsigned(info.operand_bits.size());
      for (const auto device : devices()) {
        mpgen::RnsBatch batch(info, n);
        std::vector<std::vector<Mpz>> values(n);
        for (std::size_t j = 0; j < n; ++j) {
          values[j] = std::vector<Mpz>(operands);
          for (unsigned k = 0; k < operands; ++k) {
            operand(values[j][k].v, j * 5 + k * 3 + (op == "mul") * 3, m.v, rng);
            batch.set_operand(j, k, values[j][k].v);
          }
        }
        batch.run(device);
        for (std::size_t j = 0; j < n; ++j) {
          const bool fits = expected(op, want.v, values[j][0].v, values[j][operands - 1].v, m.v);
          const bool on_gpu = device == mpgen::Device::gpu;
          CAPTURE(set);
          CAPTURE(op);
          CAPTURE(j);
          CAPTURE(on_gpu);
          if (info.has_flag) REQUIRE(batch.flag(j) == !fits);
          if (!fits) continue;  // the value is unspecified: the flag says so
          batch.result(j, got.v);
          REQUIRE(mpz_cmp(got.v, want.v) == 0);
        }
      }
    }
  }
  gmp_randclear(rng);
}

TEST_CASE("RNS operands out of range and unknown sets or operations are refused, naming what is allowed") {
  const mpgen::OpInfo& add = mpgen::find_rns("rns8", "add");
  mpgen::RnsBatch batch(add, 1);
  Mpz m;
  mpgen::to_mpz(m.v, mpgen::find_rns("rns8", "from_binary").modulus);
  CHECK_THROWS_WITH_AS(batch.set_operand(0, 1, m.v),
                       doctest::Contains("operand 2 of add: its magnitude is not below M of rns8 (0xffffff9"),
                       mpgen::InputError);
  mpz_neg(m.v, m.v);
  CHECK_THROWS_AS(batch.set_operand(0, 0, m.v), mpgen::InputError);
  mpz_add_ui(m.v, m.v, 1);  // -(M - 1): in range
  CHECK_NOTHROW(batch.set_operand(0, 0, m.v));
  CHECK_THROWS_WITH_AS(mpgen::find_rns("rns9", "add"), "RNS set 'rns9' is not built in; built sets: rns8, rns32",
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::find_rns("rns8", "div"),
                       doctest::Contains("unknown operation 'div' of RNS set rns8; known: add, add_branching"),
                       mpgen::InputError);
  CHECK_THROWS_AS(mpgen::RnsBatch(mpgen::find_rns("rns8", "to_binary"), 1), mpgen::InputError);
  // The conversion itself, through Batch: its magnitude must be below M too.
  const mpgen::OpInfo& from = mpgen::find_rns("rns8", "from_binary");
  mpgen::Batch conversion(from, 1);
  CHECK_THROWS_WITH_AS(conversion.set_operand(0, 0, from.modulus),
                       doctest::Contains("operand 1 of from_binary is not below M of the RNS set rns8"),
                       mpgen::InputError);
  // RNS sets are not sizes: rns32's precision, 1023 bits, is none of the runtime's sizes.
  const auto sizes = mpgen::sizes();
  CHECK(std::find(sizes.begin(), sizes.end(), 1023u) == sizes.end());
  CHECK(mpgen::find(255, "add").module == "u255");  // rns8's 255 bits: u255's, not the set's
}

// The fields built into the runtime (MPGEN_RUNTIME_FIELDS): lookup, the checked entry
// points, and the operations mpgen-run names against GMP, on the CPU and the GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>

#include "mpgen/runtime.hpp"

namespace {

using Reference = std::function<bool(mpz_t r, const mpz_t a, const mpz_t b, const mpz_t p)>;  // false: no result

std::vector<mpgen::Device> devices() {
  std::vector<mpgen::Device> d{mpgen::Device::cpu};
  if (mpgen::gpu_available() || std::getenv("MPGEN_REQUIRE_GPU")) d.push_back(mpgen::Device::gpu);
  return d;
}

// 500 random instances of op below p (and the exponent below 2^bits) against GMP; for
// modsqrt, `reference` checks the root it is given.
void check_field_op(const char* field, const char* op, const Reference& reference, bool root = false) {
  const mpgen::OpInfo& info = mpgen::find_field(field, op);
  mpz_t p, a, b, r, got;
  mpz_inits(p, a, b, r, got, nullptr);
  mpgen::to_mpz(p, info.modulus);
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 5);
  const std::size_t n = 500;
  for (const auto device : devices()) {
    mpgen::Batch batch(info, n);
    std::vector<std::vector<uint32_t>> operands(2 * n);
    for (std::size_t j = 0; j < n; ++j)
      for (unsigned k = 0; k < info.operand_bits.size(); ++k) {
        mpz_urandomm(a, rng, p);
        operands[2 * j + k] = mpgen::from_mpz(a, info.operand_bits[k]);
        batch.set_operand(j, k, operands[2 * j + k]);
      }
    batch.run(device);
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < n; ++j) {
      mpgen::to_mpz(a, operands[2 * j]);
      mpgen::to_mpz(b, operands[2 * j + (info.operand_bits.size() > 1)]);
      mpgen::to_mpz(got, batch.result(j));
      const bool none = info.has_flag && batch.flag(j) == 1;
      if (root)
        wrong += none ? mpz_sgn(got) != 0 || mpz_legendre(a, p) != -1 : !reference(got, a, b, p);
      else if (reference(r, a, b, p))
        wrong += none || mpz_cmp(got, r) != 0;
      else
        wrong += !none || mpz_sgn(got) != 0;
    }
    CHECK_MESSAGE(wrong == 0, op << " for " << field << (device == mpgen::Device::gpu ? " on the GPU" : " on the CPU")
                                 << ": " << wrong << " of " << n << " differ from GMP");
  }
  gmp_randclear(rng);
  mpz_clears(p, a, b, r, got, nullptr);
}

}  // namespace

TEST_CASE("the runtime's fields run mpgen-run's operations in ordinary form, as GMP does") {
  const auto built = mpgen::fields();
  for (const char* f : {"secp256k1", "p256", "p384", "curve25519", "bn254_fp", "bls12_381_fp"})
    CHECK_MESSAGE(std::find(built.begin(), built.end(), f) != built.end(), f << " is built in");
  for (const char* f : {"bn254_fp", "curve25519"}) {
    check_field_op(f, "modmul", [](mpz_t r, const mpz_t a, const mpz_t b, const mpz_t p) {
      mpz_mul(r, a, b);
      mpz_mod(r, r, p);
      return true;
    });
    check_field_op(f, "modexp", [](mpz_t r, const mpz_t a, const mpz_t e, const mpz_t p) {
      mpz_powm(r, a, e, p);
      return true;
    });
    check_field_op(f, "modinv", [](mpz_t r, const mpz_t a, const mpz_t, const mpz_t p) { return mpz_invert(r, a, p) != 0; });
    check_field_op(
        f, "modsqrt",
        [](mpz_t root, const mpz_t a, const mpz_t, const mpz_t p) {
          mpz_t s;
          mpz_init(s);
          mpz_mul(s, root, root);
          const bool ok = mpz_cmp(root, p) < 0 && mpz_congruent_p(s, a, p);
          mpz_clear(s);
          return ok;
        },
        true);
  }
}

TEST_CASE("the checked entry points refuse operands not below the modulus; the raw batch runs them") {
  const mpgen::OpInfo& modmul = mpgen::find_field("secp256k1", "modmul");
  const auto p = modmul.modulus;
  auto p_minus_1 = p;
  p_minus_1[0] -= 1;  // secp256k1's low word is not 0
  mpgen::Batch batch(modmul, 1);
  batch.set_operand(0, 0, p_minus_1);
  CHECK_THROWS_WITH_AS(batch.set_operand(0, 1, p), doctest::Contains("operand 2 of modmul is not below the modulus of secp256k1"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::check_operand(modmul, 0, std::vector<uint32_t>(8, ~0u)),
                       doctest::Contains("not below the modulus"), mpgen::InputError);
  // modexp's exponent may be any 256-bit number; montredc's low half too.
  mpgen::check_operand(mpgen::find_field("secp256k1", "modexp"), 1, std::vector<uint32_t>(8, ~0u));
  mpgen::check_operand(mpgen::find_field("secp256k1", "montredc"), 0, std::vector<uint32_t>(8, ~0u));
  CHECK_THROWS_AS(mpgen::check_operand(mpgen::find_field("secp256k1", "montredc"), 1, p), mpgen::InputError);

  // The raw batch: p and 2^256 - 1 go in unchecked; the result is unspecified but the
  // same on the CPU and the GPU.
  std::vector<uint32_t> in(p), cpu(8), gpu(8);
  in.insert(in.end(), 8, ~0u);
  mpgen::run_batch(modmul, mpgen::Device::cpu, mpgen::Layout::contiguous, 1, in.data(), cpu.data());
  if (mpgen::gpu_available()) {
    mpgen::run_batch(modmul, mpgen::Device::gpu, mpgen::Layout::contiguous, 1, in.data(), gpu.data());
    CHECK(cpu == gpu);
  }
}

TEST_CASE("unknown fields and field operations are refused with what is built") {
  CHECK_THROWS_WITH_AS(mpgen::find_field("p999", "modmul"), doctest::Contains("built fields: secp256k1"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::find_field("bn254_fp", "mul"), doctest::Contains("known: modadd"), mpgen::InputError);
  // An integer size's is_zero is not a field's, and the other way round.
  CHECK(mpgen::find(256, "is_zero").field.empty());
  CHECK(mpgen::find_field("p256", "is_zero").field == "p256");
}

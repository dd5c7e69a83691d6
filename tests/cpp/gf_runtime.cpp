// The runtime's generalized Fermat fields (GfBatch: the field's conversions and operations as
// batches on the device; gf_transform: the FFT of integers below p) against GMP, on the CPU
// and, where present, the GPU.
#include <doctest/doctest.h>

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

// gf8's r = 2^63 + 2^34 and p = r^8 + 1, by GMP.
struct Gf8 {
  Mpz r, p;
  Gf8() {
    mpz_ui_pow_ui(r.v, 2, 63);
    Mpz low;
    mpz_ui_pow_ui(low.v, 2, 34);
    mpz_add(r.v, r.v, low.v);
    mpz_pow_ui(p.v, r.v, 8);
    mpz_add_ui(p.v, p.v, 1);
  }
};

// Value j: 0, 1, p - 1, p - 2, r^i and r^i - 1, or random below p.
void value(mpz_t v, std::size_t j, const Gf8& f, gmp_randstate_t rng) {
  switch (j % 6) {
    case 0: mpz_set_ui(v, j % 12 == 0 ? 0 : 1); break;
    case 1: mpz_sub_ui(v, f.p.v, 1 + j % 2); break;
    case 2: mpz_pow_ui(v, f.r.v, j % 8), mpz_sub_ui(v, v, j % 4 == 0); break;
    default: mpz_urandomm(v, rng, f.p.v);
  }
}

}  // namespace

TEST_CASE("generalized Fermat fields through the runtime agree with GMP") {
  REQUIRE(mpgen::gf_fields() == std::vector<std::string>{"gf8"});
  const Gf8 f;
  Mpz p;
  mpgen::to_mpz(p.v, mpgen::find_gf("gf8", "from_binary").modulus);
  REQUIRE(mpz_cmp(p.v, f.p.v) == 0);
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 22);
  const std::size_t n = 300;
  Mpz want, got, t;
  for (const std::string op : {"add", "sub", "neg", "mul", "mul_r"}) {
    const mpgen::OpInfo& info = mpgen::find_gf("gf8", op);
    for (const auto device : devices()) {
      mpgen::GfBatch batch(info, n);
      std::vector<Mpz> x(n), y(n);
      for (std::size_t j = 0; j < n; ++j) {
        value(x[j].v, j, f, rng);
        value(y[j].v, j * 7 + 3, f, rng);
        if (op == "mul_r") mpz_set_ui(y[j].v, j % 16);
        batch.set_operand(j, 0, x[j].v);
        if (op != "neg") batch.set_operand(j, 1, y[j].v);
      }
      batch.run(device);
      for (std::size_t j = 0; j < n; ++j) {
        if (op == "add") mpz_add(want.v, x[j].v, y[j].v);
        if (op == "sub") mpz_sub(want.v, x[j].v, y[j].v);
        if (op == "neg") mpz_neg(want.v, x[j].v);
        if (op == "mul") mpz_mul(want.v, x[j].v, y[j].v);
        if (op == "mul_r") mpz_powm_ui(t.v, f.r.v, j % 16, f.p.v), mpz_mul(want.v, x[j].v, t.v);
        mpz_mod(want.v, want.v, f.p.v);
        batch.result(j, got.v);
        CAPTURE(op);
        CAPTURE(j);
        CAPTURE(device == mpgen::Device::gpu);
        REQUIRE(mpz_cmp(got.v, want.v) == 0);
      }
    }
  }
  mpgen::GfBatch batch(mpgen::find_gf("gf8", "mul_r"), 1);
  CHECK_THROWS_WITH_AS(batch.set_operand(0, 0, f.p.v), doctest::Contains("not an integer from 0 to p - 1 of gf8"),
                       mpgen::InputError);
  mpz_set_ui(t.v, 16);
  CHECK_THROWS_WITH_AS(batch.set_operand(0, 1, t.v), doctest::Contains("the shift must be from 0 to 15"),
                       mpgen::InputError);
  CHECK_THROWS_AS(mpgen::GfBatch(mpgen::find_gf("gf8", "to_binary"), 1), mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::find_gf("gf9", "add"), doctest::Contains("built fields: gf8"), mpgen::InputError);
  gmp_randclear(rng);
}

TEST_CASE("the runtime's FFT over gf8 is the DFT by GMP and inverts") {
  const Gf8 f;
  const unsigned words = 16;
  for (const std::size_t n : {std::size_t(16), std::size_t(256)}) {
    for (const auto device : devices()) {
      CAPTURE(n);
      CAPTURE(device == mpgen::Device::gpu);
      // Its root: the transform of (0, 1, 0, ...) is w^j; GMP checks w^(n/16) = r and w^(n/2) = -1.
      std::vector<uint32_t> delta(n * words, 0);
      delta[words] = 1;
      mpgen::gf_transform("gf8", device, n, 1, false, delta.data());
      Mpz w, t;
      mpz_import(w.v, words, -1, 4, 0, 0, &delta[words]);
      mpz_powm_ui(t.v, w.v, n / 16, f.p.v);
      REQUIRE(mpz_cmp(t.v, f.r.v) == 0);
      mpz_powm_ui(t.v, w.v, n / 2, f.p.v);
      mpz_add_ui(t.v, t.v, 1);
      REQUIRE(mpz_cmp(t.v, f.p.v) == 0);
      // Two transforms of points below p, against sum_i x_i w^(i j).
      gmp_randstate_t rng;
      gmp_randinit_default(rng);
      gmp_randseed_ui(rng, n);
      std::vector<Mpz> x(2 * n);
      std::vector<uint32_t> values(2 * n * words, 0);
      for (std::size_t i = 0; i < 2 * n; ++i) {
        if (i % 5 == 0) mpz_sub_ui(x[i].v, f.p.v, 1);
        else mpz_urandomm(x[i].v, rng, f.p.v);
        mpz_export(&values[i * words], nullptr, -1, 4, 0, 0, x[i].v);
      }
      const std::vector<uint32_t> points = values;
      mpgen::gf_transform("gf8", device, n, 2, false, values.data());
      Mpz sum, power, got;
      for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t j = 0; j < n; j += n / 16 + 1) {
          mpz_set_ui(sum.v, 0);
          for (std::size_t i = 0; i < n; ++i) {
            mpz_powm_ui(power.v, w.v, i * j % n, f.p.v);
            mpz_addmul(sum.v, x[s * n + i].v, power.v);
          }
          mpz_mod(sum.v, sum.v, f.p.v);
          mpz_import(got.v, words, -1, 4, 0, 0, &values[(s * n + j) * words]);
          CAPTURE(s);
          CAPTURE(j);
          REQUIRE(mpz_cmp(got.v, sum.v) == 0);
        }
      mpgen::gf_transform("gf8", device, n, 2, true, values.data());
      REQUIRE(values == points);
      gmp_randclear(rng);
    }
  }
  std::vector<uint32_t> one(32 * 16, 0);
  CHECK_THROWS_WITH_AS(mpgen::gf_transform("gf8", mpgen::Device::cpu, 32, 1, false, one.data()),
                       doctest::Contains("give K^e points (K = 16, e >= 1), at most 2^32"), mpgen::InputError);
  one[15] = 0xffffffffu;  // above p
  CHECK_THROWS_WITH_AS(mpgen::gf_transform("gf8", mpgen::Device::cpu, 16, 1, false, one.data()),
                       doctest::Contains("value 1 is not below p"), mpgen::InputError);
}

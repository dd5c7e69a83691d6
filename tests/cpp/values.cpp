// Conversions and the runtime's refusals of bad input.
#include <doctest/doctest.h>

#include "mpgen/runtime.hpp"

using mpgen::InputError;

TEST_CASE("hex round trips, with and without 0x, at the exact width") {
  CHECK(mpgen::parse_hex("0x1", 64) == std::vector<uint32_t>{1, 0});
  CHECK(mpgen::parse_hex("1ffffffff", 33) == std::vector<uint32_t>{0xffffffffu, 1});
  CHECK(mpgen::parse_hex("0007", 3) == std::vector<uint32_t>{7});
  CHECK(mpgen::to_hex({0xdeadbeefu, 0x1u, 0u}) == "1deadbeef");
  CHECK(mpgen::to_hex({0u, 0u}) == "0");
  CHECK(mpgen::to_hex(mpgen::parse_hex("ABCdef0123456789", 64)) == "abcdef0123456789");
}

TEST_CASE("bad hex and too-wide operands are refused") {
  CHECK_THROWS_WITH_AS(mpgen::parse_hex("12g4", 64), doctest::Contains("not a hex number"), InputError);
  CHECK_THROWS_AS(mpgen::parse_hex("", 64), InputError);
  CHECK_THROWS_AS(mpgen::parse_hex("0x", 64), InputError);
  CHECK_THROWS_WITH_AS(mpgen::parse_hex("8", 3), doctest::Contains("wider than 3 bits"), InputError);
  CHECK_THROWS_AS(mpgen::parse_hex("10000000000000000", 64), InputError);
}

TEST_CASE("GMP conversions keep the value and refuse what does not fit") {
  mpz_t v;
  mpz_init_set_str(v, "123456789abcdef0123456789", 16);
  CHECK(mpgen::to_hex(mpgen::from_mpz(v, 100)) == "123456789abcdef0123456789");
  CHECK_THROWS_AS(mpgen::from_mpz(v, 96), InputError);
  mpz_t w;
  mpz_init(w);
  mpgen::to_mpz(w, mpgen::from_mpz(v, 100));
  CHECK(mpz_cmp(v, w) == 0);
  mpz_clears(v, w, nullptr);
}

static mpgen::Batch batch_of(const char* op) { return mpgen::Batch(mpgen::find(mpgen::sizes().front(), op), 1); }

TEST_CASE("unknown sizes and operations are refused with what is available") {
  CHECK_THROWS_WITH_AS(mpgen::find(77, "add"), doctest::Contains("built sizes: "), InputError);
  CHECK_THROWS_WITH_AS(mpgen::find(mpgen::sizes().front(), "frobnicate"),
                       doctest::Contains("known: add"), InputError);
  CHECK_THROWS_WITH_AS(batch_of("add").set_operand(0, 2, {2}), doctest::Contains("wider than 1 bits"),
                       InputError);
  mpgen::Batch batch(mpgen::find(mpgen::sizes().front(), "add"), 1);
  CHECK_THROWS_AS(batch.set_operand(0, 0, std::vector<uint32_t>(99, 1)), InputError);
}

TEST_CASE("asking for the GPU where none can be used says so") {
  std::string why;
  if (mpgen::gpu_available(&why)) return;  // covered by the GPU run of the arithmetic test
  mpgen::Batch batch(mpgen::find(mpgen::sizes().front(), "add"), 1);
  CHECK_THROWS_WITH_AS(batch.run(mpgen::Device::gpu), doctest::Contains("no GPU can be used"), mpgen::GpuError);
  CHECK(!why.empty());
}

// The sizes' value types (mpgen::u<bits>::value) against GMP: every operator and
// conversion over edge values (0, 1, all ones) and random ones, shifts by every amount
// up to bits + 40.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <gmp.h>  // first: the value types then convert from and to mpz_t

#include "mpgen_u131.cuh"
#include "mpgen_u256.cuh"
#include "mpgen_u521.cuh"
#include "mpgen_u64.cuh"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

namespace {

template <class V>
void check_value() {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  mpz_t a, b, want, got, modulus;
  mpz_inits(a, b, want, got, modulus, nullptr);
  mpz_setbit(modulus, V::bits);  // 2^bits
  const auto agrees = [&](const auto& value, const char* what) {
    mpz_import(got, value.limbs, -1, sizeof(uint32_t), 0, 0, value.w);
    CHECK_MESSAGE(mpz_cmp(got, want) == 0, V::bits << " bits: " << what);
  };
  for (int i = 0; i < 2000; ++i) {
    mpz_urandomb(a, rng, V::bits);
    mpz_urandomb(b, rng, V::bits);
    if (i < 9) {  // edge pairs of 0, 1 and all ones
      mpz_set_si(a, i / 3 == 2 ? -1 : i / 3);
      mpz_set_si(b, i % 3 == 2 ? -1 : i % 3);
    }
    if (i % 7 == 0) mpz_set(b, a);
    const V x = V::from_mpz(a), y = V::from_mpz(b);  // -1: all ones, taken mod 2^bits
    mpz_mod(a, a, modulus);
    mpz_mod(b, b, modulus);
    uint32_t words[V::limbs];
    x.to_words(words);
    CHECK(V::from_words(words) == x);
    x.to_mpz(got);
    CHECK(mpz_cmp(got, a) == 0);
    char* text = mpz_get_str(nullptr, 16, a);
    CHECK(x.to_hex() == text);
    CHECK(V::from_hex(std::string("0x") + text) == x);
    free(text);
    mpz_add(want, a, b);
    mpz_mod(want, want, modulus);
    agrees(x + y, "+");
    mpz_sub(want, a, b);
    mpz_mod(want, want, modulus);
    agrees(x - y, "-");
    mpz_mul(want, a, b);
    agrees(x * y, "* (the full product)");
    mpz_and(want, a, b);
    agrees(x & y, "&");
    mpz_ior(want, a, b);
    agrees(x | y, "|");
    mpz_xor(want, a, b);
    agrees(x ^ y, "^");
    mpz_com(want, a);
    mpz_mod(want, want, modulus);
    agrees(~x, "~");
    const unsigned s = i % (V::bits + 40);
    mpz_mul_2exp(want, a, s);
    mpz_mod(want, want, modulus);
    agrees(x << s, "<<");
    mpz_fdiv_q_2exp(want, a, s);
    agrees(x >> s, ">>");
    const int order = mpz_cmp(a, b);
    CHECK((x == y) == (order == 0));
    CHECK((x != y) == (order != 0));
    CHECK((x < y) == (order < 0));
    CHECK((x > y) == (order > 0));
    CHECK((x <= y) == (order <= 0));
    CHECK((x >= y) == (order >= 0));
    CHECK(x.is_zero() == (mpz_sgn(a) == 0));
    V sum = x;
    sum += y;
    CHECK(sum == x + y);
  }
  char* too_wide = mpz_get_str(nullptr, 16, modulus);  // 2^bits
  CHECK_THROWS_AS(V::from_hex(too_wide), std::invalid_argument);
  free(too_wide);
  CHECK_THROWS_AS(V::from_hex("0x"), std::invalid_argument);
  mpz_clears(a, b, want, got, modulus, nullptr);
  gmp_randclear(rng);
}

}  // namespace

TEST_CASE("the sizes' value types agree with GMP") {
  check_value<mpgen::u64::value>();
  check_value<mpgen::u131::value>();
  check_value<mpgen::u256::value>();
  check_value<mpgen::u521::value>();
}

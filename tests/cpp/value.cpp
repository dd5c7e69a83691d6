// The sizes' value types (mpgen::u<bits>::value) against GMP: every operator and
// conversion over edge values (0, 1, all ones) and random ones, shifts by every amount
// up to bits + 40. And mpgen::host64_batch, the operations over records of 64-bit limbs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <gmp.h>  // first: the value types then convert from and to mpz_t

#include "mpgen_u131.cuh"
#include "mpgen_u256.cuh"
#include "mpgen_u521.cuh"
#include "mpgen_u64.cuh"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

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
  // a message names the first bad digit as written, any byte outside printable ASCII as \xNN
  // (a NUL would end what()), and shows at most 40 characters of the text
  CHECK_THROWS_WITH_AS(V::from_hex(std::string("1g2\0", 4)), "'1g2\\x00' is not a hex number (bad digit 'g')",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(V::from_hex(std::string("12\0", 3)), "'12\\x00' is not a hex number (bad digit '\\x00')",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(V::from_hex(std::string(50, '1') + "\xff"), doctest::Contains((std::string(40, '1') + "...' is").c_str()),
                       std::invalid_argument);
  mpz_clears(a, b, want, got, modulus, nullptr);
  gmp_randclear(rng);
}

// mpgen::host64_batch of Op over n records against GMP: operands random (every fifth all
// ones, to carry through every limb), want(r, operands) sets r to the result and returns
// the flag word.
template <class Op, class Want>
void check_host64_batch(std::size_t n, Want&& want) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  mpz_t operands[Op::operands], r, got;
  mpz_inits(r, got, nullptr);
  for (auto& v : operands) mpz_init(v);
  std::vector<uint64_t> x(n * Op::in_words64), y(n * Op::out_words64);
  const auto each_operand = [&](std::size_t j, auto&& f) {
    for (unsigned k = 0, limb = 0; k < Op::operands; limb += (Op::operand_limbs[k] + 1) / 2, ++k)
      f(operands[k], &x[j * Op::in_words64 + limb], (Op::operand_limbs[k] + 1) / 2, Op::operand_bits[k]);
  };
  for (std::size_t j = 0; j < n; ++j)
    each_operand(j, [&](mpz_t v, uint64_t* limbs, unsigned, unsigned bits) {
      mpz_urandomb(v, rng, bits);
      if (j % 5 == 0) mpz_set_ui(v, 0), mpz_setbit(v, bits), mpz_sub_ui(v, v, 1);
      mpz_export(limbs, nullptr, -1, sizeof(uint64_t), 0, 0, v);
    });
  mpgen::host64_batch<Op>(n, y.data(), x.data());
  constexpr unsigned result64 = (Op::result_limbs + 1) / 2;
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < n; ++j) {
    each_operand(j, [&](mpz_t v, uint64_t* limbs, unsigned count, unsigned) {
      mpz_import(v, count, -1, sizeof(uint64_t), 0, 0, limbs);
    });
    const unsigned flag = want(r, operands);
    const uint64_t* out = &y[j * Op::out_words64];
    mpz_import(got, result64, -1, sizeof(uint64_t), 0, 0, out);
    wrong += mpz_cmp(got, r) != 0 || (Op::flag_words && out[result64] != flag);
  }
  CHECK_MESSAGE(wrong == 0, Op::name << " at " << Op::bits << " bits, " << n << " records: " << wrong << " wrong");
  for (auto& v : operands) mpz_clear(v);
  mpz_clears(r, got, nullptr);
  gmp_randclear(rng);
}

// a + b + carry in: the sum's low bits, its carry out the flag.
template <unsigned Bits>
unsigned sum_with_carry(mpz_t r, const mpz_t* v) {
  mpz_add(r, v[0], v[1]);
  mpz_add(r, r, v[2]);
  const unsigned carry = mpz_tstbit(r, Bits);
  mpz_clrbit(r, Bits);
  return carry;
}

}  // namespace

TEST_CASE("host64_batch agrees with GMP, prefetching or not") {
  // 100 records stay under the prefetch's 1 MiB; 20,000 are past it (2.2 to 4.6 MB here).
  for (std::size_t n : {100, 20000}) {
    check_host64_batch<mpgen::u256::add>(n, sum_with_carry<256>);
    check_host64_batch<mpgen::u521::add>(n, sum_with_carry<521>);
    check_host64_batch<mpgen::u256::mul>(n, [](mpz_t r, const mpz_t* v) { return mpz_mul(r, v[0], v[1]), 0u; });
  }
}

TEST_CASE("the sizes' value types agree with GMP") {
  check_value<mpgen::u64::value>();
  check_value<mpgen::u131::value>();
  check_value<mpgen::u256::value>();
  check_value<mpgen::u521::value>();
}

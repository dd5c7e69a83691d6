// mpgen-bench's field rows: sppark's workloads (docs/performance.md), a = a * b in
// Montgomery form 256 times per thread over 2^22 threads and one product from memory; the
// same chain in ordinary form (modmul: pseudo-Mersenne folding where the modulus allows
// it), the squares, and the lazy product where 4p < R. On the CPU: montmul and modmul
// against GMP's a b mod p.
#include <gmp.h>

#include <functional>

#include "mpgen_bls12_381_fp.cuh"
#include "mpgen_bn254_fp.cuh"
#include "mpgen_curve25519.cuh"
#include "mpgen_p256.cuh"
#include "mpgen_p384.cuh"
#include "mpgen_pallas.cuh"
#include "mpgen_secp256k1.cuh"

#include "measures.cuh"

// Fields with the lazy product (4p < R), chained the same way.
#define MPGEN_BENCH_LAZY_FIELDS(X) X(bn254_fp, 60.1e9) X(bls12_381_fp, 27.3e9)

namespace bench {
namespace {

bool field_wanted(const Setting& s, const char* name) {  // all fields unless --bits or --fields say otherwise
  return s.fields.empty() ? s.bits.empty() : std::count(s.fields.begin(), s.fields.end(), name) > 0;
}

// The CPU backend, one thread: Op (a field's product) through its 64-bit list (wide) or the
// GPU's 32-bit one, over n pairs below p, against GMP's a b mod p on the same pairs: mpn_mul_n
// then mpn_tdiv_qr (the fraction), and mpz_mul then mpz_mod (the peer).
template <class Op>
Row product_on_cpu(const char* field, const uint32_t* modulus_words, std::size_t n, bool quick, bool wide) {
  constexpr unsigned words = Op::operand_limbs[0], limbs64 = (words + 1) / 2;
  static_assert(Op::operands == 2 && Op::in_words == 2 * words, "a product of two values below p");
  mpz_t p, v, q, r;
  mpz_inits(p, v, q, r, nullptr);
  mpz_import(p, words, -1, 4, 0, 0, modulus_words);
  const std::size_t gmp_limbs = mpz_size(p);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 20261126);
  std::vector<uint32_t> x(Op::in_words * n), y(Op::out_words * n);
  std::vector<uint64_t> x64(2 * limbs64 * n), y64(Op::out_words64 * n);
  std::vector<mp_limb_t> ab(2 * gmp_limbs * n, 0), product(2 * gmp_limbs), quotient(gmp_limbs + 1),
      remainder(gmp_limbs * n);
  for (std::size_t j = 0; j < 2 * n; ++j) {  // operand j % 2 of pair j / 2
    mpz_urandomm(v, state, p);
    mpz_export(&x[j * words], nullptr, -1, 4, 0, 0, v);  // (the words above v's stay 0)
    mpz_export(&x64[j * limbs64], nullptr, -1, 8, 0, 0, v);
    mpz_export(&ab[j * gmp_limbs], nullptr, -1, sizeof(mp_limb_t), 0, 0, v);
  }
  std::vector<__mpz_struct> a(2 * n);
  for (std::size_t j = 0; j < 2 * n; ++j) {
    mpz_init(&a[j]);
    mpz_import(&a[j], gmp_limbs, -1, sizeof(mp_limb_t), 0, 0, &ab[j * gmp_limbs]);
  }
  const mp_limb_t* modulus = mpz_limbs_read(p);
  const std::vector<double> seconds = host_seconds_in_turns(
      {[&] {
         if constexpr (mpgen::has_host64<Op>::value)
           if (wide) {
             for (std::size_t j = 0; j < n; ++j) Op::host64(&y64[j * Op::out_words64], &x64[j * 2 * limbs64]);
             return;
           }
         for (std::size_t j = 0; j < n; ++j) Op::host(&y[j * Op::out_words], &x[j * Op::in_words]);
       },
       [&] {
         for (std::size_t j = 0; j < n; ++j) {
           mpn_mul_n(product.data(), &ab[2 * j * gmp_limbs], &ab[(2 * j + 1) * gmp_limbs], gmp_limbs);
           mpn_tdiv_qr(quotient.data(), &remainder[j * gmp_limbs], 0, product.data(), 2 * gmp_limbs, modulus,
                       gmp_limbs);
         }
       },
       [&] {
         for (std::size_t j = 0; j < n; ++j) {
           mpz_mul(q, &a[2 * j], &a[2 * j + 1]);
           mpz_mod(r, q, p);
         }
       }},
      quick ? 1 : 7);
  const double ours = seconds[0], mpn = seconds[1], mpz = seconds[2];
  for (auto& z : a) mpz_clear(&z);
  mpz_clears(p, v, q, r, nullptr);
  gmp_randclear(state);
  return {std::string(Op::name) + ", " + field + (wide ? " (one thread, host64)" : " (one thread, 32-bit host)"), "cpu",
          Op::bits, n / ours, mpn / ours, "GMP mpn_mul_n + mpn_tdiv_qr", n / mpz, "GMP mpz_mul + mpz_mod"};
}

}  // namespace

void cpu_field_rows(const Setting& s, std::vector<Row>& rows) {
  const std::size_t n = s.quick ? 1000 : 100000;
#define CPU_FIELD_ROWS(f, sppark_chain)                                                  \
  if (field_wanted(s, #f))                                                               \
    for (bool wide : {true, false}) {                                                    \
      rows.push_back(product_on_cpu<mpgen::f::montmul>(#f, mpgen::f::modulus, n, s.quick, wide)); \
      rows.push_back(product_on_cpu<mpgen::f::modmul>(#f, mpgen::f::modulus, n, s.quick, wide));  \
    }
  MPGEN_BENCH_FIELDS(CPU_FIELD_ROWS)
}

void field_rows(const Setting& s, std::vector<Row>& rows) {
  const std::size_t n = s.quick ? 4096 : std::size_t(1) << 22;
#define FIELD_ROWS(f, sppark_chain)                                                                            \
  if (field_wanted(s, #f)) {                                                                                      \
    rows.push_back(                                                                                            \
        chained<mpgen::f::montmul, false>("montmul chain, " #f, s, n, 256, sppark_chain, sppark_chain ? "sppark" : "")); \
    rows.push_back(chained<mpgen::f::montsqr, true>("montsqr chain, " #f, s, n, 256));                         \
    rows.push_back(chained<mpgen::f::modmul, false>("modmul chain, " #f, s, n, 256));                          \
    rows.push_back(chained<mpgen::f::modsqr, true>("modsqr chain, " #f, s, n, 256));                           \
    rows.push_back(from_memory<mpgen::f::montmul>(s.ceilings, n, mpgen::Layout::interleaved, #f));             \
    rows.push_back(from_memory<mpgen::f::modmul>(s.ceilings, n, mpgen::Layout::interleaved, #f));              \
  }
  MPGEN_BENCH_FIELDS(FIELD_ROWS)
#define LAZY_ROWS(f, sppark_chain)    \
  if (field_wanted(s, #f))            \
    rows.push_back(chained<mpgen::f::montmul_lazy, false>("montmul_lazy chain, " #f, s, n, 256, sppark_chain, "sppark"));
  MPGEN_BENCH_LAZY_FIELDS(LAZY_ROWS)
}

}  // namespace bench

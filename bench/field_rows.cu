// mpgen-bench's field rows: sppark's workloads (../shared/ANCHORS.md), a = a * b in
// Montgomery form 256 times per thread over 2^22 threads and one product from memory; the
// same chain in ordinary form (modmul: pseudo-Mersenne folding where the modulus allows
// it), the squares, and the lazy product where 4p < R.
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

void field_rows(const Setting& s, std::vector<Row>& rows) {
  const std::size_t n = s.quick ? 4096 : std::size_t(1) << 22;
  const auto field_wanted = [&](const char* name) {  // all fields unless --bits or --fields say otherwise
    return s.fields.empty() ? s.bits.empty() : std::count(s.fields.begin(), s.fields.end(), name) > 0;
  };
#define FIELD_ROWS(f, sppark_chain)                                                                            \
  if (field_wanted(#f)) {                                                                                      \
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
  if (field_wanted(#f))               \
    rows.push_back(chained<mpgen::f::montmul_lazy, false>("montmul_lazy chain, " #f, s, n, 256, sppark_chain, "sppark"));
  MPGEN_BENCH_LAZY_FIELDS(LAZY_ROWS)
}

}  // namespace bench

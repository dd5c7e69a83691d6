// mpgen-bench's group tier rows (one integer per group of threads): add and sub from
// memory, the products (chained, CGBN's mul; from memory, the 1-Mul of Oancea and Watt, "GPU
// implementations for midsize integer addition and multiplication"), their 6-Add and Poly,
// and CGBN's workloads with the modulus at run time (bench/group_moduli.cu).
#include <gmp.h>

#include "mpgen_u131072.cuh"
#include "mpgen_u16384.cuh"
#include "mpgen_u2048_group.cuh"
#include "mpgen_u262144.cuh"
#include "mpgen_u32768.cuh"
#include "mpgen_u4096.cuh"
#include "mpgen_u65536.cuh"
#include "mpgen_u8192.cuh"

#include "group_moduli.cuh"
#include "measures.cuh"
#include "workloads.cuh"

// The group tier (module, bits), from memory with Oancea and Watt's batches: 2^32 bits per
// operand.
#define MPGEN_BENCH_GROUP(X) \
  X(u2048_group, 2048) X(u4096, 4096) X(u8192, 8192) X(u16384, 16384) X(u32768, 32768) X(u65536, 65536) \
  X(u131072, 131072) X(u262144, 262144)

namespace bench {
namespace {

// Oancea and Watt's 6-Add or Poly workload (bench/workloads.cuh) over n instances of `bits` from
// memory: instances per second, and its bytes (2 operands read, 1 written) against the copy
// bandwidth; the first instances checked against GMP (a wrong result ends the run).
Row workload_row(const Ceilings& c, const char* name, unsigned bits, std::size_t n, workloads::Launch launch,
                 bool poly) {
  const unsigned limbs = bits / 32;
  const auto host = random_words(2 * limbs * n, bits + poly);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, limbs * n * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const double s = gpu_seconds([&] { check(launch(n, in, out), name); });
  std::vector<uint32_t> got(limbs * std::min<std::size_t>(n, 4));
  cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  mpz_t a, b, r, t, want, result;
  mpz_inits(a, b, r, t, want, result, nullptr);
  for (std::size_t j = 0; j < got.size() / limbs; ++j) {
    mpz_import(a, limbs, -1, 4, 0, 0, &host[2 * limbs * j]);
    mpz_import(b, limbs, -1, 4, 0, 0, &host[2 * limbs * j + limbs]);
    if (poly) {  // (a^2 + b)(b^2 + b) + a b
      mpz_mul(r, a, a), mpz_add(r, r, b), mpz_mul(t, b, b), mpz_add(t, t, b), mpz_mul(r, r, t);
      mpz_addmul(r, a, b);
    } else {  // 6 a + 10 b
      mpz_mul_ui(r, a, 6), mpz_addmul_ui(r, b, 10);
    }
    mpz_fdiv_r_2exp(want, r, bits);
    mpz_import(result, limbs, -1, 4, 0, 0, &got[limbs * j]);
    if (mpz_cmp(want, result) != 0) {
      std::fprintf(stderr, "mpgen-bench: error: %s at %u bits: instance %zu differs from GMP\n", name, bits, j);
      std::exit(1);
    }
  }
  mpz_clears(a, b, r, t, want, result, nullptr);
  return {std::string(name) + " from memory, contiguous, group tier", "gpu", bits, n / s,
          3.0 * limbs * 4 * n / s / c.copy_bytes_per_s, "copy bandwidth", 0, ""};
}

}  // namespace

void group_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty()) return;
  const Ceilings& c = s.ceilings;
#define GROUP_ROWS(m, b)                                                                              \
  if (s.wanted(b)) {                                                                                  \
    const std::size_t group_n = s.quick ? 64 : (std::size_t(1) << 32) / b;                            \
    for (auto layout : {mpgen::Layout::contiguous, mpgen::Layout::interleaved}) {                     \
      rows.push_back(from_memory<mpgen::m::add>(c, group_n, layout, "group tier"));                   \
      rows.push_back(from_memory<mpgen::m::sub>(c, group_n, layout, "group tier"));                   \
    }                                                                                                 \
  }
  MPGEN_BENCH_GROUP(GROUP_ROWS)
  // The products, Oancea and Watt's 1-Mul workload (one product per instance from memory, 2^32
  // bits per operand; its Cu-Q computes the low half: mul_lo), the full product and the
  // square; and up to 32768 bits CGBN's mul workload (mul_lo chained).
#define GROUP_MUL_ROWS(m, b)                                                                                     \
  if (s.wanted(b)) {                                                                                             \
    const std::size_t group_n = s.quick ? 64 : (std::size_t(1) << 32) / b;                                       \
    if (b <= 32768)                                                                                              \
      rows.push_back(chained<mpgen::m::mul_lo, false>("mul_lo chain (CGBN mul), group tier", s, s.chain_n(),     \
                                                      100 * 8192 / b, cgbn_mul(b), "CGBN mul"));                 \
    rows.push_back(from_memory<mpgen::m::mul_lo>(c, group_n, mpgen::Layout::contiguous, "group tier"));          \
    rows.push_back(from_memory<mpgen::m::mul>(c, group_n, mpgen::Layout::contiguous, "group tier"));             \
    rows.push_back(from_memory<mpgen::m::sqr>(c, group_n, mpgen::Layout::contiguous, "group tier"));             \
  }
  MPGEN_BENCH_GROUP(GROUP_MUL_ROWS)
  // Oancea and Watt's 6-Add (add's own geometry) and Poly (on the products' threads: bench/poly.cu).
#define GROUP_WORKLOAD_ROWS(m, b)                                                                                \
  if (s.wanted(b)) {                                                                                             \
    const std::size_t group_n = s.quick ? 64 : (std::size_t(1) << 32) / b;                                       \
    rows.push_back(                                                                                              \
        workload_row(c, "6-Add", b, group_n, workloads::launch<mpgen::m::add, mpgen::m::add, false>, false));    \
    rows.push_back(workload_row(c, "Poly", b, group_n, workloads::poly(b), true));                               \
  }
  MPGEN_BENCH_GROUP(GROUP_WORKLOAD_ROWS)
  // CGBN's workloads with the modulus at run time: Montgomery's operations, division, gcd,
  // modinv and sqrt (bench/group_moduli.cu).
  for (unsigned b : {4096u, 8192u})
    if (s.wanted(b)) {
      const std::size_t n = s.quick ? 1024 : std::size_t(1) << (b == 4096 ? 15 : 13);
      rows.push_back({"montredc chain, modulus at run time (CGBN mont_reduce), group tier", "gpu", b,
                      group_moduli::redc_chain_rate(b, s.quick ? 1024 : 200000, 100 * 8192 / b), 0, "",
                      cgbn_mont_reduce(b), "CGBN mont_reduce"});
      rows.push_back({"modexp, 512-bit exponent, 5-bit windows, modulus at run time (CGBN powm_odd), group tier",
                      "gpu", b, group_moduli::powm_rate(b, n), 0, "", cgbn_powm(b), "CGBN powm_odd"});
      rows.push_back({"modexp from memory, full-width exponent, 4-bit windows, group tier", "gpu", b,
                      group_moduli::modexp_rate(b, s.quick ? 64 : std::size_t(1) << (b == 4096 ? 15 : 12)), 0, "", 0,
                      ""});
      rows.push_back({"div_qr_wide chain (CGBN div_qr), group tier", "gpu", b,
                      group_moduli::divide_chain_rate(b, n, 8), 0, "", 0, ""});
      rows.push_back({"gcd chain (CGBN gcd), group tier", "gpu", b, group_moduli::step_chain_rate("gcd", b, n, 2), 0,
                      "", 0, ""});
      rows.push_back({"modinv chain, modulus at run time (CGBN modinv), group tier", "gpu", b,
                      group_moduli::step_chain_rate("modinv", b, n, 2), 0, "", 0, ""});
      rows.push_back({"sqrt chain, of a value of the width, group tier", "gpu", b,
                      group_moduli::step_chain_rate("sqrt", b, n, 4), 0, "", 0, ""});
    }
}

}  // namespace bench

// mpgen-bench's exponentiation rows with the modulus fixed at generation time, one integer
// per thread: CGBN's powm_odd workload (5-bit windows from memory, the ladder, and the
// windows scanned from registers) and its mont_reduce workload (montredc chained); on the
// CPU, modexp against GMP's mpz_powm.
#include <gmp.h>


#include "mpgen_powm1024.cuh"
#include "mpgen_powm128.cuh"
#include "mpgen_powm2048.cuh"
#include "mpgen_powm256.cuh"
#include "mpgen_powm512.cuh"

#include "measures.cuh"

// Random odd moduli of the full size (CMakeLists.txt), for CGBN's powm_odd workload.
#define MPGEN_BENCH_POWM(X) X(128) X(256) X(512) X(1024) X(2048)
// modexp with the window table scanned by masks: the generated modexp's own choice up to 8
// limbs (3-bit windows); 512 shows the loss above.
#define MPGEN_BENCH_POWM_SCAN(X) X(128) X(256) X(512)

namespace bench {
namespace {

// CGBN's powm_odd workload: a^e mod p for a 512-bit e read in 5-bit fixed windows
// (mpgen::loops::window_power; also the ladder: window 0), one instance per thread; the
// modulus is fixed at generation time where CGBN's instances each bring their own.
template <class D, unsigned window, bool scan>
__global__ void powm(std::size_t n, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = D::limbs, W = powm_exponent_bits / 32;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t a[N], e[W], r[N];
  for (unsigned i = 0; i < N; ++i) a[i] = in[i * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);  // below p
  for (unsigned i = 0; i < W; ++i) e[i] = in[(N + i) * n + j];
  if (window == 0)
    mpgen::loops::ladder_power<D, powm_exponent_bits>(r, a, e);
  else
    mpgen::loops::window_power<D, powm_exponent_bits, window ? window : 1, scan>(r, a, e);
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = r[i];
}

// Exponentiations per second, and the fraction of the multiply-add ceiling that the
// products they run reach (each product charged with its list's multiply halves).
template <class D, class Mul, class Sqr, unsigned window, bool scan = false>
Row powm_row(const Ceilings& c, std::size_t n) {
  const auto host = random_words((D::limbs + powm_exponent_bits / 32) * n, 11);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, D::limbs * n * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const double s =
      gpu_seconds([&] { powm<D, window, scan><<<blocks_for<Mul>(n), Mul::block_threads>>>(n, in, out); }, 1);
  cudaFree(in);
  cudaFree(out);
  // Table: 2^(w-1) - 1 squares and as many products; then w squares and a product per
  // window after the first; the ladder: a product and a square per bit. All: into and out
  // of the domain.
  constexpr bool ladder = window == 0;
  constexpr unsigned windows = ladder ? 0 : (powm_exponent_bits + window - 1) / window, half = ladder ? 0 : 1u << (window - 1);
  const double squares = ladder ? powm_exponent_bits : half - 1 + window * (windows - 1.0);
  const double products = (ladder ? powm_exponent_bits : half - 1 + windows - 1.0) + 2;
  const double halves = squares * Sqr::multiplies + products * Mul::multiplies;
  const double rate = n / s;
  const bool cgbn = window == 5 && !scan;  // CGBN's workload
  return {ladder ? "modexp_ladder, 512-bit exponent"
                 : "modexp, 512-bit exponent, " + std::to_string(window) + "-bit windows" +
                       (scan ? ", table scanned" : "") + (cgbn ? " (CGBN powm_odd)" : ""),
          "gpu", Mul::bits, rate, rate * halves / c.multiply_halves_per_s, "multiply-add ceiling",
          cgbn ? cgbn_powm(Mul::bits) : 0, cgbn ? "CGBN powm_odd" : ""};
}

// The CPU backend, one thread: modexp (a^e mod p, e as wide as p) over n instances, as a CPU
// batch runs them (wide: host64_range, its lanes side by side; else host_range, the GPU's
// 32-bit lists), against mpz_powm on the same operands (a below p).
template <class Op>
Row powm_on_cpu(const uint32_t* modulus_words, std::size_t n, bool wide) {
  constexpr unsigned words = Op::operand_limbs[0];
  mpz_t p, r;
  mpz_inits(p, r, nullptr);
  mpz_import(p, words, -1, 4, 0, 0, modulus_words);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 20261126);
  std::vector<uint32_t> x(Op::in_words * n, 0), y(Op::out_words * n);
  std::vector<__mpz_struct> a(2 * n);  // a_j, e_j
  for (std::size_t j = 0; j < 2 * n; ++j) {
    mpz_init(&a[j]);
    if (j % 2) mpz_urandomb(&a[j], state, Op::bits);
    else mpz_urandomm(&a[j], state, p);
    mpz_export(&x[j * words], nullptr, -1, 4, 0, 0, &a[j]);
  }
  const auto layout = mpgen::Layout::contiguous;
  const std::vector<double> seconds = host_seconds_in_turns(
      {[&] {
         if constexpr (mpgen::has_host64<Op>::value)
           if (wide) return mpgen::host64_range<Op>(n, layout, x.data(), y.data(), 0, n);
         mpgen::host_range<Op>(n, layout, x.data(), y.data(), 0, n);
       },
       [&] {
         for (std::size_t j = 0; j < n; ++j) mpz_powm(r, &a[2 * j], &a[2 * j + 1], p);
       }},
      1);
  const double ours = seconds[0], gmp = seconds[1];
  for (auto& z : a) mpz_clear(&z);
  mpz_clears(p, r, nullptr);
  gmp_randclear(state);
  return {std::string("modexp, ") + std::to_string(Op::bits) + "-bit exponent" +
              (!wide ? " (one thread, 32-bit host)"
               : mpgen::lanes64_of<Op>::value == 1
                   ? " (one thread, host64)"
                   : " (one thread, host64, " + std::to_string(mpgen::lanes64_of<Op>::value) + " lanes)"),
          "cpu", Op::bits, n / ours, gmp / ours, "GMP mpz_powm", n / gmp, "GMP mpz_powm"};
}

}  // namespace

void cpu_powm_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty() && s.bits.empty()) return;
#define CPU_POWM_ROWS(b)                                                                                     \
  if (s.wanted(b)) {                                                                                         \
    const std::size_t n = s.quick ? 2 : b <= 256 ? 4000 : b <= 512 ? 1000 : 100;                            \
    if (mpgen::has_host64<mpgen::powm##b::modexp>::value)                                                    \
      rows.push_back(powm_on_cpu<mpgen::powm##b::modexp>(mpgen::powm##b::modulus, n, true));                \
    if (b <= 512) rows.push_back(powm_on_cpu<mpgen::powm##b::modexp>(mpgen::powm##b::modulus, n, false));   \
  }
  MPGEN_BENCH_POWM(CPU_POWM_ROWS)
}

void powm_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty()) return;
  const Ceilings& c = s.ceilings;
#define POWM_ROWS(b)                                                                                              \
  if (s.wanted(b)) {                                                                                              \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 5>(   \
        c, s.powm_n(b)));                                                                                           \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 0>(   \
        c, s.powm_n(b)));                                                                                           \
    rows.push_back(chained<mpgen::powm##b::montredc, false>("montredc chain (CGBN mont_reduce)", s, s.chain_n(), \
                                                            100 * 8192 / b, cgbn_mont_reduce(b),                  \
                                                            "CGBN mont_reduce"));                                 \
  }
  MPGEN_BENCH_POWM(POWM_ROWS)
#define POWM_SCAN_ROWS(b)                                                                                         \
  if (s.wanted(b))                                                                                                \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 3, true>( \
        c, s.quick ? 1024 : std::size_t(1) << (b <= 256 ? 20 : 18)));
  MPGEN_BENCH_POWM_SCAN(POWM_SCAN_ROWS)
}

}  // namespace bench

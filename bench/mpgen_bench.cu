// mpgen-bench: throughput of the generated code against the hardware ceilings measured
// in the same run (GPU) or against GMP's mpn functions (CPU), with the peers' published
// figures beside (../shared/ANCHORS.md). Prints a table; --csv writes the rows.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "chain.cuh"
#include "bench_util.cuh"
#include "group_moduli.cuh"
#include "powm_check.hpp"
#include "workloads.cuh"
#include "mpgen_u128.cuh"
#include "mpgen_u131.cuh"
#include "mpgen_u2048.cuh"
#include "mpgen_u255.cuh"
#include "mpgen_u256.cuh"
#include "mpgen_u381.cuh"
#include "mpgen_u512.cuh"
#include "mpgen_u521.cuh"
#include "mpgen_u64.cuh"
#include "mpgen_u1024.cuh"

#include "mpgen_u131072.cuh"
#include "mpgen_u16384.cuh"
#include "mpgen_u2048_group.cuh"
#include "mpgen_u262144.cuh"
#include "mpgen_u32768.cuh"
#include "mpgen_u4096.cuh"
#include "mpgen_u65536.cuh"
#include "mpgen_u8192.cuh"

#include "mpgen_powm1024.cuh"
#include "mpgen_powm128.cuh"
#include "mpgen_powm2048.cuh"
#include "mpgen_powm256.cuh"
#include "mpgen_powm512.cuh"

#include "mpgen_bls12_381_fp.cuh"
#include "mpgen_bn254_fp.cuh"
#include "mpgen_curve25519.cuh"
#include "mpgen_p256.cuh"
#include "mpgen_p384.cuh"
#include "mpgen_pallas.cuh"
#include "mpgen_secp256k1.cuh"

// Fields, with sppark's chained Montgomery product on the H100 (../shared/ANCHORS.md).
#define MPGEN_BENCH_FIELDS(X) \
  X(bn254_fp, 60.1e9) X(bls12_381_fp, 27.3e9) X(secp256k1, 0) X(p256, 0) X(p384, 0) X(curve25519, 0) X(pallas, 0)
// Fields with the lazy product (4p < R), chained the same way.
#define MPGEN_BENCH_LAZY_FIELDS(X) X(bn254_fp, 60.1e9) X(bls12_381_fp, 27.3e9)
// Random odd moduli of the full size (CMakeLists.txt), for CGBN's powm_odd workload.
#define MPGEN_BENCH_POWM(X) X(128) X(256) X(512) X(1024) X(2048)
// modexp with the window table scanned by masks (kept up to 8 limbs; 512 shows the loss above).
#define MPGEN_BENCH_POWM_SCAN(X) X(128) X(256) X(512)
#define MPGEN_BENCH_SIZES(X) X(64) X(128) X(131) X(255) X(256) X(381) X(512) X(521) X(1024) X(2048)
// The group tier (module, bits), from memory with seed 003's batches: 2^32 bits per operand.
#define MPGEN_BENCH_GROUP(X) \
  X(u2048_group, 2048) X(u4096, 4096) X(u8192, 8192) X(u16384, 16384) X(u32768, 32768) X(u65536, 65536) \
  X(u131072, 131072) X(u262144, 262144)

namespace {

using bench::blocks_for, bench::check, bench::gpu_seconds, bench::random_words, bench::timed_on_device;

struct Row {
  std::string workload, device;
  unsigned bits;
  double rate;           // operations per second
  double ceiling;        // fraction of the relevant ceiling (GPU) or rate / GMP's (CPU); 0 if none
  std::string against;   // what `ceiling` is a fraction of
  double peer;           // a peer's figure for the same workload, 0 if none
  std::string peer_name;
};

// CGBN's mul on the H100, operations per second (../shared/ANCHORS.md, 2026-11-22).
double cgbn_mul(unsigned bits) {
  switch (bits) {
    case 128: return 32.4e9;
    case 256: return 29.3e9;
    case 512: return 13.9e9;
    case 1024: return 4.00e9;
    case 2048: return 1.40e9;
    case 4096: return 355e6;
    case 8192: return 99.1e6;
    default: return 0;
  }
}

// CGBN's powm_odd on the H100 (512-bit exponent, its own modulus per instance), per second.
double cgbn_powm(unsigned bits) {
  switch (bits) {
    case 128: return 28.8e6;
    case 256: return 24.3e6;
    case 512: return 13.4e6;
    case 1024: return 4.10e6;
    case 2048: return 1.28e6;
    case 4096: return 325.5e3;  // 2026-11-25's run (bench/NOTES.md), TPI 16 and 32
    case 8192: return 82.69e3;
    default: return 0;
  }
}

// CGBN's mont_reduce on the H100 (a double-width value, its low half replaced by the result
// each time), per second.
double cgbn_mont_reduce(unsigned bits) {
  switch (bits) {
    case 128: return 19.5e9;
    case 256: return 18.8e9;
    case 512: return 11.7e9;
    case 1024: return 3.77e9;
    case 2048: return 1.35e9;
    case 4096: return 347.2e6;
    case 8192: return 90.20e6;
    default: return 0;
  }
}

// Independent mad.lo.cc/madc.hi pairs, the multiply-add ceiling: 16 64-bit accumulators
// per thread, each pair adding a*b into one in place. The accumulator is one 64-bit
// operand, so that it stays in an aligned register pair and the pair is one IMAD.WIDE
// (two 32-bit operands measured 8.0 T halves/s on the H100: ptxas moved them into a
// pair and back around every IMAD.WIDE).
__global__ void multiply_add_pairs(uint32_t* out, unsigned iterations) {
  constexpr int chains = 16;
  uint64_t acc[chains];
  uint32_t a[chains];
  const uint32_t b = blockIdx.x | 1u;
#pragma unroll
  for (int k = 0; k < chains; ++k) {
    a[k] = threadIdx.x * 2654435761u + k;
    acc[k] = a[k] ^ b;
  }
#pragma unroll 1
  for (unsigned i = 0; i < iterations; ++i)
#pragma unroll
    for (int k = 0; k < chains; ++k)
      asm volatile(
          "{\n\t.reg .u32 lo, hi;\n\tmov.b64 {lo, hi}, %0;\n\t"
          "mad.lo.cc.u32 lo, %1, %2, lo;\n\tmadc.hi.u32 hi, %1, %2, hi;\n\tmov.b64 %0, {lo, hi};\n\t}"
          : "+l"(acc[k]) : "r"(a[k]), "r"(b));
  uint64_t sum = 0;
#pragma unroll
  for (int k = 0; k < chains; ++k) sum += acc[k];
  if (sum == 0x12345678u) out[0] = uint32_t(sum);  // keeps the work alive
}

struct Ceilings {
  double copy_bytes_per_s, multiply_halves_per_s;
};

Ceilings measure_ceilings() {
  Ceilings c{};
  const std::size_t bytes = std::size_t(1) << 30;
  void *a, *b;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  cudaMemset(a, 1, bytes);
  c.copy_bytes_per_s = 2.0 * bytes / gpu_seconds([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); }, 5);
  cudaFree(a);
  cudaFree(b);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const unsigned blocks = sms * 8, threads = 256, iterations = 4096;
  uint32_t* out;
  cudaMalloc(&out, 4);
  const double s = gpu_seconds([&] { multiply_add_pairs<<<blocks, threads>>>(out, iterations); });
  c.multiply_halves_per_s = double(blocks) * threads * iterations * 16 * 2 / s;
  cudaFree(out);
  return c;
}

// This binary's SASS, from cuobjdump (CUDA toolkit) when it is on PATH; empty otherwise.
std::string own_sass() {
  std::string text;
  char exe[4096];
  const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);  // the shell's would differ
  if (length <= 0) return text;
  exe[length] = 0;
  if (FILE* p = popen(("cuobjdump -sass '" + std::string(exe) + "' 2>/dev/null").c_str(), "r")) {
    char buf[1 << 16];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, got);
    pclose(p);
  }
  return text;
}

// The 32-bit multiply halves one pass of `kernel`'s loop issues, read from the SASS
// between the loop's backward branch and its target: an IMAD.WIDE is two halves, any
// other IMAD one, except the moves, shifts and adds ptxas also puts on IMAD. These are
// what the multiply-add ceiling is charged with; the instruction list's own count is
// higher where ptxas drops unused results (CGBN's workload keeps only the low half).
// 0 when the SASS or the loop cannot be found.
unsigned loop_multiply_halves(const std::string& sass, const void* kernel) {
  const char* name = nullptr;
  if (sass.empty() || cudaFuncGetName(&name, kernel) != cudaSuccess) return 0;
  const std::size_t begin = sass.find("Function : " + std::string(name) + "\n");
  if (begin == std::string::npos) return 0;
  const std::size_t end = std::min(sass.size(), sass.find("Function : ", begin + 1));
  static const std::regex line(R"(/\*([0-9a-f]+)\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);)");
  std::vector<std::pair<unsigned long, std::string>> code;  // address, opcode
  unsigned long loop_begin = 0, loop_end = 0;
  std::istringstream in(sass.substr(begin, end - begin));
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (!std::regex_search(text, m, line)) continue;
    const unsigned long at = std::stoul(m[1], nullptr, 16);
    code.emplace_back(at, m[2]);
    if (m[2] == "BRA") {
      const unsigned long target = std::stoul(m[3], nullptr, 16);
      if (target < at) loop_begin = target, loop_end = at;
    }
  }
  unsigned halves = 0;
  for (const auto& [at, op] : code) {
    if (at < loop_begin || at > loop_end || op.rfind("IMAD", 0) != 0) continue;
    if (op.find(".WIDE") != std::string::npos) halves += 2;
    else if (op.find(".MOV") == std::string::npos && op.find(".SHL") == std::string::npos &&
             op.find(".IADD") == std::string::npos) halves += 1;
  }
  return loop_end ? halves : 0;
}

// A chained product (bench/chain.cuh: r = r * x0, or r = r * r), `iterations` times per
// thread over n threads: products per second, and the fraction of the multiply-add
// ceiling that the multiplies it issues reach. `peer` is a peer's figure for it.
template <class Op, bool square>
Row chained(const std::string& workload, const Ceilings& c, const std::string& sass, std::size_t n,
            unsigned iterations, double peer = 0, const char* peer_name = "") {
  const auto host = random_words(Op::operand_limbs[0] * n, Op::bits);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, host.size() * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const unsigned shared = Op::shared_bytes;  // a group product's tables
  if (shared) check(cudaFuncSetAttribute(chain<Op, square>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
                    "asking for shared memory");
  const double s = gpu_seconds([&] {
    chain<Op, square><<<blocks_for<Op>(n), Op::block_threads, shared>>>(n, iterations, in, out);
    check(cudaGetLastError(), "launch");
  });
  cudaFree(in);
  cudaFree(out);
  const double rate = double(n) * iterations / s;
  // The group tier's loop holds the rows' loop: its halves are not the SASS loop's.
  const bool group = Op::threads_per_instance > 1;
  const unsigned halves = group ? 0 : loop_multiply_halves(sass, reinterpret_cast<const void*>(chain<Op, square>));
  const std::string against = halves         ? "multiply-add ceiling, " + std::to_string(halves) + " halves"
                              : group        ? "multiply-add ceiling (not counted in the group tier)"
                              : sass.empty() ? "multiply-add ceiling (no cuobjdump on PATH)"
                                             : "multiply-add ceiling (no loop in the SASS)";
  return {workload, "gpu", Op::bits, rate, rate * halves / c.multiply_halves_per_s, against, peer, peer_name};
}

// One operation over n instances from memory: bytes moved per second against the copy ceiling.
template <class Op>
Row from_memory(const Ceilings& c, std::size_t n, mpgen::Layout layout, const char* field = nullptr) {
  const auto host = random_words(Op::in_words * n, 7);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, Op::out_words * n * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const double s =
      gpu_seconds([&] { check(mpgen::launch_batch<Op>(n, layout, in, out), "launch"); });
  cudaFree(in);
  cudaFree(out);
  const double bytes = double(Op::in_words + Op::out_words) * 4 * n;
  const std::string name = std::string(Op::name) + " from memory, " +
                           (layout == mpgen::Layout::interleaved ? "interleaved" : "contiguous") +
                           (field ? std::string(", ") + field : "");
  return {name, "gpu", Op::bits, n / s, bytes / s / c.copy_bytes_per_s, "copy bandwidth", 0, ""};
}

// Seed 003's 6-Add or Poly workload (bench/workloads.cuh) over n instances of `bits` from
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

// CGBN's powm_odd workload: a^e mod p for a 512-bit e read in 5-bit fixed windows
// (mpgen::loops::window_power; also 4-bit windows, and the ladder: window 0), one instance
// per thread; the modulus is fixed at generation time where CGBN's instances each bring
// their own.
constexpr unsigned powm_exponent_bits = 512;

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

// The same workload with the modulus given at run time, as CGBN's: each instance its own
// random odd p of the full size, its constants computed first (runtime_montgomery's
// set_modulus: mont_minus_inverse, then mont_radix_squared's two divisions), then the same
// windows in its Montgomery form (the integer module's montmul and montsqr).
template <class MontMul, class MontSqr, class MinusInverse, class Normalize, class Step, class Finish, unsigned window>
__global__ void powm_runtime(std::size_t n, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = MontMul::result_limbs, W = powm_exponent_bits / 32;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t a[N], e[W], p[N], r[N];
  for (unsigned i = 0; i < N; ++i) a[i] = in[i * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);  // below p
  for (unsigned i = 0; i < W; ++i) e[i] = in[(N + i) * n + j];
  for (unsigned i = 0; i < N; ++i) p[i] = in[(N + W + i) * n + j] | (i == 0 ? 1u : 0u) | (i == N - 1 ? 0x80000000u : 0u);
  mpgen::loops::runtime_montgomery<MontMul, MontSqr, N, window, false> d;
  d.template set_modulus<MinusInverse, Normalize, Step, Finish>(p);
  mpgen::loops::window_power<decltype(d), powm_exponent_bits, window, false>(d, r, a, e);
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = r[i];
}

template <class MontMul, class MontSqr, class MinusInverse, class Normalize, class Step, class Finish>
Row powm_runtime_row(const Ceilings& c, std::size_t n) {
  constexpr unsigned N = MontMul::result_limbs, window = 5;
  const auto host = random_words((2 * N + powm_exponent_bits / 32) * n, 13);
  std::vector<uint32_t> got;
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    powm_runtime<MontMul, MontSqr, MinusInverse, Normalize, Step, Finish, window>
        <<<blocks_for<MontMul>(n), MontMul::block_threads>>>(n, in, out);
  }, 1, &got);
  check_powm(host, got, n, N, powm_exponent_bits / 32, MontMul::bits, "modexp (modulus at run time)");
  constexpr unsigned windows = (powm_exponent_bits + window - 1) / window, half = 1u << (window - 1);
  const double squares = half - 1 + window * (windows - 1.0), products = half - 1 + windows - 1.0 + 3;
  const double halves = squares * MontSqr::multiplies + products * MontMul::multiplies;  // the setup's not counted
  const double rate = n / s;
  return {"modexp, 512-bit exponent, 5-bit windows, modulus at run time (CGBN powm_odd)", "gpu", MontMul::bits, rate,
          rate * halves / c.multiply_halves_per_s, "multiply-add ceiling (products only)", cgbn_powm(MontMul::bits),
          "CGBN powm_odd"};
}

// CGBN's mont_reduce workload with the modulus at run time: r = (x0 R + r) R^-1 mod p,
// `iterations` times per thread, each thread its own random odd p of the full size (its
// -p^-1 mod 2^32 from mont_minus_inverse), x0 below p.
template <class Redc, class MinusInverse>
__global__ void runtime_redc_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Redc::result_limbs;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[3 * N + 1], y[N], word[2];
  for (unsigned i = 0; i < N; ++i) {
    x[i] = in[i * n + j];
    x[N + i] = in[(N + i) * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);
    x[2 * N + i] = in[(2 * N + i) * n + j] | (i == 0 ? 1u : 0u) | (i == N - 1 ? 0x80000000u : 0u);
  }
  MinusInverse::device(word, x + 2 * N);
  x[3 * N] = word[0];
  for (unsigned k = 0; k < iterations; ++k) {
    Redc::device(y, x);
    for (unsigned i = 0; i < N; ++i) x[i] = y[i];
  }
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = x[i];
}

template <class Redc, class MinusInverse>
Row runtime_redc_row(std::size_t n, unsigned iterations) {
  constexpr unsigned N = Redc::result_limbs;
  const auto host = random_words(3 * N * n, 23);
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    runtime_redc_chain<Redc, MinusInverse><<<blocks_for<Redc>(n), Redc::block_threads>>>(n, iterations, in, out);
  }, 3);
  return {"montredc chain, modulus at run time (CGBN mont_reduce)", "gpu", Redc::bits, double(n) * iterations / s,
          0, "", cgbn_mont_reduce(Redc::bits), "CGBN mont_reduce"};
}

// CGBN's div_qr workload: (q, r) = (r 2^(32 N) + q) / b, `iterations` times per thread,
// from q = a and r = b / 2 (below b, so every quotient fits).
template <class Div>
__global__ void divide_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Div::operand_limbs[1];
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[3 * N], y[2 * N + 1];
  for (unsigned i = 0; i < N; ++i) {
    x[i] = in[i * n + j];
    x[2 * N + i] = in[(N + i) * n + j] | (i == N - 1 ? 0x80000000u : 0u);
  }
  for (unsigned i = 0; i < N; ++i) x[N + i] = (x[2 * N + i] >> 1) | (i + 1 < N ? x[2 * N + i + 1] << 31 : 0u);
  for (unsigned k = 0; k < iterations; ++k) {
    Div::device(y, x);
    for (unsigned i = 0; i < 2 * N; ++i) x[i] = y[i];
  }
  for (unsigned i = 0; i < N; ++i) out[i * n + j] = x[N + i];
}

template <class Div>
Row divide_row(const Ceilings& c, std::size_t n, unsigned iterations) {
  constexpr unsigned N = Div::operand_limbs[1];
  const auto host = random_words(2 * N * n, 17);
  const double s = timed_on_device(host, N * n, [&](const uint32_t* in, uint32_t* out) {
    divide_chain<Div><<<blocks_for<Div>(n), Div::block_threads>>>(n, iterations, in, out);
  }, 1);
  return {"div_qr_wide chain (CGBN div_qr)", "gpu", Div::bits, double(n) * iterations / s, 0, "", 0, ""};
}

// CGBN's gcd and modinv workloads: r = Op(a, b), then a + 1 and b + 1, `iterations` times per
// thread (modinv's modulus b forced odd, as ours needs); and its sqrt workload, here on a
// value of the width: r = sqrt(a), then a's low half replaced by r.
template <class Op, bool odd_second>
__global__ void pair_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned N = Op::result_limbs, K = Op::operands;
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[K * N], y[Op::out_words], acc = 0;
  for (unsigned i = 0; i < K * N; ++i) x[i] = in[i * n + j];
  if (odd_second) x[N] |= 1;
  if (K == 2 && odd_second) x[N - 1] &= 0x7fffffffu, x[2 * N - 1] |= 0x80000000u;  // a below p
  for (unsigned k = 0; k < iterations; ++k) {
    Op::device(y, x);
    acc += y[0];
    if (K == 1) {
      for (unsigned i = 0; i < N / 2; ++i) x[i] = y[i];
    } else {
      x[0] += 1;
      x[N] += odd_second ? 2 : 1;
    }
  }
  out[j] = acc;
}

template <class Op, bool odd_second>
Row pair_row(const char* workload, std::size_t n, unsigned iterations) {
  const auto host = random_words(Op::in_words * n, 19);
  const double s = timed_on_device(host, n, [&](const uint32_t* in, uint32_t* out) {
    pair_chain<Op, odd_second><<<blocks_for<Op>(n), Op::block_threads>>>(n, iterations, in, out);
  }, 1);
  return {workload, "gpu", Op::bits, double(n) * iterations / s, 0, "", 0, ""};
}

// The CPU backend, one thread: Op::host over a batch against GMP's mpn function.
template <class Op>
Row on_cpu(std::size_t n, bool quick) {
  const unsigned limbs = Op::operand_limbs[0], gmp_limbs = (limbs + 1) / 2;
  auto x = random_words(Op::in_words * n, 3);
  std::vector<uint32_t> y(Op::out_words * n);
  std::vector<mp_limb_t> a(gmp_limbs * n), b(gmp_limbs * n), r(2 * gmp_limbs * n);
  for (auto* v : {&a, &b})
    for (auto& w : *v) w = (mp_limb_t(random_words(2, unsigned(w))[0]) << 32) | 0x9e3779b9u;
  const bool is_mul = std::string(Op::name) == "mul";
  const int rounds = quick ? 1 : 20;
  const auto time = [&](const std::function<void()>& f) {
    f();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < rounds; ++k) f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / rounds;
  };
  const double ours = time([&] {
    for (std::size_t j = 0; j < n; ++j) Op::host(&y[j * Op::out_words], &x[j * Op::in_words]);
  });
  const double gmp = time([&] {
    for (std::size_t j = 0; j < n; ++j)
      if (is_mul) mpn_mul_n(&r[2 * gmp_limbs * j], &a[gmp_limbs * j], &b[gmp_limbs * j], gmp_limbs);
      else mpn_add_n(&r[gmp_limbs * j], &a[gmp_limbs * j], &b[gmp_limbs * j], gmp_limbs);
  });
  return {std::string(Op::name) + " (one thread)", "cpu", Op::bits, n / ours, gmp / ours,
          is_mul ? "GMP mpn_mul_n" : "GMP mpn_add_n", n / gmp, is_mul ? "GMP mpn_mul_n" : "GMP mpn_add_n"};
}

bool wanted(const std::vector<unsigned>& bits, unsigned b) {
  return bits.empty() || std::find(bits.begin(), bits.end(), b) != bits.end();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Benchmarks mpgen's generated code: chained products (CGBN's mul), one operation "
               "from memory, and the CPU backend against GMP, each with its ceiling measured in "
               "the same run.", "mpgen-bench"};
  app.footer("examples:\n  mpgen-bench --device gpu --csv bench.csv\n  mpgen-bench --device cpu --bits 128,256 --quick");
  std::string device = "gpu", csv;
  std::vector<unsigned> bits;
  bool quick = false;
  app.add_option("--device", device, "gpu or cpu")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--bits", bits, "sizes (default: all built in: 64 128 131 255 256 381 512 521 1024 2048; "
                 "the group tier's 4096 8192 16384 32768 65536 131072 262144)")
      ->delimiter(',')->check(CLI::IsMember({64, 128, 131, 255, 256, 381, 512, 521, 1024, 2048, 4096, 8192, 16384,
                                             32768, 65536, 131072, 262144}));
#define FIELD_NAME(f, sppark_chain) #f,
  std::vector<std::string> fields;
  app.add_option("--fields", fields, "fields for the GPU's modular rows (default: all when no --bits is given)")
      ->delimiter(',')->check(CLI::IsMember(std::vector<std::string>{MPGEN_BENCH_FIELDS(FIELD_NAME)}));
  app.add_option("--csv", csv, "write the rows to this CSV file");
  app.add_flag("--quick", quick, "small batches: a smoke run, not a timing");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "mpgen-bench: error: %s\n", e.what());
    return 2;
  }

  std::vector<Row> rows;
  if (device == "cpu") {
    const std::size_t n = quick ? 1000 : 100000;
#define CPU_ROWS(b)                                                              \
  if (b <= 1024 && wanted(bits, b)) {                                            \
    rows.push_back(on_cpu<mpgen::u##b::add>(n, quick));                          \
    rows.push_back(on_cpu<mpgen::u##b::mul>(quick ? n : n / (b / 64 + 1), quick)); \
  }
    MPGEN_BENCH_SIZES(CPU_ROWS)
  } else {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      std::fprintf(stderr, "mpgen-bench: error: no GPU can be used; try --device cpu\n");
      return 1;
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    const Ceilings c = measure_ceilings();
    std::printf("GPU: %s, %d SMs; copy %.0f GB/s (read + written), multiply-add %.2f T halves/s\n", p.name,
                p.multiProcessorCount, c.copy_bytes_per_s / 1e9, c.multiply_halves_per_s / 1e12);
    rows.push_back({"device-to-device copy", "gpu", 0, c.copy_bytes_per_s, 1, "bytes/s", 3029e9, "ANCHORS copy"});
    rows.push_back({"mad.lo.cc/madc.hi halves", "gpu", 0, c.multiply_halves_per_s, 1, "halves/s", 15.36e12,
                    "ANCHORS multiply-add"});
    const std::string sass = own_sass();
    const std::size_t chain_n = quick ? 4096 : 200000, memory_n = quick ? 4096 : std::size_t(1) << 22;
#define GPU_ROWS(b)                                                                     \
  if (wanted(bits, b) && (fields.empty() || !bits.empty())) {                           \
    rows.push_back(chained<mpgen::u##b::mul, false>("mul chain (CGBN)", c, sass, chain_n, 100 * 8192 / b, \
                                                    cgbn_mul(b), "CGBN mul"));                    \
    rows.push_back(chained<mpgen::u##b::sqr, true>("sqr chain", c, sass, chain_n, 100 * 8192 / b));  \
    for (auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous}) {       \
      rows.push_back(from_memory<mpgen::u##b::add>(c, memory_n, layout));               \
      rows.push_back(from_memory<mpgen::u##b::mul>(c, memory_n, layout));               \
    }                                                                                   \
  }
    MPGEN_BENCH_SIZES(GPU_ROWS)
#define GROUP_ROWS(m, b)                                                                             \
  if (wanted(bits, b) && fields.empty()) {                                                         \
    const std::size_t group_n = quick ? 64 : (std::size_t(1) << 32) / b;                           \
    for (auto layout : {mpgen::Layout::contiguous, mpgen::Layout::interleaved}) {                  \
      rows.push_back(from_memory<mpgen::m::add>(c, group_n, layout, "group tier"));                \
      rows.push_back(from_memory<mpgen::m::sub>(c, group_n, layout, "group tier"));                \
    }                                                                                              \
  }
    MPGEN_BENCH_GROUP(GROUP_ROWS)
    // The group tier's products, seed 003's 1-Mul workload (one product per instance from
    // memory, 2^32 bits per operand; its Cu-Q computes the low half: mul_lo), the full
    // product and the square; and up to 32768 bits CGBN's mul workload (mul_lo chained).
#define GROUP_MUL_ROWS(m, b)                                                                              \
  if (wanted(bits, b) && fields.empty()) {                                                              \
    const std::size_t group_n = quick ? 64 : (std::size_t(1) << 32) / b;                                \
    if (b <= 32768)                                                                                      \
      rows.push_back(chained<mpgen::m::mul_lo, false>("mul_lo chain (CGBN mul), group tier", c, sass, chain_n, \
                                                      100 * 8192 / b, cgbn_mul(b), "CGBN mul"));        \
    rows.push_back(from_memory<mpgen::m::mul_lo>(c, group_n, mpgen::Layout::contiguous, "group tier")); \
    rows.push_back(from_memory<mpgen::m::mul>(c, group_n, mpgen::Layout::contiguous, "group tier"));    \
    rows.push_back(from_memory<mpgen::m::sqr>(c, group_n, mpgen::Layout::contiguous, "group tier"));    \
  }
    MPGEN_BENCH_GROUP(GROUP_MUL_ROWS)
    // Seed 003's 6-Add (add's own geometry) and Poly (on the products' threads: bench/poly.cu).
#define GROUP_WORKLOAD_ROWS(m, b)                                                                             \
  if (wanted(bits, b) && fields.empty()) {                                                                  \
    const std::size_t group_n = quick ? 64 : (std::size_t(1) << 32) / b;                                    \
    rows.push_back(workload_row(c, "6-Add", b, group_n, workloads::launch<mpgen::m::add, mpgen::m::add, false>, \
                                false));                                                                    \
    rows.push_back(workload_row(c, "Poly", b, group_n, workloads::poly(b), true));                          \
  }
    MPGEN_BENCH_GROUP(GROUP_WORKLOAD_ROWS)
    // sppark's workloads (../shared/ANCHORS.md): a = a * b in Montgomery form, 256 times
    // per thread over 2^22 threads, and one product from memory; and the same chain in
    // ordinary form (modmul: pseudo-Mersenne folding where the modulus allows it).
    const std::size_t field_n = quick ? 4096 : std::size_t(1) << 22;
    const auto field_wanted = [&](const char* name) {  // all fields unless --bits or --fields say otherwise
      return fields.empty() ? bits.empty() : std::count(fields.begin(), fields.end(), name) > 0;
    };
#define FIELD_ROWS(f, sppark_chain)                                                                      \
  if (field_wanted(#f)) {                                                                                \
    rows.push_back(chained<mpgen::f::montmul, false>("montmul chain, " #f, c, sass, field_n, 256,        \
                                                     sppark_chain, sppark_chain ? "sppark" : ""));       \
    rows.push_back(chained<mpgen::f::montsqr, true>("montsqr chain, " #f, c, sass, field_n, 256));       \
    rows.push_back(chained<mpgen::f::modmul, false>("modmul chain, " #f, c, sass, field_n, 256));        \
    rows.push_back(chained<mpgen::f::modsqr, true>("modsqr chain, " #f, c, sass, field_n, 256));         \
    rows.push_back(from_memory<mpgen::f::montmul>(c, field_n, mpgen::Layout::interleaved, #f));          \
    rows.push_back(from_memory<mpgen::f::modmul>(c, field_n, mpgen::Layout::interleaved, #f));           \
  }
    MPGEN_BENCH_FIELDS(FIELD_ROWS)
#define LAZY_ROWS(f, sppark_chain)                                                                        \
  if (field_wanted(#f))                                                                                  \
    rows.push_back(chained<mpgen::f::montmul_lazy, false>("montmul_lazy chain, " #f, c, sass, field_n, 256, \
                                                          sppark_chain, "sppark"));
    MPGEN_BENCH_LAZY_FIELDS(LAZY_ROWS)
#define POWM_ROWS(b)                                                                                       \
  if (fields.empty() && wanted(bits, b)) {                                                               \
    const std::size_t powm_n = quick ? 1024 : std::size_t(1) << (b <= 256 ? 20 : b <= 1024 ? 18 : 16);  \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 5>(c, powm_n)); \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 4>(c, powm_n)); \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 0>(c, powm_n)); \
    rows.push_back(chained<mpgen::powm##b::montredc, false>("montredc chain (CGBN mont_reduce)", c, sass, chain_n,     \
                                                            100 * 8192 / b, cgbn_mont_reduce(b), "CGBN mont_reduce")); \
  }
    MPGEN_BENCH_POWM(POWM_ROWS)
#define RUNTIME_MODULUS_ROWS(b)                                                                            \
  if (fields.empty() && wanted(bits, b)) {                                                               \
    const std::size_t powm_n = quick ? 1024 : std::size_t(1) << (b <= 256 ? 20 : b <= 1024 ? 18 : 16);  \
    rows.push_back(powm_runtime_row<mpgen::u##b::montmul, mpgen::u##b::montsqr, mpgen::u##b::mont_minus_inverse, \
                                    mpgen::u##b::division_normalize, mpgen::u##b::division_step,         \
                                    mpgen::u##b::division_finish>(c, powm_n));                           \
    rows.push_back(runtime_redc_row<mpgen::u##b::montredc, mpgen::u##b::mont_minus_inverse>(chain_n, 100 * 8192 / b)); \
    rows.push_back(divide_row<mpgen::u##b::div_qr_wide>(c, powm_n, 8));                                  \
    rows.push_back(pair_row<mpgen::u##b::gcd, false>("gcd chain (CGBN gcd)", powm_n / 4, 2));            \
    rows.push_back(pair_row<mpgen::u##b::modinv, true>("modinv chain, modulus at run time (CGBN modinv)", \
                                                       powm_n / 4, 2));                                  \
    rows.push_back(pair_row<mpgen::u##b::sqrt, false>("sqrt chain, of a value of the width", powm_n / 4, 4)); \
  }
    MPGEN_BENCH_POWM(RUNTIME_MODULUS_ROWS)
    // The same with the group tier's Montgomery operations, division, gcd, modinv and sqrt (bench/group_moduli.cu).
    for (unsigned b : {4096u, 8192u})
      if (wanted(bits, b) && fields.empty()) {
        const std::size_t n = quick ? 1024 : std::size_t(1) << (b == 4096 ? 15 : 13);
        rows.push_back({"montredc chain, modulus at run time (CGBN mont_reduce), group tier", "gpu", b,
                        group_moduli::redc_chain_rate(b, quick ? 1024 : 200000, 100 * 8192 / b), 0, "",
                        cgbn_mont_reduce(b), "CGBN mont_reduce"});
        rows.push_back({"modexp, 512-bit exponent, 5-bit windows, modulus at run time (CGBN powm_odd), group tier",
                        "gpu", b, group_moduli::powm_rate(b, n), 0, "", cgbn_powm(b), "CGBN powm_odd"});
        rows.push_back({"div_qr_wide chain (CGBN div_qr), group tier", "gpu", b,
                        group_moduli::divide_chain_rate(b, n, 8), 0, "", 0, ""});
        rows.push_back({"gcd chain (CGBN gcd), group tier", "gpu", b, group_moduli::step_chain_rate("gcd", b, n, 2), 0, "", 0,
                        ""});
        rows.push_back({"modinv chain, modulus at run time (CGBN modinv), group tier", "gpu", b,
                        group_moduli::step_chain_rate("modinv", b, n, 2), 0, "", 0, ""});
        rows.push_back({"sqrt chain, of a value of the width, group tier", "gpu", b,
                        group_moduli::step_chain_rate("sqrt", b, n, 4), 0, "", 0, ""});
      }
#define POWM_SCAN_ROWS(b)                                                                                  \
  if (fields.empty() && wanted(bits, b)) {                                                               \
    const std::size_t powm_n = quick ? 1024 : std::size_t(1) << (b <= 256 ? 20 : 18);                   \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 4, true>(c, powm_n)); \
    rows.push_back(powm_row<mpgen::powm##b::loop_domain, mpgen::powm##b::montmul, mpgen::powm##b::montsqr, 3, true>(c, powm_n)); \
  }
    MPGEN_BENCH_POWM_SCAN(POWM_SCAN_ROWS)
  }

  std::printf("%-36s %6s %12s %9s  %-38s %12s %7s\n", "workload", "bits", "ops/s", "fraction", "of", "peer ops/s",
              "ours/peer");
  for (const Row& r : rows)
    std::printf("%-36s %6u %12.4g %9.3f  %-38s %12.4g %7.2f\n", r.workload.c_str(), r.bits, r.rate, r.ceiling,
                r.against.c_str(), r.peer, r.peer ? r.rate / r.peer : 0.0);
  if (!csv.empty()) {
    std::ofstream f(csv);
    f << "workload,device,bits,ops_per_s,fraction,of,peer_ops_per_s,peer\n";
    for (const Row& r : rows)
      f << '"' << r.workload << "\"," << r.device << ',' << r.bits << ',' << r.rate << ',' << r.ceiling << ",\""
        << r.against << "\"," << r.peer << ",\"" << r.peer_name << "\"\n";
    if (!f) {
      std::fprintf(stderr, "mpgen-bench: error: cannot write %s\n", csv.c_str());
      return 2;
    }
  }
  return 0;
}

// mpgen-bench's per-thread rows: chained products (CGBN's mul workload) and add and mul
// from memory at every built-in size on the GPU; add and mul on the CPU against GMP.
#include <gmp.h>

#include <functional>

#include "mpgen_u1024.cuh"
#include "mpgen_u128.cuh"
#include "mpgen_u131.cuh"
#include "mpgen_u2048.cuh"
#include "mpgen_u255.cuh"
#include "mpgen_u256.cuh"
#include "mpgen_u381.cuh"
#include "mpgen_u512.cuh"
#include "mpgen_u521.cuh"
#include "mpgen_u64.cuh"

#include "measures.cuh"

#define MPGEN_BENCH_SIZES(X) X(64) X(128) X(131) X(255) X(256) X(381) X(512) X(521) X(1024) X(2048)

namespace bench {
namespace {

// Op's host64 words in (or out), 0 where it has no host64.
template <class Op>
constexpr unsigned words64(bool in) {
  if constexpr (mpgen::has_host64<Op>::value) return in ? Op::in_words64 : Op::out_words64;
  return 0;
}

// The CPU backend, one thread: Op::host (the GPU's 32-bit list) or, with wide, Op::host64
// (the 64-bit list) over a batch against GMP's mpn function on as many 64-bit limbs.
template <class Op>
Row on_cpu(std::size_t n, bool quick, bool wide) {
  const unsigned limbs = Op::operand_limbs[0], gmp_limbs = (limbs + 1) / 2;
  auto x = random_words(Op::in_words * n, 3);
  std::vector<uint32_t> y(Op::out_words * n);
  std::vector<mp_limb_t> a(gmp_limbs * n), b(gmp_limbs * n), r(2 * gmp_limbs * n);
  for (auto* v : {&a, &b})
    for (auto& w : *v) w = (mp_limb_t(random_words(2, unsigned(w))[0]) << 32) | 0x9e3779b9u;
  const std::string name = Op::name;
  std::vector<uint64_t> x64(words64<Op>(true) * n), y64(words64<Op>(false) * n);
  for (std::size_t i = 0; i < x64.size(); ++i) x64[i] = uint64_t(x[i % x.size()]) << 32 | x[(i + 1) % x.size()];
  const std::vector<double> seconds = host_seconds_in_turns(
      {[&] {
         if constexpr (mpgen::has_host64<Op>::value)
           if (wide) {
             for (std::size_t j = 0; j < n; ++j) Op::host64(&y64[j * Op::out_words64], &x64[j * Op::in_words64]);
             return;
           }
         for (std::size_t j = 0; j < n; ++j) Op::host(&y[j * Op::out_words], &x[j * Op::in_words]);
       },
       [&] {  // the peer's function chosen outside its loop, as ours is (a compile-time Op)
         if (name == "mul")
           for (std::size_t j = 0; j < n; ++j)
             mpn_mul_n(&r[2 * gmp_limbs * j], &a[gmp_limbs * j], &b[gmp_limbs * j], gmp_limbs);
         else if (name == "sqr")
           for (std::size_t j = 0; j < n; ++j) mpn_sqr(&r[2 * gmp_limbs * j], &a[gmp_limbs * j], gmp_limbs);
         else
           for (std::size_t j = 0; j < n; ++j) mpn_add_n(&r[gmp_limbs * j], &a[gmp_limbs * j], &b[gmp_limbs * j], gmp_limbs);
       }},
      quick ? 1 : 7);
  const double ours = seconds[0], gmp = seconds[1];
  const char* peer = name == "mul" ? "GMP mpn_mul_n" : name == "sqr" ? "GMP mpn_sqr" : "GMP mpn_add_n";
  return {name + (wide ? " (one thread, host64)" : " (one thread, 32-bit host)"), "cpu", Op::bits, n / ours,
          gmp / ours, peer, n / gmp, peer};
}

// Each of Op's host renderings: the 64-bit list where it has one, and the GPU's own.
template <class Op>
void cpu_op_rows(std::size_t n, bool quick, std::vector<Row>& rows) {
  if constexpr (mpgen::has_host64<Op>::value) rows.push_back(on_cpu<Op>(n, quick, true));
  rows.push_back(on_cpu<Op>(n, quick, false));
}

}  // namespace

void cpu_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty() && s.bits.empty()) return;
  const std::size_t n = s.quick ? 1000 : 100000;
#define CPU_ROWS(b)                                                               \
  if (s.wanted(b)) {                                                              \
    cpu_op_rows<mpgen::u##b::add>(n, s.quick, rows);                              \
    cpu_op_rows<mpgen::u##b::mul>(s.quick ? n : n / (b / 64 + 1), s.quick, rows); \
    cpu_op_rows<mpgen::u##b::sqr>(s.quick ? n : n / (b / 64 + 1), s.quick, rows); \
  }
  MPGEN_BENCH_SIZES(CPU_ROWS)
}

void thread_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty() && s.bits.empty()) return;
  const std::size_t memory_n = s.quick ? 4096 : std::size_t(1) << 22;
#define GPU_ROWS(b)                                                                                                 \
  if (s.wanted(b)) {                                                                                              \
    rows.push_back(chained<mpgen::u##b::mul, false>("mul chain (CGBN)", s, s.chain_n(), 100 * 8192 / b, cgbn_mul(b), \
                                                    "CGBN mul"));                                                 \
    rows.push_back(chained<mpgen::u##b::sqr, true>("sqr chain", s, s.chain_n(), 100 * 8192 / b));                   \
    for (auto layout : {mpgen::Layout::interleaved, mpgen::Layout::contiguous}) {                                 \
      rows.push_back(from_memory<mpgen::u##b::add>(s.ceilings, memory_n, layout));                                \
      rows.push_back(from_memory<mpgen::u##b::mul>(s.ceilings, memory_n, layout));                                \
    }                                                                                                             \
  }
  MPGEN_BENCH_SIZES(GPU_ROWS)
}

}  // namespace bench

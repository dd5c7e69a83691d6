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

// The CPU backend, one thread: Op::host (the GPU's 32-bit list) or, with wide, host64_batch
// (Op's 64-bit list) over a batch against GMP's mpn function on the same records: GMP reads
// its operands from the 64-bit limbs host64 reads (add's carry-in word left unread) and
// writes records of as many limbs (the sum and its carry limb, or the product), so that
// both move the same bytes. (With operands and sums in arrays of their own, GMP moved 4-8%
// fewer bytes at add, and its rate there moved by up to 27% with where the arrays lay.)
template <class Op>
Row on_cpu(std::size_t n, bool quick, bool wide) {
  static_assert(mpgen::has_host64<Op>::value, "GMP reads host64's records");
  constexpr unsigned I = Op::in_words64, O = Op::out_words64, limbs = (Op::operand_limbs[0] + 1) / 2;
  const std::string name = Op::name;
  const unsigned gmp_out = name == "add" ? O : 2 * limbs;
  auto x = random_words(Op::in_words * n, 3);
  std::vector<uint32_t> y(Op::out_words * n);
  std::vector<uint64_t> x64(I * n), y64(O * n), r(gmp_out * n);
  for (std::size_t i = 0; i < x64.size(); ++i) x64[i] = uint64_t(x[i % x.size()]) << 32 | x[(i + 1) % x.size()];
  const std::vector<double> seconds = host_seconds_in_turns(
      {[&] {
         if (wide) return mpgen::host64_batch<Op>(n, y64.data(), x64.data());
         for (std::size_t j = 0; j < n; ++j) Op::host(&y[j * Op::out_words], &x[j * Op::in_words]);
       },
       [&] {  // the peer's function chosen outside its loop, as ours is (a compile-time Op)
         const uint64_t* a = x64.data();
         if (name == "mul")
           for (std::size_t j = 0; j < n; ++j) mpn_mul_n(&r[gmp_out * j], &a[I * j], &a[I * j + limbs], limbs);
         else if (name == "sqr")
           for (std::size_t j = 0; j < n; ++j) mpn_sqr(&r[gmp_out * j], &a[I * j], limbs);
         else
           for (std::size_t j = 0; j < n; ++j)
             r[gmp_out * j + limbs] = mpn_add_n(&r[gmp_out * j], &a[I * j], &a[I * j + limbs], limbs);
       }},
      quick ? 1 : 7);
  const double ours = seconds[0], gmp = seconds[1];
  const char* peer = name == "mul" ? "GMP mpn_mul_n" : name == "sqr" ? "GMP mpn_sqr" : "GMP mpn_add_n";
  return {name + (wide ? " (one thread, host64)" : " (one thread, 32-bit host)"), "cpu", Op::bits, n / ours,
          gmp / ours, peer, n / gmp, peer};
}

// Each of Op's host renderings: the 64-bit list, and the GPU's own.
template <class Op>
void cpu_op_rows(std::size_t n, bool quick, std::vector<Row>& rows) {
  rows.push_back(on_cpu<Op>(n, quick, true));
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

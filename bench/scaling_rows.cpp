// mpgen-bench's rows of the runtime's CPU path over the cores: run_batch on 2, 4, ... up to
// cpu_threads() threads against one thread ($MPGEN_CPU_THREADS=1), the same batch.
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

#include "mpgen/runtime.hpp"
#include "rows.hpp"

namespace bench {
namespace {

double seconds(const mpgen::OpInfo& op, mpgen::Batch& batch) {
  batch.run(mpgen::Device::cpu);  // warm
  const auto t0 = std::chrono::steady_clock::now();
  batch.run(mpgen::Device::cpu);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Rates on 2, 4, 8 ... threads up to cpu_threads() (and on all of them), each with its fraction
// of linear scaling from the one-thread rate (the peer).
void scaling_rows(const mpgen::OpInfo& op, std::size_t n, const std::string& what, std::vector<Row>& rows) {
  mpgen::Batch batch(op, n, mpgen::Layout::contiguous);
  std::mt19937 rng(op.bits);
  for (std::size_t j = 0; j < n; ++j)
    for (unsigned k = 0; k < op.operand_bits.size(); ++k) {
      std::vector<uint32_t> limbs(op.operand_limbs(k));
      for (auto& w : limbs) w = rng();
      if (op.operand_bits[k] % 32) limbs.back() &= (1u << op.operand_bits[k] % 32) - 1;
      if (!op.modulus.empty() && (op.below_modulus >> k & 1)) limbs.back() &= op.modulus.back() >> 1;  // below p
      batch.set_operand(j, k, limbs);
    }
  const unsigned all = mpgen::cpu_threads();
  const auto on = [&](unsigned threads) {
    ::setenv("MPGEN_CPU_THREADS", std::to_string(threads).c_str(), 1);
    return seconds(op, batch);
  };
  const double one = on(1);
  for (unsigned threads = 2; threads <= all; threads = threads * 2 > all && threads < all ? all : threads * 2) {
    const double t = on(threads);
    rows.push_back({what + " (run_batch, " + std::to_string(threads) + " threads)", "cpu", op.bits, n / t,
                    one / t / threads, "linear scaling from 1 thread", n / one, "1 thread"});
  }
  ::setenv("MPGEN_CPU_THREADS", std::to_string(all).c_str(), 1);
}

}  // namespace

void cpu_scaling_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty() && s.bits.empty()) return;
  const std::size_t n = s.quick ? 20000 : 2000000;
  for (unsigned bits : {256u, 1024u})
    if (s.wanted(bits)) {
      scaling_rows(mpgen::find(bits, "add"), n, "add", rows);
      scaling_rows(mpgen::find(bits, "mul"), bits == 256 ? n : n / 8, "mul", rows);
    }
  if (s.wanted(256)) scaling_rows(mpgen::find_field("p256", "modexp"), s.quick ? 64 : 20000, "modexp, p256", rows);
}

}  // namespace bench

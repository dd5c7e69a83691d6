// mpgen-bench's rows of the runtime's CPU path over the cores: run_batch on 2, 4, ... up to
// cpu_threads() threads, and on the physical cores where they are fewer (Linux: each core's
// hardware threads share a core_id), against one thread ($MPGEN_CPU_THREADS=1), the same batch.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "mpgen/runtime.hpp"
#include "rows.hpp"

namespace bench {
namespace {

double seconds(mpgen::Batch& batch, unsigned threads) {
  ::setenv("MPGEN_CPU_THREADS", std::to_string(threads).c_str(), 1);
  const auto t0 = std::chrono::steady_clock::now();
  batch.run(mpgen::Device::cpu);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The online CPUs' distinct (package, core) pairs; 0 where /sys does not say.
unsigned physical_cores() {
  std::set<std::pair<int, int>> cores;
  for (unsigned cpu = 0; cpu < std::thread::hardware_concurrency(); ++cpu) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    std::ifstream package(dir + "physical_package_id"), core(dir + "core_id");
    int p = 0, c = 0;
    if (!(package >> p) || !(core >> c)) return 0;
    cores.insert({p, c});
  }
  return unsigned(cores.size());
}

// The thread counts the rows scale to: 1, then 2, 4, 8 ... up to all (and all of them), and
// the physical cores where they are fewer.
std::vector<unsigned> thread_counts(unsigned all, unsigned cores) {
  std::vector<unsigned> counts{1};
  for (unsigned threads = 2; threads <= all; threads = threads * 2 > all && threads < all ? all : threads * 2)
    counts.push_back(threads);
  if (cores > 1 && std::find(counts.begin(), counts.end(), cores) == counts.end()) {
    counts.push_back(cores);
    std::sort(counts.begin(), counts.end());
  }
  return counts;
}

// Rows "what (how, T threads)" for each thread count T above one, each with its fraction of
// linear scaling from the one-thread rate (the peer): `seconds(threads)` runs n once. The
// counts are timed in turns, three times over, the fastest of each kept: on a shared
// machine a neighbour's load then weighs on all counts alike.
void scaling_rows(const std::string& what, const std::string& how, unsigned bits, double n,
                  const std::function<double(unsigned)>& seconds, std::vector<Row>& rows) {
  const unsigned all = mpgen::cpu_threads(), cores = physical_cores();
  const std::vector<unsigned> counts = thread_counts(all, cores);
  seconds(all);  // warm
  std::vector<double> best(counts.size(), 1e300);
  for (int turn = 0; turn < 3; ++turn)
    for (std::size_t i = 0; i < counts.size(); ++i) best[i] = std::min(best[i], seconds(counts[i]));
  for (std::size_t i = 1; i < counts.size(); ++i)
    rows.push_back({what + " (" + how + ", " + std::to_string(counts[i]) + " threads" +
                        (counts[i] == cores && cores < all ? ", the physical cores)" : ")"),
                    "cpu", bits, n / best[i], best[0] / best[i] / counts[i], "linear scaling from 1 thread",
                    n / best[0], "1 thread"});
}

// run_batch of op over n random instances on the CPU.
void batch_scaling_rows(const mpgen::OpInfo& op, std::size_t n, const std::string& what, std::vector<Row>& rows) {
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
  const std::string all = std::to_string(mpgen::cpu_threads());
  scaling_rows(what, "run_batch", op.bits, double(n), [&](unsigned threads) { return seconds(batch, threads); }, rows);
  ::setenv("MPGEN_CPU_THREADS", all.c_str(), 1);
}

// Seconds run(t) takes for t = 0 .. threads - 1 together, started and joined as run_batch's
// threads are (thread 0 the calling one): the ceilings' timing.
double split_seconds(unsigned threads, const std::function<void(unsigned)>& run) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (auto& t : pool) t.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The machine's own scaling, the ceilings for the rows above: `steps` 64-bit multiply-adds
// split over the threads, started and joined as run_batch's threads are, each thread's in
// registers (no memory, nothing shared) as `Chains` independent chains: one chain waits on
// each multiply's latency, eight keep the multiplier busy every cycle. Turbo clocks that
// fall as more cores run, and a neighbour on a shared machine, slow both; cores that share
// their execution units (hardware threads, seen or hidden by a hypervisor) slow the eight.
template <unsigned Chains>
double register_chains_seconds(unsigned threads, std::uint64_t steps) {
  std::vector<std::uint64_t> sums(threads);
  const auto run = [&](unsigned t) {
    std::uint64_t x[Chains];
    for (unsigned c = 0; c < Chains; ++c) x[c] = t * Chains + c + 1;
    for (std::uint64_t s = steps * t / threads / Chains; s < steps * (t + 1) / threads / Chains; ++s)
      for (unsigned c = 0; c < Chains; ++c) {
        x[c] = x[c] * 0x9e3779b97f4a7c15ull + s;
        asm("" : "+r"(x[c]));  // each chain in a register: scalar multiplies, not the vector unit's
      }
    sums[t] = std::accumulate(x, x + Chains, std::uint64_t(0));
  };
  const double seconds = split_seconds(threads, run);
  volatile std::uint64_t sink = std::accumulate(sums.begin(), sums.end(), std::uint64_t(0));
  (void)sink;
  return seconds;
}

// The memory's ceiling for the batch rows that stream (add): `from` copied into `to`, split
// over the threads as above, each thread its contiguous range.
double copy_seconds(unsigned threads, const std::vector<char>& from, std::vector<char>& to) {
  const auto run = [&](unsigned t) {
    const std::size_t first = from.size() * t / threads, last = from.size() * (t + 1) / threads;
    std::memcpy(to.data() + first, from.data() + first, last - first);
  };
  return split_seconds(threads, run);
}

}  // namespace

void cpu_scaling_rows(const Setting& s, std::vector<Row>& rows) {
  if (!s.fields.empty() && s.bits.empty()) return;
  const std::size_t n = s.quick ? 20000 : 2000000;
  for (unsigned bits : {256u, 1024u})
    if (s.wanted(bits)) {
      batch_scaling_rows(mpgen::find(bits, "add"), n, "add", rows);
      batch_scaling_rows(mpgen::find(bits, "mul"), bits == 256 ? n : n / 8, "mul", rows);
    }
  if (s.wanted(256)) batch_scaling_rows(mpgen::find_field("p256", "modexp"), s.quick ? 64 : 20000, "modexp, p256", rows);
  const std::uint64_t steps = s.quick ? 1000000 : 400000000;
  scaling_rows("one multiply-add chain a thread", "the machine's ceiling, latency", 64, double(steps),
               [&](unsigned threads) { return register_chains_seconds<1>(threads, steps); }, rows);
  scaling_rows("eight multiply-add chains a thread", "the machine's ceiling, throughput", 64, double(4 * steps),
               [&](unsigned threads) { return register_chains_seconds<8>(threads, 4 * steps); }, rows);
  // as many bytes read and written (the row's rate) as add's 256-bit batch of n
  const mpgen::OpInfo& add = mpgen::find(256, "add");
  std::vector<char> from(n * (add.in_words() + add.out_words()) * sizeof(uint32_t) / 2, 1), to(from.size());
  scaling_rows("copy of " + std::to_string(from.size() >> 20) + " MiB, bytes read and written",
               "the machine's ceiling, memory", 8, double(2 * from.size()),
               [&](unsigned threads) { return copy_seconds(threads, from, to); }, rows);
}

}  // namespace bench

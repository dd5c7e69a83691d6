// GMP's products on every core of the machine (the CPU baseline of the NTT product): for each size, a
// batch of NumBits x NumInsts = 2^32 bits (2^32 / bits products of random operands; at most
// 2^14 of them) split over all hardware threads, mpz_mul (or mpz_mul then the low half,
// mul_lo; or mpz_mul(a, a), sqr), timed after one warm-up pass. Prints products per second.
// Built by bench/ntt/build.sh (g++ -O2 -pthread -lgmp); run: gmp_batch [bits...].
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

struct Batch {
  std::vector<mpz_t> a, b, r;
  explicit Batch(std::size_t n, unsigned bits) : a(n), b(n), r(n) {
    gmp_randstate_t rng;
    gmp_randinit_default(rng);
    for (std::size_t i = 0; i < n; ++i) {
      mpz_inits(a[i], b[i], r[i], nullptr);
      mpz_urandomb(a[i], rng, bits), mpz_urandomb(b[i], rng, bits);
    }
    gmp_randclear(rng);
  }
  ~Batch() {
    for (std::size_t i = 0; i < a.size(); ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  }
};

// Seconds for one pass of `op` over the batch on `threads` threads.
template <class Op>
double pass(Batch& batch, unsigned threads, Op op) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  const std::size_t n = batch.a.size();
  for (unsigned w = 0; w < threads; ++w)
    workers.emplace_back([&, w] {
      for (std::size_t i = w; i < n; i += threads) op(batch, i);
    });
  for (auto& worker : workers) worker.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(unsigned(std::strtoul(argv[i], nullptr, 10)));
  if (sizes.empty()) sizes = {16384, 32768, 65536, 131072, 262144};
  const unsigned threads = std::thread::hardware_concurrency();
  for (unsigned bits : sizes) {
    std::size_t n = (std::size_t(1) << 32) / bits;
    if (n > 16384) n = 16384;
    Batch batch(n, bits);
    const auto mul = [](Batch& b, std::size_t i) { mpz_mul(b.r[i], b.a[i], b.b[i]); };
    const auto sqr = [](Batch& b, std::size_t i) { mpz_mul(b.r[i], b.a[i], b.a[i]); };
    const auto mul_lo = [bits](Batch& b, std::size_t i) {
      mpz_mul(b.r[i], b.a[i], b.b[i]);
      mpz_tdiv_r_2exp(b.r[i], b.r[i], bits);
    };
    pass(batch, threads, mul);  // warm-up: the results' allocations
    const double t_mul = pass(batch, threads, mul), t_sqr = pass(batch, threads, sqr),
                 t_lo = pass(batch, threads, mul_lo);
    std::printf("gmp %u bits, %u threads, %zu products: mul %.4g/s, sqr %.4g/s, mul_lo %.4g/s (GMP %s)\n", bits,
                threads, n, n / t_mul, n / t_sqr, n / t_lo, gmp_version);
  }
}

// mpgen-bench-rns: the workload of Isupov and Knyazkov, "Efficient GPU implementation of
// multiple-precision addition based on residue arithmetic", on mpgen's RNS integers. For
// each built set (the fewest 32-bit moduli whose M reaches 128, 256, ... 8192 bits): two
// arrays of `count` integers of the paper's datasets (1: random in [0, (M - 1) / 2], 2: in
// [(1 - M) / 2, 0], 3: either sign), made on the GPU in binary and converted there; the
// element-wise sum by Algorithm 2 (add) and Algorithm 1 (add_branching), the difference (sub) and the
// comparison (cmp), and, on operands below 2^(bits / 2), the product (mul), each timed
// alone on the GPU (kernel time, the mean of `runs` launches after one warm-up, interleaved
// layout, 128 threads a block), and a kernel that reads and writes the same words with no
// arithmetic (the memory ceiling); GMP's mpz_add and mpz_mul on the same values on every
// CPU core (a thread each); and the first `check` results of each, flags included, against
// GMP's.
//
// The digit-parallel form (G lanes of a warp an integer, the contiguous layout) runs add and
// mul beside them (by=gpu-digits<G>), checked alike.
//
// Usage: mpgen-bench-rns [--count N] [--runs R] [--check K] [--no-gmp]
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.cuh"
#include "mpgen_rns129.cuh"
#include "mpgen_rns17.cuh"
#include "mpgen_rns257.cuh"
#include "mpgen_rns33.cuh"
#include "mpgen_rns5.cuh"
#include "mpgen_rns65.cuh"
#include "mpgen_rns9.cuh"

namespace {

using Words = mpgen::rns::words<uint32_t>;
using ConstWords = mpgen::rns::words<const uint32_t>;
constexpr unsigned block_threads = 128;

struct Options {
  std::size_t count = 1000000, check = 10000;
  int runs = 10;
  bool gmp = true;
};

__host__ __device__ uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Instance j: a magnitude of `limbs` random limbs, the top one below `top` (so below
// (M - 1) / 2, or below 2^(bits / 2) for the products), a sign by the dataset; written in
// binary (contiguous: limbs, then the sign) for GMP and as an RNS integer (interleaved).
template <class Set>
__global__ void make_operands(std::size_t n, unsigned dataset, uint64_t seed, unsigned limbs, uint32_t top,
                              uint32_t* binary, uint32_t* rns) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  uint32_t* magnitude = binary + j * (limbs + 1);
  uint32_t any = 0;
  for (unsigned k = 0; k < limbs; ++k) {
    const uint32_t r = uint32_t(splitmix(seed ^ (j * 1315423911ull + k) * 0x2545f4914f6cdd1dull));
    magnitude[k] = k + 1 == limbs ? r % top : r;
    any |= magnitude[k];
  }
  const uint32_t random_sign = splitmix(seed + j) >> 63;
  const uint32_t sign = any != 0 && (dataset == 2 || (dataset == 3 && random_sign));
  magnitude[limbs] = sign;
  mpgen::rns::from_binary<Set>(Words{rns + j, n}, ConstWords{magnitude, 1}, limbs, sign);
}

// The memory ceiling of an operation on two integers of Words words: the same reads and
// writes (Words + 1 of them, interleaved) with no arithmetic, an xor each.
template <unsigned Words>
__global__ void stream(std::size_t n, const uint32_t* in, uint32_t* out) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  uint32_t first = 0;
#pragma unroll 8
  for (unsigned w = 0; w < Words; ++w) {
    const uint32_t v = in[w * n + j] ^ in[(Words + w) * n + j];
    out[w * n + j] = v;
    first ^= v;
  }
  out[Words * n + j] = first;
}

// The interleaved layout's n instances of W words to the contiguous one (to = true), or back.
template <unsigned W>
__global__ void transpose(std::size_t n, const uint32_t* from, uint32_t* to_, bool to_contiguous) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n * W) return;
  const std::size_t j = k / W, w = k % W;
  if (to_contiguous) to_[k] = from[w * n + j];
  else to_[w * n + j] = from[k];
}

template <class Op>
__global__ void batch(std::size_t n, const uint32_t* in, uint32_t* out) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j < n) Op::run(Words{out + j, n}, ConstWords{in + j, n});
}

struct Mpz {
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz(Mpz&&) = delete;
  mpz_t v;
};

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

// f(j) for j in [0, n), a contiguous share on each core.
template <class F>
void on_every_core(std::size_t n, const F& f) {
  std::vector<std::thread> threads;
  for (unsigned t = 0, c = cores(); t < c; ++t)
    threads.emplace_back([&, t, c] {
      for (std::size_t j = n * t / c; j < n * (t + 1) / c; ++j) f(j);
    });
  for (auto& t : threads) t.join();
}

void import(std::vector<Mpz>& values, const uint32_t* binary, unsigned limbs) {
  on_every_core(values.size(), [&](std::size_t j) {
    mpz_import(values[j].v, limbs, -1, 4, 0, 0, &binary[j * (limbs + 1)]);
    if (binary[j * (limbs + 1) + limbs]) mpz_neg(values[j].v, values[j].v);
  });
}

// Seconds of op over all instances on every core (one warm-up, then the mean of `runs`).
double gmp_seconds(std::vector<Mpz>& r, const std::vector<Mpz>& a, const std::vector<Mpz>& b, bool product,
                   int runs) {
  double total = 0;
  for (int k = 0; k <= runs; ++k) {
    const auto start = std::chrono::steady_clock::now();
    on_every_core(r.size(), [&](std::size_t j) {
      if (product) mpz_mul(r[j].v, a[j].v, b[j].v);
      else mpz_add(r[j].v, a[j].v, b[j].v);
    });
    if (k) total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return total / runs;
}

// The first `check` results of the GPU (n + 8 words each, interleaved) against GMP's:
// the value, its sign, and the overflow flag (GMP's |r| >= M).
template <class Module>
std::size_t wrong_results(const std::vector<uint32_t>& out, std::size_t n, const std::vector<Mpz>& want,
                          const mpz_t M, std::size_t check) {
  using Set = typename Module::set;
  constexpr unsigned words = Module::words, limbs = Module::count + 1;
  std::size_t wrong = 0;
  std::vector<uint32_t> z(words + 1), magnitude(limbs);
  Mpz got, size;
  for (std::size_t j = 0; j < check && j < n; ++j) {
    for (unsigned w = 0; w <= words; ++w) z[w] = out[w * n + j];
    mpz_abs(size.v, want[j].v);
    const uint32_t overflow = mpz_cmp(size.v, M) >= 0;
    if (z[words] != overflow) {
      ++wrong;
      continue;
    }
    if (overflow) continue;
    mpgen::rns::to_binary<Set>(Words{magnitude.data(), 1}, limbs, ConstWords{z.data(), 1});
    mpz_import(got.v, limbs, -1, 4, 0, 0, magnitude.data());
    if (z[Module::count]) mpz_neg(got.v, got.v);
    wrong += mpz_cmp(got.v, want[j].v) != 0 || z[Module::count] != uint32_t(mpz_sgn(want[j].v) < 0);
  }
  return wrong;
}

template <class Module>
void bench_set(const Options& o) {
  using Set = typename Module::set;
  constexpr unsigned n_moduli = Module::count, words = Module::words;
  const std::size_t n = o.count;
  Mpz M, half;
  mpz_set_ui(M.v, 1);
  for (unsigned i = 0; i < n_moduli; ++i) mpz_mul_ui(M.v, M.v, Set::modulus(i));
  mpz_sub_ui(half.v, M.v, 1);
  mpz_fdiv_q_2exp(half.v, half.v, 1);
  const unsigned precision = unsigned(mpz_sizeinbase(M.v, 2)) - 1;
  const unsigned blocks = unsigned((n + block_threads - 1) / block_threads);

  uint32_t *binary, *in, *out, *in_contiguous, *out_contiguous;
  const unsigned most_limbs = unsigned((mpz_sizeinbase(half.v, 2) + 31) / 32);
  bench::check(cudaMalloc(&binary, 2 * n * (most_limbs + 1) * 4), "cudaMalloc");
  bench::check(cudaMalloc(&in, 2 * n * words * 4), "cudaMalloc");
  bench::check(cudaMalloc(&out, n * (words + 1) * 4), "cudaMalloc");
  bench::check(cudaMalloc(&in_contiguous, 2 * n * words * 4), "cudaMalloc");
  bench::check(cudaMalloc(&out_contiguous, n * (words + 1) * 4), "cudaMalloc");
  std::vector<Mpz> a(n), b(n), r(n);
  std::vector<uint32_t> host_binary, host_out(n * (words + 1));

  // dataset 4: the products' operands, below 2^(precision / 2)
  for (unsigned dataset = 1; dataset <= 4; ++dataset) {
    const bool product = dataset == 4;
    Mpz bound, top_limb;  // the magnitudes stay below bound: their top limb below its
    if (product) mpz_setbit(bound.v, precision / 2);
    else mpz_set(bound.v, half.v);
    const unsigned limbs = unsigned((mpz_sizeinbase(bound.v, 2) + 31) / 32);
    mpz_tdiv_q_2exp(top_limb.v, bound.v, 32 * (limbs - 1));
    const uint32_t top = uint32_t(mpz_get_ui(top_limb.v));
    for (unsigned k = 0; k < 2; ++k)
      make_operands<Set><<<blocks, block_threads>>>(n, product ? 3 : dataset, 20261126u + 7919u * dataset + k, limbs,
                                                    top, binary + k * n * (limbs + 1), in + k * n * words);
    bench::check(cudaDeviceSynchronize(), "making the operands");
    host_binary.resize(2 * n * (limbs + 1));
    cudaMemcpy(host_binary.data(), binary, host_binary.size() * 4, cudaMemcpyDeviceToHost);
    import(a, host_binary.data(), limbs);
    import(b, host_binary.data() + n * (limbs + 1), limbs);

    const auto report = [&](const char* op, double seconds, std::size_t wrong, const char* by) {
      std::printf("rns bits=%u moduli=%u dataset=%s op=%s by=%s count=%zu seconds=%.6g per_second=%.4g checked=%zu wrong=%zu\n",
                  precision, n_moduli, product ? "products" : std::to_string(dataset).c_str(), op, by, n, seconds,
                  n / seconds, by[0] == 'g' && by[1] == 'p' ? std::min(o.check, n) : 0, wrong);
      std::fflush(stdout);
    };
    // gmp(r, a, b) gives the first `check` instances' results: a + b, a - b, a b, or cmp(a, b)
    const auto ours = [&](const char* name, auto op, auto gmp) {
      using Op = decltype(op);
      const double s = bench::gpu_seconds([&] { batch<Op><<<blocks, block_threads>>>(n, in, out); }, o.runs);
      cudaMemcpy(host_out.data(), out, host_out.size() * 4, cudaMemcpyDeviceToHost);
      for (std::size_t j = 0; j < std::min(o.check, n); ++j) gmp(r[j].v, a[j].v, b[j].v);
      std::size_t wrong = 0;
      if (Op::out_words == 1)  // cmp: r holds -1, 0 or 1
        for (std::size_t j = 0; j < std::min(o.check, n); ++j) wrong += host_out[j] != uint32_t(mpz_get_si(r[j].v));
      else
        wrong = wrong_results<Module>(host_out, n, r, M.v, o.check);
      report(name, s, wrong, "gpu");
    };
    // The digit-parallel form: G lanes an instance, in the contiguous layout (the operands
    // moved there, the results back, outside the timing).
    const auto digits = [&](const char* name, auto op, auto gmp) {
      using Op = decltype(op);
      constexpr unsigned G = n_moduli >= 32 ? 32 : n_moduli > 8 ? (n_moduli > 16 ? 32 : 16) : 8;
      const unsigned moved = unsigned((n * Op::in_words + block_threads - 1) / block_threads);
      transpose<Op::in_words><<<moved, block_threads>>>(n, in, in_contiguous, true);
      const unsigned lanes = unsigned((n * G + block_threads - 1) / block_threads);
      const double s = bench::gpu_seconds(
          [&] { mpgen::rns::digits_batch<Op, G><<<lanes, block_threads>>>(n, in_contiguous, out_contiguous); }, o.runs);
      const unsigned back = unsigned((n * Op::out_words + block_threads - 1) / block_threads);
      transpose<Op::out_words><<<back, block_threads>>>(n, out_contiguous, out, false);
      cudaMemcpy(host_out.data(), out, host_out.size() * 4, cudaMemcpyDeviceToHost);
      for (std::size_t j = 0; j < std::min(o.check, n); ++j) gmp(r[j].v, a[j].v, b[j].v);
      char by[32];
      std::snprintf(by, sizeof by, "gpu-digits%u", G);
      report(name, s, wrong_results<Module>(host_out, n, r, M.v, o.check), by);
    };
    const auto sum = [](mpz_t r, const mpz_t a, const mpz_t b) { mpz_add(r, a, b); };
    if (dataset == 1) {
      const double s = bench::gpu_seconds([&] { stream<words><<<blocks, block_threads>>>(n, in, out); }, o.runs);
      report("stream", s, 0, "copy");
    }
    if (product) {
      const auto product_of = [](mpz_t r, const mpz_t a, const mpz_t b) { mpz_mul(r, a, b); };
      ours("mul", typename Module::mul{}, product_of);
      digits("mul", typename Module::mul{}, product_of);
    } else {
      ours("sub", typename Module::sub{}, [](mpz_t r, const mpz_t a, const mpz_t b) { mpz_sub(r, a, b); });
      ours("cmp", typename Module::cmp{}, [](mpz_t r, const mpz_t a, const mpz_t b) {
        const int c = mpz_cmp(a, b);
        mpz_set_si(r, c < 0 ? -1 : c > 0);
      });
      ours("add_branching", typename Module::add_branching{}, sum);
      ours("add", typename Module::add{}, sum);
      digits("add", typename Module::add{}, sum);
    }
    if (o.gmp) {
      const double s = gmp_seconds(r, a, b, product, 3);
      char by[32];
      std::snprintf(by, sizeof by, "gmp%u", cores());
      report(product ? "mul" : "add", s, 0, by);
    }
  }
  cudaFree(binary);
  cudaFree(in);
  cudaFree(out);
  cudaFree(in_contiguous);
  cudaFree(out_contiguous);
}


}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    const bool has_value = k + 1 < argc;
    if (arg == "--count" && has_value) o.count = std::strtoull(argv[++k], nullptr, 0);
    else if (arg == "--runs" && has_value) o.runs = std::atoi(argv[++k]);
    else if (arg == "--check" && has_value) o.check = std::strtoull(argv[++k], nullptr, 0);
    else if (arg == "--no-gmp") o.gmp = false;
    else {
      std::fprintf(stderr, "mpgen-bench-rns: error: unknown option '%s'; allowed: --count N, --runs R, --check K, "
                   "--no-gmp\n", arg.c_str());
      return 2;
    }
  }
  if (o.count == 0 || o.runs <= 0) {
    std::fprintf(stderr, "mpgen-bench-rns: error: --count and --runs must be positive\n");
    return 2;
  }
  bench_set<mpgen::rns5::module>(o);
  bench_set<mpgen::rns9::module>(o);
  bench_set<mpgen::rns17::module>(o);
  bench_set<mpgen::rns33::module>(o);
  bench_set<mpgen::rns65::module>(o);
  bench_set<mpgen::rns129::module>(o);
  bench_set<mpgen::rns257::module>(o);
}

// mpgen-bench-gf: the benchmark of Mohajerani, "Fast Fourier Transforms over prime fields of
// large characteristic and their implementation on GPUs" (its tables 7.1 to 7.5), on mpgen's
// FFT over p = (2^63 + 2^34)^8 + 1 (gf8, K = 16): the forward DFT of N = K^2 ... K^max points, one transform
// (the twiddle table built before), its time and each pass's (pass 0 is DFT_K alone, the
// others a twiddle product and DFT_K a point), and in the same run the ceilings: a kernel that
// copies the bytes a pass moves (N points read, N written, 16-byte accesses), a kernel that
// does a pass's twiddle products alone (the table's w^b, then the shift r^a, one point a
// thread), and the GPU's multiply-add rates (independent chains of mad.wide.u32 and of
// mad.lo.u32: IMAD.WIDE and IMAD in SASS). Also timed: the cyclic product of two polynomials
// of N coefficients through it (device_cyclic_product). Checked: N = K^2 against the host's
// transform (tests/cpp/gf.cpp tests that against GMP), every N forward then inverse as the
// identity.
//
// Then products of integers through the FFT (headers/gf_products.cuh: chunks into points, the
// cyclic product, the coefficients added back with their carries) for 2^14 to 2^18 bits, a
// batch of 2^22 points a transform's worth (products per second; the first two checked
// against the host's, which tests/cpp/gf.cpp tests against GMP), to set beside the group
// tier's products by NTT (mpgen-bench --device gpu --bits 16384,...,262144, its mul rows).
//
// Usage: mpgen-bench-gf [--min-e E] [--max-e E] [--runs R]: N = K^E for E from min-e
// (default 2) to max-e (default 5); E = 6 is 2^24 points, 4 GB of arrays.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.cuh"
#include "mpgen_gf8.cuh"

namespace {

using F = mpgen::gf8::module;
namespace fft = mpgen::gf_fft;
constexpr unsigned K = fft::shape<F>::K, W = F::words;

__global__ void copy_points(const uint4* in, uint4* out, std::size_t n16) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n16; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// A pass's twiddle products alone: point j times w^(j mod (N/K)), then r^(j mod 2k).
__global__ void twiddles_only(const uint32_t* in, uint32_t* out, const uint32_t* table, std::size_t n) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  uint32_t x[W], shifted[W + 1];
  fft::load<F>(x, in + j * W);
  mpgen::loops::apply2<F::mul>(x, x, table + (j % (n / K)) * W);
  mpgen::loops::copy<W>(shifted, x);
  shifted[W] = unsigned(j % K);
  mpgen::loops::apply<F::mul_r>(x, shifted);
  fft::store<F>(out + j * W, x);
}

constexpr unsigned chains = 16, rounds = 4096;

// chains independent 64-bit accumulators, each rounds mad.wide.u32 (IMAD.WIDE): the
// multiply-add rate of full products.
__global__ void multiply_adds_wide(uint64_t* sink, uint32_t a) {
  uint64_t acc[chains];
  for (unsigned c = 0; c < chains; ++c) acc[c] = threadIdx.x + c;
  for (unsigned i = 0; i < rounds; ++i)
#pragma unroll
    for (unsigned c = 0; c < chains; ++c)
      asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(acc[c]) : "r"(a + c), "r"(uint32_t(acc[c] >> 32)));
  uint64_t s = 0;
  for (unsigned c = 0; c < chains; ++c) s ^= acc[c];
  if (s == 42) sink[0] = s;
}

// The same with mad.lo.u32 (IMAD): the rate of half products.
__global__ void multiply_adds_narrow(uint64_t* sink, uint32_t a) {
  uint32_t acc[chains];
  for (unsigned c = 0; c < chains; ++c) acc[c] = threadIdx.x + c;
  for (unsigned i = 0; i < rounds; ++i)
#pragma unroll
    for (unsigned c = 0; c < chains; ++c) asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(acc[c]) : "r"(a + c));
  uint32_t s = 0;
  for (unsigned c = 0; c < chains; ++c) s ^= acc[c];
  if (s == 42) sink[0] = s;
}

std::vector<uint32_t> random_points(std::size_t n, unsigned seed) {
  std::vector<uint32_t> v = bench::random_words(n * W, seed);
  for (std::size_t w = 1; w < n * W; w += 2) v[w] &= 0x7fffffffu;  // every digit below 2^63 < r
  return v;
}

// count products of random integers of `words` words through the FFT: products per second
// and whether the first two equal the host's.
void integer_products(std::size_t words, int runs) {
  namespace gp = mpgen::gf_products;
  const gp::Plan plan = gp::plan<F>(words);
  const std::size_t count = std::max<std::size_t>(1, (std::size_t(1) << 22) / plan.n);
  const std::vector<uint32_t> a = bench::random_words(words * count, 1), b = bench::random_words(words * count, 2);
  uint32_t *da, *db, *out;
  void* workspace;
  bench::check(cudaMalloc(&da, a.size() * 4), "malloc");
  bench::check(cudaMalloc(&db, b.size() * 4), "malloc");
  bench::check(cudaMalloc(&out, 2 * a.size() * 4), "malloc");
  bench::check(cudaMalloc(&workspace, gp::workspace_bytes<F>(plan, count)), "malloc");
  bench::check(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice), "copy");
  bench::check(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice), "copy");
  const double seconds = bench::gpu_seconds(
      [&] { bench::check(gp::device_products<F>(da, db, out, plan, count, workspace), "products"); }, runs);
  std::vector<uint32_t> gpu(4 * words), host(4 * words);
  bench::check(cudaMemcpy(gpu.data(), out, gpu.size() * 4, cudaMemcpyDeviceToHost), "copy");
  gp::host_products<F>(a.data(), b.data(), host.data(), plan, 2);
  std::printf("%-8zu %-7zu %-6u %-8zu %-10.4f %-12.4g %s\n", 32 * words, plan.n, plan.chunk_words, count,
              seconds * 1e3, count / seconds, gpu == host ? "host ok" : "HOST DIFFERS");
  cudaFree(da), cudaFree(db), cudaFree(out), cudaFree(workspace);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned min_e = 2, max_e = 5;
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--min-e" || a == "--max-e" || a == "--runs") && i + 1 < argc) {
      const int v = std::atoi(argv[++i]);
      if (a != "--runs") {
        if (v < 2 || v > 6) return std::fprintf(stderr, "mpgen-bench-gf: %s: give 2 to 6\n", a.c_str()), 2;
        (a == "--min-e" ? min_e : max_e) = unsigned(v);
      } else {
        if (v < 1) return std::fprintf(stderr, "mpgen-bench-gf: --runs: give a positive count\n"), 2;
        runs = v;
      }
    } else {
      return std::fprintf(stderr, "mpgen-bench-gf: usage: mpgen-bench-gf [--min-e 2..6] [--max-e 2..6] [--runs R]\n"), 2;
    }
  }
  cudaDeviceProp prop;
  bench::check(cudaGetDeviceProperties(&prop, 0), "device");
  uint64_t* sink;
  bench::check(cudaMalloc(&sink, 8), "malloc");
  const unsigned mad_blocks = prop.multiProcessorCount * 8;
  const double mads = double(mad_blocks) * 256 * chains * rounds;
  const double wide = bench::gpu_seconds([&] { multiply_adds_wide<<<mad_blocks, 256>>>(sink, 12345); }, runs);
  const double narrow = bench::gpu_seconds([&] { multiply_adds_narrow<<<mad_blocks, 256>>>(sink, 12345); }, runs);
  std::printf("device %s, %d SMs; multiply-add rates: %.4g mad.wide.u32/s, %.4g mad.lo.u32/s\n", prop.name,
              prop.multiProcessorCount, mads / wide, mads / narrow);
  std::printf("%-9s %-10s %-10s %-15s %-12s %-12s %-12s %-11s %s\n", "N", "fft_ms", "pass0_ms", "twiddle_pass_ms",
              "copy_ms", "twiddles_ms", "copy_GB/s", "product_ms", "check");
  for (unsigned e = min_e; e <= max_e; ++e) {
    std::size_t n = 1;
    for (unsigned i = 0; i < e; ++i) n *= K;
    const std::size_t bytes = n * W * 4;
    uint32_t *data, *scratch, *table, *result;
    bench::check(cudaMalloc(&data, bytes), "malloc");
    bench::check(cudaMalloc(&scratch, bytes), "malloc");
    bench::check(cudaMalloc(&table, bytes / K), "malloc");
    const std::vector<uint32_t> points = random_points(n, e);
    bench::check(cudaMemcpy(data, points.data(), bytes, cudaMemcpyHostToDevice), "copy");
    bench::check(fft::device_twiddles<F>(table, n), "twiddles");
    const unsigned log_n = 4 * e;
    const double pass0 = bench::gpu_seconds(
        [&] { bench::check(fft::device_pass<F>(data, scratch, table, fft::Pass{n, 1, log_n, false}), "pass"); }, runs);
    const double pass1 = bench::gpu_seconds(
        [&] { bench::check(fft::device_pass<F>(data, scratch, table, fft::Pass{n, K, log_n, false}), "pass"); }, runs);
    const double copy = bench::gpu_seconds(
        [&] { copy_points<<<prop.multiProcessorCount * 16, 256>>>(reinterpret_cast<const uint4*>(data),
                                                                  reinterpret_cast<uint4*>(scratch), bytes / 16); },
        runs);
    const double twiddles = bench::gpu_seconds(
        [&] { twiddles_only<<<unsigned((n + 127) / 128), 128>>>(data, scratch, table, n); }, runs);
    // The transform itself (its passes overwrite the input: later runs transform elements of
    // the field all the same).
    const double whole = bench::gpu_seconds(
        [&] { bench::check(fft::device_transform<F>(data, scratch, table, n, false, &result), "fft"); }, runs);
    // A cyclic product of two polynomials of n coefficients (two forward transforms, the
    // pointwise products, one inverse), the second operand in a third array.
    uint32_t* other_operand;
    bench::check(cudaMalloc(&other_operand, bytes), "malloc");
    bench::check(cudaMemcpy(other_operand, points.data(), bytes, cudaMemcpyHostToDevice), "copy");
    const double product = bench::gpu_seconds([&] {
      bench::check(fft::device_cyclic_product<F>(data, other_operand, scratch, table, n, &result), "product");
    }, runs);
    cudaFree(other_operand);
    // Checks on fresh input: forward (against the host's at K^2), then inverse.
    bench::check(cudaMemcpy(data, points.data(), bytes, cudaMemcpyHostToDevice), "copy");
    bench::check(fft::device_transform<F>(data, scratch, table, n, false, &result), "fft");
    std::string verdict = "inverse ok";
    if (e == 2) {
      std::vector<uint32_t> gpu(n * W), host = points;
      bench::check(cudaMemcpy(gpu.data(), result, bytes, cudaMemcpyDeviceToHost), "copy");
      fft::host_transform<F>(host.data(), n, false);
      verdict = gpu == host ? "host ok, inverse ok" : "HOST DIFFERS";
    }
    uint32_t* other = result == data ? scratch : data;
    bench::check(fft::device_transform<F>(result, other, table, n, true, &result), "inverse");
    std::vector<uint32_t> back(n * W);
    bench::check(cudaMemcpy(back.data(), result, bytes, cudaMemcpyDeviceToHost), "copy");
    if (back != points) verdict = "INVERSE DIFFERS";
    std::printf("%-9zu %-10.4f %-10.4f %-15.4f %-12.4f %-12.4f %-12.1f %-11.4f %s\n", n, whole * 1e3, pass0 * 1e3,
                pass1 * 1e3, copy * 1e3, twiddles * 1e3, 2.0 * bytes / copy * 1e-9, product * 1e3, verdict.c_str());
    cudaFree(data), cudaFree(scratch), cudaFree(table);
  }
  std::printf("integer products through the FFT:\n%-8s %-7s %-6s %-8s %-10s %-12s %s\n", "bits", "N", "chunk", "batch",
              "batch_ms", "products/s", "check");
  for (std::size_t words = 512; words <= 8192; words *= 2) integer_products(words, runs);
  return 0;
}

// Generalized Fermat prime fields p = r^k + 1 (after Mohajerani, "Fast Fourier Transforms
// over prime fields of large characteristic and their implementation on GPUs") against GMP:
// add, sub, neg, mul, multiplication by r and r^3, and the conversions from and to binary
// integers, for the primes of the thesis' table 3.1 (k = 2 to 128), on edge values (0, 1, p - 1, p - 2, r^i, r^i +- 1,
// digits at their largest) and random elements; each result must be the exact residue's
// unique representation (digits below r; p - 1 as (0, ..., 0, r)).
// The FFT against the direct DFT by GMP, forward then inverse the identity; products of
// integers through it against GMP's mpz_mul. Built by nvcc
// (MPGEN_GPU_TESTS), the same lists and passes run on the GPU too.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <gmp.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpgen_gf16.cuh"
#include "mpgen_gf2.cuh"
#include "mpgen_gf128.cuh"
#include "mpgen_gf32.cuh"
#include "mpgen_gf64.cuh"
#include "mpgen_gf4.cuh"
#include "mpgen_gf8.cuh"
#include "mpz.hpp"

namespace {

template <unsigned K>
struct Field {
  Mpz r, p;
  explicit Field(const uint32_t (&radix)[2]) {
    mpz_set_ui(r.v, radix[1]);
    mpz_mul_2exp(r.v, r.v, 32);
    mpz_add_ui(r.v, r.v, radix[0]);
    mpz_pow_ui(p.v, r.v, K);
    mpz_add_ui(p.v, p.v, 1);
  }

  // v (0 <= v < p) as its 2K words: digits by GMP's division by r.
  std::vector<uint32_t> words(const mpz_t v) const {
    std::vector<uint32_t> w(2 * K, 0);
    Mpz rest, digit, top;
    mpz_sub_ui(top.v, p.v, 1);
    if (mpz_cmp(v, top.v) == 0) {  // r^K: the top digit is r
      w[2 * K - 2] = uint32_t(mpz_get_ui(r.v) & 0xffffffffu);
      mpz_tdiv_q_2exp(digit.v, r.v, 32);
      w[2 * K - 1] = uint32_t(mpz_get_ui(digit.v));
      return w;
    }
    mpz_set(rest.v, v);
    for (unsigned i = 0; i < K; ++i) {
      mpz_fdiv_qr(rest.v, digit.v, rest.v, r.v);
      std::vector<uint32_t> pair(2, 0);
      mpz_export(pair.data(), nullptr, -1, 4, 0, 0, digit.v);
      w[2 * i] = pair[0], w[2 * i + 1] = pair[1];
    }
    return w;
  }

  // The element's value: sum of its digits times r^i.
  void value(mpz_t out, const uint32_t* w) const {
    mpz_set_ui(out, 0);
    Mpz digit;
    for (unsigned i = K; i-- > 0;) {
      mpz_mul(out, out, r.v);
      mpz_import(digit.v, 2, -1, 4, 0, 0, w + 2 * i);
      mpz_add(out, out, digit.v);
    }
    mpz_mod(out, out, p.v);
  }

  // v (0 <= v < p) as 2K binary words.
  static std::vector<uint32_t> binary(const mpz_t v) {
    std::vector<uint32_t> w(2 * K, 0);
    mpz_export(w.data(), nullptr, -1, 4, 0, 0, v);
    return w;
  }

  // Edge values and random ones, below p.
  std::vector<Mpz> values(gmp_randstate_t state, unsigned random_count) const {
    std::vector<Mpz> v(6 + 3 * K + K + random_count);
    std::size_t n = 0;
    mpz_set_ui(v[n++].v, 0);
    mpz_set_ui(v[n++].v, 1);
    mpz_set_ui(v[n++].v, 2);
    mpz_sub_ui(v[n++].v, p.v, 1);
    mpz_sub_ui(v[n++].v, p.v, 2);
    mpz_sub_ui(v[n++].v, r.v, 1);
    Mpz power, largest;
    mpz_set_ui(power.v, 1);
    for (unsigned i = 0; i < K; ++i) {
      mpz_set(v[n++].v, power.v);          // r^i
      mpz_sub_ui(v[n++].v, power.v, 1);     // r^i - 1: digits at their largest below i
      mpz_add_ui(v[n++].v, power.v, 1);
      mpz_mul(power.v, power.v, r.v);
      mpz_sub_ui(largest.v, power.v, 1);    // r^(i+1) - 1
      mpz_mod(v[n++].v, largest.v, p.v);
    }
    while (n < v.size()) mpz_urandomm(v[n++].v, state, p.v);
    for (auto& x : v) mpz_mod(x.v, x.v, p.v);
    return v;
  }
};

// The operations tested and GMP's answer for each.
enum class Op { add, sub, neg, mul, mul_r1, mul_r3, from_binary, to_binary };
const char* const op_names[] = {"add", "sub", "neg", "mul", "mul_r1", "mul_r3", "from_binary", "to_binary"};

template <unsigned K>
void expected(const Field<K>& f, Op op, mpz_t out, const mpz_t a, const mpz_t b) {
  Mpz t;
  switch (op) {
    case Op::add: mpz_add(out, a, b); break;
    case Op::sub: mpz_sub(out, a, b); break;
    case Op::neg: mpz_neg(out, a); break;
    case Op::mul: mpz_mul(out, a, b); break;
    case Op::mul_r1: mpz_mul(out, a, f.r.v); break;
    case Op::mul_r3: mpz_pow_ui(t.v, f.r.v, 3), mpz_mul(out, a, t.v); break;
    case Op::from_binary:
    case Op::to_binary: mpz_set(out, a); break;
  }
  mpz_mod(out, out, f.p.v);
}

#ifdef __CUDACC__
template <class O>
__global__ void each(std::size_t n, const uint32_t* in, uint32_t* out) {
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j < n) O::device(out + j * O::out_words, in + j * O::in_words);
}

bool gpu_present() {
  int count = 0;
  const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  if (std::getenv("MPGEN_REQUIRE_GPU")) REQUIRE_MESSAGE(present, "MPGEN_REQUIRE_GPU is set and no GPU is present");
  return present;
}
#endif

// An operation of a field as check_field runs it: its words and its renderings by address,
// so that the check compiles once a field rather than once an operation.
struct FieldOp {
  unsigned in_words, out_words;
  void (*host)(uint32_t* y, const uint32_t* x);
  std::vector<uint32_t> (*gpu)(std::size_t n, const std::vector<uint32_t>& in);  // built by nvcc
};

template <class O>
FieldOp field_op() {
  FieldOp op{O::in_words, O::out_words, &O::host, nullptr};
#ifdef __CUDACC__
  op.gpu = [](std::size_t n, const std::vector<uint32_t>& in) {
    uint32_t *d_in = nullptr, *d_out = nullptr;
    REQUIRE(cudaMalloc(&d_in, in.size() * 4) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_out, n * O::out_words * 4) == cudaSuccess);
    cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
    each<O><<<unsigned((n + 127) / 128), 128>>>(n, d_in, d_out);
    std::vector<uint32_t> out(n * O::out_words);
    REQUIRE(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaFree(d_in);
    cudaFree(d_out);
    return out;
  };
#endif
  return op;
}

template <class Module>
FieldOp module_op(Op op) {
  switch (op) {
    case Op::add: return field_op<typename Module::add>();
    case Op::sub: return field_op<typename Module::sub>();
    case Op::neg: return field_op<typename Module::neg>();
    case Op::mul: return field_op<typename Module::mul>();
    case Op::mul_r1: return field_op<typename Module::mul_r1>();
    case Op::mul_r3: return field_op<typename Module::mul_r3>();
    case Op::from_binary: return field_op<typename Module::from_binary>();
    case Op::to_binary: break;
  }
  return field_op<typename Module::to_binary>();
}

// Every operation on every value, and the binary ones on pairs of them (the first operand
// every first_step-th value, the second every third), on the host and, built by nvcc with a
// GPU present, on the GPU.
template <class Module, unsigned K>
void check_field(unsigned random_count, unsigned first_step) {
  const Field<K> f(Module::radix);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, 22 + K);
  const std::vector<Mpz> values = f.values(state, random_count);
  Mpz want;
  for (Op op : {Op::add, Op::sub, Op::neg, Op::mul, Op::mul_r1, Op::mul_r3, Op::from_binary, Op::to_binary}) {
    const FieldOp o = module_op<Module>(op);
    const unsigned operands = o.in_words / Module::words;
    std::vector<uint32_t> in, out_host, want_words;
    std::size_t n = 0;
    for (std::size_t a = 0; a < values.size(); a += operands == 2 ? first_step : 1)
      for (std::size_t b = 0; b < (operands == 2 ? values.size() : 1); b += operands == 2 ? 3 : 1) {
        const auto x = op == Op::from_binary ? f.binary(values[a].v) : f.words(values[a].v);
        const auto y = f.words(values[b].v);
        in.insert(in.end(), x.begin(), x.end());
        if (operands == 2) in.insert(in.end(), y.begin(), y.end());
        expected(f, op, want.v, values[a].v, values[b].v);
        const auto w = op == Op::to_binary ? f.binary(want.v) : f.words(want.v);
        want_words.insert(want_words.end(), w.begin(), w.end());
        ++n;
      }
    out_host.resize(n * o.out_words);
    for (std::size_t j = 0; j < n; ++j) o.host(&out_host[j * o.out_words], &in[j * o.in_words]);
    INFO(op_names[int(op)] << " modulo (r^" << K << " + 1)");
    for (std::size_t j = 0; j < n; ++j) {
      CAPTURE(j);
      REQUIRE(std::vector<uint32_t>(out_host.begin() + j * o.out_words, out_host.begin() + (j + 1) * o.out_words) ==
              std::vector<uint32_t>(want_words.begin() + j * o.out_words, want_words.begin() + (j + 1) * o.out_words));
    }
#ifdef __CUDACC__
    if (!gpu_present()) continue;
    INFO("on the GPU");
    REQUIRE(o.gpu(n, in) == want_words);
#endif
  }
  gmp_randclear(state);
}

// The FFT of n points (headers/gf_fft.cuh) on the host and, built by nvcc with a GPU present, on
// the GPU: `sampled` of its outputs (every one where sampled >= n) against the direct DFT
// sum_i x_i w^(i j) by GMP, w the header's root, which GMP checks is a primitive n-th root
// whose n/K-th power is r; the inverse gives the points back; the GPU's output is the host's.
template <class Module, unsigned K>
void check_fft(std::size_t n, std::size_t sampled) {
  namespace fft = mpgen::gf_fft;
  constexpr unsigned W = Module::words;
  const Field<K> f(Module::radix);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, n + K);
  const std::vector<Mpz> edges = f.values(state, 0);
  std::vector<Mpz> x(n);
  std::vector<uint32_t> points;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) mpz_set(x[i].v, edges[i / 3 % edges.size()].v);
    else mpz_urandomm(x[i].v, state, f.p.v);
    const auto w = f.words(x[i].v);
    points.insert(points.end(), w.begin(), w.end());
  }
  unsigned log_n = 0;
  while ((std::size_t(1) << log_n) < n) ++log_n;
  Mpz w, t, sum, want;
  f.value(w.v, Module::root(log_n));
  mpz_powm_ui(t.v, w.v, n / 2, f.p.v);
  mpz_add_ui(t.v, t.v, 1);
  REQUIRE(mpz_cmp(t.v, f.p.v) == 0);  // w^(n/2) = -1: a primitive n-th root
  mpz_powm_ui(t.v, w.v, n / (2 * K), f.p.v);
  REQUIRE(mpz_cmp(t.v, f.r.v) == 0);  // DFT_K's root is r: its products are shifts
  std::vector<uint32_t> spectrum = points;
  fft::host_transform<Module>(spectrum.data(), n, false);
  INFO("FFT of " << n << " points modulo (r^" << K << " + 1)");
  const std::size_t step = sampled >= n ? 1 : n / sampled + 1;
  for (std::size_t j = 0; j < n; j += step) {
    mpz_set_ui(sum.v, 0);
    for (std::size_t i = 0; i < n; ++i) {
      mpz_powm_ui(t.v, w.v, (i * j) % n, f.p.v);
      mpz_addmul(sum.v, t.v, x[i].v);
    }
    mpz_mod(sum.v, sum.v, f.p.v);
    CAPTURE(j);
    REQUIRE(f.words(sum.v) == std::vector<uint32_t>(spectrum.begin() + j * W, spectrum.begin() + (j + 1) * W));
  }
  std::vector<uint32_t> back = spectrum;
  fft::host_transform<Module>(back.data(), n, true);
  REQUIRE(back == points);
#ifdef __CUDACC__
  if (!gpu_present()) return gmp_randclear(state);
  uint32_t *data = nullptr, *scratch = nullptr, *table = nullptr, *result = nullptr;
  const std::size_t bytes = n * W * 4;
  REQUIRE(cudaMalloc(&data, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&scratch, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&table, bytes / K) == cudaSuccess);
  REQUIRE(cudaMemcpy(data, points.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(fft::device_twiddles<Module>(table, n) == cudaSuccess);
  REQUIRE(fft::device_transform<Module>(data, scratch, table, n, false, &result) == cudaSuccess);
  std::vector<uint32_t> gpu(n * W);
  REQUIRE(cudaMemcpy(gpu.data(), result, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  INFO("on the GPU");
  REQUIRE(gpu == spectrum);
  uint32_t* other = result == data ? scratch : data;
  REQUIRE(fft::device_transform<Module>(result, other, table, n, true, &result) == cudaSuccess);
  REQUIRE(cudaMemcpy(gpu.data(), result, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(gpu == points);
  cudaFree(data), cudaFree(scratch), cudaFree(table);
#endif
  gmp_randclear(state);
}

// Polynomials of na and nb coefficients multiplied through the FFT of n points (n >= na + nb
// - 1) against the schoolbook product by GMP, on the host and the GPU.
template <class Module, unsigned K>
void check_product(std::size_t na, std::size_t nb, std::size_t n) {
  namespace fft = mpgen::gf_fft;
  constexpr unsigned W = Module::words;
  const Field<K> f(Module::radix);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, na * nb + K);
  const std::vector<Mpz> edges = f.values(state, 0);
  std::vector<Mpz> a(na), b(nb);
  std::vector<uint32_t> pa(n * W, 0), pb(n * W, 0);
  for (std::size_t i = 0; i < na; ++i) {
    if (i % 2) mpz_urandomm(a[i].v, state, f.p.v);
    else mpz_set(a[i].v, edges[i / 2 % edges.size()].v);
    const auto w = f.words(a[i].v);
    std::copy(w.begin(), w.end(), pa.begin() + i * W);
  }
  for (std::size_t i = 0; i < nb; ++i) {
    mpz_urandomm(b[i].v, state, f.p.v);
    if (i == 0) mpz_sub_ui(b[i].v, f.p.v, 1);  // p - 1 (top digit r)
    const auto w = f.words(b[i].v);
    std::copy(w.begin(), w.end(), pb.begin() + i * W);
  }
  std::vector<uint32_t> want(n * W, 0);
  Mpz sum;
  for (std::size_t j = 0; j + 1 < na + nb; ++j) {
    mpz_set_ui(sum.v, 0);
    for (std::size_t i = j >= nb ? j - nb + 1 : 0; i <= j && i < na; ++i) mpz_addmul(sum.v, a[i].v, b[j - i].v);
    mpz_mod(sum.v, sum.v, f.p.v);
    const auto w = f.words(sum.v);
    std::copy(w.begin(), w.end(), want.begin() + j * W);
  }
  INFO("product of polynomials of " << na << " and " << nb << " coefficients through " << n << " points, r^" << K
                                    << " + 1");
  std::vector<uint32_t> ha = pa, hb = pb;
  fft::host_cyclic_product<Module>(ha.data(), hb.data(), n);
  REQUIRE(ha == want);
#ifdef __CUDACC__
  if (!gpu_present()) return gmp_randclear(state);
  const std::size_t bytes = n * W * 4;
  uint32_t *da, *db, *scratch, *table, *result;
  REQUIRE(cudaMalloc(&da, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&db, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&scratch, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&table, bytes / K) == cudaSuccess);
  cudaMemcpy(da, pa.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, pb.data(), bytes, cudaMemcpyHostToDevice);
  REQUIRE(fft::device_twiddles<Module>(table, n) == cudaSuccess);
  REQUIRE(fft::device_cyclic_product<Module>(da, db, scratch, table, n, &result) == cudaSuccess);
  std::vector<uint32_t> gpu(n * W);
  REQUIRE(cudaMemcpy(gpu.data(), result, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  INFO("on the GPU");
  REQUIRE(gpu == want);
  cudaFree(da), cudaFree(db), cudaFree(scratch), cudaFree(table);
#endif
  gmp_randclear(state);
}

// count products of integers of `words` words through the field's FFT (headers/gf_products.cuh)
// against GMP's mpz_mul: all-ones operands first (the longest carry chains), then zero and
// one beside random ones, then random ones; on the host and, built by nvcc with a GPU
// present, on the GPU.
template <class Module>
void check_integer_products(std::size_t words, std::size_t count) {
  namespace gp = mpgen::gf_products;
  const gp::Plan plan = gp::plan<Module>(words);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  gmp_randseed_ui(state, words);
  std::vector<uint32_t> a(words * count), b(words * count), want(2 * words * count, 0);
  Mpz x, y, z;
  for (std::size_t t = 0; t < count; ++t) {
    mpz_urandomb(x.v, state, 32 * words);
    mpz_urandomb(y.v, state, 32 * words);
    if (t == 0) mpz_set_ui(x.v, 1), mpz_mul_2exp(x.v, x.v, 32 * words), mpz_sub_ui(x.v, x.v, 1), mpz_set(y.v, x.v);
    if (t == 1) mpz_set_ui(x.v, 0);
    if (t == 2) mpz_set_ui(y.v, 1);
    mpz_export(&a[t * words], nullptr, -1, 4, 0, 0, x.v);
    mpz_export(&b[t * words], nullptr, -1, 4, 0, 0, y.v);
    mpz_mul(z.v, x.v, y.v);
    mpz_export(&want[t * 2 * words], nullptr, -1, 4, 0, 0, z.v);
  }
  INFO(count << " products of " << words << " words through " << plan.n << " points of " << plan.chunk_words
             << " words, r^" << Module::digits << " + 1");
  std::vector<uint32_t> host(2 * words * count, 0xdeadbeef);
  gp::host_products<Module>(a.data(), b.data(), host.data(), plan, count);
  REQUIRE(host == want);
#ifdef __CUDACC__
  if (!gpu_present()) return gmp_randclear(state);
  uint32_t *da, *db, *dout;
  void* workspace;
  REQUIRE(cudaMalloc(&da, a.size() * 4) == cudaSuccess);
  REQUIRE(cudaMalloc(&db, b.size() * 4) == cudaSuccess);
  REQUIRE(cudaMalloc(&dout, want.size() * 4) == cudaSuccess);
  REQUIRE(cudaMalloc(&workspace, gp::workspace_bytes<Module>(plan, count)) == cudaSuccess);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xde, want.size() * 4);
  REQUIRE(gp::device_products<Module>(da, db, dout, plan, count, workspace) == cudaSuccess);
  std::vector<uint32_t> gpu(want.size());
  REQUIRE(cudaMemcpy(gpu.data(), dout, gpu.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  INFO("on the GPU");
  REQUIRE(gpu == want);
  cudaFree(da), cudaFree(db), cudaFree(dout), cudaFree(workspace);
#endif
  gmp_randclear(state);
}

}  // namespace

TEST_CASE("products of polynomials over table 3.1's fields through the FFT agree with GMP's schoolbook") {
  check_product<mpgen::gf2::module, 2>(9, 8, 16);
  check_product<mpgen::gf2::module, 2>(100, 157, 256);
  check_product<mpgen::gf4::module, 4>(300, 200, 512);
  check_product<mpgen::gf8::module, 8>(128, 129, 256);
  check_product<mpgen::gf16::module, 16>(40, 25, 1024);
}

TEST_CASE("the FFT over table 3.1's fields agrees with the direct DFT by GMP and inverts") {
  check_fft<mpgen::gf2::module, 2>(16, 16);
  check_fft<mpgen::gf2::module, 2>(256, 256);
  check_fft<mpgen::gf2::module, 2>(4096, 16);
  check_fft<mpgen::gf4::module, 4>(64, 64);
  check_fft<mpgen::gf4::module, 4>(512, 32);
  check_fft<mpgen::gf8::module, 8>(256, 256);
  check_fft<mpgen::gf8::module, 8>(4096, 8);
  check_fft<mpgen::gf16::module, 16>(1024, 16);
}

TEST_CASE("products of integers through the FFT agree with GMP's") {
  check_integer_products<mpgen::gf8::module>(1, 4);
  check_integer_products<mpgen::gf8::module>(7, 4);
  check_integer_products<mpgen::gf8::module>(64, 5);
  check_integer_products<mpgen::gf8::module>(1000, 4);
  check_integer_products<mpgen::gf8::module>(8192, 3);  // 2^18 bits: 1171 chunks of 7 words, 4096 points
  check_integer_products<mpgen::gf2::module>(40, 4);
  check_integer_products<mpgen::gf16::module>(512, 3);
  CHECK(mpgen::gf_products::plan<mpgen::gf8::module>(8192).n == 4096);
  CHECK(mpgen::gf_products::plan<mpgen::gf8::module>(8192).chunk_words == 7);
}

TEST_CASE("the FFT refuses lengths that are no power of K") {
  CHECK_THROWS_WITH_AS(mpgen::gf_fft::host_twiddles<mpgen::gf8::module>(32),
                       "gf FFT: 32 points; give K^e points (K = 2k = 16, e >= 1), at most 2^32", std::invalid_argument);
  std::vector<uint32_t> one(16);
  CHECK_THROWS_AS(mpgen::gf_fft::host_transform<mpgen::gf8::module>(one.data(), 1, false), std::invalid_argument);
}

TEST_CASE("generalized Fermat fields of Mohajerani's table 3.1 agree with GMP") {
  check_field<mpgen::gf2::module, 2>(40, 1);
  check_field<mpgen::gf4::module, 4>(40, 1);
  check_field<mpgen::gf8::module, 8>(40, 1);
  check_field<mpgen::gf16::module, 16>(40, 1);
}

TEST_CASE("above k = 16, where mul and the conversions are loops (headers/gf_loops.cuh), they agree with GMP") {
  check_field<mpgen::gf32::module, 32>(20, 5);
  check_field<mpgen::gf64::module, 64>(10, 15);
  check_field<mpgen::gf128::module, 128>(4, 40);
}

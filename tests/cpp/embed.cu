// Embedding: this file includes one generated header and nothing else of mpgen (no
// runtime), compiles with nvcc, and its kernels must give GMP's answers: on the GPU
// when one is present, and on the CPU through the header's host rendering always.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <gmp.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "mpgen_u131.cuh"
#include "on_gpu.cuh"

namespace {

// The value of words [first, first + count) of instance j (interleaved, n instances).
void value(mpz_t v, const std::vector<uint32_t>& words, std::size_t n, std::size_t j, unsigned first,
           unsigned count) {
  std::vector<uint32_t> limbs(count);
  for (unsigned i = 0; i < count; ++i) limbs[i] = words[(first + i) * n + j];
  mpz_import(v, count, -1, 4, 0, 0, limbs.data());
}

template <class Op>
void check(void (*reference)(mpz_t, const mpz_t, const mpz_t)) {
  constexpr std::size_t n = 4096;
  constexpr unsigned limbs = Op::operand_limbs[0];
  std::mt19937 rng(131);
  std::vector<uint32_t> in(Op::in_words * n, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (unsigned k = 0; k < Op::operands; ++k)
      for (unsigned i = 0; i < limbs; ++i) {
        uint32_t w = j % 7 == 0 ? 0xffffffffu : rng();
        if (i == limbs - 1) w &= (1u << (Op::bits % 32)) - 1;  // 131 bits: 3 in the top limb
        in[(k * limbs + i) * n + j] = w;
      }
  std::vector<std::vector<uint32_t>> results;
  std::vector<uint32_t> host(Op::out_words * n);
  mpgen::host_batch<Op>(n, mpgen::Layout::interleaved, in.data(), host.data());
  results.push_back(host);
  if (gpu_present()) {
    results.push_back(on_gpu<Op>(n, in, mpgen::Layout::interleaved));
    // The contiguous layout, staged through shared memory and not, over a last warp of 27
    // instances: the host's words.
    const std::size_t m = n - 5;
    std::vector<uint32_t> contiguous(Op::out_words * m);
    mpgen::host_batch<Op>(m, mpgen::Layout::contiguous, in.data(), contiguous.data());
    static_assert(Op::stage_stride != 0, "the staged path is what this checks");
    for (bool staged : {true, false})
      CHECK_MESSAGE(on_gpu<Op>(m, in, mpgen::Layout::contiguous, staged) == contiguous,
                    Op::name << ": contiguous layout on the GPU, " << (staged ? "staged" : "unstaged"));
  }

  mpz_t a, b, want, got;
  mpz_inits(a, b, want, got, nullptr);
  for (const auto& out : results) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < n; ++j) {
      value(a, in, n, j, 0, limbs);
      value(b, in, n, j, limbs, limbs);
      reference(want, a, Op::operands == 2 ? b : a);
      value(got, out, n, j, 0, Op::out_words);
      wrong += mpz_cmp(got, want) != 0;
    }
    CHECK_MESSAGE(wrong == 0, Op::name << ": " << wrong << " of " << n << " differ from GMP ("
                                      << (&out == &results.front() ? "CPU" : "GPU") << ")");
  }
  mpz_clears(a, b, want, got, nullptr);
}

}  // namespace

TEST_CASE("a generated header alone gives GMP's products and squares") {
  check<mpgen::u131::mul>(mpz_mul);
  check<mpgen::u131::sqr>(mpz_mul);
  MESSAGE("GPU path " << (gpu_present() ? "checked" : "not checked: no GPU"));
}

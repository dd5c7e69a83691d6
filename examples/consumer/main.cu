// mpgen's example consumer: 131- and 256-bit add and mul from headers generated at
// build time, one instance per GPU thread (on the CPU, through the same instruction
// lists, where no GPU is present), checked against GMP.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "mpgen/runtime.hpp"
#include "mpgen_u131.cuh"
#include "mpgen_u256.cuh"

namespace {

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// Runs Op over n instances (interleaved words) on the GPU or the CPU.
template <class Op>
std::vector<uint32_t> run(std::size_t n, const std::vector<uint32_t>& in, bool gpu) {
  std::vector<uint32_t> out(Op::out_words * n);
  if (!gpu) {
    mpgen::host_batch<Op>(n, mpgen::Layout::interleaved, in.data(), out.data());
    return out;
  }
  uint32_t *d_in, *d_out;
  cudaMalloc(&d_in, in.size() * 4);
  cudaMalloc(&d_out, out.size() * 4);
  cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  const unsigned blocks = unsigned((n + Op::block_threads - 1) / Op::block_threads);  // the header's geometry
  mpgen::device_batch<Op><<<blocks, Op::block_threads>>>(n, mpgen::Layout::interleaved, d_in, d_out);
  cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return out;
}

// a = 2^bits - 1 - j, b = j * 0x9e3779b9 + 1: carries run end to end.
template <class Op>
int check(bool gpu) {
  constexpr std::size_t n = 1000;
  constexpr unsigned limbs = Op::operand_limbs[0];
  std::vector<uint32_t> in(Op::in_words * n);
  mpz_t a, b, want, got;
  mpz_inits(a, b, want, got, nullptr);
  std::vector<std::vector<uint32_t>> operands(2 * n);
  for (std::size_t j = 0; j < n; ++j) {
    mpz_set_ui(a, 1);
    mpz_mul_2exp(a, a, Op::bits);
    mpz_sub_ui(a, a, 1 + j);
    mpz_set_ui(b, uint32_t(j * 0x9e3779b9u + 1));
    operands[2 * j] = mpgen::from_mpz(a, Op::bits);
    operands[2 * j + 1] = mpgen::from_mpz(b, Op::bits);
    for (unsigned i = 0; i < limbs; ++i) {
      in[i * n + j] = operands[2 * j][i];
      in[(limbs + i) * n + j] = operands[2 * j + 1][i];
    }
  }
  const auto out = run<Op>(n, in, gpu);
  int wrong = 0;
  for (std::size_t j = 0; j < n; ++j) {
    mpgen::to_mpz(a, operands[2 * j]);
    mpgen::to_mpz(b, operands[2 * j + 1]);
    if (std::string(Op::name) == "add") mpz_add(want, a, b);
    else mpz_mul(want, a, b);
    std::vector<uint32_t> result(Op::result_limbs);
    for (unsigned w = 0; w < Op::result_limbs; ++w) result[w] = out[w * n + j];
    mpgen::to_mpz(got, result);
    if (Op::flag_words)  // add's carry out, worth 2^bits
      mpz_set_ui(b, out[Op::result_limbs * n + j]), mpz_mul_2exp(b, b, Op::bits),
          mpz_add(got, got, b);
    wrong += mpz_cmp(got, want) != 0;
  }
  std::printf("%u-bit %s on the %s: %zu instances, %d wrong\n", Op::bits, Op::name,
              gpu ? "GPU" : "CPU", n, wrong);
  mpz_clears(a, b, want, got, nullptr);
  return wrong;
}

}  // namespace

int main() {
  const bool gpu = have_gpu();
  const int wrong = check<mpgen::u131::add>(gpu) + check<mpgen::u131::mul>(gpu) +
                    check<mpgen::u256::add>(gpu) + check<mpgen::u256::mul>(gpu);
  std::printf("%s\n", wrong ? "FAILED: results differ from GMP" : "all agree with GMP");
  return wrong ? 1 : 0;
}

// GMP's rate on every core of the machine, the group tier's peer past 2^18 bits (the H100's
// and H200's hosts: 16 cores): `gmp_rate BITS OP...` runs OP over 4 instances a core,
// each thread its own (OpenMP), until a second has passed, and prints its operations per
// second. Operands random of BITS bits; div_qr divides by one of BITS / 2 bits (GMP's
// division costs by the quotient's size: the group tier's is the same for any operands);
// mul_lo is mpz_mul and the low BITS bits. Build:
//   g++ -O2 -fopenmp bench/group/gmp_rate.cpp -lgmp -o build/group-sweep/gmp_rate
#include <gmp.h>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Instance {
  mpz_t a, b, d, q, r;  // d: the divisor, of bits / 2 bits
};

void run(const std::string& op, Instance& x, unsigned bits) {
  if (op == "add") mpz_add(x.q, x.a, x.b);
  else if (op == "mul") mpz_mul(x.q, x.a, x.b);
  else if (op == "sqr") mpz_mul(x.q, x.a, x.a);
  else if (op == "mul_lo") mpz_mul(x.q, x.a, x.b), mpz_fdiv_r_2exp(x.q, x.q, bits);
  else if (op == "div_qr") mpz_tdiv_qr(x.q, x.r, x.a, x.d);
  else if (op == "sqrt") mpz_sqrt(x.q, x.a);
  else std::fprintf(stderr, "gmp_rate: unknown operation %s (add mul sqr mul_lo div_qr sqrt)\n", op.c_str()), std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return std::fprintf(stderr, "usage: gmp_rate BITS OP...\n"), 2;
  const unsigned bits = unsigned(std::strtoul(argv[1], nullptr, 10));
  const int cores = omp_get_max_threads();
  std::vector<Instance> instances(4 * cores);
  gmp_randstate_t state;
  gmp_randinit_default(state);
  for (Instance& x : instances) {
    mpz_inits(x.a, x.b, x.d, x.q, x.r, nullptr);
    mpz_urandomb(x.a, state, bits);
    mpz_urandomb(x.b, state, bits);
    mpz_urandomb(x.d, state, bits / 2);
    mpz_setbit(x.d, bits / 2 - 1);
  }
  for (int k = 2; k < argc; ++k) {
    const std::string op = argv[k];
    std::size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    while (seconds < 1) {
#pragma omp parallel for schedule(static)
      for (std::size_t j = 0; j < instances.size(); ++j) run(op, instances[j], bits);
      done += instances.size();
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::printf("gmp %s %u bits on %d threads: %.4g ops/s\n", op.c_str(), bits, cores, done / seconds);
  }
}

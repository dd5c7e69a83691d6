// CGBN's powm_odd workload's check, shared by the per-thread and the group rows: the first
// instances of a batch against GMP's mpz_powm, their operands as the kernels read them
// (rows interleaved: a, then the exponent's E words, then p; a below p by its top bit
// cleared, p odd of the full size by its low and top bits set).
#pragma once
#include <gmp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

inline void check_powm(const std::vector<uint32_t>& host, const std::vector<uint32_t>& got, std::size_t n,
                       unsigned N, unsigned E, unsigned bits, const char* what) {
  mpz_t a, e, p, want, result;
  mpz_inits(a, e, p, want, result, nullptr);
  for (std::size_t j = 0; j < std::min<std::size_t>(n, 64); ++j) {
    std::vector<uint32_t> aw(N), ew(E), pw(N), rw(N);
    for (unsigned i = 0; i < N; ++i) {
      aw[i] = host[i * n + j] & (i == N - 1 ? 0x7fffffffu : ~0u);
      pw[i] = host[(N + E + i) * n + j] | (i == 0 ? 1u : 0u) | (i == N - 1 ? 0x80000000u : 0u);
      rw[i] = got[i * n + j];
    }
    for (unsigned i = 0; i < E; ++i) ew[i] = host[(N + i) * n + j];
    mpz_import(a, N, -1, 4, 0, 0, aw.data());
    mpz_import(e, E, -1, 4, 0, 0, ew.data());
    mpz_import(p, N, -1, 4, 0, 0, pw.data());
    mpz_import(result, N, -1, 4, 0, 0, rw.data());
    mpz_powm(want, a, e, p);
    if (mpz_cmp(want, result) != 0) {
      std::fprintf(stderr, "mpgen-bench: error: %s at %u bits: instance %zu differs from GMP\n", what, bits, j);
      std::exit(1);
    }
  }
  mpz_clears(a, e, p, want, result, nullptr);
}

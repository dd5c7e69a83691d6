// What every mpgen-bench source shares: a row of the table, the ceilings measured at the
// start of the run, what the command line asked for, the peers' figures. Each family of
// rows is a source of its own (bench/*_rows.cu, each with its own generated sizes), so
// that they compile side by side; bench/measures.cuh has the measures they share.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

// Fields, with sppark's chained Montgomery product on the H100 (measured 2026-11-22).
#define MPGEN_BENCH_FIELDS(X) \
  X(bn254_fp, 60.1e9) X(bls12_381_fp, 27.3e9) X(secp256k1, 0) X(p256, 0) X(p384, 0) X(curve25519, 0) X(pallas, 0)

namespace bench {

struct Row {
  std::string workload, device;
  unsigned bits;
  double rate;           // operations per second
  double ceiling;        // fraction of the relevant ceiling (GPU) or rate / GMP's (CPU); 0 if none
  std::string against;   // what `ceiling` is a fraction of
  double peer;           // a peer's figure for the same workload, 0 if none
  std::string peer_name;
};

struct Ceilings {
  double copy_bytes_per_s, multiply_halves_per_s;
};

// What the run measures: the command line's choices, the ceilings, this binary's SASS.
struct Setting {
  std::vector<unsigned> bits;       // empty: every size
  std::vector<std::string> fields;  // empty: every field unless bits are given
  bool quick;
  Ceilings ceilings;
  std::string sass;  // empty without cuobjdump

  bool wanted(unsigned b) const { return bits.empty() || std::find(bits.begin(), bits.end(), b) != bits.end(); }
  std::size_t chain_n() const { return quick ? 4096 : 200000; }  // threads of a chained product
  std::size_t powm_n(unsigned b) const {  // instances of a per-thread exponentiation
    return quick ? 1024 : std::size_t(1) << (b <= 256 ? 20 : b <= 1024 ? 18 : 16);
  }
};

constexpr unsigned powm_exponent_bits = 512;  // CGBN's powm_odd workload

// The families of rows (bench/thread_rows.cu, group_rows.cu, field_rows.cu, powm_rows.cu,
// runtime_rows.cu).
void thread_rows(const Setting& s, std::vector<Row>& rows);
void cpu_rows(const Setting& s, std::vector<Row>& rows);
void cpu_field_rows(const Setting& s, std::vector<Row>& rows);
void cpu_powm_rows(const Setting& s, std::vector<Row>& rows);
void cpu_scaling_rows(const Setting& s, std::vector<Row>& rows);  // (scaling_rows.cpp: the runtime's)
void group_rows(const Setting& s, std::vector<Row>& rows);
void field_rows(const Setting& s, std::vector<Row>& rows);
void powm_rows(const Setting& s, std::vector<Row>& rows);
void runtime_modulus_rows(const Setting& s, std::vector<Row>& rows);

// CGBN's mul on the H100, operations per second (measured 2026-11-22).
inline double cgbn_mul(unsigned bits) {
  switch (bits) {
    case 128: return 32.4e9;
    case 256: return 29.3e9;
    case 512: return 13.9e9;
    case 1024: return 4.00e9;
    case 2048: return 1.40e9;
    case 4096: return 355e6;
    case 8192: return 99.1e6;
    default: return 0;
  }
}

// CGBN's powm_odd on the H100 (512-bit exponent, its own modulus per instance), per second.
inline double cgbn_powm(unsigned bits) {
  switch (bits) {
    case 128: return 28.8e6;
    case 256: return 24.3e6;
    case 512: return 13.4e6;
    case 1024: return 4.10e6;
    case 2048: return 1.28e6;
    case 4096: return 325.5e3;  // 2026-11-25's run, TPI 16 and 32
    case 8192: return 82.69e3;
    default: return 0;
  }
}

// CGBN's mont_reduce on the H100 (a double-width value, its low half replaced by the result
// each time), per second.
inline double cgbn_mont_reduce(unsigned bits) {
  switch (bits) {
    case 128: return 19.5e9;
    case 256: return 18.8e9;
    case 512: return 11.7e9;
    case 1024: return 3.77e9;
    case 2048: return 1.35e9;
    case 4096: return 347.2e6;
    case 8192: return 90.20e6;
    default: return 0;
  }
}

// The 32-bit multiply halves one pass of `kernel`'s loop issues, read from the SASS
// between the loop's backward branch and its target: an IMAD.WIDE is two halves, any
// other IMAD one, except the moves, shifts and adds ptxas also puts on IMAD. These are
// what the multiply-add ceiling is charged with; the instruction list's own count is
// higher where ptxas drops unused results (CGBN's workload keeps only the low half).
// 0 when the SASS or the loop cannot be found.
unsigned loop_multiply_halves(const std::string& sass, const void* kernel);  // mpgen_bench.cu

}  // namespace bench

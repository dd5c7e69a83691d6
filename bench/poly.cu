// Poly's sizes for mpgen-bench (bench/workloads.cuh), apart from its main source: here each
// size holds add and mul_lo on mul_lo's threads (CMakeLists.txt: THREADS mul_lo), where
// mpgen-bench's own modules give add its faster geometry of its own.
#include "workloads.cuh"
#include "mpgen_u131072.cuh"
#include "mpgen_u16384.cuh"
#include "mpgen_u2048_group.cuh"
#include "mpgen_u262144.cuh"
#include "mpgen_u32768.cuh"
#include "mpgen_u4096.cuh"
#include "mpgen_u65536.cuh"
#include "mpgen_u8192.cuh"

namespace workloads {

Launch poly(unsigned bits) {
  switch (bits) {
#define POLY_SIZE(m, b) \
  case b: return launch<mpgen::m::add, mpgen::m::mul_lo, true>;
    POLY_SIZE(u2048_group, 2048) POLY_SIZE(u4096, 4096) POLY_SIZE(u8192, 8192) POLY_SIZE(u16384, 16384)
    POLY_SIZE(u32768, 32768) POLY_SIZE(u65536, 65536) POLY_SIZE(u131072, 131072) POLY_SIZE(u262144, 262144)
#undef POLY_SIZE
    default: return nullptr;
  }
}

}  // namespace workloads

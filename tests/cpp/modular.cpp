// The modular operations against GMP (the checks: modular.hpp): seven odd moduli of 64 to
// 521 bits and two even ones (tests/cpp/CMakeLists.txt); the prime fields in
// modular_primes.cpp, the other presets in modular_presets.cpp (three files, so that the
// build compiles them side by side).
// Built by nvcc where CUDA is, so that the kernels run on the GPU too.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <gmp.h>  // first: the element types then convert from and to mpz_t

#include "mpgen_e128.cuh"
#include "mpgen_e381.cuh"
#include "mpgen_m128.cuh"
#include "mpgen_m131.cuh"
#include "mpgen_m255.cuh"
#include "mpgen_m256.cuh"
#include "mpgen_m384.cuh"
#include "mpgen_m521.cuh"
#include "mpgen_m64.cuh"
#include "modular.hpp"  // after the headers: it names mpgen::device_batch
#include "element.hpp"

MODULAR_CASE(m64)
MODULAR_CASE(m128)
MODULAR_CASE(m131)
MODULAR_CASE(m255)
MODULAR_CASE(m256)
MODULAR_CASE(m384)
MODULAR_CASE(m521)
EVEN_MODULUS_CASE(e128)
EVEN_MODULUS_CASE(e381)
ELEMENT_CASE(m64)
ELEMENT_CASE(m128)
ELEMENT_CASE(m131)
ELEMENT_CASE(m255)
ELEMENT_CASE(m256)
ELEMENT_CASE(m384)
ELEMENT_CASE(m521)
ELEMENT_CASE(e128)
ELEMENT_CASE(e381)

// The modular operations of the prime fields that curves use against GMP (the checks:
// modular.hpp): the NIST curves', secp256k1's and Curve25519's presets and a 1024-bit prime
// (tests/cpp/CMakeLists.txt), whose loops run over the 64-bit products.
#include <gmp.h>  // first: the element types then convert from and to mpz_t

#include "mpgen_curve25519.cuh"
#include "mpgen_p224.cuh"
#include "mpgen_p256.cuh"
#include "mpgen_p384.cuh"
#include "mpgen_p521.cuh"
#include "mpgen_q1024.cuh"
#include "mpgen_secp256k1.cuh"
#include "modular.hpp"  // after the headers: it names mpgen::device_batch
#include "element.hpp"

PRIME_FIELD_CASE(secp256k1)
PRIME_FIELD_CASE(p224)
PRIME_FIELD_CASE(p256)
PRIME_FIELD_CASE(p384)
PRIME_FIELD_CASE(p521)
PRIME_FIELD_CASE(curve25519)
PRIME_FIELD_CASE(q1024)
PRIME_ELEMENT_CASE(secp256k1)
PRIME_ELEMENT_CASE(p224)
PRIME_ELEMENT_CASE(p256)
PRIME_ELEMENT_CASE(p384)
PRIME_ELEMENT_CASE(p521)
PRIME_ELEMENT_CASE(curve25519)
PRIME_ELEMENT_CASE(q1024)

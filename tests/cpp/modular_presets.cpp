// The modular operations of the pairing, Pasta and Certicom presets against GMP (the
// checks: modular.hpp); a second file so that the two compile in parallel.
#include <gmp.h>  // first: the element types then convert from and to mpz_t

#include "mpgen_bls12_377_fp.cuh"
#include "mpgen_bls12_377_fr.cuh"
#include "mpgen_bls12_381_fp.cuh"
#include "mpgen_bls12_381_fr.cuh"
#include "mpgen_bn254_fp.cuh"
#include "mpgen_bn254_fr.cuh"
#include "mpgen_eccp109.cuh"
#include "mpgen_eccp131.cuh"
#include "mpgen_eccp163.cuh"
#include "mpgen_eccp191.cuh"
#include "mpgen_eccp239.cuh"
#include "mpgen_pallas.cuh"
#include "mpgen_vesta.cuh"
#include "modular.hpp"  // after the headers: it names mpgen::device_batch
#include "element.hpp"

PRIME_FIELD_CASE(bn254_fp)
PRIME_FIELD_CASE(bn254_fr)
PRIME_FIELD_CASE(bls12_381_fp)
PRIME_FIELD_CASE(bls12_381_fr)
PRIME_FIELD_CASE(bls12_377_fp)
PRIME_FIELD_CASE(bls12_377_fr)
PRIME_FIELD_CASE(pallas)
PRIME_FIELD_CASE(vesta)
PRIME_FIELD_CASE(eccp109)
PRIME_FIELD_CASE(eccp131)
PRIME_FIELD_CASE(eccp163)
PRIME_FIELD_CASE(eccp191)
PRIME_FIELD_CASE(eccp239)
LAZY_CASE(bn254_fp)
LAZY_CASE(bls12_381_fp)
LAZY_CASE(eccp131)
PRIME_ELEMENT_CASE(bn254_fp)
PRIME_ELEMENT_CASE(bn254_fr)
PRIME_ELEMENT_CASE(bls12_381_fp)
PRIME_ELEMENT_CASE(bls12_381_fr)
PRIME_ELEMENT_CASE(bls12_377_fp)
PRIME_ELEMENT_CASE(bls12_377_fr)
PRIME_ELEMENT_CASE(pallas)
PRIME_ELEMENT_CASE(vesta)
PRIME_ELEMENT_CASE(eccp109)
PRIME_ELEMENT_CASE(eccp131)
PRIME_ELEMENT_CASE(eccp163)
PRIME_ELEMENT_CASE(eccp191)
PRIME_ELEMENT_CASE(eccp239)

// The modular operations of the pairing, Pasta and Certicom presets against GMP (the
// checks: modular.hpp); a second file so that the two compile in parallel.
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

MODULAR_CASE(bn254_fp)
MODULAR_CASE(bn254_fr)
MODULAR_CASE(bls12_381_fp)
MODULAR_CASE(bls12_381_fr)
MODULAR_CASE(bls12_377_fp)
MODULAR_CASE(bls12_377_fr)
MODULAR_CASE(pallas)
MODULAR_CASE(vesta)
MODULAR_CASE(eccp109)
MODULAR_CASE(eccp131)
MODULAR_CASE(eccp163)
MODULAR_CASE(eccp191)
MODULAR_CASE(eccp239)
LAZY_CASE(bn254_fp)
LAZY_CASE(bls12_381_fp)
LAZY_CASE(eccp131)

// Kernels loaded at run time: PTX by path, and sizes compiled on demand with NVRTC.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <unistd.h>

#include "mpgen/runtime.hpp"

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/mpgen-test-" + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

// 173-bit products of random operands on the GPU against GMP.
void check_mul_173(const mpgen::OpInfo& op) {
  std::mt19937 rng(173);
  mpgen::Batch batch(op, 1000);
  std::vector<std::vector<uint32_t>> a(1000), b(1000);
  for (std::size_t j = 0; j < 1000; ++j) {
    for (auto* v : {&a[j], &b[j]}) {
      *v = std::vector<uint32_t>(6);
      for (auto& w : *v) w = rng();
      v->back() &= (1u << 13) - 1;  // 173 = 5 * 32 + 13
    }
    batch.set_operand(j, 0, a[j]);
    batch.set_operand(j, 1, b[j]);
  }
  batch.run(mpgen::Device::gpu);
  mpz_t x, y;
  mpz_inits(x, y, nullptr);
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < 1000; ++j) {
    mpgen::to_mpz(x, a[j]);
    mpgen::to_mpz(y, b[j]);
    mpz_mul(x, x, y);
    mpgen::to_mpz(y, batch.result(j));
    wrong += mpz_cmp(x, y) != 0;
  }
  mpz_clears(x, y, nullptr);
  CHECK_MESSAGE(wrong == 0, wrong << " of 1000 173-bit products differ from GMP");
}

}  // namespace

TEST_CASE("the generator and NVRTC make PTX for a size built nowhere, without a GPU") {
  const mpgen::KernelSource source = mpgen::generate_source(173, "mul");
  CHECK(source.header_name == "mpgen_u173.cuh");
  const std::string ptx = mpgen::compile_to_ptx(source, "compute_90");
  CHECK(ptx.find(".entry mpgen_u173_mul") != std::string::npos);
  CHECK(ptx.find("mpgen_manifest") != std::string::npos);
  CHECK(ptx.find("mad.lo.cc.u32") != std::string::npos);
}

// BN254's base field, as a modulus the runtime has not built in under this name.
const char* const kBn254 = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";

TEST_CASE("the generator and NVRTC make PTX for a modulus built nowhere, without a GPU") {
  const mpgen::KernelSource source = mpgen::generate_field_source(kBn254, "modmul");
  CHECK(source.header_name == "mpgen_p254_d87cfd47.cuh");
  const std::string ptx = mpgen::compile_to_ptx(source, "compute_90");
  CHECK(ptx.find(".entry mpgen_p254_d87cfd47_modmul") != std::string::npos);
  CHECK(source.kernels.find("field p254_d87cfd47 30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS(mpgen::generate_field_source("0x10", "montmul"), doctest::Contains("needs an odd modulus"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::generate_field_source("0x15", "modsqrt"), doctest::Contains("composite"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::generate_field_source("0xq7", "modmul"), doctest::Contains("not a hex number"),
                       mpgen::InputError);
  CHECK_THROWS_AS(mpgen::generate_field_source("0x1" + std::string(512, '0'), "modmul"), mpgen::InputError);
}

TEST_CASE("bad requests and files are refused with their names") {
  CHECK_THROWS_WITH_AS(mpgen::generate_source(173, "frobnicate"), doctest::Contains("unknown operation 'frobnicate'"),
                       mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::generate_source(4096, "mul"), doctest::Contains("4096"), mpgen::InputError);
  CHECK_THROWS_AS(mpgen::generate_source(173, "mul; rm -rf /"), mpgen::InputError);
  mpgen::KernelSource broken{"mpgen_u1.cuh", "", "this is not CUDA"};
  CHECK_THROWS_WITH_AS(mpgen::compile_to_ptx(broken, "compute_90"), doctest::Contains("NVRTC (mpgen_u1.cuh"),
                       mpgen::CompileError);
  CHECK_THROWS_WITH_AS(mpgen::load_ptx("/nonexistent/k.ptx"), doctest::Contains("'/nonexistent/k.ptx'"),
                       mpgen::InputError);
  const std::string not_mpgen = temp_file("other.ptx", ".version 8.0\n.target sm_90\n");
  CHECK_THROWS_WITH_AS(mpgen::load_ptx(not_mpgen), doctest::Contains("holds no mpgen kernels"), mpgen::InputError);
  std::remove(not_mpgen.c_str());
}

TEST_CASE("PTX by path and on-demand sizes run on the GPU and agree with GMP") {
  std::string why;
  if (!mpgen::gpu_available(&why)) {
    CHECK_THROWS_AS(mpgen::compile_on_demand(173, "mul"), mpgen::GpuError);
    CHECK_THROWS_AS(mpgen::compile_field_on_demand(kBn254, "modmul"), mpgen::GpuError);
    MESSAGE("no GPU (" << why << "): loading checked up to the GPU only");
    return;
  }
  const std::string path = temp_file("u173.ptx", mpgen::compile_to_ptx(mpgen::generate_source(173, "mul"), "compute_90"));
  const auto loaded = mpgen::load_ptx(path);
  REQUIRE(loaded.size() == 1);
  CHECK(loaded[0].operand_bits == std::vector<unsigned>{173, 173});
  check_mul_173(mpgen::find(173, "mul"));
  std::remove(path.c_str());
  check_mul_173(mpgen::compile_on_demand(173, "mul"));
  CHECK_THROWS_WITH_AS(mpgen::Batch(mpgen::find(173, "mul"), 1).run(mpgen::Device::cpu),
                       doctest::Contains("GPU only"), mpgen::InputError);

  // A field compiled on demand: its products against GMP, its operands checked against p.
  const mpgen::OpInfo& modmul = mpgen::compile_field_on_demand(kBn254, "modmul");
  CHECK(modmul.field == "p254_d87cfd47");
  mpz_t p, a, b, r;
  mpz_inits(p, a, b, r, nullptr);
  mpz_set_str(p, kBn254 + 2, 16);
  CHECK(mpgen::from_mpz(p, 254) == modmul.modulus);
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  mpgen::Batch batch(modmul, 1000);
  std::vector<std::vector<uint32_t>> x(2000);
  for (std::size_t j = 0; j < 2000; ++j) {
    mpz_urandomm(a, rng, p);
    x[j] = mpgen::from_mpz(a, 254);
    batch.set_operand(j / 2, j % 2, x[j]);
  }
  batch.run(mpgen::Device::gpu);
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < 1000; ++j) {
    mpgen::to_mpz(a, x[2 * j]);
    mpgen::to_mpz(b, x[2 * j + 1]);
    mpz_mul(a, a, b);
    mpz_mod(a, a, p);
    mpgen::to_mpz(r, batch.result(j));
    wrong += mpz_cmp(a, r) != 0;
  }
  CHECK_MESSAGE(wrong == 0, wrong << " of 1000 products modulo BN254's p differ from GMP");
  CHECK_THROWS_WITH_AS(batch.set_operand(0, 0, modmul.modulus), doctest::Contains("not below the modulus"),
                       mpgen::InputError);
  gmp_randclear(rng);
  mpz_clears(p, a, b, r, nullptr);
}

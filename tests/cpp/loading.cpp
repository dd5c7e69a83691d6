// Kernels loaded at run time: PTX by path, and sizes compiled on demand with NVRTC.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "../../runtime/src/ondemand_cache.hpp"
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

// Past 2^18 bits a group spans blocks: its header's spanning code (headers/group.cuh's
// on_device with Span < T) compiles under NVRTC, with the barrier of the group's blocks.
TEST_CASE("the generator and NVRTC make PTX for a group spanning blocks (2^20 bits), without a GPU") {
  const mpgen::KernelSource source = mpgen::generate_source(1048576, "mul");
  const std::string ptx = mpgen::compile_to_ptx(source, "compute_90");
  CHECK(ptx.find(".entry mpgen_u1048576_mul") != std::string::npos);
  CHECK(ptx.find("atom.global.add.u32") != std::string::npos);
  CHECK(source.kernels.find(R"(\"blocks_per_instance\":8)") != std::string::npos);
}

// BN254's base field, as a modulus the runtime has not built in under this name.
const char* const kBn254 = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";

TEST_CASE("the generator and NVRTC make PTX for a modulus built nowhere, without a GPU") {
  const mpgen::KernelSource source = mpgen::generate_field_source(kBn254, "modmul");
  CHECK(source.header_name == "mpgen_p254_c71a24c02cebf309.cuh");
  const std::string ptx = mpgen::compile_to_ptx(source, "compute_90");
  CHECK(ptx.find(".entry mpgen_p254_c71a24c02cebf309_modmul") != std::string::npos);
  CHECK(source.kernels.find(
            R"(\"field\":{\"modulus\":\"0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47\")") !=
        std::string::npos);
  CHECK(mpgen::generate_field_source(kBn254, "modmul", 288).header.find("288-bit numbers") != std::string::npos);
  CHECK_THROWS_WITH_AS(mpgen::generate_field_source(kBn254, "modmul", 200), doctest::Contains("declare at least 254"),
                       mpgen::InputError);
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
  CHECK_THROWS_WITH_AS(mpgen::generate_source(33554432, "add"), doctest::Contains("33554432"), mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::generate_source(4096, "popc"), doctest::Contains("popc at 4096 bits"),
                       mpgen::InputError);
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

TEST_CASE("a tier is named thread, group or auto; one that does not hold the size is the generator's refusal") {
  for (const char* tier : {"warp", "Group", " thread"}) {
    CHECK_THROWS_WITH_AS(mpgen::find(2048, "add", tier), doctest::Contains("allowed: thread, group, auto"),
                         mpgen::InputError);
    CHECK_THROWS_WITH_AS(mpgen::operations(2048, tier), doctest::Contains("unknown tier"), mpgen::InputError);
    CHECK_THROWS_WITH_AS(mpgen::compile_on_demand(2048, "add", mpgen::Device::cpu, tier),
                         doctest::Contains("allowed: thread, group, auto"), mpgen::InputError);
  }
  CHECK(mpgen::compile_on_demand(4096, "add", mpgen::Device::cpu, "group").module == "u4096");
  CHECK_THROWS_WITH_AS(
      mpgen::find(4096, "add", "thread"),
      doctest::Contains("4096 bits in the thread tier is not built in; built tiers at 4096 bits: group"),
      mpgen::InputError);
  CHECK(mpgen::operations(1024, "group").empty());
  CHECK(mpgen::find(4096, "add", "group").module == "u4096");
  CHECK(mpgen::generate_source(2048, "add", "group").header_name == "mpgen_u2048_group.cuh");
  CHECK_THROWS_WITH_AS(mpgen::generate_source(4096, "add", "thread"),
                       doctest::Contains("4096 bits is above the thread tier's 2048"), mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::compile_on_demand(1024, "add", mpgen::Device::cpu, "group"),
                       doctest::Contains("1024 bits is below the group tier's 2048"), mpgen::InputError);
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
  CHECK(modmul.field == "p254_c71a24c02cebf309");
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

namespace {

namespace fs = std::filesystem;

// A fresh private directory, removed with what it holds at the end of the scope.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& what) {
    std::string name = (fs::temp_directory_path() / ("mpgen-test-" + what + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(path)) names.insert(entry.path().filename().string());
    return names;
  }
};

// An environment variable set for the scope, then restored.
struct ScopedEnv {
  std::string name;
  std::string old;
  bool had;
  ScopedEnv(const char* variable, const std::string& value) : name(variable) {
    const char* previous = std::getenv(variable);
    had = previous != nullptr;
    if (had) old = previous;
    ::setenv(variable, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had)
      ::setenv(name.c_str(), old.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

std::string slurp(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// FNV-1a 64 in hex, computed here apart from the runtime's.
std::string fnv1a_hex(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(h));
  return s;
}

const std::string kArch = "compute_90";

}  // namespace

TEST_CASE("the generator is started without a shell: metacharacters run nothing, and its folder goes") {
  const fs::path marker = fs::temp_directory_path() / ("mpgen-test-pwned-" + std::to_string(::getpid()));
  fs::remove(marker);
  const ScratchDir tmp("tmpdir");
  {
    const ScopedEnv tmpdir("TMPDIR", tmp.path.string());  // the generator's temporary folders go here
    for (const std::string& op : {"mul; touch " + marker.string(), "$(touch " + marker.string() + ")",
                                  "`touch " + marker.string() + "`", "mul\ntouch " + marker.string()})
      CHECK_THROWS_WITH_AS(mpgen::generate_source(173, op), doctest::Contains("is not an operation name"),
                           mpgen::InputError);
    // Past the operation-name check, to mpgen itself: it gets the text as one argument.
    CHECK_THROWS_WITH_AS(mpgen::detail::generate_kernels({"--bits", "173; touch " + marker.string()}, "mul", "173-bit"),
                         doctest::Contains("is not a number"), mpgen::InputError);
    CHECK_THROWS_AS(mpgen::detail::generate_kernels({"--bits", "$(touch " + marker.string() + ")"}, "mul", "173-bit"),
                    mpgen::InputError);
    CHECK_THROWS_WITH_AS(mpgen::generate_source(173, "frobnicate"), doctest::Contains("unknown operation"),
                         mpgen::InputError);
    CHECK(mpgen::generate_source(131, "add").header_name == "mpgen_u131.cuh");
    CHECK(tmp.files().empty());  // every temporary folder removed, after success or failure
  }
  CHECK_MESSAGE(!fs::exists(marker), marker << " was created: an argument reached a shell");
  fs::remove(marker);
}

TEST_CASE("a generator that cannot be started is a CompileError naming it") {
  const ScopedEnv python("MPGEN_PYTHON", "/nonexistent/mpgen-test/python3");
  CHECK_THROWS_WITH_AS(mpgen::generate_source(173, "mul"), doctest::Contains("/nonexistent/mpgen-test/python3"),
                       mpgen::CompileError);
}

// A generator whose manifest does not name the module's files, or names files it did not
// write: a CompileError saying which.
TEST_CASE("a generator's manifest that does not say what it wrote is a CompileError") {
  const ScratchDir dir("generator");
  const fs::path script = dir.path / "python3";
  for (const auto& [manifest, message] :
       {std::pair<std::string, std::string>{R"({"modules": [{"files": {"header": "h.cuh"}}]})",
                                            "its manifest does not say what it wrote"},
        {R"({"modules": [{"files": {"header": "h.cuh", "kernels": "k.cu"}}]})",
         "a file its manifest lists is missing"}}) {
    std::ofstream(script) << "#!/bin/sh\nwhile [ \"$1\" != --out ]; do shift; done\nprintf '%s' '" << manifest
                          << "' > \"$2/mpgen_manifest.json\"\n";
    fs::permissions(script, fs::perms::owner_all);
    const ScopedEnv python("MPGEN_PYTHON", script.string());
    CHECK_THROWS_WITH_AS(mpgen::generate_source(173, "mul"), doctest::Contains(message.c_str()), mpgen::CompileError);
  }
}

// Without a GPU too: the cache step takes the architecture as a parameter.
TEST_CASE("two processes building one on-demand request at once leave one whole cache entry") {
  const ScratchDir cache("cache");
  const fs::path entry = mpgen::detail::cache_entry(cache.path, "u173", "mul", kArch);
  int go[2];
  REQUIRE(::pipe(go) == 0);
  std::fflush(nullptr);  // no buffered output copied into the children
  std::vector<pid_t> children;
  for (int i = 0; i < 2; ++i) {
    const pid_t child = ::fork();
    if (child < 0) break;  // checked below, once the others are waited for
    children.push_back(child);
    if (child == 0) {  // a child: no doctest here, only an exit status
      ::close(go[1]);
      char c;
      while (::read(go[0], &c, 1) < 0) {  // both wait until the parent closes the pipe
      }
      int status = 0;
      try {
        const std::string ptx = mpgen::detail::cached_ptx(cache.path, "u173", "mul", kArch,
                                                          [] { return mpgen::generate_source(173, "mul"); });
        status = ptx.find("mpgen_u173_mul") == std::string::npos ? 3 : 0;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child %d: %s\n", static_cast<int>(::getpid()), e.what());
        status = 1;
      } catch (...) {
        status = 2;
      }
      std::fflush(nullptr);
      ::_exit(status);
    }
  }
  ::close(go[0]);
  ::close(go[1]);  // both start now
  CHECK(children.size() == 2);
  for (pid_t child : children) {
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), "child " << child << ": status " << status);
  }
  // Exactly the entry and its checksum: no temporaries left, nothing else.
  CHECK(cache.files() == std::set<std::string>{entry.filename().string(), entry.filename().string() + ".sum"});
  const std::string ptx = slurp(entry);
  CHECK(slurp(entry.string() + ".sum") == fnv1a_hex(ptx));
  CHECK(mpgen::detail::cache_checksum(ptx) == fnv1a_hex(ptx));
  CHECK(ptx.find("mpgen_u173_mul") != std::string::npos);
  // And a third call takes it from the cache, without generating or compiling.
  int sources = 0;
  const auto counted = [&] {
    ++sources;
    return mpgen::generate_source(173, "mul");
  };
  CHECK(mpgen::detail::cached_ptx(cache.path, "u173", "mul", kArch, counted) == ptx);
  CHECK(sources == 0);
}

TEST_CASE("a cache entry with a stale or half-written checksum or PTX is rebuilt, never used") {
  const ScratchDir cache("cache");
  static const mpgen::KernelSource source = mpgen::generate_source(173, "mul");  // once for all subcases
  int sources = 0;
  const auto counted = [&] {
    ++sources;
    return source;
  };
  const auto build = [&] { return mpgen::detail::cached_ptx(cache.path, "u173", "mul", kArch, counted); };
  const fs::path entry = mpgen::detail::cache_entry(cache.path, "u173", "mul", kArch);
  const fs::path sum = entry.string() + ".sum";
  const std::string ptx = build();
  CHECK(sources == 1);
  CHECK(build() == ptx);
  CHECK(sources == 1);

  const auto damage = [&](const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  };
  SUBCASE("the PTX cut short (a writer that died mid-write)") { damage(entry, ptx.substr(0, ptx.size() / 2)); }
  SUBCASE("a stale checksum (of another PTX)") { damage(sum, fnv1a_hex(ptx + " ")); }
  SUBCASE("the checksum cut short") { damage(sum, fnv1a_hex(ptx).substr(0, 7)); }
  SUBCASE("no checksum (a writer that died between the two renames)") { fs::remove(sum); }
  SUBCASE("a whole pair that is no mpgen module") {
    const std::string other = ".version 8.0\n.target sm_90\n";
    damage(entry, other);
    damage(sum, fnv1a_hex(other));
  }
  SUBCASE("refused by the caller (e.g. by the driver)") {
    CHECK(mpgen::detail::cached_ptx(cache.path, "u173", "mul", kArch, counted,
                                    [](const std::string&, const fs::path&) { return false; }) == ptx);
    CHECK(sources == 2);
  }
  CHECK(build() == ptx);
  CHECK(sources == 2);
  CHECK(slurp(entry) == ptx);
  CHECK(slurp(sum) == fnv1a_hex(ptx));
  CHECK(cache.files().size() == 2);
}

TEST_CASE("a kernel cache that cannot be written is a CompileError naming it") {
  const ScratchDir scratch("cache");
  const fs::path not_a_directory = scratch.path / "file";
  std::ofstream(not_a_directory) << "x";
  const mpgen::KernelSource source = mpgen::generate_source(173, "mul");
  CHECK_THROWS_WITH_AS(mpgen::detail::cached_ptx(not_a_directory / "cache", "u173", "mul", kArch,
                                                 [&] { return source; }),
                       doctest::Contains(not_a_directory.string().c_str()), mpgen::CompileError);
  if (fs::is_directory("/proc/self/fd"))  // a directory where no file can be made, root or not
    CHECK_THROWS_WITH_AS(
        mpgen::detail::cached_ptx("/proc/self/fd", "u173", "mul", kArch, [&] { return source; }),
        doctest::Contains("cannot write the kernel cache entry /proc/self/fd/mul-"), mpgen::CompileError);
}

namespace {

// n random products of op (a field's modmul, or a size's mul) on the CPU against GMP.
std::size_t wrong_products_on_cpu(const mpgen::OpInfo& op, std::size_t n) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  mpz_t p, a, b, r;
  mpz_inits(p, a, b, r, nullptr);
  const unsigned bits = op.operand_bits[0];
  if (op.field.empty())
    mpz_setbit(p, bits);  // operands below 2^bits
  else
    mpgen::to_mpz(p, op.modulus);
  mpgen::Batch batch(op, n, mpgen::Layout::contiguous);
  std::vector<std::vector<uint32_t>> x(2 * n);
  for (std::size_t j = 0; j < 2 * n; ++j) {
    mpz_urandomm(a, rng, p);
    x[j] = mpgen::from_mpz(a, bits);
    batch.set_operand(j / 2, j % 2, x[j]);
  }
  batch.run(mpgen::Device::cpu);
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < n; ++j) {
    mpgen::to_mpz(a, x[2 * j]);
    mpgen::to_mpz(b, x[2 * j + 1]);
    mpz_mul(a, a, b);
    if (!op.field.empty()) mpz_mod(a, a, p);
    mpgen::to_mpz(r, batch.result(j));
    wrong += mpz_cmp(a, r) != 0;
  }
  mpz_clears(p, a, b, r, nullptr);
  gmp_randclear(rng);
  return wrong;
}

}  // namespace

TEST_CASE("any modulus and any size compile on demand for the CPU, into cached host libraries") {
  const ScratchDir cache("host-cache");
  const ScopedEnv cache_env("MPGEN_CACHE", cache.path.string());
  // A 2048-bit odd modulus (random.seed(20261123); the last of the bench's powm moduli).
  const std::string p2048 =
      "0xd00f7b11205fe2f708c1d781b972e776f1a38d3268340c65d27cb2382bedda16e5a9f6b1a29709bfadf438f7b27c1c748f39aaa5729ad53c"
      "7891da33e83a9d40b183256ea16ec121307a6fc42fd7b23abb262a934ce15c61aa0336d98b8c82f1c3dd75f6808578e6ec925f09a227f03977"
      "dde229df88ae4d6c2386e5cc86ba6403c472ca4495f8b438d889d2b47a5c1dca3ab343ac333b687e9bf77c6519a9d5ac9130f4547c17d30e3a"
      "655f20731ab24c8b1eb44f1eaccf4372a2a784a67245a398d022d4351df483229050899338370c28cec1b94722af64b936976b4b76b0e179f7"
      "73a6e0f3c09514b7dde2ad0478ff53a46f5ead703a84c4b877678537a3";
  for (const std::string& modulus : {std::string(kBn254), p2048, std::string("0xb")}) {
    const mpgen::OpInfo& modmul = mpgen::compile_field_on_demand(modulus, "modmul", 0, mpgen::Device::cpu);
    CHECK(mpgen::to_hex(modmul.modulus) == modulus.substr(2));
    CHECK_MESSAGE(wrong_products_on_cpu(modmul, 300) == 0, "modmul modulo " << modulus.substr(0, 20) << "...");
  }
  const mpgen::OpInfo& mul = mpgen::compile_on_demand(177, "mul", mpgen::Device::cpu);
  CHECK(mul.operand_bits == std::vector<unsigned>{177, 177});
  CHECK(wrong_products_on_cpu(mul, 300) == 0);
  // Each request is one library and its checksum in the cache; a second call loads none anew.
  CHECK(cache.files().size() == 8);
  CHECK(&mpgen::compile_on_demand(177, "mul", mpgen::Device::cpu) == &mul);
  CHECK(cache.files().size() == 8);
  CHECK_THROWS_WITH_AS(mpgen::compile_field_on_demand("0x10", "montmul", 0, mpgen::Device::cpu),
                       doctest::Contains("needs an odd modulus"), mpgen::InputError);
}

// Several operations of a size at once: one module, one library and its checksum in the
// cache (named ops-<hash>), the operations in the order asked, the same OpInfo as find's;
// a bad name anywhere in the list, or none, is refused before the generator runs.
TEST_CASE("several operations of a size compile on demand as one module, one cache entry") {
  const ScratchDir cache("ops-cache");
  const ScopedEnv cache_env("MPGEN_CACHE", cache.path.string());
  const std::vector<const mpgen::OpInfo*> ops = mpgen::compile_on_demand(179, {"mul", "add", "sqr"}, mpgen::Device::cpu);
  REQUIRE(ops.size() == 3);
  CHECK(ops[0]->name == "mul");
  CHECK(ops[1]->name == "add");
  CHECK(ops[2]->name == "sqr");
  CHECK(ops[0] == &mpgen::find(179, "mul"));
  CHECK(wrong_products_on_cpu(*ops[0], 300) == 0);
  const std::set<std::string> files = cache.files();
  REQUIRE(files.size() == 2);
  CHECK(files.begin()->rfind("ops-", 0) == 0);
  CHECK(mpgen::compile_on_demand(179, {"mul", "add", "sqr"}, mpgen::Device::cpu) == ops);
  CHECK(cache.files().size() == 2);
  CHECK_THROWS_WITH_AS(mpgen::compile_on_demand(179, {"mul", "a;b"}, mpgen::Device::cpu),
                       "'a;b' is not an operation name", mpgen::InputError);
  CHECK_THROWS_WITH_AS(mpgen::compile_on_demand(179, std::vector<std::string>{}, mpgen::Device::cpu),
                       "no operation named for 179-bit", mpgen::InputError);
}

// mpgen-bench: throughput of the generated code against the hardware ceilings measured
// in the same run (GPU) or against GMP's mpn functions (CPU), with the peers' figures beside
// (CGBN's and sppark's, measured on an H100 on 2026-11-22). Prints a table; --csv writes the
// rows. The rows come from bench/*_rows.cu, one source a family, each with its own generated
// sizes.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench_util.cuh"
#include "rows.hpp"

namespace bench {
namespace {

// Independent mad.lo.cc/madc.hi pairs, the multiply-add ceiling: 16 64-bit accumulators
// per thread, each pair adding a*b into one in place. The accumulator is one 64-bit
// operand, so that it stays in an aligned register pair and the pair is one IMAD.WIDE
// (two 32-bit operands measured 8.0 T halves/s on the H100: ptxas moved them into a
// pair and back around every IMAD.WIDE).
__global__ void multiply_add_pairs(uint32_t* out, unsigned iterations) {
  constexpr int chains = 16;
  uint64_t acc[chains];
  uint32_t a[chains];
  const uint32_t b = blockIdx.x | 1u;
#pragma unroll
  for (int k = 0; k < chains; ++k) {
    a[k] = threadIdx.x * 2654435761u + k;
    acc[k] = a[k] ^ b;
  }
#pragma unroll 1
  for (unsigned i = 0; i < iterations; ++i)
#pragma unroll
    for (int k = 0; k < chains; ++k)
      asm volatile(
          "{\n\t.reg .u32 lo, hi;\n\tmov.b64 {lo, hi}, %0;\n\t"
          "mad.lo.cc.u32 lo, %1, %2, lo;\n\tmadc.hi.u32 hi, %1, %2, hi;\n\tmov.b64 %0, {lo, hi};\n\t}"
          : "+l"(acc[k]) : "r"(a[k]), "r"(b));
  uint64_t sum = 0;
#pragma unroll
  for (int k = 0; k < chains; ++k) sum += acc[k];
  if (sum == 0x12345678u) out[0] = uint32_t(sum);  // keeps the work alive
}

Ceilings measure_ceilings() {
  Ceilings c{};
  const std::size_t bytes = std::size_t(1) << 30;
  void *a, *b;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  cudaMemset(a, 1, bytes);
  c.copy_bytes_per_s = 2.0 * bytes / gpu_seconds([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); }, 5);
  cudaFree(a);
  cudaFree(b);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const unsigned blocks = sms * 8, threads = 256, iterations = 4096;
  uint32_t* out;
  cudaMalloc(&out, 4);
  const double s = gpu_seconds([&] { multiply_add_pairs<<<blocks, threads>>>(out, iterations); });
  c.multiply_halves_per_s = double(blocks) * threads * iterations * 16 * 2 / s;
  cudaFree(out);
  return c;
}

// This binary's SASS, from cuobjdump (CUDA toolkit) when it is on PATH; empty otherwise.
std::string own_sass() {
  std::string text;
  char exe[4096];
  const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);  // the shell's would differ
  if (length <= 0) return text;
  exe[length] = 0;
  if (FILE* p = popen(("cuobjdump -sass '" + std::string(exe) + "' 2>/dev/null").c_str(), "r")) {
    char buf[1 << 16];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, got);
    pclose(p);
  }
  return text;
}

}  // namespace

// The 32-bit multiply halves one pass of `kernel`'s loop issues, read from the SASS
// between the loop's backward branch and its target: an IMAD.WIDE is two halves, any
// other IMAD one, except the moves, shifts and adds ptxas also puts on IMAD. These are
// what the multiply-add ceiling is charged with; the instruction list's own count is
// higher where ptxas drops unused results (CGBN's workload keeps only the low half).
// 0 when the SASS or the loop cannot be found.
unsigned loop_multiply_halves(const std::string& sass, const void* kernel) {
  const char* name = nullptr;
  if (sass.empty() || cudaFuncGetName(&name, kernel) != cudaSuccess) return 0;
  const std::size_t begin = sass.find("Function : " + std::string(name) + "\n");
  if (begin == std::string::npos) return 0;
  const std::size_t end = std::min(sass.size(), sass.find("Function : ", begin + 1));
  static const std::regex line(R"(/\*([0-9a-f]+)\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);)");
  std::vector<std::pair<unsigned long, std::string>> code;  // address, opcode
  unsigned long loop_begin = 0, loop_end = 0;
  std::istringstream in(sass.substr(begin, end - begin));
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (!std::regex_search(text, m, line)) continue;
    const unsigned long at = std::stoul(m[1], nullptr, 16);
    code.emplace_back(at, m[2]);
    if (m[2] == "BRA") {
      const unsigned long target = std::stoul(m[3], nullptr, 16);
      if (target < at) loop_begin = target, loop_end = at;
    }
  }
  unsigned halves = 0;
  for (const auto& [at, op] : code) {
    if (at < loop_begin || at > loop_end || op.rfind("IMAD", 0) != 0) continue;
    if (op.find(".WIDE") != std::string::npos) halves += 2;
    else if (op.find(".MOV") == std::string::npos && op.find(".SHL") == std::string::npos &&
             op.find(".IADD") == std::string::npos) halves += 1;
  }
  return loop_end ? halves : 0;
}

}  // namespace bench

int main(int argc, char** argv) {
  CLI::App app{"Benchmarks mpgen's generated code: chained products (CGBN's mul), one operation "
               "from memory, and the CPU backend against GMP, each with its ceiling measured in "
               "the same run.", "mpgen-bench"};
  app.footer("examples:\n  mpgen-bench --device gpu --csv bench.csv\n  mpgen-bench --device cpu --bits 128,256 --quick");
  std::string device = "gpu", csv;
  std::vector<unsigned> bits;
  bool quick = false;
  app.add_option("--device", device, "gpu or cpu")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--bits", bits, "sizes (default: all built in: 64 128 131 255 256 381 512 521 1024 2048; "
                 "the group tier's 4096 8192 16384 32768 65536 131072 262144)")
      ->delimiter(',')->check(CLI::IsMember({64, 128, 131, 255, 256, 381, 512, 521, 1024, 2048, 4096, 8192, 16384,
                                             32768, 65536, 131072, 262144}));
#define FIELD_NAME(f, sppark_chain) #f,
  std::vector<std::string> fields;
  app.add_option("--fields", fields, "fields for the modular rows (default: all when no --bits is given)")
      ->delimiter(',')->check(CLI::IsMember(std::vector<std::string>{MPGEN_BENCH_FIELDS(FIELD_NAME)}));
  app.add_option("--csv", csv, "write the rows to this CSV file");
  app.add_flag("--quick", quick, "small batches: a smoke run, not a timing");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "mpgen-bench: error: %s\n", e.what());
    return 2;
  }

  bench::Setting s{bits, fields, quick, {}, ""};
  std::vector<bench::Row> rows;
  if (device == "cpu") {
    bench::cpu_rows(s, rows);
    bench::cpu_field_rows(s, rows);
    bench::cpu_powm_rows(s, rows);
    bench::cpu_scaling_rows(s, rows);
  } else {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      std::fprintf(stderr, "mpgen-bench: error: no GPU can be used; try --device cpu\n");
      return 1;
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    const bench::Ceilings c = s.ceilings = bench::measure_ceilings();
    std::printf("GPU: %s, %d SMs; copy %.0f GB/s (read + written), multiply-add %.2f T halves/s\n", p.name,
                p.multiProcessorCount, c.copy_bytes_per_s / 1e9, c.multiply_halves_per_s / 1e12);
    rows.push_back({"device-to-device copy", "gpu", 0, c.copy_bytes_per_s, 1, "bytes/s", 3029e9, "H100 copy"});
    rows.push_back({"mad.lo.cc/madc.hi halves", "gpu", 0, c.multiply_halves_per_s, 1, "halves/s", 15.36e12,
                    "H100 multiply-add"});
    s.sass = bench::own_sass();
    bench::thread_rows(s, rows);
    bench::group_rows(s, rows);
    bench::field_rows(s, rows);
    bench::powm_rows(s, rows);
    bench::runtime_modulus_rows(s, rows);
  }

  std::printf("%-36s %6s %12s %9s  %-38s %12s %7s\n", "workload", "bits", "ops/s", "fraction", "of", "peer ops/s",
              "ours/peer");
  for (const bench::Row& r : rows)
    std::printf("%-36s %6u %12.4g %9.3f  %-38s %12.4g %7.2f\n", r.workload.c_str(), r.bits, r.rate, r.ceiling,
                r.against.c_str(), r.peer, r.peer ? r.rate / r.peer : 0.0);
  if (!csv.empty()) {
    std::ofstream f(csv);
    f << "workload,device,bits,ops_per_s,fraction,of,peer_ops_per_s,peer\n";
    for (const bench::Row& r : rows)
      f << '"' << r.workload << "\"," << r.device << ',' << r.bits << ',' << r.rate << ',' << r.ceiling << ",\""
        << r.against << "\"," << r.peer << ",\"" << r.peer_name << "\"\n";
    if (!f) {
      std::fprintf(stderr, "mpgen-bench: error: cannot write %s\n", csv.c_str());
      return 2;
    }
  }
  return 0;
}
// The GPU rows' two shared measures: a chained product against the multiply-add ceiling,
// and one operation from memory against the copy bandwidth. Include after a generated
// header (mpgen::Layout, mpgen::launch_batch).
#pragma once
#include <cuda_runtime.h>

#include "bench_util.cuh"
#include "chain.cuh"
#include "rows.hpp"

namespace bench {

// A chained product (bench/chain.cuh: r = r * x0, or r = r * r), `iterations` times per
// thread over n threads: products per second, and the fraction of the multiply-add
// ceiling that the multiplies it issues reach. `peer` is a peer's figure for it.
template <class Op, bool square>
Row chained(const std::string& workload, const Setting& setting, std::size_t n, unsigned iterations, double peer = 0,
            const char* peer_name = "") {
  const auto host = random_words(Op::operand_limbs[0] * n, Op::bits);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, host.size() * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const unsigned shared = Op::shared_bytes;  // a group product's tables
  if (shared) check(cudaFuncSetAttribute(chain<Op, square>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
                    "asking for shared memory");
  const double s = gpu_seconds([&] {
    chain<Op, square><<<blocks_for<Op>(n), Op::block_threads, shared>>>(n, iterations, in, out);
    check(cudaGetLastError(), "launch");
  });
  cudaFree(in);
  cudaFree(out);
  const double rate = double(n) * iterations / s;
  // The group tier's loop holds the rows' loop: its halves are not the SASS loop's.
  const bool group = Op::threads_per_instance > 1;
  const unsigned halves =
      group ? 0 : loop_multiply_halves(setting.sass, reinterpret_cast<const void*>(chain<Op, square>));
  const std::string against = halves         ? "multiply-add ceiling, " + std::to_string(halves) + " halves"
                              : group        ? "multiply-add ceiling (not counted in the group tier)"
                              : setting.sass.empty() ? "multiply-add ceiling (no cuobjdump on PATH)"
                                             : "multiply-add ceiling (no loop in the SASS)";
  return {workload, "gpu", Op::bits, rate, rate * halves / setting.ceilings.multiply_halves_per_s, against, peer,
          peer_name};
}

// One operation over n instances from memory: bytes moved per second against the copy ceiling.
template <class Op>
Row from_memory(const Ceilings& c, std::size_t n, mpgen::Layout layout, const char* field = nullptr) {
  const auto host = random_words(Op::in_words * n, 7);
  uint32_t *in, *out;
  cudaMalloc(&in, host.size() * 4);
  cudaMalloc(&out, Op::out_words * n * 4);
  cudaMemcpy(in, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  const double s =
      gpu_seconds([&] { check(mpgen::launch_batch<Op>(n, layout, in, out), "launch"); });
  cudaFree(in);
  cudaFree(out);
  const double bytes = double(Op::in_words + Op::out_words) * 4 * n;
  const std::string name = std::string(Op::name) + " from memory, " +
                           (layout == mpgen::Layout::interleaved ? "interleaved" : "contiguous") +
                           (field ? std::string(", ") + field : "");
  return {name, "gpu", Op::bits, n / s, bytes / s / c.copy_bytes_per_s, "copy bandwidth", 0, ""};
}

}  // namespace bench

// The 6-Add and Poly workloads of Oancea and Watt, "GPU implementations for midsize integer
// addition and multiplication", on the group tier (midint-arithmetic's a6pb10Ker and
// polyKerQ; CGBN's kernel_6adds and kernel_poly compute the same): per instance, a and b
// from memory in the contiguous layout, one result written, every value mod 2^bits:
//   6-Add: t1 = a + b, t2 = t1 + t1, t3 = t2 + b, t4 = t3 + t3, t5 = t4 + t3, r = t5 + b
//          (r = 6 a + 10 b);
//   Poly:  r = (a^2 + b)(b^2 + b) + a b, by four low-half products and three additions.
// Add and MulLo come from one size generated on the same threads (their Q limbs of a value
// pass from one to the other in registers); a launch takes MulLo's geometry and tables.
#pragma once
#include <cstddef>
#include <cstdint>

namespace workloads {

// r = Op(x, y) (add: x + y, mul_lo: x y, mod 2^bits), from this thread's Q limbs of each;
// an operand after the two (add's carry in) is 0.
template <class Op>
__device__ __forceinline__ void apply(uint32_t* r, const uint32_t* x, const uint32_t* y) {
  constexpr unsigned Q = Op::limbs_per_thread;
  uint32_t in[Op::thread_in_words] = {}, out[Op::thread_out_words];
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) in[i] = x[i], in[Q + i] = y[i];
  Op::thread(out, in);
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) r[i] = out[i];
}

// Poly, or 6-Add (MulLo unused: Add itself).
template <class Add, class MulLo, bool poly>
__global__ void __launch_bounds__(MulLo::block_threads)
    kernel(std::size_t n, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  constexpr unsigned T = Add::threads_per_instance, Q = Add::limbs_per_thread, limbs = Add::result_limbs;
  static_assert(MulLo::threads_per_instance == T && MulLo::limbs_per_thread == Q, "one geometry for both");
  const std::size_t j = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / T;
  const unsigned t = threadIdx.x % T;
  const bool live = j < n;  // every thread of the block takes part in the group's steps
  uint32_t a[Q], b[Q], r[Q];
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) {
    const unsigned limb = t * Q + i;
    a[i] = live && limb < limbs ? in[2 * limbs * j + limb] : 0;
    b[i] = live && limb < limbs ? in[2 * limbs * j + limbs + limb] : 0;
  }
  if constexpr (!poly) {
    uint32_t t1[Q], t2[Q];
    apply<Add>(t1, a, b), apply<Add>(t2, t1, t1), apply<Add>(t1, t2, b);
    apply<Add>(t2, t1, t1), apply<Add>(t2, t2, t1), apply<Add>(r, t2, b);
  } else {
    uint32_t t1[Q], t2[Q], t3[Q];
    apply<MulLo>(t1, a, a), apply<Add>(t1, t1, b);
    apply<MulLo>(t2, b, b), apply<Add>(t2, t2, b);
    apply<MulLo>(t3, t1, t2), apply<MulLo>(t1, a, b), apply<Add>(r, t3, t1);
  }
  if (!live) return;
#pragma unroll
  for (unsigned i = 0; i < Q; ++i)
    if (t * Q + i < limbs) out[limbs * j + t * Q + i] = r[i];
}

// The launch of one workload over n instances (6-Add: launch<Add, Add, false>) (in: 2 limbs words each, out: limbs).
using Launch = cudaError_t (*)(std::size_t n, const uint32_t* in, uint32_t* out);

template <class Add, class MulLo, bool poly>
cudaError_t launch(std::size_t n, const uint32_t* in, uint32_t* out) {
  constexpr unsigned shared = MulLo::shared_bytes;
  if (shared != 0) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel<Add, MulLo, poly>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared));
    if (e != cudaSuccess) return e;
  }
  const std::size_t blocks = (n * MulLo::threads_per_instance + MulLo::block_threads - 1) / MulLo::block_threads;
  kernel<Add, MulLo, poly><<<unsigned(blocks), MulLo::block_threads, shared>>>(n, in, out);
  return cudaGetLastError();
}

// Poly's launch at one size (bench/poly.cu: its sizes generated on the products' threads);
// nullptr where not built.
Launch poly(unsigned bits);

}  // namespace workloads

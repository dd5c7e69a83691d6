// CGBN's mont_reduce and powm_odd workloads in the group tier, each instance its own random
// odd modulus p of the full size (docs/group-tier.md): every thread of an instance's group holds its
// Q limbs of each value and calls the operations' Op::thread, as bench/chain.cuh does for
// the products. Operands interleaved (limb i of instance j at i n + j).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace group_moduli {

constexpr unsigned exponent_bits = 512, window = 5;  // CGBN's powm_odd workload

// The group's view of one instance: thread t of the group, its instance j, whether j < n
// (every thread of the block takes part in the group's steps, past the batch's end too).
template <class Op>
struct Place {
  // the size's limbs: those of the last operand (p, -p^-1 mod R or the divisor)
  static constexpr unsigned T = Op::threads_per_instance, Q = Op::limbs_per_thread,
                            limbs = Op::operand_limbs[Op::operands - 1];
  std::size_t n, j;
  unsigned t;
  bool live;
  __device__ Place(std::size_t n) : n(n), j((blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / T),
                                    t(threadIdx.x % T), live(j < n) {}
  // The thread's limbs of the value in rows [first, first + limbs): below p (the top bit
  // cleared) or a full-size odd p (the top and low bits set), as the kernels' roles want.
  __device__ void load(uint32_t* v, const uint32_t* in, unsigned first, bool below, bool modulus) const {
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) {
      const unsigned limb = t * Q + i;
      uint32_t w = live && limb < limbs ? in[(first + limb) * n + j] : 0;
      if (limb == limbs - 1) w = below ? w & 0x7fffffffu : modulus ? w | 0x80000000u : w;
      if (modulus && limb == 0) w |= 1;
      v[i] = w;
    }
  }
  __device__ void store(uint32_t* out, const uint32_t* v) const {
    if (!live) return;
#pragma unroll
    for (unsigned i = 0; i < Q; ++i)
      if (t * Q + i < limbs) out[(t * Q + i) * n + j] = v[i];
  }
};

// y = Op(the thread's slices of the operands, in order): Q words each (a one-word operand
// has none here), the result's Q words back.
template <class Op, unsigned Q, class... Slices>
__device__ __forceinline__ void call(uint32_t* y, const Slices*... slices) {
  const uint32_t* const all[] = {slices...};
  uint32_t x[Op::thread_in_words], out[Op::thread_out_words];
#pragma unroll
  for (unsigned k = 0; k < sizeof...(slices); ++k)
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) x[k * Q + i] = all[k][i];
  Op::thread(out, x);
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) y[i] = out[i];
}

// r = (x0 R + r) R^-1 mod p, `iterations` times, from -p^-1 mod R by mont_minus_inverse.
template <class Redc, class MinusInverse>
__global__ void __launch_bounds__(Redc::block_threads)
    redc_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned Q = Redc::limbs_per_thread, limbs = Redc::result_limbs;
  const Place<Redc> at(n);
  uint32_t r[Q], high[Q], p[Q], np[Q];
  at.load(r, in, 0, false, false);
  at.load(high, in, limbs, true, false);
  at.load(p, in, 2 * limbs, false, true);
  call<MinusInverse, Q>(np, p);
#pragma unroll 1
  for (unsigned k = 0; k < iterations; ++k) call<Redc, Q>(r, r, high, p, np);
  at.store(out, r);
}

// a^e mod p, e of exponent_bits in fixed windows from the top (a table of 2^window powers
// in Montgomery form, in local memory), after -p^-1 mod R and R^2 mod p by the
// operations mont_minus_inverse and mont_radix_squared: as CGBN's powm_odd computes its own.
template <class MontMul, class MontSqr, class MinusInverse, class RadixSquared, class FromMont>
__global__ void __launch_bounds__(MontMul::block_threads) powm(std::size_t n, const uint32_t* in, uint32_t* out) {
  constexpr unsigned Q = MontMul::limbs_per_thread, limbs = MontMul::result_limbs, E = exponent_bits / 32;
  const Place<MontMul> at(n);
  uint32_t a[Q], p[Q], np[Q], square[Q], x[Q], e[E], table[1u << window][Q];
  at.load(a, in, 0, true, false);
  at.load(p, in, limbs + E, false, true);
#pragma unroll
  for (unsigned i = 0; i < E; ++i) e[i] = at.live ? in[(limbs + i) * n + at.j] : 0;
  call<MinusInverse, Q>(np, p);
  call<RadixSquared, Q>(square, p);
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) x[i] = at.t == 0 && i == 0;  // the integer 1
  call<MontMul, Q>(table[0], x, square, p, np);                 // R mod p
  call<MontMul, Q>(table[1], a, square, p, np);
#pragma unroll 1
  for (unsigned k = 2; k < (1u << window); ++k) call<MontMul, Q>(table[k], table[k - 1], table[1], p, np);
#pragma unroll
  for (unsigned i = 0; i < Q; ++i) x[i] = table[0][i];
#pragma unroll 1
  for (int first = (exponent_bits - 1) / window * window; first >= 0; first -= window) {
#pragma unroll 1
    for (unsigned s = 0; s < window; ++s) call<MontSqr, Q>(x, x, p, np);
    const unsigned word = unsigned(first) / 32, shift = unsigned(first) % 32;
    uint64_t bits = e[word] >> shift;
    if (shift + window > 32 && word + 1 < E) bits |= uint64_t(e[word + 1]) << (32 - shift);
    call<MontMul, Q>(x, x, table[bits & ((1u << window) - 1)], p, np);
  }
  call<FromMont, Q>(x, x, p, np);
  at.store(out, x);
}

// CGBN's div_qr workload (as mpgen-bench's per-thread row): (q, r) = (r 2^(32 N) + q) / b,
// `iterations` times, from q = a and r = b less its top bit (below b, so every quotient
// fits), b's top bit set; r out.
template <class Div>
__global__ void __launch_bounds__(Div::block_threads)
    divide_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned Q = Div::limbs_per_thread, limbs = Place<Div>::limbs;
  const Place<Div> at(n);
  uint32_t x[Div::thread_in_words], y[Div::thread_out_words];  // x: q, r (a's halves), b; y: q, r, flag
  at.load(x, in, 0, false, false);
  at.load(x + Q, in, limbs, true, false);
  at.load(x + 2 * Q, in, limbs, false, true);
#pragma unroll 1
  for (unsigned k = 0; k < iterations; ++k) {
    Div::thread(y, x);
#pragma unroll
    for (unsigned i = 0; i < 2 * Q; ++i) x[i] = y[i];
  }
  at.store(out, x + Q);
}

// CGBN's gcd and modinv workloads (as mpgen-bench's per-thread rows): r = Op(a, b), then a + 1
// and b + 1 (for modinv b + 2, the modulus kept odd: a below p, p full-size and odd); and
// sqrt's: r = sqrt(a), then a's low half replaced by r. `iterations` times; the results'
// first words summed, out.
template <class Op, bool modulus>
__global__ void __launch_bounds__(Op::block_threads)
    pair_chain(std::size_t n, unsigned iterations, const uint32_t* in, uint32_t* out) {
  constexpr unsigned Q = Op::limbs_per_thread, limbs = Place<Op>::limbs;
  const Place<Op> at(n);
  uint32_t a[Q], b[Q], y[Q], sum = 0;
  at.load(a, in, 0, modulus, false);
  at.load(b, in, limbs, false, modulus);
#pragma unroll 1
  for (unsigned k = 0; k < iterations; ++k) {
    if constexpr (Op::operands == 1) {
      call<Op, Q>(y, a);
#pragma unroll
      for (unsigned i = 0; i < Q; ++i)
        if (at.t * Q + i < limbs / 2) a[i] = y[i];
    } else {
      call<Op, Q>(y, a, b);
      if (at.t == 0) a[0] += 1, b[0] += modulus ? 2 : 1;
    }
    sum += y[0];
  }
  if (at.live && at.t == 0) out[at.j] = sum;
}

// The rates of the workloads at one size (bench/group_moduli.cu: 4096 and 8192 bits;
// 0 elsewhere); powm and the division chain check their first instances against GMP and
// end the run on a difference.
double redc_chain_rate(unsigned bits, std::size_t n, unsigned iterations);
double powm_rate(unsigned bits, std::size_t n);
double modexp_rate(unsigned bits, std::size_t n);  // the generated modexp, a full-width exponent
double divide_chain_rate(unsigned bits, std::size_t n, unsigned iterations);
double step_chain_rate(const std::string& op, unsigned bits, std::size_t n, unsigned iterations);  // gcd, modinv, sqrt

}  // namespace group_moduli

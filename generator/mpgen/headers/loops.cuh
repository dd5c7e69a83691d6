// The loops of modexp, modexp_ladder, modinv, modinv_gcd and modsqrt, written once for
// host and device around a field's generated operations (its loop_domain: the products,
// the conversions and the constants), and division's, gcd's and sqrt's around their
// generated steps. They branch on loop counters only: the products
// and selections inside are masks, and the trip counts depend on the modulus alone.
#ifdef __CUDACC__
#define MPGEN_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define MPGEN_HOST_DEVICE inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define MPGEN_HOST_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define MPGEN_HOST_NOINLINE __declspec(noinline)
#else
#define MPGEN_HOST_NOINLINE
#endif
#ifdef __CUDA_ARCH__
#define MPGEN_UNROLL _Pragma("unroll")
#define MPGEN_ROLLED _Pragma("unroll 1")
#else
#define MPGEN_UNROLL
#define MPGEN_ROLLED
#endif

namespace mpgen {
namespace loops {

#ifndef __CUDACC_RTC__
// One out-of-line copy of Op::host per operation: the loops call each product from
// several places, and inlined copies of long straight-line code cost the host compiler
// minutes for nothing.
template <class Op>
MPGEN_HOST_NOINLINE void host_call(uint32_t* y, const uint32_t* x) {
  Op::host(y, x);
}

// The same through Op's 64-bit list.
template <class Op>
MPGEN_HOST_NOINLINE void host64_call(uint32_t* y, const uint32_t* x) {
  through_host64_words<Op>(y, x);
}

// Op::host64 itself, for the loops over 64-bit limbs (loop_domain64).
template <class Op>
MPGEN_HOST_NOINLINE void host64_limbs_call(uint64_t* y, const uint64_t* x) {
  Op::host64(y, x);
}
#endif

// Op on the device when compiled for it, else on the host: through its 64-bit list where
// Wide and it has one (the element type's products, on 32-bit words paired into limbs),
// else its 32-bit one; y and x must not overlap.
template <class Op, bool Wide = false>
MPGEN_HOST_DEVICE void apply(uint32_t* y, const uint32_t* x) {
#ifdef __CUDA_ARCH__
  Op::device(y, x);
#else
  if constexpr (Wide && has_host64<Op>::value)
    host64_call<Op>(y, x);
  else
    host_call<Op>(y, x);
#endif
}

#ifndef __CUDACC_RTC__
// Op on 64-bit limbs, its 64-bit list: the host only (loop_domain64's products; declared
// for both sides, as the loops that call it).
template <class Op, bool Wide = true>
MPGEN_HOST_DEVICE void apply(uint64_t* y, const uint64_t* x) {
#ifndef __CUDA_ARCH__
  host64_limbs_call<Op>(y, x);
#endif
}
#endif

// Op's x in words of Word: its 32-bit words, or its 64-bit list's limbs.
template <class Op, class Word>
MPGEN_HOST_DEVICE constexpr unsigned in_words_of() {
  if constexpr (sizeof(Word) == 8) return Op::in_words64; else return Op::in_words;
}

template <unsigned N, class Word>
MPGEN_HOST_DEVICE void copy(Word* r, const Word* a) {
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) r[k] = a[k];
}

// r = Op(a) and r = Op(a, b) for N-limb operands; r may be a or b.
// Words of 32 bits, or 64-bit limbs (Op's 64-bit list). The operands are copied (Op may read
// x after writing y); the result is written in place.
template <class Op, bool Wide = false, class Word>
MPGEN_HOST_DEVICE void apply1(Word* r, const Word* a) {
  Word x[in_words_of<Op, Word>()];
  copy<in_words_of<Op, Word>()>(x, a);
  apply<Op, Wide>(r, x);
}

template <class Op, bool Wide = false, class Word>
MPGEN_HOST_DEVICE void apply2(Word* r, const Word* a, const Word* b) {
  constexpr unsigned N = in_words_of<Op, Word>() / 2;
  Word x[2 * N];
  copy<N>(x, a);
  copy<N>(x + N, b);
  apply<Op, Wide>(r, x);
}

// All ones if a == b, else 0.
template <unsigned N, class Word>
MPGEN_HOST_DEVICE Word equal_mask(const Word* a, const Word* b) {
  Word d = 0;
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) d |= a[k] ^ b[k];
  return ((d | (Word(0) - d)) >> (8 * sizeof(Word) - 1)) - Word(1);
}

// r = if_set where mask is all ones, if_clear where it is 0.
template <unsigned N, class Word>
MPGEN_HOST_DEVICE void select(Word* r, Word mask, const Word* if_set, const Word* if_clear) {
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) r[k] = if_clear[k] ^ ((if_clear[k] ^ if_set[k]) & mask);
}

// Swaps a and b where bit (0 or 1) is 1.
template <unsigned N, class Word>
MPGEN_HOST_DEVICE void conditional_swap(Word* a, Word* b, Word bit) {
  const Word mask = Word(0) - bit;
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) {
    const Word t = (a[k] ^ b[k]) & mask;
    a[k] ^= t;
    b[k] ^= t;
  }
}

// Words of Word holding Bits bits.
template <unsigned Bits, class Word = uint32_t>
constexpr unsigned words_for = (Bits + 8 * sizeof(Word) - 1) / (8 * sizeof(Word));

// How many instances a domain's values hold side by side: side_by_side's lanes, else 1.
template <class T>
struct void_of {
  using type = void;
};
template <class D, class = void>
struct lanes_of {
  static constexpr unsigned value = 1;
};
template <class D>
struct lanes_of<D, typename void_of<decltype(D::lanes)>::type> {
  static constexpr unsigned value = D::lanes;
};

// L instances of domain D side by side: values of L D::limbs limbs, lane l's at l D::limbs,
// each product issued for every lane in turn. A power is a chain of dependent products
// that waits on each one's latency; on a CPU core the lanes' chains overlap (a CPU batch
// runs a field's modexp this way: host64_lanes).
template <class D, unsigned L>
struct side_by_side {
  using word = typename D::word;
  static constexpr unsigned lanes = L, limbs = L * D::limbs, window_bits = D::window_bits;
  static constexpr bool scans_table = D::scans_table;
  MPGEN_HOST_DEVICE static void one(word* r) {
    for (unsigned l = 0; l < L; ++l) D::one(r + l * D::limbs);
  }
  MPGEN_HOST_DEVICE static void mul(word* r, const word* a, const word* b) {
    for (unsigned l = 0; l < L; ++l) D::mul(r + l * D::limbs, a + l * D::limbs, b + l * D::limbs);
  }
  MPGEN_HOST_DEVICE static void sqr(word* r, const word* a) {
    for (unsigned l = 0; l < L; ++l) D::sqr(r + l * D::limbs, a + l * D::limbs);
  }
  MPGEN_HOST_DEVICE static void enter(word* r, const word* a) {
    for (unsigned l = 0; l < L; ++l) D::enter(r + l * D::limbs, a + l * D::limbs);
  }
  MPGEN_HOST_DEVICE static void leave(word* r, const word* a) {
    for (unsigned l = 0; l < L; ++l) D::leave(r + l * D::limbs, a + l * D::limbs);
  }
};

// r = a^e with a and r in D's form, for the low E bits of e: windows of `width` bits from
// the top, `width` squarings and one product by a table entry each, whatever the digits.
// scan: the table is built and read with constant indices only (it stays in registers)
// and each entry is picked by masks over all of them, so that no address depends on e;
// else each window loads the entry its digit names (the table in local memory).
// d: the domain (a field's loop_domain or loop_domain64, whose members are static, or a
// modulus given at run time: runtime_montgomery below; side_by_side: one power a lane); a,
// r in D's words, e in words of its own type (32 or 64 bits): a lane's E bits in each W
// words, lane by lane.
template <class D, unsigned E, unsigned width = D::window_bits, bool scan = D::scans_table, class EWord>
MPGEN_HOST_DEVICE void power(const D& d, typename D::word* r, const typename D::word* a, const EWord* e) {
  static_assert(width >= 1 && width <= 8, "windows of 1 to 8 bits");
  using Word = typename D::word;
  constexpr unsigned B = 8 * sizeof(EWord), N = D::limbs, windows = (E + width - 1) / width,
                     W = words_for<E, EWord>, size = 1u << width, L = lanes_of<D>::value, M = N / L;
  EWord digits[L][W + 1];  // and a zero word, so that a window may straddle the top word
  for (unsigned l = 0; l < L; ++l) {
    copy<W>(digits[l], e + l * W);
    if (E % B) digits[l][W - 1] &= (EWord(1) << E % B) - 1u;
    digits[l][W] = 0;
  }
  const auto digit = [&](unsigned l, unsigned w) {
    const unsigned at = width * w, shift = at % B;
    if constexpr (B == 32) {
      const uint64_t pair = uint64_t(digits[l][at / 32 + 1]) << 32 | digits[l][at / 32];
      return unsigned(pair >> shift) & (size - 1u);
    } else {
      const EWord high = shift ? digits[l][at / B + 1] << (B - shift) : 0;
      return unsigned((digits[l][at / B] >> shift | high) & (size - 1u));
    }
  };
  Word table[size][N];  // a^i
  d.one(table[0]);
  copy<N>(table[1], a);
  const auto extend = [&](unsigned i) {  // a^(2i) and a^(2i+1)
    d.sqr(table[2 * i], table[i]);
    d.mul(table[2 * i + 1], table[2 * i], a);
  };
  if (scan) {
    MPGEN_UNROLL for (unsigned i = 1; i < size / 2; ++i) extend(i);
  } else {
    MPGEN_ROLLED for (unsigned i = 1; i < size / 2; ++i) extend(i);
  }
  Word entry[N];
  const auto look_up = [&](unsigned w) {  // each lane's entry for its digit of window w
    for (unsigned l = 0; l < L; ++l) {
      const unsigned k = digit(l, w);
      if (scan) {
        copy<M>(entry + l * M, table[0] + l * M);
        MPGEN_UNROLL for (unsigned i = 1; i < size; ++i)
          select<M>(entry + l * M, Word(0) - Word(i == k), table[i] + l * M, entry + l * M);
      } else {
        copy<M>(entry + l * M, table[k] + l * M);
      }
    }
  };
  look_up(windows - 1);
  copy<N>(r, entry);
  MPGEN_ROLLED for (unsigned w = windows - 1; w-- > 0;) {
    MPGEN_ROLLED for (unsigned s = 0; s < width; ++s) d.sqr(r, r);
    look_up(w);
    d.mul(r, r, entry);
  }
}

template <class D, unsigned E, unsigned width = D::window_bits, bool scan = D::scans_table, class EWord>
MPGEN_HOST_DEVICE void power(typename D::word* r, const typename D::word* a, const EWord* e) {
  power<D, E, width, scan>(D{}, r, a, e);
}

// r = a^e mod p for the low E bits of e (a, r in ordinary form).
template <class D, unsigned E, unsigned width = D::window_bits, bool scan = D::scans_table, class EWord>
MPGEN_HOST_DEVICE void window_power(const D& d, typename D::word* r, const typename D::word* a, const EWord* e) {
  typename D::word x[D::limbs];
  d.enter(x, a);
  power<D, E, width, scan>(d, r, x, e);
  d.leave(r, r);
}

template <class D, unsigned E, unsigned width = D::window_bits, bool scan = D::scans_table, class EWord>
MPGEN_HOST_DEVICE void window_power(typename D::word* r, const typename D::word* a, const EWord* e) {
  window_power<D, E, width, scan>(D{}, r, a, e);
}

// The same by a Montgomery ladder: (r0, r1) = (a^k, a^(k+1)) for the bits k of e read so
// far; each bit costs one product and one squaring, swapped in and out by masks.
template <class D, unsigned E, class EWord>
MPGEN_HOST_DEVICE void ladder_power(typename D::word* r, const typename D::word* a, const EWord* e) {
  using Word = typename D::word;
  constexpr unsigned N = D::limbs, B = 8 * sizeof(EWord);
  Word r0[N], r1[N], swapped = 0;
  D::one(r0);
  D::enter(r1, a);
  MPGEN_ROLLED for (unsigned i = E; i-- > 0;) {
    const Word bit = (e[i / B] >> i % B) & 1u;
    conditional_swap<N>(r0, r1, bit ^ swapped);
    swapped = bit;
    D::mul(r1, r0, r1);
    D::sqr(r0, r0);
  }
  conditional_swap<N>(r0, r1, swapped);
  D::leave(r, r0);
}

// y = a^(p-2) mod p and the flag word: 1 for a = 0, which has no inverse (p prime).
template <class D, class IsZero>
MPGEN_HOST_DEVICE void fermat_inverse(typename D::word* y, const typename D::word* a) {
  typename D::word e[words_for<D::fermat_exponent_bits, typename D::word>];
  D::fermat_exponent(e);
  window_power<D, D::fermat_exponent_bits>(y, a, e);
  apply<IsZero>(y + D::limbs, a);
}

// y = a^-1 mod p and the flag word, by 2k steps of the binary extended gcd (k the
// modulus' width: each step shortens u or v by a bit until u = 0, v = gcd(a, p)).
template <class D, class Step>
MPGEN_HOST_DEVICE void gcd_inverse(uint32_t* y, const uint32_t* a) {
  constexpr unsigned N = D::limbs;
  uint32_t s[4 * N], t[4 * N];  // u, v, A, C with A a = u, C a = v (mod p)
  copy<N>(s, a);
  D::modulus(s + N);
  MPGEN_UNROLL for (unsigned k = 2 * N; k < 4 * N; ++k) s[k] = k == 2 * N;
  MPGEN_ROLLED for (unsigned i = 0; i < D::modulus_bits; ++i) {
    apply<Step>(t, s);
    apply<Step>(s, t);
  }
  uint32_t one[N];
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) one[k] = k == 0;
  const uint32_t inverse = equal_mask<N>(s + N, one);
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) y[k] = s[3 * N + k] & inverse;
  y[N] = ~inverse & 1u;
}

// z = a square root of x, both in D's form; returns all ones where x is a square, else 0
// (and z is no root). For p = 3 mod 4, x^((p+1)/4); else Tonelli-Shanks in constant time
// (RFC 9380, appendix I.4): its loops run two_adicity - 1 times with masked updates.
template <class D>
MPGEN_HOST_DEVICE typename D::word root_in_domain(typename D::word* z, const typename D::word* x) {
  using Word = typename D::word;
  constexpr unsigned N = D::limbs;
  Word e[words_for<D::root_exponent_bits, Word>];
  D::root_exponent(e);
  power<D, D::root_exponent_bits>(z, x, e);
  if (D::two_adicity > 1) {  // z = x^((q-1)/2) for p - 1 = q 2^s
    Word t[N], b[N], c[N], one[N], product[N];
    D::sqr(t, z);
    D::mul(t, t, x);  // x^q
    D::mul(z, z, x);  // x^((q+1)/2)
    D::root_of_unity(c);
    D::one(one);
    MPGEN_ROLLED for (unsigned k = D::two_adicity; k >= 2; --k) {
      copy<N>(b, t);
      MPGEN_ROLLED for (unsigned j = 2; j < k; ++j) D::sqr(b, b);
      const Word keep = equal_mask<N>(b, one);
      D::mul(product, z, c);
      select<N>(z, keep, z, product);
      D::sqr(c, c);
      D::mul(product, t, c);
      select<N>(t, keep, t, product);
    }
  }
  Word square[N];
  D::sqr(square, z);
  return equal_mask<N>(square, x);
}

// y = a root of a mod p and the flag word: 1 where a is not a square (y = 0).
template <class D>
MPGEN_HOST_DEVICE void square_root(typename D::word* y, const typename D::word* a) {
  using Word = typename D::word;
  constexpr unsigned N = D::limbs;
  Word x[N], z[N];
  D::enter(x, a);
  const Word root = root_in_domain<D>(z, x);
  D::leave(y, z);
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) y[k] &= root;
  y[N] = ~root & 1u;
}

// y = a / b and a mod b for a = (high, low) of 2N limbs (Wide) or N (high = 0), b of N:
// the quotient's limbs where Quotient, then the remainder's where Remainder, then the flag
// (Knuth's algorithm D, thread/division.py: Normalize's shifts and reciprocal, one Step per
// quotient digit from the top, Finish's shift back and masks). The digits run in a rolled
// loop: on the GPU the dividend's and quotient's limbs, indexed by its counter, stay in
// local memory, one load and one store a digit.
template <class Normalize, class Step, class Finish, unsigned N, bool Wide, bool Quotient, bool Remainder>
MPGEN_HOST_DEVICE void divide(uint32_t* y, const uint32_t* x) {
  uint32_t in[3 * N], normal[3 * N + 3];  // high, low, b; then v, u (2N), s, reciprocal, undefined
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) {
    in[k] = Wide ? x[N + k] : 0u;
    in[N + k] = x[k];
    in[2 * N + k] = x[(Wide ? 2 * N : N) + k];
  }
  apply<Normalize>(normal, in);
  const uint32_t* u = normal + N;
  uint32_t window[2 * N + 2], next[N + 1], q[N];  // window: r, the next limb, v, reciprocal
  copy<N>(window, u + N);
  copy<N>(window + N + 1, normal);
  window[2 * N + 1] = normal[3 * N + 1];
  MPGEN_ROLLED for (unsigned j = N; j-- > 0;) {
    window[N] = u[j];
    apply<Step>(next, window);
    copy<N>(window, next);
    q[j] = next[N];
  }
  uint32_t last[2 * N + 2], out[2 * N + 1];  // r, s, q, undefined; then q, r >> s, flag
  copy<N>(last, window);
  last[N] = normal[3 * N];
  copy<N>(last + N + 1, q);
  last[2 * N + 1] = normal[3 * N + 2];
  apply<Finish>(out, last);
  if (Quotient) copy<N>(y, out);
  if (Remainder) copy<N>(y + (Quotient ? N : 0), out + N);
  y[(Quotient + Remainder) * N] = out[2 * N];
}

// R^2 mod p for p = x (N limbs), R = 2^(32 N), and the flag word: 1 where p is even (the
// result then 0). Two divisions: R mod p (the dividend (1, 0)), then (R mod p) R mod p;
// for p = 1 both are 0 (R's high half 1 is not below p: divide's 0).
template <class Normalize, class Step, class Finish, unsigned N>
MPGEN_HOST_DEVICE void radix_squared(uint32_t* y, const uint32_t* x) {
  uint32_t in[3 * N], rest[N + 1];  // low, high, p
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) {
    in[k] = 0;
    in[N + k] = k == 0;
    in[2 * N + k] = x[k];
  }
  divide<Normalize, Step, Finish, N, true, false, true>(rest, in);
  copy<N>(in + N, rest);
  divide<Normalize, Step, Finish, N, true, false, true>(rest, in);
  const uint32_t odd = x[0] & 1u;
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) y[k] = rest[k] & (0u - odd);
  y[N] = odd ^ 1u;
}

// Barrett's reciprocal of p = x (N limbs) for barrett_modmul (thread/runtime_modulus.py): v =
// floor((2^(64N) - 1) / p') - 2^(32N), p' = p shifted up by its leading zeros, and the flag
// word: 1 where p = 0 (v then 0). Normalize gives p'; v is the quotient of (~p') 2^(32N) +
// 2^(32N) - 1 by p', whose high half ~p' is below p'.
template <class Normalize, class Step, class Finish, unsigned N>
MPGEN_HOST_DEVICE void barrett_reciprocal(uint32_t* y, const uint32_t* x) {
  uint32_t in[3 * N], normal[3 * N + 3];  // high, low, p; then p', ...
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) {
    in[k] = in[N + k] = 0;
    in[2 * N + k] = x[k];
  }
  apply<Normalize>(normal, in);
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) {  // low, high, b: divide's wide dividend
    in[k] = ~0u;
    in[N + k] = ~normal[k];
    in[2 * N + k] = normal[k];
  }
  divide<Normalize, Step, Finish, N, true, true, false>(y, in);
}

// Montgomery form modulo an odd p given at run time, for the loops above: p, -p^-1 mod
// 2^32, R^2 mod p and R mod p (one) held by the domain; its products are the generated
// MontMul and MontSqr with p and -p^-1 after their operands.
template <class MontMul, class MontSqr, unsigned N, unsigned Window, bool Scan>
struct runtime_montgomery {
  using word = uint32_t;
  static constexpr unsigned limbs = N, window_bits = Window;
  static constexpr bool scans_table = Scan;
  uint32_t modulus[N], minus_inverse, squared_radix[N], radix[N];  // p, -p^-1, R^2 and R mod p

  MPGEN_HOST_DEVICE void mul(uint32_t* r, const uint32_t* a, const uint32_t* b) const {
    uint32_t x[3 * N + 1], y[N];
    copy<N>(x, a);
    copy<N>(x + N, b);
    copy<N>(x + 2 * N, modulus);
    x[3 * N] = minus_inverse;
    apply<MontMul>(y, x);
    copy<N>(r, y);
  }
  MPGEN_HOST_DEVICE void sqr(uint32_t* r, const uint32_t* a) const {
    uint32_t x[2 * N + 1], y[N];
    copy<N>(x, a);
    copy<N>(x + N, modulus);
    x[2 * N] = minus_inverse;
    apply<MontSqr>(y, x);
    copy<N>(r, y);
  }
  // Takes p (N limbs, odd) and computes its constants: -p^-1 mod 2^32 by MinusInverse, R^2
  // mod p by radix_squared's divisions, R mod p as R^2 R^-1.
  template <class MinusInverse, class Normalize, class Step, class Finish>
  MPGEN_HOST_DEVICE void set_modulus(const uint32_t* p) {
    uint32_t word[2], squared[N + 1], unit[N] = {1};
    copy<N>(modulus, p);
    apply<MinusInverse>(word, p);
    minus_inverse = word[0];
    ::mpgen::loops::radix_squared<Normalize, Step, Finish, N>(squared, p);
    copy<N>(squared_radix, squared);
    mul(radix, squared_radix, unit);
  }
  MPGEN_HOST_DEVICE void one(uint32_t* r) const { copy<N>(r, radix); }
  MPGEN_HOST_DEVICE void enter(uint32_t* r, const uint32_t* a) const { mul(r, a, squared_radix); }
  MPGEN_HOST_DEVICE void leave(uint32_t* r, const uint32_t* a) const {
    uint32_t unit[N] = {1};
    mul(r, a, unit);
  }
};

// y = a^e mod p and the flag word for x = a, e (E bits), p (N limbs each; a < p): the
// fields' windowed power in the Montgomery form of a p given at run time, its constants
// computed first (set_modulus). Where p is even: result 0, flag 1.
template <class MontMul, class MontSqr, class MinusInverse, class Normalize, class Step, class Finish, unsigned N,
          unsigned E, unsigned Window, bool Scan>
MPGEN_HOST_DEVICE void runtime_power(uint32_t* y, const uint32_t* x) {
  const uint32_t* p = x + N + words_for<E>;
  runtime_montgomery<MontMul, MontSqr, N, Window, Scan> d;
  d.template set_modulus<MinusInverse, Normalize, Step, Finish>(p);
  window_power<decltype(d), E>(d, y, x, x + N);
  const uint32_t odd = p[0] & 1u;
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) y[k] &= 0u - odd;
  y[N] = odd ^ 1u;
}

// y = a b mod p and the flag word for x = a, b, p (N limbs each, a, b < p, any p given at
// run time): Mul's product (padded to 2N limbs), then its remainder by divide: the high
// half is below p, so the quotient fits. Where p = 0: result 0, flag 1.
template <class Mul, class Normalize, class Step, class Finish, unsigned N>
MPGEN_HOST_DEVICE void runtime_modmul(uint32_t* y, const uint32_t* x) {
  uint32_t product[Mul::out_words], in[3 * N];  // low, high, p
  apply<Mul>(product, x);
  MPGEN_UNROLL for (unsigned k = 0; k < 2 * N; ++k) in[k] = k < Mul::out_words ? product[k] : 0u;
  copy<N>(in + 2 * N, x + 2 * N);
  divide<Normalize, Step, Finish, N, true, false, true>(y, in);
}

// Bernstein and Yang's divsteps (thread/gcd.py: the integers' gcd, and modinv with p at run
// time): Start's state, Rounds rounds of Round (30 divsteps on the low words, then the
// state's update by their matrix) whatever the values, then Finish. Round reads the state
// and the words after it that stay (gcd's power of two; modinv's p and -p^-1 mod 2^32),
// and writes the next state; Finish reads them all.
template <class Start, class Round, class Finish, unsigned Rounds>
MPGEN_HOST_DEVICE void divsteps(uint32_t* y, const uint32_t* x) {
  uint32_t s[Start::out_words], t[Round::out_words];
  apply<Start>(s, x);
  MPGEN_ROLLED for (unsigned i = 0; i < Rounds; ++i) {
    apply<Round>(t, s);
    copy<Round::out_words>(s, t);
  }
  apply<Finish>(y, s);
}

// y = floor(sqrt(a)) and the flag word (1 where a is an exact square) for x = a (N limbs,
// Bits wide): one Step per bit of the root, from the top, each given the next two bits of
// a (read by the loop's counter: on the GPU a's limbs stay in local memory); the root and
// the remainder take M limbs (thread/sqrt.py).
template <class Step, unsigned N, unsigned Bits, unsigned M>
MPGEN_HOST_DEVICE void square_root_floor(uint32_t* y, const uint32_t* x) {
  constexpr unsigned pairs = (Bits + 1) / 2;
  uint32_t s[2 * M + 1], t[2 * M], a[N];
  copy<N>(a, x);
  MPGEN_UNROLL for (unsigned k = 0; k < 2 * M; ++k) s[k] = 0;  // r, e
  MPGEN_ROLLED for (unsigned i = pairs; i-- > 0;) {
    s[2 * M] = (a[2 * i / 32] >> (2 * i % 32)) & 3u;
    apply<Step>(t, s);
    copy<2 * M>(s, t);
  }
  uint32_t zero[M] = {};
  MPGEN_UNROLL for (unsigned k = 0; k < N; ++k) y[k] = k < M ? s[k] : 0u;
  y[N] = equal_mask<M>(s + M, zero) & 1u;
}

// One level of square_root_newton: s, the top Below limbs of the root's H, is
// floor(sqrt(T')) for T' the top 2 Below limbs of a'; extended by all-ones limbs to Limbs
// limbs it is above floor(sqrt(T)), T the top 2 Limbs limbs, by less than 2^(32 (Limbs -
// Below)); one round (divide: T by s, s's top bit set; Update: the smaller of s and (s +
// q) / 2) leaves the root or one more, and Check decides by s^2 against T (its word after
// the limbs: whether T is a square).
template <class Normalize, class Step, class Finish, class Update, class Check, unsigned Below, unsigned Limbs>
struct root_level {
  template <unsigned H>
  MPGEN_HOST_DEVICE static void run(const uint32_t* a, uint32_t* s, uint32_t* exact) {
    uint32_t* root = s + H - Limbs;
    const uint32_t* top = a + 2 * (H - Limbs);
    MPGEN_UNROLL for (unsigned k = 0; k < Limbs - Below; ++k) root[k] = ~0u;
    uint32_t in[3 * Limbs], quotient[Limbs + 1], pair[2 * Limbs + 1], checked[Limbs + 1];
    copy<2 * Limbs>(in, top);  // T, then s: divide's x
    copy<Limbs>(in + 2 * Limbs, root);
    divide<Normalize, Step, Finish, Limbs, true, true, false>(quotient, in);
    copy<Limbs>(pair, root);
    copy<Limbs + 1>(pair + Limbs, quotient);
    apply<Update>(in, pair);  // the next s, then T: Check's x
    copy<2 * Limbs>(in + Limbs, top);
    apply<Check>(checked, in);
    copy<Limbs>(root, checked);
    *exact = checked[Limbs];
  }
};

// y = floor(sqrt(a)) and the flag word (1 where a is an exact square) for x = a (N limbs)
// by Newton's iteration at doubling precision on the root's H limbs (thread/sqrt.py): Start
// gives a' = a 4^k (2H limbs, one of its top two bits set), the root of its top two limbs
// in the top limb of s, k and a's nonzero mask; each of Levels (root_level, from 2 limbs
// to H) makes s the root of more of a''s top limbs; Root shifts s back by k.
template <class Start, class Root, unsigned N, unsigned H, class... Levels>
MPGEN_HOST_DEVICE void square_root_newton(uint32_t* y, const uint32_t* x) {
  uint32_t start[Start::out_words], last[H + 3];  // a' (2H), s (H), k, the mask; then s, k, the mask, exact
  apply<Start>(start, x);
  uint32_t exact = 0;
  const int in_order[] = {(Levels::template run<H>(start, start + 2 * H, &exact), 0)...};
  (void)in_order;
  copy<H + 2>(last, start + 2 * H);
  last[H + 2] = exact;
  apply<Root>(y, last);
}

}  // namespace loops
}  // namespace mpgen

// Residue number system integers (after Isupov and Knyazkov, "Efficient GPU implementation
// of multiple-precision addition based on residue arithmetic"), written once for host and
// device around a moduli set's generated residue lists (its header's struct `set`: the
// moduli, the constants, and a list of each operation per chunk of moduli).
//
// An integer is n + 7 words: its magnitude's residues x_0 .. x_(n-1) (X below M), its sign
// (0 or 1), then the interval evaluation [lower, upper] of X / M, each bound a double (two
// words, low first) and an exponent word: f 2^e with f in [0.5, 1) or 0, an extended
// range, as X / M of a large M is far below double's range. Results carry a flag word
// after them: 1 where the result left the range (-M, M) (overflow), else 0.
//
// Sign and overflow come from the intervals, with directed rounding (the same results on
// host and device: the device's _rd/_ru instructions, the host's exact error terms); where
// an interval cannot decide, the mixed-radix digits do, exactly.
#ifndef MPGEN_RNS
#define MPGEN_RNS
#ifndef __CUDACC_RTC__
#include <cmath>
#include <cstring>
#endif

// The exact steps (mixed-radix digits) run where an interval cannot decide, rarely: out of
// line, so that their n-word arrays and loops cost the common path no registers (function
// templates, so one copy in every translation unit is allowed).
#ifdef __CUDACC__
#define MPGEN_RNS_RARE __host__ __device__ __noinline__
#else
#define MPGEN_RNS_RARE
#endif

namespace mpgen {
namespace rns {

#ifdef __CUDA_ARCH__
MPGEN_HOST_DEVICE double add_down(double a, double b) { return __dadd_rd(a, b); }
MPGEN_HOST_DEVICE double add_up(double a, double b) { return __dadd_ru(a, b); }
MPGEN_HOST_DEVICE double mul_down(double a, double b) { return __dmul_rd(a, b); }
MPGEN_HOST_DEVICE double mul_up(double a, double b) { return __dmul_ru(a, b); }
#else
// The host rounds to nearest; the exact error of the rounded result (Knuth's two-sum, or
// the fused multiply-add) says which way it went, and a step towards the wanted side
// corrects it. Valid without overflow and underflow, which the bounds' [0.5, 1) keep off.
inline double add_error(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
inline double add_down(double a, double b) {
  const double s = a + b;
  return add_error(a, b, s) < 0 ? std::nextafter(s, -INFINITY) : s;
}
inline double add_up(double a, double b) {
  const double s = a + b;
  return add_error(a, b, s) > 0 ? std::nextafter(s, INFINITY) : s;
}
inline double mul_down(double a, double b) {
  const double p = a * b;
  return std::fma(a, b, -p) < 0 ? std::nextafter(p, -INFINITY) : p;
}
inline double mul_up(double a, double b) {
  const double p = a * b;
  return std::fma(a, b, -p) > 0 ? std::nextafter(p, INFINITY) : p;
}
#endif

// f 2^e: a bound of the interval evaluation.
struct bound {
  double f;
  int e;
};

MPGEN_HOST_DEVICE bound normalized(double f, int e) {
  int k = 0;
  const double g = frexp(f, &k);  // exact
  return f == 0 ? bound{0, 0} : bound{g, e + k};
}

// a + b rounded down (Down) or up; b's fraction is aligned to a's exponent, exactly while
// it stays a normal double, and below that it is less than a's last bit: a, or a step off
// it where b pulls the rounded sum away.
template <bool Down>
MPGEN_HOST_DEVICE bound add(bound a, bound b) {
  if (a.f == 0) return b;
  if (b.f == 0) return a;
  if (a.e < b.e) {
    const bound t = a;
    a = b;
    b = t;
  }
  const int d = a.e - b.e;
  if (d > 1000) {
    const bool away = Down ? b.f < 0 : b.f > 0;
    return away ? normalized(Down ? add_down(a.f, -0x1p-60) : add_up(a.f, 0x1p-60), a.e) : a;
  }
  const double s = Down ? add_down(a.f, ldexp(b.f, -d)) : add_up(a.f, ldexp(b.f, -d));
  return normalized(s, a.e);
}

template <bool Down>
MPGEN_HOST_DEVICE bound mul(bound a, bound b) {
  return normalized(Down ? mul_down(a.f, b.f) : mul_up(a.f, b.f), a.e + b.e);
}

MPGEN_HOST_DEVICE bound negated(bound a) { return {-a.f, a.e}; }
// a >= 1, for a normalized bound: f in [0.5, 1) puts it in [2^(e-1), 2^e).
MPGEN_HOST_DEVICE bool at_least_one(bound a) { return a.f > 0 && a.e >= 1; }

// An integer's words, word w at p[w * stride]: one integer of a batch in either layout.
template <class T>
struct words {
  T* p;
  std::size_t stride;
  MPGEN_HOST_DEVICE T& operator[](unsigned w) const { return p[w * stride]; }
  MPGEN_HOST_DEVICE words from(unsigned w) const { return {p + w * stride, stride}; }  // words w onwards
};

template <class Set>
struct integer {
  static constexpr unsigned n = Set::count;
  static constexpr unsigned sign = n, lower = n + 1, upper = n + 4, words = n + 7;
};

MPGEN_HOST_DEVICE double double_of(uint64_t bits) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)bits);
#else
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
#endif
}

MPGEN_HOST_DEVICE uint64_t bits_of(double d) {
#ifdef __CUDA_ARCH__
  return (uint64_t)__double_as_longlong(d);
#else
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof d);
  return bits;
#endif
}

// (x: words, or any view that indexes an integer's words as words do.)
template <class X>
MPGEN_HOST_DEVICE bound load_bound(const X& x, unsigned at) {
  return {double_of(uint64_t(x[at + 1]) << 32 | x[at]), int(x[at + 2])};
}

template <class X>
MPGEN_HOST_DEVICE void store_bound(const X& x, unsigned at, bound b) {
  const uint64_t bits = bits_of(b.f);
  x[at] = uint32_t(bits);
  x[at + 1] = uint32_t(bits >> 32);
  x[at + 2] = uint32_t(b.e);
}

// a b mod m and 2^k mod m for any m below 2^32: the mixed-radix digits' and the
// evaluation's arithmetic, which runs only where an interval cannot decide (values within
// about n 2^-50 M of a decision point) and in conversions, so it has no generated lists.
MPGEN_HOST_DEVICE uint32_t mul_mod(uint32_t a, uint32_t b, uint32_t m) { return uint32_t(uint64_t(a) * b % m); }
MPGEN_HOST_DEVICE uint32_t power_of_two_mod(int k, uint32_t m) {
  uint32_t r = 1 % m, b = 2 % m;
  for (; k; k >>= 1, b = mul_mod(b, b, m))
    if (k & 1) r = mul_mod(r, b, m);
  return r;
}

// The mixed-radix digits of X (its residues in x): X = a_0 + a_1 m_0 + a_2 m_0 m_1 + ...
template <class Set, class T>
MPGEN_HOST_DEVICE void mixed_radix(uint32_t* a, words<T> x) {
  constexpr unsigned n = Set::count;
  for (unsigned i = 0; i < n; ++i) a[i] = x[i];
  for (unsigned i = 0, row = 0; i + 1 < n; row += n - i - 1, ++i) {
    for (unsigned j = i + 1; j < n; ++j) {
      const uint32_t mj = Set::modulus(j), d = uint32_t((uint64_t(a[j]) + mj - a[i] % mj) % mj);
      a[j] = mul_mod(d, Set::mixed_radix_inverse(row + j - i - 1), mj);
    }
  }
}

// -1, 0 or 1 as X < Y, X = Y or X > Y, by the mixed-radix digits from the top.
template <class Set, class T, class U>
MPGEN_RNS_RARE int compare_magnitudes(words<T> x, words<U> y) {
  uint32_t a[Set::count], b[Set::count];
  mixed_radix<Set>(a, x);
  mixed_radix<Set>(b, y);
  for (unsigned i = Set::count; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// X > (M - 1) / 2, exactly.
template <class Set, class T>
MPGEN_RNS_RARE bool above_half(words<T> x) {
  uint32_t a[Set::count];
  mixed_radix<Set>(a, x);
  for (unsigned i = Set::count; i-- > 0;)
    if (a[i] != Set::half_digit(i)) return a[i] > Set::half_digit(i);
  return false;
}

template <class T>
MPGEN_HOST_DEVICE bool is_zero(words<T> x, unsigned n) {
  uint32_t any = 0;
  for (unsigned i = 0; i < n; ++i) any |= x[i];
  return any == 0;
}

// z = List(x's residues, y's, masks) for each chunk C of moduli (Pick::in<C> names the
// list), loading and storing as it goes: n residues of three integers do not fit in a
// thread's registers at n = 256. Returns the results' or: 0 where z is 0.
template <class Set, class Pick, class X, class Y = const uint32_t, unsigned Masks = 0>
MPGEN_HOST_DEVICE uint32_t residues(words<uint32_t> z, words<X> x, words<Y> y = {nullptr, 0},
                                    const uint32_t (&masks)[Masks == 0 ? 1 : Masks] = {0}) {
  uint32_t any = 0;
  Set::for_each_chunk([&](auto chunk) {
    using C = decltype(chunk);
    using List = typename Pick::template in<C>;
    uint32_t in[List::in_words], out[C::count];
    for (unsigned i = 0; i < C::count; ++i) in[i] = x[C::first + i];
    if (y.p)
      for (unsigned i = 0; i < C::count; ++i) in[C::count + i] = y[C::first + i];
    for (unsigned k = Masks; k-- > 0;) in[List::in_words - Masks + k] = masks[k];
    ::mpgen::loops::apply<List>(out, in);
    for (unsigned i = 0; i < C::count; ++i) {
      z[C::first + i] = out[i];
      any |= out[i];
    }
  });
  return any;
}

struct add_list { template <class C> using in = typename C::add; };
struct sub_list { template <class C> using in = typename C::sub; };
struct mul_list { template <class C> using in = typename C::mul; };
struct add_signed_list { template <class C> using in = typename C::add_signed; };

// A magnitude's lower bound: 0 where rounding took it below.
MPGEN_HOST_DEVICE bound clamped(bound lower) { return lower.f < 0 ? bound{0, 0} : lower; }

// The overflow flag as a magnitude's interval says it: 0, 1, or undecided (the interval
// holds M).
constexpr uint32_t undecided = 2;
MPGEN_HOST_DEVICE uint32_t overflow_of(bound lower, bound upper) {
  return !at_least_one(upper) ? 0 : at_least_one(lower) ? 1 : undecided;
}

template <class Set, class Z>
MPGEN_HOST_DEVICE void store_interval(const Z& z, uint32_t sign, bound lower, bound upper) {
  using I = integer<Set>;
  z[I::sign] = sign;
  store_bound(z, I::lower, lower);
  store_bound(z, I::upper, upper);
}

// Stores the sign and the magnitude's interval, and returns the overflow flag: certain
// where the lower bound reaches 1, impossible where the upper one stays below 1; between,
// the true magnitude lies within the interval's few ulps of M, so it is either just below
// M (stored as is: above M / 2) or wrapped to just above 0 (below M / 2).
template <class Set>
MPGEN_HOST_DEVICE uint32_t finish(words<uint32_t> z, uint32_t sign, bound lower, bound upper) {
  lower = clamped(lower);
  uint32_t overflow = overflow_of(lower, upper);
  if (overflow == undecided) overflow = !above_half<Set>(z);
  store_interval<Set>(z, sign, lower, upper);
  return overflow;
}

// The signed value's interval [lo, hi] (of x / M) for the sign `sign`: the magnitude's,
// negated for a negative one.
template <class Set, class X>
MPGEN_HOST_DEVICE void signed_interval(const X& x, uint32_t sign, bound& lo, bound& hi) {
  using I = integer<Set>;
  const bound l = load_bound(x, I::lower), u = load_bound(x, I::upper);
  lo = sign ? negated(u) : l;
  hi = sign ? negated(l) : u;
}

// Whether (+-x) + (+-y) (x's and y's signs) is negative, where its interval holds 0 and
// cannot say: the sum as stored for a nonnegative one is above (M - 1) / 2 exactly where
// it is negative (the paper's mixed-radix step; it compares the magnitudes instead).
template <class Set, class X, class Y>
MPGEN_RNS_RARE uint32_t negative_near_zero(words<X> x, words<Y> y, uint32_t sx, uint32_t sy) {
  uint32_t sum[Set::count];
  residues<Set, add_signed_list, X, Y, 2>(words<uint32_t>{sum, 1}, x, y, {0u - sx, 0u - sy});
  return above_half<Set>(words<uint32_t>{sum, 1});
}

// The interval of (+-x) + (+-y) (the signs sx, sy), and whether it says the sum's sign
// (it does not where it holds 0).
template <class Set, class X, class Y>
MPGEN_HOST_DEVICE bool sum_interval(const X& x, const Y& y, uint32_t sx, uint32_t sy, bound& lower, bound& upper) {
  bound xl, xu, yl, yu;
  signed_interval<Set>(x, sx, xl, xu);
  signed_interval<Set>(y, sy, yl, yu);
  lower = add<true>(xl, yl), upper = add<false>(xu, yu);
  return lower.f >= 0 || upper.f < 0;
}

// A signed interval as its magnitude's, for the sign sz.
MPGEN_HOST_DEVICE void magnitude_interval(uint32_t sz, bound& lower, bound& upper) {
  if (sz) {
    const bound t = lower;
    lower = negated(upper);
    upper = negated(t);
  }
}

// z = x + y by the paper's Algorithm 2: the operands in radix complement, the sum's sign
// from its interval, and a negative sum's residues negated back, all without a branch on
// the operands' signs. The sign is settled before the residues are read, so one pass
// computes z_i = (+-x_i) + (+-y_i), each operand negated where its sign differs from the
// sum's (-(a + b) = (-a) + (-b)). Where the interval holds 0 (the sum within a few ulps of
// n M 2^-53 of 0), the mixed-radix digits settle it. Returns the overflow flag.
// (Subtraction is the same with y's sign flipped: flip_y = 1.)
template <class Set, class X, class Y>
MPGEN_HOST_DEVICE uint32_t add_complement(words<uint32_t> z, words<X> x, words<Y> y, uint32_t flip_y = 0) {
  using I = integer<Set>;
  const uint32_t sx = x[I::sign], sy = y[I::sign] ^ flip_y;
  bound lower, upper;
  const bool decided = sum_interval<Set>(x, y, sx, sy, lower, upper);
  const uint32_t sz = decided ? upper.f < 0 : negative_near_zero<Set>(x, y, sx, sy);
  const uint32_t nonzero = residues<Set, add_signed_list, X, Y, 2>(z, x, y, {0u - (sx ^ sz), 0u - (sy ^ sz)}) != 0;
  if (!decided) {  // the bound on the side of 0: |sum| >= 1 where it is not 0
    if (sz) upper = negated(Set::inverse_range_down());
    else lower = nonzero ? Set::inverse_range_down() : bound{0, 0};
  }
  magnitude_interval(sz, lower, upper);
  return finish<Set>(z, sz, lower, upper);
}

// z = x + y by the paper's Algorithm 1: a residue addition where the signs agree, else the
// smaller magnitude subtracted from the larger (by the intervals, or the mixed-radix
// digits where they overlap), each a branch: threads of a warp whose signs differ
// diverge, the cost Algorithm 2 removes.
template <class Set, class X, class Y>
MPGEN_HOST_DEVICE uint32_t add_branching(words<uint32_t> z, words<X> x, words<Y> y) {
  using I = integer<Set>;
  const uint32_t sx = x[I::sign], sy = y[I::sign];
  const bound xl = load_bound(x, I::lower), xu = load_bound(x, I::upper);
  const bound yl = load_bound(y, I::lower), yu = load_bound(y, I::upper);
  if (sx == sy) {
    residues<Set, add_list>(z, x, y);
    return finish<Set>(z, sx, add<true>(xl, yl), add<false>(xu, yu));
  }
  const bound x_minus_y = add<true>(xl, negated(yu)), y_minus_x = add<true>(yl, negated(xu));
  if (x_minus_y.f >= 0 || (y_minus_x.f < 0 && compare_magnitudes<Set>(x, y) >= 0)) {
    const uint32_t nonzero = residues<Set, sub_list>(z, x, y) != 0;  // x - x is +0
    return finish<Set>(z, sx & nonzero, x_minus_y, add<false>(xu, negated(yl)));
  }
  residues<Set, sub_list>(z, y, x);
  return finish<Set>(z, sy, y_minus_x, add<false>(yu, negated(xl)));
}

// z = x y: residue products, the signs' exclusive or, and X Y / M's interval as
// (X / M) (Y / M) M, rounded outwards.
template <class Set, class X, class Y>
MPGEN_HOST_DEVICE void product_interval(const X& x, const Y& y, bound& lower, bound& upper) {
  using I = integer<Set>;
  lower = mul<true>(mul<true>(load_bound(x, I::lower), load_bound(y, I::lower)), Set::range_down());
  upper = mul<false>(mul<false>(load_bound(x, I::upper), load_bound(y, I::upper)), Set::range_up());
}

template <class Set, class X, class Y>
MPGEN_HOST_DEVICE uint32_t multiply(words<uint32_t> z, words<X> x, words<Y> y) {
  using I = integer<Set>;
  const uint32_t nonzero = residues<Set, mul_list>(z, x, y) != 0;  // -x 0 is +0
  bound lower, upper;
  product_interval<Set>(x, y, lower, upper);
  return finish<Set>(z, (x[I::sign] ^ y[I::sign]) & nonzero, lower, upper);
}

// z = -x: the residues and the interval as they are, the sign flipped where x is not 0.
template <class Set, class X>
MPGEN_HOST_DEVICE void negate(words<uint32_t> z, words<X> x) {
  using I = integer<Set>;
  uint32_t any = 0;
  for (unsigned i = 0; i < Set::count; ++i) any |= z[i] = x[i];
  for (unsigned w = I::lower; w < I::words; ++w) z[w] = x[w];
  z[I::sign] = any ? x[I::sign] ^ 1 : 0;
}

// -1, 0 or 1 as x < 0, x = 0 or x > 0 (-1 as the word 2^32 - 1).
template <class Set, class X>
MPGEN_HOST_DEVICE uint32_t sign_of(words<X> x) {
  using I = integer<Set>;
  if (is_zero(x, Set::count)) return 0;
  return x[I::sign] ? ~0u : 1;
}

// -1, 0 or 1 as x < y, x = y or x > y: by the intervals of x - y where they decide, else
// exactly (the signs, then the magnitudes' mixed-radix digits).
template <class Set, class X, class Y>
MPGEN_HOST_DEVICE uint32_t compare(words<X> x, words<Y> y) {
  using I = integer<Set>;
  bound xl, xu, yl, yu;
  signed_interval<Set>(x, x[I::sign], xl, xu);
  signed_interval<Set>(y, y[I::sign], yl, yu);
  if (add<true>(xl, negated(yu)).f > 0) return 1;
  if (add<false>(xu, negated(yl)).f < 0) return ~0u;
  const uint32_t sx = x[I::sign], sy = y[I::sign];
  if (sx != sy) return is_zero(x, Set::count) && is_zero(y, Set::count) ? 0 : sx ? ~0u : 1;
  const int order = compare_magnitudes<Set>(x, y);
  return order == 0 ? 0 : (order > 0) != (sx != 0) ? 1 : ~0u;
}

// X / M's interval from the residues alone (Isupov, "Using floating-point intervals for
// non-modular computations in residue number system", IEEE Access 8, 2020; GRNS's
// rns_eval_compute): X / M = frac(sum of s_i / m_i), s_i = x_i w_i mod m_i, each term and
// the sums rounded down for the lower bound and up for the upper. Where the two sums'
// integer parts differ, X / M is within their error of 0 or of 1, and the mixed-radix
// digits say which. Where the upper bound is below 2^-20 its relative accuracy is poor:
// X is scaled by 2^k (X 2^k < M / 2, k from the bound) and evaluated again, the bounds'
// exponents less the shift. What conversions use; it costs n products a round.
template <class Set, class T>
MPGEN_HOST_DEVICE void evaluate(words<T> x, bound& lower, bound& upper) {
  constexpr unsigned n = Set::count;
  if (is_zero(x, n)) {
    lower = upper = bound{0, 0};
    return;
  }
  uint32_t r[n], s[n];  // the scaled X's residues, and each times w_i
  for (unsigned i = 0; i < n; ++i) {
    r[i] = x[i];
    s[i] = mul_mod(r[i], Set::crt_weight(i), Set::modulus(i));
  }
  int shift = 0;
  for (;;) {
    double lo = 0, hi = 0;
    for (unsigned i = 0; i < n; ++i) {
      lo = add_down(lo, mul_down(double(s[i]), Set::reciprocal_down(i)));
      hi = add_up(hi, mul_up(double(s[i]), Set::reciprocal_up(i)));
    }
    const double whole_lo = floor(lo), whole_hi = floor(hi);
    lo -= whole_lo;  // exact: the sums are below 2^10
    hi -= whole_hi;
    if (whole_lo != whole_hi) {  // after a shift, X 2^shift < M / 2: near 0
      if (shift == 0 && above_half<Set>(words<uint32_t>{r, 1})) hi = 1;
      else lo = 0;
    }
    if (hi >= 0x1p-20) {
      lower = normalized(lo, -shift);
      upper = normalized(hi, -shift);
      return;
    }
    int k = 0;
    frexp(hi, &k);  // hi < 2^k: X 2^(-k - 1) < M / 2
    k = -k - 1;
    for (unsigned i = 0; i < n; ++i) {
      const uint32_t m = Set::modulus(i), p = power_of_two_mod(k, m);
      r[i] = mul_mod(r[i], p, m);
      s[i] = mul_mod(s[i], p, m);
    }
    shift += k;
  }
}

// X / M's interval from X in binary: its top 64 bits t (X = t 2^s + rest, rest < 2^s)
// put X in [t 2^s, (t + 1) 2^s], and 1 / M's bounds finish it. What conversions use: O(1)
// past the top limbs, where the residues' evaluation may refine for long.
template <class Set, class T>
MPGEN_HOST_DEVICE void interval_of_binary(words<T> magnitude, unsigned limbs, bound& lower, bound& upper) {
  unsigned top = limbs;
  while (top > 0 && magnitude[top - 1] == 0) --top;
  if (top == 0) {
    lower = upper = bound{0, 0};
    return;
  }
  // The three top limbs (zeros below limb 0), shifted so that t's top bit is X's.
  const uint64_t w2 = magnitude[top - 1], w1 = top >= 2 ? magnitude[top - 2] : 0, w0 = top >= 3 ? magnitude[top - 3] : 0;
#ifdef __CUDA_ARCH__
  const int lead = __clz(uint32_t(w2));
#else
  const int lead = __builtin_clz(uint32_t(w2));
#endif
  const uint64_t t = w2 << (32 + lead) | w1 << lead | (lead ? w0 >> (32 - lead) : 0);
  const int s = 32 * (int(top) - 3) + 32 - lead;
  const double high = double(uint32_t(t >> 32)) * 0x1p32, low = double(uint32_t(t));
  lower = mul<true>(normalized(add_down(high, low), s), Set::inverse_range_down());
  upper = mul<false>(normalized(add_up(high, low + 1), s), Set::inverse_range_up());
}

// z = x with its interval evaluation made from its residues alone.
template <class Set, class X>
MPGEN_HOST_DEVICE void reevaluate(words<uint32_t> z, words<X> x) {
  using I = integer<Set>;
  bound lower, upper;
  evaluate<Set>(x, lower, upper);
  for (unsigned i = 0; i <= I::sign; ++i) z[i] = x[i];
  store_bound(z, I::lower, lower);
  store_bound(z, I::upper, upper);
}

// z = the magnitude in `limbs` words (least significant first, below M) and the sign, with
// its interval evaluation.
template <class Set, class T>
MPGEN_HOST_DEVICE void from_binary(words<uint32_t> z, words<T> magnitude, unsigned limbs, uint32_t sign) {
  using I = integer<Set>;
  for (unsigned i = 0; i < Set::count; ++i) {
    const uint64_t m = Set::modulus(i);
    uint64_t r = 0;
    for (unsigned k = limbs; k-- > 0;) r = (r << 32 | magnitude[k]) % m;
    z[i] = uint32_t(r);
  }
  bound lower, upper;
  interval_of_binary<Set>(magnitude, limbs, lower, upper);
  z[I::sign] = sign != 0 && !is_zero(magnitude, limbs);  // no -0
  store_bound(z, I::lower, lower);
  store_bound(z, I::upper, upper);
}

// The magnitude in `limbs` words (enough for M - 1), from the mixed-radix digits:
// X = a_(n-1), then X m_i + a_i down to i = 0.
template <class Set, class T>
MPGEN_HOST_DEVICE void to_binary(words<uint32_t> magnitude, unsigned limbs, words<T> x) {
  uint32_t a[Set::count];
  mixed_radix<Set>(a, x);
  for (unsigned k = 0; k < limbs; ++k) magnitude[k] = 0;
  for (unsigned i = Set::count; i-- > 0;) {
    uint64_t carry = a[i];
    for (unsigned k = 0; k < limbs; ++k) {
      const uint64_t t = uint64_t(magnitude[k]) * Set::modulus(i) + carry;
      magnitude[k] = uint32_t(t);
      carry = t >> 32;
    }
  }
}

// The batch loops: Op over n instances in either layout, one instance per thread on the
// GPU, each integer's words read and written in place (a 264-word integer does not fit in
// registers). The same signatures as batch.cuh's, so that the runtime's table takes both.
#ifndef __CUDACC_RTC__
template <class Op>
inline void host_range(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, std::size_t first,
                       std::size_t last) {
  const Strides si = Strides::of(layout, n, Op::in_words), so = Strides::of(layout, n, Op::out_words);
  for (std::size_t j = first; j < last; ++j)
    Op::run(words<uint32_t>{out + j * so.instance, so.word}, words<const uint32_t>{in + j * si.instance, si.word});
}
template <class Op>
inline void host_batch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  rns::host_range<Op>(n, layout, in, out, 0, n);  // (not batch.cuh's, which the arguments' namespace offers too)
}
#endif

#ifdef __CUDACC__
// A thread's instance (the kernels source's C-named kernels call it too).
template <class Op>
__device__ __forceinline__ void batch_one(std::size_t n, Layout layout, const uint32_t* __restrict__ in,
                                          uint32_t* __restrict__ out) {
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  const Strides si = Strides::of(layout, n, Op::in_words), so = Strides::of(layout, n, Op::out_words);
  Op::run(words<uint32_t>{out + j * so.instance, so.word}, words<const uint32_t>{in + j * si.instance, si.word});
}

template <class Op>
__global__ void device_batch(std::size_t n, Layout layout, const uint32_t* __restrict__ in,
                             uint32_t* __restrict__ out) {
  batch_one<Op>(n, layout, in, out);
}

// Digit-parallel (the paper's future work): G lanes of one warp (G a power of two, 32 at
// most) hold one integer, lane t its words t, t + G, ... (residues, then the sign and the
// bounds), so that every load and store of the group is one coalesced access; each
// modulus is read as data (Set::modulus, Set::barrett: an immediate per lane would be a
// switch). The sign and bound words reach every lane by shuffles, and every lane works
// out the interval as the one-thread code does; where it cannot decide (a sum's sign near
// 0, an overflow near M), the group's lane 0 runs the one-thread operation on the whole
// integer, out of line. Lanes past the batch's end (active false) load nothing and store
// nothing but take part in the shuffles.
namespace digits {

__device__ __forceinline__ uint32_t add_mod(uint32_t a, uint32_t b, uint32_t m) {
  const uint32_t c = m - b, d = a - c;
  return a < c ? d + m : d;
}

__device__ __forceinline__ uint32_t negated_where(uint32_t a, uint32_t negate, uint32_t m) {
  return negate && a ? m - a : a;
}

// a b mod m by Barrett's reduction with mu = floor(2^64 / m): the estimate is short by 1 at
// most (p / m - q < p / 2^64 + 1 < 2).
__device__ __forceinline__ uint32_t mul_mod(uint32_t a, uint32_t b, uint32_t m, uint64_t mu) {
  const uint64_t p = uint64_t(a) * b, r = p - __umul64hi(p, mu) * m;
  return uint32_t(r >= m ? r - m : r);
}

// Whether any lane of this lane's group has v; every lane of the warp calls it.
template <unsigned G>
__device__ __forceinline__ bool any(bool v) {
  const unsigned votes = __ballot_sync(0xffffffffu, v);
  return (votes >> (threadIdx.x % 32 / G * G) & unsigned((1ull << G) - 1)) != 0;
}

// An integer's words as its group holds them: this lane's k-th is word lane + k G (of the
// integer's words and, for a result, its flag word).
template <class Set, unsigned G>
struct spread {
  static constexpr unsigned n = Set::count, W = integer<Set>::words, K = (W + G) / G;
  uint32_t r[K];

  template <class T>
  __device__ __forceinline__ void load(::mpgen::rns::words<T> x, unsigned lane, bool active) {
#pragma unroll
    for (unsigned k = 0; k < K; ++k) r[k] = active && lane + k * G < W ? x[lane + k * G] : 0;
  }
  // Words n to n + 6, the sign and the bounds, from the lanes that hold them.
  __device__ __forceinline__ void tail(uint32_t (&t)[7]) const {
#pragma unroll
    for (unsigned c = 0; c < 7; ++c) t[c] = __shfl_sync(0xffffffffu, r[(n + c) / G], (n + c) % G, G);
  }
};

// Words n onwards of an integer, indexed as words are (x[I::sign], load_bound, store_bound).
template <class Set, class T>
struct tail_words {
  T* t;
  __device__ __forceinline__ T& operator[](unsigned w) const { return t[w - Set::count]; }
};

// t[i] for i < 8 without indexing a register array by a lane's value.
__device__ __forceinline__ uint32_t pick(const uint32_t (&t)[8], unsigned i) {
  uint32_t v = t[0];
#pragma unroll
  for (unsigned c = 1; c < 8; ++c) v = i == c ? t[c] : v;
  return v;
}

// This lane's words of the result: residues from f(k, i, m) (its k-th word, word i, modulus
// m), then the sign, the bounds and the flag from `tail`.
template <class Set, unsigned G, class F>
__device__ __forceinline__ void store(words<uint32_t> z, unsigned lane, const uint32_t (&tail)[8], F&& f) {
  using S = spread<Set, G>;
#pragma unroll
  for (unsigned k = 0; k < S::K; ++k) {
    const unsigned i = lane + k * G;
    if (i < S::n) z[i] = f(k, i, Set::modulus(i));
    else if (i <= S::W) z[i] = pick(tail, i - S::n);
  }
}

template <class Set, class X, class Y>
__device__ __noinline__ uint32_t add_alone(words<uint32_t> z, words<X> x, words<Y> y, uint32_t flip_y) {
  return add_complement<Set>(z, x, y, flip_y);
}

template <class Set, class X, class Y>
__device__ __noinline__ uint32_t multiply_alone(words<uint32_t> z, words<X> x, words<Y> y) {
  return multiply<Set>(z, x, y);
}

// z = x + y (x - y for flip_y = 1) by Algorithm 2, z's flag word the overflow flag. (add and
// multiply load their operands alike, in place: a struct holding both operands with views
// into its own arrays ran at 0.43x-0.58x on the H100, its arrays out of registers.)
template <class Set, unsigned G, class X, class Y>
__device__ __forceinline__ void add(words<uint32_t> z, words<X> x, words<Y> y, unsigned lane, bool active,
                                    uint32_t flip_y = 0) {
  using I = integer<Set>;
  spread<Set, G> a, b;
  a.load(x, lane, active);
  b.load(y, lane, active);
  uint32_t xt[7], yt[7], zt[8];
  a.tail(xt);
  b.tail(yt);
  const tail_words<Set, const uint32_t> xv{xt}, yv{yt};
  const uint32_t sx = xv[I::sign], sy = yv[I::sign] ^ flip_y;
  bound lower, upper;
  const bool decided = sum_interval<Set>(xv, yv, sx, sy, lower, upper);
  const uint32_t sz = upper.f < 0;
  magnitude_interval(sz, lower, upper);
  lower = clamped(lower);
  const uint32_t overflow = overflow_of(lower, upper);
  if (!active) return;
  if (!decided || overflow == undecided) {
    if (lane == 0) z[I::words] = add_alone<Set>(z, x, y, flip_y);
    return;
  }
  store_interval<Set>(tail_words<Set, uint32_t>{zt}, sz, lower, upper);
  zt[7] = overflow;
  store<Set, G>(z, lane, zt, [&](unsigned k, unsigned, uint32_t m) {
    return add_mod(negated_where(a.r[k], sx ^ sz, m), negated_where(b.r[k], sy ^ sz, m), m);
  });
}

// z = x y, z's flag word the overflow flag.
template <class Set, unsigned G, class X, class Y>
__device__ __forceinline__ void multiply(words<uint32_t> z, words<X> x, words<Y> y, unsigned lane, bool active) {
  using I = integer<Set>;
  using S = spread<Set, G>;
  S a, b;
  a.load(x, lane, active);
  b.load(y, lane, active);
  uint32_t xt[7], yt[7], zt[8];
  a.tail(xt);
  b.tail(yt);
  const tail_words<Set, const uint32_t> xv{xt}, yv{yt};
  bound lower, upper;
  product_interval<Set>(xv, yv, lower, upper);
  lower = clamped(lower);
  const uint32_t overflow = overflow_of(lower, upper);
  uint32_t product[S::K], any_residue = 0;
#pragma unroll
  for (unsigned k = 0; k < S::K; ++k) {
    const unsigned i = lane + k * G;
    product[k] = i < S::n ? mul_mod(a.r[k], b.r[k], Set::modulus(i), Set::barrett(i)) : 0;
    any_residue |= product[k];
  }
  const bool nonzero = any<G>(any_residue != 0);  // -x 0 is +0
  if (!active) return;
  if (overflow == undecided) {
    if (lane == 0) z[I::words] = multiply_alone<Set>(z, x, y);
    return;
  }
  store_interval<Set>(tail_words<Set, uint32_t>{zt}, (xv[I::sign] ^ yv[I::sign]) & nonzero, lower, upper);
  zt[7] = overflow;
  store<Set, G>(z, lane, zt, [&](unsigned k, unsigned, uint32_t) { return product[k]; });
}

}  // namespace digits

// Op's digit-parallel form over n instances in the contiguous layout (a group's lanes then
// read consecutive words), G lanes an instance.
template <class Op, unsigned G>
__global__ void digits_batch(std::size_t n, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const std::size_t thread = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x, j = thread / G;
  Op::template digits<G>(words<uint32_t>{out + j * Op::out_words, 1}, words<const uint32_t>{in + j * Op::in_words, 1},
                         unsigned(thread % G), j < n);
}

#ifndef __CUDACC_RTC__
// One thread an integer; or, over the contiguous layout for an operation with
// Op::digit_lanes (the generator's choice by measurement), digit-parallel.
template <class Op>
cudaError_t launch_batch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, cudaStream_t stream = 0) {
  if constexpr (Op::digit_lanes != 0)
    if (layout == Layout::contiguous) {
      const std::size_t blocks = (n * Op::digit_lanes + Op::block_threads - 1) / Op::block_threads;
      if (blocks != 0)
        ::mpgen::rns::digits_batch<Op, Op::digit_lanes><<<unsigned(blocks), Op::block_threads, 0, stream>>>(n, in, out);
      return cudaGetLastError();
    }
  const std::size_t blocks = (n + Op::block_threads - 1) / Op::block_threads;
  if (blocks != 0) ::mpgen::rns::device_batch<Op><<<unsigned(blocks), Op::block_threads, 0, stream>>>(n, layout, in, out);
  return cudaGetLastError();
}
#endif
#endif

}  // namespace rns
}  // namespace mpgen
#endif  // MPGEN_RNS

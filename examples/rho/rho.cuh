// Pollard's rho on y^2 = x^3 + a x + b over a prime field: the walk, written once over
// a field's element type (mpgen::<field>::element) for the host and the GPU.
//
// The walk adds one of r = 128 table points M_j = c_j P + d_j Q, j picked by the low bits
// of x: Teske's r-adding walk, within about 1/(2r) of a random walk's collision time for
// r >= 16; 128 entries make that under 0.4% and still fit shared memory (5 KB at 5
// limbs), where 1024 would cost occupancy for nothing measurable. Points stay affine, so
// one step is an addition with one inversion, and a thread steps a batch of walks at once
// sharing one inversion between them (Montgomery's simultaneous inversion: 3 products per
// walk and one inversion per batch).
#pragma once
#include <cstddef>
#include <cstdint>

namespace rho {

constexpr unsigned table_bits = 7, table_size = 1u << table_bits;

template <class F>
struct point {
  F x, y;
};

// The table's points M_j (distinct x's, made by the host).
template <class F>
struct table {
  F x[table_size], y[table_size];
};

// The entry added at x: x's low bits (in the element's own form: the same on host and
// GPU), or the next entry where x is that entry's x, since then the sum would need a
// doubling or be infinity; the table's x's are distinct, so the next one differs.
template <class F>
MPGEN_HOST_DEVICE unsigned entry(const F& x, const table<F>& t) {
  unsigned j = x.w[0] & (table_size - 1);
  if (x == t.x[j]) j = (j + 1) & (table_size - 1);
  return j;
}

// A distinguished point: the dp_bits bits of x above the entry's are zero.
MPGEN_HOST_DEVICE bool distinguished(uint32_t low_word, uint32_t dp_mask) {
  return ((low_word >> table_bits) & dp_mask) == 0;
}

// s + (tx, ty) given inverse = 1 / (tx - s.x).
template <class F>
MPGEN_HOST_DEVICE point<F> add_with_inverse(const point<F>& s, const F& tx, const F& ty, const F& inverse) {
  const F slope = (ty - s.y) * inverse;
  point<F> r;
  r.x = slope.sqr() - s.x - tx;
  r.y = slope * (s.x - r.x) - s.y;
  return r;
}

// s + t for s.x != t.x, with its own inversion: walks' starts, and the host's replays.
template <class F>
MPGEN_HOST_DEVICE point<F> add_distinct(const point<F>& s, const point<F>& t) {
  return add_with_inverse(s, t.x, t.y, (t.x - s.x).inv());
}

// One step of one walk: the host replays walks with it, tracking their coefficients.
template <class F>
MPGEN_HOST_DEVICE point<F> step_one(const point<F>& s, const table<F>& t, unsigned* added) {
  const unsigned j = entry(s.x, t);
  *added = j;
  return add_distinct(s, point<F>{t.x[j], t.y[j]});
}

// Every walk's point, word-major so that neighbouring threads' walks are neighbours in
// memory: word i of walk g at words[i * count + g], x's limbs then y's.
template <class F>
struct walks {
  uint32_t* words;
  std::size_t count;

  MPGEN_HOST_DEVICE F x(std::size_t g) const { return part(g, 0); }
  MPGEN_HOST_DEVICE point<F> load(std::size_t g) const { return point<F>{part(g, 0), part(g, F::limbs)}; }
  MPGEN_HOST_DEVICE void store(std::size_t g, const point<F>& p) const {
    for (unsigned i = 0; i < F::limbs; ++i) {
      words[i * count + g] = p.x.w[i];
      words[(F::limbs + i) * count + g] = p.y.w[i];
    }
  }

 private:
  MPGEN_HOST_DEVICE F part(std::size_t g, unsigned first) const {
    F v;
    for (unsigned i = 0; i < F::limbs; ++i) v.w[i] = words[(first + i) * count + g];
    return v;
  }
};

// Where a thread keeps its batch's prefix products: in registers (a small batch; the
// loops over it unroll), or in shared memory, which lets a batch grow beyond the registers
// and so share one inversion among more walks.
template <unsigned B, class F>
struct local_prefix {
  F v[B];
  MPGEN_HOST_DEVICE F get(unsigned k) const { return v[k]; }
  MPGEN_HOST_DEVICE void set(unsigned k, const F& value) { v[k] = value; }
};

// Word i of entry k at words[(k * limbs + i) * lanes + lane]: a warp's 32 threads touch
// 32 consecutive words, one bank each.
template <class F>
struct shared_prefix {
  uint32_t* words;
  unsigned lane, lanes;
  MPGEN_HOST_DEVICE F get(unsigned k) const {
    F v;
    for (unsigned i = 0; i < F::limbs; ++i) v.w[i] = words[(k * F::limbs + i) * lanes + lane];
    return v;
  }
  MPGEN_HOST_DEVICE void set(unsigned k, const F& value) {
    for (unsigned i = 0; i < F::limbs; ++i) words[(k * F::limbs + i) * lanes + lane] = value.w[i];
  }
};

// One step of the B walks first, first + stride, ..., sharing one inversion; found(g, x)
// for each walk that lands on a distinguished point. The same points as B step_one calls.
#ifdef __CUDACC__
#pragma nv_exec_check_disable  // found is the host's or the GPU's, as the caller is
#endif
template <unsigned B, class F, class Prefix, class Found>
MPGEN_HOST_DEVICE void step_batch(const walks<F>& w, std::size_t first, std::size_t stride, const table<F>& t,
                                  uint32_t dp_mask, Prefix& prefix, Found&& found) {
  // prefix k = dx_0 ... dx_k, dx = table x - walk x
  F product;
  for (unsigned k = 0; k < B; ++k) {
    const F x = w.x(first + k * stride);
    const F dx = t.x[entry(x, t)] - x;
    product = k ? product * dx : dx;
    prefix.set(k, product);
  }
  F inverse = product.inv();  // 1 / (dx_0 ... dx_k) for the k below
  for (unsigned k = B; k-- > 0;) {
    const std::size_t g = first + k * stride;
    const point<F> s = w.load(g);
    const unsigned j = entry(s.x, t);
    F own = inverse;  // 1 / dx_k
    if (k) {
      own = inverse * prefix.get(k - 1);
      inverse *= t.x[j] - s.x;
    }
    const point<F> r = add_with_inverse(s, t.x[j], t.y[j], own);
    w.store(g, r);
    if (distinguished(r.x.w[0], dp_mask)) found(g, r.x);
  }
}

}  // namespace rho

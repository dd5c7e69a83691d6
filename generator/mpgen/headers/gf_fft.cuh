// The FFT over a generalized Fermat field p = r^k + 1 (after Mohajerani, "Fast Fourier
// Transforms over prime fields of large characteristic and their implementation on GPUs";
// mpgen's gf/fft.py states the plan): N = K^e points of F::words words each, K = 2k, in e Stockham passes of radix K,
// written once for host and device around the field's generated lists (mul, mul_r,
// accumulate_r<s>, settle) and constants (roots of unity, 2^-m). Pass s (span ns = K^s) takes
// for each j < N/K the points j + t N/K, multiplies point t by w^(t (j mod ns) N / (ns K)) =
// r^a w^b (the table's w^b, then a shift by a), and writes DFT_K output t, the sum of x_i
// r^(i t) (shifts only), to (j / ns) ns K + j mod ns + t ns.
#ifndef MPGEN_GF_FFT
#define MPGEN_GF_FFT

namespace mpgen {
namespace gf_fft {

template <class F>
struct shape {
  static constexpr unsigned k = F::digits, K = 2 * k, words = F::words, sums = 3 * k;
};

// One pass over n = K^e points: ns = K^s, the span of the sub-transforms done before it.
struct Pass {
  std::size_t n, ns;
  unsigned log_n;
  bool inverse;
};

// A point's words between memory and registers: on the GPU in the batch loops' wide accesses
// (16 bytes where the element allows: it is 16 k bytes, aligned).
template <class F>
MPGEN_HOST_DEVICE void load(uint32_t* x, const uint32_t* from) {
#ifdef __CUDA_ARCH__
  instance_words<F::words>::load(from, *reinterpret_cast<uint32_t(*)[F::words]>(x));
#else
  loops::copy<F::words>(x, from);
#endif
}

template <class F>
MPGEN_HOST_DEVICE void store(uint32_t* to, const uint32_t* y) {
#ifdef __CUDA_ARCH__
  instance_words<F::words>::store(to, *reinterpret_cast<const uint32_t(*)[F::words]>(y));
#else
  loops::copy<F::words>(to, y);
#endif
}

// w^b for the N-th root w of the header's table: the product of w^(2^i) = roots[log_n - i]
// over the bits i of b (b < N/K).
template <class F>
MPGEN_HOST_DEVICE void twiddle(uint32_t* w, std::size_t b, unsigned log_n) {
  MPGEN_UNROLL for (unsigned i = 0; i < F::words; ++i) w[i] = i == 0;
  for (unsigned i = 0; b >> i; ++i)
    if ((b >> i) & 1) loops::apply2<typename F::mul>(w, w, F::root(log_n - i));
}

// Point t of transform j of the pass, times its twiddle (none in the first pass, which a
// kernel without twiddles, and so without mul's registers, runs).
template <class F, bool twiddled = true>
MPGEN_HOST_DEVICE void load_point(uint32_t* x, const uint32_t* in, const uint32_t* table, const Pass& p,
                                  std::size_t j, unsigned t) {
  constexpr unsigned K = shape<F>::K, W = F::words;
  const std::size_t stride = p.n / K;
  load<F>(x, in + (j + t * stride) * W);
  if (!twiddled || p.ns == 1) return;
  std::size_t e = t * (j % p.ns) * (p.n / (p.ns * K));
  if (p.inverse) e = (p.n - e) % p.n;  // w^-e
  loops::apply2<typename F::mul>(x, x, table + (e % stride) * W);
  uint32_t shifted[W + 1];
  loops::copy<W>(shifted, x);
  shifted[W] = uint32_t(e / stride);
  loops::apply<typename F::mul_r>(x, shifted);
}

// even += x_i r^(i J) over the even i from I to K - 1, odd over the odd i, the points
// loaded by points(i, x).
template <class F, unsigned J, unsigned I = 0, class Points>
MPGEN_HOST_DEVICE void halves(uint32_t* even, uint32_t* odd, const Points& points) {
  if constexpr (I < shape<F>::K) {
    constexpr unsigned S = shape<F>::sums;
    uint32_t* sums = I % 2 ? odd : even;
    uint32_t in[S + F::words];
    loops::copy<S>(in, sums);
    points(I, in + S);
    loops::apply<typename F::template accumulate_r<(I * J) % shape<F>::K>>(sums, in);
    halves<F, J, I + 1>(even, odd, points);
  }
}

// sums = the lazy sums of DFT_K's rows J and J + k (sum_i x_i r^(i J) and the same with
// (-1)^i), one after the other; dispatched once: each J's code is its own (its shifts are
// immediates), the rest of outputs() is shared.
template <class F, unsigned J = 0, class Points>
MPGEN_HOST_DEVICE void row_pair(uint32_t* sums, unsigned which, const Points& points) {
  if constexpr (J < shape<F>::k) {
    if (which != J) return row_pair<F, J + 1>(sums, which, points);
    constexpr unsigned S = shape<F>::sums;
    uint32_t parts[2 * S] = {};
    halves<F, J>(parts, parts + S, points);
    loops::apply<typename F::pair_sums>(sums, parts);
  }
}

// Whether the pass is the inverse's last, whose outputs are multiplied by N^-1.
MPGEN_HOST_DEVICE bool scaled(const Pass& p, unsigned K) { return p.inverse && p.ns * K == p.n; }

// Which output DFT_K's row gives: the row's own, the inverse's -row.
MPGEN_HOST_DEVICE unsigned output_of_row(const Pass& p, unsigned row, unsigned K) {
  return p.inverse ? (K - row) % K : row;
}

// y[0 .. words) and y[words .. 2 words) = the outputs of rows J and J + k of the pass's
// points, times N^-1 where the pass is scaled (a kernel without that product has no mul).
template <class F, bool may_scale = true, class Points>
MPGEN_HOST_DEVICE void outputs(uint32_t* y, unsigned J, const Pass& p, const Points& points) {
  constexpr unsigned S = shape<F>::sums, W = F::words;
  uint32_t sums[2 * S];
  row_pair<F>(sums, J, points);
  MPGEN_UNROLL for (unsigned h = 0; h < 2; ++h) {
    loops::apply<typename F::settle>(y + h * W, sums + h * S);
    if (may_scale && scaled(p, shape<F>::K))
      loops::apply2<typename F::mul>(y + h * W, y + h * W, F::inverse_power_of_two(p.log_n));
  }
}

template <class F>
MPGEN_HOST_DEVICE std::size_t destination(const Pass& p, std::size_t j, unsigned t) {
  return (j / p.ns) * p.ns * shape<F>::K + j % p.ns + t * p.ns;
}

// log2 n for n a power of two.
MPGEN_HOST_DEVICE unsigned log_length(std::size_t n) {
  unsigned log_n = 0;
  while ((std::size_t(1) << log_n) < n && log_n < 63) ++log_n;
  return log_n;
}

// The K points of a transform, one after the other (the host's pass).
template <class F>
struct consecutive {
  const uint32_t* points;
  MPGEN_HOST_DEVICE void operator()(unsigned i, uint32_t* x) const { loops::copy<F::words>(x, points + i * F::words); }
};

#ifndef __CUDACC_RTC__
// Throws std::invalid_argument unless n = K^e (e >= 1) and n <= 2^largest_log.
template <class F>
void check_length(std::size_t n) {
  constexpr unsigned K = shape<F>::K;
  std::size_t m = K;
  while (m < n) m *= K;
  if (m != n || log_length(n) > F::largest_log)
    throw std::invalid_argument("gf FFT: " + std::to_string(n) + " points; give K^e points (K = 2k = " +
                                std::to_string(K) + ", e >= 1), at most 2^" + std::to_string(F::largest_log));
}

// The pass on the host, transform by transform.
template <class F>
void host_pass(const uint32_t* in, uint32_t* out, const uint32_t* table, const Pass& p) {
  constexpr unsigned K = shape<F>::K, W = F::words;
  std::vector<uint32_t> points(K * W);
  for (std::size_t j = 0; j < p.n / K; ++j) {
    for (unsigned t = 0; t < K; ++t) load_point<F>(&points[t * W], in, table, p, j, t);
    for (unsigned row = 0; row < K / 2; ++row) {
      uint32_t y[2 * W];
      outputs<F>(y, row, p, consecutive<F>{points.data()});
      for (unsigned h = 0; h < 2; ++h)
        loops::copy<W>(out + destination<F>(p, j, output_of_row(p, row + h * K / 2, K)) * W, y + h * W);
    }
  }
}

// The N/K twiddles w^b of n points.
template <class F>
std::vector<uint32_t> host_twiddles(std::size_t n) {
  check_length<F>(n);
  const std::size_t count = n / shape<F>::K;
  std::vector<uint32_t> table(count * F::words);
  const unsigned log_n = log_length(n);
  for (std::size_t b = 0; b < count; ++b) twiddle<F>(&table[b * F::words], b, log_n);
  return table;
}

// The transform of the n points at data, in place (scratch: n points), on the host.
template <class F>
void host_transform(uint32_t* data, std::size_t n, bool inverse) {
  const std::vector<uint32_t> table = host_twiddles<F>(n);
  std::vector<uint32_t> scratch(n * F::words);
  uint32_t *in = data, *out = scratch.data();
  for (std::size_t ns = 1; ns < n; ns *= shape<F>::K) {
    host_pass<F>(in, out, table.data(), Pass{n, ns, log_length(n), inverse});
    std::swap(in, out);
  }
  if (in != data) std::copy(in, in + n * F::words, data);
}

// a = a b mod (x^n - 1) over Z/pZ, n points each (coefficients, lowest first): the product
// of two polynomials whose degrees add up to less than n, padded with zeros, in full; b is
// overwritten (its transform). On the host.
template <class F>
void host_cyclic_product(uint32_t* a, uint32_t* b, std::size_t n) {
  host_transform<F>(a, n, false);
  host_transform<F>(b, n, false);
  for (std::size_t j = 0; j < n; ++j) loops::apply2<typename F::mul>(a + j * F::words, a + j * F::words, b + j * F::words);
  host_transform<F>(a, n, true);
}
#endif

#ifdef __CUDACC__
// A block: 32 transforms, one a lane, and k warps; the warps load the K points (point t by
// warp t mod k), meet in shared memory, and warp J computes rows J and J + k of DFT_K, every
// lane the same rows (the same shifts: no divergence, and each warp's code one row pair's).
// Shared memory holds a point's words 4 at a time, lane after lane: 16-byte accesses without
// bank conflicts.
constexpr unsigned lanes = 32;
template <class F>
constexpr unsigned warps = shape<F>::k;
template <class F>
constexpr std::size_t shared_bytes = std::size_t(shape<F>::K) * F::words * lanes * 4;

template <class F>
struct shared_points {
  static_assert(F::words % 4 == 0, "an element of 2k words, k even");
  uint4* quads;  // [K][words / 4][lanes]
  unsigned lane;
  __device__ void put(unsigned t, const uint32_t* x) const {
    MPGEN_UNROLL for (unsigned q = 0; q < F::words / 4; ++q)
      quads[(t * (F::words / 4) + q) * lanes + lane] = make_uint4(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3]);
  }
  __device__ void operator()(unsigned t, uint32_t* x) const {
    MPGEN_UNROLL for (unsigned q = 0; q < F::words / 4; ++q) {
      const uint4 v = quads[(t * (F::words / 4) + q) * lanes + lane];
      x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
  }
};

// A block's share of a pass (pass_kernel's, and the kernels source's C-named pass kernels'):
// blocks (32 transforms j, lanes * warps threads), one a batch's transform in y.
template <class F, bool twiddled, bool scaling>
__device__ void pass_block(const uint32_t* in, uint32_t* out, const uint32_t* table, const Pass& p) {
  constexpr unsigned K = shape<F>::K, W = F::words;
  in += blockIdx.y * p.n * W;  // a batch's transform y
  out += blockIdx.y * p.n * W;
  extern __shared__ uint4 quads[];
  const shared_points<F> points{quads, threadIdx.x};
  const std::size_t j = std::size_t(blockIdx.x) * lanes + threadIdx.x;
  const bool active = j < p.n / K;
  if (active)
    MPGEN_ROLLED for (unsigned t = threadIdx.y; t < K; t += warps<F>) {
      uint32_t x[W];
      load_point<F, twiddled>(x, in, table, p, j, t);
      points.put(t, x);
    }
  __syncthreads();
  uint32_t y[2 * W];
  if (active) outputs<F, scaling>(y, threadIdx.y, p, points);
  if (p.ns > 1) {  // a warp's outputs are consecutive points (ns of them at least)
    if (active)
      MPGEN_UNROLL for (unsigned h = 0; h < 2; ++h)
        store<F>(out + destination<F>(p, j, output_of_row(p, threadIdx.y + h * K / 2, K)) * W, y + h * W);
    return;
  }
  // The first pass writes a lane's K outputs next to each other, lanes K points apart: staged
  // in shared memory 16 bytes at a time (quad q of point P at P Q + (q ^ (P / K) mod Q), Q = W / 4,
  // so that the lanes' writes spread over the banks), the block's 32 K points go out in
  // coalesced 16-byte stores.
  constexpr unsigned Q = W / 4;
  __syncthreads();  // every point read
  if (active)
    MPGEN_UNROLL for (unsigned h = 0; h < 2; ++h) {
      const unsigned point = threadIdx.x * K + output_of_row(p, threadIdx.y + h * K / 2, K);
      MPGEN_UNROLL for (unsigned q = 0; q < Q; ++q) {
        const uint32_t* v = y + h * W + 4 * q;
        quads[point * Q + (q ^ (threadIdx.x % Q))] = make_uint4(v[0], v[1], v[2], v[3]);
      }
    }
  __syncthreads();
  const std::size_t first = std::size_t(blockIdx.x) * lanes;
  const std::size_t count = (p.n / K - first < lanes ? p.n / K - first : lanes) * K * Q;
  uint4* to = reinterpret_cast<uint4*>(out + first * K * W);
  for (std::size_t i = threadIdx.y * lanes + threadIdx.x; i < count; i += lanes * warps<F>) {
    const std::size_t point = i / Q;
    to[i] = quads[point * Q + ((i % Q) ^ (point / K % Q))];
  }
}

template <class F, bool twiddled, bool scaling>
__global__ void __launch_bounds__(lanes * warps<F>) pass_kernel(const uint32_t* in, uint32_t* out,
                                                               const uint32_t* table, Pass p) {
  pass_block<F, twiddled, scaling>(in, out, table, p);
}

// Twiddle b of a table of count (a thread's, of twiddle_kernel and the C-named twiddle kernel).
template <class F>
__device__ void twiddle_thread(uint32_t* table, std::size_t count, unsigned log_n) {
  const std::size_t b = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < count) {
    uint32_t w[F::words];
    twiddle<F>(w, b, log_n);
    store<F>(table + b * F::words, w);
  }
}

constexpr unsigned twiddle_block = 128;

template <class F>
__global__ void twiddle_kernel(uint32_t* table, std::size_t count, unsigned log_n) {
  twiddle_thread<F>(table, count, log_n);
}

#ifndef __CUDACC_RTC__  // the launches, from host code (NVRTC compiles device code only)

// The N/K twiddles of n points into table (N/K points of device memory).
template <class F>
cudaError_t device_twiddles(uint32_t* table, std::size_t n, cudaStream_t stream = 0) {
  check_length<F>(n);
  const std::size_t count = n / shape<F>::K;
  twiddle_kernel<F><<<unsigned((count + twiddle_block - 1) / twiddle_block), twiddle_block, 0, stream>>>(table, count, log_length(n));
  return cudaGetLastError();
}

// One pass on the device over `count` transforms of n points, one after another (in and
// out: count n points each, apart).
template <class F, bool twiddled, bool scaling>
cudaError_t launch_pass(const uint32_t* in, uint32_t* out, const uint32_t* table, const Pass& p, std::size_t count,
                        cudaStream_t stream) {
  static const cudaError_t configured = cudaFuncSetAttribute(
      pass_kernel<F, twiddled, scaling>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes<F>));
  if (configured != cudaSuccess) return configured;
  const std::size_t transforms = p.n / shape<F>::K;
  constexpr std::size_t most = 65535;  // a grid's y
  for (std::size_t first = 0; first < count; first += most) {
    const std::size_t offset = first * p.n * F::words;
    pass_kernel<F, twiddled, scaling>
        <<<dim3(unsigned((transforms + lanes - 1) / lanes), unsigned(count - first < most ? count - first : most)),
           dim3(lanes, warps<F>), shared_bytes<F>, stream>>>(in + offset, out + offset, table, p);
  }
  return cudaGetLastError();
}

template <class F>
cudaError_t device_pass(const uint32_t* in, uint32_t* out, const uint32_t* table, const Pass& p,
                        std::size_t count = 1, cudaStream_t stream = 0) {
  const bool twiddled = p.ns > 1;
  if (scaled(p, shape<F>::K))
    return twiddled ? launch_pass<F, true, true>(in, out, table, p, count, stream)
                    : launch_pass<F, false, true>(in, out, table, p, count, stream);
  return twiddled ? launch_pass<F, true, false>(in, out, table, p, count, stream)
                  : launch_pass<F, false, false>(in, out, table, p, count, stream);
}

// The transforms of `count` sequences of n points at data on the device, one after another,
// passes alternating between data and scratch (count n points each); *result is whichever
// holds the output.
template <class F>
cudaError_t device_transform(uint32_t* data, uint32_t* scratch, const uint32_t* table, std::size_t n, bool inverse,
                             uint32_t** result, std::size_t count = 1, cudaStream_t stream = 0) {
  check_length<F>(n);
  uint32_t *in = data, *out = scratch;
  for (std::size_t ns = 1; ns < n; ns *= shape<F>::K) {
    const cudaError_t e = device_pass<F>(in, out, table, Pass{n, ns, log_length(n), inverse}, count, stream);
    if (e != cudaSuccess) return e;
    std::swap(in, out);
  }
  *result = in;
  return cudaSuccess;
}

template <class F>
__global__ void pointwise_kernel(uint32_t* a, const uint32_t* b, std::size_t n) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  uint32_t x[F::words], y[F::words];
  load<F>(x, a + j * F::words);
  load<F>(y, b + j * F::words);
  loops::apply2<typename F::mul>(x, x, y);
  store<F>(a + j * F::words, x);
}

// The cyclic products of host_cyclic_product on the device, `count` of them (pairs of n
// points, one after another): a, b and scratch (count n points each) are all overwritten;
// *result is whichever holds the products.
template <class F>
cudaError_t device_cyclic_product(uint32_t* a, uint32_t* b, uint32_t* scratch, const uint32_t* table, std::size_t n,
                                  uint32_t** result, std::size_t count = 1, cudaStream_t stream = 0) {
  uint32_t *spectrum_a, *spectrum_b;
  cudaError_t e = device_transform<F>(a, scratch, table, n, false, &spectrum_a, count, stream);
  if (e != cudaSuccess) return e;
  e = device_transform<F>(b, spectrum_a == a ? scratch : a, table, n, false, &spectrum_b, count, stream);
  if (e != cudaSuccess) return e;
  const std::size_t points = n * count;
  pointwise_kernel<F><<<unsigned((points + 127) / 128), 128, 0, stream>>>(spectrum_a, spectrum_b, points);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  return device_transform<F>(spectrum_a, spectrum_b, table, n, true, result, count, stream);
}
#endif  // __CUDACC_RTC__
#endif  // __CUDACC__

}  // namespace gf_fft
}  // namespace mpgen
#endif  // MPGEN_GF_FFT

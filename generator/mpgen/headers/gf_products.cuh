// Products of large integers through a generalized Fermat field's FFT (headers/gf_fft.cuh):
// each operand cut into chunks of C words, a chunk a point (the field's from_binary); the
// cyclic product of the two point sequences (two transforms, the pointwise product, one
// inverse) holds the chunk polynomials' product exactly, its coefficients being below
// N 2^(64 C) < p; coefficient j (to_binary: 2C + 1 words, the top one small) is then added
// back at word j C. Its three pieces (words [0, C), [C, 2C), 2C) fall in chunks j, j + 1 and
// j + 2 of the product: chunk j is the sum of three pieces, and the carries between chunks
// are settled by a scan of one byte a chunk. Written once for host and device.
#ifndef MPGEN_GF_PRODUCTS
#define MPGEN_GF_PRODUCTS
#ifndef __CUDACC_RTC__  // host code and nvcc's launches: NVRTC (the Python runtime) runs no products

namespace mpgen {
namespace gf_products {

// Operands of `words` words each: chunks of chunk_words words, a chunk a point, n = K^e
// points, the cyclic product's 2 chunks - 1 coefficients fitting in n.
struct Plan {
  std::size_t words, chunks, n;
  unsigned chunk_words;
  MPGEN_HOST_DEVICE std::size_t product_chunks() const { return 2 * chunks; }
};

// Bits below which every integer is below p: p > r^k >= 2^(k (L - 1)), L = r's bit length.
template <class F>
constexpr unsigned capacity_bits() {
  const uint32_t top = F::radix[1] ? F::radix[1] : F::radix[0];
  unsigned length = F::radix[1] ? 32 : 0;
  for (uint32_t t = top; t; t >>= 1) ++length;
  return F::digits * (length - 1);
}

#ifndef __CUDACC_RTC__
// The fewest points whose chunks, as large as the points' coefficient bound allows, hold
// the product; std::invalid_argument where no FFT of the field is long enough.
template <class F>
Plan plan(std::size_t words) {
  constexpr unsigned K = gf_fft::shape<F>::K, capacity = capacity_bits<F>();
  for (std::size_t n = K;; n *= K) {
    const unsigned log_n = gf_fft::log_length(n);
    if (log_n > F::largest_log || capacity < log_n + 64)
      throw std::invalid_argument("gf products: operands of " + std::to_string(words) +
                                  " words need a longer FFT than the field has (2^" +
                                  std::to_string(F::largest_log) + " points)");
    const unsigned c = (capacity - log_n) / 64;  // N 2^(64 c) <= 2^capacity < p
    const std::size_t chunks = words == 0 ? 1 : (words + c - 1) / c;
    if (2 * chunks - 1 <= n) return Plan{words, chunks, n, c};
  }
}
#endif

// Point i of an operand (its words at a): chunk i, as an element.
template <class F>
MPGEN_HOST_DEVICE void pack_point(uint32_t* x, const uint32_t* a, const Plan& plan, std::size_t i) {
  uint32_t binary[F::words];
  MPGEN_UNROLL for (unsigned w = 0; w < F::words; ++w) {
    const std::size_t at = i * plan.chunk_words + w;
    binary[w] = i < plan.chunks && w < plan.chunk_words && at < plan.words ? a[at] : 0;
  }
  loops::apply<typename F::from_binary>(x, binary);
}

// Coefficient j's words (2C + 1 of them) from its point; zero outside the product's.
template <class F>
MPGEN_HOST_DEVICE void coefficient(uint32_t* c, const uint32_t* points, const Plan& plan, std::size_t j) {
  if (j >= 2 * plan.chunks - 1) {
    MPGEN_UNROLL for (unsigned w = 0; w < F::words; ++w) c[w] = 0;
    return;
  }
  loops::apply<typename F::to_binary>(c, points + j * F::words);
}

// Chunk j of the product before the carries from below: the sum of its three pieces, its
// low C words written to out (those below the product's 2 words), and one byte: the sum's
// carry out (0 to 2) and how far its low words are from overflowing (2^(32 C) - low, at
// most 4), so that the scan knows which carry in carries on.
template <class F>
MPGEN_HOST_DEVICE uint8_t chunk_sum(uint32_t* out, const uint32_t* points, const Plan& plan, std::size_t j) {
  const unsigned C = plan.chunk_words;
  uint32_t sum[F::words + 1] = {}, c[F::words];
  for (unsigned piece = 0; piece < 3 && piece <= j; ++piece) {
    coefficient<F>(c, points, plan, j - piece);
    uint64_t carry = 0;
    for (unsigned w = 0; w <= C; ++w) {  // the piece's words into the sum's C + 1
      const unsigned from = piece * C + w;
      const uint64_t t = uint64_t(sum[w]) + (w < C && from <= 2 * C ? c[from] : 0) + carry;
      sum[w] = uint32_t(t), carry = t >> 32;
    }
  }
  uint64_t gap = 0;  // 2^(32 C) - low, where below 5
  bool ones = true;
  for (unsigned w = 1; w < C; ++w) ones = ones && sum[w] == 0xffffffffu;
  if (ones) gap = 0x100000000ull - sum[0];
  for (unsigned w = 0; w < C && j * C + w < 2 * plan.words; ++w) out[j * C + w] = sum[w];
  return uint8_t(sum[C] | (ones && gap < 5 ? gap : 5) << 2);
}

// The scan of an instance's chunk bytes: each byte becomes the carry into its chunk (0 to 3).
MPGEN_HOST_DEVICE void carries(uint8_t* bytes, std::size_t chunks) {
  unsigned carry = 0;
  for (std::size_t j = 0; j < chunks; ++j) {
    const unsigned s = bytes[j];
    bytes[j] = uint8_t(carry);
    carry = (s & 3) + (carry >= (s >> 2) ? 1 : 0);
  }
}

// Chunk j of the product plus its carry in (the overflow past the chunk is the next one's).
MPGEN_HOST_DEVICE void add_carry(uint32_t* out, const Plan& plan, std::size_t j, unsigned carry) {
  for (unsigned w = 0; w < plan.chunk_words && carry && j * plan.chunk_words + w < 2 * plan.words; ++w) {
    uint32_t& word = out[j * plan.chunk_words + w];
    const uint64_t t = uint64_t(word) + carry;
    word = uint32_t(t), carry = unsigned(t >> 32);
  }
}

#ifndef __CUDACC_RTC__
// count products of operands of plan.words words (a and b: one after another), each 2 words
// words at out, on the host.
template <class F>
void host_products(const uint32_t* a, const uint32_t* b, uint32_t* out, const Plan& plan, std::size_t count) {
  constexpr unsigned W = F::words;
  std::vector<uint32_t> x(plan.n * W), y(plan.n * W);
  std::vector<uint8_t> bytes(plan.product_chunks());
  for (std::size_t t = 0; t < count; ++t) {
    const uint32_t *at = a + t * plan.words, *bt = b + t * plan.words;
    for (std::size_t i = 0; i < plan.n; ++i) pack_point<F>(&x[i * W], at, plan, i), pack_point<F>(&y[i * W], bt, plan, i);
    gf_fft::host_cyclic_product<F>(x.data(), y.data(), plan.n);
    uint32_t* ot = out + t * 2 * plan.words;
    for (std::size_t j = 0; j < plan.product_chunks(); ++j) bytes[j] = chunk_sum<F>(ot, x.data(), plan, j);
    carries(bytes.data(), plan.product_chunks());
    for (std::size_t j = 0; j < plan.product_chunks(); ++j) add_carry(ot, plan, j, bytes[j]);
  }
}
#endif

#ifdef __CUDACC__
template <class F>
__global__ void pack_kernel(const uint32_t* a, uint32_t* points, Plan plan, std::size_t count) {
  const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, t = g / plan.n;
  if (t >= count) return;
  uint32_t x[F::words];
  pack_point<F>(x, a + t * plan.words, plan, g % plan.n);
  gf_fft::store<F>(points + g * F::words, x);
}

template <class F>
__global__ void chunk_kernel(const uint32_t* points, uint32_t* out, uint8_t* bytes, Plan plan, std::size_t count) {
  const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, t = g / plan.product_chunks();
  if (t >= count) return;
  bytes[g] = chunk_sum<F>(out + t * 2 * plan.words, points + t * plan.n * F::words, plan, g % plan.product_chunks());
}

template <class F>  // (templates, so that every translation unit may hold them)
__global__ void carries_kernel(uint8_t* bytes, Plan plan, std::size_t count) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < count) carries(bytes + t * plan.product_chunks(), plan.product_chunks());
}

template <class F>
__global__ void add_carry_kernel(uint32_t* out, const uint8_t* bytes, Plan plan, std::size_t count) {
  const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, t = g / plan.product_chunks();
  if (t < count) add_carry(out + t * 2 * plan.words, plan, g % plan.product_chunks(), bytes[g]);
}

// Device memory device_products needs for count products.
template <class F>
std::size_t workspace_bytes(const Plan& plan, std::size_t count) {
  return (3 * plan.n * count + plan.n / gf_fft::shape<F>::K) * F::words * 4 + plan.product_chunks() * count;
}

// count products on the device (a, b, out: device memory as host_products has them; the
// workspace: workspace_bytes of it, 16-byte aligned).
template <class F>
cudaError_t device_products(const uint32_t* a, const uint32_t* b, uint32_t* out, const Plan& plan, std::size_t count,
                            void* workspace, cudaStream_t stream = 0) {
  constexpr unsigned block = 128;
  const std::size_t points = plan.n * count, chunks = plan.product_chunks() * count;
  uint32_t *x = static_cast<uint32_t*>(workspace), *y = x + points * F::words, *scratch = y + points * F::words;
  uint32_t* table = scratch + points * F::words;
  uint8_t* bytes = reinterpret_cast<uint8_t*>(table + plan.n / gf_fft::shape<F>::K * F::words);
  cudaError_t e = gf_fft::device_twiddles<F>(table, plan.n, stream);
  if (e != cudaSuccess) return e;
  pack_kernel<F><<<unsigned((points + block - 1) / block), block, 0, stream>>>(a, x, plan, count);
  pack_kernel<F><<<unsigned((points + block - 1) / block), block, 0, stream>>>(b, y, plan, count);
  uint32_t* product = nullptr;
  if ((e = gf_fft::device_cyclic_product<F>(x, y, scratch, table, plan.n, &product, count, stream)) != cudaSuccess)
    return e;
  chunk_kernel<F><<<unsigned((chunks + block - 1) / block), block, 0, stream>>>(product, out, bytes, plan, count);
  carries_kernel<F><<<unsigned((count + block - 1) / block), block, 0, stream>>>(bytes, plan, count);
  add_carry_kernel<F><<<unsigned((chunks + block - 1) / block), block, 0, stream>>>(out, bytes, plan, count);
  return cudaGetLastError();
}
#endif

}  // namespace gf_products
}  // namespace mpgen
#endif  // __CUDACC_RTC__
#endif  // MPGEN_GF_PRODUCTS

// The batch loops: an operation over n instances laid out in memory, on the host and
// on the GPU (one instance per thread: the thread tier). Copied verbatim into every
// generated header, inside its version guard.
namespace mpgen {

#ifndef __CUDACC_RTC__
// An instance's words on the host: on the stack, or on the heap past 64 K words (2^21 bits
// and up), which a thread's stack (8 MB, the runtime's workers' less) would not hold: 2^24
// bits' div_qr takes 4 MB of operands and 4 MB of results.
template <unsigned Words, bool Heap = (Words > 65536)>
struct host_words {
  uint32_t words[Words];
  uint32_t* data() { return words; }
};
template <unsigned Words>
struct host_words<Words, true> {
  std::vector<uint32_t> words = std::vector<uint32_t>(Words);
  uint32_t* data() { return words.data(); }
};

// Runs Op over instances [first, last) of a batch of n on the host (the runtime gives each
// of its threads a range): in holds Op::in_words words per instance, out Op::out_words (the
// result limbs, then the flag word if any).
template <class Op>
inline void host_range(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, std::size_t first,
                       std::size_t last) {
  const Strides si = Strides::of(layout, n, Op::in_words), so = Strides::of(layout, n, Op::out_words);
  host_words<Op::in_words> in_words;
  host_words<Op::out_words> out_words;
  uint32_t *const x = in_words.data(), *const y = out_words.data();
  for (std::size_t j = first; j < last; ++j) {
    for (unsigned w = 0; w < Op::in_words; ++w) x[w] = in[w * si.word + j * si.instance];
    Op::host(y, x);
    for (unsigned w = 0; w < Op::out_words; ++w) out[w * so.word + j * so.instance] = y[w];
  }
}

// A batch larger than a core's caches streams from memory, and the hardware's prefetcher
// alone leaves the loop waiting: the host64 loops prefetch the input of the instance about
// prefetch_ahead_bytes on (add from memory, 512-2048 bits, EPYC: 0.65-0.85 of mpn_add_n
// without, 0.99-1.12 with about 8 KiB; 2 and 4 KiB were behind). In cache they cost up to
// 10%, so batches under prefetch_from_bytes go without.
constexpr std::size_t prefetch_ahead_bytes = 8192, prefetch_from_bytes = std::size_t(1) << 20;
inline void prefetch_lines(const void* p, std::size_t bytes) {
#if defined(__GNUC__)
  for (std::size_t b = 0; b < bytes; b += 64) __builtin_prefetch(static_cast<const char*>(p) + b);
#endif
}

// Op::host64 over n records of 64-bit limbs, one after another: x holds Op::in_words64
// limbs a record (each operand's in turn), y Op::out_words64 (the result's, then the flag).
template <class Op>
inline void host64_batch(std::size_t n, uint64_t* y, const uint64_t* x) {
  constexpr unsigned I = Op::in_words64, O = Op::out_words64;
  const bool prefetch = n * (I + O) * sizeof(uint64_t) >= prefetch_from_bytes;
  constexpr std::size_t ahead = prefetch_ahead_bytes / (I * sizeof(uint64_t)) + 1;
  for (std::size_t j = 0; j < n; ++j) {
    if (prefetch && j + ahead < n) prefetch_lines(x + (j + ahead) * I, I * sizeof(uint64_t));
    Op::host64(y + j * O, x + j * I);
  }
}

// Block instances of the interleaved layout (word w of instance j at w * n + j) from j on:
// gathered into a tile where each instance's words lie one after another, run as the
// contiguous layout runs (lanes64 at a time where Block allows), the results scattered
// back. (Word by word through through_host64 it ran 3-9x behind the contiguous layout, by
// tiles 2-6x: an instance's words still lie n apart, one memory stream a word.)
template <class Op, unsigned Block>
inline void host64_tile(std::size_t n, const uint32_t* in, uint32_t* out, std::size_t j) {
  constexpr unsigned L = Block % lanes64_of<Op>::value == 0 ? lanes64_of<Op>::value : 1;
  uint32_t x[Block * Op::in_words], y[Block * Op::out_words];
  for (unsigned w = 0; w < Op::in_words; ++w)
    for (unsigned b = 0; b < Block; ++b) x[b * Op::in_words + w] = in[w * n + j + b];
  for (unsigned b = 0; b < Block; b += L) through_host64_words<Op, L>(y + b * Op::out_words, x + b * Op::in_words);
  for (unsigned w = 0; w < Op::out_words; ++w)
    for (unsigned b = 0; b < Block; ++b) out[w * n + j + b] = y[b * Op::out_words + w];
}

// host_range through Op's 64-bit list: the contiguous layout copies each instance's words
// as they lie (through_host64_words), lanes64 instances at a time where Op has
// host64_lanes, and prefetches as host64_batch; the interleaved layout goes by tiles of 8.
template <class Op>
inline void host64_range(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, std::size_t first,
                         std::size_t last) {
  std::size_t j = first;
  if (layout == Layout::interleaved) {
    for (; j + 8 <= last; j += 8) host64_tile<Op, 8>(n, in, out, j);
    for (; j < last; ++j) host64_tile<Op, 1>(n, in, out, j);
    return;
  }
  constexpr unsigned L = lanes64_of<Op>::value;
  const bool prefetch = n * (Op::in_words + Op::out_words) * sizeof(uint32_t) >= prefetch_from_bytes;
  constexpr std::size_t ahead = prefetch_ahead_bytes / (Op::in_words * sizeof(uint32_t)) + 1;
  const auto at = [&](auto lanes) {
    constexpr unsigned count = decltype(lanes)::value;
    if (prefetch && j + ahead + count <= n)
      prefetch_lines(in + (j + ahead) * Op::in_words, count * Op::in_words * sizeof(uint32_t));
    through_host64_words<Op, count>(out + j * Op::out_words, in + j * Op::in_words);
  };
  if constexpr (L > 1)
    for (; j + L <= last; j += L) at(std::integral_constant<unsigned, L>{});
  for (; j < last; ++j) at(std::integral_constant<unsigned, 1>{});
}

// The host's range of Op: through its 64-bit list where it has one, else its 32-bit one.
template <class Op>
inline void cpu_range(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, std::size_t first,
                      std::size_t last) {
  if constexpr (has_host64<Op>::value)
    host64_range<Op>(n, layout, in, out, first, last);
  else
    host_range<Op>(n, layout, in, out, first, last);
}

// Whole batches of n, on the calling thread: the GPU's 32-bit list, and the host's choice.
template <class Op>
inline void host_batch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  host_range<Op>(n, layout, in, out, 0, n);
}
template <class Op>
inline void cpu_batch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  cpu_range<Op>(n, layout, in, out, 0, n);
}

// One instance on the host through the host's choice of list: x and y as host()'s.
template <class Op>
inline void cpu_call(uint32_t* y, const uint32_t* x) {
  if constexpr (has_host64<Op>::value)
    loops::host64_call<Op>(y, x);
  else
    Op::host(y, x);
}
#endif  // __CUDACC_RTC__

// The arrays of Op's batch in Arrays: its operands, then its result's Parts numbers
// (result_limbs / Parts limbs each) and its flag word. Array A is words [first, first +
// width) of the instance's in words (operands) or out words (results).
template <class Op, unsigned Parts>
struct arrays_of {
  static constexpr unsigned results = Parts + Op::flag_words, part_limbs = Op::result_limbs / Parts;
  using type = Arrays<Op::operands, results>;
  template <unsigned A, unsigned First, unsigned Width>
  struct array {
    static constexpr unsigned index = A, first = First, width = Width;
  };
  // f(array<A, first, width>{}) for each operand array A, then g(...) for each result array.
  template <unsigned A = 0, unsigned First = 0, class F>
  MPGEN_HOST_DEVICE static void each_operand(F&& f) {
    if constexpr (A < Op::operands) {
      f(array<A, First, Op::operand_limbs[A]>{});
      each_operand<A + 1, First + Op::operand_limbs[A]>(f);
    }
  }
  template <unsigned A = 0, class F>
  MPGEN_HOST_DEVICE static void each_result(F&& f) {
    if constexpr (A < results) {
      f(array<A, A * part_limbs, (A < Parts ? part_limbs : 1)>{});
      each_result<A + 1>(f);
    }
  }
};

#ifndef __CUDACC_RTC__
// cpu_batch over Arrays.
template <class Op, unsigned Parts>
inline void cpu_arrays(std::size_t n, Layout layout, const typename arrays_of<Op, Parts>::type& a) {
  using of = arrays_of<Op, Parts>;
  host_words<Op::in_words> in_words;
  host_words<Op::out_words> out_words;
  uint32_t *const x = in_words.data(), *const y = out_words.data();
  for (std::size_t j = 0; j < n; ++j) {
    of::each_operand([&](auto array) {
      using A = decltype(array);
      const Strides s = Strides::of(layout, n, A::width);
      for (unsigned i = 0; i < A::width; ++i) x[A::first + i] = a.in[A::index][i * s.word + j * s.instance];
    });
    cpu_call<Op>(y, x);
    of::each_result([&](auto array) {
      using A = decltype(array);
      const Strides s = Strides::of(layout, n, A::width);
      for (unsigned i = 0; i < A::width; ++i) a.out[A::index][i * s.word + j * s.instance] = y[A::first + i];
    });
  }
}
#endif  // __CUDACC_RTC__


#ifdef __CUDACC__
// The same on the GPU, one instance per thread (the thread tier). (The layout is a run-time choice: a
// template parameter would compile every operation twice, for no measurable gain.)
// The W words of one instance in the contiguous layout, moved in 16- or 8-byte accesses
// where W allows (the addresses are then aligned): across a warp, one word at a time
// per thread would touch 32 sectors per access.
template <unsigned W, bool quad = W % 4 == 0, bool pair = W % 2 == 0>
struct wide_word { using type = uint32_t; };
template <unsigned W, bool pair>
struct wide_word<W, true, pair> { using type = uint4; };
template <unsigned W>
struct wide_word<W, false, true> { using type = uint2; };

__device__ __forceinline__ void unpack(uint4 v, uint32_t* x) { x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w; }
__device__ __forceinline__ void unpack(uint2 v, uint32_t* x) { x[0] = v.x, x[1] = v.y; }
__device__ __forceinline__ void unpack(uint32_t v, uint32_t* x) { x[0] = v; }
__device__ __forceinline__ void pack(uint4& v, const uint32_t* x) { v = make_uint4(x[0], x[1], x[2], x[3]); }
__device__ __forceinline__ void pack(uint2& v, const uint32_t* x) { v = make_uint2(x[0], x[1]); }
__device__ __forceinline__ void pack(uint32_t& v, const uint32_t* x) { v = x[0]; }

template <unsigned W>
struct instance_words {
  using Wide = typename wide_word<W>::type;
  static constexpr unsigned per = sizeof(Wide) / 4;

  __device__ __forceinline__ static void load(const uint32_t* p, uint32_t (&x)[W]) {
#pragma unroll
    for (unsigned k = 0; k < W / per; ++k) unpack(reinterpret_cast<const Wide*>(p)[k], &x[k * per]);
  }
  __device__ __forceinline__ static void store(uint32_t* p, const uint32_t (&y)[W]) {
#pragma unroll
    for (unsigned k = 0; k < W / per; ++k) pack(reinterpret_cast<Wide*>(p)[k], &y[k * per]);
  }
};

// A warp's instances in the contiguous layout, staged through shared memory: their W words
// each are 32 W consecutive words, moved between memory and `rows` in whole-warp accesses
// (every sector fetched once), and between `rows` and each thread's registers one row per
// lane; rows are Stride (odd) words apart, so that the lanes' accesses to one word of their
// rows fall in 32 banks.
template <unsigned W, unsigned Stride>
struct warp_rows {
  using Wide = typename wide_word<W>::type;
  static constexpr unsigned per = sizeof(Wide) / 4;

  // Instances [0, count) of p (count < 32: the batch's last warp) into rows.
  __device__ __forceinline__ static void fill(uint32_t* rows, const uint32_t* p, unsigned count, unsigned lane) {
    if (count == 32) {
#pragma unroll
      for (unsigned i = 0; i < W / per; ++i) {
        const unsigned k = (32 * i + lane) * per;  // a whole Wide lies in one row: per divides W
        uint32_t v[per];
        unpack(reinterpret_cast<const Wide*>(p)[32 * i + lane], v);
#pragma unroll
        for (unsigned e = 0; e < per; ++e) rows[k / W * Stride + k % W + e] = v[e];
      }
    } else {
      for (unsigned k = lane; k < count * W; k += 32) rows[k / W * Stride + k % W] = p[k];
    }
  }

  // The reverse: rows of instances [0, count) out to p.
  __device__ __forceinline__ static void drain(uint32_t* p, const uint32_t* rows, unsigned count, unsigned lane) {
    if (count == 32) {
#pragma unroll
      for (unsigned i = 0; i < W / per; ++i) {
        const unsigned k = (32 * i + lane) * per;
        uint32_t v[per];
#pragma unroll
        for (unsigned e = 0; e < per; ++e) v[e] = rows[k / W * Stride + k % W + e];
        pack(reinterpret_cast<Wide*>(p)[32 * i + lane], v);
      }
    } else {
      for (unsigned k = lane; k < count * W; k += 32) p[k] = rows[k / W * Stride + k % W];
    }
  }
};

// The dynamic shared memory of this launch, in bytes.
__device__ __forceinline__ unsigned dynamic_shared_bytes() {
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

// Whether this launch stages Op's contiguous layout: the launch gave each warp its rows.
template <class Op>
__device__ __forceinline__ bool staged(Layout layout) {
  return layout == Layout::contiguous && blockDim.x % 32 == 0 &&
         dynamic_shared_bytes() >= 4 * Op::stage_stride * blockDim.x;
}

// Op over the contiguous layout, staged (Op::stage_stride: the manifest's launch geometry)
// in the launch's dynamic shared memory: Op::contiguous_shared_bytes for a block of
// Op::block_threads. (Dynamic, so that the interleaved layout's launches keep all their
// occupancy.) fill(rows, first, count, lane) puts the in words of the warp's instances
// [first, first + count) in their rows, Op runs on each lane's row, and drain(...) takes
// the out words from there.
template <class Op, class Fill, class Drain>
__device__ __forceinline__ void staged_warp(std::size_t n, const Fill& fill, const Drain& drain) {
  constexpr unsigned S = Op::stage_stride;
  extern __shared__ uint32_t stage[];
  const unsigned lane = threadIdx.x % 32;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x - lane;  // the warp's
  if (first >= n) return;  // the whole warp: it is past the end
  const unsigned count = n - first < 32 ? unsigned(n - first) : 32u;
  uint32_t* rows = stage + threadIdx.x / 32 * 32 * S;
  fill(rows, first, count, lane);
  __syncwarp();
  if (lane < count) {
    uint32_t x[Op::in_words], y[Op::out_words];
#pragma unroll
    for (unsigned w = 0; w < Op::in_words; ++w) x[w] = rows[lane * S + w];
    Op::device(y, x);
#pragma unroll
    for (unsigned w = 0; w < Op::out_words; ++w) rows[lane * S + w] = y[w];  // its own row: no wait
  }
  __syncwarp();
  drain(rows, first, count, lane);
}

// One instance per thread (the thread tier).
template <class Op>
__device__ __forceinline__ void batch_one_thread(std::size_t n, Layout layout, const uint32_t* __restrict__ in,
                                                 uint32_t* __restrict__ out) {
  if constexpr (Op::stage_stride != 0) {  // staged where the launch gave the rows room
    constexpr unsigned S = Op::stage_stride;
    if (staged<Op>(layout))
      return staged_warp<Op>(
          n,
          [&](uint32_t* rows, std::size_t first, unsigned count, unsigned lane) {
            warp_rows<Op::in_words, S>::fill(rows, in + first * Op::in_words, count, lane);
          },
          [&](const uint32_t* rows, std::size_t first, unsigned count, unsigned lane) {
            warp_rows<Op::out_words, S>::drain(out + first * Op::out_words, rows, count, lane);
          });
  }
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[Op::in_words], y[Op::out_words];
  if (layout == Layout::contiguous) {
    instance_words<Op::in_words>::load(in + j * Op::in_words, x);
  } else {
#pragma unroll
    for (unsigned w = 0; w < Op::in_words; ++w) x[w] = in[w * n + j];
  }
  Op::device(y, x);
  if (layout == Layout::contiguous) {
    instance_words<Op::out_words>::store(out + j * Op::out_words, y);
  } else {
#pragma unroll
    for (unsigned w = 0; w < Op::out_words; ++w) out[w * n + j] = y[w];
  }
}

// batch_one_thread over Arrays (one instance a thread): the contiguous layout staged as
// there, each array's words filled into (and drained from) their place in the rows.
template <class Op, unsigned Parts>
__device__ __forceinline__ void arrays_one_thread(std::size_t n, Layout layout,
                                                  const typename arrays_of<Op, Parts>::type& a) {
  using of = arrays_of<Op, Parts>;
  static_assert(Op::threads_per_instance == 1, "the thread tier's");
  if constexpr (Op::stage_stride != 0) {  // staged as batch_one_thread: each array in its place in the rows
    constexpr unsigned S = Op::stage_stride;
    if (staged<Op>(layout))
      return staged_warp<Op>(
          n,
          [&](uint32_t* rows, std::size_t first, unsigned count, unsigned lane) {
            of::each_operand([&](auto array) {
              using A = decltype(array);
              warp_rows<A::width, S>::fill(rows + A::first, a.in[A::index] + first * A::width, count, lane);
            });
          },
          [&](const uint32_t* rows, std::size_t first, unsigned count, unsigned lane) {
            of::each_result([&](auto array) {
              using A = decltype(array);
              warp_rows<A::width, S>::drain(a.out[A::index] + first * A::width, rows + A::first, count, lane);
            });
          });
  }
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  uint32_t x[Op::in_words], y[Op::out_words];
  of::each_operand([&](auto array) {
    using A = decltype(array);
    if (layout == Layout::contiguous) {
      instance_words<A::width>::load(a.in[A::index] + j * A::width,
                                     *reinterpret_cast<uint32_t(*)[A::width]>(x + A::first));
    } else {
#pragma unroll
      for (unsigned i = 0; i < A::width; ++i) x[A::first + i] = a.in[A::index][i * n + j];
    }
  });
  Op::device(y, x);
  of::each_result([&](auto array) {
    using A = decltype(array);
    if (layout == Layout::contiguous) {
      instance_words<A::width>::store(a.out[A::index] + j * A::width,
                                      *reinterpret_cast<const uint32_t(*)[A::width]>(y + A::first));
    } else {
#pragma unroll
      for (unsigned i = 0; i < A::width; ++i) a.out[A::index][i * n + j] = y[A::first + i];
    }
  });
}

// A group product's tables live in the launch's dynamic shared memory: a launch without
// them stops here rather than fault.
template <class Op>
__device__ __forceinline__ void require_tables() {
  if constexpr (Op::shared_bytes != 0) {
    if (dynamic_shared_bytes() < Op::shared_bytes) __trap();
  }
}

// Op over Arrays: one instance a thread, or a group's (the group tier).
template <class Op, unsigned Parts>
__device__ __forceinline__ void batch_arrays(std::size_t n, Layout layout, const typename arrays_of<Op, Parts>::type& a) {
  require_tables<Op>();
  if constexpr (Op::threads_per_instance > 1) {
    constexpr unsigned L = arrays_of<Op, Parts>::part_limbs;
    const Strides number = Strides::of(layout, n, L);
    group::group_instances<Op>(
        n,
        [&](unsigned o, unsigned limbs, unsigned, unsigned i, std::size_t j) {
          const Strides s = Strides::of(layout, n, limbs);
          return a.in[o][i * s.word + j * s.instance];
        },
        [&](unsigned w, std::size_t j, uint32_t v) {  // the flag (w = result_limbs) in an array of one word
          if (w < Op::result_limbs) a.out[w / L][w % L * number.word + j * number.instance] = v;
          else a.out[Parts][j] = v;
        });
  } else {
    arrays_one_thread<Op, Parts>(n, layout, a);
  }
}

template <class Op>
__device__ __forceinline__ void batch_thread(std::size_t n, Layout layout, const uint32_t* __restrict__ in,
                                             uint32_t* __restrict__ out) {
  require_tables<Op>();
  if constexpr (Op::threads_per_instance > 1) group::batch_group<Op>(n, layout, in, out);
  else batch_one_thread<Op>(n, layout, in, out);
}

// The blocks an SM that Op's batch kernel bounds its registers for: the manifest's
// min_blocks_per_sm in the group tier (2 where a group spans blocks), else 1.
template <class Op>
__host__ __device__ constexpr unsigned min_blocks_per_sm() {
  if constexpr (Op::threads_per_instance > 1) return Op::min_blocks_per_sm;
  else return 1;
}

// Bounded to the launch's block (the manifest's block_threads) and min_blocks_per_sm, so
// that a block of 512 or 1024 threads of a group finds registers enough.
template <class Op>
__global__ void __launch_bounds__(Op::block_threads, min_blocks_per_sm<Op>())
    device_batch(std::size_t n, Layout layout, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  batch_thread<Op>(n, layout, in, out);
}

#ifndef __CUDACC_RTC__
// The blocks one instance of Op spans: the group tier's blocks_per_instance, else 1.
template <class Op>
constexpr unsigned spanning_blocks() {
  if constexpr (Op::threads_per_instance > 1) return Op::blocks_per_instance;
  else return 1;
}

// The dynamic shared memory a launch of Op's batch kernel over `layout` passes (the
// manifest's launch geometry; staged = false: the contiguous layout without the thread
// tier's staging, as a user may launch it).
template <class Op>
constexpr unsigned launch_shared_bytes(Layout layout, bool staged = true) {
  return layout == Layout::contiguous && staged ? Op::contiguous_shared_bytes : Op::shared_bytes;
}

// Op's batch kernel over n instances on device memory, in its launch geometry (blocks of
// Op::block_threads, the layout's dynamic shared memory, opted in: with the kernel's
// static shared memory it may pass the 48 KB a launch gets without asking).
template <class Op>
cudaError_t launch_batch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, bool staged = true,
                         cudaStream_t stream = 0) {
  const unsigned shared = launch_shared_bytes<Op>(layout, staged);
  if (shared != 0) {
    const cudaError_t e =
        cudaFuncSetAttribute(device_batch<Op>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared));
    if (e != cudaSuccess) return e;
  }
  if constexpr (spanning_blocks<Op>() > 1) {  // a group spanning blocks: a cooperative launch of
    constexpr unsigned B = spanning_blocks<Op>();  // the groups resident at once (at most launch_groups)
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, device_batch<Op>, Op::block_threads, shared);
    if (e != cudaSuccess) return e;
    std::size_t groups = std::size_t(sms) * std::size_t(per_sm) / B;
    groups = groups < Op::launch_groups ? groups : Op::launch_groups;
    if (groups == 0) return cudaErrorCooperativeLaunchTooLarge;
    if (n == 0) return cudaSuccess;
    void* args[] = {&n, &layout, &in, &out};
    return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(device_batch<Op>),
                                       dim3(unsigned((groups < n ? groups : n) * B)), dim3(Op::block_threads), args,
                                       shared, stream);
  } else {
    const std::size_t blocks = (n * Op::threads_per_instance + Op::block_threads - 1) / Op::block_threads;
    device_batch<Op><<<unsigned(blocks), Op::block_threads, shared, stream>>>(n, layout, in, out);
    return cudaGetLastError();
  }
}
#endif
#endif

}  // namespace mpgen

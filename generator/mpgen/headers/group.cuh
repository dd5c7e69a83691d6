// The group tier's steps between threads (generator/mpgen/group/program.py defines them): one
// integer held by a group of T consecutive threads of a block, thread t holding limbs
// [t Q, (t + 1) Q). On the GPU each step is a few ballots, shuffles or shared-memory
// words; on the host the same formula runs over every thread's words. Copied verbatim
// into every generated header, inside its version guard.
namespace mpgen {
namespace group {

// The bits of limb `limb` that lie below `bits` (a mask for the width's top).
MPGEN_HOST_DEVICE uint32_t width_mask(unsigned limb, unsigned bits) {
  return limb < bits / 32 ? ~0u : limb == bits / 32 ? (1u << bits % 32) - 1 : 0u;
}

// The product loop's schedules (group/program.py's `segments`, the same formula): thread
// t's two segments of rows (product block, first row, rows) within `row_iterations`.
enum rows_schedule : unsigned { full_rows, low_rows, square_rows };
struct row_segment {
  unsigned block, first_row, rows;
};

MPGEN_HOST_DEVICE constexpr unsigned row_iterations(unsigned schedule, unsigned T) {
  return schedule == full_rows ? T + 1 : schedule == low_rows ? T / 2 + 1 : T / 2 + 2;
}

MPGEN_HOST_DEVICE void row_segments(unsigned schedule, unsigned T, unsigned t, row_segment& first,
                                           row_segment& second) {
  const unsigned half = T / 2;
  if (schedule == full_rows) {
    first = {t, 0, t + 1}, second = {T + t, t, T - t};
  } else if (schedule == low_rows) {
    if (t < half) first = {t, 0, t + 1}, second = {T - 1 - t, 0, half - t};
    else first = {t, t + 1 - half, half}, second = {T - 1 - t, 0, 0};
  } else {
    first = {t, 0, t / 2 + 1}, second = {T + t, t, (T + t) / 2 - t + 1};
  }
}

// One prime's lists of the NTT product (ntt/lists.py): a digit into the field, the two
// butterflies, the pointwise product.
template <class Digit, class Forward, class Pointwise, class Inverse>
struct ntt_prime {
  using digit = Digit;
  using forward = Forward;
  using pointwise = Pointwise;
  using inverse = Inverse;
};

#ifdef __CUDACC__
// Every thread of the block runs every step (threads of instances past the batch's end
// too, on zeros), so that ballots over whole warps and block barriers are well defined.
// Pool: the words of the block's one array for the exchanges of whole vectors through
// shared memory (group/program.py's exchange_pool_words, the largest one takes): each of
// them synchronizes the block before it writes, so that they take the array in turn, and
// moves at most `chunk` words a thread at a time, so that the array stays small beside the
// products' tables (16 KB for 512 threads: 2^18 bits fit with the transforms' 198 KB).
//
// A group of more threads than a block has spans B = T / Span blocks of Span threads
// (Scratch > 0: the words of group/program.py's span_scratch_words): block b of the group
// holds threads [b Span, (b + 1) Span); sync() is then a barrier of the group's blocks,
// which the cooperative launch keeps resident together, and what a group within a block
// keeps in shared memory (the pool, the transforms' regions, the scans' words a block)
// lies in the group's part of a global array, Groups parts: one a group of the launch.
template <unsigned T, unsigned Pool, unsigned Span = T, unsigned Scratch = 0, unsigned Groups = 1>
struct on_device {
  static constexpr unsigned chunk = 8;
  static constexpr bool spanning = Span < T;
  static constexpr unsigned B = T / Span;  // blocks of a spanning group
  static_assert(!spanning || (Scratch > 0 && B <= 32 && Span % 32 == 0));

  __device__ __forceinline__ static unsigned rank() {
    if constexpr (spanning) return blockIdx.x % B * Span + threadIdx.x;
    else return threadIdx.x % T;
  }

  // A spanning group's words in global memory: [0, 2) its barrier (arrivals, generation),
  // [2, 66) the carry scan's generate and propagate a block, [66, 98) the vote a block,
  // [98] a broadcast's word, then the pool, then the transforms' regions.
  static constexpr unsigned scan_words = 2, vote_words = 66, broadcast_word = 98, pool_words = 99;
  __device__ __forceinline__ static uint32_t* scratch() {
    static_assert(spanning);
    static __device__ uint32_t words[Groups * Scratch];
    return words + blockIdx.x / B * Scratch;
  }

  // The group's threads wait for each other: the block's (__syncthreads), or every block
  // of a spanning group (thread 0 of each counts itself in; the last one in resets the
  // count and moves the generation on, which the others wait for), its memory then seen
  // by all of them.
  __device__ __forceinline__ static void sync() {
    __syncthreads();
    if constexpr (spanning) {
      if (threadIdx.x == 0) {
        uint32_t* const barrier = scratch();
        volatile uint32_t* const generation = barrier + 1;
        const uint32_t seen = *generation;
        __threadfence();
        if (atomicAdd(barrier, 1u) == B - 1) {
          atomicExch(barrier, 0u);
          __threadfence();
          atomicAdd(barrier + 1, 1u);
        } else {
          while (*generation == seen) {
          }
        }
        __threadfence();
      }
      __syncthreads();
    }
  }

  __device__ __forceinline__ static uint32_t* pool() {
    if constexpr (spanning) {
      return scratch() + pool_words;
    } else {
      __shared__ uint32_t words[Pool ? Pool : 1];
      return words;
    }
  }

  // A spanning group's twiddles of N-point transforms (w^e R mod p for e = 0 .. N/2, each
  // prime's in turn; a flag word before them), at the end of its scratch: computed by the
  // group's threads at its first product after the module loads (the flag then stays
  // set), from Roots' R and w R mod p a prime by the prime's Montgomery product: thread t
  // powers w R to w^t R (square and multiply), then steps by w^T R.
  template <unsigned N, class Roots, class... Primes>
  __device__ __forceinline__ static const uint32_t* computed_twiddles() {
    static_assert(spanning);
    constexpr unsigned H = N / 2 + 1, K = sizeof...(Primes);
    uint32_t* const flag = scratch() + Scratch - (1 + K * H);
    if (*static_cast<volatile uint32_t*>(flag) == 0) {  // the same in every thread: set between barriers
      power_table<H, Roots, 0, Primes...>(flag + 1);
      sync();
      if (rank() == 0) *flag = 1;
    }
    return flag + 1;
  }
  template <unsigned H, class Roots, unsigned J, class Prime, class... Rest>
  __device__ __forceinline__ static void power_table(uint32_t* table) {
    const auto times = [](uint32_t x, uint32_t y) {
      const uint32_t in[2] = {x, y};
      uint32_t out;
      Prime::pointwise::device(&out, in);
      return out;
    };
    const unsigned t = rank();
    uint32_t x = Roots::one[J], base = Roots::root[J];
    for (unsigned bit = 1; bit < T; bit *= 2) {
      if (t & bit) x = times(x, base);
      base = times(base, base);  // w^(2 bit) R; at the end w^T R
    }
    for (unsigned e = t; e < H; e += T) table[J * H + e] = x, x = times(x, base);
    if constexpr (sizeof...(Rest) != 0) power_table<H, Roots, J + 1, Rest...>(table);
  }

  // The transforms' regions: the launch's dynamic shared memory (IPB instances' sets), or
  // a spanning group's scratch after the pool.
  template <unsigned Words>
  __device__ __forceinline__ static uint32_t* regions() {
    if constexpr (spanning) {
      return scratch() + pool_words + Pool;
    } else {
      extern __shared__ uint32_t tables[];
      return tables + threadIdx.x / T * Words;
    }
  }

  // An exchange of W words a thread through the pool, `chunk` at a time: for each chunk the
  // block synchronizes, put(own, C, first, count) writes the thread's words [first, first +
  // count) into the group's Slots slots of C words (own), the block synchronizes, and
  // get(own, C, first, count) reads them.
  template <unsigned W, unsigned Slots, unsigned IPB, class Put, class Get>
  __device__ __forceinline__ static void through_pool(const Put& put, const Get& get) {
    constexpr unsigned C = W < chunk ? W : chunk;
    static_assert(IPB * Slots * C <= Pool);
    uint32_t* const own = pool() + (spanning ? 0 : threadIdx.x / T * Slots * C);
#pragma unroll
    for (unsigned first = 0; first < W; first += C) {
      const unsigned count = W - first < C ? W - first : C;
      sync();
      put(own, C, first, count);
      sync();
      get(own, C, first, count);
    }
  }

  // put for through_pool: the thread's words of v into its slot.
  __device__ __forceinline__ static auto into_slot(const uint32_t* v) {
    return [v](uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
      for (unsigned w = 0; w < count; ++w) own[rank() * C + w] = v[first + w];
    };
  }

  // carry: the carry into this thread's limbs; out: the carry out of the group. From each
  // thread's generate and propagate bits: the carries are the bits of (P + 2 G + carry_in)
  // xor P (CGBN's trick), within a warp from two ballots; across the W warps of a larger
  // group the same formula again over each warp's own generate and propagate bits (its
  // carry out with no carry in, and with one), exchanged in shared memory.
  __device__ __forceinline__ static void carry_scan(uint32_t generate, uint32_t propagate, uint32_t carry_in,
                                                    uint32_t& carry, uint32_t& out) {
    const unsigned lane = threadIdx.x % 32;
    const uint32_t g = __ballot_sync(~0u, generate & 1), p = __ballot_sync(~0u, propagate & 1);
    if constexpr (T <= 32) {
      const unsigned base = lane / T * T;
      const uint64_t mask = (uint64_t(1) << T) - 1;
      const uint64_t gp = uint64_t(p) >> base & mask, gg = uint64_t(g) >> base & mask;
      const uint64_t total = gp + 2 * gg + (carry_in & 1);
      carry = uint32_t((total ^ gp) >> (lane - base)) & 1;
      out = uint32_t(total >> T) & 1;
    } else {
      constexpr unsigned W = Span / 32;  // warps of the group in a block
      __shared__ uint32_t warp_bits[2 * 32];  // per warp of the block: its generate, propagate
      const unsigned warp = threadIdx.x / 32, first = warp / W * W;
      const uint64_t within = uint64_t(p) + 2 * uint64_t(g);
      const uint32_t out0 = uint32_t(within >> 32), out1 = uint32_t((within + 1) >> 32);
      __syncthreads();  // an earlier scan's readers are done with warp_bits
      if (lane == 0) warp_bits[2 * warp] = out0, warp_bits[2 * warp + 1] = out1 & ~out0;
      __syncthreads();
      const uint32_t wg = __ballot_sync(~0u, lane < W && warp_bits[2 * (first + lane)]);
      const uint32_t wp = __ballot_sync(~0u, lane < W && warp_bits[2 * (first + lane) + 1]);
      uint32_t block_in = carry_in & 1;
      if constexpr (spanning) {  // the same formula a third time, over the group's blocks
        const uint64_t wsum = uint64_t(wp) + 2 * uint64_t(wg);
        const uint32_t b0 = uint32_t(wsum >> W) & 1, b1 = uint32_t((wsum + 1) >> W) & 1;
        uint32_t* const bits = scratch() + scan_words;
        sync();  // an earlier scan's readers are done with bits
        if (threadIdx.x == 0) bits[2 * (blockIdx.x % B)] = b0, bits[2 * (blockIdx.x % B) + 1] = b1 & ~b0;
        sync();
        const uint32_t bg = __ballot_sync(~0u, lane < B && bits[2 * lane]);
        const uint32_t bp = __ballot_sync(~0u, lane < B && bits[2 * lane + 1]);
        const uint64_t btotal = uint64_t(bp) + 2 * uint64_t(bg) + (carry_in & 1);
        block_in = uint32_t((btotal ^ bp) >> (blockIdx.x % B)) & 1;
        out = uint32_t(btotal >> B) & 1;
      }
      const uint64_t wtotal = uint64_t(wp) + 2 * uint64_t(wg) + block_in;
      const uint32_t warp_in = uint32_t((wtotal ^ wp) >> (warp - first)) & 1;
      if constexpr (!spanning) out = uint32_t(wtotal >> W) & 1;
      carry = uint32_t(((within + warp_in) ^ p) >> lane) & 1;
    }
  }

  // Whether bit 0 of `bit` is set in every thread of the warp (Block: of the block), the
  // same answer in each of them: where a Repeat may end early.
  template <bool Block>
  __device__ __forceinline__ static bool every(uint32_t bit) {
    if constexpr (spanning) return all(bit) != 0;
    else if constexpr (Block) return __syncthreads_and(bit & 1) != 0;
    else return __all_sync(~0u, bit & 1) != 0;
  }

  // 1 where bit 0 of `bit` is set in every thread of the group, else 0.
  __device__ __forceinline__ static uint32_t all(uint32_t bit) {
    const unsigned lane = threadIdx.x % 32;
    const uint32_t votes = __ballot_sync(~0u, bit & 1);
    if constexpr (T <= 32) {
      const uint32_t mask = (T == 32 ? ~0u : (1u << T) - 1) << (lane / T * T);
      return (votes & mask) == mask;
    } else if constexpr (spanning) {  // the block's vote, then the group's blocks'
      const uint32_t block = __syncthreads_and(bit & 1);
      uint32_t* const each = scratch() + vote_words;
      sync();  // an earlier vote's readers are done
      if (threadIdx.x == 0) each[blockIdx.x % B] = block;
      sync();
      return __all_sync(~0u, lane >= B || each[lane]);
    } else {
      constexpr unsigned W = T / 32;
      __shared__ uint32_t warp_all[32];  // per warp of the block
      const unsigned warp = threadIdx.x / 32, first = warp / W * W;
      __syncthreads();
      if (lane == 0) warp_all[warp] = votes == ~0u;
      __syncthreads();
      return __all_sync(~0u, lane >= W || warp_all[first + lane]);
    }
  }

  // The quadratic product's loop (group/program.py's ProductRows): a and b (Q limbs each)
  // into the group's tables in the launch's dynamic shared memory (the manifest's
  // shared_bytes: IPB sets of table_words; b between Q - 1 zeros below and Q above),
  // then the schedule's iterations of Row over (the accumulator, a's block r, b's
  // window), r and the column block from k and the thread alone (a square's last row of
  // a block: Finish of its parity); low and high get the two segments' accumulators (A
  // words each).
  template <unsigned Q, unsigned A, unsigned IPB, unsigned Schedule, class Row, class FinishEven = Row,
            class FinishOdd = Row>
  __device__ __forceinline__ static void product_rows(const uint32_t* a, const uint32_t* b, uint32_t* low,
                                                      uint32_t* high) {
    static_assert(!spanning, "the rows' tables hold the whole integer in one block");
    constexpr unsigned TQ = T * Q, below = Q - 1, table_words = 2 * TQ + 2 * Q;
    extern __shared__ uint32_t tables[];
    uint32_t* const table_a = tables + threadIdx.x / T * table_words;
    uint32_t* const table_b = table_a + TQ + below;  // b's limb i at table_b[i]
    const unsigned t = rank();
    __syncthreads();  // the tables' earlier readers are done
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) table_a[t * Q + i] = a[i], table_b[t * Q + i] = b[i];
    for (unsigned p = t; p < 2 * Q - 1; p += T) {
      if (p < below) table_b[int(p) - int(below)] = 0;
      else table_b[TQ + p - below] = 0;
    }
    __syncthreads();
    row_segment first, second;
    row_segments(Schedule, T, t, first, second);
    uint32_t acc[A];
#pragma unroll
    for (unsigned i = 0; i < A; ++i) acc[i] = 0;
    for (unsigned k = 0; k < row_iterations(Schedule, T); ++k) {
      if (k == first.rows) {
#pragma unroll
        for (unsigned i = 0; i < A; ++i) low[i] = acc[i], acc[i] = 0;
      }
      const bool later = k >= first.rows;
      const unsigned row = later ? k - first.rows : k, rows = later ? second.rows : first.rows;
      if (row >= rows) continue;
      const unsigned c = later ? second.block : first.block, r = (later ? second.first_row : first.first_row) + row;
      const uint32_t* const window = table_b + int((c - r) * Q) - int(Q) + 1;
      uint32_t x[A + 3 * Q - 1];
#pragma unroll
      for (unsigned i = 0; i < A; ++i) x[i] = acc[i];
#pragma unroll
      for (unsigned u = 0; u < Q; ++u) x[A + u] = table_a[r * Q + u];
#pragma unroll
      for (unsigned w = 0; w < 2 * Q - 1; ++w) x[A + Q + w] = window[w];
      if (Schedule == square_rows && row == rows - 1) {
        if (c % 2) FinishOdd::device(acc, x);
        else FinishEven::device(acc, x);
      } else {
        Row::device(acc, x);
      }
    }
#pragma unroll
    for (unsigned i = 0; i < A; ++i) high[i] = acc[i];
  }

  // The low half's exchange (group/program.py's Mirror), W words: out = v of thread T - 1 - t.
  template <unsigned W, unsigned IPB>
  __device__ __forceinline__ static void mirror(const uint32_t* v, uint32_t* out) {
    const unsigned t = rank();
    if constexpr (T <= 32) {
      const unsigned base = threadIdx.x % 32 / T * T;
#pragma unroll
      for (unsigned w = 0; w < W; ++w) out[w] = __shfl_sync(~0u, v[w], base + T - 1 - t);
    } else {
      through_pool<W, T, IPB>(into_slot(v), [&](const uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
        for (unsigned w = 0; w < count; ++w) out[first + w] = own[(T - 1 - t) * C + w];
      });
    }
  }

  // The product's handoff (group/program.py's Handoff), W words: low_in = thread t - 1's
  // low (zeros in thread 0), high_in = thread t - 1's high (thread 0: thread T - 1's low).
  template <unsigned W, unsigned IPB>
  __device__ __forceinline__ static void handoff(const uint32_t* low, const uint32_t* high, uint32_t* low_in,
                                                 uint32_t* high_in) {
    const unsigned t = rank();
    if constexpr (T <= 32) {
      const unsigned base = threadIdx.x % 32 / T * T;
#pragma unroll
      for (unsigned w = 0; w < W; ++w) {
        const uint32_t l = __shfl_sync(~0u, low[w], base + (t ? t - 1 : T - 1));
        const uint32_t h = __shfl_sync(~0u, high[w], base + (t ? t - 1 : 0));
        low_in[w] = t ? l : 0, high_in[w] = t ? h : l;
      }
    } else {  // the group's slots: lows, then highs
      const auto put = [&](uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
        for (unsigned w = 0; w < count; ++w) own[t * C + w] = low[first + w], own[(T + t) * C + w] = high[first + w];
      };
      through_pool<W, 2 * T, IPB>(put, [&](const uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
        for (unsigned w = 0; w < count; ++w) {
          low_in[first + w] = t ? own[(t - 1) * C + w] : 0;
          high_in[first + w] = t ? own[(T + t - 1) * C + w] : own[(T - 1) * C + w];
        }
      });
    }
  }

  // A shift's exchange (group/program.py's Neighbours): out = v (W words) of thread t +
  // offset, then of thread t + offset + 1, zeros outside the group; through shared memory.
  template <unsigned W, unsigned IPB>
  __device__ __forceinline__ static void neighbours(const uint32_t* v, int offset, uint32_t* out) {
    const int t = int(rank());
    through_pool<W, T, IPB>(into_slot(v), [&](const uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        const int from = t + offset + k;
        const bool inside = from >= 0 && from < int(T);
#pragma unroll
        for (unsigned w = 0; w < count; ++w) out[k * W + first + w] = inside ? own[(inside ? from : 0) * C + w] : 0;
      }
    });
  }

  // ShiftUp (group/program.py): out = v (W words) moved up K limbs over the group, thread
  // 0's lowest K from `incoming` (null: zeros), the top thread's top K dropped; out may be v.
  template <unsigned W, unsigned K, unsigned IPB>
  __device__ __forceinline__ static void shift_up(const uint32_t* v, const uint32_t* incoming, uint32_t* out) {
    const unsigned t = rank();
    uint32_t below[K];
    from_neighbour<K, IPB, true>(v + W - K, below);
#pragma unroll
    for (unsigned w = W; w-- > K;) out[w] = v[w - K];
#pragma unroll
    for (unsigned w = 0; w < K; ++w) out[w] = t ? below[w] : incoming ? incoming[w] : 0u;
  }

  // ShiftDown: out = v (W words) moved down K limbs over the group, the top thread's top K
  // zeros, thread 0's lowest K dropped; out may be v.
  template <unsigned W, unsigned K, unsigned IPB>
  __device__ __forceinline__ static void shift_down(const uint32_t* v, uint32_t* out) {
    const unsigned t = rank();
    uint32_t above[K];
    from_neighbour<K, IPB, false>(v, above);
#pragma unroll
    for (unsigned w = 0; w + K < W; ++w) out[w] = v[w + K];
#pragma unroll
    for (unsigned w = 0; w < K; ++w) out[W - K + w] = t + 1 < T ? above[w] : 0u;
  }

  // got = the K words `words` of the thread below (Below) or above (the group's end
  // threads: their own), through one array for every shift that moves K each way.
  template <unsigned K, unsigned IPB, bool Below>
  __device__ __forceinline__ static void from_neighbour(const uint32_t* words, uint32_t* got) {
    if constexpr (T <= 32) {
#pragma unroll
      for (unsigned w = 0; w < K; ++w)
        got[w] = Below ? __shfl_up_sync(~0u, words[w], 1, T) : __shfl_down_sync(~0u, words[w], 1, T);
    } else {
      const unsigned t = rank(), from = Below ? (t ? t - 1 : 0) : (t + 1 < T ? t + 1 : t);
      through_pool<K, T, IPB>(into_slot(words), [&](const uint32_t* own, unsigned C, unsigned first, unsigned count) {
#pragma unroll
        for (unsigned w = 0; w < count; ++w) got[first + w] = own[from * C + w];
      });
    }
  }

  // The NTT product (group/program.py's Convolution; ntt/transform.py says the layout):
  // for each prime of Primes (ntt_prime bundles), the residues of a b's N coefficients in its
  // region of the launch's dynamic shared memory (N words and a padding word every 32, one
  // region a prime: the manifest's shared_bytes), then low and high = Columns over blocks
  // t and T + t of the coefficients' residues. Each thread holds P = N / T points: the
  // stages go LEVELS = log2 P at a time in registers, with the points exchanged through
  // the prime's region between the groups of stages (stride s: points base + s k).
  template <unsigned Q, unsigned A, unsigned IPB, unsigned N, bool Square, class Columns, class... Primes>
  __device__ __forceinline__ static void convolution(const uint32_t* a, const uint32_t* b, uint32_t* low,
                                                     uint32_t* high, const uint32_t* twiddles) {
    constexpr unsigned K = sizeof...(Primes), region = N + N / 32;
    uint32_t* const regions = on_device::regions<K * region>();
    all_residues<Q, N, Square, 0, Primes...>(a, b, regions, twiddles);
    sync();
    const unsigned t = rank();
    uint32_t x[K * Q];
#pragma unroll
    for (unsigned half = 0; half < 2; ++half) {
#pragma unroll
      for (unsigned j = 0; j < K; ++j)
#pragma unroll
        for (unsigned k = 0; k < Q; ++k) x[j * Q + k] = regions[j * region + padded((half * T + t) * Q + k)];
      Columns::device(half ? high : low, x);
    }
  }

  __device__ __forceinline__ static unsigned padded(unsigned i) { return i + (i >> 5); }

  __host__ __device__ static constexpr unsigned ilog2(unsigned n) { return n > 1 ? 1 + ilog2(n / 2) : 0; }

  // Group g of the stages of an N-point transform: its stride, this thread's first point.
  template <unsigned N>
  __device__ __forceinline__ static unsigned stride(unsigned g) {
    constexpr unsigned LEVELS = ilog2(N / T), G = (ilog2(N) + LEVELS - 1) / LEVELS;
    return g + 1 < G ? N >> LEVELS * (g + 1) : 1;
  }
  template <unsigned N>
  __device__ __forceinline__ static unsigned first_point(unsigned g) {
    const unsigned s = stride<N>(g);
    return rank() / s * (N / T * s) + rank() % s;
  }

  // The points of group `from` to their places in group `to`, through the region.
  template <unsigned N>
  __device__ __forceinline__ static void exchange(uint32_t* x, uint32_t* region, unsigned from, unsigned to) {
    constexpr unsigned P = N / T;
    const unsigned base = first_point<N>(from), s = stride<N>(from);
    sync();
#pragma unroll
    for (unsigned k = 0; k < P; ++k) region[padded(base + s * k)] = x[k];
    sync();
    const unsigned base_to = first_point<N>(to), s_to = stride<N>(to);
#pragma unroll
    for (unsigned k = 0; k < P; ++k) x[k] = region[padded(base_to + s_to * k)];
  }

  // Group g's radix-2 stages (forward: halves s P/2 down to s; Inverse: back up), the
  // last group's first `skip` levels left out (done by the groups before it).
  template <unsigned N, bool Inverse, class Fly>
  __device__ __forceinline__ static void stages(uint32_t* x, unsigned g, const uint32_t* twiddles) {
    constexpr unsigned P = N / T, LEVELS = ilog2(P), G = (ilog2(N) + LEVELS - 1) / LEVELS;
    const unsigned base = first_point<N>(g), s = stride<N>(g), skip = g + 1 < G ? 0 : LEVELS * G - ilog2(N);
#pragma unroll
    for (unsigned step = 0; step < LEVELS; ++step) {
      const unsigned level = Inverse ? LEVELS - 1 - step : step;
      if (level < skip) continue;
      const unsigned span = P / 2 >> level, half = s * span;
#pragma unroll
      for (unsigned k = 0; k < P; ++k) {
        if (k & span) continue;
        const unsigned e = ((base + s * k) & (half - 1)) * (N / (2 * half));
        uint32_t in[3] = {x[k], x[k + span], __ldg(twiddles + (Inverse ? N / 2 - e : e))}, out[2];
        Fly::device(out, in);
        x[k] = out[0], x[k + span] = out[1];
      }
    }
  }

  // One prime's transform of v's digits (Q a thread, zeros up to N): in natural order in,
  // the spectrum in the last group's places out.
  template <unsigned Q, unsigned N, class Prime>
  __device__ __forceinline__ static void spectrum(const uint32_t* v, uint32_t* region, const uint32_t* twiddles,
                                                  uint32_t* x) {
    constexpr unsigned P = N / T, G = (ilog2(N) + ilog2(P) - 1) / ilog2(P);
    const unsigned t = rank();
    sync();
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) {
      uint32_t digit;
      Prime::digit::device(&digit, &v[i]);
      region[padded(t * Q + i)] = digit;
    }
    sync();
#pragma unroll
    for (unsigned k = 0; k < P; ++k) x[k] = k < Q ? region[padded(t + T * k)] : 0;  // group 0's places
#pragma unroll
    for (unsigned g = 0; g < G; ++g) {
      if (g) exchange<N>(x, region, g - 1, g);
      stages<N, false, typename Prime::forward>(x, g, twiddles);
    }
  }

  // Each prime's residues in turn, prime J's in region J.
  template <unsigned Q, unsigned N, bool Square, unsigned J, class Prime, class... Rest>
  __device__ __forceinline__ static void all_residues(const uint32_t* a, const uint32_t* b, uint32_t* regions,
                                                      const uint32_t* twiddles) {
    residues<Q, N, Square, sizeof...(Rest) != 0, Prime>(a, b, regions + (N + N / 32) * J, twiddles + (N / 2 + 1) * J);
    if constexpr (sizeof...(Rest) != 0) all_residues<Q, N, Square, J + 1, Rest...>(a, b, regions, twiddles);
  }

  // One prime's residues, in a function of its own (so that a and b wait in local memory,
  // and the registers hold one prime's transforms); a product's first spectrum waits in
  // the next prime's region where there is one (Park: free until that prime starts),
  // else in registers beside the second.
  template <unsigned Q, unsigned N, bool Square, bool Park, class Prime>
  __device__ __noinline__ static void residues(const uint32_t* a, const uint32_t* b, uint32_t* region,
                                                  const uint32_t* twiddles) {
    constexpr unsigned P = N / T, G = (ilog2(N) + ilog2(P) - 1) / ilog2(P);
    uint32_t x[P];
    spectrum<Q, N, Prime>(a, region, twiddles, x);
    if constexpr (Square) {
#pragma unroll
      for (unsigned k = 0; k < P; ++k) {
        const uint32_t in[2] = {x[k], x[k]};
        Prime::pointwise::device(&x[k], in);
      }
    } else if constexpr (Park) {
      uint32_t* const park = region + N + N / 32;
      const unsigned base = first_point<N>(G - 1);  // the last group's places: stride 1
#pragma unroll
      for (unsigned k = 0; k < P; ++k) park[padded(base + k)] = x[k];
      spectrum<Q, N, Prime>(b, region, twiddles, x);
#pragma unroll
      for (unsigned k = 0; k < P; ++k) {
        const uint32_t in[2] = {park[padded(base + k)], x[k]};
        Prime::pointwise::device(&x[k], in);
      }
    } else {
      uint32_t y[P];
      spectrum<Q, N, Prime>(b, region, twiddles, y);
#pragma unroll
      for (unsigned k = 0; k < P; ++k) {
        const uint32_t in[2] = {x[k], y[k]};
        Prime::pointwise::device(&x[k], in);
      }
    }
#pragma unroll
    for (unsigned back = 0; back < G; ++back) {  // the groups in reverse
      const unsigned g = G - 1 - back;
      if (back) exchange<N>(x, region, g + 1, g);
      stages<N, true, typename Prime::inverse>(x, g, twiddles);
    }
    sync();
    const unsigned base = first_point<N>(0), s = stride<N>(0);
#pragma unroll
    for (unsigned k = 0; k < P; ++k) region[padded(base + s * k)] = x[k];  // natural order
  }

  // Thread `from`'s value, in every thread of the group.
  __device__ __forceinline__ static uint32_t broadcast(uint32_t value, unsigned from) {
    if constexpr (T <= 32) {
      return __shfl_sync(~0u, value, threadIdx.x % 32 / T * T + from);
    } else if constexpr (spanning) {
      uint32_t* const slot = scratch() + broadcast_word;
      sync();
      if (rank() == from) *slot = value;
      sync();
      return *slot;
    } else {
      __shared__ uint32_t slot[32];  // per group of the block
      const unsigned group = threadIdx.x / T;
      __syncthreads();
      if (rank() == from) slot[group] = value;
      __syncthreads();
      return slot[group];
    }
  }
};

// Thread t's words of operands o, o + 1, ... of instance j: its Q limbs of each vector
// operand (zeros above the operand's limbs; nothing for a group past the batch's end; a
// double-width operand as two vectors, its halves), each one-word operand whole. word(o,
// limbs, first, i, j) reads word i of operand o (of `limbs` words; word first + i of the
// instance's in words).
template <class Op, unsigned o = 0, class Word>
__device__ __forceinline__ void load_operands(uint32_t* x, const Word& word, std::size_t j, bool live, unsigned t,
                                              unsigned first = 0) {
  if constexpr (o < Op::operands) {
    constexpr unsigned limbs = Op::operand_limbs[o], Q = Op::limbs_per_thread, parts = Op::operand_parts[o];
    if constexpr (limbs == 1) {
      x[0] = live ? word(o, limbs, first, 0, j) : 0;
    } else {
#pragma unroll
      for (unsigned part = 0; part < parts; ++part)
#pragma unroll
        for (unsigned i = 0; i < Q; ++i) {
          const unsigned limb = t * Q + i;
          x[part * Q + i] = live && limb < limbs / parts ? word(o, limbs, first, part * (limbs / parts) + limb, j) : 0;
        }
    }
    load_operands<Op, o + 1>(x + (limbs == 1 ? 1 : parts * Q), word, j, live, t, first + limbs);
  }
}

// Op (a group operation) over a batch of n instances: group g of the launch runs instance
// g; each thread loads its own words, runs Op::thread, and stores its limbs of the result;
// thread 0 stores the flag. put(w, j, v) writes out word w of instance j (the result's
// limbs, then the flag). (Staging the contiguous layout through shared memory, as the
// thread tier does, measured slower here: 0.65 of the copy bandwidth against 1.0.)
template <class Op, class Word, class Put>
__device__ __forceinline__ void group_instance(std::size_t n, std::size_t j, unsigned t, const Word& word,
                                               const Put& put) {
  constexpr unsigned Q = Op::limbs_per_thread;
  uint32_t x[Op::thread_in_words], y[Op::thread_out_words];
  const bool live = j < n;
  load_operands<Op>(x, word, j, live, t);
  Op::thread(y, x);
  if (!live) return;
  // The result's vectors: the first's limbs below result_part_limbs, the second's after them.
#pragma unroll
  for (unsigned part = 0; part < Op::result_parts; ++part)
#pragma unroll
    for (unsigned i = 0; i < Q; ++i) {
      const unsigned own = t * Q + i, limb = part * Op::result_part_limbs + own;
      if ((part || own < Op::result_part_limbs) && limb < Op::result_limbs) put(limb, j, y[part * Q + i]);
    }
  if constexpr (Op::flag_words != 0) {
    if (t == 0) put(Op::result_limbs, j, y[Op::result_parts * Q]);
  }
}

// A group spanning B blocks (its blocks resident together: a cooperative launch of at most
// launch_groups groups) runs instances g, g + G, ... of the G groups of the launch, every
// group the same number of rounds.
template <class Op, class Word, class Put>
__device__ __forceinline__ void group_instances(std::size_t n, const Word& word, const Put& put) {
  constexpr unsigned T = Op::threads_per_instance, B = Op::blocks_per_instance;
  if constexpr (B > 1) {
    const std::size_t groups = gridDim.x / B;
    for (std::size_t first = 0; first < n; first += groups)
      group_instance<Op>(n, first + blockIdx.x / B, blockIdx.x % B * blockDim.x + threadIdx.x, word, put);
  } else {
    group_instance<Op>(n, (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / T, threadIdx.x % T, word, put);
  }
}

// The same over one packed array of every instance's in words and one of its out words.
template <class Op>
__device__ __forceinline__ void batch_group(std::size_t n, Layout layout, const uint32_t* __restrict__ in,
                                            uint32_t* __restrict__ out) {
  const Strides si = Strides::of(layout, n, Op::in_words), so = Strides::of(layout, n, Op::out_words);
  group_instances<Op>(
      n,
      [&](unsigned, unsigned, unsigned first, unsigned i, std::size_t j) {
        return in[(first + i) * si.word + j * si.instance];
      },
      [&](unsigned w, std::size_t j, uint32_t v) { out[w * so.word + j * so.instance] = v; });
}
#endif  // __CUDACC__

#ifndef __CUDACC_RTC__
// The same steps on the host, over all T threads' words at once (word t: thread t's).
namespace on_host {
// A vector's part in a thread step: thread t's `words` of it at t * stride (a null vector:
// words of the step's result that no vector keeps).
struct Part {
  uint32_t* vector;
  unsigned stride, words;
};
using HostStep = void (*)(uint32_t*, const uint32_t*);
// A thread step for each thread in turn: its parts read one after the other into the
// step's x, its y written out part by part. Out of line, with the step by address: each
// step's list compiles once, not once where a program calls it (an 8192-bit sqrt's glue
// inlined them all into 180 KB of code that took most of its module's compile).
[[gnu::noinline]] inline void thread_step(unsigned T, HostStep step, std::initializer_list<Part> reads,
                                          std::initializer_list<Part> writes) {
  std::size_t in_words = 1, out_words = 0;  // a constant's list reads nothing
  for (const Part& part : reads) in_words += part.words;
  for (const Part& part : writes) out_words += part.words;
  std::vector<uint32_t> in(in_words), out(out_words);
  for (unsigned t = 0; t < T; ++t) {
    uint32_t* x = in.data();
    for (const Part& part : reads) x = std::copy_n(part.vector + t * part.stride, part.words, x);
    step(out.data(), in.data());
    const uint32_t* y = out.data();
    for (const Part& part : writes) {
      if (part.vector) std::copy_n(y, part.words, part.vector + t * part.stride);
      y += part.words;
    }
  }
}
inline void carry_scan(unsigned T, const uint32_t* generate, const uint32_t* propagate, uint32_t carry_in,
                       uint32_t* carry, uint32_t* out) {
  uint64_t c = carry_in & 1;  // the running carry of P + 2 G + carry_in, 32 threads at a time
  uint32_t shifted = 0;       // G's bit moved into the next word by the doubling
  for (unsigned w = 0; w * 32 < T; ++w) {
    const unsigned count = T - 32 * w < 32 ? T - 32 * w : 32;
    uint32_t p = 0, g = 0;
    for (unsigned i = 0; i < count; ++i)
      p |= (propagate[32 * w + i] & 1) << i, g |= (generate[32 * w + i] & 1) << i;
    const uint64_t sum = uint64_t(p) + (g << 1 | shifted) + c;  // 2 G's bit 32 moves on in `shifted`
    const uint32_t carries = uint32_t(sum) ^ p;
    for (unsigned i = 0; i < count; ++i) carry[32 * w + i] = carries >> i & 1;
    if (count < 32) {
      const uint32_t top = uint32_t(sum >> count) & 1;
      for (unsigned i = 0; i < T; ++i) out[i] = top;
      return;
    }
    c = sum >> 32;
    shifted = g >> 31;
  }
  for (unsigned i = 0; i < T; ++i) out[i] = uint32_t(c + shifted) & 1;
}
// ProductRows, Mirror and Handoff over all threads' words (vectors thread-major, as
// on_host's callers hold them).
template <unsigned Schedule, class Row, class FinishEven = Row, class FinishOdd = Row>
inline void product_rows(unsigned T, unsigned Q, unsigned A, const uint32_t* a, const uint32_t* b, uint32_t* low,
                         uint32_t* high) {
  std::vector<uint32_t> x(A + 3 * Q - 1), acc(A);
  for (unsigned t = 0; t < T; ++t) {
    row_segment first, second;
    row_segments(Schedule, T, t, first, second);
    std::fill(acc.begin(), acc.end(), 0u);
    for (unsigned k = 0; k < row_iterations(Schedule, T); ++k) {
      if (k == first.rows) {
        std::copy(acc.begin(), acc.end(), low + t * A);
        std::fill(acc.begin(), acc.end(), 0u);
      }
      const bool later = k >= first.rows;
      const unsigned row = later ? k - first.rows : k, rows = later ? second.rows : first.rows;
      if (row >= rows) continue;
      const unsigned c = later ? second.block : first.block, r = (later ? second.first_row : first.first_row) + row;
      const long start = long(c - r) * Q - Q + 1;
      std::copy(acc.begin(), acc.end(), x.begin());
      for (unsigned u = 0; u < Q; ++u) x[A + u] = a[r * Q + u];
      for (unsigned w = 0; w < 2 * Q - 1; ++w) {
        const long i = start + w;
        x[A + Q + w] = i >= 0 && i < long(T * Q) ? b[i] : 0;
      }
      if (Schedule == square_rows && row == rows - 1) {
        if (c % 2) FinishOdd::host(acc.data(), x.data());
        else FinishEven::host(acc.data(), x.data());
      } else {
        Row::host(acc.data(), x.data());
      }
    }
    std::copy(acc.begin(), acc.end(), high + t * A);
  }
}

// The NTT product's butterflies in the GPU's order (ntt/transform.py's forward, inverse).
template <class Fly, bool Inverse>
inline void transform(std::vector<uint32_t>& x, const uint32_t* twiddles) {
  const unsigned n = unsigned(x.size());
  for (unsigned half = Inverse ? 1 : n / 2; half && half < n; half = Inverse ? 2 * half : half / 2)
    for (unsigned start = 0; start < n; start += 2 * half)
      for (unsigned j = 0; j < half; ++j) {
        const unsigned e = j * (n / (2 * half));
        const uint32_t in[3] = {x[start + j], x[start + j + half], twiddles[Inverse ? n / 2 - e : e]};
        uint32_t out[2];
        Fly::host(out, in);
        x[start + j] = out[0], x[start + j + half] = out[1];
      }
}

template <bool Square, class Prime>
inline void residues(unsigned limbs, unsigned N, const uint32_t* a, const uint32_t* b, uint32_t* out,
                     const uint32_t* twiddles) {
  auto spectrum = [&](const uint32_t* v) {
    std::vector<uint32_t> x(N, 0u);
    for (unsigned i = 0; i < limbs; ++i) Prime::digit::host(&x[i], &v[i]);
    transform<typename Prime::forward, false>(x, twiddles);
    return x;
  };
  std::vector<uint32_t> x = spectrum(a);
  const std::vector<uint32_t> y = Square ? x : spectrum(b);
  for (unsigned k = 0; k < N; ++k) {
    const uint32_t in[2] = {x[k], y[k]};
    Prime::pointwise::host(&x[k], in);
  }
  transform<typename Prime::inverse, true>(x, twiddles);
  std::copy(x.begin(), x.end(), out);
}

// The twiddles of N-point transforms computed once from Roots (on_device's
// computed_twiddles, by the same Montgomery products in order): a group spanning blocks.
template <unsigned N, class Roots, class... Primes>
const uint32_t* computed_twiddles() {
  static const std::vector<uint32_t> table = [] {
    constexpr unsigned H = N / 2 + 1;
    std::vector<uint32_t> words;
    unsigned j = 0;
    ((words.resize(words.size() + H), [&] {
       uint32_t x = Roots::one[j];
       for (unsigned e = 0; e < H; ++e) {
         words[j * H + e] = x;
         const uint32_t in[2] = {x, Roots::root[j]};
         Primes::pointwise::host(&x, in);
       }
       ++j;
     }()),
     ...);
    return words;
  }();
  return table.data();
}

// Convolution over all threads' words: low and high thread-major (A words a thread).
template <bool Square, class Columns, class... Primes>
inline void convolution(unsigned T, unsigned Q, unsigned A, unsigned N, const uint32_t* a, const uint32_t* b,
                        uint32_t* low, uint32_t* high, const uint32_t* twiddles) {
  constexpr unsigned K = sizeof...(Primes);
  std::vector<uint32_t> found(K * N), x(K * Q);
  unsigned index = 0;
  ((residues<Square, Primes>(T * Q, N, a, b, found.data() + N * index, twiddles + (N / 2 + 1) * index), ++index),
   ...);
  for (unsigned t = 0; t < T; ++t)
    for (unsigned half = 0; half < 2; ++half) {
      for (unsigned j = 0; j < K; ++j)
        for (unsigned k = 0; k < Q; ++k) x[j * Q + k] = found[j * N + (half * T + t) * Q + k];
      Columns::host((half ? high : low) + t * A, x.data());
    }
}

inline void mirror(unsigned T, unsigned W, const uint32_t* v, uint32_t* out) {
  for (unsigned t = 0; t < T; ++t)
    for (unsigned w = 0; w < W; ++w) out[t * W + w] = v[(T - 1 - t) * W + w];
}

inline void handoff(unsigned T, unsigned W, const uint32_t* low, const uint32_t* high, uint32_t* low_in,
                    uint32_t* high_in) {
  for (unsigned t = 0; t < T; ++t)
    for (unsigned w = 0; w < W; ++w) {
      low_in[t * W + w] = t ? low[(t - 1) * W + w] : 0;
      high_in[t * W + w] = t ? high[(t - 1) * W + w] : low[(T - 1) * W + w];
    }
}

inline void neighbours(unsigned T, unsigned W, const uint32_t* v, int offset, uint32_t* out) {
  for (int t = 0; t < int(T); ++t)
    for (int k = 0; k < 2; ++k) {
      const int from = t + offset + k;
      for (unsigned w = 0; w < W; ++w)
        out[(2 * t + k) * W + w] = from >= 0 && from < int(T) ? v[from * W + w] : 0;
    }
}

// ShiftUp over the whole vector (L limbs, threads in order) by K limbs: out may be v.
inline void shift_up(unsigned L, unsigned K, const uint32_t* v, const uint32_t* incoming, uint32_t* out) {
  for (unsigned i = L; i-- > K;) out[i] = v[i - K];
  for (unsigned i = 0; i < K; ++i) out[i] = incoming ? incoming[i] : 0u;
}

// ShiftDown over the whole vector by K limbs: out may be v.
inline void shift_down(unsigned L, unsigned K, const uint32_t* v, uint32_t* out) {
  for (unsigned i = 0; i + K < L; ++i) out[i] = v[i + K];
  for (unsigned i = L - K; i < L; ++i) out[i] = 0;
}

inline bool every(unsigned T, const uint32_t* bit) {
  uint32_t set = 1;
  for (unsigned i = 0; i < T; ++i) set &= bit[i];
  return set & 1;
}

inline void all(unsigned T, const uint32_t* bit, uint32_t* out) {
  const uint32_t set = every(T, bit);
  for (unsigned i = 0; i < T; ++i) out[i] = set;
}
}  // namespace on_host
#endif  // __CUDACC_RTC__

}  // namespace group
}  // namespace mpgen

// mpgen-rho: Pollard's rho for the discrete logarithm k (k P = Q) on an elliptic curve over
// one of the prime fields built in (rho_fields.h, written by CMake): the Certicom ECCp
// challenges with their published curves, and the test curves of test_curves.txt.
//
// Many walks run side by side (rho.cuh), on the GPU or on the host's threads; each walk
// reports the points whose x is distinguished, with its number and its step count. Two
// reports of one x solve the problem: the host replays both walks from their starts,
// tracking each point's coefficients (a P + b Q), and solves a1 + b1 k = +-(a2 + b2 k)
// mod n. The walks carry no coefficients, so a step is the point addition alone.
//
// Starts: walk g starts at U_(g mod G) + V_(g div G), where U_i = (alpha + i gamma) P and
// V_j = (beta + j delta) Q for random alpha, beta, gamma, delta of the run's seed: one
// addition per walk instead of a scalar multiplication. The table comes from a fixed seed,
// so every run walks the same function.
#include <gmp.h>

#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "rho_fields.h"
#include "rho.cuh"

namespace {

using clock_type = std::chrono::steady_clock;

// An mpz_t that frees itself.
struct integer {
  mpz_t v;
  integer() { mpz_init(v); }
  integer(const integer&) = delete;
  integer& operator=(const integer&) = delete;
  ~integer() { mpz_clear(v); }
  std::string hex() const {
    char* text = mpz_get_str(nullptr, 16, v);
    std::string s = std::string("0x") + text;
    void (*release)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &release);
    release(text, std::strlen(text) + 1);
    return s;
  }
};

struct curve_text {
  std::string a, b, px, py, qx, qy, order;
};

struct options {
  std::string device = "cpu";
  unsigned threads = 0, batch = 32, block_threads = 256, blocks_per_sm = 2;  // the fastest on the H100 (docs/performance.md)
  unsigned long seed = 1;
  int dp_bits = -1;
  double seconds = 0;
};

// Affine points with infinity (nullopt): the host's complete arithmetic for the setup and
// the final check; the walks never meet infinity or doublings (rho::entry).
template <class F>
using affine = std::optional<rho::point<F>>;

template <class F>
affine<F> add(const affine<F>& s, const affine<F>& t, const F& a) {
  if (!s) return t;
  if (!t) return s;
  F slope;
  if (s->x == t->x) {
    if (s->y != t->y || s->y.is_zero()) return std::nullopt;
    const F x2 = s->x.sqr();
    slope = (x2 + x2 + x2 + a) * (s->y + s->y).inv();
  } else {
    slope = (t->y - s->y) * (t->x - s->x).inv();
  }
  rho::point<F> r;
  r.x = slope.sqr() - s->x - t->x;
  r.y = slope * (s->x - r.x) - s->y;
  return r;
}

template <class F>
affine<F> times(const integer& k, const affine<F>& s, const F& a) {
  affine<F> r;
  for (long i = long(mpz_sizeinbase(k.v, 2)); i-- > 0;) {
    r = add(r, r, a);
    if (mpz_tstbit(k.v, i)) r = add(r, s, a);
  }
  return r;
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "mpgen-rho: %s\n", message.c_str());
  std::exit(2);
}

// The problem and the walk's fixed parts: the curve, the table, the starts.
template <class F>
struct search {
  static constexpr unsigned starts_per_row = 1024;  // G
  F a;
  rho::point<F> p, q;
  integer n;
  rho::table<F> table;
  std::array<integer, rho::table_size> c, d;  // M_j = c_j P + d_j Q
  integer alpha, beta, gamma, delta;
  std::vector<rho::point<F>> u, v;
  std::size_t walk_count;
  unsigned dp_bits;

  search(const curve_text& text, std::size_t walks, unsigned long seed, int dp_bits_asked) : walk_count(walks) {
    const auto element = [](const std::string& hex, const char* what) {
      try {
        return F::from_hex(hex);
      } catch (const std::exception& e) {
        fail(std::string(what) + ": " + e.what());
      }
    };
    a = element(text.a, "a");
    const F b = element(text.b, "b");
    p = {element(text.px, "P's x"), element(text.py, "P's y")};
    q = {element(text.qx, "Q's x"), element(text.qy, "Q's y")};
    try {  // P's order: within the Hasse bound of p + 1, so one word wider than p at most
      uint32_t words[F::limbs + 1];
      mpgen::hex::parse(text.order, words, F::limbs + 1, 32 * (F::limbs + 1));
      mpz_import(n.v, F::limbs + 1, -1, 4, 0, 0, words);
    } catch (const std::exception& e) {
      fail(std::string("n: ") + e.what());
    }
    for (const auto& [s, name] : {std::pair{p, "P"}, std::pair{q, "Q"}})
      if (s.y.sqr() != s.x.sqr() * s.x + a * s.x + b) fail(std::string(name) + " is not on y^2 = x^3 + a x + b");
    if (mpz_probab_prime_p(n.v, 30) == 0) fail("the order " + n.hex() + " is not prime");
    if (times<F>(n, p, a)) fail("n P is not infinity: n is not P's order");

    gmp_randstate_t random;
    gmp_randinit_default(random);
    gmp_randseed_ui(random, 20261123);  // the table's seed: the same walk in every run
    for (unsigned j = 0; j < rho::table_size; ++j) {
      for (bool fresh = false; !fresh;) {
        mpz_urandomm(c[j].v, random, n.v);
        mpz_urandomm(d[j].v, random, n.v);
        const affine<F> m = add(times<F>(c[j], p, a), times<F>(d[j], q, a), a);
        fresh = bool(m);
        for (unsigned i = 0; fresh && i < j; ++i) fresh = table.x[i] != m->x;
        if (fresh) table.x[j] = m->x, table.y[j] = m->y;
      }
    }
    gmp_randseed_ui(random, seed);
    for (integer* e : {&alpha, &beta, &gamma, &delta}) mpz_urandomm(e->v, random, n.v);
    gmp_randclear(random);
    u = row(alpha, gamma, p, starts_per_row);
    v = row(beta, delta, q, (walks + starts_per_row - 1) / starts_per_row);

    // Distinguished points: the walks' expected length up to a collision is
    // sqrt(pi n / 2) / walks; one in 2^dp_bits points, an eighth of that, makes the
    // work after the collision (about 2^dp_bits steps per walk) an eighth of the whole.
    const double expected = expected_iterations();
    const int automatic = int(std::floor(std::log2(std::max(1.0, expected / double(walks) / 8))));
    dp_bits = unsigned(std::min(32 - int(rho::table_bits), dp_bits_asked >= 0 ? dp_bits_asked : automatic));
  }

  double expected_iterations() const { return std::sqrt(M_PI * mpz_get_d(n.v) / 2); }
  uint32_t dp_mask() const { return dp_bits == 32 ? ~0u : (1u << dp_bits) - 1; }

  // (first + i step) S for i below count.
  std::vector<rho::point<F>> row(const integer& first, const integer& step, const rho::point<F>& s, std::size_t count) {
    std::vector<rho::point<F>> points;
    const affine<F> increment = times<F>(step, s, a);
    for (affine<F> at = times<F>(first, s, a); points.size() < count; at = add(at, increment, a)) {
      if (!at) fail("a start is infinity; try another --seed");
      points.push_back(*at);
    }
    return points;
  }

  rho::point<F> start(std::size_t g) const { return rho::add_distinct(u[g % starts_per_row], v[g / starts_per_row]); }

  // Walk g after `steps` steps, and its coefficients: the point is A P + B Q.
  rho::point<F> replay(std::size_t g, uint64_t steps, integer& A, integer& B) const {
    mpz_set(A.v, gamma.v);
    mpz_mul_ui(A.v, A.v, g % starts_per_row);
    mpz_add(A.v, A.v, alpha.v);
    mpz_set(B.v, delta.v);
    mpz_mul_ui(B.v, B.v, g / starts_per_row);
    mpz_add(B.v, B.v, beta.v);
    rho::point<F> s = start(g);
    for (uint64_t i = 0; i < steps; ++i) {
      unsigned j;
      s = rho::step_one(s, table, &j);
      mpz_add(A.v, A.v, c[j].v);
      mpz_add(B.v, B.v, d[j].v);
    }
    mpz_mod(A.v, A.v, n.v);
    mpz_mod(B.v, B.v, n.v);
    return s;
  }
};

// A distinguished point as the walkers report it: walk, step (two words), x's words.
template <class F>
constexpr unsigned record_words = 3 + F::limbs;

template <class F>
MPGEN_HOST_DEVICE void write_record(uint32_t* at, std::size_t g, uint64_t step, const F& x) {
  at[0] = uint32_t(g);
  at[1] = uint32_t(step);
  at[2] = uint32_t(step >> 32);
  for (unsigned i = 0; i < F::limbs; ++i) at[3 + i] = x.w[i];
}

// Walks on the host's threads: thread t steps walks t, t + threads, ...
template <unsigned B, class F>
struct cpu_walker {
  const search<F>& s;
  unsigned threads;
  std::vector<uint32_t> words;
  rho::walks<F> w;

  cpu_walker(const search<F>& s, unsigned threads)
      : s(s), threads(threads), words(2 * F::limbs * s.walk_count), w{words.data(), s.walk_count} {
    for (std::size_t g = 0; g < s.walk_count; ++g) w.store(g, s.start(g));
  }
  std::string name() const { return "cpu (" + std::to_string(threads) + " threads)"; }

  // `iterations` steps of every walk: start() takes the round, finish() runs it and
  // returns the distinguished points' records, and how many were lost (none here).
  unsigned iterations = 0;
  uint64_t first_step = 0;
  void start(unsigned round_iterations, uint64_t round_first_step) {
    iterations = round_iterations;
    first_step = round_first_step;
  }
  unsigned finish(std::vector<uint32_t>& records) {
    std::vector<std::vector<uint32_t>> found(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        rho::local_prefix<B, F> prefix;
        for (unsigned i = 0; i < iterations; ++i)
          rho::step_batch<B>(w, t, threads, s.table, s.dp_mask(), prefix, [&](std::size_t g, const F& x) {
            found[t].resize(found[t].size() + record_words<F>);
            write_record(found[t].data() + found[t].size() - record_words<F>, g, first_step + i + 1, x);
          });
      });
    for (auto& t : pool) t.join();
    for (const auto& f : found) records.insert(records.end(), f.begin(), f.end());
    return 0;
  }
};

#ifdef __CUDACC__
void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class F>
__global__ void start_walks(rho::walks<F> w, const rho::point<F>* u, const rho::point<F>* v, unsigned per_row) {
  const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g < w.count) w.store(g, rho::add_distinct(u[g % per_row], v[g / per_row]));
}

// Batches of 16 keep their prefix products in registers, larger ones in the block's
// dynamic shared memory (B * limbs words a thread).
template <unsigned B, class F>
constexpr bool prefix_in_shared = B > 16;

template <unsigned B, class F>
__global__ void __launch_bounds__(256) walk(rho::walks<F> w, const rho::table<F>* global_table, unsigned iterations,
                                            uint64_t first_step, uint32_t dp_mask, uint32_t* records,
                                            unsigned* count, unsigned capacity) {
  __shared__ rho::table<F> table;
  for (unsigned i = threadIdx.x; i < sizeof table / 4; i += blockDim.x)
    reinterpret_cast<uint32_t*>(&table)[i] = reinterpret_cast<const uint32_t*>(global_table)[i];
  __syncthreads();
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const auto report = [&](std::size_t g, const F& x, uint64_t step) {
    const unsigned at = atomicAdd(count, 1u);
    if (at < capacity) write_record(records + std::size_t(at) * record_words<F>, g, step, x);
  };
  if constexpr (prefix_in_shared<B, F>) {
    extern __shared__ uint32_t prefix_words[];
    rho::shared_prefix<F> prefix{prefix_words, threadIdx.x, blockDim.x};
    for (unsigned i = 0; i < iterations; ++i)
      rho::step_batch<B>(w, first, stride, table, dp_mask, prefix,
                         [&](std::size_t g, const F& x) { report(g, x, first_step + i + 1); });
  } else {
    rho::local_prefix<B, F> prefix;
    for (unsigned i = 0; i < iterations; ++i)
      rho::step_batch<B>(w, first, stride, table, dp_mask, prefix,
                         [&](std::size_t g, const F& x) { report(g, x, first_step + i + 1); });
  }
}

// Walks on the GPU: thread t of the grid steps walks t, t + grid threads, ...
template <unsigned B, class F>
struct gpu_walker {
  const search<F>& s;
  unsigned blocks, block_threads, capacity = 0;
  uint32_t *words = nullptr, *records = nullptr;
  unsigned* count = nullptr;
  rho::table<F>* table = nullptr;
  std::string device;

  gpu_walker(const search<F>& s, unsigned blocks, unsigned block_threads, const std::string& device)
      : s(s), blocks(blocks), block_threads(block_threads), device(device) {
    cuda_check(cudaMalloc(&words, 2 * F::limbs * s.walk_count * 4), "cudaMalloc (walks)");
    cuda_check(cudaMalloc(&table, sizeof *table), "cudaMalloc");
    cuda_check(cudaMalloc(&count, 4), "cudaMalloc");
    cuda_check(cudaMemcpy(table, &s.table, sizeof *table, cudaMemcpyHostToDevice), "cudaMemcpy");
    rho::point<F>*u, *v;
    cuda_check(cudaMalloc(&u, s.u.size() * sizeof *u), "cudaMalloc");
    cuda_check(cudaMalloc(&v, s.v.size() * sizeof *v), "cudaMalloc");
    cudaMemcpy(u, s.u.data(), s.u.size() * sizeof *u, cudaMemcpyHostToDevice);
    cudaMemcpy(v, s.v.data(), s.v.size() * sizeof *v, cudaMemcpyHostToDevice);
    start_walks<F><<<unsigned((s.walk_count + 255) / 256), 256>>>(rho::walks<F>{words, s.walk_count}, u, v,
                                                                   search<F>::starts_per_row);
    cuda_check(cudaDeviceSynchronize(), "start_walks");
    cudaFree(u);
    cudaFree(v);
    if (prefix_in_shared<B, F>)
      cuda_check(cudaFuncSetAttribute(walk<B, F>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes())),
                 "--batch and --block-threads: the prefix products do not fit shared memory");
  }
  std::size_t shared_bytes() const { return prefix_in_shared<B, F> ? std::size_t(B) * F::limbs * 4 * block_threads : 0; }
  ~gpu_walker() {
    cudaFree(words);
    cudaFree(records);
    cudaFree(count);
    cudaFree(table);
  }
  std::string name() const { return "gpu (" + device + ")"; }

  // A round of `iterations` steps of every walk: start() launches it and returns, so that
  // the host looks for collisions in the last round's reports meanwhile; finish() waits.
  void start(unsigned iterations, uint64_t first_step) {
    // Room for twice the expected reports and more; any beyond are lost, which delays the
    // solution but cannot make it wrong.
    const double expected = double(s.walk_count) * iterations / std::ldexp(1.0, int(s.dp_bits));
    const unsigned wanted = unsigned(std::min(2 * expected + 4096, 1e8));
    if (wanted > capacity) {
      cudaFree(records);
      capacity = wanted;
      cuda_check(cudaMalloc(&records, std::size_t(capacity) * record_words<F> * 4), "cudaMalloc (records)");
    }
    cudaMemset(count, 0, 4);
    walk<B, F><<<blocks, block_threads, shared_bytes()>>>(rho::walks<F>{words, s.walk_count}, table, iterations, first_step,
                                          s.dp_mask(), records, count, capacity);
  }
  unsigned finish(std::vector<uint32_t>& found) {
    cuda_check(cudaDeviceSynchronize(), "walk");
    unsigned reported = 0;
    cudaMemcpy(&reported, count, 4, cudaMemcpyDeviceToHost);
    const unsigned kept = std::min(reported, capacity);
    const std::size_t at = found.size();
    found.resize(at + std::size_t(kept) * record_words<F>);
    cuda_check(cudaMemcpy(found.data() + at, records, std::size_t(kept) * record_words<F> * 4,
                          cudaMemcpyDeviceToHost), "cudaMemcpy (records)");
    return reported - kept;
  }
};
#endif

template <class F>
struct key_hash {
  std::size_t operator()(const std::array<uint32_t, F::limbs>& x) const {
    uint64_t h = 0;
    for (uint32_t word : x) h = (h ^ word) * 0x9e3779b97f4a7c15ull;
    return std::size_t(h ^ h >> 29);
  }
};

// Runs the walks until two reports share an x and solve for k (true), or the time is up.
template <class F, class Walker>
bool solve(const search<F>& s, Walker& walker, double seconds) {
  struct report {
    uint32_t walk;
    uint64_t step;
  };
  std::unordered_map<std::array<uint32_t, F::limbs>, report, key_hash<F>> seen;
  const auto begun = clock_type::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock_type::now() - begun).count(); };
  uint64_t done = 0;  // steps of every walk
  unsigned iterations = 16;
  double last_report = 0;
  unsigned long long lost = 0, points = 0;
  std::vector<uint32_t> records;
  const double expected = s.expected_iterations();
  const double per_walk_cap = std::max(16.0, expected / double(s.walk_count) / 64);
  walker.start(iterations, done);
  double round_began = 0;
  for (bool more = true; more;) {
    records.clear();
    lost += walker.finish(records);
    const double took = elapsed() - round_began;
    done += iterations;
    // Rounds of about half a second, but no longer than a 64th of the expected steps per
    // walk: a collision is seen at the end of its round.
    if (took < 0.5 && iterations < per_walk_cap) iterations *= 2;
    more = seconds <= 0 || elapsed() < seconds;
    if (more) {
      walker.start(iterations, done);
      round_began = elapsed();
    }
    const double all = double(done) * double(s.walk_count);
    if (elapsed() - last_report >= 10) {
      last_report = elapsed();
      std::printf("  %.3g iterations (%.3f of expected) in %.1f s: %.4g iterations/s, %llu distinguished points\n",
                  all, all / expected, elapsed(), all / elapsed(), points);
      std::fflush(stdout);
    }
    for (std::size_t r = 0; r < records.size(); r += record_words<F>) {
      ++points;
      const uint32_t* at = records.data() + r;
      std::array<uint32_t, F::limbs> x;
      std::copy(at + 3, at + 3 + F::limbs, x.begin());
      const report now{at[0], uint64_t(at[2]) << 32 | at[1]};
      const auto [found, inserted] = seen.emplace(x, now);
      if (inserted) continue;
      const report then = found->second;
      integer a1, b1, a2, b2, numerator, denominator, k;
      const rho::point<F> one = s.replay(then.walk, then.step, a1, b1);
      const rho::point<F> two = s.replay(now.walk, now.step, a2, b2);
      if (one.x != two.x) fail("a replayed walk missed its distinguished point");
      // a1 + b1 k = a2 + b2 k, or = -(a2 + b2 k) where the points are opposite.
      if (one.y == two.y) {
        mpz_sub(numerator.v, a1.v, a2.v);
        mpz_sub(denominator.v, b2.v, b1.v);
      } else {
        mpz_add(numerator.v, a1.v, a2.v);
        mpz_neg(numerator.v, numerator.v);
        mpz_add(denominator.v, b1.v, b2.v);
      }
      if (!mpz_invert(denominator.v, denominator.v, s.n.v)) {
        std::printf("  a collision without information (walks %u and %u); going on\n", then.walk, now.walk);
        continue;
      }
      mpz_mul(k.v, numerator.v, denominator.v);
      mpz_mod(k.v, k.v, s.n.v);
      const affine<F> check = times<F>(k, s.p, s.a);
      const bool right = check && check->x == s.q.x && check->y == s.q.y;
      const double t = elapsed();
      std::printf("solved: k = %s\n", k.hex().c_str());
      std::printf("check: k P == Q: %s\n", right ? "yes" : "NO");
      // Every walk had made now.step steps when the second report was made.
      const double needed = double(now.step) * double(s.walk_count);
      std::printf("after %.4g iterations (%.3f of the expected %.4g; %.4g run) in %.2f s: %.4g iterations/s, "
                  "%llu distinguished points (%llu lost)\n",
                  needed, needed / expected, expected, all, t, all / t, points, lost);
      if (!right) std::exit(1);
      return true;
    }
  }
  const double all = double(done) * double(s.walk_count), t = elapsed();
  std::printf("stopped after %.2f s: %.4g iterations (%.3f of the expected %.4g), %.4g iterations/s, "
              "%llu distinguished points; expected time to solve %.4g s\n",
              t, all, all / expected, expected, all / t, points, expected / (all / t));
  return false;
}

template <unsigned B, class F>
int run_batch(const options& o, const curve_text& curve, const char* field) {
  std::size_t walks = 0;
  unsigned blocks = 0;
  std::string device;
  if (o.device == "gpu") {
#ifdef __CUDACC__
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) fail("--device gpu: no GPU found");
    device = prop.name;
    blocks = prop.multiProcessorCount * o.blocks_per_sm;
    walks = std::size_t(blocks) * o.block_threads * B;
#else
    fail("--device gpu: this mpgen-rho was built without CUDA");
#endif
  } else {
    walks = std::size_t(o.threads) * B;
  }
  const search<F> s(curve, walks, o.seed, o.dp_bits);
  std::printf("mpgen-rho: %s, n = %s (%zu bits), %zu walks of %u, r = %u table points, distinguished: 1 in 2^%u\n",
              field, s.n.hex().c_str(), mpz_sizeinbase(s.n.v, 2), walks, B, rho::table_size, s.dp_bits);
  std::printf("expected iterations sqrt(pi n / 2) = %.4g\n", s.expected_iterations());
  std::fflush(stdout);
  if (o.device == "gpu") {
#ifdef __CUDACC__
    gpu_walker<B, F> walker(s, blocks, o.block_threads, device);
    std::printf("device: %s\n", walker.name().c_str());
    return solve(s, walker, o.seconds) ? 0 : 3;
#endif
  }
  cpu_walker<B, F> walker(s, o.threads);
  std::printf("device: %s\n", walker.name().c_str());
  return solve(s, walker, o.seconds) ? 0 : 3;
}

template <class F>
int run(const options& o, const curve_text& curve, const char* field) {
  switch (o.batch) {
    case 16: return run_batch<16, F>(o, curve, field);
    case 32: return run_batch<32, F>(o, curve, field);
    case 64: return run_batch<64, F>(o, curve, field);
    default: return run_batch<128, F>(o, curve, field);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Pollard's rho for k with k P = Q on an elliptic curve over a built-in field: "
               "the Certicom ECCp challenges, or any curve over the test fields (--curve)."};
  options o;
  std::string field, curve_list;
  std::vector<std::string> fields;
#define MPGEN_RHO_NAME(name) fields.push_back(#name);
  MPGEN_RHO_PRESETS(MPGEN_RHO_NAME)
  MPGEN_RHO_FIELDS(MPGEN_RHO_NAME)
#undef MPGEN_RHO_NAME
  app.add_option("--field", field, "the field (a preset brings its challenge curve)")
      ->required()
      ->check(CLI::IsMember(fields));
  app.add_option("--curve", curve_list, "a,b,px,py,qx,qy,n in hex: the curve over --field, P, Q and P's prime order");
  app.add_option("--device", o.device, "cpu or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--threads", o.threads, "host threads (cpu; default: all)");
  app.add_option("--batch", o.batch, "walks per thread, sharing one inversion")->check(CLI::IsMember({16, 32, 64, 128}));
  app.add_option("--block-threads", o.block_threads, "threads per block (gpu)")->check(CLI::IsMember({64, 128, 256}));
  app.add_option("--blocks-per-sm", o.blocks_per_sm, "blocks per multiprocessor (gpu)")->check(CLI::Range(1, 64));
  app.add_option("--seed", o.seed, "the walks' starts");
  app.add_option("--dp-bits", o.dp_bits, "one point in 2^N is distinguished (default: from n and the walks)")
      ->check(CLI::Range(0, 25));
  app.add_option("--seconds", o.seconds, "stop after this long and print the rate (default: until solved)");
  CLI11_PARSE(app, argc, argv);
  if (o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());

  curve_text curve;
  if (!curve_list.empty()) {
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
      const std::size_t comma = curve_list.find(',', at);
      parts.push_back(curve_list.substr(at, comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (parts.size() != 7) fail("--curve: give a,b,px,py,qx,qy,n (7 hex numbers), not " + std::to_string(parts.size()));
    curve = {parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]};
  }
#define MPGEN_RHO_PRESET(name)                                                                             \
  if (field == #name) {                                                                                    \
    using c = mpgen::name::curve;                                                                          \
    if (curve_list.empty()) curve = {c::a, c::b, c::x, c::y, c::qx, c::qy, c::order};                      \
    return run<mpgen::name::element>(o, curve, #name);                                                     \
  }
#define MPGEN_RHO_FIELD(name)                                                                              \
  if (field == #name) {                                                                                    \
    if (curve_list.empty()) fail("--field " #name ": give the curve with --curve");                         \
    return run<mpgen::name::element>(o, curve, #name);                                                     \
  }
  MPGEN_RHO_PRESETS(MPGEN_RHO_PRESET)
  MPGEN_RHO_FIELDS(MPGEN_RHO_FIELD)
  return 2;
}

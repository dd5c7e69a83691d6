// The fields' element types (mpgen::<field>::element) against GMP, as ELEMENT_CASE(field)
// or PRIME_ELEMENT_CASE(field) (with inv and sqrt); on the GPU too where built with CUDA.
// Include it after the generated headers and modular.hpp.
#pragma once

namespace {

// What the element test computes of a and b, on the host and on the GPU:
// ((a + b)(a - b))^2 - (-a) b^65537, and a * b == b * a.
template <class E>
MPGEN_HOST_DEVICE E expression(const E& a, const E& b) {
  E r = ((a + b) * (a - b)).sqr();
  r -= -a * b.pow(65537u);
  return r;
}

void expression_by_gmp(mpz_t r, const mpz_t a, const mpz_t b, const mpz_t p) {
  Mpz t, u;
  mpz_add(t.v, a, b);
  mpz_sub(u.v, a, b);
  mpz_mul(r, t.v, u.v);
  mpz_mul(r, r, r);
  mpz_powm_ui(t.v, b, 65537, p);
  mpz_mul(t.v, t.v, a);
  mpz_add(r, r, t.v);
  mpz_mod(r, r, p);
}

#ifdef __CUDACC__
template <class E>
__global__ void expression_kernel(std::size_t n, const E* a, const E* b, E* r) {
  const std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (j < n) r[j] = expression(a[j], b[j]);
}

template <class E>
std::vector<E> expression_on_gpu(const std::vector<E>& a, const std::vector<E>& b) {
  const std::size_t n = a.size(), bytes = n * sizeof(E);
  std::vector<E> r(n);
  E *d_a, *d_b, *d_r;
  REQUIRE(cudaMalloc(&d_a, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_b, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_r, bytes) == cudaSuccess);
  cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice);
  expression_kernel<E><<<unsigned((n + 127) / 128), 128>>>(n, d_a, d_b, d_r);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaMemcpy(r.data(), d_r, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_r);
  return r;
}
#endif

// Every operator and conversion of E against GMP over edge values and random ones; with
// prime, inv and sqrt too.
template <class E, bool prime>
void check_element(const char* name) {
  constexpr unsigned N = E::limbs;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, std::getenv("MPGEN_TEST_SEED") ? std::atol(std::getenv("MPGEN_TEST_SEED")) : 1);
  Mpz p, a, b, want, got, t;
  uint32_t words[N];
  E::D::modulus(words);
  from_words(p.v, words, N);
  std::vector<std::string> values = {"0", "1", "2"};
  for (int k = 1; k <= 2; ++k) {  // p - 1, p - 2
    mpz_sub_ui(t.v, p.v, k);
    values.push_back(mpz_get_str(nullptr, 16, t.v));
  }
  for (int k = 0; k < 40; ++k) values.push_back(random_below(p.v, rng));
  const auto element = [&](const std::string& hex) {
    mpz_set_str(t.v, hex.c_str(), 16);
    return E::from_mpz(t.v);
  };
  const auto agrees = [&](const E& e, const mpz_t value, const char* what, const std::string& x,
                          const std::string& y) {
    e.to_mpz(got.v);
    CHECK_MESSAGE(mpz_cmp(got.v, value) == 0, name << " " << what << " of " << x << ", " << y);
  };
  const std::string p_hex = mpz_get_str(nullptr, 16, p.v);
  CHECK_THROWS_AS(E::from_hex(p_hex), std::out_of_range);
  CHECK_THROWS_AS(E::from_hex("12x4"), std::invalid_argument);
  std::vector<E> gpu_a, gpu_b;
  std::vector<std::string> gpu_pairs_a, gpu_pairs_b;
  for (const auto& x : values) {
    const E ex = element(x);
    mpz_set_str(a.v, x.c_str(), 16);
    // conversions: words and GMP, and integers outside [0, p) taken mod p
    to_words(words, a.v, N);
    CHECK(E::from_words(words) == ex);
    ex.to_words(words);
    from_words(got.v, words, N);
    CHECK(mpz_cmp(got.v, a.v) == 0);
    mpz_sub(t.v, a.v, p.v);
    mpz_sub(t.v, t.v, p.v);
    CHECK(E::from_mpz(t.v) == ex);
    CHECK(ex.is_zero() == (mpz_sgn(a.v) == 0));
    CHECK(E::from_hex("0x" + x) == ex);
    CHECK(ex.to_hex() == x);
    mpz_neg(want.v, a.v);
    mpz_mod(want.v, want.v, p.v);
    agrees(-ex, want.v, "-", x, "");
    mpz_mul(want.v, a.v, a.v);
    mpz_mod(want.v, want.v, p.v);
    agrees(ex.sqr(), want.v, "sqr", x, "");
    const uint32_t e32 = uint32_t(gmp_urandomb_ui(rng, 32));
    mpz_powm_ui(want.v, a.v, e32, p.v);
    agrees(ex.pow(e32), want.v, "pow", x, std::to_string(e32));
    if constexpr (prime) {
      const E inverse = ex.inv();
      if (mpz_sgn(a.v) == 0) {
        CHECK(inverse.is_zero());
      } else {
        mpz_invert(want.v, a.v, p.v);
        agrees(inverse, want.v, "inv", x, "");
      }
      bool is_square = false;
      const E root = ex.sqrt(&is_square);
      CHECK_MESSAGE(is_square == (mpz_legendre(a.v, p.v) >= 0), name << " sqrt's flag of " << x);
      CHECK(is_square ? root.sqr() == ex : root.is_zero());
    }
    for (const auto& y : {values[0], values[1], values[3], values[values.size() - 1 - gpu_a.size() % 30]}) {
      const E ey = element(y);
      mpz_set_str(b.v, y.c_str(), 16);
      mpz_add(want.v, a.v, b.v);
      mpz_mod(want.v, want.v, p.v);
      agrees(ex + ey, want.v, "+", x, y);
      E sum = ex;
      sum += ey;
      CHECK(sum == ex + ey);
      mpz_sub(want.v, a.v, b.v);
      mpz_mod(want.v, want.v, p.v);
      agrees(ex - ey, want.v, "-", x, y);
      mpz_mul(want.v, a.v, b.v);
      mpz_mod(want.v, want.v, p.v);
      agrees(ex * ey, want.v, "*", x, y);
      CHECK((ex == ey) == (mpz_cmp(a.v, b.v) == 0));
      CHECK((ex != ey) == (mpz_cmp(a.v, b.v) != 0));
      expression_by_gmp(want.v, a.v, b.v, p.v);
      agrees(expression(ex, ey), want.v, "the expression", x, y);
      gpu_a.push_back(ex);
      gpu_b.push_back(ey);
      gpu_pairs_a.push_back(x);
      gpu_pairs_b.push_back(y);
    }
  }
#ifdef __CUDACC__
  if (gpu_present()) {
    const std::vector<E> r = expression_on_gpu(gpu_a, gpu_b);
    for (std::size_t j = 0; j < r.size(); ++j) {
      mpz_set_str(a.v, gpu_pairs_a[j].c_str(), 16);
      mpz_set_str(b.v, gpu_pairs_b[j].c_str(), 16);
      expression_by_gmp(want.v, a.v, b.v, p.v);
      agrees(r[j], want.v, "the expression on the GPU", gpu_pairs_a[j], gpu_pairs_b[j]);
    }
  }
#endif
  gmp_randclear(rng);
}

#define ELEMENT_CASE(F) \
  TEST_CASE("the element type of " #F " agrees with GMP") { check_element<mpgen::F::element, false>(#F); }
#define PRIME_ELEMENT_CASE(F) \
  TEST_CASE("the element type of " #F " agrees with GMP") { check_element<mpgen::F::element, true>(#F); }

}  // namespace

// Field elements as values: a field's element type (`mpgen::<field>::element`) is
// field_element<its element_ops>, holding its words in registers in the form its loop
// domain multiplies in (Montgomery form, or ordinary form where the modulus has a faster
// reduction), with operators over the field's generated operations: on the host through
// their 64-bit lists where they have them (its domain is loop_domain_at<true>: words of 32
// bits, as on the device, paired into limbs on each call), as the runtime's CPU path.
// Copied verbatim into every generated header, inside its version guard.
namespace mpgen {

// Ops: the generated operations it uses: domain (the field's loop_domain_at<true>), add, sub, neg.
template <class Ops>
struct field_element {
  using D = typename Ops::domain;
  static constexpr unsigned limbs = D::limbs;
  uint32_t w[limbs];  // below p, in D's form: 0 and equality are the same in either form

  MPGEN_HOST_DEVICE static field_element zero() {
    field_element r;
    MPGEN_UNROLL for (unsigned k = 0; k < limbs; ++k) r.w[k] = 0;
    return r;
  }
  MPGEN_HOST_DEVICE static field_element one() {
    field_element r;
    D::one(r.w);
    return r;
  }
  // From and to ordinary form: limbs words, least significant first, below p.
  MPGEN_HOST_DEVICE static field_element from_words(const uint32_t* ordinary) {
    field_element r;
    D::enter(r.w, ordinary);
    return r;
  }
  MPGEN_HOST_DEVICE void to_words(uint32_t* ordinary) const { D::leave(ordinary, w); }
#ifndef __CUDACC_RTC__
  // From and to hex text, on the host (ordinary form); from_hex throws
  // std::invalid_argument where the text is not hex, std::out_of_range where it is not below p.
  static field_element from_hex(std::string_view text) {
    uint32_t words[limbs], p[limbs];
    hex::parse(text, words, limbs, 32 * limbs);
    D::modulus(p);
    bool below = false;
    for (unsigned k = limbs; k-- > 0;)  // from the top word: the first that differs decides
      if (words[k] != p[k]) {
        below = words[k] < p[k];
        break;
      }
    if (!below) throw std::out_of_range("'" + std::string(text.substr(0, 40)) + "' is not below the modulus");
    return from_words(words);
  }
  std::string to_hex() const {
    uint32_t words[limbs];
    to_words(words);
    return hex::print(words, limbs);
  }
#endif
#if !defined(__CUDACC_RTC__) && defined(__GNU_MP__)
  // From and to GMP's integers, on the host, where gmp.h is included first: any integer,
  // taken mod p.
  static field_element from_mpz(const mpz_t value) {
    uint32_t words[limbs] = {};
    mpz_t p, reduced;
    mpz_inits(p, reduced, nullptr);
    D::modulus(words);
    mpz_import(p, limbs, -1, sizeof(uint32_t), 0, 0, words);
    mpz_mod(reduced, value, p);
    MPGEN_UNROLL for (unsigned k = 0; k < limbs; ++k) words[k] = 0;
    mpz_export(words, nullptr, -1, sizeof(uint32_t), 0, 0, reduced);
    mpz_clears(p, reduced, nullptr);
    return from_words(words);
  }
  void to_mpz(mpz_t value) const {
    uint32_t words[limbs];
    to_words(words);
    mpz_import(value, limbs, -1, sizeof(uint32_t), 0, 0, words);
  }
#endif

  MPGEN_HOST_DEVICE friend field_element operator+(const field_element& a, const field_element& b) {
    field_element r;
    loops::apply2<typename Ops::add, true>(r.w, a.w, b.w);
    return r;
  }
  MPGEN_HOST_DEVICE friend field_element operator-(const field_element& a, const field_element& b) {
    field_element r;
    loops::apply2<typename Ops::sub, true>(r.w, a.w, b.w);
    return r;
  }
  MPGEN_HOST_DEVICE friend field_element operator*(const field_element& a, const field_element& b) {
    field_element r;
    D::mul(r.w, a.w, b.w);
    return r;
  }
  MPGEN_HOST_DEVICE field_element operator-() const {
    field_element r;
    loops::apply1<typename Ops::neg, true>(r.w, w);
    return r;
  }
  MPGEN_HOST_DEVICE field_element& operator+=(const field_element& b) { return *this = *this + b; }
  MPGEN_HOST_DEVICE field_element& operator-=(const field_element& b) { return *this = *this - b; }
  MPGEN_HOST_DEVICE field_element& operator*=(const field_element& b) { return *this = *this * b; }

  MPGEN_HOST_DEVICE field_element sqr() const {
    field_element r;
    D::sqr(r.w, w);
    return r;
  }
  // this^e for the low E bits of e (words least significant first), in fixed windows.
  template <unsigned E>
  MPGEN_HOST_DEVICE field_element pow(const uint32_t* e) const {
    field_element r;
    loops::power<D, E>(r.w, w, e);
    return r;
  }
  MPGEN_HOST_DEVICE field_element pow(uint32_t e) const { return pow<32>(&e); }
  // this^-1 by Fermat (p prime); 0 for 0.
  MPGEN_HOST_DEVICE field_element inv() const {
    uint32_t e[loops::words_for<D::fermat_exponent_bits>];
    D::fermat_exponent(e);
    return pow<D::fermat_exponent_bits>(e);
  }
  // A square root (p prime); *is_square says whether there is one (else the result is 0).
  MPGEN_HOST_DEVICE field_element sqrt(bool* is_square) const {
    field_element r;
    const uint32_t root = loops::root_in_domain<D>(r.w, w);
    MPGEN_UNROLL for (unsigned k = 0; k < limbs; ++k) r.w[k] &= root;
    *is_square = root != 0;
    return r;
  }

  MPGEN_HOST_DEVICE bool is_zero() const { return *this == zero(); }
  MPGEN_HOST_DEVICE friend bool operator==(const field_element& a, const field_element& b) {
    return loops::equal_mask<limbs>(a.w, b.w) != 0;
  }
  MPGEN_HOST_DEVICE friend bool operator!=(const field_element& a, const field_element& b) { return !(a == b); }
};

}  // namespace mpgen

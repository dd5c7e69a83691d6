// Integers as values: a size's value type (`mpgen::u<bits>::value`) is uint_value<its
// value_ops>, its words in registers, with operators over the size's generated operations
// (arithmetic mod 2^bits; the full product returns the wider uint_words). Copied verbatim
// into every generated header, inside its version guard.
namespace mpgen {

// An unsigned integer of Bits bits as words, least significant first: what a full product
// of two values returns.
template <unsigned Bits>
struct uint_words {
  static constexpr unsigned bits = Bits, limbs = (Bits + 31) / 32;
  uint32_t w[limbs];
};

namespace loops {
// y = Op's result limbs for operands a and b of N limbs each (trailing operands, such as
// add's carry in, 0); a or b null for an operation of one operand, or of N and a word.
template <class Op, unsigned N>
MPGEN_HOST_DEVICE void apply_operands(uint32_t* y, const uint32_t* a, const uint32_t* b, unsigned words_b = N) {
  uint32_t x[Op::in_words], out[Op::out_words];
  MPGEN_UNROLL for (unsigned k = 0; k < Op::in_words; ++k) x[k] = k < N ? a[k] : k < N + words_b && b ? b[k - N] : 0;
  apply<Op>(out, x);
  copy<Op::result_limbs>(y, out);
}
}  // namespace loops

// Ops: the generated operations it uses (sum, difference, product, equal, less, zero,
// bit_and, bit_or, bit_xor, bit_not, left, right) and bits.
template <class Ops>
struct uint_value {
  static constexpr unsigned bits = Ops::bits, limbs = (bits + 31) / 32;
  using wide = uint_words<2 * bits>;
  uint32_t w[limbs];  // below 2^bits

  MPGEN_HOST_DEVICE static uint_value from_words(const uint32_t* words) {
    uint_value r;
    loops::copy<limbs>(r.w, words);
    return r;
  }
  MPGEN_HOST_DEVICE void to_words(uint32_t* words) const { loops::copy<limbs>(words, w); }
#ifndef __CUDACC_RTC__
  // From and to hex text, on the host; from_hex throws std::invalid_argument where the text
  // is not hex or is wider than bits.
  static uint_value from_hex(std::string_view text) {
    uint_value r;
    hex::parse(text, r.w, limbs, bits);
    return r;
  }
  std::string to_hex() const { return hex::print(w, limbs); }
#endif
#if !defined(__CUDACC_RTC__) && defined(__GNU_MP__)
  // From and to GMP's integers, on the host, where gmp.h is included first: any integer,
  // taken mod 2^bits.
  static uint_value from_mpz(const mpz_t value) {
    uint_value r;
    mpz_t low;
    mpz_init(low);
    mpz_fdiv_r_2exp(low, value, bits);
    MPGEN_UNROLL for (unsigned k = 0; k < limbs; ++k) r.w[k] = 0;
    mpz_export(r.w, nullptr, -1, sizeof(uint32_t), 0, 0, low);
    mpz_clear(low);
    return r;
  }
  void to_mpz(mpz_t value) const { mpz_import(value, limbs, -1, sizeof(uint32_t), 0, 0, w); }
#endif

  // Arithmetic mod 2^bits; the full product is wider.
  MPGEN_HOST_DEVICE friend uint_value operator+(const uint_value& a, const uint_value& b) {
    return a.binary<typename Ops::sum>(b);
  }
  MPGEN_HOST_DEVICE friend uint_value operator-(const uint_value& a, const uint_value& b) {
    return a.binary<typename Ops::difference>(b);
  }
  MPGEN_HOST_DEVICE friend wide operator*(const uint_value& a, const uint_value& b) {
    wide r;
    loops::apply_operands<typename Ops::product, limbs>(r.w, a.w, b.w);
    return r;
  }
  MPGEN_HOST_DEVICE friend uint_value operator&(const uint_value& a, const uint_value& b) {
    return a.binary<typename Ops::bit_and>(b);
  }
  MPGEN_HOST_DEVICE friend uint_value operator|(const uint_value& a, const uint_value& b) {
    return a.binary<typename Ops::bit_or>(b);
  }
  MPGEN_HOST_DEVICE friend uint_value operator^(const uint_value& a, const uint_value& b) {
    return a.binary<typename Ops::bit_xor>(b);
  }
  MPGEN_HOST_DEVICE uint_value operator~() const { return binary<typename Ops::bit_not>(); }
  // Shifts by any amount (bits or more give 0).
  MPGEN_HOST_DEVICE uint_value operator<<(uint32_t amount) const { return shift<typename Ops::left>(amount); }
  MPGEN_HOST_DEVICE uint_value operator>>(uint32_t amount) const { return shift<typename Ops::right>(amount); }
  MPGEN_HOST_DEVICE uint_value& operator+=(const uint_value& b) { return *this = *this + b; }
  MPGEN_HOST_DEVICE uint_value& operator-=(const uint_value& b) { return *this = *this - b; }

  MPGEN_HOST_DEVICE friend bool operator==(const uint_value& a, const uint_value& b) {
    return a.word<typename Ops::equal>(b) != 0;
  }
  MPGEN_HOST_DEVICE friend bool operator!=(const uint_value& a, const uint_value& b) { return !(a == b); }
  MPGEN_HOST_DEVICE friend bool operator<(const uint_value& a, const uint_value& b) {
    return a.word<typename Ops::less>(b) != 0;
  }
  MPGEN_HOST_DEVICE friend bool operator>(const uint_value& a, const uint_value& b) { return b < a; }
  MPGEN_HOST_DEVICE friend bool operator<=(const uint_value& a, const uint_value& b) { return !(b < a); }
  MPGEN_HOST_DEVICE friend bool operator>=(const uint_value& a, const uint_value& b) { return !(a < b); }
  MPGEN_HOST_DEVICE bool is_zero() const { return word<typename Ops::zero>() != 0; }

 private:
  template <class Op>
  MPGEN_HOST_DEVICE uint_value binary(const uint_value& b) const {
    uint_value r;
    loops::apply_operands<Op, limbs>(r.w, w, b.w);
    return r;
  }
  template <class Op>
  MPGEN_HOST_DEVICE uint_value binary() const {
    uint_value r;
    loops::apply_operands<Op, limbs>(r.w, w, nullptr);
    return r;
  }
  template <class Op>
  MPGEN_HOST_DEVICE uint32_t word(const uint_value& b) const {
    uint32_t r;
    loops::apply_operands<Op, limbs>(&r, w, b.w);
    return r;
  }
  template <class Op>
  MPGEN_HOST_DEVICE uint32_t word() const {
    uint32_t r;
    loops::apply_operands<Op, limbs>(&r, w, nullptr);
    return r;
  }
  template <class Op>
  MPGEN_HOST_DEVICE uint_value shift(uint32_t amount) const {
    // The amount operand holds ceil(log2 bits) bits: larger amounts give 0 here.
    constexpr uint32_t most = (1u << (Op::operand_bits[1] - 1) << 1) - 1;
    const uint32_t low = amount & most, keep = 0u - uint32_t(amount <= most);  // masks: no branch on amount
    uint_value r;
    loops::apply_operands<Op, limbs>(r.w, w, &low, 1);
    MPGEN_UNROLL for (unsigned k = 0; k < limbs; ++k) r.w[k] &= keep;
    return r;
  }
};

}  // namespace mpgen

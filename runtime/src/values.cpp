// Values: hex text, GMP integers and limbs (32-bit, least significant first), and input as
// messages show it.
#include <algorithm>

#include "kernels.hpp"

namespace mpgen {
namespace detail {

// |value|'s limbs, at least `limbs` of them.
std::vector<uint32_t> magnitude_limbs(const mpz_t value, unsigned limbs) {
  std::vector<uint32_t> words(std::max<std::size_t>(limbs, (mpz_sizeinbase(value, 2) + 31) / 32), 0);
  mpz_export(words.data(), nullptr, -1, sizeof(uint32_t), 0, 0, value);
  return words;
}

// Whether a < b, limbs least significant first (either may be shorter: zeros above).
bool below(const uint32_t* a, std::size_t na, const std::vector<uint32_t>& b) {
  for (std::size_t i = std::max(na, b.size()); i-- > 0;) {  // from the top limb
    const uint32_t x = i < na ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y;
  }
  return false;
}

}  // namespace detail

std::vector<uint32_t> parse_hex(std::string_view text, unsigned bits) {
  std::vector<uint32_t> limbs((bits + 31) / 32);
  try {
    hex::parse(text, limbs.data(), unsigned(limbs.size()), bits);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  return limbs;
}

std::string to_hex(const std::vector<uint32_t>& limbs) { return hex::print(limbs.data(), unsigned(limbs.size())); }

void to_mpz(mpz_t out, const std::vector<uint32_t>& limbs) {
  mpz_import(out, limbs.size(), -1, sizeof(uint32_t), 0, 0, limbs.data());
}

std::vector<uint32_t> from_mpz(const mpz_t value, unsigned bits) {
  if (mpz_sgn(value) < 0 || mpz_sizeinbase(value, 2) > bits)
    throw InputError("value is negative or wider than " + std::to_string(bits) + " bits");
  std::vector<uint32_t> limbs((bits + 31) / 32, 0);
  mpz_export(limbs.data(), nullptr, -1, sizeof(uint32_t), 0, 0, value);
  return limbs;
}

}  // namespace mpgen

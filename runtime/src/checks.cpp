// The checked entry points' tests of operands: widths, below the modulus, and the operands
// that come with a modulus given at run time (-p^-1, Barrett's reciprocal).
#include <algorithm>
#include <cstdio>

#include "kernels.hpp"

namespace mpgen {

using detail::below;

void check_operand(const OpInfo& op, unsigned k, const std::vector<uint32_t>& limbs) {
  const unsigned bits = op.operand_bits.at(k);
  for (unsigned i = 0; i < limbs.size(); ++i)
    if (limbs[i] && 32 * i + 32 - __builtin_clz(limbs[i]) > bits)
      throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is wider than " +
                       std::to_string(bits) + " bits");
  if (!(op.below_modulus >> k & 1) || op.modulus_operand >= 0) return;
  if (!below(limbs, op.modulus))
    throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is not below " +
                     (op.kind == "rns"  ? "M of the RNS set " + op.module
                      : op.kind == "gf" ? "p of " + op.module
                                        : "the modulus of " + op.field) + " (0x" +
                     to_hex(op.modulus) + ")");
}

namespace {
// -p^-1 mod 2^(32 n) for odd p, word by word as a Montgomery reduction: y's word i cancels
// word i of p y + 1 (O(n^2), n = 1 in the thread tier).
std::vector<uint32_t> minus_inverse(const std::vector<uint32_t>& p, unsigned n) {
  uint32_t inverse = p[0];  // p^-1 mod 2^32 by Newton's steps, each doubling the good bits (3 to 48)
  for (int i = 0; i < 4; ++i) inverse *= 2u - p[0] * inverse;
  std::vector<uint32_t> sum(n, 0), y(n, 0);  // sum = p y + 1 mod 2^(32 n), word i zero once y's is set
  sum[0] = 1;
  for (unsigned i = 0; i < n; ++i) {
    y[i] = 0u - sum[i] * inverse;
    uint64_t carry = 0;
    for (unsigned j = i; j < n; ++j) {
      const uint64_t t = uint64_t(j - i < p.size() ? p[j - i] : 0) * y[i] + sum[j] + carry;
      sum[j] = uint32_t(t), carry = t >> 32;
    }
  }
  return y;
}

// Barrett's reciprocal of p != 0 at W = 32 n bits: floor((2^(2W) - 1) / p') - 2^W, p' = p
// shifted up by its leading zeros (barrett_modmul's v).
std::vector<uint32_t> barrett_reciprocal(const std::vector<uint32_t>& p, unsigned n) {
  mpz_t normal, v;
  mpz_inits(normal, v, nullptr);
  to_mpz(normal, p);
  mpz_mul_2exp(normal, normal, 32 * n - mpz_sizeinbase(normal, 2));
  mpz_set_ui(v, 0);
  mpz_setbit(v, 64 * n);
  mpz_sub_ui(v, v, 1);
  mpz_fdiv_q(v, v, normal);
  mpz_clrbit(v, 32 * n);
  std::vector<uint32_t> limbs = from_mpz(v, 32 * n);
  mpz_clears(normal, v, nullptr);
  return limbs;
}

// Whether `got` differs from Compute's constant of p (n limbs), which `want` then points to.
// A batch often brings one p many times: the last p's constant is kept, per thread and
// per Compute.
template <std::vector<uint32_t> (*Compute)(const std::vector<uint32_t>&, unsigned)>
bool differs(const std::vector<uint32_t>& p, std::vector<uint32_t> got, unsigned n, const std::vector<uint32_t>*& want) {
  thread_local std::vector<uint32_t> last_p, last_want;
  if (p != last_p || last_want.size() != n) last_p = p, last_want = Compute(p, n);
  got.resize(n, 0);
  want = &last_want;
  return got != last_want;
}
}  // namespace

void check_modulus_operands(const OpInfo& op, const std::vector<std::vector<uint32_t>>& operands) {
  if (op.modulus_operand < 0) return;
  const unsigned at = unsigned(op.modulus_operand);
  const std::vector<uint32_t>& p = operands.at(at);
  const std::string which = "operand " + std::to_string(at + 1) + " of " + op.name;
  if (op.odd_modulus && (p.empty() || !(p[0] & 1)))
    throw InputError(which + ", the modulus, is even; it must be odd (" + op.odd_modulus_because + ")");
  const std::vector<uint32_t>* want = nullptr;
  const int given = op.minus_inverse_operand;  // where -p^-1 mod 2^(32 n) is an operand (p odd then)
  if (given >= 0) {
    const unsigned n = op.operand_limbs(unsigned(given));  // 1 word per thread, R's limbs in a group
    if (differs<minus_inverse>(p, operands.at(given), n, want)) {
      char word[16];
      std::snprintf(word, sizeof word, "0x%08x", (*want)[0]);
      throw InputError("operand " + std::to_string(given + 1) + " of " + op.name + " is not -p^-1 mod 2^" +
                       std::to_string(32 * n) + " for p = 0x" + to_hex(p) + ": that is " +
                       (n == 1 ? std::string(word) : "0x" + to_hex(*want)));
    }
  }
  const int reciprocal = op.reciprocal_operand;  // Barrett's, of any p but 0 (refused below: nothing is below it)
  if (reciprocal >= 0 && std::any_of(p.begin(), p.end(), [](uint32_t w) { return w != 0; }) &&
      differs<barrett_reciprocal>(p, operands.at(reciprocal), op.operand_limbs(unsigned(reciprocal)), want))
    throw InputError("operand " + std::to_string(reciprocal + 1) + " of " + op.name +
                     " is not Barrett's reciprocal of p = 0x" + to_hex(p) + " (barrett_reciprocal): that is 0x" +
                     to_hex(*want));
  for (unsigned k = 0; k < at; ++k)
    if (op.below_modulus >> k & 1 && !below(operands[k], p))
      throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is not below the modulus 0x" +
                       to_hex(p) + " (operand " + std::to_string(at + 1) + ")");
}

}  // namespace mpgen

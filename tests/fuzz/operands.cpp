// libFuzzer over mpgen-run's reading of its input (runtime/tools/line_reader.hpp): the
// input's first byte chooses the operands' width (1 to 2048 bits) and how many a line keeps
// (1 to 3), its second the size of the chunks it is fed in (1 to 64 bytes, as read() may
// cut it anywhere); the rest is the text. Each line the reader ends must be the text's own
// line, split at blanks, with as many operands and the same number; each operand it keeps
// must read as GMP reads the operand's text (mpz_set_str of its hex digits after an
// optional 0x) where that text is all hex digits and fits the width, and otherwise be
// refused with an InputError of one line. Any other outcome aborts (a finding).
#include <gmp.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "line_reader.hpp"

namespace {

using mpgen::run_input::LineReader;
using mpgen::run_input::Operand;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The text's lines (all of them, blank ones too), each split at blanks.
std::vector<std::vector<std::string>> split(std::string_view text) {
  std::vector<std::vector<std::string>> lines(1);
  bool in_word = false;
  for (const char c : text) {
    if (c == '\n') {
      lines.emplace_back(), in_word = false;
    } else if (blank(c)) {
      in_word = false;
    } else {
      if (!in_word) lines.back().emplace_back();
      lines.back().back() += c, in_word = true;
    }
  }
  return lines;
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'f'); }

void check_operand(const Operand& operand, const std::string& text, unsigned bits) {
  const std::size_t skip = text.size() > 1 && text[0] == '0' && (text[1] | 32) == 'x' ? 2 : 0;
  const std::string digits = text.substr(skip);
  bool valid = !digits.empty();
  for (const char c : digits) valid = valid && is_hex(c);
  mpz_t value;
  mpz_init(value);
  if (valid) mpz_set_str(value, digits.c_str(), 16);
  const bool fits = valid && (mpz_sgn(value) == 0 || mpz_sizeinbase(value, 2) <= bits);
  try {
    const std::vector<uint32_t> limbs = mpgen::run_input::parse_operand(operand, bits);
    mpz_t read;
    mpz_init(read);
    mpz_import(read, limbs.size(), -1, sizeof(uint32_t), 0, 0, limbs.data());
    const bool same = fits && mpz_cmp(read, value) == 0 && limbs.size() == (bits + 31) / 32;
    mpz_clear(read);
    if (!same) std::abort();  // taken, but not GMP's value, or GMP's reading refuses it
  } catch (const mpgen::InputError& e) {
    if (fits || std::string_view(e.what()).find('\n') != std::string_view::npos) std::abort();
  }
  mpz_clear(value);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const unsigned widths[] = {1, 4, 31, 32, 33, 64, 100, 255, 2048};
  const unsigned bits = widths[data[0] % 9];
  const std::size_t kept = 1 + data[0] / 9 % 3, chunk = 1 + data[1] % 64;
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::vector<std::vector<std::string>> lines = split(text);

  std::size_t ended = 0;
  const auto end_line = [&](const std::vector<Operand>& operands, std::size_t count, std::size_t number) {
    if (number == 0 || number > lines.size() || lines[number - 1].size() != count || operands.size() != kept)
      std::abort();
    for (std::size_t k = 0; k < count && k < kept; ++k) check_operand(operands[k], lines[number - 1][k], bits);
    ++ended;
    return std::string();
  };
  LineReader reader(std::vector<std::size_t>(kept, (bits + 3) / 4), false);
  for (std::size_t at = 0; at < text.size(); at += chunk)
    if (!reader.feed(text.substr(at, chunk), end_line).empty()) std::abort();
  if (!reader.finish(end_line).empty()) std::abort();
  std::size_t with_operands = 0;
  for (const auto& line : lines) with_operands += !line.empty();
  if (ended != with_operands) std::abort();  // every line with operands ended once
  return 0;
}

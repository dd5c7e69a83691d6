// mpgen-run's reading of its input (runtime/tools/mpgen_run.cpp), and tests/fuzz/operands.cpp's:
// lines of operands separated by blanks, read a chunk at a time in bounded memory, and each
// hex operand's value.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mpgen/runtime.hpp"

namespace mpgen::run_input {

// Messages echo at most this many characters of an operand, then "..." and its length.
inline constexpr std::size_t shown_chars = 40;

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// One operand as it is read, a character at a time, in bounded memory: its first
// characters (enough to echo shown_chars after a 0x) and its significant digits (after
// the 0x and the leading zeros), at most as many as its width allows. Hex; or, for RNS
// integers (signed), an optional sign and then decimal digits or 0x and hex digits.
struct Operand {
  std::string head, digits;
  std::size_t length = 0, significant = 0;
  bool prefix = false, bad_seen = false, negative = false;
  std::size_t start = 0;  // 1 after a sign
  char bad = 0;  // the first character after the prefix that is not a digit

  void clear() {
    head.clear(), digits.clear();
    length = significant = start = 0;
    prefix = bad_seen = negative = false;
    bad = 0;
  }
  // Its first characters as messages show them: escaped, cut short ("..." where it is longer).
  std::string shown() const { return mpgen::escaped(head, shown_chars); }
  std::string shown_bad() const { return mpgen::escaped(std::string_view(&bad, 1)); }

  void add(char c, std::size_t most_digits, bool signed_decimal) {
    if (head.size() < shown_chars + 2) head += c;
    ++length;
    if (signed_decimal && length == 1 && (c == '-' || c == '+')) {
      negative = c == '-', start = 1;
      return;
    }
    if (length == start + 2 && head[start] == '0' && (c == 'x' || c == 'X')) {
      prefix = true;  // the '0' before it was taken for a leading zero: no digit so far
      return;
    }
    const int v = signed_decimal && !prefix ? (c >= '0' && c <= '9' ? c - '0' : -1) : mpgen::hex::digit(c);
    if (v < 0) {
      if (!bad_seen) bad_seen = true, bad = c;
      return;
    }
    if (v == 0 && significant == 0) return;
    if (significant++ < most_digits) digits += c;
  }
};

// The operand's value, as parse_hex gives it; the messages of a long operand echo its
// first characters only.
inline std::vector<uint32_t> parse_operand(const Operand& t, unsigned bits) {
  if (t.length <= shown_chars) return mpgen::parse_hex(t.head, bits);  // its own messages, whole
  if (t.bad_seen)
    throw mpgen::InputError("'" + t.shown() + "' (" + std::to_string(t.length) +
                            " characters) is not a hex number (bad digit '" + t.shown_bad() + "')");
  const unsigned top = t.significant ? 32 - __builtin_clz(unsigned(mpgen::hex::digit(t.digits[0]))) : 0;
  if (t.significant && 4 * (t.significant - 1) + top > bits) {
    const std::size_t skip = t.prefix ? 2 : 0;
    throw mpgen::InputError("operand 0x" + t.head.substr(skip, shown_chars) + "... (" +  // hex digits only
                            std::to_string(t.length - skip) + " digits) is wider than " + std::to_string(bits) +
                            " bits");
  }
  return mpgen::parse_hex(t.digits.empty() ? "0" : t.digits, bits);  // all its digits: it fits
}

// Splits the input into lines of operands, a chunk at a time as read() gives it: each
// operand is kept as an Operand (its first characters and its significant digits, at most
// `most_digits` of them), so that a line of any length costs bounded memory. At each
// line's end (a newline, or the input's end after a last line without one), a line with
// operands goes to end_line(operands, count, number): count may pass operands.size() (the
// operands past it are counted, not kept), number counts lines from 1, blank ones too;
// end_line returns "" or what is wrong, which stops the reading.
class LineReader {
 public:
  // most_digits: each operand's; integers: RNS and GF operands (signed decimal or 0x hex).
  LineReader(std::vector<std::size_t> most_digits, bool integers)
      : operands_(most_digits.size()), most_digits_(std::move(most_digits)), integers_(integers) {}

  std::size_t line() const { return number_; }

  // The chunk's characters; "" or the first error end_line returned.
  template <class EndLine>
  std::string feed(std::string_view chunk, EndLine&& end_line) {
    for (const char c : chunk) {
      if (c == '\n') {
        in_operand_ = false;
        std::string error = end(end_line);
        if (!error.empty()) return error;
        ++number_, count_ = 0;
      } else if (is_space(c)) {
        in_operand_ = false;
      } else {
        if (!in_operand_) {
          in_operand_ = true;
          if (count_ < operands_.size()) operands_[count_].clear();
          ++count_;
        }
        if (count_ <= operands_.size()) operands_[count_ - 1].add(c, most_digits_[count_ - 1], integers_);
      }
    }
    return "";
  }

  // The input's end, perhaps after a last line with no newline: "" or end_line's error.
  template <class EndLine>
  std::string finish(EndLine&& end_line) {
    in_operand_ = false;
    return end(end_line);
  }

 private:
  template <class EndLine>
  std::string end(EndLine& end_line) {
    return count_ == 0 ? std::string() : end_line(operands_, count_, number_);
  }

  std::vector<Operand> operands_;
  std::vector<std::size_t> most_digits_;
  bool integers_;
  std::size_t number_ = 1, count_ = 0;
  bool in_operand_ = false;
};

}  // namespace mpgen::run_input

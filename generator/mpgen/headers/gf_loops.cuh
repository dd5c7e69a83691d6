// Operations of a generalized Fermat field too long for one straight-line list (k > 16):
// loops over short generated lists, written once for host and device.
#ifndef MPGEN_GF_LOOPS
#define MPGEN_GF_LOOPS

namespace mpgen {
namespace gf_loops {

// x y = sum_j x_j (y r^j mod p), a row at a time: each row adds the digit x_j times y's
// digits into k column sums (Accumulate), y moves on by r (Shift: a negacyclic shift), and
// Settle turns the sums into the element.
template <class Accumulate, class Shift, class Settle>
MPGEN_HOST_DEVICE void mul(uint32_t* y, const uint32_t* x) {
  constexpr unsigned W = Shift::in_words, S = Settle::in_words;
  uint32_t sums[S] = {}, row[W], in[S + 2 + W];
  loops::copy<W>(row, x + W);
  MPGEN_ROLLED for (unsigned j = 0; j < W / 2; ++j) {
    loops::copy<S>(in, sums);
    in[S] = x[2 * j], in[S + 1] = x[2 * j + 1];
    loops::copy<W>(in + S + 2, row);
    loops::apply<Accumulate>(sums, in);
    if (j + 1 < W / 2) loops::apply1<Shift>(row, row);
  }
  loops::apply<Settle>(y, sums);
}

// An integer below p (W words) to its W / 2 digits: W / 2 - 1 long divisions by r, a word
// at a time from the top (Step: a remainder below r and the next word to the quotient word
// and the new remainder), each remainder a digit, the last quotient the top digit (r only
// for p - 1). After i divisions the dividend is at most r^(k - i) < 2^((k - i) RadixBits):
// the words above are zero and skipped (gf/lists.py's from_binary_words).
template <class Step, unsigned W, unsigned RadixBits>
MPGEN_HOST_DEVICE void from_binary(uint32_t* y, const uint32_t* x) {
  uint32_t n[W], step[3];
  loops::copy<W>(n, x);
  MPGEN_ROLLED for (unsigned i = 0; i + 1 < W / 2; ++i) {
    const unsigned bits = (W / 2 - i) * RadixBits, top = bits >= 32 * W ? W : (bits + 31) / 32;
    uint32_t remainder[2] = {0, 0};
    MPGEN_ROLLED for (unsigned j = top; j-- > 0;) {
      const uint32_t in[3] = {n[j], remainder[0], remainder[1]};
      loops::apply<Step>(step, in);
      n[j] = step[0], remainder[0] = step[1], remainder[1] = step[2];
    }
    y[2 * i] = remainder[0], y[2 * i + 1] = remainder[1];
  }
  y[W - 2] = n[0], y[W - 1] = n[1];
}

// The digits to the integer below p by Horner's rule: from the top digit down, x r + the
// next digit (Step).
template <class Step>
MPGEN_HOST_DEVICE void to_binary(uint32_t* y, const uint32_t* x) {
  constexpr unsigned W = Step::out_words;
  uint32_t in[W + 2] = {x[W - 2], x[W - 1]};
  MPGEN_ROLLED for (unsigned i = W / 2 - 1; i-- > 0;) {
    in[W] = x[2 * i], in[W + 1] = x[2 * i + 1];
    loops::apply<Step>(y, in);
    loops::copy<W>(in, y);
  }
}

}  // namespace gf_loops
}  // namespace mpgen
#endif  // MPGEN_GF_LOOPS

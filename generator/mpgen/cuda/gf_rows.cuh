// Products in a generalized Fermat field whose k^2 digit products are too many for one
// straight-line list (k > 16): x y = sum_j x_j (y r^j mod p), a row at a time. Each row adds
// the digit x_j times y's digits into k column sums (the field's mul_accumulate), y moves on
// by r (mul_shift: a negacyclic shift), and mul_settle turns the sums into the element.
// Written once for host and device around those generated lists.
#ifndef MPGEN_GF_ROWS
#define MPGEN_GF_ROWS

namespace mpgen {
namespace gf_rows {

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

}  // namespace gf_rows
}  // namespace mpgen
#endif  // MPGEN_GF_ROWS

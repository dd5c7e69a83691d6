// Table entries for the operation structs of a generated header; include it after one.
#pragma once
#include "kernels.hpp"

#ifndef MPGEN_PRELUDE
#error "include a generated mpgen header before size_table.hpp"
#endif

namespace mpgen::detail {
// The shape of Op; a field's operations also name the field and its modulus.
template <class Op>
OpInfo info_of(const char* field = "", const uint32_t* modulus = nullptr) {
  OpInfo info{Op::bits,         Op::name,
              {std::begin(Op::operand_bits), std::end(Op::operand_bits)},
              Op::optional_operands, Op::result_limbs, Op::flag_words == 1, Op::signed_result};
  info.field = field;
  if (modulus) info.modulus.assign(modulus, modulus + Op::operand_limbs[0]);
  info.below_modulus = Op::below_modulus;
  return info;
}
}  // namespace mpgen::detail

#ifdef __CUDACC__
namespace mpgen::detail {
template <class Op>
void launch(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out) {
  device_batch<Op><<<unsigned((n + batch_threads - 1) / batch_threads), batch_threads>>>(n, layout, in, out);
}
}  // namespace mpgen::detail
#define MPGEN_DEVICE_FN(Op) &launch<Op>
#else
#define MPGEN_DEVICE_FN(Op) nullptr
#endif

// The entry of one generated operation struct (of a field: with its name and modulus).
#define MPGEN_KERNEL(Op) \
  ::mpgen::detail::Kernel{::mpgen::detail::info_of<Op>(), &host_batch<Op>, MPGEN_DEVICE_FN(Op)},
#define MPGEN_FIELD_KERNEL(Op, field, modulus) \
  ::mpgen::detail::Kernel{::mpgen::detail::info_of<Op>(field, modulus), &host_batch<Op>, MPGEN_DEVICE_FN(Op)},

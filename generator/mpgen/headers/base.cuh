// mpgen's base definitions: fixed-width types (NVRTC has no standard headers), the two
// memory layouts of a batch and their strides. Copied verbatim into every generated
// header, inside its version guard; the runtime's header includes it too (installed
// beside it), hence its own guard.
#ifndef MPGEN_BASE
#define MPGEN_BASE
#ifdef __CUDACC_RTC__  // NVRTC: no standard headers, device code only
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
namespace std { typedef decltype(sizeof(0)) size_t; }
#else
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>
#if defined(__x86_64__) && !defined(MPGEN_PORTABLE_HOST64)
#include <x86intrin.h>  // the 64-bit host lists' carry chains (_addcarry_u64, _subborrow_u64)
#define MPGEN_X86_CARRIES
#if (defined(__GNUC__) || defined(__clang__)) && !defined(MPGEN_NO_X86_ASM)
#include <cpuid.h>
// The 64-bit lists' x86-64 assembly (mulx, adcx, adox), where the CPU has BMI2 and ADX.
#define MPGEN_X86_ASM
namespace mpgen {
inline const bool x86_adx = [] {
  unsigned a, b, c, d;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 8 & 1) && (b >> 19 & 1);  // BMI2, ADX
}();
}  // namespace mpgen
#endif
#endif
// A group program's host rendering: calls, one a step (its threads' loops are in the
// callees, headers/group.cuh's on_host), hundreds of them in an 8192-bit sqrt. Optimizing
// that glue took most of its module's compile and gained nothing: without it an 8192-bit
// module of add..sqrt compiles in 4.5 s against 10 and runs as fast. nvcc's host pass
// and other compilers keep their options.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define MPGEN_HOST_GLUE __attribute__((optimize("O0")))
#else
#define MPGEN_HOST_GLUE
#endif
#endif


namespace mpgen {

// Where word w of instance j of a batch of n lives: interleaved puts it at w*n + j
// (a warp's loads coalesce), contiguous at j*words + w.
enum class Layout { interleaved, contiguous };

// A batch whose operands and results each lie in an array of their own (the entry points
// the Python runtime calls; the C++ runtime packs them all into one): word i of an array
// of W words an instance, instance j, at i * n + j interleaved, j * W + i contiguous (there
// each array aligned as its W words allow: to 16 bytes where 4 divides W, the wide accesses).
template <unsigned Operands, unsigned Results>
struct Arrays {
  const uint32_t* in[Operands];
  uint32_t* out[Results];
};

// Word w of instance j sits at w * word_stride + j * instance_stride.
struct Strides {
  std::size_t word, instance;
#ifdef __CUDACC__
  __host__ __device__
#endif
  static Strides of(Layout layout, std::size_t n, unsigned words) {
    return layout == Layout::interleaved ? Strides{n, 1} : Strides{1, words};
  }
};

#ifndef __CUDACC_RTC__
// Whether Op has a list at 64-bit limbs (host64, where the compiler has unsigned __int128).
template <class Op, class = void>
struct has_host64 : std::false_type {};
template <class Op>
struct has_host64<Op, std::void_t<decltype(&Op::host64)>> : std::true_type {};

// How many instances Op's host64_lanes runs side by side (lanes64), else 1.
template <class Op, class = void>
struct lanes64_of : std::integral_constant<unsigned, 1> {};
template <class Op>
struct lanes64_of<Op, std::void_t<decltype(Op::lanes64)>> : std::integral_constant<unsigned, Op::lanes64> {};

// Op::host64 on one instance's 64-bit limbs, or Op::host64_lanes on Lanes instances'.
template <class Op, unsigned Lanes>
inline void host64_on(uint64_t* y, const uint64_t* x) {
  if constexpr (Lanes == 1)
    Op::host64(y, x);
  else
    Op::host64_lanes(y, x);
}

// Op::host64 on Op's 32-bit words (Lanes > 1: Op::host64_lanes on Lanes instances):
// word(lane, i) gives input word i of instance lane; each operand's words are paired into
// 64-bit limbs, lane after lane, and the result's limbs split back into words, the flag
// word last, each stored by store(lane, w, word).
template <class Op, unsigned Lanes = 1, class Word, class Store>
inline void through_host64(Word&& word, Store&& store) {
  uint64_t x[Lanes * Op::in_words64], y[Lanes * Op::out_words64];
  unsigned first = 0, limb = 0;
  for (unsigned k = 0; k < Op::operands; ++k) {
    const unsigned words = Op::operand_limbs[k], limbs = (words + 1) / 2;
    for (unsigned lane = 0; lane < Lanes; ++lane)
      for (unsigned i = 0; i < words; ++i) {
        const uint64_t w = word(lane, first + i);
        uint64_t& l = x[Lanes * limb + lane * limbs + i / 2];
        l = i % 2 ? l | w << 32 : w;
      }
    first += words, limb += limbs;
  }
  host64_on<Op, Lanes>(y, x);
  constexpr unsigned result64 = Op::out_words64 - Op::flag_words;
  for (unsigned lane = 0; lane < Lanes; ++lane) {
    for (unsigned w = 0; w < Op::result_limbs; ++w)
      store(lane, w, uint32_t(y[lane * result64 + w / 2] >> (w % 2 * 32)));
    if (Op::flag_words) store(lane, Op::result_limbs, uint32_t(y[Lanes * result64 + lane]));
  }
}

// Operands K, K + 1, ... of Lanes instances (each instance's words one after another,
// in_words apart) into through_host64's x, one copy each: the sizes known at compile time,
// so that the copies are moves, not calls, at the tables' -O1 too.
template <class Op, unsigned Lanes, unsigned K = 0, unsigned First = 0, unsigned Limb = 0>
inline void copy_operands64(uint64_t* x, const uint32_t* in) {
  if constexpr (K < Op::operands) {
    constexpr unsigned words = Op::operand_limbs[K], limbs = (words + 1) / 2;
    for (unsigned lane = 0; lane < Lanes; ++lane) {
      uint64_t* to = &x[Lanes * Limb + lane * limbs];
      const uint32_t* from = in + lane * Op::in_words + First;
      std::memcpy(to, from, words / 2 * sizeof(uint64_t));
      // an odd operand's last word alone, zero above: one store to its limb, which the
      // product's load then takes whole (a zero and a word stored apart stall that load)
      if constexpr (words % 2) to[limbs - 1] = from[words - 1];
    }
    copy_operands64<Op, Lanes, K + 1, First + words, Limb + limbs>(x, in);
  }
}

// Limbs I... of from into words 2 I, 2 I + 1 of to, limb by limb, as host64 stored them (a
// wider load over several of its stores would wait for them to retire: 1.7x on a 256-bit
// add), each a move at the tables' -O1 too.
template <std::size_t... I>
inline void copy_limbs64(uint32_t* to, const uint64_t* from, std::index_sequence<I...>) {
  (std::memcpy(to + 2 * I, from + I, sizeof(uint64_t)), ...);
}

// through_host64 on Lanes instances whose words lie one after another (instance lane's at
// in + lane * Op::in_words, its results at out + lane * Op::out_words): on a little-endian
// host an operand's words are its 64-bit limbs as they lie, so each is one copy (an odd
// operand's last limb zero above), and the result's limbs copied back. (Through
// through_host64's word() and store() a word at a time, the runtime's contiguous CPU
// batches ran 1.8-7x slower than host64 over 64-bit records.)
template <class Op, unsigned Lanes = 1>
inline void through_host64_words(uint32_t* out, const uint32_t* in) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t x[Lanes * Op::in_words64], y[Lanes * Op::out_words64];
  copy_operands64<Op, Lanes>(x, in);
  host64_on<Op, Lanes>(y, x);
  constexpr unsigned result64 = Op::out_words64 - Op::flag_words;
  for (unsigned lane = 0; lane < Lanes; ++lane) {
    uint32_t* to = out + lane * Op::out_words;
    const uint64_t* from = &y[lane * result64];
    copy_limbs64(to, from, std::make_index_sequence<Op::result_limbs / 2>{});
    if constexpr (Op::result_limbs % 2 == 1) to[Op::result_limbs - 1] = uint32_t(from[Op::result_limbs / 2]);
    if constexpr (Op::flag_words > 0) to[Op::result_limbs] = uint32_t(y[Lanes * result64 + lane]);
  }
#else
  through_host64<Op, Lanes>([&](unsigned lane, unsigned w) { return in[lane * Op::in_words + w]; },
                            [&](unsigned lane, unsigned w, uint32_t v) { out[lane * Op::out_words + w] = v; });
#endif
}

// Hex text (an optional 0x, then digits, most significant first) and count words, least
// significant first: what the value types' from_hex and to_hex use.
namespace hex {
// The value of a hex digit, or -1.
inline int digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
}
// Text as a message shows it: printable ASCII as it is, any other byte as \xNN (a NUL would
// end what()), cut after at most `most` characters with "..." after them.
inline std::string escaped(std::string_view text, std::size_t most = 40) {
  std::string shown;
  for (const unsigned char c : text) {
    const std::string one = c >= 0x20 && c <= 0x7e ? std::string(1, char(c))
                                                   : std::string("\\x") + "0123456789abcdef"[c >> 4] + "0123456789abcdef"[c & 15];
    if (shown.size() + one.size() > most) return shown + "...";
    shown += one;
  }
  return shown;
}
// Throws std::invalid_argument where text is not hex (naming its first bad digit) or its
// value needs more than bits bits; messages show the text escaped.
inline void parse(std::string_view text, uint32_t* words, unsigned count, unsigned bits) {
  const std::string_view digits = text.substr(text.size() > 1 && text[0] == '0' && (text[1] | 32) == 'x' ? 2 : 0);
  const auto shown = [&] { return "'" + escaped(text) + "'"; };
  if (digits.empty()) throw std::invalid_argument(shown() + " is not a hex number");
  for (const char c : digits)  // the first bad digit, reading as written
    if (digit(c) < 0)
      throw std::invalid_argument(shown() + " is not a hex number (bad digit '" + escaped(std::string_view(&c, 1)) + "')");
  for (unsigned k = 0; k < count; ++k) words[k] = 0;
  unsigned bit = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it, bit += 4) {
    const int d = digit(*it);
    if (d == 0) continue;
    if (bit + 32 - __builtin_clz(unsigned(d)) > bits)
      throw std::invalid_argument(shown() + " is wider than " + std::to_string(bits) + " bits");
    words[bit / 32] |= uint32_t(d) << (bit % 32);
  }
}
// Lower case, no 0x, no leading zeros ("0" for zero).
inline std::string print(const uint32_t* words, unsigned count) {
  std::string text;
  for (unsigned k = count; k-- > 0;)
    for (int shift = 28; shift >= 0; shift -= 4) {
      const unsigned d = (words[k] >> shift) & 15u;
      if (d || !text.empty()) text += "0123456789abcdef"[d];
    }
  return text.empty() ? "0" : text;
}
}  // namespace hex
#endif

}  // namespace mpgen
#endif  // MPGEN_BASE

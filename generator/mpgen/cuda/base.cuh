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
#include <cstddef>
#include <cstdint>
#endif


namespace mpgen {

// Where word w of instance j of a batch of n lives: interleaved puts it at w*n + j
// (a warp's loads coalesce), contiguous at j*words + w.
enum class Layout { interleaved, contiguous };

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

}  // namespace mpgen
#endif  // MPGEN_BASE

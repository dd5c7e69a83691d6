// libFuzzer: the runtime's manifest parser (runtime/src/manifest.cpp) on any bytes either
// returns operations whose words add up or throws InputError (a one-line message); any
// other exception, crash or sanitizer report is a defect. Built and run by tests/fuzz/run.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const mpgen::OpInfo& op : mpgen::detail::parse_manifest(text, "fuzz"))
      if (op.in_words() == 0 && op.out_words() == 0) __builtin_trap();  // an operation moves words
  } catch (const mpgen::InputError& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}

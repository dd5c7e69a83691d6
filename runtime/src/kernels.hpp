// The table of generated operations: for each, its contract and its batch functions.
#pragma once
#include <vector>

#include "mpgen/runtime.hpp"

namespace mpgen::detail {

// The manifest's schema (mpgen's printers/manifest.py, SCHEMA); part of every on-demand
// cache key, so that entries of an earlier schema are never looked up.
constexpr int manifest_schema = 6;

using BatchFn = void (*)(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out);
// The host's share of a batch: instances [first, last) of n (batch.cuh's host_range).
using RangeFn = void (*)(std::size_t n, Layout layout, const uint32_t* in, uint32_t* out, std::size_t first,
                         std::size_t last);

// A generalized Fermat field's FFT: count transforms of n points (elements), one after
// another at data, in place, forward or inverse; host: on host memory; device: on device
// memory (null when built without CUDA).
using TransformFn = void (*)(std::size_t n, std::size_t count, bool inverse, uint32_t* data);
struct TransformEntry {
  TransformFn host, device;
};

struct Kernel {
  OpInfo info;
  RangeFn cpu;     // on host memory, built in (through the 64-bit list where the operation has one)
  BatchFn device;  // launches on device memory; null when built without CUDA (or its tables') or loaded
  const void* loaded = nullptr;  // a kernel loaded from PTX (a cudaKernel_t)
  const TransformEntry* transform = nullptr;  // its module's FFT (a generalized Fermat field's)
  RangeFn cpu32 = nullptr;  // on host memory through the GPU's 32-bit list, where cpu does not
  BatchFn host = nullptr;   // on host memory, from a host library loaded at run time
};

const std::vector<Kernel>& kernels();  // every size and operation built in (table.hpp)

// The tier a caller names (runtime.hpp), checked: "thread" or "group", and "" for "" and
// "auto"; throws InputError saying what is allowed.
std::string_view checked_tier(std::string_view tier);

// The product method a caller names (runtime.hpp), checked: "ntt", and "" for "" and
// "auto"; throws InputError saying what is allowed (auto, ntt).
std::string_view checked_mul(std::string_view mul);

// The checked method of a module, as find and checked_mul name it: "ntt" for products by
// transform, else "" (the manifest's auto, schoolbook or karatsuba, or none).
inline std::string_view method_of(const OpInfo& info) { return info.mul == "ntt" ? "ntt" : ""; }

// Whether info is operation op of the field (or, for an empty field, of the size in the
// checked tier and with the checked method). A size's own operations ("", "") are those of
// its module u<bits>, of the tier the generator picks for it by itself; a module of another
// tier is named u<bits>_<tier>; one whose products are by transform ends in _ntt
// (u65536_ntt, u2048_group_ntt), and only "ntt" finds it.
inline bool is_entry(const OpInfo& info, std::string_view field, unsigned bits, std::string_view op,
                     std::string_view tier, std::string_view mul = "") {
  if (info.field != field || info.name != op) return false;
  if (!field.empty()) return true;
  if (info.kind != "size" || info.bits != bits) return false;
  if (tier.empty()) return info.module == "u" + std::to_string(bits) + (mul.empty() ? "" : "_" + std::string(mul));
  return info.tier == tier && method_of(info) == mul;
}

// Adds a kernel loaded at run time: PTX (loaded) replaces an entry's device side, a host
// library's function (host) its host side.
const OpInfo& add_loaded(const Kernel& k);

// The registry's lookups (registry.cpp), built in or loaded: an integer operation (field
// empty) of a size in a checked tier with a checked method, or a field's; an RNS set's or a
// generalized Fermat field's by its module's name (kind "rns" or "gf"). Both throw
// InputError naming what is built where there is no such operation.
const Kernel& find_kernel(std::string_view field, unsigned bits, std::string_view op, std::string_view tier,
                          std::string_view mul = "");
const Kernel& find_module_kernel(std::string_view kind, std::string_view module, std::string_view op);
// Whether info is an operation of a module found by its name: an RNS set's or a generalized
// Fermat field's.
inline bool is_named_module(const OpInfo& info) { return info.kind == "rns" || info.kind == "gf"; }

// Limbs, least significant first (values.cpp): |value|'s, at least `limbs` of them; and
// whether a < b (either may be shorter: zeros above).
std::vector<uint32_t> magnitude_limbs(const mpz_t value, unsigned limbs);
bool below(const uint32_t* a, std::size_t na, const std::vector<uint32_t>& b);
inline bool below(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { return below(a.data(), a.size(), b); }

// GPU side (gpu.cu, or gpu_none.cpp when built without CUDA).
bool gpu_usable(std::string* why);
void run_on_gpu(const Kernel& k, Layout layout, std::size_t n, const uint32_t* in, uint32_t* out);
// A field's FFT (t.device) over count transforms of n points of point_words words each, in
// host memory, in place.
void transform_on_gpu(const TransformEntry& t, std::size_t n, std::size_t count, bool inverse, unsigned point_words,
                      uint32_t* data);
// The GPU's virtual architecture for NVRTC ("compute_90"); throws GpuError without one.
std::string gpu_arch();
// Loads PTX text (a module of `mpgen generate --kernels`); origin names it in errors.
// Returns the manifest's operations, registered; throws InputError/GpuError.
std::vector<OpInfo> load_module(const std::string& ptx, const std::string& origin);

// The text of a module's manifest (kernels.cu.j2), parsed; throws InputError naming origin.
std::vector<OpInfo> parse_manifest(const std::string& text, const std::string& origin);

// The files of the first module of a manifest's text (the generator's, on demand); throws
// std::invalid_argument saying what is missing.
struct ModuleFiles {
  std::string header, kernels;
};
ModuleFiles module_files(const std::string& text);

}  // namespace mpgen::detail

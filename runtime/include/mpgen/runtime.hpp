// mpgen runtime: runs the generated operations over batches of instances, on the CPU
// or on the GPU, and converts values from and to hex strings and GMP integers.
#pragma once
#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base.cuh"  // Layout: the generated headers' own definition (mpgen's headers/base.cuh)

namespace mpgen {

// Where a batch runs: the GPU, or the CPU through each operation's fastest host code (its
// 64-bit list, host64, where it has one); cpu_32 runs the GPU's own 32-bit instruction lists
// on the CPU (what the tests check the GPU's sequence with, where no GPU is; slower).
enum class Device { cpu, gpu, cpu_32 };

// Bad input: an unknown size or operation, malformed hex, an operand too wide.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The GPU was asked for and cannot be used (none present, no driver, a CUDA error).
struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The contract of one operation at one size, or of one field, as the generator's
// manifest states it (mpgen_manifest.json; the built-in table and loaded modules both
// read it). An instance's input words
// are its operands' limbs one after the other; its output words are the result limbs
// and then, if has_flag, one flag word (carry or borrow, 0 or 1; for modinv, modinv_gcd
// and modsqrt, 1 where no result exists).
struct OpInfo {
  unsigned bits;
  std::string name;
  std::vector<unsigned> operand_bits;  // width of each operand (a carry in: 1, a word: 32)
  unsigned optional_operands;          // trailing operands that may be left out (as 0)
  unsigned result_limbs;
  unsigned result_parts = 1;  // the result's numbers, result_limbs / result_parts limbs each (div_qr: q, r)
  bool has_flag;
  bool signed_result;  // the result is one word holding a signed number (cmp: -1, 0, 1)
  std::string field = "";               // the field's name; empty for integer operations
  std::vector<uint32_t> modulus = {};   // a field's modulus, limbs least significant first
  unsigned below_modulus = 0;           // bit k set: operand k must be below the modulus
  int modulus_operand = -1;             // where p is given at run time: its operand,
  int minus_inverse_operand = -1;       // and that of -p^-1 mod 2^32 where the caller gives it;
  int reciprocal_operand = -1;          // and that of Barrett's reciprocal (barrett_modmul's v);
  bool odd_modulus = true;              // whether p must be odd (Montgomery form) or may be any,
  std::string odd_modulus_because = ""; // and why it must ("Montgomery form")
  std::vector<std::string> operand_roles = {};  // each operand's role as the manifest names it
                                        // ("a", "b", "modulus"; an RNS set's "rns", "magnitude", "sign")
  std::string module = "";              // the header's name: u<bits>, the field's or the RNS set's
  std::string kind = "";                // what its module is: "size", "field", "rns" (an RNS set;
                                        // modulus: the set's M) or "gf" (a generalized Fermat field)
  std::string tier = "";                // how many threads hold one integer: "thread" or "group"
  std::string mul = "";                 // how a size's or field's products are planned: "auto",
                                        // "schoolbook", "karatsuba" or "ntt"; "" for RNS sets and GF fields
  std::string kernel = "";              // the C name of its batch kernel (mpgen_<module>_<name>)
  unsigned threads_per_instance = 0;    // launch geometry of its batch kernel
  unsigned limbs_per_thread = 0;        // the group tier: limbs each thread holds (0: the thread tier)
  unsigned block_threads = 0;
  unsigned blocks_per_instance = 1;     // > 1: a group spanning blocks, launched cooperatively,
  unsigned launch_groups = 1;           // at most this many groups a launch
  unsigned shared_bytes = 0;  // dynamic shared memory a block takes (the group products' tables)
  unsigned contiguous_shared_bytes = 0;  // dynamic shared memory a block takes for the contiguous layout
  unsigned transform_radix = 0;         // a generalized Fermat field built with its FFT: K = 2k,
  unsigned transform_largest_log = 0;   // and its longest transform, 2^transform_largest_log points
  bool host64 = false;                  // the host runs it through its 64-bit list (Device::cpu)
  bool loop = false;                    // a loop around generated operations (modexp, modinv, ...)

  unsigned operand_limbs(unsigned k) const { return (operand_bits.at(k) + 31) / 32; }
  unsigned in_words() const;
  unsigned out_words() const { return result_limbs + (has_flag ? 1 : 0); }
};

// A size's tier, where one is named (`tier` below): "thread" (one integer per thread, 32 to
// 2048 bits) or "group" (one integer per group of threads, 2048 to 262144 bits); "" or
// "auto" is the size's own module (u<bits>), the tier `mpgen generate --tier auto` picks:
// thread up to 2048 bits, group above. Any other name throws InputError saying what is
// allowed. Only at 2048 bits, which both tiers hold, does naming one choose between two.
//
// A size's product method, where one is named (`mul` below, next to the tier): "" or
// "auto" is the module `mpgen generate --mul auto` makes (u<bits>, or u<bits>_<tier>), whose
// products the generator plans by itself (schoolbook or Karatsuba in the thread tier, the
// quadratic product in the group tier); "ntt" is the module `--mul ntt` makes
// (u<bits>_ntt, or u2048_group_ntt), whose mul, mul_lo and sqr are products by
// number-theoretic transform, its other operations the usual ones: the group tier's only
// (the generator refuses it in the thread tier: InputError with its message). Both
// modules of a size may be loaded at once; each is found by its own method. Any other
// name, "schoolbook" and "karatsuba" included (their modules would bear the size's own
// name, u<bits>, and so could not be told from it), throws InputError saying what is
// allowed: auto, ntt.

// Sizes built into this runtime (and loaded since), ascending, and the operations of one
// size in a tier and a product method (none where nothing is built there).
std::vector<unsigned> sizes();
std::vector<std::string> operations(unsigned bits, std::string_view tier = "", std::string_view mul = "");

// Throws InputError naming what is available when the size, tier, method or operation is
// not built.
const OpInfo& find(unsigned bits, std::string_view op, std::string_view tier = "", std::string_view mul = "");

// Fields built into this runtime (CMake's MPGEN_RUNTIME_FIELDS: presets of `mpgen --list`),
// and the operations of one: modadd, modsub, modneg, modmul, modsqr, tomont, frommont,
// modexp, modinv, modsqrt and the others of the README, operands and results in ordinary
// form except for the Montgomery operations. Throws InputError naming what is built.
std::vector<std::string> fields();
std::vector<std::string> field_operations(std::string_view field);
const OpInfo& find_field(std::string_view field, std::string_view op);

// The checked entry point's test of one operand (Batch::set_operand uses it): throws
// InputError when its value is wider than the operand, or, for an operand that must be
// below the field's modulus, when it is not. run_batch itself checks nothing: there an
// operand not below the modulus gives an unspecified result (the same instructions run,
// nothing faults, host and GPU agree).
void check_operand(const OpInfo& op, unsigned k, const std::vector<uint32_t>& limbs);

// The test of one instance's operands together where the modulus is an operand
// (op.modulus_operand >= 0; nothing otherwise): p odd where op.odd_modulus, -p^-1 mod 2^32
// right where it is an operand, and the operands marked below_modulus below p. Throws InputError saying which operand is
// wrong and why. Batch::run applies it to every instance, mpgen-run to every line.
void check_modulus_operands(const OpInfo& op, const std::vector<std::vector<uint32_t>>& operands);

// RNS integers (Isupov and Knyazkov's, `mpgen generate --rns`): signed integers below M in magnitude,
// as residues modulo a set's moduli with a sign and an interval evaluation. The sets built
// into this runtime (CMake's MPGEN_RUNTIME_RNS: rns<n>, n moduli of 32 bits), and the
// operations of one: add, add_branching, sub, mul, neg, evaluate, sign, cmp (each set's
// header says what they do) and the conversions from_binary and to_binary. find_rns throws
// InputError naming what is built.
std::vector<std::string> rns_sets();
std::vector<std::string> rns_operations(std::string_view set);
const OpInfo& find_rns(std::string_view set, std::string_view op);

// A batch of one RNS operation (not a conversion) on signed integers. run converts the
// operands with the set's from_binary, runs the operation and converts its integer results
// back with to_binary, each a batch on the device, so that the device's own code does
// all of it.
class RnsBatch {
 public:
  RnsBatch(const OpInfo& op, std::size_t n);  // op: find_rns's; InputError for a conversion

  // Throws InputError where |value| is not below M.
  void set_operand(std::size_t j, unsigned k, const mpz_t value);
  // Runs the first `count` instances (all by default).
  void run(Device device, std::size_t count = SIZE_MAX);
  // The result of instance j: an integer, or -1, 0 or 1 for sign and cmp.
  void result(std::size_t j, mpz_t out) const;
  uint32_t flag(std::size_t j) const;  // the overflow flag of add, add_branching, sub, mul

  const OpInfo& op() const { return op_; }
  std::size_t size() const { return n_; }

 private:
  const OpInfo &op_, &from_, &to_;
  std::size_t n_;
  std::vector<uint32_t> binary_;  // from_binary's input: instance j's operand k is its instance j * operands + k
  std::vector<uint32_t> out_;     // the operation's results
  std::vector<uint32_t> binary_results_;  // to_binary's of them, where they are integers
};

// Generalized Fermat prime fields p = r^k + 1 (Mohajerani's, `mpgen generate --gf`): elements of k
// digits in radix r. The fields built into this runtime (CMake's MPGEN_RUNTIME_GF: gf<k> of
// Mohajerani's table 3.1), and the operations of one: add, sub, neg, mul, mul_r (x r^a), the
// conversions from_binary and to_binary, and what else it was built with. Their operands
// are elements (2k words, k digits below r: not checked), from_binary's an integer below p.
// find_gf throws InputError naming what is built.
std::vector<std::string> gf_fields();
std::vector<std::string> gf_operations(std::string_view field);
const OpInfo& find_gf(std::string_view field, std::string_view op);

// A batch of one field operation (not a conversion) on integers below p: run converts them
// with the field's from_binary, runs the operation and converts the results back with
// to_binary, each a batch on the device.
class GfBatch {
 public:
  GfBatch(const OpInfo& op, std::size_t n);  // op: find_gf's; InputError for a conversion

  // Throws InputError where value is not in [0, p), or, for mul_r's shift, not in [0, 2k).
  void set_operand(std::size_t j, unsigned k, const mpz_t value);
  void run(Device device, std::size_t count = SIZE_MAX);  // the first `count` instances
  void result(std::size_t j, mpz_t out) const;           // an integer below p

  const OpInfo& op() const { return op_; }
  std::size_t size() const { return n_; }

 private:
  const OpInfo &op_, &from_, &to_;
  std::size_t n_;
  unsigned elements_ = 0, shifts_ = 0;  // operands of each kind (elements first)
  std::vector<uint32_t> binary_;  // from_binary's input: instance j's element operand k at j * elements_ + k
  std::vector<uint32_t> shift_;   // the shifts, as given
  std::vector<uint32_t> out_;     // to_binary's results
};

// The FFT of a field built with it (`fft` in its ops; OpInfo::transform_radix): count
// transforms of n points each (n = K^e, K = 2k, e >= 1, at most 2^transform_largest_log),
// each point an integer below p in 2k words, one transform after another at values, in
// place: forward (X_j = sum_i x_i w^(i j), w the field's primitive n-th root with
// w^(n/K) = r) or inverse (with the scaling by n^-1). The conversions and the transforms run
// on the device. Throws InputError for a field without the FFT, a bad n, a value not below p.
void gf_transform(std::string_view field, Device device, std::size_t n, std::size_t count, bool inverse,
                  uint32_t* values);

// Loads the kernels of a PTX file written by `mpgen generate --ptx` (or --kernels and
// nvcc -ptx); find() and run_batch() then know its operations, on the GPU only. Throws
// InputError naming the file when it cannot be read or holds no mpgen kernels, GpuError
// when no GPU can load it. Returns the operations it added.
std::vector<OpInfo> load_ptx(const std::string& path);

// For a size (or a size's tier, or its products by transform) built nowhere: generates the
// operation with mpgen's generator (`--tier TIER` and `--mul ntt` where named) and compiles
// it, for the GPU present with NVRTC (to PTX), or for the CPU with the host's C++ compiler
// ($MPGEN_CXX, else c++) into a shared library; caches it on disk (in $MPGEN_CACHE, else
// $XDG_CACHE_HOME/mpgen or ~/.cache/mpgen, named by a hash of the request, its tier and
// method included, the target, mpgen's version and a fingerprint of the generator's
// content, so that an entry made by another generator is never taken) and loads it, so that
// find(bits, op, tier, mul) finds it too. A cache entry that does not load or does not hold
// the request is rebuilt, never run. Throws InputError for a bad request (a tier that does
// not hold the size, ntt in the thread tier: the generator's message), GpuError without a
// GPU (Device::gpu), CompileError when generation or compilation fails or no generator is
// found (even where the cache holds an entry: whose generator made it cannot be told then).
const OpInfo& compile_on_demand(unsigned bits, std::string_view op, Device device = Device::gpu,
                                std::string_view tier = "", std::string_view mul = "");

// The same for several operations of one size at once: one generator run and one
// compilation (one cache entry, keyed by the list) for them all, in the order given; what
// a program that needs many of a size's operations asks for first.
std::vector<const OpInfo*> compile_on_demand(unsigned bits, const std::vector<std::string>& ops,
                                             Device device = Device::gpu, std::string_view tier = "",
                                             std::string_view mul = "");

// The same for a field of any modulus, odd or even, read as `mpgen generate --modulus`
// reads it: 0x and hex digits, else decimal digits ("13" is thirteen, "0x13" nineteen),
// in `bits`-bit numbers (0: the modulus' width). Throws InputError for a bad modulus or
// an operation it cannot have (the generator's message).
const OpInfo& compile_field_on_demand(std::string_view modulus, std::string_view op, unsigned bits = 0,
                                      Device device = Device::gpu);

// Generation or NVRTC compilation failed; the message names the request or the file.
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The steps of compile_on_demand, usable without a GPU: the CUDA source of the C-named
// kernels of one operation (runs the generator: Python 3 with jinja2, $MPGEN_PYTHON),
// and NVRTC's compilation of such a source to PTX for an architecture ("sm_90").
struct KernelSource {
  std::string header_name, header, kernels;  // mpgen_u<bits>[_<tier>][_ntt].cuh and the kernels source
};
KernelSource generate_source(unsigned bits, std::string_view op, std::string_view tier = "",
                             std::string_view mul = "");
KernelSource generate_field_source(std::string_view modulus, std::string_view op, unsigned bits = 0);
std::string compile_to_ptx(const KernelSource& source, const std::string& arch);

// The threads a batch on the CPU runs on: $MPGEN_CPU_THREADS (1 to 1024), else every core
// (std::thread::hardware_concurrency). Throws InputError for any other value of the variable.
unsigned cpu_threads();

// True when a CUDA GPU can run kernels; otherwise false, with the reason in *why.
bool gpu_available(std::string* why = nullptr);

// Runs op over n instances: in holds op.in_words() * n words, out op.out_words() * n,
// both in host memory and in the given layout. Throws GpuError for Device::gpu when
// no GPU can be used. On the CPU a built-in operation's batch is split over cpu_threads()
// threads, each taking at least 4,096 instances (16 of a loop); a host library compiled on
// demand runs on the calling thread.
void run_batch(const OpInfo& op, Device device, Layout layout, std::size_t n, const uint32_t* in,
               uint32_t* out);

// A batch of instances of one operation, with its words laid out for run_batch.
class Batch {
 public:
  Batch(const OpInfo& op, std::size_t n, Layout layout = Layout::interleaved);

  // Sets operand k of instance j; throws InputError as check_operand does.
  void set_operand(std::size_t j, unsigned k, const std::vector<uint32_t>& limbs);
  // Runs the batch; first, where the modulus is an operand, check_modulus_operands on each
  // instance (its InputError then names the instance).
  void run(Device device);
  std::vector<uint32_t> operand(std::size_t j, unsigned k) const;  // operand k of instance j, as set
  std::vector<uint32_t> result(std::size_t j) const;  // the result limbs of instance j
  uint32_t flag(std::size_t j) const;                 // its flag word (has_flag only)

  const OpInfo& op() const { return op_; }
  std::size_t size() const { return n_; }

 private:
  std::size_t index(std::size_t words, std::size_t w, std::size_t j) const;
  unsigned first_word(unsigned k) const;  // operand k's first word in an instance's words
  const OpInfo& op_;
  std::size_t n_;
  Layout layout_;
  std::vector<uint32_t> in_, out_;
};

// Values. limbs are 32-bit, least significant first.
// parse_hex accepts an optional 0x and hex digits; throws InputError when the text is
// not hex (naming its first bad digit) or its value needs more than `bits` bits, the text
// shown escaped().
std::vector<uint32_t> parse_hex(std::string_view text, unsigned bits);
std::string to_hex(const std::vector<uint32_t>& limbs);  // lowercase, no 0x, no leading zeros
void to_mpz(mpz_t out, const std::vector<uint32_t>& limbs);
std::vector<uint32_t> from_mpz(const mpz_t value, unsigned bits);  // throws InputError if wider

// Text as the runtime's messages (and mpgen-run's) show what they were given: printable
// ASCII as it is, any other byte (a NUL, a control character, a byte above 0x7e) as \xNN,
// cut after at most `most` characters of the shown text with "..." after them. A message
// so made is one line of printable ASCII, whole through what(), however binary the input.
using hex::escaped;  // (base.cuh's, which the value types' messages use too)

}  // namespace mpgen

// mpgen-run: runs one operation on operands read from stdin, one instance per line.
//
// It streams: lines are parsed into a batch of instances, which runs (and its results are
// printed and flushed) as soon as it is full or as soon as no more input is waiting, so
// that memory stays bounded for any length of input and a user typing one line gets its
// result at once. Each operand keeps only its first characters (for messages) and its
// significant digits, so a long line costs no more memory than a short one.
#include <CLI/CLI.hpp>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "line_reader.hpp"
#include "mpgen/runtime.hpp"

namespace {

using mpgen::run_input::LineReader;
using mpgen::run_input::Operand;
using mpgen::run_input::parse_operand;

// Prints the one line of an error. Input in messages is shown escaped where they are made
// (mpgen::escaped, cut short); here any byte that still is not printable ASCII (from
// CLI11's messages, say) is escaped too, so that the line is one line of text.
int fail(const std::string& message, int status) {
  std::cout.flush();  // the results of the lines before it come first
  std::cerr << "mpgen-run: error: " << mpgen::escaped(message, std::string::npos) << "\n";
  return status;
}

// A batch holds at most 65536 instances and at most 8 MiB of words (operands and results).
// On the GPU each batch costs a few allocations, two copies, a launch and a
// synchronisation (some 0.1 to 0.3 ms): over 65536 instances, under 5 ns a line, well
// below the cost of parsing the line; and 65536 instances are 512 blocks of 128 threads,
// several per SM of the largest GPUs. Larger batches would gain nothing but memory and
// delay: 65536 64-bit additions hold 2 MiB of words. The 8 MiB cap keeps the widest
// operations bounded too (2048-bit mad: about 6500 instances of 1.3 KB).
constexpr std::size_t most_instances = 65536, most_batch_bytes = 8u << 20;
// Where no more input is waiting, the GPU waits this long for more before it runs a
// partial batch (a pipe being filled a little slower than it is read stays in large
// batches; a person typing does not notice 1 ms). The CPU runs at once.
constexpr int gpu_grace_ms = 1;

struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The instances read so far, run and printed together: an operation's own (Words) or an
// RNS set's (Integers).
class Runner {
 public:
  virtual ~Runner() = default;
  bool empty() const { return n_ == 0; }
  bool full() const { return n_ == capacity_; }
  // One line's operands (count of them, the operation's number) into the next instance;
  // "" or what is wrong with them.
  virtual std::string add(const std::vector<Operand>& operands, std::size_t count) = 0;
  // Where the input may not end (inside an FFT's transform): what is wrong; else "".
  virtual std::string at_end() const { return ""; }
  void run() {
    if (n_ == 0) return;
    n_ = run_and_print();
    errno = 0;
    if (!std::cout.flush())
      throw WriteError(std::string("cannot write the results") + (errno ? ": " + std::string(std::strerror(errno)) : ""));
  }

 protected:
  // Runs and prints the instances read; returns how many of them it keeps for the next run.
  virtual std::size_t run_and_print() = 0;
  std::size_t capacity_ = 1, n_ = 0;
};

// Instances of a size's or a field's operation: hex operands and results. They are in
// the contiguous layout, so that a partial batch is a prefix of the buffers: the GPU's
// kernels are slower on it for some word counts (2048-bit add: docs/performance.md), but
// here a batch's time on the GPU is mostly its copies in and out, which the layout does not
// change.
class Words : public Runner {
 public:
  Words(const mpgen::OpInfo& info, mpgen::Device device)
      : info_(info), device_(device), in_words_(info.in_words()), out_words_(info.out_words()) {
    capacity_ = std::clamp<std::size_t>(most_batch_bytes / (4 * (in_words_ + out_words_)), 1, most_instances);
    in_.resize(capacity_ * in_words_);
    out_.resize(capacity_ * out_words_);
    limbs_.resize(info.result_limbs / info.result_parts);  // one part of the result
    // Nothing to run: fails now, before any input is read, where the device cannot run it.
    mpgen::run_batch(info_, device_, mpgen::Layout::contiguous, 0, in_.data(), out_.data());
  }

  std::string add(const std::vector<Operand>& operands, std::size_t count) override {
    std::vector<std::vector<uint32_t>> values(info_.operand_bits.size());  // an optional operand left out: 0
    for (unsigned k = 0; k < count; ++k) {
      try {
        values[k] = parse_operand(operands[k], info_.operand_bits[k]);
      } catch (const mpgen::InputError& e) {
        return "operand " + std::to_string(k + 1) + ": " + e.what();
      }
      try {
        mpgen::check_operand(info_, k, values[k]);  // names the operand itself
      } catch (const mpgen::InputError& e) {
        return e.what();
      }
    }
    try {
      mpgen::check_modulus_operands(info_, values);
    } catch (const mpgen::InputError& e) {
      return e.what();
    }
    uint32_t* words = in_.data() + n_ * in_words_;
    for (unsigned k = 0; k < values.size(); ++k) {
      values[k].resize(info_.operand_limbs(k), 0);
      words = std::copy(values[k].begin(), values[k].end(), words);
    }
    ++n_;
    return "";
  }

 private:
  std::size_t run_and_print() override {
    mpgen::run_batch(info_, device_, mpgen::Layout::contiguous, n_, in_.data(), out_.data());
    for (std::size_t j = 0; j < n_; ++j) {
      const uint32_t* y = out_.data() + j * out_words_;
      if (info_.signed_result)
        std::cout << int32_t(y[0]);
      else {
        const unsigned part = info_.result_limbs / info_.result_parts;
        for (unsigned k = 0; k < info_.result_parts; ++k) {
          std::copy(y + k * part, y + (k + 1) * part, limbs_.begin());
          std::cout << (k ? " " : "") << mpgen::to_hex(limbs_);
        }
      }
      if (info_.has_flag) std::cout << ' ' << y[info_.result_limbs];
      std::cout << '\n';
    }
    return 0;
  }

  const mpgen::OpInfo& info_;
  mpgen::Device device_;
  unsigned in_words_, out_words_;
  std::vector<uint32_t> in_, out_, limbs_;
};

// An integer operand of an RNS set (signed) or a generalized Fermat field (below p): decimal or
// 0x hex, its value into `value`; "" or what is wrong with it.
struct Mpz {
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  mpz_t v;
};

std::string parse_integer(const Operand& t, unsigned k, const mpgen::OpInfo& info, mpz_t value) {
  const std::size_t most = t.length - t.start - (t.prefix ? 2 : 0);  // the digits it has
  if (t.bad_seen || most == 0 || t.significant > t.digits.size()) {
    const std::string limit = info.kind == "rns" ? "not below M of " + info.module + " in magnitude"
                                                 : "not below p of " + info.module;
    return "operand " + std::to_string(k + 1) + ": '" + t.shown() + "' is " +
           (t.significant > t.digits.size()
                ? limit
                : "not a decimal or 0x hex integer" + (t.bad_seen ? " (bad digit '" + t.shown_bad() + "')" : ""));
  }
  mpz_set_str(value, t.digits.empty() ? "0" : t.digits.c_str(), t.prefix ? 16 : 10);
  if (t.negative) mpz_neg(value, value);
  return "";
}

// Decimal digits enough for any integer below the module's M or p (more than its hex digits).
std::size_t most_digits(const mpgen::OpInfo& info) { return info.modulus.size() * 32 * 30103 / 100000 + 2; }

void print_integer(mpz_t value, bool hex) {
  if (hex && mpz_sgn(value) < 0) std::cout << '-';
  if (hex) mpz_abs(value, value);
  char* text = mpz_get_str(nullptr, hex ? 16 : 10, value);
  std::cout << (hex ? "0x" : "") << text;
  void (*release)(void*, std::size_t);
  mp_get_memory_functions(nullptr, nullptr, &release);
  release(text, std::strlen(text) + 1);
}

std::size_t capacity_of(const mpgen::OpInfo& info) {
  return std::clamp<std::size_t>(most_batch_bytes / (4 * (info.in_words() + info.out_words())), 1, most_instances);
}

// Instances of an RNS set's operation (mpgen::RnsBatch: signed integers below M in magnitude;
// results then the overflow flag) or a generalized Fermat field's (mpgen::GfBatch: integers
// below p), converted and run by the batch; results in decimal (or 0x hex).
template <class Batch>
class Integers : public Runner {
 public:
  Integers(const mpgen::OpInfo& info, mpgen::Device device, bool hex)
      : device_(device), hex_(hex), batch_(info, capacity_of(info)) {
    capacity_ = batch_.size();
    batch_.run(device_, 0);  // fails now where the device cannot run it
  }

  const mpgen::OpInfo& op() const { return batch_.op(); }

  std::string add(const std::vector<Operand>& operands, std::size_t count) override {
    Mpz value;
    for (unsigned k = 0; k < count; ++k) {
      const std::string error = parse_integer(operands[k], k, batch_.op(), value.v);
      if (!error.empty()) return error;
      try {
        batch_.set_operand(n_, k, value.v);
      } catch (const mpgen::InputError& e) {
        return e.what();
      }
    }
    ++n_;
    return "";
  }

 private:
  std::size_t run_and_print() override {
    batch_.run(device_, n_);
    Mpz r;
    for (std::size_t j = 0; j < n_; ++j) {
      batch_.result(j, r.v);
      print_integer(r.v, hex_);
      if constexpr (std::is_same_v<Batch, mpgen::RnsBatch>)
        if (batch_.op().has_flag) std::cout << ' ' << batch_.flag(j);
      std::cout << '\n';
    }
    return 0;
  }

  mpgen::Device device_;
  bool hex_;
  Batch batch_;
};

// The FFT of a generalized Fermat field (--fft N): one integer below p a line, N lines a
// transform; whole transforms run together, their outputs one a line.
class Transforms : public Runner {
 public:
  Transforms(const std::string& field, std::size_t n, bool inverse, mpgen::Device device, bool hex)
      : field_(field), info_(mpgen::find_gf(field, "from_binary")), n_points_(n), inverse_(inverse),
        device_(device), hex_(hex) {
    const unsigned words = info_.in_words();
    capacity_ = n * std::max<std::size_t>(1, most_batch_bytes / (4 * words * n));  // whole transforms
    values_.resize(capacity_ * words);
    mpgen::to_mpz(p_.v, info_.modulus);
    mpgen::gf_transform(field_, device_, n_points_, 0, inverse_, values_.data());  // checks the field and n now
  }

  const mpgen::OpInfo& op() const { return info_; }

  std::string add(const std::vector<Operand>& operands, std::size_t) override {
    Mpz value;
    const std::string error = parse_integer(operands[0], 0, info_, value.v);
    if (!error.empty()) return error;
    const unsigned words = info_.in_words();
    if (mpz_sgn(value.v) < 0 || mpz_sizeinbase(value.v, 2) > 32 * words ||
        mpz_cmp(value.v, p_.v) >= 0)
      return "'" + operands[0].shown() + "' is not an integer from 0 to p - 1 of " + field_;
    uint32_t* at = values_.data() + n_ * words;
    std::fill(at, at + words, 0);
    mpz_export(at, nullptr, -1, sizeof(uint32_t), 0, 0, value.v);
    ++n_;
    return "";
  }

  std::string at_end() const override {
    return n_ == 0 ? ""
                   : "the input ends inside a transform: " + std::to_string(n_) + " values after the last whole one; " +
                         "--fft " + std::to_string(n_points_) + " takes " + std::to_string(n_points_) +
                         " values (one a line) a transform";
  }

 private:
  std::size_t run_and_print() override {
    const std::size_t whole = n_ / n_points_ * n_points_, words = info_.in_words();
    if (whole == 0) return n_;
    mpgen::gf_transform(field_, device_, n_points_, whole / n_points_, inverse_, values_.data());
    Mpz r;
    for (std::size_t j = 0; j < whole; ++j) {
      mpz_import(r.v, words, -1, sizeof(uint32_t), 0, 0, values_.data() + j * words);
      print_integer(r.v, hex_);
      std::cout << '\n';
    }
    std::copy(values_.begin() + whole * words, values_.begin() + n_ * words, values_.begin());
    return n_ - whole;
  }

  std::string field_;
  const mpgen::OpInfo& info_;
  std::size_t n_points_;
  bool inverse_;
  mpgen::Device device_;
  bool hex_;
  std::vector<uint32_t> values_;
  Mpz p_;  // the field's modulus
};

// True when input is waiting on stdin (or poll cannot tell: then read decides), within
// timeout_ms.
bool input_waiting(int timeout_ms) {
  pollfd p{0, POLLIN, 0};
  for (;;) {
    const int r = poll(&p, 1, timeout_ms);
    if (r >= 0) return r > 0;
    if (errno != EINTR) return true;
  }
}

// Reads stdin to its end, line by line, running the instances in batches. Returns the
// exit status.
int stream(Runner& runner, const mpgen::OpInfo& info, const std::string& op, mpgen::Device device) {
  const bool integers = info.kind == "rns" || info.kind == "gf";  // decimal or 0x hex, perhaps signed
  const std::size_t most = info.operand_bits.size(), least = most - info.optional_operands;
  std::vector<std::size_t> digits(most);
  for (unsigned k = 0; k < most; ++k) digits[k] = integers ? most_digits(info) : (info.operand_bits[k] + 3) / 4;
  LineReader reader(digits, integers);

  // The line just read: added to the batch; an error message for a bad one.
  auto end_line = [&](const std::vector<Operand>& operands, std::size_t count, std::size_t number) -> std::string {
    const std::string where = "line " + std::to_string(number) + ": ";
    if (count < least || count > most)
      return where + std::to_string(count) + " operands; " + op + " takes " +
             (least == most ? std::to_string(most) : std::to_string(least) + " or " + std::to_string(most));
    const std::string error = runner.add(operands, count);
    if (!error.empty()) return where + error;
    if (runner.full()) runner.run();
    return "";
  };

  const int grace_ms = device == mpgen::Device::gpu ? gpu_grace_ms : 0;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    if (!runner.empty() && !input_waiting(grace_ms)) runner.run();  // nothing more waits: answer now
    ssize_t got = read(0, buffer.data(), buffer.size());
    if (got < 0) {
      const int error = errno;
      if (error == EINTR) continue;
      if (error == EAGAIN || error == EWOULDBLOCK) {  // stdin was left non-blocking
        pollfd p{0, POLLIN, 0};
        poll(&p, 1, -1);
        continue;
      }
      runner.run();
      return fail("cannot read stdin (line " + std::to_string(reader.line()) + "): " + std::strerror(error), 1);
    }
    if (got == 0) {  // the end, perhaps after a last line with no newline
      std::string error = reader.finish(end_line);
      runner.run();
      if (error.empty()) error = runner.at_end();
      return error.empty() ? 0 : fail(error, 2);
    }
    const std::string error = reader.feed(std::string_view(buffer.data(), std::size_t(got)), end_line);
    if (!error.empty()) {
      runner.run();
      return fail(error, 2);
    }
  }
}

// What the command line asks for.
struct Request {
  unsigned bits = 0;
  std::string op, field, modulus, rns, gf, device = "cpu", tier, mul;
  bool list = false, hex = false, inverse = false;
  bool given_modulus = false;  // --modulus, even empty (then the modulus' own message)
  std::size_t fft_points = 0;
  std::vector<std::string> ptx_files;
};

const char* const description =
    "Runs an mpgen operation on hex operands from stdin, one instance per line "
    "(operands separated by spaces); prints one result per line in hex, followed "
    "by the carry or borrow for operations that have one. RNS integers (--rns) are "
    "signed, in decimal or 0x hex; a generalized Fermat field's (--gf) below p, likewise.";

const char* const footer =
    "Operands are hex, as wide as the operation says (--list shows each); add and sub take\n"
    "an optional carry or borrow in as a third operand. cmp prints -1, 0 or 1. Blank lines\n"
    "are skipped. Results come as the lines are read: a batch runs when it is full or when\n"
    "no more input is waiting.\n"
    "examples:\n"
    "  echo 'ffffffff 1' | mpgen-run --bits 64 --op add      # 100000000 0\n"
    "  echo '3 5' | mpgen-run --bits 131 --op mul --device gpu  # f\n"
    "  echo '1 21' | mpgen-run --bits 256 --op shl           # 200000000\n"
    "  echo '2 3' | mpgen-run --field secp256k1 --op modexp  # 8 (a field: operands below p)\n"
    "  echo '4' | mpgen-run --field bn254_fp --op modsqrt    # a root and 0, or 0 1 for a non-square\n"
    "  echo '3' | mpgen-run --modulus 0xb --op modinv           # 4 0 (compiled now, then cached)\n"
    "  echo '2 7' | mpgen-run --modulus 13 --op modmul          # 1 (a decimal modulus; operands hex)\n"
    "  echo '64 7' | mpgen-run --bits 256 --op div_qr          # e 2 0 (quotient, remainder, flag)\n"
    "  echo '2 3 fb' | mpgen-run --bits 64 --op modexp         # 8 0 (the modulus an operand)\n"
    "  echo '3 5' | mpgen-run --bits 173 --op mul --device gpu  # a size built nowhere: compiled now\n"
    "  echo '3 5' | mpgen-run --bits 2048 --tier group --op mul  # f (2048 bits in the group tier: compiled now)\n"
    "  echo '3 5' | mpgen-run --bits 65536 --mul ntt --op mul    # f (products by transform: compiled now)\n"
    "  echo '-7 0x10' | mpgen-run --rns rns8 --op mul           # -112 0 (the product, the overflow flag)\n"
    "  echo '-7 5' | mpgen-run --rns rns8 --op cmp              # -1\n"
    "  echo '3 5' | mpgen-run --gf gf8 --op mul                 # 15 (p = (2^63+2^34)^8+1)\n"
    "  seq 1 16 | mpgen-run --gf gf8 --fft 16                   # the DFT of 1..16, one output a line\n"
    "  mpgen generate --bits 200 --ops add --ptx --out k && echo '1 2' | mpgen-run --bits 200 --op add \\\n"
    "      --device gpu --ptx k/mpgen_u200.ptx              # 3 0";

// The command line's options, into r.
void add_options(CLI::App& app, Request& r) {
  app.add_flag("--list", r.list, "show the built sizes and operations with their operands' widths");
  auto* bits_option = app.add_option("--bits", r.bits, "size in bits; with --modulus, the field's width (at least "
                                     "the modulus', as for mpgen generate)");
  auto* field_option = app.add_option("--field", r.field, "a field built into the runtime (see --list): its "
                                      "operations, operands below its modulus")->excludes(bits_option);
  auto* modulus_option = app.add_option("--modulus", r.modulus, "any modulus, up to 2048 bits, as mpgen generate "
                                        "--modulus reads it: 0x... hex or decimal (13 is thirteen; the operands "
                                        "on the lines stay hex): its field's operations, generated and compiled "
                                        "now for the device, then cached")->excludes(field_option);
  app.add_option("--tier", r.tier, "with --bits: thread (one integer per thread, up to 2048 bits) or group "
                 "(a group of threads, from 2048 bits); default auto: thread up to 2048 bits, group above; "
                 "one not built is compiled now")->needs(bits_option)->excludes(modulus_option);
  app.add_option("--mul", r.mul, "with --bits: how mul, mul_lo and sqr multiply: ntt (by number-theoretic "
                 "transform; the group tier only: above 2048 bits, or 2048 with --tier group) or auto (the "
                 "default, the generator's own choice); a module not built is compiled now")
      ->needs(bits_option)->excludes(modulus_option);
  auto* rns_option = app.add_option("--rns", r.rns, "an RNS set built into the runtime (see --list; rns8: 8 "
                                    "moduli of 32 bits): its operations on signed integers below M in "
                                    "magnitude, in decimal or 0x hex (-0x1f), results in decimal")
                         ->excludes(bits_option)->excludes(field_option)->excludes(modulus_option);
  auto* gf_option = app.add_option("--gf", r.gf, "a generalized Fermat field built into the runtime (see --list; "
                                   "gf8: p = (2^63+2^34)^8+1): its operations on integers below p, in "
                                   "decimal or 0x hex, results in decimal")
                        ->excludes(bits_option)->excludes(field_option)->excludes(modulus_option)->excludes(rns_option);
  auto* fft_option = app.add_option("--fft", r.fft_points, "with --gf: the FFT of N points (N = K^e, K = 2k): one "
                                    "integer below p a line, N lines a transform, as many transforms as given; "
                                    "prints the outputs one a line")->needs(gf_option);
  app.add_flag("--inverse", r.inverse, "with --fft: the inverse transform (scaled by 1/N)")->needs(fft_option);
  app.add_flag("--hex", r.hex, "with --rns or --gf: print the results in hex (0x1f)");
  app.add_option("--op", r.op, "operation")->excludes(fft_option);
  app.add_option("--device", r.device, "where to run: cpu or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--ptx", r.ptx_files, "load the kernels of a PTX file from 'mpgen generate --ptx' (GPU)");
}

// --list: the sizes built in with their operations (and operands' widths), the fields, the
// RNS sets and the generalized Fermat fields.
void print_list() {
  for (unsigned b : mpgen::sizes()) {
    std::cout << b << " bits:";
    for (const auto& name : mpgen::operations(b)) {
      const auto& info = mpgen::find(b, name);
      std::cout << ' ' << name << '(';
      for (unsigned k = 0; k < info.operand_bits.size(); ++k)
        std::cout << (k ? "," : "") << info.operand_bits[k];
      std::cout << ')';
    }
    std::cout << '\n';
  }
  for (const auto& name : mpgen::fields()) {
    std::cout << "field " << name << ":";
    for (const auto& op_name : mpgen::field_operations(name)) std::cout << ' ' << op_name;
    std::cout << '\n';
  }
  for (const auto& name : mpgen::rns_sets()) {
    std::cout << "rns " << name << " (|x| < 0x" << mpgen::to_hex(mpgen::find_rns(name, "add").modulus) << "):";
    for (const auto& op_name : mpgen::rns_operations(name))
      if (op_name != "from_binary" && op_name != "to_binary") std::cout << ' ' << op_name;  // inside each run
    std::cout << '\n';
  }
  for (const auto& name : mpgen::gf_fields()) {
    const auto& from = mpgen::find_gf(name, "from_binary");
    std::cout << "gf " << name << " (p = 0x" << mpgen::to_hex(from.modulus) << "):";
    for (const auto& op_name : mpgen::gf_operations(name))
      if (op_name != "from_binary" && op_name != "to_binary") std::cout << ' ' << op_name;  // inside each run
    if (from.transform_radix)
      std::cout << "; --fft N: N = " << from.transform_radix << "^e up to 2^" << from.transform_largest_log;
    std::cout << '\n';
  }
}

// The instances of the request, streamed from stdin: a size's or a field's operation (built
// in, or generated and compiled now), an RNS set's, a generalized Fermat field's or its FFT.
// Returns the exit status.
int run(const Request& r) {
  for (const auto& path : r.ptx_files) mpgen::load_ptx(path);
  const mpgen::Device where = r.device == "gpu" ? mpgen::Device::gpu : mpgen::Device::cpu;
  if (!r.rns.empty()) {
    Integers<mpgen::RnsBatch> runner(mpgen::find_rns(r.rns, r.op), where, r.hex);
    return stream(runner, runner.op(), r.op, where);
  }
  if (!r.gf.empty() && r.fft_points) {
    Transforms runner(r.gf, r.fft_points, r.inverse, where, r.hex);
    return stream(runner, runner.op(), "--fft", where);
  }
  if (!r.gf.empty()) {
    Integers<mpgen::GfBatch> runner(mpgen::find_gf(r.gf, r.op), where, r.hex);
    return stream(runner, runner.op(), r.op, where);
  }
  // A size (in its tier, with its product method) or a modulus built nowhere: generated
  // and compiled now, for the GPU or the CPU (cached on disk); the generator checks the
  // request (--bits with --modulus: the field's width; a tier that does not hold the size;
  // ntt in the thread tier).
  const bool unbuilt = mpgen::operations(r.bits, r.tier, r.mul).empty();  // checks the tier's and the method's names
  const mpgen::OpInfo& info = r.given_modulus    ? mpgen::compile_field_on_demand(r.modulus, r.op, r.bits, where)
                              : !r.field.empty() ? mpgen::find_field(r.field, r.op)
                              : unbuilt          ? mpgen::compile_on_demand(r.bits, r.op, where, r.tier, r.mul)
                                                 : mpgen::find(r.bits, r.op, r.tier, r.mul);
  Words runner(info, where);
  return stream(runner, info, r.op, where);
}

// run(r), its errors as one line each: exit status 2 for bad input, 1 for the rest.
int run_reporting(const Request& r) {
  try {
    return run(r);
  } catch (const mpgen::InputError& e) {
    return fail(e.what(), 2);
  } catch (const mpgen::GpuError& e) {
    return fail(e.what(), 1);
  } catch (const mpgen::CompileError& e) {
    return fail(e.what(), 1);
  } catch (const WriteError& e) {
    return fail(e.what(), 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);  // stdout buffered, flushed after each batch
  CLI::App app{description, "mpgen-run"};
  app.footer(footer);
  Request r;
  add_options(app, r);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }
  r.given_modulus = app.get_option("--modulus")->count() > 0;
  if (r.hex && r.rns.empty() && r.gf.empty()) return fail("--hex: prints the results of --rns or --gf in hex", 2);
  if (r.list) {
    print_list();
    return 0;
  }
  if (app.get_option("--bits")->count() > 0 && !r.bits) return fail("--bits 0: give a size of 1 bit or more", 2);
  if ((!r.bits && r.field.empty() && !r.given_modulus && r.rns.empty() && r.gf.empty()) ||
      (r.op.empty() && !r.fft_points))
    return fail("--bits, --field, --modulus, --rns or --gf, and --op (or --gf with --fft), are required (or --list)", 2);
  return run_reporting(r);
}

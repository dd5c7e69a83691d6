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

#include "mpgen/runtime.hpp"

namespace {

int fail(const std::string& message, int status) {
  std::cout.flush();  // the results of the lines before it come first
  std::cerr << "mpgen-run: error: " << message << "\n";
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

// Messages echo at most this many characters of an operand, then "..." and its length.
constexpr std::size_t shown_chars = 40;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

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
std::vector<uint32_t> parse_operand(const Operand& t, unsigned bits) {
  if (t.length <= shown_chars) return mpgen::parse_hex(t.head, bits);  // its own messages, whole
  if (t.bad_seen)
    throw mpgen::InputError("'" + t.head.substr(0, shown_chars) + "...' (" + std::to_string(t.length) +
                            " characters) is not a hex number (bad digit '" + t.bad + "')");
  const unsigned top = t.significant ? 32 - __builtin_clz(unsigned(mpgen::hex::digit(t.digits[0]))) : 0;
  if (t.significant && 4 * (t.significant - 1) + top > bits) {
    const std::size_t skip = t.prefix ? 2 : 0;
    throw mpgen::InputError("operand 0x" + t.head.substr(skip, shown_chars) + "... (" +
                            std::to_string(t.length - skip) + " digits) is wider than " + std::to_string(bits) +
                            " bits");
  }
  return mpgen::parse_hex(t.digits.empty() ? "0" : t.digits, bits);  // all its digits: it fits
}

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
  void run() {
    if (n_ == 0) return;
    run_and_print();
    n_ = 0;
    errno = 0;
    if (!std::cout.flush())
      throw WriteError(std::string("cannot write the results") + (errno ? ": " + std::string(std::strerror(errno)) : ""));
  }

 protected:
  virtual void run_and_print() = 0;
  std::size_t capacity_ = 1, n_ = 0;
};

// Instances of a size's or a field's operation: hex operands and results. They are in
// the contiguous layout, so that a partial batch is a prefix of the buffers: the GPU's
// kernels are slower on it for some word counts (bench/NOTES.md), but here a batch's time
// on the GPU is mostly its copies in and out, which the layout does not change.
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
  void run_and_print() override {
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
  }

  const mpgen::OpInfo& info_;
  mpgen::Device device_;
  unsigned in_words_, out_words_;
  std::vector<uint32_t> in_, out_, limbs_;
};

// Instances of an RNS set's operation: signed decimal or 0x-hex operands, converted and
// run by mpgen::RnsBatch; results in decimal (or signed 0x hex), then the overflow flag.
class Integers : public Runner {
 public:
  Integers(const mpgen::OpInfo& info, mpgen::Device device, bool hex)
      : device_(device), hex_(hex), batch_(info, capacity(info)) {
    capacity_ = batch_.size();
    batch_.run(device_, 0);  // fails now where the device cannot run it
  }

  const mpgen::OpInfo& op() const { return batch_.op(); }

  std::string add(const std::vector<Operand>& operands, std::size_t count) override {
    Mpz value;
    for (unsigned k = 0; k < count; ++k) {
      const Operand& t = operands[k];
      const std::size_t most = t.length - t.start - (t.prefix ? 2 : 0);  // the digits it has
      if (t.bad_seen || most == 0 || t.significant > t.digits.size()) {
        const std::string shown = t.length <= shown_chars ? t.head : t.head.substr(0, shown_chars) + "...";
        return "operand " + std::to_string(k + 1) + ": '" + shown + "' is " +
               (t.significant > t.digits.size() ? "not below M of " + batch_.op().module + " in magnitude"
                                               : "not a decimal or 0x hex integer" +
                                                     (t.bad_seen ? std::string(" (bad digit '") + t.bad + "')" : ""));
      }
      mpz_set_str(value.v, t.digits.empty() ? "0" : t.digits.c_str(), t.prefix ? 16 : 10);
      if (t.negative) mpz_neg(value.v, value.v);
      try {
        batch_.set_operand(n_, k, value.v);
      } catch (const mpgen::InputError& e) {
        return e.what();
      }
    }
    ++n_;
    return "";
  }

  // Decimal digits enough for any magnitude below M (more than its hex digits).
  static std::size_t most_digits(const mpgen::OpInfo& info) { return info.modulus.size() * 32 * 30103 / 100000 + 2; }

 private:
  struct Mpz {
    Mpz() { mpz_init(v); }
    ~Mpz() { mpz_clear(v); }
    mpz_t v;
  };

  static std::size_t capacity(const mpgen::OpInfo& info) {
    return std::clamp<std::size_t>(most_batch_bytes / (4 * (info.in_words() + info.out_words())), 1, most_instances);
  }

  void run_and_print() override {
    batch_.run(device_, n_);
    Mpz r;
    for (std::size_t j = 0; j < n_; ++j) {
      batch_.result(j, r.v);
      if (hex_ && mpz_sgn(r.v) < 0) std::cout << '-';
      if (hex_) mpz_abs(r.v, r.v);
      char* text = mpz_get_str(nullptr, hex_ ? 16 : 10, r.v);
      std::cout << (hex_ ? "0x" : "") << text;
      void (*release)(void*, std::size_t);
      mp_get_memory_functions(nullptr, nullptr, &release);
      release(text, std::strlen(text) + 1);
      if (batch_.op().has_flag) std::cout << ' ' << batch_.flag(j);
      std::cout << '\n';
    }
  }

  mpgen::Device device_;
  bool hex_;
  mpgen::RnsBatch batch_;
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
  const bool signed_decimal = info.tier == "rns";
  const std::size_t most = info.operand_bits.size(), least = most - info.optional_operands;
  std::vector<Operand> operands(most);
  std::vector<std::size_t> most_digits(most);
  for (unsigned k = 0; k < most; ++k)
    most_digits[k] = signed_decimal ? Integers::most_digits(info) : (info.operand_bits[k] + 3) / 4;
  std::size_t number = 1, count = 0;  // the line's number and its operands so far
  bool in_operand = false;

  // The line just read: added to the batch, or nothing for a blank line; an error
  // message for a bad one.
  auto end_line = [&]() -> std::string {
    if (count == 0) return "";
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
      return fail("cannot read stdin (line " + std::to_string(number) + "): " + std::strerror(error), 1);
    }
    if (got == 0) {  // the end, perhaps after a last line with no newline
      in_operand = false;
      const std::string error = end_line();
      runner.run();
      return error.empty() ? 0 : fail(error, 2);
    }
    for (const char c : std::string_view(buffer.data(), std::size_t(got))) {
      if (c == '\n') {
        in_operand = false;
        const std::string error = end_line();
        if (!error.empty()) {
          runner.run();
          return fail(error, 2);
        }
        ++number, count = 0;
      } else if (is_space(c)) {
        in_operand = false;
      } else {
        if (!in_operand) {
          in_operand = true;
          if (count < most) operands[count].clear();
          ++count;
        }
        if (count <= most) operands[count - 1].add(c, most_digits[count - 1], signed_decimal);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);  // stdout buffered, flushed after each batch
  CLI::App app{"Runs an mpgen operation on hex operands from stdin, one instance per line "
               "(operands separated by spaces); prints one result per line in hex, followed "
               "by the carry or borrow for operations that have one. RNS integers (--rns) are "
               "signed, in decimal or 0x hex.",
               "mpgen-run"};
  app.footer(
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
      "  echo '64 7' | mpgen-run --bits 256 --op div_qr          # e 2 0 (quotient, remainder, flag)\n"
      "  echo '2 3 fb' | mpgen-run --bits 64 --op modexp         # 8 0 (the modulus an operand)\n"
      "  echo '3 5' | mpgen-run --bits 173 --op mul --device gpu  # a size built nowhere: compiled now\n"
      "  echo '3 5' | mpgen-run --bits 2048 --tier group --op mul  # f (2048 bits in the group tier: compiled now)\n"
      "  echo '3 5' | mpgen-run --bits 65536 --mul ntt --op mul    # f (products by transform: compiled now)\n"
      "  echo '-7 0x10' | mpgen-run --rns rns8 --op mul           # -112 0 (the product, the overflow flag)\n"
      "  echo '-7 5' | mpgen-run --rns rns8 --op cmp              # -1\n"
      "  mpgen generate --bits 200 --ops add --ptx --out k && echo '1 2' | mpgen-run --bits 200 --op add \\\n"
      "      --device gpu --ptx k/mpgen_u200.ptx              # 3 0");
  unsigned bits = 0;
  std::string op, field, modulus, rns, device = "cpu", tier, mul;
  bool list = false, hex = false;
  std::vector<std::string> ptx_files;
  app.add_flag("--list", list, "show the built sizes and operations with their operands' widths");
  auto* bits_option = app.add_option("--bits", bits, "size in bits; with --modulus, the field's width (at least "
                                     "the modulus', as for mpgen generate)");
  auto* field_option = app.add_option("--field", field, "a field built into the runtime (see --list): its "
                                      "operations, operands below its modulus")->excludes(bits_option);
  auto* modulus_option = app.add_option("--modulus", modulus, "any modulus (hex, up to 2048 bits): its field's "
                                        "operations, generated and compiled now for the device, then "
                                        "cached")->excludes(field_option);
  app.add_option("--tier", tier, "with --bits: thread (one integer per thread, up to 2048 bits) or group "
                 "(a group of threads, from 2048 bits); default auto: thread up to 2048 bits, group above; "
                 "one not built is compiled now")->needs(bits_option)->excludes(modulus_option);
  app.add_option("--mul", mul, "with --bits: how mul, mul_lo and sqr multiply: ntt (by number-theoretic "
                 "transform; the group tier only: above 2048 bits, or 2048 with --tier group) or auto (the "
                 "default, the generator's own choice); a module not built is compiled now")
      ->needs(bits_option)->excludes(modulus_option);
  auto* rns_option = app.add_option("--rns", rns, "an RNS set built into the runtime (see --list; rns8: 8 "
                                    "moduli of 32 bits): its operations on signed integers below M in "
                                    "magnitude, in decimal or 0x hex (-0x1f), results in decimal")
                         ->excludes(bits_option)->excludes(field_option)->excludes(modulus_option);
  app.add_flag("--hex", hex, "with --rns: print the results in hex (-0x1f)")->needs(rns_option);
  app.add_option("--op", op, "operation");
  app.add_option("--device", device, "where to run: cpu or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--ptx", ptx_files, "load the kernels of a PTX file from 'mpgen generate --ptx' (GPU)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }

  if (list) {
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
    return 0;
  }
  if ((!bits && field.empty() && modulus.empty() && rns.empty()) || op.empty())
    return fail("--bits, --field, --modulus or --rns, and --op, are required (or --list)", 2);

  try {
    for (const auto& path : ptx_files) mpgen::load_ptx(path);
    // A size (in its tier, with its product method) or a modulus built nowhere: generated
    // and compiled now, for the GPU or the CPU (cached on disk); the generator checks the
    // request (--bits with --modulus: the field's width; a tier that does not hold the size;
    // ntt in the thread tier).
    const mpgen::Device where = device == "gpu" ? mpgen::Device::gpu : mpgen::Device::cpu;
    if (!rns.empty()) {
      Integers runner(mpgen::find_rns(rns, op), where, hex);
      return stream(runner, runner.op(), op, where);
    }
    const bool unbuilt = mpgen::operations(bits, tier, mul).empty();  // checks the tier's and the method's names
    const mpgen::OpInfo& info = !modulus.empty() ? mpgen::compile_field_on_demand(modulus, op, bits, where)
                                : !field.empty() ? mpgen::find_field(field, op)
                                : unbuilt        ? mpgen::compile_on_demand(bits, op, where, tier, mul)
                                                 : mpgen::find(bits, op, tier, mul);
    Words runner(info, where);
    return stream(runner, info, op, where);
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

// Running batches: run_batch on the CPU's cores or the GPU, and the batches of the API
// (Batch, RnsBatch, GfBatch, gf_transform) around it.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include "kernels.hpp"

namespace mpgen {

using detail::below;
using detail::magnitude_limbs;

bool gpu_available(std::string* why) { return detail::gpu_usable(why); }

unsigned cpu_threads() {
  const char* text = std::getenv("MPGEN_CPU_THREADS");
  if (!text || !*text) return std::max(1u, std::thread::hardware_concurrency());
  char* end = nullptr;
  const long threads = std::strtol(text, &end, 10);
  if (*end || threads < 1 || threads > 1024)
    throw InputError("MPGEN_CPU_THREADS is '" + escaped(text) + "'; give a number of threads from 1 to 1024");
  return unsigned(threads);
}

namespace {
// Instances a thread takes at least: a thread's start (tens of microseconds) is then a few
// percent of its share (a straight-line operation is tens of nanoseconds an instance or
// less; a loop, microseconds).
std::size_t instances_per_thread(const OpInfo& op) { return op.loop ? 16 : 4096; }

// Runs a batch on the host: instances split into as many ranges as threads (cpu_threads),
// each range long enough (instances_per_thread), one on the calling thread.
void run_on_cores(const OpInfo& op, detail::RangeFn run, Layout layout, std::size_t n, const uint32_t* in, uint32_t* out) {
  const std::size_t ranges = std::max<std::size_t>(1, std::min<std::size_t>(cpu_threads(), n / instances_per_thread(op)));
  std::vector<std::thread> threads;
  for (std::size_t r = 1; r < ranges; ++r)
    threads.emplace_back(run, n, layout, in, out, n * r / ranges, n * (r + 1) / ranges);
  run(n, layout, in, out, 0, n / ranges);
  for (auto& t : threads) t.join();
}
}  // namespace

void run_batch(const OpInfo& op, Device device, Layout layout, std::size_t n, const uint32_t* in,
               uint32_t* out) {
  const auto& k = detail::is_named_module(op)
                      ? detail::find_module_kernel(op.kind, op.module, op.name)
                      : detail::find_kernel(op.field, op.bits, op.name, detail::checked_tier(op.tier), detail::method_of(op));
  if (device != Device::gpu) {
    if (k.cpu)
      run_on_cores(op, device == Device::cpu_32 && k.cpu32 ? k.cpu32 : k.cpu, layout, n, in, out);
    else if (k.host)
      k.host(n, layout, in, out);  // a host library's batch function: one thread
    else
      throw InputError(op.name + (!op.field.empty() ? " for " + op.field
                                  : detail::is_named_module(op) ? " of " + op.module
                                                     : " at " + std::to_string(op.bits) + " bits") +
                       " was loaded at run time and runs on the GPU only");
  }
  else
    detail::run_on_gpu(k, layout, n, in, out);
}

Batch::Batch(const OpInfo& op, std::size_t n, Layout layout)
    : op_(op), n_(n), layout_(layout), in_(op.in_words() * n), out_(op.out_words() * n) {}

std::size_t Batch::index(std::size_t words, std::size_t w, std::size_t j) const {
  return layout_ == Layout::interleaved ? w * n_ + j : j * words + w;
}

void Batch::run(Device device) {
  if (op_.modulus_operand >= 0)
    for (std::size_t j = 0; j < n_; ++j) {
      std::vector<std::vector<uint32_t>> operands(op_.operand_bits.size());
      for (unsigned k = 0; k < operands.size(); ++k) operands[k] = operand(j, k);
      try {
        check_modulus_operands(op_, operands);
      } catch (const InputError& e) {
        throw InputError("instance " + std::to_string(j) + ": " + e.what());
      }
    }
  run_batch(op_, device, layout_, n_, in_.data(), out_.data());
}

unsigned Batch::first_word(unsigned k) const {
  unsigned first = 0;
  for (unsigned o = 0; o < k; ++o) first += op_.operand_limbs(o);
  return first;
}

void Batch::set_operand(std::size_t j, unsigned k, const std::vector<uint32_t>& limbs) {
  check_operand(op_, k, limbs);
  const unsigned width = op_.operand_limbs(k), first = first_word(k), words = op_.in_words();
  for (unsigned i = 0; i < width; ++i) in_[index(words, first + i, j)] = i < limbs.size() ? limbs[i] : 0;
}

std::vector<uint32_t> Batch::operand(std::size_t j, unsigned k) const {
  const unsigned first = first_word(k), words = op_.in_words();
  std::vector<uint32_t> limbs(op_.operand_limbs(k));
  for (unsigned i = 0; i < limbs.size(); ++i) limbs[i] = in_[index(words, first + i, j)];
  return limbs;
}

std::vector<uint32_t> Batch::result(std::size_t j) const {
  std::vector<uint32_t> r(op_.result_limbs);
  const unsigned words = op_.out_words();
  for (unsigned i = 0; i < op_.result_limbs; ++i) r[i] = out_[index(words, i, j)];
  return r;
}

uint32_t Batch::flag(std::size_t j) const {
  if (!op_.has_flag) throw InputError(op_.name + " has no flag");
  return out_[index(op_.out_words(), op_.result_limbs, j)];
}

RnsBatch::RnsBatch(const OpInfo& op, std::size_t n)
    : op_(op), from_(find_rns(op.module, "from_binary")), to_(find_rns(op.module, "to_binary")), n_(n) {
  const bool integers_in = op.kind == "rns" && !op.operand_roles.empty() && op.operand_roles[0] == "rns";
  if (!integers_in || (!op.signed_result && op.result_limbs != op.operand_limbs(0)))  // to_binary's is binary
    throw InputError(op.name + " is no operation on RNS integers but a conversion, which RnsBatch (and mpgen-run) "
                     "apply to the operands and results themselves");
  binary_.resize(from_.in_words() * n * op.operand_bits.size());
  out_.resize(op.out_words() * n);
}

void RnsBatch::set_operand(std::size_t j, unsigned k, const mpz_t value) {
  const unsigned limbs = from_.operand_limbs(0);
  if (mpz_sizeinbase(value, 2) > 32 * limbs || !below(magnitude_limbs(value, limbs), from_.modulus))
    throw InputError("operand " + std::to_string(k + 1) + " of " + op_.name + ": its magnitude is not below M of " +
                     op_.module + " (0x" + to_hex(from_.modulus) + ")");
  uint32_t* words = binary_.data() + (j * op_.operand_bits.size() + k) * from_.in_words();
  std::fill(words, words + limbs, 0);
  mpz_export(words, nullptr, -1, sizeof(uint32_t), 0, 0, value);
  words[limbs] = mpz_sgn(value) < 0;
}

void RnsBatch::run(Device device, std::size_t count) {
  count = std::min(count, n_);
  const std::size_t operands = op_.operand_bits.size();
  std::vector<uint32_t> integers(op_.in_words() * count);  // from_binary's results are op's operands, contiguous
  run_batch(from_, device, Layout::contiguous, count * operands, binary_.data(), integers.data());
  run_batch(op_, device, Layout::contiguous, count, integers.data(), out_.data());
  if (op_.signed_result) return;
  const unsigned words = op_.result_limbs, stride = op_.out_words();
  std::vector<uint32_t> results(words * count);  // without their flags: to_binary's operands
  for (std::size_t j = 0; j < count; ++j)
    std::copy(out_.begin() + j * stride, out_.begin() + j * stride + words, results.begin() + j * words);
  binary_results_.resize(to_.out_words() * count);
  run_batch(to_, device, Layout::contiguous, count, results.data(), binary_results_.data());
}

void RnsBatch::result(std::size_t j, mpz_t out) const {
  if (op_.signed_result) {
    mpz_set_si(out, int32_t(out_.at(j)));
    return;
  }
  const unsigned limbs = to_.result_limbs;
  const uint32_t* magnitude = binary_results_.data() + j * to_.out_words();
  mpz_import(out, limbs, -1, sizeof(uint32_t), 0, 0, magnitude);
  if (magnitude[limbs]) mpz_neg(out, out);
}

uint32_t RnsBatch::flag(std::size_t j) const {
  if (!op_.has_flag) throw InputError(op_.name + " has no flag");
  return out_.at(j * op_.out_words() + op_.result_limbs);
}

GfBatch::GfBatch(const OpInfo& op, std::size_t n)
    : op_(op), from_(find_gf(op.module, "from_binary")), to_(find_gf(op.module, "to_binary")), n_(n) {
  const bool elements = op.kind == "gf" && op.operand_roles.at(0) == "element";
  if (!elements || op.name == "to_binary")
    throw InputError(op.name + " is no operation on elements but a conversion, which GfBatch (and mpgen-run) "
                     "apply to the operands and results themselves");
  for (const auto& role : op.operand_roles) (role == "element" ? elements_ : shifts_) += 1;
  binary_.resize(from_.in_words() * n * elements_);
  shift_.resize(n * shifts_);
  out_.resize(to_.out_words() * n);
}

void GfBatch::set_operand(std::size_t j, unsigned k, const mpz_t value) {
  const std::string which = "operand " + std::to_string(k + 1) + " of " + op_.name + ": ";
  if (op_.operand_roles.at(k) == "shift") {  // mul_r's a: 0 <= a < 2k
    const unsigned most = from_.in_words();  // 2k: an element's words
    if (mpz_sgn(value) < 0 || mpz_cmp_ui(value, most) >= 0)
      throw InputError(which + "the shift must be from 0 to " + std::to_string(most - 1));
    shift_[j * shifts_ + (k - elements_)] = uint32_t(mpz_get_ui(value));
    return;
  }
  const unsigned limbs = from_.in_words();
  if (mpz_sgn(value) < 0 || mpz_sizeinbase(value, 2) > 32 * limbs || !below(magnitude_limbs(value, limbs), from_.modulus))
    throw InputError(which + "not an integer from 0 to p - 1 of " + op_.module + " (p = 0x" + to_hex(from_.modulus) + ")");
  uint32_t* words = binary_.data() + (j * elements_ + k) * limbs;
  std::fill(words, words + limbs, 0);
  mpz_export(words, nullptr, -1, sizeof(uint32_t), 0, 0, value);
}

void GfBatch::run(Device device, std::size_t count) {
  count = std::min(count, n_);
  const unsigned words = from_.out_words();
  std::vector<uint32_t> elements(words * count * elements_), in(op_.in_words() * count), out(op_.out_words() * count);
  run_batch(from_, device, Layout::contiguous, count * elements_, binary_.data(), elements.data());
  for (std::size_t j = 0; j < count; ++j) {  // the instance's elements, then its shift
    const auto at = std::copy_n(elements.begin() + j * elements_ * words, elements_ * words, in.begin() + j * op_.in_words());
    std::copy_n(shift_.begin() + j * shifts_, shifts_, at);
  }
  run_batch(op_, device, Layout::contiguous, count, in.data(), out.data());
  run_batch(to_, device, Layout::contiguous, count, out.data(), out_.data());
}

void GfBatch::result(std::size_t j, mpz_t out) const {
  mpz_import(out, to_.out_words(), -1, sizeof(uint32_t), 0, 0, out_.data() + j * to_.out_words());
}

void gf_transform(std::string_view field, Device device, std::size_t n, std::size_t count, bool inverse,
                  uint32_t* values) {
  const detail::Kernel& from = detail::find_module_kernel("gf", field, "from_binary");
  const OpInfo& to = find_gf(field, "to_binary");
  const unsigned radix = from.info.transform_radix, words = from.info.in_words();
  if (!from.transform)
    throw InputError("generalized Fermat field " + std::string(field) + " was built without its FFT (fft in its ops)");
  std::size_t length = radix;
  while (length < n && length <= std::size_t(1) << from.info.transform_largest_log) length *= radix;
  if (length != n || n > std::size_t(1) << from.info.transform_largest_log)
    throw InputError("FFT of " + std::to_string(n) + " points over " + std::string(field) + ": give K^e points (K = " +
                     std::to_string(radix) + ", e >= 1), at most 2^" + std::to_string(from.info.transform_largest_log));
  for (std::size_t j = 0; j < n * count; ++j)
    if (!below(values + j * words, words, from.info.modulus))
      throw InputError("FFT over " + std::string(field) + ": value " + std::to_string(j + 1) +
                       " is not below p (0x" + to_hex(from.info.modulus) + ")");
  std::vector<uint32_t> points(n * count * words);
  run_batch(from.info, device, Layout::contiguous, n * count, values, points.data());
  if (device != Device::gpu)
    from.transform->host(n, count, inverse, points.data());
  else
    detail::transform_on_gpu(*from.transform, n, count, inverse, words, points.data());
  run_batch(to, device, Layout::contiguous, n * count, points.data(), values);
}

}  // namespace mpgen

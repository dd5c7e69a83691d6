#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "kernels.hpp"
#include "table.hpp"

namespace mpgen {
namespace {

// |value|'s limbs, at least `limbs` of them.
std::vector<uint32_t> magnitude_limbs(const mpz_t value, unsigned limbs) {
  std::vector<uint32_t> words(std::max<std::size_t>(limbs, (mpz_sizeinbase(value, 2) + 31) / 32), 0);
  mpz_export(words.data(), nullptr, -1, sizeof(uint32_t), 0, 0, value);
  return words;
}

// Whether a < b, limbs least significant first (either may be shorter: zeros above).
bool below(const uint32_t* a, std::size_t na, const std::vector<uint32_t>& b) {
  for (std::size_t i = std::max(na, b.size()); i-- > 0;) {  // from the top limb
    const uint32_t x = i < na ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y;
  }
  return false;
}
bool below(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { return below(a.data(), a.size(), b); }

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

// The built-in kernels and those loaded since; a deque keeps references valid.
std::mutex table_mutex;
std::deque<detail::Kernel>& table() {
  static std::deque<detail::Kernel> all(detail::kernels().begin(), detail::kernels().end());
  return all;
}

// Whether info is an integer operation of a size (not a field's, an RNS set's or a
// generalized Fermat field's).
bool is_size(const OpInfo& info) { return info.field.empty() && info.tier != "rns" && info.tier != "gf"; }

// The modules of a tier named by their module name ("rns": RNS sets, "gf": generalized
// Fermat fields), and what messages call them.
bool is_named_module(const OpInfo& info) { return info.tier == "rns" || info.tier == "gf"; }
std::string kind_of(std::string_view tier) { return tier == "rns" ? "RNS set" : "generalized Fermat field"; }

std::vector<std::string> modules_of(std::string_view tier) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> names;
  for (const auto& k : table())
    if (k.info.tier == tier && std::find(names.begin(), names.end(), k.info.module) == names.end())
      names.push_back(k.info.module);
  return names;
}

std::vector<std::string> module_operations(std::string_view tier, std::string_view module) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> ops;
  for (const auto& k : table())
    if (k.info.tier == tier && k.info.module == module) ops.push_back(k.info.name);
  return ops;
}

// An RNS set's or a generalized Fermat field's operation.
const detail::Kernel& find_module_kernel(std::string_view tier, std::string_view module, std::string_view op) {
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    for (const auto& k : table())
      if (k.info.tier == tier && k.info.module == module && k.info.name == op) return k;
  }
  const auto built = modules_of(tier);
  if (std::find(built.begin(), built.end(), module) == built.end())
    throw InputError(kind_of(tier) + " '" + std::string(module) + "' is not built in; built " +
                     (tier == "rns" ? "sets: " : "fields: ") + (built.empty() ? "none" : join(built)));
  throw InputError("unknown operation '" + std::string(op) + "' of " + kind_of(tier) + " " + std::string(module) +
                   "; known: " + join(module_operations(tier, module)));
}

// The tiers of a size's modules (built in or loaded), those with products by transform
// as "<tier> with mul ntt".
std::vector<std::string> tiers_at(unsigned bits) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> tiers;
  for (const auto& k : table()) {
    const std::string tier = k.info.tier + (detail::method_of(k.info).empty() ? "" : " with mul ntt");
    if (is_size(k.info) && k.info.bits == bits && std::find(tiers.begin(), tiers.end(), tier) == tiers.end())
      tiers.push_back(tier);
  }
  return tiers;
}

// An integer operation (field empty) in a checked tier with a checked method, or a field's.
const detail::Kernel& find_kernel(std::string_view field, unsigned bits, std::string_view op, std::string_view tier,
                                  std::string_view mul = "") {
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    for (const auto& k : table())
      if (detail::is_entry(k.info, field, bits, op, tier, mul)) return k;
  }
  if (!field.empty()) {
    const auto built = fields();
    if (std::find(built.begin(), built.end(), field) == built.end())
      throw InputError("field '" + std::string(field) + "' is not built in; built fields: " + join(built));
    throw InputError("unknown operation '" + std::string(op) + "' for " + std::string(field) +
                     "; known: " + join(field_operations(field)));
  }
  const auto built = sizes();
  if (std::find(built.begin(), built.end(), bits) == built.end()) {
    std::vector<std::string> known;
    for (unsigned b : built) known.push_back(std::to_string(b));
    throw InputError("size " + std::to_string(bits) + " is not built in; built sizes: " + join(known));
  }
  const std::string size = std::to_string(bits) + " bits",
                    at = size + (tier.empty() ? "" : " in the " + std::string(tier) + " tier") +
                         (mul.empty() ? "" : " with mul " + std::string(mul));
  const auto known = operations(bits, tier, mul);
  if (known.empty()) throw InputError(at + " is not built in; built tiers at " + size + ": " + join(tiers_at(bits)));
  throw InputError("unknown operation '" + std::string(op) + "' at " + at + "; known: " + join(known));
}

}  // namespace

unsigned OpInfo::in_words() const {
  unsigned words = 0;
  for (unsigned k = 0; k < operand_bits.size(); ++k) words += operand_limbs(k);
  return words;
}

std::vector<unsigned> sizes() {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<unsigned> s;
  for (const auto& k : table())
    if (is_size(k.info) && std::find(s.begin(), s.end(), k.info.bits) == s.end()) s.push_back(k.info.bits);
  std::sort(s.begin(), s.end());
  return s;
}

std::vector<std::string> operations(unsigned bits, std::string_view tier, std::string_view mul) {
  const std::string_view checked = detail::checked_tier(tier), method = detail::checked_mul(mul);
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> ops;
  for (const auto& k : table())
    if (detail::is_entry(k.info, "", bits, k.info.name, checked, method)) ops.push_back(k.info.name);
  return ops;
}

std::vector<std::string> fields() {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> names;
  for (const auto& k : table())
    if (!k.info.field.empty() && std::find(names.begin(), names.end(), k.info.field) == names.end())
      names.push_back(k.info.field);
  return names;
}

std::vector<std::string> rns_sets() { return modules_of("rns"); }
std::vector<std::string> rns_operations(std::string_view set) { return module_operations("rns", set); }
const OpInfo& find_rns(std::string_view set, std::string_view op) { return find_module_kernel("rns", set, op).info; }

std::vector<std::string> gf_fields() { return modules_of("gf"); }
std::vector<std::string> gf_operations(std::string_view field) { return module_operations("gf", field); }
const OpInfo& find_gf(std::string_view field, std::string_view op) { return find_module_kernel("gf", field, op).info; }

std::vector<std::string> field_operations(std::string_view field) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> ops;
  for (const auto& k : table())
    if (k.info.field == field) ops.push_back(k.info.name);
  return ops;
}

namespace detail {
std::string_view checked_tier(std::string_view tier) {
  if (tier == "thread" || tier == "group") return tier;
  if (tier.empty() || tier == "auto") return "";
  throw InputError("unknown tier '" + std::string(tier) + "'; allowed: thread, group, auto");
}

std::string_view checked_mul(std::string_view mul) {
  if (mul == "ntt") return mul;
  if (mul.empty() || mul == "auto") return "";
  throw InputError("unknown product method '" + std::string(mul) + "'; allowed: auto, ntt" +
                   (mul == "schoolbook" || mul == "karatsuba"
                        ? " (a " + std::string(mul) + " module bears the size's own name, as auto's does, and "
                          "could not be told from it)"
                        : ""));
}

const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> all = [] {
    std::vector<Kernel> t;
    for (const ModuleTable* module : built_in_modules()) {
      const std::vector<OpInfo> ops = parse_manifest(module->manifest, "a built-in module");
      if (ops.size() != module->count) throw std::logic_error("mpgen: a built-in module's table does not match its manifest");
      for (std::size_t k = 0; k < ops.size(); ++k)
        t.push_back(Kernel{ops[k], module->entries[k].cpu, module->entries[k].device, nullptr, module->transform,
                           module->entries[k].cpu32});
    }
    return t;
  }();
  return all;
}

const OpInfo& add_loaded(const Kernel& k) {
  std::lock_guard<std::mutex> lock(table_mutex);
  for (auto& existing : table())
    if (existing.info.module == k.info.module && existing.info.name == k.info.name) {
      if (k.loaded) {  // PTX: it replaces the device side
        existing.loaded = k.loaded;
        existing.device = nullptr;
      }
      if (k.host) {  // a host library: it replaces the host side
        existing.host = k.host;
        existing.cpu = existing.cpu32 = nullptr;
      }
      return existing.info;
    }
  table().push_back(k);
  return table().back().info;
}

std::vector<OpInfo> parse_manifest(const std::string& text, const std::string& origin) {
  std::vector<OpInfo> ops;
  try {
    const auto manifest = nlohmann::json::parse(text);
    if (manifest.at("schema").get<int>() != manifest_schema)
      throw InputError(origin + ": mpgen manifest of schema " + manifest.at("schema").dump() +
                       "; this runtime reads schema " + std::to_string(manifest_schema));
    for (const auto& module : manifest.at("modules")) {
      const auto& field = module.at("field");
      for (const auto& op : module.at("operations")) {
        OpInfo info;
        info.name = op.at("name").get<std::string>();
        info.module = module.at("name").get<std::string>();
        info.tier = module.at("tier").get<std::string>();
        info.mul = module.value("mul", std::string());
        info.bits = module.at("bits").get<unsigned>();
        info.kernel = op.at("kernel").get<std::string>();
        for (const auto& operand : op.at("operands")) {
          const std::string role = operand.at("role").get<std::string>();
          if (role == "modulus") {
            info.modulus_operand = int(info.operand_bits.size());
            info.odd_modulus = operand.value("odd", true);
          }
          if (role == "minus_inverse") info.minus_inverse_operand = int(info.operand_bits.size());
          if (role == "barrett_reciprocal") info.reciprocal_operand = int(info.operand_bits.size());
          info.operand_bits.push_back(operand.at("bits").get<unsigned>());
          info.operand_roles.push_back(role);
          if (operand.at("below_modulus").get<bool>()) info.below_modulus |= 1u << (info.operand_bits.size() - 1);
        }
        info.optional_operands = op.at("optional_operands").get<unsigned>();
        info.result_limbs = op.at("result").at("limbs").get<unsigned>();
        info.result_parts = op.at("result").value("parts", 1u);
        info.has_flag = op.at("result").at("flag").get<bool>();
        info.signed_result = op.at("result").at("signed").get<bool>();
        info.block_threads = op.at("launch").at("block_threads").get<unsigned>();
        info.threads_per_instance = op.at("launch").at("threads_per_instance").get<unsigned>();
        info.limbs_per_thread = op.at("launch").at("limbs_per_thread").get<unsigned>();
        info.shared_bytes = op.at("launch").at("shared_bytes").get<unsigned>();
        info.contiguous_shared_bytes = op.at("launch").at("contiguous_shared_bytes").get<unsigned>();
        if (!field.is_null()) {
          info.field = info.module;
          const std::string modulus = field.at("modulus").get<std::string>();
          info.modulus = parse_hex(modulus, 32 * ((info.bits + 31) / 32));
        }
        if (module.contains("rns")) {  // a magnitude is below M
          const std::string product = module.at("rns").at("product").get<std::string>();
          info.modulus = parse_hex(product, 32 * module.at("limbs").get<unsigned>());
        }
        if (module.contains("gf")) {  // an integer is below p, in as many words as an element
          const auto& gf = module.at("gf");
          info.modulus = parse_hex(gf.at("modulus").get<std::string>(), 32 * module.at("limbs").get<unsigned>());
          if (!gf.at("fft").is_null()) {
            info.transform_radix = gf.at("fft").at("radix").get<unsigned>();
            info.transform_largest_log = gf.at("fft").at("largest_log").get<unsigned>();
          }
        }
        info.host64 = op.contains("host64") && !op.at("host64").is_null();
        info.loop = op.value("loop", false);  // (RNS sets and GF fields list none)
        if (info.in_words() != op.at("in_words").get<unsigned>() ||
            info.out_words() != op.at("out_words").get<unsigned>())
          throw InputError(origin + ": mpgen manifest's words of " + info.name + " do not add up");
        ops.push_back(std::move(info));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(origin + ": malformed mpgen manifest (" + e.what() + ")");
  }
  if (ops.empty()) throw InputError(origin + " holds no mpgen kernels (empty manifest)");
  return ops;
}
}  // namespace detail

std::vector<OpInfo> load_ptx(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError("cannot read PTX file '" + path + "'");
  std::ostringstream text;
  text << file.rdbuf();
  if (text.str().find("mpgen_manifest") == std::string::npos)
    throw InputError("'" + path + "' holds no mpgen kernels (no mpgen_manifest in it)");
  return detail::load_module(text.str(), "'" + path + "'");
}

const OpInfo& find(unsigned bits, std::string_view op, std::string_view tier, std::string_view mul) {
  const std::string_view checked = detail::checked_tier(tier), method = detail::checked_mul(mul);
  return find_kernel("", bits, op, checked, method).info;
}

const OpInfo& find_field(std::string_view field, std::string_view op) { return find_kernel(field, 0, op, "").info; }

bool gpu_available(std::string* why) { return detail::gpu_usable(why); }

unsigned cpu_threads() {
  const char* text = std::getenv("MPGEN_CPU_THREADS");
  if (!text || !*text) return std::max(1u, std::thread::hardware_concurrency());
  char* end = nullptr;
  const long threads = std::strtol(text, &end, 10);
  if (*end || threads < 1 || threads > 1024)
    throw InputError("MPGEN_CPU_THREADS is '" + std::string(text) + "'; give a number of threads from 1 to 1024");
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
  const auto& k = is_named_module(op)
                      ? find_module_kernel(op.tier, op.module, op.name)
                      : find_kernel(op.field, op.bits, op.name, detail::checked_tier(op.tier), detail::method_of(op));
  if (device != Device::gpu) {
    if (k.cpu)
      run_on_cores(op, device == Device::cpu_32 && k.cpu32 ? k.cpu32 : k.cpu, layout, n, in, out);
    else if (k.host)
      k.host(n, layout, in, out);  // a host library's batch function: one thread
    else
      throw InputError(op.name + (!op.field.empty() ? " for " + op.field
                                  : is_named_module(op) ? " of " + op.module
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

void check_operand(const OpInfo& op, unsigned k, const std::vector<uint32_t>& limbs) {
  const unsigned bits = op.operand_bits.at(k);
  for (unsigned i = 0; i < limbs.size(); ++i)
    if (limbs[i] && 32 * i + 32 - __builtin_clz(limbs[i]) > bits)
      throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is wider than " +
                       std::to_string(bits) + " bits");
  if (!(op.below_modulus >> k & 1) || op.modulus_operand >= 0) return;
  if (!below(limbs, op.modulus))
    throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is not below " +
                     (op.tier == "rns"  ? "M of the RNS set " + op.module
                      : op.tier == "gf" ? "p of " + op.module
                                        : "the modulus of " + op.field) + " (0x" +
                     to_hex(op.modulus) + ")");
}

namespace {
// -p^-1 mod 2^(32 n) for odd p, word by word as a Montgomery reduction: y's word i cancels
// word i of p y + 1 (O(n^2), n = 1 in the thread tier).
std::vector<uint32_t> minus_inverse(const std::vector<uint32_t>& p, unsigned n) {
  uint32_t inverse = p[0];  // p^-1 mod 2^32 by Newton's steps, each doubling the good bits (3 to 48)
  for (int i = 0; i < 4; ++i) inverse *= 2u - p[0] * inverse;
  std::vector<uint32_t> sum(n, 0), y(n, 0);  // sum = p y + 1 mod 2^(32 n), word i zero once y's is set
  sum[0] = 1;
  for (unsigned i = 0; i < n; ++i) {
    y[i] = 0u - sum[i] * inverse;
    uint64_t carry = 0;
    for (unsigned j = i; j < n; ++j) {
      const uint64_t t = uint64_t(j - i < p.size() ? p[j - i] : 0) * y[i] + sum[j] + carry;
      sum[j] = uint32_t(t), carry = t >> 32;
    }
  }
  return y;
}

// Barrett's reciprocal of p != 0 at W = 32 n bits: floor((2^(2W) - 1) / p') - 2^W, p' = p
// shifted up by its leading zeros (barrett_modmul's v).
std::vector<uint32_t> barrett_reciprocal(const std::vector<uint32_t>& p, unsigned n) {
  mpz_t normal, v;
  mpz_inits(normal, v, nullptr);
  to_mpz(normal, p);
  mpz_mul_2exp(normal, normal, 32 * n - mpz_sizeinbase(normal, 2));
  mpz_set_ui(v, 0);
  mpz_setbit(v, 64 * n);
  mpz_sub_ui(v, v, 1);
  mpz_fdiv_q(v, v, normal);
  mpz_clrbit(v, 32 * n);
  std::vector<uint32_t> limbs = from_mpz(v, 32 * n);
  mpz_clears(normal, v, nullptr);
  return limbs;
}

// Whether `got` differs from Compute's constant of p (n limbs), which `want` then points to.
// A batch often brings one p many times: the last p's constant is kept, per thread and
// per Compute.
template <std::vector<uint32_t> (*Compute)(const std::vector<uint32_t>&, unsigned)>
bool differs(const std::vector<uint32_t>& p, std::vector<uint32_t> got, unsigned n, const std::vector<uint32_t>*& want) {
  thread_local std::vector<uint32_t> last_p, last_want;
  if (p != last_p || last_want.size() != n) last_p = p, last_want = Compute(p, n);
  got.resize(n, 0);
  want = &last_want;
  return got != last_want;
}
}  // namespace

void check_modulus_operands(const OpInfo& op, const std::vector<std::vector<uint32_t>>& operands) {
  if (op.modulus_operand < 0) return;
  const unsigned at = unsigned(op.modulus_operand);
  const std::vector<uint32_t>& p = operands.at(at);
  const std::string which = "operand " + std::to_string(at + 1) + " of " + op.name;
  if (op.odd_modulus && (p.empty() || !(p[0] & 1)))
    throw InputError(which + ", the modulus, is even; it must be odd (Montgomery form)");
  const std::vector<uint32_t>* want = nullptr;
  const int given = op.minus_inverse_operand;  // where -p^-1 mod 2^(32 n) is an operand (p odd then)
  if (given >= 0) {
    const unsigned n = op.operand_limbs(unsigned(given));  // 1 word per thread, R's limbs in a group
    if (differs<minus_inverse>(p, operands.at(given), n, want)) {
      char word[16];
      std::snprintf(word, sizeof word, "0x%08x", (*want)[0]);
      throw InputError("operand " + std::to_string(given + 1) + " of " + op.name + " is not -p^-1 mod 2^" +
                       std::to_string(32 * n) + " for p = 0x" + to_hex(p) + ": that is " +
                       (n == 1 ? std::string(word) : "0x" + to_hex(*want)));
    }
  }
  const int reciprocal = op.reciprocal_operand;  // Barrett's, of any p but 0 (refused below: nothing is below it)
  if (reciprocal >= 0 && std::any_of(p.begin(), p.end(), [](uint32_t w) { return w != 0; }) &&
      differs<barrett_reciprocal>(p, operands.at(reciprocal), op.operand_limbs(unsigned(reciprocal)), want))
    throw InputError("operand " + std::to_string(reciprocal + 1) + " of " + op.name +
                     " is not Barrett's reciprocal of p = 0x" + to_hex(p) + " (barrett_reciprocal): that is 0x" +
                     to_hex(*want));
  for (unsigned k = 0; k < at; ++k)
    if (op.below_modulus >> k & 1 && !below(operands[k], p))
      throw InputError("operand " + std::to_string(k + 1) + " of " + op.name + " is not below the modulus 0x" +
                       to_hex(p) + " (operand " + std::to_string(at + 1) + ")");
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
  const unsigned width = op_.operand_limbs(k), first = first_word(k);
  for (unsigned i = 0; i < width; ++i)
    in_[index(op_.in_words(), first + i, j)] = i < limbs.size() ? limbs[i] : 0;
}

std::vector<uint32_t> Batch::operand(std::size_t j, unsigned k) const {
  const unsigned first = first_word(k);
  std::vector<uint32_t> limbs(op_.operand_limbs(k));
  for (unsigned i = 0; i < limbs.size(); ++i) limbs[i] = in_[index(op_.in_words(), first + i, j)];
  return limbs;
}

std::vector<uint32_t> Batch::result(std::size_t j) const {
  std::vector<uint32_t> r(op_.result_limbs);
  for (unsigned i = 0; i < op_.result_limbs; ++i) r[i] = out_[index(op_.out_words(), i, j)];
  return r;
}

uint32_t Batch::flag(std::size_t j) const {
  if (!op_.has_flag) throw InputError(op_.name + " has no flag");
  return out_[index(op_.out_words(), op_.result_limbs, j)];
}

RnsBatch::RnsBatch(const OpInfo& op, std::size_t n)
    : op_(op), from_(find_rns(op.module, "from_binary")), to_(find_rns(op.module, "to_binary")), n_(n) {
  const bool integers_in = op.tier == "rns" && !op.operand_roles.empty() && op.operand_roles[0] == "rns";
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
  const bool elements = op.tier == "gf" && op.operand_roles.at(0) == "element";
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
  const detail::Kernel& from = find_module_kernel("gf", field, "from_binary");
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

std::vector<uint32_t> parse_hex(std::string_view text, unsigned bits) {
  std::vector<uint32_t> limbs((bits + 31) / 32);
  try {
    hex::parse(text, limbs.data(), unsigned(limbs.size()), bits);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  return limbs;
}

std::string to_hex(const std::vector<uint32_t>& limbs) { return hex::print(limbs.data(), unsigned(limbs.size())); }

void to_mpz(mpz_t out, const std::vector<uint32_t>& limbs) {
  mpz_import(out, limbs.size(), -1, sizeof(uint32_t), 0, 0, limbs.data());
}

std::vector<uint32_t> from_mpz(const mpz_t value, unsigned bits) {
  if (mpz_sgn(value) < 0 || mpz_sizeinbase(value, 2) > bits)
    throw InputError("value is negative or wider than " + std::to_string(bits) + " bits");
  std::vector<uint32_t> limbs((bits + 31) / 32, 0);
  mpz_export(limbs.data(), nullptr, -1, sizeof(uint32_t), 0, 0, value);
  return limbs;
}

}  // namespace mpgen

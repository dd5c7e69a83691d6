// The registry of operations: the built-in table and the modules loaded since (PTX, host
// libraries), and the lookups of an operation by size, tier and method, field or module.
#include <algorithm>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>

#include "kernels.hpp"
#include "table.hpp"

namespace mpgen {
namespace {

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

bool is_size(const OpInfo& info) { return info.kind == "size"; }

// What messages call the modules found by their name (kinds "rns", "gf").
std::string kind_name(std::string_view kind) { return kind == "rns" ? "RNS set" : "generalized Fermat field"; }

std::vector<std::string> modules_of(std::string_view kind) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> names;
  for (const auto& k : table())
    if (k.info.kind == kind && std::find(names.begin(), names.end(), k.info.module) == names.end())
      names.push_back(k.info.module);
  return names;
}

std::vector<std::string> module_operations(std::string_view kind, std::string_view module) {
  std::lock_guard<std::mutex> lock(table_mutex);
  std::vector<std::string> ops;
  for (const auto& k : table())
    if (k.info.kind == kind && k.info.module == module) ops.push_back(k.info.name);
  return ops;
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

}  // namespace

namespace detail {

// An RNS set's or a generalized Fermat field's operation.
const Kernel& find_module_kernel(std::string_view kind, std::string_view module, std::string_view op) {
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    for (const auto& k : table())
      if (k.info.kind == kind && k.info.module == module && k.info.name == op) return k;
  }
  const auto built = modules_of(kind);
  if (std::find(built.begin(), built.end(), module) == built.end())
    throw InputError(kind_name(kind) + " '" + escaped(module) + "' is not built in; built " +
                     (kind == "rns" ? "sets: " : "fields: ") + (built.empty() ? "none" : join(built)));
  throw InputError("unknown operation '" + escaped(op) + "' of " + kind_name(kind) + " " + std::string(module) +
                   "; known: " + join(module_operations(kind, module)));
}

// An integer operation (field empty) in a checked tier with a checked method, or a field's.
const Kernel& find_kernel(std::string_view field, unsigned bits, std::string_view op, std::string_view tier,
                          std::string_view mul) {
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    for (const auto& k : table())
      if (is_entry(k.info, field, bits, op, tier, mul)) return k;
  }
  if (!field.empty()) {
    const auto built = fields();
    if (std::find(built.begin(), built.end(), field) == built.end())
      throw InputError("field '" + escaped(field) + "' is not built in; built fields: " + join(built));
    throw InputError("unknown operation '" + escaped(op) + "' for " + std::string(field) +
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
  throw InputError("unknown operation '" + escaped(op) + "' at " + at + "; known: " + join(known));
}

}  // namespace detail

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
const OpInfo& find_rns(std::string_view set, std::string_view op) { return detail::find_module_kernel("rns", set, op).info; }

std::vector<std::string> gf_fields() { return modules_of("gf"); }
std::vector<std::string> gf_operations(std::string_view field) { return module_operations("gf", field); }
const OpInfo& find_gf(std::string_view field, std::string_view op) { return detail::find_module_kernel("gf", field, op).info; }

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
  throw InputError("unknown tier '" + escaped(tier) + "'; allowed: thread, group, auto");
}

std::string_view checked_mul(std::string_view mul) {
  if (mul == "ntt") return mul;
  if (mul.empty() || mul == "auto") return "";
  throw InputError("unknown product method '" + escaped(mul) + "'; allowed: auto, ntt" +
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
  return detail::find_kernel("", bits, op, checked, method).info;
}

const OpInfo& find_field(std::string_view field, std::string_view op) { return detail::find_kernel(field, 0, op, "").info; }

}  // namespace mpgen

// The manifest of a module (mpgen_manifest.json's schema, printers/manifest.py): each
// operation's contract, as OpInfo.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels.hpp"

namespace mpgen {

unsigned OpInfo::in_words() const {
  unsigned words = 0;
  for (unsigned k = 0; k < operand_bits.size(); ++k) words += operand_limbs(k);
  return words;
}

namespace {

using json = nlohmann::json;

// A manifest whose values are not what its schema says (found by tests/fuzz/manifest.cpp).
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A count: a whole number up to `most`. A float, a negative or a larger number is a
// malformed manifest (nlohmann's get<unsigned> would convert it in silence, or undefined).
unsigned whole(const json& value, std::uint64_t most = 0xffffffffu) {
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() > most)
    throw Malformed(value.dump().substr(0, 40) + " where a whole number up to " + std::to_string(most) + " belongs");
  return unsigned(value.get<std::uint64_t>());
}

// A width in bits or limbs: at most 2^26 (the largest size is 2^24 bits, its products twice).
unsigned width(const json& value) { return whole(value, 1u << 26); }

// The operands of op: their widths and roles, where the modulus and its constants are,
// which must be below the modulus.
void read_operands(const json& op, OpInfo& info) {
  for (const auto& operand : op.at("operands")) {
    const std::string role = operand.at("role").get<std::string>();
    const int at = int(info.operand_bits.size());
    if (role == "modulus") {
      info.modulus_operand = at;
      info.odd_modulus = operand.value("odd", true);
      info.odd_modulus_because = operand.value("odd_because", std::string());
    }
    if (role == "minus_inverse") info.minus_inverse_operand = at;
    if (role == "barrett_reciprocal") info.reciprocal_operand = at;
    if (at == 32) throw Malformed("more than 32 operands");  // below_modulus holds a bit each
    info.operand_bits.push_back(width(operand.at("bits")));
    info.operand_roles.push_back(role);
    if (operand.at("below_modulus").get<bool>()) info.below_modulus |= 1u << at;
  }
  info.optional_operands = whole(op.at("optional_operands"));
}

// op's result and its batch kernel's launch geometry.
void read_result_and_launch(const json& op, OpInfo& info) {
  const json &result = op.at("result"), &launch = op.at("launch");
  info.result_limbs = width(result.at("limbs"));
  info.result_parts = (result.contains("parts") ? whole(result.at("parts")) : 1u);
  info.has_flag = result.at("flag").get<bool>();
  info.signed_result = result.at("signed").get<bool>();
  info.block_threads = whole(launch.at("block_threads"));
  info.threads_per_instance = whole(launch.at("threads_per_instance"));
  info.blocks_per_instance = whole(launch.at("blocks_per_instance"));
  info.launch_groups = whole(launch.at("launch_groups"));
  info.limbs_per_thread = whole(launch.at("limbs_per_thread"));
  info.shared_bytes = whole(launch.at("shared_bytes"));
  info.contiguous_shared_bytes = whole(launch.at("contiguous_shared_bytes"));
}

// The module's bound on values, where it has one: a field's modulus, an RNS set's M (a
// magnitude is below it), a generalized Fermat field's p (in as many words as an element)
// and its FFT.
void read_modulus(const json& module, OpInfo& info) {
  if (const auto& field = module.at("field"); !field.is_null()) {
    info.field = info.module;
    info.modulus = parse_hex(field.at("modulus").get<std::string>(), 32 * ((info.bits + 31) / 32));
  }
  if (module.contains("rns"))
    info.modulus = parse_hex(module.at("rns").at("product").get<std::string>(), 32 * width(module.at("limbs")));
  if (module.contains("gf")) {
    const auto& gf = module.at("gf");
    info.modulus = parse_hex(gf.at("modulus").get<std::string>(), 32 * width(module.at("limbs")));
    if (!gf.at("fft").is_null()) {
      info.transform_radix = whole(gf.at("fft").at("radix"));
      info.transform_largest_log = whole(gf.at("fft").at("largest_log"));
    }
  }
}

// One operation of one module; throws InputError naming origin where its words do not add up.
OpInfo read_operation(const json& module, const json& op, const std::string& origin) {
  OpInfo info;
  info.name = op.at("name").get<std::string>();
  info.module = module.at("name").get<std::string>();
  info.kind = module.at("kind").get<std::string>();
  info.tier = module.at("tier").get<std::string>();
  info.mul = module.value("mul", std::string());
  info.bits = width(module.at("bits"));
  info.kernel = op.at("kernel").get<std::string>();
  read_operands(op, info);
  read_result_and_launch(op, info);
  read_modulus(module, info);
  info.host64 = op.contains("host64") && !op.at("host64").is_null();
  info.loop = op.value("loop", false);  // (RNS sets and GF fields list none)
  if (info.in_words() != whole(op.at("in_words")) || info.out_words() != whole(op.at("out_words")))
    throw InputError(origin + ": mpgen manifest's words of " + info.name + " do not add up");
  return info;
}

}  // namespace

namespace detail {

std::vector<OpInfo> parse_manifest(const std::string& text, const std::string& origin) {
  std::vector<OpInfo> ops;
  try {
    const auto manifest = json::parse(text);
    if (whole(manifest.at("schema")) != unsigned(manifest_schema))
      throw InputError(origin + ": mpgen manifest of schema " + manifest.at("schema").dump() +
                       "; this runtime reads schema " + std::to_string(manifest_schema));
    for (const auto& module : manifest.at("modules"))
      for (const auto& op : module.at("operations")) ops.push_back(read_operation(module, op, origin));
  } catch (const json::exception& e) {
    throw InputError(origin + ": malformed mpgen manifest (" + e.what() + ")");
  } catch (const Malformed& e) {
    throw InputError(origin + ": malformed mpgen manifest (" + e.what() + ")");
  }
  if (ops.empty()) throw InputError(origin + " holds no mpgen kernels (empty manifest)");
  return ops;
}

ModuleFiles module_files(const std::string& text) {
  try {
    const auto files = json::parse(text).at("modules").at(0).at("files");
    return {files.at("header").get<std::string>(), files.at("kernels").get<std::string>()};
  } catch (const json::exception& e) {
    throw std::invalid_argument(e.what());
  }
}

}  // namespace detail
}  // namespace mpgen

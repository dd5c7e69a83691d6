// The manifest of a module (mpgen_manifest.json's schema, printers/manifest.py): each
// operation's contract, as OpInfo.
#include <nlohmann/json.hpp>

#include "kernels.hpp"

namespace mpgen {

unsigned OpInfo::in_words() const {
  unsigned words = 0;
  for (unsigned k = 0; k < operand_bits.size(); ++k) words += operand_limbs(k);
  return words;
}

namespace {

using json = nlohmann::json;

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
    info.operand_bits.push_back(operand.at("bits").get<unsigned>());
    info.operand_roles.push_back(role);
    if (operand.at("below_modulus").get<bool>()) info.below_modulus |= 1u << at;
  }
  info.optional_operands = op.at("optional_operands").get<unsigned>();
}

// op's result and its batch kernel's launch geometry.
void read_result_and_launch(const json& op, OpInfo& info) {
  const json &result = op.at("result"), &launch = op.at("launch");
  info.result_limbs = result.at("limbs").get<unsigned>();
  info.result_parts = result.value("parts", 1u);
  info.has_flag = result.at("flag").get<bool>();
  info.signed_result = result.at("signed").get<bool>();
  info.block_threads = launch.at("block_threads").get<unsigned>();
  info.threads_per_instance = launch.at("threads_per_instance").get<unsigned>();
  info.blocks_per_instance = launch.at("blocks_per_instance").get<unsigned>();
  info.launch_groups = launch.at("launch_groups").get<unsigned>();
  info.limbs_per_thread = launch.at("limbs_per_thread").get<unsigned>();
  info.shared_bytes = launch.at("shared_bytes").get<unsigned>();
  info.contiguous_shared_bytes = launch.at("contiguous_shared_bytes").get<unsigned>();
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
    info.modulus = parse_hex(module.at("rns").at("product").get<std::string>(), 32 * module.at("limbs").get<unsigned>());
  if (module.contains("gf")) {
    const auto& gf = module.at("gf");
    info.modulus = parse_hex(gf.at("modulus").get<std::string>(), 32 * module.at("limbs").get<unsigned>());
    if (!gf.at("fft").is_null()) {
      info.transform_radix = gf.at("fft").at("radix").get<unsigned>();
      info.transform_largest_log = gf.at("fft").at("largest_log").get<unsigned>();
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
  info.bits = module.at("bits").get<unsigned>();
  info.kernel = op.at("kernel").get<std::string>();
  read_operands(op, info);
  read_result_and_launch(op, info);
  read_modulus(module, info);
  info.host64 = op.contains("host64") && !op.at("host64").is_null();
  info.loop = op.value("loop", false);  // (RNS sets and GF fields list none)
  if (info.in_words() != op.at("in_words").get<unsigned>() || info.out_words() != op.at("out_words").get<unsigned>())
    throw InputError(origin + ": mpgen manifest's words of " + info.name + " do not add up");
  return info;
}

}  // namespace

namespace detail {

std::vector<OpInfo> parse_manifest(const std::string& text, const std::string& origin) {
  std::vector<OpInfo> ops;
  try {
    const auto manifest = json::parse(text);
    if (manifest.at("schema").get<int>() != manifest_schema)
      throw InputError(origin + ": mpgen manifest of schema " + manifest.at("schema").dump() +
                       "; this runtime reads schema " + std::to_string(manifest_schema));
    for (const auto& module : manifest.at("modules"))
      for (const auto& op : module.at("operations")) ops.push_back(read_operation(module, op, origin));
  } catch (const json::exception& e) {
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

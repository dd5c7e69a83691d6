// mpgen-run: runs one operation on operands read from stdin, one instance per line.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "mpgen/runtime.hpp"

namespace {

int fail(const std::string& message, int status) {
  std::cerr << "mpgen-run: error: " << message << "\n";
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs an mpgen operation on hex operands from stdin, one instance per line "
               "(operands separated by spaces); prints one result per line in hex, followed "
               "by the carry or borrow for operations that have one.",
               "mpgen-run"};
  app.footer(
      "Operands are hex, as wide as the operation says (--list shows each); add and sub take\n"
      "an optional carry or borrow in as a third operand. cmp prints -1, 0 or 1.\n"
      "examples:\n"
      "  echo 'ffffffff 1' | mpgen-run --bits 64 --op add      # 100000000 0\n"
      "  echo '3 5' | mpgen-run --bits 131 --op mul --device gpu  # f\n"
      "  echo '1 21' | mpgen-run --bits 256 --op shl           # 200000000\n"
      "  echo '2 3' | mpgen-run --field secp256k1 --op modexp  # 8 (a field: operands below p)\n"
      "  echo '4' | mpgen-run --field bn254_fp --op modsqrt    # a root and 0, or 0 1 for a non-square\n"
      "  echo '3' | mpgen-run --modulus 0xb --op modinv --device gpu  # 4 0 (compiled now)\n"
      "  echo '3 5' | mpgen-run --bits 173 --op mul --device gpu  # a size built nowhere: compiled now\n"
      "  mpgen generate --bits 200 --ops add --ptx --out k && echo '1 2' | mpgen-run --bits 200 --op add \\\n"
      "      --device gpu --ptx k/mpgen_u200.ptx              # 3 0");
  unsigned bits = 0;
  std::string op, field, modulus, device = "cpu";
  bool list = false;
  std::vector<std::string> ptx_files;
  app.add_flag("--list", list, "show the built sizes and operations with their operands' widths");
  auto* bits_option = app.add_option("--bits", bits, "size in bits");
  auto* field_option = app.add_option("--field", field, "a field built into the runtime (see --list): its "
                                      "operations, operands below its modulus")->excludes(bits_option);
  app.add_option("--modulus", modulus, "any modulus (hex, up to 2048 bits): its field's operations, "
                 "generated and compiled now for the GPU (--device gpu)")->excludes(bits_option)->excludes(field_option);
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
    return 0;
  }
  if ((!bits && field.empty() && modulus.empty()) || op.empty())
    return fail("--bits, --field or --modulus, and --op, are required (or --list)", 2);
  if (!modulus.empty() && device != "gpu")
    return fail("--modulus: a modulus built nowhere is compiled for the GPU only; add --device gpu, or build "
                "it in (mpgen generate --modulus)", 2);

  try {
    for (const auto& path : ptx_files) mpgen::load_ptx(path);
    const auto built = mpgen::sizes();
    const bool unbuilt = std::find(built.begin(), built.end(), bits) == built.end();
    // A size built nowhere: generated and compiled for the GPU now (cached on disk).
    const mpgen::OpInfo& info = !modulus.empty()              ? mpgen::compile_field_on_demand(modulus, op)
                                : !field.empty()              ? mpgen::find_field(field, op)
                                : unbuilt && device == "gpu" ? mpgen::compile_on_demand(bits, op)
                                                             : mpgen::find(bits, op);
    std::vector<std::vector<std::vector<uint32_t>>> instances;
    std::string line;
    for (std::size_t number = 1; std::getline(std::cin, line); ++number) {
      const std::string where = "line " + std::to_string(number) + ": ";
      std::istringstream stream(line);
      std::vector<std::string> fields;
      for (std::string field; stream >> field;) fields.push_back(field);
      const std::size_t most = info.operand_bits.size(), least = most - info.optional_operands;
      if (fields.size() < least || fields.size() > most)
        return fail(where + std::to_string(fields.size()) + " operands; " + op + " takes " +
                        (least == most ? std::to_string(most)
                                       : std::to_string(least) + " or " + std::to_string(most)),
                    2);
      std::vector<std::vector<uint32_t>> operands;
      for (unsigned k = 0; k < fields.size(); ++k) {
        try {
          operands.push_back(mpgen::parse_hex(fields[k], info.operand_bits[k]));
        } catch (const mpgen::InputError& e) {
          return fail(where + "operand " + std::to_string(k + 1) + ": " + e.what(), 2);
        }
        try {
          mpgen::check_operand(info, k, operands.back());  // names the operand itself
        } catch (const mpgen::InputError& e) {
          return fail(where + e.what(), 2);
        }
      }
      instances.push_back(std::move(operands));
    }

    mpgen::Batch batch(info, instances.size());
    for (std::size_t j = 0; j < instances.size(); ++j)
      for (unsigned k = 0; k < instances[j].size(); ++k) batch.set_operand(j, k, instances[j][k]);
    batch.run(device == "gpu" ? mpgen::Device::gpu : mpgen::Device::cpu);
    for (std::size_t j = 0; j < instances.size(); ++j) {
      const auto result = batch.result(j);
      if (info.signed_result)
        std::cout << int32_t(result[0]);
      else
        std::cout << mpgen::to_hex(result);
      if (info.has_flag) std::cout << ' ' << batch.flag(j);
      std::cout << '\n';
    }
  } catch (const mpgen::InputError& e) {
    return fail(e.what(), 2);
  } catch (const mpgen::GpuError& e) {
    return fail(e.what(), 1);
  } catch (const mpgen::CompileError& e) {
    return fail(e.what(), 1);
  }
  return 0;
}

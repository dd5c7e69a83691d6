// mpgen-run: runs one operation on operands read from stdin, one instance per line.
#include <CLI/CLI.hpp>

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
  app.footer("example: echo 'ffffffff 1' | mpgen-run --bits 64 --op add   # prints: 100000000 0");
  unsigned bits = 0;
  std::string op, device = "cpu";
  app.add_option("--bits", bits, "size in bits")->required();
  app.add_option("--op", op, "operation")->required();
  app.add_option("--device", device, "where to run: cpu or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }

  try {
    const mpgen::OpInfo& info = mpgen::find(bits, op);
    std::vector<std::vector<std::vector<uint32_t>>> instances;
    std::string line;
    for (std::size_t number = 1; std::getline(std::cin, line); ++number) {
      std::istringstream fields(line);
      std::vector<std::vector<uint32_t>> operands;
      try {
        for (std::string field; fields >> field;) operands.push_back(mpgen::parse_hex(field, bits));
      } catch (const mpgen::InputError& e) {
        return fail("line " + std::to_string(number) + ": " + e.what(), 2);
      }
      if (operands.size() != info.operand_limbs.size())
        return fail("line " + std::to_string(number) + ": " + std::to_string(operands.size()) +
                        " operands; " + op + " takes " + std::to_string(info.operand_limbs.size()),
                    2);
      instances.push_back(std::move(operands));
    }

    mpgen::Batch batch(info, instances.size());
    for (std::size_t j = 0; j < instances.size(); ++j)
      for (unsigned k = 0; k < instances[j].size(); ++k) batch.set_operand(j, k, instances[j][k]);
    batch.run(device == "gpu" ? mpgen::Device::gpu : mpgen::Device::cpu);
    for (std::size_t j = 0; j < instances.size(); ++j) {
      std::cout << mpgen::to_hex(batch.result(j));
      if (info.has_flag) std::cout << ' ' << batch.flag(j);
      std::cout << '\n';
    }
  } catch (const mpgen::InputError& e) {
    return fail(e.what(), 2);
  } catch (const mpgen::GpuError& e) {
    return fail(e.what(), 1);
  }
  return 0;
}

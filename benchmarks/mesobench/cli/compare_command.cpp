// `mesobench compare A B`: per-case ratios and U tests of two result files;
// exit 4 on a regression beyond the threshold (compare.hpp).
#include "../compare.hpp"
#include "command.hpp"

namespace meso::bench {
namespace {

class CompareCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* c = app.add_subcommand(
        "compare", "Compare two result files per case (ratios, U test); exit 4 on a regression beyond the threshold");
    c->add_option("A", o_.a, "Baseline result JSON")->required()->check(CLI::ExistingFile);
    c->add_option("B", o_.b, "Contender result JSON")->required()->check(CLI::ExistingFile);
    c->add_option("--threshold", o_.threshold_percent,
                  "Percent drop of median TPS that counts as a regression (default 5)");
    return c;
  }
  int run(const CommandContext&) override { return cmd_compare(o_); }

 private:
  CompareOptions o_;
};

}  // namespace

std::unique_ptr<Command> make_compare_command() { return std::make_unique<CompareCommand>(); }

}  // namespace meso::bench

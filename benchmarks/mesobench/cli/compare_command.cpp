// `mesobench compare A B`: per-case ratios and U tests of two result files;
// exit 4 on a significant regression beyond the threshold (compare.hpp).
#include "../compare.hpp"
#include "command.hpp"

namespace meso::bench {
namespace {

class CompareCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* c = app.add_subcommand(
        "compare",
        "Compare two result files per case (ratios, U test); exit 4 on a significant regression beyond the "
        "threshold, \"inconclusive\" (exit 0) where the change is not told from noise");
    c->add_option("A", o_.a, "Baseline result JSON")->required()->check(CLI::ExistingFile);
    c->add_option("B", o_.b, "Contender result JSON")->required()->check(CLI::ExistingFile);
    c->add_option("--threshold", o_.threshold_percent,
                  "Percent change of median TPS that can count (default 5)");
    c->add_option("--alpha", o_.alpha,
                  "Significance level of the U test a regression must pass (default 0.05; 4 repeats a side "
                  "are the fewest that can reach it)");
    c->add_flag("--across-variants", o_.across_variants,
                "Match benchmark cases by name without the variant (two variants of the same cases)");
    return c;
  }
  int run(const CommandContext&) override { return cmd_compare(o_); }

 private:
  CompareOptions o_;
};

}  // namespace

std::unique_ptr<Command> make_compare_command() { return std::make_unique<CompareCommand>(); }

}  // namespace meso::bench

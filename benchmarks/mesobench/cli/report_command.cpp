// `mesobench report DIR -o OUT`: figures and one Markdown page from a
// results directory (results_report.hpp; scripts/report_results.py).
#include "../results_report.hpp"
#include "command.hpp"

namespace meso::bench {
namespace {

class ReportCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* r = app.add_subcommand(
        "report", "Turn a results directory into figures and one Markdown page (python3 with matplotlib)");
    r->add_option("DIR", o_.dir, "Results directory (searched recursively for *.json, *.json.xz)")->required();
    r->add_option("-o,--output", o_.out,
                  "Output directory: new, empty, or an earlier report, whose files alone are replaced "
                  "(default mesobench-report)");
    r->add_flag("--force", o_.force,
                "Replace an earlier report in -o even when its report.json or files are not as it wrote them");
    return r;
  }
  int run(const CommandContext&) override { return cmd_report(o_); }

 private:
  ReportOptions o_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace meso::bench

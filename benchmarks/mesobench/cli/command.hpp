// The subcommands of mesobench, each in its own file beside this one: a
// Command adds its subcommand and options to the CLI11 app, and runs when
// that subcommand was given (`run` also when none was: the default suite).
#pragma once

#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "meso/run/backend.hpp"

namespace meso::scaling {
class MpiSession;
}

namespace meso::bench {

struct CommandContext {
  const BackendRegistry& registry;
  const scaling::MpiSession* mpi;  // null without MPI
};

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand and its options; returns it.
  virtual CLI::App* add_to(CLI::App& app) = 0;
  // Checks that need more than one option (after parsing), then runs.
  virtual int run(const CommandContext& ctx) = 0;
};

std::unique_ptr<Command> make_list_command();
std::unique_ptr<Command> make_morphology_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_compare_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_scale_command();
std::unique_ptr<Command> make_scale_point_command();
std::unique_ptr<Command> make_tune_command();
std::unique_ptr<Command> make_ibi_command();

}  // namespace meso::bench

// mesobench: run named benchmark workloads and validation cases on a chosen
// backend and variant, print a table and write JSON with provenance.
//
//   mesobench                          default suite on the best backend
//   mesobench list [--filter RE] [--params] [--variants]
//   mesobench run --filter RE --backend cpu|cuda|auto --variant STR --json FILE
//   mesobench validate --filter RE [--long] [--param knob=value] [--shard I/N]
//   mesobench validate --merge SHARD.json... --json FILE
//   mesobench validate ... --time-limit S; mesobench validate --resume FILE
//   mesobench compare A.json B.json [--threshold P]
//   mesobench report DIR [-o OUT]
//   mesobench scale --mode weak|strong --workload W --ranks 1,2,4 (--per-rank N | --total N)
//                   [--emit slurm DIR]; mesobench scale --summarize DIR
//   mpirun -np R mesobench scale-point --workload W --n N ...   (one point of a sweep)
//
// Each subcommand and its options live in cli/<name>_command.cpp.
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "backends.hpp"
#include "cli/command.hpp"
#include "cli/help_formatter.hpp"
#include "meso/core/error.hpp"
#include "meso/run/provenance.hpp"
#ifdef MESO_HAVE_MPI
#include "meso/scaling/mpi_communicator.hpp"
#endif

int main(int argc, char** argv) {
  using namespace meso;
  using namespace meso::bench;
#ifdef MESO_HAVE_MPI
  // MPI only when launched by mpirun/srun (scale-point); a plain run never starts it.
  scaling::MpiSession mpi(argc, argv);
  const scaling::MpiSession* mpi_session = &mpi;
#else
  const scaling::MpiSession* mpi_session = nullptr;
#endif
  CLI::App app{"mesobench: benchmark and validation suite for GPU mesoscale particle simulation"};
  app.name("mesobench");
  app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands, which copy it
  app.set_version_flag("--version", "mesobench " + collect_provenance().version);
  app.require_subcommand(0, 1);
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_list_command());
  commands.push_back(make_run_command());
  commands.push_back(make_validate_command());
  commands.push_back(make_compare_command());
  commands.push_back(make_report_command());
  commands.push_back(make_morphology_command());
  commands.push_back(make_scale_command());
  commands.push_back(make_scale_point_command());
  commands.push_back(make_tune_command());
  commands.push_back(make_ibi_command());
  std::vector<CLI::App*> subcommands;
  for (auto& c : commands) subcommands.push_back(c->add_to(app));
  Command* const default_command = commands[1].get();  // no subcommand: `run`, the default suite
  CLI::App* help = app.add_subcommand("help", "Print this help, or a command's (help COMMAND), and exit");
  std::string help_topic;
  help->add_option("command", help_topic, "The command to describe");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "mesobench: error: " << e.what() << "\n(run with --help for usage)\n";
    return kExitInputError;
  }

  if (*help) {
    if (help_topic.empty()) {
      // app.help() would show the subcommand's
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return 0;
    }
    // `help run` prints what `run --help` prints.
    for (const CLI::App* sub : subcommands)
      if (sub->get_name() == help_topic) {
        std::cout << sub->help(app.get_name());
        return 0;
      }
    std::cerr << "mesobench: error: help: no command '" << excerpt(help_topic, 40)
              << "' (`mesobench help` lists them)\n";
    return kExitInputError;
  }
  std::string command = "run";
  for (const CLI::App* sub : subcommands)
    if (*sub) command = sub->get_name();
  try {
    BackendRegistry registry;
    register_backends(registry);
    const CommandContext ctx{registry, mpi_session};
    for (std::size_t k = 0; k < commands.size(); ++k)
      if (*subcommands[k]) return commands[k]->run(ctx);
    return default_command->run(ctx);
  } catch (const InputError& e) {
    std::cerr << "mesobench: error: " << e.what() << '\n';
    return kExitInputError;
  } catch (const std::bad_alloc&) {
    // The readers and `run` name the file or the system size that did not
    // fit; anything that still runs out of memory is named by its command.
    std::cerr << "mesobench: error: " << command << ": out of memory (its input asks for more than this "
              << "machine holds)\n";
    return kExitInputError;
  } catch (const std::length_error&) {  // a container asked for more than max_size()
    std::cerr << "mesobench: error: " << command << ": out of memory (its input asks for more than a "
              << "container can hold)\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "mesobench: failed: " << e.what() << '\n';
    return 1;
  }
}

// The help screens in 100 columns. CLI11 2.1 prints an option's description
// on one line however long it is (the --param line names every workload's
// keys); this formatter breaks descriptions at spaces so that no line of
// `--help` passes kHelpColumns, each continuation indented to the
// description column as CLI11 indents its own line breaks.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace meso::bench {

constexpr std::size_t kHelpColumns = 100;

// Breaks text at spaces into lines of at most `width` characters (a word
// longer than that stays whole on its own line); existing newlines are kept.
std::string wrap_text(const std::string& text, std::size_t width);

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;

 private:
  std::size_t description_width() const { return kHelpColumns - get_column_width(); }
};

}  // namespace meso::bench

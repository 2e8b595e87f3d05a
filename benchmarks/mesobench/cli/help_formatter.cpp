#include "help_formatter.hpp"

#include <sstream>

namespace meso::bench {

std::string wrap_text(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += '\n';
    first_line = false;
    std::istringstream words(line);
    std::string word;
    std::size_t used = 0;
    while (words >> word) {
      if (used > 0 && used + 1 + word.size() > width) {
        out += '\n';
        used = 0;
      } else if (used > 0) {
        out += ' ';
        ++used;
      }
      out += word;
      used += word.size();
    }
  }
  return out;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  return wrap_text(CLI::Formatter::make_option_desc(opt), description_width());
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true), wrap_text(sub->get_description(), description_width()),
                           get_column_width());
  return out.str();
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string d = CLI::Formatter::make_description(app);
  return d.empty() ? d : wrap_text(d, kHelpColumns) + "\n";
}

}  // namespace meso::bench

#include "case_filter.hpp"

#include <re2/re2.h>

#include "meso/core/error.hpp"

namespace meso::bench {

std::string shown_value(const std::string& s, std::size_t width) {
  std::string out;
  for (char ch : s) out += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
  if (out.size() > width) out = out.substr(0, width > 3 ? width - 3 : 0) + "...";
  return out;
}

bool CaseFilter::matches(std::string_view name) const {
  return !re_ || re2::RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re_);
}

CaseFilter compile_filter(const std::string& pattern) {
  CaseFilter f;
  if (pattern.empty()) return f;
  if (pattern.size() > kMaxFilterLength)
    throw_input_error("--filter '", shown_value(pattern), "':\n  ", pattern.size(), " characters long; at most ",
                      kMaxFilterLength, " are allowed");
  re2::RE2::Options opts;
  opts.set_log_errors(false);  // the error is reported once, below
  auto re = std::make_shared<const re2::RE2>(pattern, opts);
  if (!re->ok())
    throw_input_error("--filter '", shown_value(pattern), "':\n  not a valid regular expression (RE2 syntax): ",
                      shown_value(re->error(), 50));
  f.re_ = std::move(re);
  return f;
}

}  // namespace meso::bench

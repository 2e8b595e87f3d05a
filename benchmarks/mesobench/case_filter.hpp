// The --filter of list, run and validate: a regular expression searched in
// case names. It is user input, so it is matched by RE2 (linear time in the
// name, no backtracking, no recursion on the pattern: std::regex overflowed
// the stack on a long pattern and ran for minutes on `(.*)*(.*)*X`), and
// its length is bounded.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace meso::bench {

// The longest --filter accepted, in bytes.
inline constexpr std::size_t kMaxFilterLength = 1000;

class CaseFilter {
 public:
  // True when the pattern occurs somewhere in `name` (a search, as
  // std::regex_search; anchor with ^ and $). The empty pattern matches all.
  bool matches(std::string_view name) const;

 private:
  friend CaseFilter compile_filter(const std::string& pattern);
  std::shared_ptr<const re2::RE2> re_;
};

// Compiles a --filter pattern (RE2 syntax: ECMAScript's without
// backreferences and lookaround). A pattern longer than kMaxFilterLength or
// one RE2 rejects is an input error naming the pattern (cut to 60
// characters) and RE2's reason.
CaseFilter compile_filter(const std::string& pattern);

// `s` for a message: control characters shown as '?', cut to `width`
// characters with "..." when longer.
std::string shown_value(const std::string& s, std::size_t width = 60);

}  // namespace meso::bench

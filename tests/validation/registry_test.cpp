// The gate registry (validation/<name>/, ARCHITECTURE.md "How to add a
// validation case"): every case a gate folder declares in its gate.cmake is
// linked in and registered, and no case is registered without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "meso/validation/validation_case.hpp"

namespace {

using namespace meso::validation;

std::set<std::string> registered() {
  std::set<std::string> names;
  for (const Case& c : all_cases()) names.insert(c.name);
  return names;
}

// MESO_GATE_CASES: the cases of the gate.cmake files, space-separated
// (tests/CMakeLists.txt). A registration the linker dropped (the library
// archived rather than linked whole), a case without a full form or a full
// form of no case fails here, naming the case.
TEST(ValidationRegistry, EveryGateFolderIsRegistered) {
  std::set<std::string> declared;
  std::istringstream in(MESO_GATE_CASES);
  for (std::string name; in >> name;) declared.insert(name);
  const std::set<std::string> linked = registered();
  for (const auto& name : declared)
    EXPECT_TRUE(linked.count(name)) << name << ": declared by a gate.cmake, not registered in the program";
  for (const auto& name : linked)
    EXPECT_TRUE(declared.count(name)) << name << ": registered, but no gate.cmake declares a full form";
  // The 18 gates of the tree when the registry was introduced (issue 53): a
  // lower bound, so that an empty registry and an empty declaration fail.
  EXPECT_GE(linked.size(), 18u);
}

TEST(ValidationRegistry, SortedByNameAndEachOnce) {
  const auto& cases = all_cases();
  EXPECT_TRUE(std::is_sorted(cases.begin(), cases.end(),
                             [](const Case& a, const Case& b) { return a.name < b.name; }));
  EXPECT_EQ(registered().size(), cases.size());
}

TEST(ValidationRegistry, RefusesANameTwice) {
  const std::size_t before = all_cases().size();
  const Case twice{.name = "dpd-temperature", .source = "a second one", .run = {}};
  EXPECT_THROW(CaseRegistration{twice}, std::logic_error);
  EXPECT_EQ(all_cases().size(), before);
}

}  // namespace

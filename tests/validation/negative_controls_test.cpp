// Every gate's negative controls (validation::Control, docs/testing.md
// "Negative controls"): the short form of each case under each of its
// controls, on the CPU reference, must FAIL. The cases come from the
// registry, so a gate added with a control is tested without a line here,
// and one without a control cannot register at all.
#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "meso/validation/validation_case.hpp"
#include "support/run_validation_case.hpp"

namespace {

using namespace meso::validation;

struct GateControl {
  std::string gate, control;
};

// How gtest prints a parameter (in the list and on failure).
void PrintTo(const GateControl& g, std::ostream* os) { *os << g.gate << " --control " << g.control; }

std::vector<GateControl> every_control() {
  std::vector<GateControl> out;
  for (const Case& c : all_cases())
    for (const Control& k : c.controls) out.push_back({c.name, k.name});
  return out;
}

class NegativeControl : public testing::TestWithParam<GateControl> {};

TEST_P(NegativeControl, GateRejectsIt) {
  const auto& [gate, control] = GetParam();
  const Case* c = nullptr;
  for (const Case& k : all_cases())
    if (k.name == gate) c = &k;
  ASSERT_NE(c, nullptr);
  const Control& k = find_control(*c, control);
  if (!k.in_ci)
    GTEST_SKIP() << gate << " " << control << " (" << k.what << ") is rejected by the "
                 << (k.device_long ? "long" : "short") << " form on a device: mesobench validate --filter ^" << gate
                 << "$ --control " << control << " --backend cuda" << (k.device_long ? " --long" : "");
  const Result r = meso::test_support::run_validation_control(gate, control);
  EXPECT_FALSE(r.partial);
  EXPECT_FALSE(r.passed) << gate << " accepted its control " << control << " (" << k.what << "): measured "
                         << r.measured << " +/- " << r.uncertainty << ", reference " << r.reference
                         << ", tolerance " << r.tolerance << " (" << r.rule << ")";
  std::cout << gate << " under " << control << ": measured " << r.measured << " +/- " << r.uncertainty
            << ", reference " << r.reference << ", tolerance " << r.tolerance << "\n";
  if (r.data.contains("gates"))  // which of the case's gates rejected it, for the log
    for (const auto& g : r.data["gates"]) std::cout << "  " << g.dump() << "\n";
}

// Test names: the gate and the control, in characters gtest allows.
std::string name_of(const testing::TestParamInfo<GateControl>& info) {
  std::string s = info.param.gate + "_" + info.param.control;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Gates, NegativeControl, testing::ValuesIn(every_control()), name_of);

}  // namespace

// The gate registry (validation/<name>/, ARCHITECTURE.md "How to add a
// validation case"): every case a gate folder declares in its gate.cmake is
// linked in and registered, and no case is registered without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "meso/core/error.hpp"
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
  const Case twice{.name = "dpd-temperature", .workload = "dpd-fluid", .source = "a second one", .run = {},
                   .knobs = {"noise: x"}, .controls = {{.name = "c", .what = "w", .params = {{"noise", 2.0}}}}};
  EXPECT_THROW(CaseRegistration{twice}, std::logic_error);
  EXPECT_EQ(all_cases().size(), before);
}

// A gate must show it can fail (docs/testing.md, "Negative controls"): a
// case without a negative control, with a control that perturbs nothing or
// sets a knob the case does not read, or with two controls of one name, is
// refused at registration, before main().
TEST(ValidationRegistry, RefusesACaseWithoutAWorkingControl) {
  const std::size_t before = all_cases().size();
  auto refused = [&](Case c, const char* why) {
    c.name = "control-test";
    c.workload = "dpd-fluid";
    try {
      CaseRegistration{c};
      ADD_FAILURE() << why << ": registered";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("control"), std::string::npos) << e.what();
    }
  };
  const Control good{.name = "k", .what = "x 2", .params = {{"noise", 2.0}}};
  refused({.knobs = {"noise: the noise"}}, "no control");
  refused({.knobs = {"noise: the noise"}, .controls = {{.name = "k", .what = "nothing"}}}, "an empty control");
  refused({.knobs = {"time: the time"}, .controls = {good}}, "a knob the case lacks");
  refused({.knobs = {"noise: the noise"},
           .controls = {good, {.name = "k", .what = "x 3", .params = {{"noise", 3.0}}}}},
          "two controls named alike");
  refused({.knobs = {"noise: the noise"},
           .controls = {{.name = "k", .what = "x", .params = {{"noise", 2.0}}, .short_params = {{"t", 1.0}}}}},
          "a short form knob the case lacks");
  EXPECT_EQ(all_cases().size(), before);
}

// Which workload's default variant a case runs on a GPU is stated, never
// assumed (issue 57): a case without a workload is refused at registration;
// one that says kNoWorkload passes that check (refused here for its missing
// control instead, so that the registry stays as the program's).
TEST(ValidationRegistry, RefusesACaseWithoutAWorkload) {
  const std::size_t before = all_cases().size();
  auto refusal = [](const Case& c) -> std::string {
    try {
      CaseRegistration{c};
    } catch (const std::logic_error& e) {
      return e.what();
    }
    return "registered";
  };
  Case c{.name = "workload-test", .workload = "", .source = "s", .run = {}, .knobs = {"noise: the noise"},
         .controls = {{.name = "k", .what = "x 2", .params = {{"noise", 2.0}}}}};
  EXPECT_NE(refusal(c).find("names no workload"), std::string::npos) << refusal(c);
  c.workload = kNoWorkload;
  c.controls.clear();
  EXPECT_NE(refusal(c).find("declares no negative control"), std::string::npos) << refusal(c);
  EXPECT_EQ(all_cases().size(), before);
  for (const Case& k : all_cases()) EXPECT_FALSE(k.workload.empty()) << k.name;
}

TEST(ValidationRegistry, EveryCaseHasAControlOfItsOwnKnobs) {
  for (const Case& c : all_cases()) {
    EXPECT_FALSE(c.controls.empty()) << c.name;
    for (const Control& k : c.controls) {
      EXPECT_FALSE(k.what.empty()) << c.name << " " << k.name;
      EXPECT_EQ(&find_control(c, k.name), &k);
    }
  }
}

// The knobs a control run sets: its perturbation in either form, its short
// form's run length only in the short form, a --param of the run's length
// kept and one of the perturbation refused.
TEST(ValidationRegistry, ControlParamsLayTheControlOverTheGivenKnobs) {
  const Control k{.name = "k", .what = "x", .params = {{"noise", 1.1}}, .short_params = {{"time", 5.0}}};
  using P = std::map<std::string, double>;
  EXPECT_EQ(control_params(k, Form::short_form, {}), (P{{"noise", 1.1}, {"time", 5.0}}));
  EXPECT_EQ(control_params(k, Form::long_form, {}), (P{{"noise", 1.1}}));
  EXPECT_EQ(control_params(k, Form::short_form, {{"time", 7.0}}), (P{{"noise", 1.1}, {"time", 7.0}}));
  EXPECT_THROW(control_params(k, Form::short_form, {{"noise", 1.0}}), meso::InputError);
  const Case& any = all_cases().front();
  EXPECT_THROW(find_control(any, "no-such-control"), meso::InputError);
}

}  // namespace

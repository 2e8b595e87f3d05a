// The StepPlan's composition of a step, on a backend whose operations only
// record what the plan asks of them: the order of the stages, when the list
// is rebuilt and reordered, the forces of t = 0, fusion, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/operation.hpp"
#include "meso/run/step_plan.hpp"
#include "meso/core/system.hpp"

namespace {

using namespace meso;

struct Log {
  std::vector<std::string> calls;
  std::vector<bool> stale_answers;  // what stale() answers, in turn (then false)
  std::size_t next_stale = 0;
};

class RecCells final : public CellListOp {
 public:
  explicit RecCells(Log& l) : l_(l) {}
  void build() override { l_.calls.push_back("cells"); }
  Log& l_;
};
class RecList final : public NeighborListOp {
 public:
  explicit RecList(Log& l) : l_(l) {}
  bool stale(const StepRules&) override {
    l_.calls.push_back("stale");
    return l_.next_stale < l_.stale_answers.size() && l_.stale_answers[l_.next_stale++];
  }
  void build() override { l_.calls.push_back("nlist"); }
  NeighborStats stats() const override { return {}; }
  Log& l_;
};
class RecReorder final : public ReorderOp {
 public:
  explicit RecReorder(Log& l) : l_(l) {}
  void apply() override { l_.calls.push_back("reorder"); }
  Log& l_;
};
class RecForce final : public ForceOp {
 public:
  RecForce(Log& l, bool can_finish) : l_(l), can_finish_(can_finish) {}
  void compute(const ForceRequest& r) override {
    l_.calls.push_back("force(" + std::to_string(r.step) + (r.sums ? ",sums" : "") +
                       (r.initial ? ",initial" : "") + (finishes_step() ? ",finish" : "") + ")");
  }
  PairSums sums() const override { return {1.5, -2.0}; }
  bool can_finish_step() const override { return can_finish_; }
  Log& l_;
  bool can_finish_;
};
class RecMethod final : public IntegrationMethodOp {
 public:
  RecMethod(Log& l, bool fusable) : l_(l), fusable_(fusable) {}
  void first_half(uint64_t step) override { l_.calls.push_back("first(" + std::to_string(step) + ")"); }
  void second_half(uint64_t step) override { l_.calls.push_back("second(" + std::to_string(step) + ")"); }
  bool second_half_fusable() const override { return fusable_; }
  Log& l_;
  bool fusable_;
};

// Registers recording operations under the engine's names; honours the
// axes it is given.
class RecBackend final : public Backend {
 public:
  RecBackend(const Variant& v, std::vector<std::string> axes, Log& l, bool force_can_finish = true)
      : Backend(v), axes_(std::move(axes)), log_(l) {
    table_.add("cell_list", [](Log& l) { return std::make_unique<RecCells>(l); });
    table_.add("neighbor_list", [](Log& l) { return std::make_unique<RecList>(l); });
    table_.add("reorder", [](Log& l) { return std::make_unique<RecReorder>(l); });
    table_.add("pair_force/dpd",
               [force_can_finish](Log& l) { return std::make_unique<RecForce>(l, force_can_finish); });
    table_.add("integrate/vv", [](Log& l) { return std::make_unique<RecMethod>(l, true); });
    table_.add("integrate/nvt", [](Log& l) { return std::make_unique<RecMethod>(l, false); });
  }
  // Registers a recording "bonded" force (the CPU reference has one; a
  // backend without it must refuse a system with a topology).
  void add_bonded() {
    table_.add("bonded", [](Log& l) { return std::make_unique<RecForce>(l, false); });
  }
  std::string name() const override { return "rec"; }
  std::vector<std::string> applicable_axes() const override { return axes_; }
  void set_system(const System&, const RunParams&) override {}
  void get_particles(ParticleData<double>&) const override {}
  std::unique_ptr<Operation> create(const std::string& name) override {
    return table_.create(name, log_, "rec");
  }
  ThermoSample thermo(uint64_t, const PairSums&) const override { return {}; }

 private:
  std::vector<std::string> axes_;
  Log& log_;
  OperationTable<Log> table_;
};

System small_system() {
  DpdFluidParams p;
  p.n = 200;
  p.s = 0.5;
  return make_dpd_fluid(p);
}

// small_system() with one bond and one angle.
System bonded_system() {
  System sys = small_system();
  sys.topology.bond_types.push_back({"s", BondKind::harmonic, {10.0, 1.0}, {}});
  sys.topology.angle_types.push_back({"b", {5.0, 3.0}});
  sys.topology.bonds.push_back({0, 1, 0});
  sys.topology.angles.push_back({0, 1, 2, 0});
  return sys;
}

using Calls = std::vector<std::string>;

TEST(StepPlan, PreparesThenRunsTheStagesInOrder) {
  Log log;
  RecBackend b(Variant{}, {}, log);
  auto plan = StepPlan::build(b, small_system(), RunParams{});
  plan->prepare();
  EXPECT_EQ(log.calls, (Calls{"cells", "nlist", "force(0,sums,initial)"}));
  log.calls.clear();
  log.stale_answers = {false, true};
  plan->run_step(1, false);
  plan->run_step(2, true);
  EXPECT_EQ(log.calls, (Calls{"first(1)", "stale", "force(1)", "second(1)",  //
                              "first(2)", "stale", "cells", "nlist", "force(2,sums)", "second(2)"}));
  EXPECT_EQ(plan->sums().energy, 1.5);
  EXPECT_EQ(plan->sums().virial, -2.0);
  EXPECT_FALSE(plan->second_half_fused());
}

// reorder=cell, sort=3: at set-up, then at the first rebuild at least 3
// steps after the previous reorder (rebuilds at steps 1, 2, 4, 5).
TEST(StepPlan, ReordersAtTheFirstRebuildAfterSortSteps) {
  Log log;
  RecBackend b(Variant::parse("reorder=cell,sort=3"), {"reorder", "sort"}, log);
  auto plan = StepPlan::build(b, small_system(), RunParams{});
  plan->prepare();
  EXPECT_EQ(log.calls.front(), "reorder");
  log.calls.clear();
  log.stale_answers = {true, true, false, true, true};
  std::vector<uint64_t> reordered_at;
  for (uint64_t s = 1; s <= 5; ++s) {
    log.calls.clear();
    plan->run_step(s, false);
    for (const auto& c : log.calls)
      if (c == "reorder") reordered_at.push_back(s);
  }
  EXPECT_EQ(reordered_at, (std::vector<uint64_t>{4}));
}

// A backend that does not honour the reorder axis gets no reorder stage.
TEST(StepPlan, NoReorderWhereTheBackendIgnoresTheAxis) {
  Log log;
  RecBackend b(Variant::parse("reorder=cell,sort=1"), {}, log);
  auto plan = StepPlan::build(b, small_system(), RunParams{});
  EXPECT_EQ(plan->reorder(), nullptr);
  plan->prepare();
  EXPECT_EQ(log.calls, (Calls{"cells", "nlist", "force(0,sums,initial)"}));
}

TEST(StepPlan, FuseLetsTheLastForceFinishTheStep) {
  Log log;
  RecBackend b(Variant::parse("fuse=on"), {"fuse"}, log);
  auto plan = StepPlan::build(b, small_system(), RunParams{});
  EXPECT_TRUE(plan->second_half_fused());
  plan->prepare();
  log.calls.clear();
  plan->run_step(7, false);
  EXPECT_EQ(log.calls, (Calls{"first(7)", "stale", "force(7,finish)"}));
}

TEST(StepPlan, RefusesFuseWithAThermostatAndNamesIt) {
  Log log;
  RecBackend b(Variant::parse("fuse=on"), {"fuse"}, log);
  RunParams rp;
  rp.integrator = Integrator::nvt;
  try {
    StepPlan::build(b, small_system(), rp);
    FAIL() << "fuse=on accepted with nvt";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fuse=on"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nvt"), std::string::npos) << e.what();
  }
}

TEST(StepPlan, RefusesFuseWhenTheLastForceCannotFinish) {
  Log log;
  RecBackend b(Variant::parse("fuse=on"), {"fuse"}, log, /*force_can_finish=*/false);
  EXPECT_THROW(StepPlan::build(b, small_system(), RunParams{}), InputError);
}

TEST(StepPlan, AnOperationTheBackendLacksIsAnInputErrorNamingIt) {
  Log log;
  RecBackend b(Variant{}, {}, log);
  RunParams rp;
  rp.integrator = Integrator::langevin;  // not registered by RecBackend
  try {
    StepPlan::build(b, small_system(), rp);
    FAIL() << "a missing operation was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("integrate/langevin"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'rec'"), std::string::npos) << e.what();
  }
}

TEST(StepPlan, BondedForceAddsAfterThePairForce) {
  Log log;
  RecBackend b(Variant{}, {}, log);
  b.add_bonded();
  auto without = StepPlan::build(b, small_system(), RunParams{});
  EXPECT_EQ(without->forces().size(), 1u);  // no topology, no bonded force
  auto plan = StepPlan::build(b, bonded_system(), RunParams{});
  ASSERT_EQ(plan->forces().size(), 2u);
  EXPECT_EQ(plan->forces()[0]->name(), "pair_force/dpd");
  EXPECT_TRUE(plan->forces()[0]->first());
  EXPECT_EQ(plan->forces()[1]->name(), "bonded");
  EXPECT_FALSE(plan->forces()[1]->first());
  plan->prepare();
  EXPECT_EQ(log.calls, (Calls{"cells", "nlist", "force(0,sums,initial)", "force(0,sums,initial)"}));
  EXPECT_EQ(plan->sums().energy, 3.0);  // both forces' sums
}

TEST(StepPlan, ABackendWithoutBondedForcesRefusesATopology) {
  Log log;
  RecBackend b(Variant{}, {}, log);
  try {
    StepPlan::build(b, bonded_system(), RunParams{});
    FAIL() << "a topology was accepted by a backend without bonded forces";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bonded forces are not provided by the rec backend yet (the system has 1 bonds and 1 angles"),
              std::string::npos)
        << msg;
  }
}

TEST(StepPlan, RefusesFuseWithBondedForces) {
  Log log;
  RecBackend b(Variant::parse("fuse=on"), {"fuse"}, log);
  b.add_bonded();
  try {
    StepPlan::build(b, bonded_system(), RunParams{});
    FAIL() << "fuse=on accepted with bonded forces";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("variant fuse=on is not provided with bonded or field forces"), std::string::npos)
        << e.what();
  }
}

}  // namespace

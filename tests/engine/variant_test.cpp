#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/run/variant.hpp"

namespace {

using meso::InputError;
using meso::Variant;

TEST(Variant, DefaultsAndCanonicalString) {
  const Variant v = Variant::parse("");
  EXPECT_EQ(v.to_string(),
            "nlist=ballot,cells=atomic,reorder=none,sort=0,pow=libm,precision=double,rng=philox,fuse=off,tpp=1,"
            "noise=fp64,gather=split,density=gather");
}

// A workload's default variant is the base; what the user names overrides it
// axis by axis (mesobench run --variant over the per-workload defaults).
TEST(Variant, ParseOverABaseOverridesOnlyTheNamedAxes) {
  const Variant base = Variant::parse("precision=mixed,reorder=morton2,sort=100,pow=fast,fuse=on,gather=record");
  const Variant v = Variant::parse("precision=double,sort=10", base);
  EXPECT_EQ(v.precision, meso::Precision::double_);
  EXPECT_EQ(v.sort, 10u);
  EXPECT_EQ(v.reorder, meso::ReorderKind::morton2);
  EXPECT_EQ(v.pow, meso::PowKind::fast);
  EXPECT_TRUE(v.fuse);
  EXPECT_EQ(v.gather, meso::GatherKind::record);
  EXPECT_EQ(Variant::parse("", base), base);
  EXPECT_EQ(Variant::named_axes(" sort=10, precision=double"),
            (std::vector<std::string>{"sort", "precision"}));
  EXPECT_TRUE(Variant::named_axes("").empty());
  EXPECT_THROW(Variant::named_axes("noise=fp16"), InputError);
  EXPECT_THROW(Variant::parse("gather=scatter", base), InputError);
}

TEST(Variant, ParsesEveryAxisAndRoundTrips) {
  const Variant v = Variant::parse(
      "nlist=atomic, cells=sorted,reorder=morton2,sort=100,pow=fast,precision=mixed,rng=tea,fuse=on,tpp=8");
  EXPECT_EQ(v.nlist, meso::NlistKind::atomic);
  EXPECT_EQ(v.cells, meso::CellsKind::sorted);
  EXPECT_EQ(v.reorder, meso::ReorderKind::morton2);
  EXPECT_EQ(v.sort, 100u);
  EXPECT_EQ(v.pow, meso::PowKind::fast);
  EXPECT_EQ(v.precision, meso::Precision::mixed);
  EXPECT_EQ(v.rng, meso::RngKind::tea);
  EXPECT_TRUE(v.fuse);
  EXPECT_EQ(v.tpp, 8u);
  EXPECT_EQ(v.get("tpp"), "8");
  EXPECT_EQ(Variant::parse(v.to_string()), v);
  EXPECT_EQ(v.to_string({"rng", "precision"}), "precision=mixed,rng=tea");
  EXPECT_EQ(Variant::parse("nlist=tiled").nlist, meso::NlistKind::tiled);
  EXPECT_EQ(Variant::parse("nlist=half").nlist, meso::NlistKind::half);
  EXPECT_EQ(Variant::parse("nlist=half").to_string({"nlist"}), "nlist=half");
  EXPECT_EQ(Variant::parse("nlist=cells").nlist, meso::NlistKind::cells);
  EXPECT_EQ(Variant::parse("nlist=cells").to_string({"nlist"}), "nlist=cells");
  EXPECT_EQ(Variant::parse("noise=fp32").noise, meso::NoiseKind::fp32);
  EXPECT_EQ(Variant::parse("gather=record").gather, meso::GatherKind::record);
  EXPECT_EQ(Variant::parse("gather=masked").gather, meso::GatherKind::masked);
  EXPECT_EQ(Variant::parse("gather=masked").get("gather"), "masked");
  EXPECT_EQ(Variant::parse("density=scatter").density, meso::DensityKind::scatter);
  EXPECT_EQ(Variant::parse("").get("density"), "gather");
}

void expect_error_mentions(const char* text, const char* needle) {
  try {
    Variant::parse(text);
    FAIL() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Variant, RejectsBadInputNamingIt) {
  expect_error_mentions("nlist=magic", "nlist=magic");
  expect_error_mentions("nlist=magic", "ballot, atomic, tiled");
  expect_error_mentions("colour=red", "colour");
  expect_error_mentions("sort=-3", "sort=-3");
  expect_error_mentions("tpp=3", "tpp=3");
  expect_error_mentions("tpp=3", "1, 2, 4, 8, 16, 32");
  expect_error_mentions("sort=10x", "sort=10x");
  expect_error_mentions("rng", "rng");
  expect_error_mentions("rng=tea,rng=philox", "twice");
  expect_error_mentions("noise=fp16", "fp64, fp32");
  expect_error_mentions("gather=scatter", "split, record");
  expect_error_mentions("graphs=0", "on, off");
  expect_error_mentions("overlap=1", "off, on, always");
  expect_error_mentions("vote=sometimes", "schedule, every");
  expect_error_mentions("solvent_capacity=67108865", "solvent_capacity=67108865");
  expect_error_mentions("solvent_capacity=67108865", "0 to 67108864");
}

// The schedule axes (what were the MESO_CUDA_GRAPHS, MESO_OVERLAP,
// MESO_VOTE_EVERY_STEP, MESO_SOLVENT_GRAPHS and MESO_SOLVENT_CAPACITY
// environment variables): parsed like the others, and named in a canonical
// string only away from their defaults, so that the case names, checkpoint
// identities and results of runs at the defaults are what they were
// (DefaultsAndCanonicalString's string is the one before they existed).
TEST(Variant, ScheduleAxesAreNamedOnlyAwayFromTheirDefaults) {
  const Variant d;
  EXPECT_TRUE(d.graphs);
  EXPECT_EQ(d.overlap, meso::OverlapKind::off);
  EXPECT_EQ(d.vote, meso::VoteKind::schedule);
  EXPECT_FALSE(d.solvent_graphs);
  EXPECT_EQ(d.solvent_capacity, 0u);
  EXPECT_EQ(Variant::parse("graphs=on,overlap=off,vote=schedule,solvent_graphs=off,solvent_capacity=0"), d);
  EXPECT_EQ(Variant::parse("graphs=on").to_string(), d.to_string());

  const Variant v =
      Variant::parse("graphs=off,overlap=always,vote=every,solvent_graphs=on,solvent_capacity=67108864");
  EXPECT_FALSE(v.graphs);
  EXPECT_EQ(v.overlap, meso::OverlapKind::always);
  EXPECT_EQ(v.vote, meso::VoteKind::every);
  EXPECT_TRUE(v.solvent_graphs);
  EXPECT_EQ(v.solvent_capacity, 1u << 26);
  EXPECT_EQ(Variant::parse("overlap=on").overlap, meso::OverlapKind::on);
  EXPECT_EQ(v.to_string(), d.to_string() +
                               ",graphs=off,overlap=always,vote=every,solvent_graphs=on,solvent_capacity=67108864");
  EXPECT_EQ(Variant::parse(v.to_string()), v);
  EXPECT_EQ(v.to_string({"precision", "graphs", "vote"}), "precision=double,graphs=off,vote=every");
  EXPECT_EQ(d.to_string({"precision", "graphs", "vote"}), "precision=double");
  EXPECT_EQ(d.get("graphs"), "on");
  EXPECT_EQ(v.get("overlap"), "always");
}

// What `list --variants` prints for each axis.
TEST(Variant, ValuesListEachAxis) {
  EXPECT_EQ(Variant::values("graphs"), "on|off");
  EXPECT_EQ(Variant::values("overlap"), "off|on|always");
  EXPECT_EQ(Variant::values("nlist"), "ballot|atomic|tiled|half|cluster|cells");
  EXPECT_EQ(Variant::values("sort"), "N (steps between reorders)");
  EXPECT_THROW(Variant::values("colour"), InputError);
  for (const std::string& a : Variant::axes()) EXPECT_FALSE(Variant::values(a).empty()) << a;
}

}  // namespace

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meso/error.hpp"
#include "meso/variant.hpp"

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
}

}  // namespace

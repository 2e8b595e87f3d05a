// The variant a validation case runs (benchmarks/mesobench/validation_variant.hpp):
// on a GPU its workload's default with --variant's axes over it, as
// `mesobench run` resolves a benchmark's; on the CPU Variant::parse(--variant).
// The choice reads the workloads' tables only, so it is tested under the
// backend name "cuda" on a machine without a device.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "meso/validation/validation_case.hpp"
#include "validation_variant.hpp"

namespace {

using namespace meso;
using namespace meso::bench;

const validation::Case& registered(const std::string& name) {
  for (const auto& c : validation::all_cases())
    if (c.name == name) return c;
  throw std::logic_error("no validation case " + name);
}

// The default of `workload` on cuda in `precision`, as `list --variants` prints it.
Variant cuda_default(const std::string& workload, Precision precision) {
  return Variant::parse(default_variant_text(workload, "cuda", precision));
}

// Every case names a registered workload (a misspelt one would run Variant{}
// unnoticed, as resolve_variant does for a name it does not know).
TEST(ValidationVariant, EveryCaseNamesARegisteredWorkload) {
  for (const auto& c : validation::all_cases()) {
    EXPECT_FALSE(c.workload.empty()) << c.name;
    EXPECT_NO_THROW(validation_variant(c, "cuda", "")) << c.name << ": workload '" << c.workload << "'";
  }
  validation::Case typo = registered("dpd-temperature");
  typo.workload = "dpd-fluids";
  EXPECT_THROW(validation_variant(typo, "cuda", ""), std::logic_error);
}

// On a GPU without --variant: the workload's default in its default
// precision (mixed for dpd-fluid), not Variant{} (double), which validate
// ran before issue 57 while `mesobench run` ran this.
TEST(ValidationVariant, OnAGpuRunsTheWorkloadsDefault) {
  const validation::Case& c = registered("dpd-temperature");
  ASSERT_EQ(c.workload, "dpd-fluid");
  const ResolvedVariant r = validation_variant(c, "cuda", "");
  EXPECT_EQ(r.variant, cuda_default("dpd-fluid", Precision::mixed));
  EXPECT_EQ(r.variant.precision, Precision::mixed);
  EXPECT_NE(r.variant, Variant{});
  EXPECT_EQ(r.variant, resolve_variant("dpd-fluid", "cuda", "").variant);
  EXPECT_EQ(r.base, default_variant_text("dpd-fluid", "cuda", Precision::mixed));
  EXPECT_EQ(r.given, "");
  // Every case with a workload and no axes of its own runs exactly what
  // `mesobench run` runs for that workload.
  for (const auto& k : validation::all_cases()) {
    if (k.workload == validation::kNoWorkload || !k.gpu_axes.empty()) continue;
    EXPECT_EQ(validation_variant(k, "cuda", "").variant, resolve_variant(k.workload, "cuda", "").variant) << k.name;
  }
}

// --variant's axes over the default, axis by axis; a precision it names
// picks that precision's default first.
TEST(ValidationVariant, GivenAxesAreLaidOverTheDefault) {
  const validation::Case& c = registered("dpd-temperature");
  const ResolvedVariant tpp = validation_variant(c, "cuda", "tpp=2,sort=50");
  EXPECT_EQ(tpp.variant, Variant::parse("tpp=2,sort=50", cuda_default("dpd-fluid", Precision::mixed)));
  EXPECT_EQ(tpp.variant.tpp, 2u);
  EXPECT_EQ(tpp.variant.sort, 50u);
  EXPECT_EQ(tpp.variant.precision, Precision::mixed);
  EXPECT_EQ(tpp.given, "sort=50,tpp=2");
  const ResolvedVariant dbl = validation_variant(c, "cuda", "precision=double");
  EXPECT_EQ(dbl.variant, cuda_default("dpd-fluid", Precision::double_));
  EXPECT_NE(dbl.variant, Variant{});  // the double row (Morton order, fused step), not Variant{}
  const ResolvedVariant lj = validation_variant(registered("nve-drift-shift"), "cuda", "precision=single");
  EXPECT_EQ(lj.variant, cuda_default("lj-liquid", Precision::single));
  // A bad --variant is bad input, as for `mesobench run`.
  EXPECT_THROW(validation_variant(c, "cuda", "nlist=magic"), InputError);
}

// The case's own axes go over the default and under --variant's:
// dpd-couette's Lees-Edwards shear runs on the ballot list on cuda, where
// dpd-fluid's mixed default builds half rows.
TEST(ValidationVariant, ACasesGpuAxesGoBetweenTheDefaultAndTheGivenOnes) {
  const validation::Case& c = registered("dpd-couette");
  ASSERT_EQ(c.workload, "dpd-fluid");
  ASSERT_EQ(c.gpu_axes, "nlist=ballot");
  const Variant mixed = cuda_default("dpd-fluid", Precision::mixed);
  ASSERT_NE(mixed.nlist, NlistKind::ballot);
  const ResolvedVariant r = validation_variant(c, "cuda", "");
  EXPECT_EQ(r.variant, Variant::parse("nlist=ballot", mixed));
  EXPECT_EQ(r.base, Variant::parse("nlist=ballot", mixed).to_string(Variant::named_axes(
                        default_variant_text("dpd-fluid", "cuda", Precision::mixed))));
  EXPECT_EQ(validation_variant(c, "cuda", "precision=double").variant,
            Variant::parse("nlist=ballot", cuda_default("dpd-fluid", Precision::double_)));
  EXPECT_EQ(validation_variant(c, "cuda", "nlist=atomic").variant.nlist, NlistKind::atomic);
}

// The CPU reference keeps Variant::parse(--variant): CI's short forms and
// their committed tolerances are Variant{}'s, although `mesobench run`
// would sort dpd-fluid into cell order there.
TEST(ValidationVariant, OnTheCpuRunsTheGivenAxesOverVariantDefaults) {
  for (const char* given : {"", "precision=single,sort=10", "reorder=cell"})
    for (const auto& c : validation::all_cases()) {
      const ResolvedVariant r = validation_variant(c, "cpu", given);
      EXPECT_EQ(r.variant, Variant::parse(given)) << c.name << " --variant '" << given << "'";
      EXPECT_EQ(r.base, "") << c.name;
    }
  ASSERT_NE(resolve_variant("dpd-fluid", "cpu", "").variant, Variant{});
  EXPECT_EQ(validation_variant(registered("dpd-temperature"), "cpu", "").variant, Variant{});
}

// A case no workload runs says so, and runs Variant{} (with --variant's
// axes) on every backend.
TEST(ValidationVariant, ACaseOfNoWorkloadRunsVariantDefaults) {
  validation::Case c = registered("dpd-temperature");
  c.workload = validation::kNoWorkload;
  EXPECT_EQ(validation_variant(c, "cuda", "").variant, Variant{});
  EXPECT_EQ(validation_variant(c, "cuda", "precision=mixed,tpp=4").variant, Variant::parse("precision=mixed,tpp=4"));
}

}  // namespace

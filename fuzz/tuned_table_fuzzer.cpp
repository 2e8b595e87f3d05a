// libFuzzer target: the tuned tables `mesobench tune` writes and `run
// --tuned FILE` reads (TuneTable::parse, tune.hpp), then what a run does
// with an entry it finds: TuneTable::find, and apply_choice on a case of the
// entry's workload (its settings through Variant::parse and the workload's
// --param table), and the table written back as JSON. Every input must be
// read or refused with an InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "meso/core/error.hpp"
#include "tune.hpp"
#include "variant_defaults.hpp"
#include "workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const meso::bench::TuneTable t = meso::bench::TuneTable::parse(in, "fuzz.json");
    (void)t.to_json().dump();
    for (const meso::bench::TuneEntry& e : t.entries()) {
      (void)t.find(e.device, e.workload, e.backend, e.precision, e.n);
      for (const meso::bench::Workload* w : meso::bench::workloads()) {
        if (w->name() != e.workload) continue;
        try {
          meso::bench::BenchCase c = w->cases().front();
          meso::bench::ResolvedVariant rv = meso::bench::resolve_variant(w->name(), "cpu", "");
          (void)meso::bench::apply_choice(e.choice, c, rv, {"N"});
          c.validate();
        } catch (const meso::InputError&) {
        }
      }
    }
  } catch (const meso::InputError&) {
  }
  return 0;
}

// libFuzzer target: the variant parser (Variant::parse, the --variant of
// every command) and the workloads' --param parsing (apply_param and each
// workload's table), with the checks select_cases runs next (validate,
// the case name, the setup string). The first line is a variant, each
// further line a key=value for every registered workload's first case.
// Every input must be accepted or refused with an InputError; anything
// else is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/run/variant.hpp"
#include "workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string variant, line;
  std::getline(in, variant);
  try {
    const meso::Variant v = meso::Variant::parse(variant);
    // What an accepted variant prints (results, checkpoints) reads back as itself.
    if (!(meso::Variant::parse(v.to_string()) == v)) __builtin_trap();
    (void)meso::Variant::parse("precision=single", v);
  } catch (const meso::InputError&) {
  }
  std::vector<std::string> params;
  while (std::getline(in, line) && params.size() < 16) params.push_back(line);
  static const std::vector<meso::bench::BenchCase> first = [] {
    std::vector<meso::bench::BenchCase> v;
    for (const meso::bench::Workload* w : meso::bench::workloads()) v.push_back(w->cases().front());
    return v;
  }();
  for (meso::bench::BenchCase c : first) {
    try {
      for (const std::string& kv : params) meso::bench::apply_param(c, kv);
      c.validate();
      (void)c.name("cpu", "precision=double");
      (void)c.setup();
    } catch (const meso::InputError&) {
    }
  }
  return 0;
}

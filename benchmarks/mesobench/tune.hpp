// The autotuner (HOOMD-blue's Autotuner, run per case rather than per
// kernel): each workload names, per backend and precision, the settings that
// may be tuned (TuneSpace) and their candidate values; tune_case times them
// one setting at a time from the workload's default (coordinate descent),
// within a time bound, and keeps the fastest. A TuneTable holds the choices
// per GPU model, workload, backend, precision and N, in a JSON file that
// `mesobench tune` writes and `mesobench run --tuned FILE` reads.
//
// What may be tuned: settings that change no pair the forces see (the list
// skin, the sort period), only the order of sums (tpp), or list kinds every
// gate of the workload passed with (nlist=half and ballot for dpd-fluid in
// mixed). So a tuned run is one of the gated variants, on any GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/run/variant.hpp"
#include "variant_defaults.hpp"
#include "workload.hpp"

namespace meso::bench {

// One setting and its candidate values: a variant axis ("nlist", "sort",
// "tpp") or, with param = true, a case parameter set as --param does
// ("skin").
struct TuneSetting {
  std::string name;
  std::vector<std::string> values;
  bool param = false;
};

struct TuneSpace {
  std::string backend;
  Precision precision;
  std::vector<TuneSetting> settings;  // tuned in this order
  std::string evidence;               // why every candidate is a gated variant
};

// A choice: the settings' values ("nlist=half,sort=100,skin=0.3": axes and
// parameters in one text, in the space's order) and what was measured.
struct TuneEntry {
  std::string device;  // the GPU model (provenance), or the CPU model for cpu
  std::string workload, backend;
  Precision precision = Precision::double_;
  uint64_t n = 0;
  std::string choice;
  double tps = 0.0;                  // the choice's median
  nlohmann::json trials;             // [{"settings": text, "tps": median}, ...] in the order timed
  std::string date_utc, git_commit;  // when and with what it was tuned
};

class TuneTable {
 public:
  // Reads `path` (a file `mesobench tune` wrote); throws InputError naming
  // the file and what is wrong.
  static TuneTable read(const std::string& path);
  // The same from a stream; `source` names it in messages.
  static TuneTable parse(std::istream& in, const std::string& source);
  nlohmann::json to_json() const;
  // The entry for this device, workload, backend and precision whose N is
  // nearest n on a log scale and within a factor of 2; null when none.
  const TuneEntry* find(const std::string& device, const std::string& workload, const std::string& backend,
                        Precision precision, uint64_t n) const;
  // Adds e, replacing an entry with the same key and N.
  void put(TuneEntry e);
  const std::vector<TuneEntry>& entries() const { return entries_; }

 private:
  std::vector<TuneEntry> entries_;
};

// The space of a workload on a backend and precision; none when it has none.
std::optional<TuneSpace> tune_space(const std::string& workload, const std::string& backend, Precision precision);

// Applies a choice to a case and its resolved variant: every setting the user
// did not name (axes in rv.given, parameters in `named_params`). Returns the
// part applied ("" when nothing was).
std::string apply_choice(const std::string& choice, BenchCase& c, ResolvedVariant& rv,
                         const std::vector<std::string>& named_params);

// Times the space's candidates for case c from its current settings, one
// setting at a time, each candidate by `time_one` (median TPS), until every
// setting is done or `budget_s` seconds have passed; the current settings
// are always timed first, no combination twice, and a candidate must be more
// than 1% faster than the best so far to replace it. Fills choice, tps and
// trials of the returned entry.
using TimeOne = std::function<double(const BenchCase&, const ResolvedVariant&)>;
TuneEntry tune_case(const BenchCase& c, const ResolvedVariant& rv, const TuneSpace& space, double budget_s,
                    const std::vector<std::string>& named_params, const TimeOne& time_one);

}  // namespace meso::bench

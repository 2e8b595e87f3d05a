// `mesobench scale --emit slurm DIR`: one batch script per point and
// submit-all.sh (docs/scaling.md). Every value a script holds is checked
// first and quoted: --time in one of Slurm's formats with its fields in
// range, --partition and --account as Slurm names (no newline can add a
// line to a script, no shell text runs), the paths and the command line
// quoted for sbatch and for bash.
#pragma once

#include <string>

#include "scale.hpp"

namespace meso::bench {

// Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S (seconds and
// minutes after a colon below 60, hours after a day below 24), not zero.
// Refused naming the option and the value.
void check_slurm_time(const std::string& option, const std::string& value);
// A partition or account name: letters, digits and _ - . , only ("" is
// "not given"). Refused naming the option, the value and the character.
void check_slurm_name(const std::string& option, const std::string& value);

// Checks everything the scripts hold, then writes them (nothing is
// written when a check fails).
void write_slurm(const ScaleOptions& o);

}  // namespace meso::bench

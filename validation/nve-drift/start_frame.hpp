// The short form's start: a committed frame of the thermalized liquid, so that CI does not
// thermalize 5000 particles for 20000 steps in its two nve-drift-shift runs (that was 80% of
// their cost). README.md, "Start frames", says how the frame was made and why xplor has none.
#pragma once

#include <string>

#include "meso/core/system.hpp"

namespace meso::validation {

// validation/nve-drift/start-<mode>.f32 of the source tree: the positions of N particles in
// tag order, 3 N little-endian float32, in the box make_lj_liquid builds (centred on the
// origin).
std::string start_frame_path(physics::LjMode mode);

// Puts the frame's positions into sys (whose particles make_lj_liquid placed, in tag order).
// Throws InputError naming the file when it is missing, holds another particle count or a
// position that is not finite or lies outside the box.
void load_start_frame(const std::string& path, System& sys);

}  // namespace meso::validation

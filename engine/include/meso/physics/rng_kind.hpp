// Which counter-based generator draws the DPD pair noise (variant axis rng):
// Philox4x32-10 (philox.hpp) or TEA with per-particle signatures (tea.hpp).
#pragma once

namespace meso::physics {

enum class RngKind : int { philox = 0, tea = 1 };

}  // namespace meso::physics

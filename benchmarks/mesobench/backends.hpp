// The backends compiled into this build, registered by name.
#pragma once

#include "meso/backend.hpp"

namespace meso::bench {
void register_backends(BackendRegistry& registry);
}

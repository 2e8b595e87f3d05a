#include "meso/run/progress.hpp"

#include <algorithm>

namespace meso::progress {
namespace {
Sink* g_sink = nullptr;
int g_no_split = 0;
}  // namespace

NoSplit::NoSplit() { ++g_no_split; }
NoSplit::~NoSplit() { --g_no_split; }

void install(Sink* sink) { g_sink = sink; }

void begin(const std::string& what, uint64_t total_steps) {
  if (g_sink) g_sink->begin(what, total_steps);
}

void advanced(uint64_t steps) {
  if (g_sink) g_sink->advanced(steps);
}

void end() {
  if (g_sink) g_sink->end();
}

uint64_t chunk(uint64_t remaining) {
  const uint64_t limit = g_sink && g_no_split == 0 ? g_sink->max_chunk() : 0;
  return limit ? std::min(remaining, limit) : remaining;
}

}  // namespace meso::progress

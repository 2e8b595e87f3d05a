#include "meso/io/frame_sink.hpp"

#include <algorithm>

namespace meso::io {
namespace {
FrameSink* g_sink = nullptr;
uint64_t g_serial = 0;
}  // namespace

void install_frame_sink(FrameSink* sink) { g_sink = sink; }
FrameSink* frame_sink() { return g_sink; }
uint64_t next_run_serial() { return g_serial++; }

uint64_t frame_stop(uint64_t step, uint64_t stop) {
  if (!g_sink || g_sink->every() == 0) return stop;
  const uint64_t every = g_sink->every();
  return std::min(stop, (step / every + 1) * every);
}

}  // namespace meso::io

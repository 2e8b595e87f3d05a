// Progress of long runs. The run loops (Simulation::run) tell the
// process's progress sink how many steps they finished, between backend calls
// and never inside one, so the hot path does not change. A front end (the
// mesobench CLI) installs a sink that prints steps, TPS and the time left; with
// none installed every call here is a no-op.
//
// Whoever knows how many steps a piece of work takes (a benchmark's timed
// repeats, a validation repeat) announces it with begin(), so the sink can
// estimate the time left; without a total it shows steps and TPS only.
#pragma once

#include <cstdint>
#include <string>

namespace meso::progress {

class Sink {
 public:
  virtual ~Sink() = default;
  // A new piece of work named `what` of `total_steps` steps (0: unknown).
  virtual void begin(const std::string& what, uint64_t total_steps) = 0;
  // `steps` more steps are done.
  virtual void advanced(uint64_t steps) = 0;
  // The most steps a run loop should do in one backend call so that a report
  // can come on time (about a second of work); 0: no limit.
  virtual uint64_t max_chunk() const = 0;
  // The piece of work ended (finished or abandoned).
  virtual void end() = 0;
};

// Installs `sink` for the whole process (nullptr: none). Not thread safe: the
// run loops report from the thread that drives them.
void install(Sink* sink);

void begin(const std::string& what, uint64_t total_steps);
void advanced(uint64_t steps);
void end();
// How many of `remaining` steps a run loop does before reporting again.
uint64_t chunk(uint64_t remaining);

// While one is alive, run loops are not split: a benchmark's timed repeats
// must not include the synchronisation an extra backend call costs; their
// progress comes between repeats instead.
class NoSplit {
 public:
  NoSplit();
  ~NoSplit();
  NoSplit(const NoSplit&) = delete;
  NoSplit& operator=(const NoSplit&) = delete;
};

}  // namespace meso::progress

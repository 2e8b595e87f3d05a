// Trajectory frames from run loops that the front end does not drive itself:
// a validation case builds and runs its own simulations, so `mesobench
// validate --trajectory` installs a sink here and every Simulation hands
// it a frame at each multiple of every() steps (and at
// its starting step). The run loops then stop their backend calls on those
// steps, which changes no step and no key. Without a sink nothing happens.
#pragma once

#include <cstdint>
#include <string>

#include "meso/core/box.hpp"
#include "meso/io/h5md.hpp"

namespace meso::io {

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual uint64_t every() const = 0;
  // A frame of the run loop numbered `run` (run_serial(): one number per
  // Simulation of the process and particle kind, in construction order).
  virtual void frame(uint64_t run, const Box& box, const H5mdFrame& f) = 0;
  // The units of the simulations that start from now on (a front end that
  // runs cases of different models says so before each; H5mdUnits).
  virtual void set_units(const H5mdUnits&) {}
  // The whole variant those simulations run (validate: on a GPU each case
  // its workload's default, so the trajectory records what ran, not the
  // --variant given).
  virtual void set_variant(const std::string&) {}
};

// Installs `sink` for the whole process (nullptr: none); not thread safe.
void install_frame_sink(FrameSink* sink);
FrameSink* frame_sink();
// The next run-loop number (0, 1, ...).
uint64_t next_run_serial();

// The step at which a run loop at `step` must stop before `stop` so that a
// frame falls on it (`stop` without a sink).
uint64_t frame_stop(uint64_t step, uint64_t stop);

}  // namespace meso::io

// The progress of long runs on stderr (meso/run/progress.hpp): steps done, steps
// per second and the time left when the total is known. On a terminal one
// live line redrawn with a carriage return a few times a second; otherwise
// (a log file, a batch job, a pipe) a plain line every `interval` seconds, so
// logs stay readable. `--quiet` installs no sink at all.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "meso/run/progress.hpp"

namespace meso::bench {

class ProgressLine final : public progress::Sink {
 public:
  // `interval`: seconds between plain lines (ignored on a terminal).
  ProgressLine(std::FILE* out, bool terminal, double interval);
  ~ProgressLine() override;

  void begin(const std::string& what, uint64_t total_steps) override;
  void advanced(uint64_t steps) override;
  uint64_t max_chunk() const override { return chunk_; }
  void end() override;

 private:
  using Clock = std::chrono::steady_clock;
  void report(Clock::time_point now);

  std::FILE* out_;
  bool terminal_;
  double interval_;
  std::string what_;
  uint64_t total_ = 0, done_ = 0;
  uint64_t next_check_ = 1;  // read the clock again once done_ reaches this
  uint64_t chunk_ = 0;       // steps of about one second, once measured
  Clock::time_point start_, last_report_;
  bool live_drawn_ = false;  // a live line is on the screen (end() finishes it)
};

// Installs a ProgressLine on stderr for the lifetime of this object, unless
// `quiet`; a live bar when stderr is a terminal.
class ProgressScope {
 public:
  ProgressScope(bool quiet, double interval);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  std::unique_ptr<ProgressLine> line_;
};

}  // namespace meso::bench

// A diagnostic of where a GPU's time goes inside a repeated sequence of
// work (MESO_SOLVENT_PHASES=1: the MPCD solvent's collision period on
// several ranks, docs/scaling.md). Each mark records an event on the stream
// it is given; the device time from the previous mark to this one is summed
// under the mark's name (across streams too: a negative mean says the mark
// came first). Nothing waits: a round's events are read two rounds later,
// when the host has waited for the device anyway. Per rank, the means per
// round go to stderr when the process ends: medians, since the first rounds
// hold one-time work (NCCL connects a pair of ranks at its first message).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meso/run/provenance.hpp"

namespace meso::cuda {

class DeviceTimeline {
 public:
  // The solvent's timeline, or null unless MESO_SOLVENT_PHASES=1.
  static DeviceTimeline* solvent() {
    static const std::unique_ptr<DeviceTimeline> t = [] {
      return std::unique_ptr<DeviceTimeline>(
          diagnostic_on(Diagnostic::solvent_phases) ? new DeviceTimeline("solvent phases") : nullptr);
    }();
    return t.get();
  }

  // A new round: the one two rounds back is complete, its gaps summed.
  void round() {
    if (rounds_[1].size() > 1) {
      auto& r = rounds_[1];
      for (std::size_t k = 1; k < r.size(); ++k) {
        float ms = 0.0f;
        if (cudaEventElapsedTime(&ms, r[k - 1].second, r[k].second) == cudaSuccess) add(r[k].first, ms);
      }
      ++counted_;
    }
    std::swap(rounds_[0], rounds_[1]);
    for (auto& m : rounds_[0]) spare_.push_back(m.second);
    rounds_[0].clear();
  }
  // The device time since the previous mark of this round is `name`'s.
  void mark(const char* name, cudaStream_t s) {
    cudaEvent_t e = nullptr;
    if (!spare_.empty()) {
      e = spare_.back();
      spare_.pop_back();
    } else if (cudaEventCreate(&e) != cudaSuccess) {
      return;
    }
    cudaEventRecord(e, s);
    rounds_[0].emplace_back(name, e);
  }
  void set_rank(int r) { rank_ = r; }

  ~DeviceTimeline() {
    if (!counted_) return;
    std::string line = what_ + ", rank " + std::to_string(rank_) + ", " + std::to_string(counted_) +
                       " rounds, median ms per round:";
    for (auto& [name, ms] : sums_) {
      std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
      line += " " + name + " " + std::to_string(ms[ms.size() / 2]);
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }

 private:
  explicit DeviceTimeline(std::string what) : what_(std::move(what)) {}
  // A name marked several times a round (one mark an axis) adds up.
  void add(const std::string& name, float ms) {
    for (auto& s : sums_)
      if (s.first == name) {
        if (s.second.size() == counted_ + 1) s.second.back() += ms;
        else s.second.push_back(ms);
        return;
      }
    sums_.emplace_back(name, std::vector<double>{ms});
  }
  std::string what_;
  int rank_ = 0;
  std::vector<std::pair<std::string, cudaEvent_t>> rounds_[2];
  std::vector<cudaEvent_t> spare_;
  std::vector<std::pair<std::string, std::vector<double>>> sums_;  // per name, one value a round
  unsigned long long counted_ = 0;
};

}  // namespace meso::cuda

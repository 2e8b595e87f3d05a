// Device evaluation of the shared physics headers (engine/include/meso/physics/) over
// arrays of inputs. Used by the `gpu` tests to prove that the code compiled
// by nvcc computes what the host computes: Philox and TEA bit for bit, the
// DPD evaluator and pair noise to double-precision rounding.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/physics/dpd_force.hpp"

namespace meso::cuda {

struct PairInput {
  uint32_t tag_i, tag_j;
  uint64_t step;
  uint32_t seed;
  double rsq, rdotv;
  float vi[3], vj[3];  // for TEA signatures
};

struct PairOutput {
  uint32_t philox[4];  // philox4x32_10({tag_i, tag_j, step lo, step hi}, {seed, 0})
  double xi_philox;
  double xi_tea;
  double f_over_r;  // dpd_pair_force with xi_philox
  double energy;
};

std::vector<PairOutput> evaluate_pairs_on_device(const std::vector<PairInput>& in,
                                                 const physics::DpdPairParams& p, double dt);

// The same evaluation on the host, from the same headers.
std::vector<PairOutput> evaluate_pairs_on_host(const std::vector<PairInput>& in,
                                               const physics::DpdPairParams& p, double dt);

}  // namespace meso::cuda

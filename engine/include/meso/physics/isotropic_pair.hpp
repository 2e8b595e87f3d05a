// What an isotropic pair style gives every backend (HOOMD-blue's
// EvaluatorPair concept): a pair force that depends on r alone, evaluated
// from per-type-pair coefficients prepared once on the host. A style is a
// struct E with
//   using Params = ...;                       the user's parameters of a type
//                                             pair (PairStyleOf's Params)
//   template <class S> using Coeffs = ...;    what the inner loop reads, in S
//   template <class S> MESO_HD static Coeffs<S> coeffs(const Params&);
//   template <class S> MESO_HD static IsotropicPairForce<S> force(S rsq, const Coeffs<S>&);
// force() returns exact zeros at and beyond the cutoff, so a traversal need
// not test it. The reference (reference/src/md/pair_<name>.cpp) and the
// CUDA kernels (kernels/md/isotropic_pair_force.cuh) are written once over
// E: a new isotropic style is its physics header and two one-line files.
#pragma once

namespace meso::physics {

template <class Scalar>
struct IsotropicPairForce {
  Scalar f_over_r;  // force on i is f_over_r * r_ij
  Scalar energy;    // pair energy
  Scalar virial;    // r_ij . F_ij = f_over_r * rsq
};

}  // namespace meso::physics

#include "meso/systems/living_polymerization.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"

namespace meso {

void LivingPolymerizationParams::validate() const {
  if (initiators == 0) throw_input_error("initiators = 0 is invalid: a living polymerization needs active ends");
  if (monomers == 0) throw_input_error("monomers = 0 is invalid: nothing would polymerize");
  if (initiators + monomers > 0xffffffffull)
    throw_input_error("initiators + monomers = ", initiators + monomers, " is too many: tags are 32-bit");
  require_positive("monomer density", monomer_density);
  require_positive("capture radius", capture_radius);
  if (!(probability >= 0.0 && probability <= 1.0))
    throw_input_error("probability ", probability, " is invalid: it must lie in [0, 1]");
  if (period == 0) throw_input_error("period = 0 is invalid: reactions are attempted every period >= 1 steps");
  require_positive("bond k", bond_k);
  require_non_negative("bond r0", bond_r0);
  require_positive("kT", kT);
}

System make_living_polymerization(const LivingPolymerizationParams& p) {
  p.validate();
  System sys;
  const double l = std::cbrt(static_cast<double>(p.monomers) / p.monomer_density);
  sys.box = Box(l);
  sys.kT = p.kT;
  sys.type_names = {"I", "M", "P"};
  sys.type_mass = {1.0, 1.0, 1.0};
  sys.pair = {};
  BondType growth;
  growth.name = "growth";
  growth.kind = BondKind::harmonic;
  growth.harmonic = {p.bond_k, p.bond_r0};
  sys.topology.bond_types = {growth};
  const uint64_t n = p.initiators + p.monomers;
  sys.particles.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    sys.particles.tag[i] = static_cast<uint32_t>(i);
    sys.particles.type[i] = i < p.initiators ? 0u : 1u;
    sys.particles.image[i] = {0, 0, 0};
    sys.particles.force[i] = {0.0, 0.0, 0.0};
  }
  place_uniform_random(sys, p.seed);
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  Polymerization& r = sys.polymerization;
  r.period = p.period;
  r.capture_radius = p.capture_radius;
  r.probability = p.probability;
  r.monomer_type = 1;
  r.reacted_type = 2;
  r.bond_type = 0;
  r.initiators.resize(p.initiators);
  for (uint64_t i = 0; i < p.initiators; ++i) r.initiators[i] = static_cast<uint32_t>(i);
  return sys;
}

std::vector<double> living_free_monomers(double m0, double n_ends, double probability, double capture_volume,
                                         double volume, uint64_t attempts) {
  std::vector<double> m(attempts + 1);
  m[0] = m0;
  // (1 - v_c/V)^M through log1p: exact for the tiny v_c/V of a large box.
  const double log_miss = std::log1p(-capture_volume / volume);
  for (uint64_t k = 1; k <= attempts; ++k) {
    const double hit = -std::expm1(m[k - 1] * log_miss);
    m[k] = std::max(0.0, m[k - 1] - n_ends * probability * hit);
  }
  return m;
}

double chi_square_tail(double chi_square, int dof) {
  if (dof < 1) throw_input_error("a chi-square tail needs dof >= 1, not ", dof);
  const double k = dof, s = 2.0 / (9.0 * k);
  const double z = (std::cbrt(chi_square / k) - (1.0 - s)) / std::sqrt(s);
  return 0.5 * std::erfc(z / std::numbers::sqrt2);
}

PoissonTest poisson_chi_square(const std::vector<uint32_t>& counts) {
  if (counts.empty()) throw_input_error("a Poisson test needs counts");
  PoissonTest t;
  const double n = static_cast<double>(counts.size());
  double sum = 0.0;
  uint32_t top = 0;
  for (uint32_t c : counts) sum += c, top = std::max(top, c);
  t.mean = sum / n;
  // Bins 0 .. top, the last one holding the tail k >= top, so the expected
  // counts add up to n.
  std::vector<double> obs(top + 1, 0.0), exp(top + 1, 0.0);
  for (uint32_t c : counts) obs[c] += 1.0;
  double pk = std::exp(-t.mean), below = 0.0;
  for (uint32_t k = 0; k < top; ++k) {
    exp[k] = n * pk;
    below += pk;
    pk *= t.mean / (k + 1.0);
  }
  exp[top] = n * std::max(0.0, 1.0 - below);
  // Merge from each tail inwards until every expected count is >= 5.
  std::vector<uint32_t> first(top + 1);
  for (uint32_t k = 0; k <= top; ++k) first[k] = k;
  auto merge = [&](std::size_t into, std::size_t from) {
    obs[into] += obs[from], exp[into] += exp[from];
    first[into] = std::min(first[into], first[from]);
    obs.erase(obs.begin() + static_cast<std::ptrdiff_t>(from));
    exp.erase(exp.begin() + static_cast<std::ptrdiff_t>(from));
    first.erase(first.begin() + static_cast<std::ptrdiff_t>(from));
  };
  while (exp.size() > 1 && exp.front() < 5.0) merge(1, 0);
  while (exp.size() > 1 && exp.back() < 5.0) merge(exp.size() - 2, exp.size() - 1);
  t.dof = static_cast<int>(exp.size()) - 2;
  if (t.dof < 1)
    throw_input_error("a chi-square test of ", counts.size(), " chains against Poisson has ", exp.size(),
                      " bins of 5 or more expected: too few chains");
  for (std::size_t b = 0; b < exp.size(); ++b) t.chi_square += (obs[b] - exp[b]) * (obs[b] - exp[b]) / exp[b];
  t.p_value = chi_square_tail(t.chi_square, t.dof);
  t.observed = obs;
  t.expected = exp;
  t.first = first;
  return t;
}

double dispersity(const std::vector<uint32_t>& growth) {
  if (growth.empty()) throw_input_error("the dispersity of no chains is undefined");
  double s1 = 0.0, s2 = 0.0;
  for (uint32_t g : growth) {
    const double len = 1.0 + g;
    s1 += len;
    s2 += len * len;
  }
  const double n = static_cast<double>(growth.size());
  return (s2 / s1) / (s1 / n);
}

}  // namespace meso

#include "meso/run/backend.hpp"

#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/run/step_plan.hpp"

namespace meso {

const char* to_string(Integrator i) {
  switch (i) {
    case Integrator::velocity_verlet: return "vv";
    case Integrator::groot_warren: return "gw";
    case Integrator::nve: return "nve";
    case Integrator::nvt: return "nvt";
    case Integrator::langevin: return "langevin";
    case Integrator::berendsen: return "berendsen";
  }
  return "?";
}

Integrator parse_integrator(const std::string& name) {
  if (name == "vv") return Integrator::velocity_verlet;
  if (name == "gw") return Integrator::groot_warren;
  if (name == "nve") return Integrator::nve;
  if (name == "nvt") return Integrator::nvt;
  if (name == "langevin") return Integrator::langevin;
  if (name == "berendsen") return Integrator::berendsen;
  throw_input_error("integrator '", name,
                    "' is unknown: allowed values are vv, gw, nve, nvt, langevin, berendsen");
}

void RunParams::validate() const {
  require_positive("dt", dt);
  require_non_negative("skin", skin);
  require_non_negative("inner_skin", inner_skin);
  if (inner_skin > 0.0 && !(inner_skin < skin))
    throw_input_error("inner_skin = ", inner_skin, " is invalid: the pruned list's skin must be below the ",
                      "list's skin = ", skin, " (dynamic pruning; 0 turns it off)");
  if (inner_skin > 0.0 && rebuild_every != 0)
    throw_input_error("inner_skin = ", inner_skin, " needs rebuild_every = 0 (pruning is triggered by the ",
                      "displacement), not ", rebuild_every);
  if (integrator == Integrator::groot_warren && !(lambda >= 0.0 && lambda <= 1.0))
    throw_input_error("lambda = ", lambda, " is invalid: it must be in [0, 1]");
  const int k = static_cast<int>(integrator);
  if (k < 0 || k > static_cast<int>(Integrator::berendsen))
    throw_input_error("integrator = ", k, " is invalid: allowed vv, gw, nve, nvt, langevin, berendsen");
  const bool thermostat = integrator == Integrator::nvt || integrator == Integrator::langevin ||
                          integrator == Integrator::berendsen;
  if (thermostat) require_positive("kT", kT);
  if (integrator == Integrator::nvt || integrator == Integrator::berendsen) require_positive("tau", tau);
  if (integrator == Integrator::langevin) require_non_negative("Langevin gamma", gamma);
  if (integrator == Integrator::langevin) require_non_negative("Langevin gamma_r", gamma_r);
  if (integrator == Integrator::berendsen) require_non_negative("Berendsen tau_r", tau_r);
}

void Backend::set_mpcd(const MpcdSystem&) {
  throw_input_error("backend '", name(), "' has no MPCD solvent operations");
}

void Backend::get_mpcd(MpcdParticles&) const {
  throw_input_error("backend '", name(), "' has no MPCD solvent operations");
}

std::unique_ptr<DeviceLinks> Backend::connect_device_links(const DeviceLinksSetup&) { return nullptr; }

void Backend::list_state(const StepPlan&, ListRestartState& out) const { out = {}; }

void Backend::restore_list_state(StepPlan&, const ListRestartState&, const ParticleData<double>&) {
  throw_input_error("backend '", name(), "' cannot restore a run's list state exactly");
}

bool Backend::honours(const std::string& axis) const {
  const auto axes = applicable_axes();
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

void Backend::advance(StepPlan& plan, uint64_t first_step, uint64_t nsteps, bool sums_on_last) {
  for (uint64_t k = 0; k < nsteps; ++k) plan.run_step(first_step + k, sums_on_last && k + 1 == nsteps);
}

void BackendRegistry::add(const std::string& name, BackendFactory factory,
                          std::function<bool()> usable) {
  entries_[name] = {std::move(factory), std::move(usable)};
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> n;
  for (const auto& [k, e] : entries_) n.push_back(k);
  return n;
}

bool BackendRegistry::usable(const std::string& name) const {
  const auto it = entries_.find(name);
  return it != entries_.end() && it->second.usable();
}

std::string BackendRegistry::resolve(const std::string& name) const {
  if (name != "auto") return name;
  for (const char* preferred : {"cuda", "cpu"})
    if (usable(preferred)) return preferred;
  throw_input_error("backend 'auto' found no usable backend");
}

std::unique_ptr<Backend> BackendRegistry::create(const std::string& requested,
                                                 const Variant& v) const {
  const std::string name = resolve(requested);
  const auto it = entries_.find(name);
  std::string list;
  for (const auto& [k, e] : entries_)
    if (e.usable()) list += (list.empty() ? "" : ", ") + k;
  if (it == entries_.end())
    throw_input_error("backend '", name, "' is unknown: usable backends are auto, ", list);
  if (!it->second.usable())
    throw_input_error("backend '", name, "' is not usable on this machine (no device or not built): usable backends are auto, ", list);
  return it->second.factory(v);
}

}  // namespace meso

// A checkpoint against the run that continues it (checkpoint_file.hpp):
// check_restart_state (types, positions in the box, no move over half the
// box in a step) and require_same_run (the identity, field by field). The
// file's own fields are checked as it is read (checkpoint_file.cpp).
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"

namespace meso::io {

namespace {

template <class V>
void check_in_box(const std::vector<V>& r, const char* field, const std::vector<uint32_t>& tag, const Box& box,
                  const std::string& path) {
  const Vec3d lo = box.lo(), L = box.lengths();
  const double slack = 1e-6;
  auto inside = [&](double x, double lo1, double l) { return x >= lo1 - slack * l && x <= lo1 + l + slack * l; };
  for (std::size_t i = 0; i < r.size(); ++i)
    if (!(inside(r[i].x, lo.x, L.x) && inside(r[i].y, lo.y, L.y) && inside(r[i].z, lo.z, L.z)))
      throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", tag[i], ") has ", field, " (", r[i].x,
                        ", ", r[i].y, ", ", r[i].z, "), outside the run's box (", L.x, " x ", L.y, " x ", L.z,
                        ", centred on the origin)");
}

// A displacement of more than half the box in one step (d per component)
// has no minimum image: no run the writer continued can hold one.
template <class V>
void check_step_displacement(const std::vector<V>& v, const std::vector<uint32_t>& type, double scale,
                             const std::vector<double>& type_mass, bool per_mass, const char* field,
                             const std::vector<uint32_t>& tag, const Box& box, const std::string& path) {
  const Vec3d L = box.lengths();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double s = per_mass ? scale / type_mass[type[i]] : scale;
    if (std::fabs(v[i].x) * s > 0.5 * L.x || std::fabs(v[i].y) * s > 0.5 * L.y || std::fabs(v[i].z) * s > 0.5 * L.z)
      throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", tag[i], ") has ", field, " (", v[i].x,
                        ", ", v[i].y, ", ", v[i].z, "), which moves it more than half the box in one step");
  }
}

void check_types(const std::vector<uint32_t>& type, const std::vector<uint32_t>& tag, std::size_t ntypes,
                 const std::string& path) {
  for (std::size_t i = 0; i < type.size(); ++i)
    if (type[i] >= ntypes)
      throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", tag[i], ") has type ", type[i],
                        "; the run has ", ntypes, " type", ntypes == 1 ? "" : "s", " (0 .. ", ntypes - 1, ")");
}

}  // namespace

void check_restart_state(const CheckpointFile& f, const RestartBounds& run, const std::string& path) {
  const bool mpcd = f.mpcd;
  const std::vector<uint32_t>& type = mpcd ? f.solvent.type : f.md.particles.type;
  const std::vector<uint32_t>& tag = mpcd ? f.solvent.tag : f.md.particles.tag;
  check_types(type, tag, run.type_mass.size(), path);
  const Box& box = run.box;
  check_in_box(mpcd ? f.solvent.position : f.md.particles.position, "position", tag, box, path);
  check_step_displacement(mpcd ? f.solvent.velocity : f.md.particles.velocity, type, run.dt, run.type_mass, false,
                          "velocity", tag, box, path);
  if (mpcd) return;
  check_step_displacement(f.md.particles.force, type, 0.5 * run.dt * run.dt, run.type_mass, true, "force", tag, box,
                          path);
  if (f.md.exact()) check_in_box(f.md.lists.build_position, "list build position", f.md.lists.order, box, path);
}

void require_same_run(const CheckpointIdentity& file, const CheckpointIdentity& run, const std::string& path) {
  auto check = [&](const char* field, const std::string& a, const std::string& b) {
    if (a != b)
      throw_input_error("checkpoint '", path, "' is from another run: its ", field, " is '", excerpt(a),
                        "', this run's is '", b, "'");
  };
  check("workload", file.workload, run.workload);
  if (file.n != run.n)
    throw_input_error("checkpoint '", path, "' is from another run: it holds N = ", file.n, " particles, this run has N = ",
                      run.n);
  check("precision", file.precision, run.precision);
  check("backend", file.backend, run.backend);
  if (file.setup != run.setup) {
    // Name the first key=value that differs rather than two long lines.
    std::istringstream a(file.setup), b(run.setup);
    std::string x, y;
    while (a >> x, b >> y, (a || b) && x == y) x.clear(), y.clear();
    throw_input_error("checkpoint '", path, "' is from another run: its setup has '", excerpt(x), "', this run has '",
                      excerpt(y), "' (a restart continues the same parameters and variant)");
  }
}

}  // namespace meso::io

#include "meso/validation/checkpoint_json.hpp"

#include "meso/core/error.hpp"

namespace meso::validation {

namespace {

// Flat [x0, y0, z0, x1, ...] arrays: a third of the size of [[x, y, z], ...].
template <class T>
nlohmann::json flat(const std::vector<T>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& e : v) {
    a.push_back(e.x);
    a.push_back(e.y);
    a.push_back(e.z);
  }
  return a;
}

template <class T, class C>
std::vector<T> unflat(const nlohmann::json& j, const char* key, std::size_t n) {
  const auto a = j.at(key).get<std::vector<C>>();
  if (a.size() != 3 * n)
    throw_input_error("checkpoint: ", key, " has ", a.size(), " values, expected 3 x ", n);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {a[3 * i], a[3 * i + 1], a[3 * i + 2]};
  return v;
}

// Quaternions as flat [s0, x0, y0, z0, s1, ...].
nlohmann::json flat_quat(const std::vector<Quatd>& v, std::size_t n) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < n; ++i)
    for (double c : {v[i].s, v[i].v.x, v[i].v.y, v[i].v.z}) a.push_back(c);
  return a;
}

std::vector<Quatd> unflat_quat(const nlohmann::json& j, std::size_t n) {
  const auto a = j.at("orientation").get<std::vector<double>>();
  if (a.size() != 4 * n) throw_input_error("checkpoint: orientation has ", a.size(), " values, expected 4 x ", n);
  std::vector<Quatd> q(n);
  for (std::size_t i = 0; i < n; ++i) q[i] = {a[4 * i], {a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]}};
  return q;
}

}  // namespace

nlohmann::json checkpoint_to_json(const Checkpoint& cp) {
  const auto& p = cp.particles;
  const std::vector<Vec3d> pos(p.position.begin(), p.position.begin() + p.n_local);
  const std::vector<Vec3d> vel(p.velocity.begin(), p.velocity.begin() + p.n_local);
  const std::vector<Image> img(p.image.begin(), p.image.begin() + p.n_local);
  nlohmann::json j = {{"step", cp.step},
          {"xi", cp.integrator.xi},
          {"eta", cp.integrator.eta},
          {"n", p.n_local},
          {"position", flat(pos)},
          {"velocity", flat(vel)},
          {"image", flat(img)},
          {"type", std::vector<uint32_t>(p.type.begin(), p.type.begin() + p.n_local)},
          {"tag", std::vector<uint32_t>(p.tag.begin(), p.tag.begin() + p.n_local)}};
  if (p.rotational) {
    // Orientational particles: the body frame, its angular momentum and
    // the moments of inertia (torques are recomputed, as forces are).
    const std::vector<Vec3d> angmom(p.angmom.begin(), p.angmom.begin() + p.n_local);
    const std::vector<Vec3d> inertia(p.inertia.begin(), p.inertia.begin() + p.n_local);
    j["orientation"] = flat_quat(p.orientation, p.n_local);
    j["angmom"] = flat(angmom);
    j["inertia"] = flat(inertia);
  }
  return j;
}

Checkpoint checkpoint_from_json(const nlohmann::json& j) {
  try {
    Checkpoint cp;
    cp.step = j.at("step").get<uint64_t>();
    cp.integrator.xi = j.at("xi").get<double>();
    cp.integrator.eta = j.at("eta").get<double>();
    const auto n = j.at("n").get<std::size_t>();
    auto& p = cp.particles;
    p.resize(n);
    p.position = unflat<Vec3d, double>(j, "position", n);
    p.velocity = unflat<Vec3d, double>(j, "velocity", n);
    p.image = unflat<Image, int32_t>(j, "image", n);
    p.type = j.at("type").get<std::vector<uint32_t>>();
    p.tag = j.at("tag").get<std::vector<uint32_t>>();
    if (p.type.size() != n || p.tag.size() != n)
      throw_input_error("checkpoint: type and tag must have n = ", n, " entries");
    if (j.contains("orientation")) {
      p.set_rotational(true);
      p.orientation = unflat_quat(j, n);
      p.angmom = unflat<Vec3d, double>(j, "angmom", n);
      p.inertia = unflat<Vec3d, double>(j, "inertia", n);
      p.torque.assign(n, Vec3d{0.0, 0.0, 0.0});
    }
    return cp;
  } catch (const nlohmann::json::exception& e) {
    throw_input_error("checkpoint: ", e.what());
  }
}

}  // namespace meso::validation

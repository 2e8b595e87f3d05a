#include "meso/validation/checkpoint_json.hpp"

#include "meso/error.hpp"

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

}  // namespace

nlohmann::json checkpoint_to_json(const Checkpoint& cp) {
  const auto& p = cp.particles;
  // The resumable cases run isotropic particles; orientations would be lost.
  if (p.rotational) throw_input_error("checkpoint_to_json: orientational particles are not stored in JSON");
  const std::vector<Vec3d> pos(p.position.begin(), p.position.begin() + p.n_local);
  const std::vector<Vec3d> vel(p.velocity.begin(), p.velocity.begin() + p.n_local);
  const std::vector<Image> img(p.image.begin(), p.image.begin() + p.n_local);
  return {{"step", cp.step},
          {"xi", cp.integrator.xi},
          {"eta", cp.integrator.eta},
          {"n", p.n_local},
          {"position", flat(pos)},
          {"velocity", flat(vel)},
          {"image", flat(img)},
          {"type", std::vector<uint32_t>(p.type.begin(), p.type.begin() + p.n_local)},
          {"tag", std::vector<uint32_t>(p.tag.begin(), p.tag.begin() + p.n_local)}};
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
    return cp;
  } catch (const nlohmann::json::exception& e) {
    throw_input_error("checkpoint: ", e.what());
  }
}

}  // namespace meso::validation

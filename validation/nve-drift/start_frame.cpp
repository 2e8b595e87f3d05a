#include "start_frame.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "meso/core/error.hpp"

namespace meso::validation {

static_assert(std::endian::native == std::endian::little, "the start frames are little-endian float32");

std::string start_frame_path(physics::LjMode mode) {
  return std::string(MESO_VALIDATION_SOURCE_DIR) + "/nve-drift/start-" + to_string(mode) + ".f32";
}

void load_start_frame(const std::string& path, System& sys) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_input_error("nve-drift: cannot open the start frame ", path);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ParticleData<double>& p = sys.particles;
  const std::size_t n = p.n_local;
  if (bytes.size() != 3 * n * sizeof(float))
    throw_input_error("nve-drift: the start frame ", path, " holds ", bytes.size(), " bytes, not the ", n,
                      " float32 positions of this system");
  std::vector<float> xyz(3 * n);
  std::memcpy(xyz.data(), bytes.data(), bytes.size());
  const Vec3d half = 0.5 * sys.box.lengths();
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t t = p.tag[i];
    Vec3d r{xyz[3 * t], xyz[3 * t + 1], xyz[3 * t + 2]};
    // float32 rounding may put a coordinate on the box's upper face, which wrap() folds back.
    const double tol = 1e-6;
    if (!(std::fabs(r.x) <= half.x * (1 + tol) && std::fabs(r.y) <= half.y * (1 + tol) &&
          std::fabs(r.z) <= half.z * (1 + tol)))
      throw_input_error("nve-drift: the start frame ", path, " puts particle ", t, " at (", r.x, ", ", r.y, ", ",
                        r.z, "), outside the box");
    Image img{0, 0, 0};
    sys.box.wrap(r, img);
    p.position[i] = r;
    p.image[i] = {0, 0, 0};
  }
}

}  // namespace meso::validation

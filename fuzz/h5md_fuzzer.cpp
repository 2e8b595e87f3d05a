// libFuzzer target: the H5MD reader of `mesobench morphology`
// (io::read_h5md_frame), then analyse_morphology on what it read. Every
// input must be read or refused with an InputError; anything else is a
// finding.
//
// The input describes a file rather than being one: random bytes are no
// HDF5 file past its signature, and HDF5's own parser is not what is tested
// here (it is not instrumented). The bytes mutate the layout of a valid
// trajectory (tests/support/h5_layout.hpp): each dataset kept, dropped, made
// a group, given another rank, extent or type class, or a special value (NaN,
// infinities, 0, -5, 1e300, a subnormal) at some index; the file is written
// with the HDF5 C API and read back.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/io/h5md.hpp"
#include "meso/analysis/morphology.hpp"
#include "support/h5_layout.hpp"

namespace {

struct Bytes {
  const uint8_t* p;
  std::size_t n;
  uint8_t next() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
};

constexpr double kSpecial[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               0.0, -5.0, 1e300, 1e-310, 2147483648.0, -1.0, 1e9, 1e10, 8.0, 0.5, 3.0};
constexpr hsize_t kExtent[] = {0, 1, 2, 3, 4, 5, 6, 7, hsize_t{1} << 20, hsize_t{1} << 33};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/meso_fuzz_h5md." + std::to_string(getpid()) + ".h5";
  Bytes in{data, size};
  const std::size_t frame = in.next() % 4;
  const hsize_t frames = 1 + in.next() % 3, n = in.next() % 9;
  std::vector<meso::testing::H5Dataset> sets = meso::testing::h5md_layout(frames, n, 8.0);
  if (in.next() & 1) {  // a rotational trajectory's two more elements
    sets.push_back({"/particles/trajectory/orientation/value", {frames, n, 4}, false, {1.0, 0.0}});
    sets.push_back({"/particles/trajectory/angular_momentum/value", {frames, n, 3}, false, {0.1}});
  }
  std::vector<meso::testing::H5Dataset> kept;
  for (meso::testing::H5Dataset s : sets) {
    switch (in.next() % 10) {
      case 1: continue;  // dropped
      case 2: s.as_group = true; break;
      case 3: s.dims.push_back(1 + in.next() % 3); break;
      case 4: if (!s.dims.empty()) s.dims.pop_back(); break;
      case 5: if (!s.dims.empty()) s.dims[in.next() % s.dims.size()] = kExtent[in.next() % std::size(kExtent)]; break;
      case 6: s.integer = !s.integer; break;
      case 7:
      case 8: {  // special values at a few indices
        std::size_t count = 1;
        for (hsize_t d : s.dims) count *= std::size_t(d);
        if (count == 0 || count > 4096) break;
        std::vector<double> v(count);
        for (std::size_t k = 0; k < count; ++k) v[k] = s.values.empty() ? 0.0 : s.values[k % s.values.size()];
        for (int m = in.next() % 4; m >= 0; --m) v[in.next() % count] = kSpecial[in.next() % std::size(kSpecial)];
        s.values = v;
        break;
      }
      default: break;
    }
    kept.push_back(s);
  }
  meso::testing::write_h5_layout(path, kept);
  try {
    const meso::io::H5mdData d = meso::io::read_h5md_frame(path, frame);
    meso::MorphologyParams m;
    m.hydrophobic_type = 1;
    m.solvent_type = 2;
    m.min_beads = 1 + in.next() % 4;
    m.link = 0.5 + (in.next() % 4);
    m.voxel = 0.5 * (1 + in.next() % 4);
    m.dilate = in.next() & 1;
    m.min_pocket_solvent = in.next() % 3;
    // analyse_morphology bounds its voxels at 2^28 (gigabytes): the fuzzer
    // keeps to boxes of a few MB.
    const double voxels = std::ceil(d.edges.x / m.voxel) * std::ceil(d.edges.y / m.voxel) *
                          std::ceil(d.edges.z / m.voxel);
    if (voxels <= 1e6) {
      meso::ParticleData<double> p;
      p.resize(d.position.size());
      for (std::size_t i = 0; i < d.position.size(); ++i) {
        p.position[i] = d.position[i];
        p.type[i] = static_cast<uint32_t>(d.species[i]);
        p.tag[i] = static_cast<uint32_t>(i);
      }
      (void)meso::analyse_morphology(meso::Box(d.edges.x, d.edges.y, d.edges.z), p, m);
    }
  } catch (const meso::InputError&) {
  }
  std::remove(path.c_str());
  return 0;
}

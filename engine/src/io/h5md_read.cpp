// Reading H5MD files back (meso/io/h5md.hpp): one frame of a trajectory
// mesobench wrote, with its unit attributes (the tests, the trajectory
// digests, `mesobench morphology`). Without HDF5 the stub in h5md.cpp
// refuses.
//
// The file is the user's, so nothing in it is trusted: each dataset's rank,
// shape and type class is checked before a byte is read (a position dataset
// of rank 4 would otherwise overrun the extent buffer), sizes are bounded
// before anything is allocated, and box edges and positions are checked
// finite. Every failure, HDF5's own included, becomes one InputError that
// names the file and the dataset.
#include "meso/io/h5md.hpp"

#ifdef MESO_HAVE_HDF5

#include <cmath>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "hdf5_handle.hpp"
#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"

namespace meso::io {
namespace {

using hdf5::check;
using hdf5::Handle;
using hdf5::quiet_hdf5;
using hdf5::simple_space;

// Tags are 32-bit, and no trajectory mesobench writes holds more frames.
constexpr hsize_t kMaxParticles = hsize_t{1} << 32;
constexpr hsize_t kMaxFrames = hsize_t{1} << 32;
// A box edge beyond this is no simulation box (the cell and voxel grids of
// the analyses would not fit in memory); 1e9 particle diameters.
constexpr double kMaxEdge = 1e9;

const std::string kAll = "/particles/trajectory/";

// One dataset of the file, opened after checking that it exists and is a
// dataset, with its extent and type class.
struct Dataset {
  std::string name;  // as in messages: the path inside the file
  Handle d;
  std::vector<hsize_t> dims;
  H5T_class_t type_class = H5T_NO_CLASS;
};

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  template <class... Parts>
  [[noreturn]] void refuse(const Parts&... what) const {
    throw_input_error("H5MD file '", excerpt(path_, 200), "': ", what...);
  }

  void open() {
    quiet_hdf5();
    require_input_file(path_, "H5MD file");
    std::error_code ec;
    if (std::filesystem::file_size(path_, ec) == 0 && !ec) refuse("the file is empty");
    const hid_t f = H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) refuse("not an HDF5 file (or a damaged one)");
    file_ = Handle(f, H5Fclose, "file");
  }

  bool exists(const std::string& name) const {
    // Each link of the path in turn: H5Lexists fails on a missing group.
    for (std::size_t at = name.find('/', 1); ; at = name.find('/', at + 1)) {
      const std::string part = name.substr(0, at);
      if (H5Lexists(file_, part.c_str(), H5P_DEFAULT) <= 0) return false;
      if (at == std::string::npos) return true;
    }
  }

  Dataset dataset(const std::string& name) const {
    if (!exists(name)) refuse("no dataset " + name + " (not a trajectory of `mesobench run --trajectory`)");
    {
      const hid_t o = H5Oopen(file_, name.c_str(), H5P_DEFAULT);
      if (o < 0) refuse("HDF5 cannot open " + name);
      const Handle object(o, H5Oclose, name.c_str());
      if (H5Iget_type(object) != H5I_DATASET) refuse(name + " is not a dataset");
    }
    Dataset s{name, Handle(H5Dopen2(file_, name.c_str(), H5P_DEFAULT), H5Dclose, name.c_str()), {}, H5T_NO_CLASS};
    Handle space(H5Dget_space(s.d), H5Sclose, "dataspace");
    if (H5Sget_simple_extent_type(space) != H5S_SIMPLE) refuse(name + " is not an array (scalar or empty)");
    const int rank = check(H5Sget_simple_extent_ndims(space), "rank");
    s.dims.resize(std::size_t(rank));
    check(H5Sget_simple_extent_dims(space, s.dims.data(), nullptr), "extent");
    Handle type(H5Dget_type(s.d), H5Tclose, "type");
    s.type_class = H5Tget_class(type);
    // Unfiltered data is stored whole: an extent beyond the bytes stored is
    // a damaged or truncated file (or one made to look large), refused
    // before it is read into memory.
    Handle dcpl(H5Dget_create_plist(s.d), H5Pclose, "dataset properties");
    double declared = double(H5Tget_size(type));
    for (const hsize_t d : s.dims) declared *= double(d);
    const double stored = double(H5Dget_storage_size(s.d));
    if (H5Pget_nfilters(dcpl) == 0 && stored < declared)
      refuse(name, " has shape ", shape_text(s.dims), " but holds ", stored, " of its ", declared,
             " bytes (a damaged or truncated file)");
    return s;
  }

  static std::string shape_text(const std::vector<hsize_t>& dims) {
    std::string t = "(";
    for (std::size_t k = 0; k < dims.size(); ++k) t += (k ? ", " : "") + std::to_string(dims[k]);
    return t + ")";
  }
  // Checks rank and type class, and each fixed dimension (0: any).
  void require(const Dataset& s, const std::vector<hsize_t>& want, const char* shape, bool integer) const {
    bool ok = s.dims.size() == want.size();
    for (std::size_t k = 0; ok && k < want.size(); ++k) ok = want[k] == 0 || s.dims[k] == want[k];
    if (!ok) refuse(s.name + " has shape " + shape_text(s.dims) + ", not " + shape);
    const bool numeric = s.type_class == H5T_INTEGER || (!integer && s.type_class == H5T_FLOAT);
    if (!numeric) refuse(s.name + " does not hold " + (integer ? "integers" : "numbers"));
  }

  // Row `frame` of the first axis into `out` (of the row's size).
  void read_row(const Dataset& s, hid_t mem_type, hsize_t frame, void* out) const {
    if (frame >= s.dims[0]) refuse(s.name, " has ", s.dims[0], " frames, not frame ", frame);
    Handle space(H5Dget_space(s.d), H5Sclose, "dataspace");
    std::vector<hsize_t> start(s.dims.size(), 0), count = s.dims;
    start[0] = frame;
    count[0] = 1;
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), "select");
    Handle mem = simple_space(int(count.size()), count.data());
    if (H5Dread(s.d, mem_type, mem, space, H5P_DEFAULT, out) < 0) refuse("HDF5 cannot read " + s.name);
  }

  template <class T>
  std::vector<T> read_all(const Dataset& s, hid_t mem_type) const {
    std::vector<T> v(s.dims[0]);
    if (!v.empty() && H5Dread(s.d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
      refuse("HDF5 cannot read " + s.name);
    return v;
  }

  std::string text_attribute(const std::string& object, const char* name) const {
    if (!exists(object)) return "";
    Handle o(H5Oopen(file_, object.c_str(), H5P_DEFAULT), H5Oclose, object.c_str());
    if (H5Aexists(o, name) <= 0) return "";
    Handle a(H5Aopen(o, name, H5P_DEFAULT), H5Aclose, name);
    Handle file_type(H5Aget_type(a), H5Tclose, name);
    Handle space(H5Aget_space(a), H5Sclose, name);
    // Only a scalar variable-length string is read; anything else is no unit.
    if (H5Tget_class(file_type) != H5T_STRING || H5Tis_variable_str(file_type) <= 0 ||
        H5Sget_simple_extent_type(space) != H5S_SCALAR)
      return "";
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose, name);
    check(H5Tset_size(type, H5T_VARIABLE), name);
    check(H5Tset_cset(type, H5T_CSET_UTF8), name);
    char* p = nullptr;
    if (H5Aread(a, type, &p) < 0) refuse("HDF5 cannot read the attribute " + std::string(name) + " of " + object);
    std::string s = p ? p : "";
    H5free_memory(p);
    return s;
  }

  H5mdData read(std::size_t frame) {
    open();
    H5mdData d;
    const Dataset pos = dataset(kAll + "position/value");
    require(pos, {0, 0, 3}, "(frames, N, 3)", false);
    const hsize_t frames = pos.dims[0], n = pos.dims[1];
    if (frames > kMaxFrames) refuse(pos.name, " has ", frames, " frames, more than 2^32");
    if (n > kMaxParticles) refuse(pos.name, " has ", n, " particles, more than 2^32");
    // What one frame takes in memory (and the steps and times of all), against
    // the machine's memory: a damaged extent is refused before it is allocated.
    const double bytes = double(n) * (sizeof(Vec3d) * 3 + sizeof(Image) + sizeof(int32_t) + sizeof(Quatd)) +
                         double(frames) * (sizeof(int64_t) + sizeof(double));
    const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    if (memory > 0.0 && bytes > memory)
      refuse(pos.name, " holds ", n, " particles in ", frames, " frames: a frame needs ", bytes / 1e9,
             " GB, more than this machine's ", memory / 1e9, " GB");
    if (frame >= frames)
      refuse("frame ", frame, " does not exist (", frames, " frames)");
    const Dataset step = dataset(kAll + "position/step"), time = dataset(kAll + "position/time");
    require(step, {frames}, "(frames), a step per frame of position", true);
    require(time, {frames}, "(frames), a time per frame of position", false);
    const Dataset edges = dataset(kAll + "box/edges/value");
    require(edges, {frames, 3}, "(frames, 3)", false);
    const Dataset vel = dataset(kAll + "velocity/value"), img = dataset(kAll + "image/value"),
                  species = dataset(kAll + "species/value");
    require(vel, {frames, n, 3}, "(frames, N, 3) as position", false);
    require(img, {frames, n, 3}, "(frames, N, 3) as position", true);
    require(species, {frames, n}, "(frames, N) as position", true);
    const bool rotational = exists(kAll + "orientation");
    Dataset orientation, angular;
    if (rotational) {
      orientation = dataset(kAll + "orientation/value");
      angular = dataset(kAll + "angular_momentum/value");
      require(orientation, {frames, n, 4}, "(frames, N, 4)", false);
      require(angular, {frames, n, 3}, "(frames, N, 3)", false);
    }

    d.step = read_all<int64_t>(step, H5T_NATIVE_INT64);
    d.time = read_all<double>(time, H5T_NATIVE_DOUBLE);
    double e[3];
    read_row(edges, H5T_NATIVE_DOUBLE, frame, e);
    for (int k = 0; k < 3; ++k)
      if (!(std::isfinite(e[k]) && e[k] > 0.0 && e[k] <= kMaxEdge))
        refuse("box edge ", "xyz"[k], " = ", e[k], " in frame ", frame, " (finite, > 0 and <= ", kMaxEdge, ")");
    d.edges = {e[0], e[1], e[2]};
    d.position.resize(n);
    d.velocity.resize(n);
    d.image.resize(n);
    d.species.resize(n);
    read_row(pos, H5T_NATIVE_DOUBLE, frame, d.position.data());
    read_row(vel, H5T_NATIVE_DOUBLE, frame, d.velocity.data());
    read_row(img, H5T_NATIVE_INT32, frame, d.image.data());
    read_row(species, H5T_NATIVE_INT32, frame, d.species.data());
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3d& r = d.position[i];
      if (!(std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.z)))
        refuse("the position of particle ", i, " in frame ", frame, " is not finite");
      if (d.species[i] < 0)
        refuse("particle ", i, " in frame ", frame, " has species ", d.species[i], " (>= 0)");
    }
    if (rotational) {
      d.orientation.resize(n);
      d.angular_momentum.resize(n);
      read_row(orientation, H5T_NATIVE_DOUBLE, frame, d.orientation.data());
      read_row(angular, H5T_NATIVE_DOUBLE, frame, d.angular_momentum.data());
    }
    d.units.length = text_attribute(pos.name, "unit");
    d.units.time = text_attribute(time.name, "unit");
    d.units.velocity = text_attribute(vel.name, "unit");
    d.units.description = text_attribute("/parameters/mesobench", "units");
    return d;
  }

 private:
  std::string path_;
  Handle file_;
};

}  // namespace

H5mdData read_h5md_frame(const std::string& path, std::size_t frame) {
  Reader reader(path);
  try {
    return reader.read(frame);
  } catch (const InputError&) {
    throw;
  } catch (const std::bad_alloc&) {
    reader.refuse("its datasets do not fit in memory");
  } catch (const std::length_error&) {
    reader.refuse("its datasets do not fit in memory");
  } catch (const std::runtime_error& e) {  // hdf5::check: a call HDF5 refused
    reader.refuse(e.what());
  }
}

}  // namespace meso::io

#endif

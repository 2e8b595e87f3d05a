// Reading H5MD files back (meso/io/h5md.hpp): one frame of a trajectory
// mesobench wrote, with its unit attributes (the tests, the trajectory
// digests). Without HDF5 the stub in h5md.cpp refuses.
#include "meso/io/h5md.hpp"

#ifdef MESO_HAVE_HDF5

#include <string>
#include <vector>

#include "hdf5_handle.hpp"
#include "meso/error.hpp"

namespace meso::io {
namespace {

using hdf5::check;
using hdf5::Handle;
using hdf5::quiet_hdf5;
using hdf5::simple_space;

std::string text_attribute_of(hid_t loc, const char* name) {
  if (H5Aexists(loc, name) <= 0) return "";
  Handle a(H5Aopen(loc, name, H5P_DEFAULT), H5Aclose, name);
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, name);
  check(H5Tset_size(type, H5T_VARIABLE), name);
  check(H5Tset_cset(type, H5T_CSET_UTF8), name);
  char* p = nullptr;
  check(H5Aread(a, type, &p), name);
  std::string s = p ? p : "";
  H5free_memory(p);
  return s;
}

void read_row(hid_t file, const std::string& path, hid_t mem_type, hsize_t frame, void* out,
              std::size_t expect_per_frame) {
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0)
    throw_input_error("H5MD file has no dataset ", path);
  Handle d(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose, path.c_str());
  Handle space(H5Dget_space(d), H5Sclose, "dataspace");
  const int rank = check(H5Sget_simple_extent_ndims(space), "rank");
  std::vector<hsize_t> dims(rank);
  check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), "extent");
  std::size_t per = 1;
  for (int k = 1; k < rank; ++k) per *= dims[k];
  if (frame >= dims[0] || per != expect_per_frame)
    throw_input_error("H5MD dataset ", path, " has shape that does not hold frame ", frame);
  std::vector<hsize_t> start(rank, 0), count = dims;
  start[0] = frame;
  count[0] = 1;
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), "select");
  Handle mem = simple_space(rank, count.data());
  check(H5Dread(d, mem_type, mem, space, H5P_DEFAULT, out), "read");
}

template <class T>
std::vector<T> read_all_1d(hid_t file, const std::string& path, hid_t mem_type) {
  Handle d(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose, path.c_str());
  Handle space(H5Dget_space(d), H5Sclose, "dataspace");
  hsize_t n = 0;
  check(H5Sget_simple_extent_dims(space, &n, nullptr), "extent");
  std::vector<T> v(n);
  if (n) check(H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "read");
  return v;
}

}  // namespace

H5mdData read_h5md_frame(const std::string& path, std::size_t frame) {
  quiet_hdf5();
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) throw_input_error("cannot open H5MD file '", path, "'");
  Handle file(f, H5Fclose, "file");
  H5mdData d;
  const std::string all = "/particles/trajectory/";
  d.step = read_all_1d<int64_t>(file, all + "position/step", H5T_NATIVE_INT64);
  d.time = read_all_1d<double>(file, all + "position/time", H5T_NATIVE_DOUBLE);
  double edges[3];
  read_row(file, all + "box/edges/value", H5T_NATIVE_DOUBLE, frame, edges, 3);
  d.edges = {edges[0], edges[1], edges[2]};
  Handle pd(H5Dopen2(file, (all + "position/value").c_str(), H5P_DEFAULT), H5Dclose, "position");
  Handle ps(H5Dget_space(pd), H5Sclose, "dataspace");
  hsize_t dims[3] = {0, 0, 0};
  check(H5Sget_simple_extent_dims(ps, dims, nullptr), "extent");
  const std::size_t n = dims[1];
  d.position.resize(n);
  d.velocity.resize(n);
  d.image.resize(n);
  d.species.resize(n);
  read_row(file, all + "position/value", H5T_NATIVE_DOUBLE, frame, d.position.data(), 3 * n);
  read_row(file, all + "velocity/value", H5T_NATIVE_DOUBLE, frame, d.velocity.data(), 3 * n);
  read_row(file, all + "image/value", H5T_NATIVE_INT32, frame, d.image.data(), 3 * n);
  read_row(file, all + "species/value", H5T_NATIVE_INT32, frame, d.species.data(), n);
  if (H5Lexists(file, (all + "orientation").c_str(), H5P_DEFAULT) > 0) {
    d.orientation.resize(n);
    d.angular_momentum.resize(n);
    read_row(file, all + "orientation/value", H5T_NATIVE_DOUBLE, frame, d.orientation.data(), 4 * n);
    read_row(file, all + "angular_momentum/value", H5T_NATIVE_DOUBLE, frame, d.angular_momentum.data(), 3 * n);
  }
  auto unit_of = [&](const std::string& dataset) {
    Handle ds(H5Dopen2(file, (all + dataset).c_str(), H5P_DEFAULT), H5Dclose, dataset.c_str());
    return text_attribute_of(ds, "unit");
  };
  d.units.length = unit_of("position/value");
  d.units.time = unit_of("position/time");
  d.units.velocity = unit_of("velocity/value");
  Handle mine(H5Gopen2(file, "/parameters/mesobench", H5P_DEFAULT), H5Gclose, "/parameters/mesobench");
  d.units.description = text_attribute_of(mine, "units");
  return d;
}

}  // namespace meso::io

#endif

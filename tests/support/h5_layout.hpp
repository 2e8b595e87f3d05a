// HDF5 files of any layout, for the H5MD reader's tests and its fuzzer
// (tests/io/h5md_test.cpp, fuzz/h5md_fuzzer.cpp): datasets of a chosen
// path, shape, type class and values, which the writer of meso/io/h5md.hpp
// would never make (a position of rank 4, a NaN box edge, a group where a
// dataset belongs). Needs the HDF5 C library.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace meso::testing {

struct H5Dataset {
  std::string path;             // absolute, groups made as needed ("/a/b/c")
  std::vector<hsize_t> dims;    // rank = dims.size()
  bool integer = false;         // 32-bit integers, else doubles
  std::vector<double> values;   // repeated to fill the dataset ({} : zeros)
  bool as_group = false;        // a group of this name instead
};

// The datasets of a mesobench trajectory (meso/io/h5md.hpp) with `frames`
// frames of n particles in a cubic box of `edge`: species alternating 0, 1,
// positions spread over the box.
inline std::vector<H5Dataset> h5md_layout(hsize_t frames, hsize_t n, double edge) {
  const std::string all = "/particles/trajectory/";
  std::vector<double> steps, positions;
  for (hsize_t f = 0; f < frames; ++f) steps.push_back(double(10 * f));
  for (hsize_t i = 0; i < 3 * n; ++i) positions.push_back(edge * double(i % 7) / 7.0);
  return {{all + "position/step", {frames}, true, steps},
          {all + "position/time", {frames}, false, steps},
          {all + "position/value", {frames, n, 3}, false, positions},
          {all + "box/edges/value", {frames, 3}, false, {edge}},
          {all + "velocity/value", {frames, n, 3}, false, {0.5}},
          {all + "image/value", {frames, n, 3}, true, {0}},
          {all + "species/value", {frames, n}, true, {0, 1}}};
}

// Writes the datasets into a new file at `file` (replacing one there).
inline void write_h5_layout(const std::string& file, const std::vector<H5Dataset>& sets) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) throw std::runtime_error("h5_layout: cannot create " + file);
  const hid_t links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  for (const H5Dataset& s : sets) {
    if (H5Lexists(f, s.path.c_str(), H5P_DEFAULT) > 0) continue;  // the first of a path wins
    if (s.as_group) {
      const hid_t g = H5Gcreate2(f, s.path.c_str(), links, H5P_DEFAULT, H5P_DEFAULT);
      if (g >= 0) H5Gclose(g);
      continue;
    }
    const hid_t space = H5Screate_simple(int(s.dims.size()), s.dims.data(), nullptr);
    if (space < 0) continue;  // a shape HDF5 refuses (rank 0 or above 32)
    double elements = 1.0;
    for (hsize_t d : s.dims) elements *= double(d);
    // A dataset of more than 2^20 elements is created but not written: the
    // file then stores none of its bytes (an extent made to look large).
    const std::size_t count = elements <= double(1 << 20) ? std::size_t(elements) : 0;
    const hid_t type = s.integer ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
    const hid_t d = H5Dcreate2(f, s.path.c_str(), type, space, links, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0) {
      std::vector<double> v(count, 0.0);
      for (std::size_t k = 0; k < count && !s.values.empty(); ++k) v[k] = s.values[k % s.values.size()];
      if (s.integer) {
        std::vector<int> w(count);
        for (std::size_t k = 0; k < count; ++k)  // what an int cannot hold as 0
          w[k] = v[k] >= -2147483648.0 && v[k] <= 2147483647.0 ? static_cast<int>(v[k]) : 0;
        if (count) H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, w.data());
      } else if (count) {
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
      }
      H5Dclose(d);
    }
    H5Sclose(space);
  }
  H5Pclose(links);
  H5Fclose(f);
}

}  // namespace meso::testing

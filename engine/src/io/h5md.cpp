// H5MD writer over the HDF5 C API (meso/io/h5md.hpp; the reader is
// h5md_read.cpp). Without HDF5 (MESO_HAVE_HDF5 undefined) the writer and the
// reader refuse with an InputError.
#include "meso/io/h5md.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"

#ifdef MESO_HAVE_HDF5
#include "hdf5_handle.hpp"
#endif

namespace meso::io {

H5mdUnits reduced_units(const std::string& what) {
  return {"Angstrom", "ps", "Angstrom ps-1",
          "reduced units (" + what + "), labelled Angstrom and ps: 1 Angstrom = 1 reduced length, 1 ps = 1 "
          "reduced time"};
}

H5mdUnits nm_ps_units(const std::string& what) { return {"nm", "ps", "nm ps-1", what}; }

#ifndef MESO_HAVE_HDF5

bool h5md_available() { return false; }

struct H5mdWriter::Impl {};

H5mdWriter::H5mdWriter(const std::string& path, std::size_t, const Box&, const H5mdMetadata&) {
  throw_input_error("cannot write trajectory '", path,
                    "': this mesobench was built without HDF5 (install libhdf5-dev, scripts/install-deps.sh, and "
                    "reconfigure)");
}
H5mdWriter::~H5mdWriter() = default;
void H5mdWriter::append(const H5mdFrame&) {}
std::size_t H5mdWriter::frames() const { return 0; }
void H5mdWriter::close() {}
H5mdData read_h5md_frame(const std::string& path, std::size_t) {
  throw_input_error("cannot read '", path, "': this mesobench was built without HDF5");
}

#else

bool h5md_available() { return true; }

static_assert(sizeof(Vec3d) == 3 * sizeof(double) && sizeof(Image) == 3 * sizeof(int32_t) &&
              sizeof(Quatd) == 4 * sizeof(double));

namespace {

using hdf5::check;
using hdf5::Handle;
using hdf5::quiet_hdf5;
using hdf5::simple_space;

Handle group(hid_t loc, const char* name) {
  return {H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name};
}

void int_attribute(hid_t loc, const char* name, const std::vector<int>& v) {
  const hsize_t n = v.size();
  Handle space = n == 1 ? Handle(H5Screate(H5S_SCALAR), H5Sclose, name) : simple_space(1, &n);
  Handle a(H5Acreate2(loc, name, H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(a, H5T_NATIVE_INT, v.data()), name);
}

// A variable-length UTF-8 string: what h5py reads as str (the H5MD unit
// attributes, which MDAnalysis looks up as str).
void text_attribute(hid_t loc, const char* name, const std::string& v) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, name);
  check(H5Tset_size(type, H5T_VARIABLE), name);
  check(H5Tset_cset(type, H5T_CSET_UTF8), name);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, name);
  Handle a(H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  const char* p = v.c_str();
  check(H5Awrite(a, type, &p), name);
}

// Fixed-length, null-terminated ASCII strings (scalar for one value).
void string_attribute(hid_t loc, const char* name, const std::vector<std::string>& v) {
  std::size_t len = 1;
  for (const auto& s : v) len = std::max(len, s.size() + 1);
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, name);
  check(H5Tset_size(type, len), name);
  check(H5Tset_strpad(type, H5T_STR_NULLTERM), name);
  std::vector<char> buf(len * v.size(), '\0');
  for (std::size_t i = 0; i < v.size(); ++i) std::copy(v[i].begin(), v[i].end(), buf.begin() + i * len);
  const hsize_t n = v.size();
  Handle space = n == 1 ? Handle(H5Screate(H5S_SCALAR), H5Sclose, name) : simple_space(1, &n);
  Handle a(H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(a, type, buf.data()), name);
}

// A dataset of shape (0, inner...) growing along its first axis, chunked
// one frame (or up to 2^16 particles) at a time.
Handle extensible(hid_t loc, const char* name, hid_t type, std::vector<hsize_t> inner) {
  std::vector<hsize_t> dims{0}, maxdims{H5S_UNLIMITED}, chunk{1};
  for (hsize_t d : inner) dims.push_back(d), maxdims.push_back(d), chunk.push_back(std::max<hsize_t>(1, d));
  if (chunk.size() == 1) chunk[0] = 1024;  // step and time: many frames a chunk
  if (chunk.size() > 1) chunk[1] = std::min<hsize_t>(chunk[1], 65536);
  Handle space = simple_space(static_cast<int>(dims.size()), dims.data(), maxdims.data());
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), "chunk");
  return {H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose, name};
}

// Writes one frame (row `frame` of the first axis) of `d` from `data`.
void append_row(hid_t d, hid_t mem_type, hsize_t frame, const void* data) {
  Handle space(H5Dget_space(d), H5Sclose, "dataspace");
  const int rank = check(H5Sget_simple_extent_ndims(space), "rank");
  std::vector<hsize_t> dims(rank);
  check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), "extent");
  dims[0] = frame + 1;
  check(H5Dset_extent(d, dims.data()), "extend");
  Handle file_space(H5Dget_space(d), H5Sclose, "dataspace");
  std::vector<hsize_t> start(rank, 0), count = dims;
  start[0] = frame;
  count[0] = 1;
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        "select");
  Handle mem = simple_space(rank, count.data());
  check(H5Dwrite(d, mem_type, mem, file_space, H5P_DEFAULT, data), "write");
}

}  // namespace

struct H5mdWriter::Impl {
  std::string path;
  std::unique_ptr<OutputFile> out;  // the unique temporary HDF5 writes to
  std::size_t n = 0;
  Vec3d edges{0, 0, 0};
  Handle file, step, time, edges_value, position, velocity, image, species;
  Handle orientation, angular_momentum;  // made by the first frame that has them
  bool rotational = false;
  hsize_t frames = 0;
  uint64_t last_step = 0;
  bool closed = false;
  double time_factor = 1.0, velocity_factor = 1.0;  // H5mdUnits
  std::vector<int32_t> species_buf;
  std::vector<Vec3d> velocity_buf;

  void release_datasets() {
    for (Handle* h : {&edges_value, &step, &time, &position, &velocity, &image, &species, &orientation,
                      &angular_momentum})
      h->reset();
  }
};

namespace {
void write_header(H5mdWriter::Impl& w, const Box& box, const H5mdMetadata& meta);
}  // namespace

H5mdWriter::H5mdWriter(const std::string& path, std::size_t n, const Box& box, const H5mdMetadata& meta)
    : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.path = path;
  w.n = n;
  w.edges = box.lengths();
  w.time_factor = meta.units.time_factor;
  w.velocity_factor = meta.units.velocity_factor;
  if (n == 0) throw_input_error("trajectory '", path, "': the system has no particles");
  quiet_hdf5();
  w.out = std::make_unique<OutputFile>(path);
  w.out->close_descriptor();
  const hid_t f = H5Fcreate(w.out->temporary().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) throw_input_error("cannot create trajectory '", w.out->temporary(), "' (for --trajectory ", path, ")");
  w.file = Handle(f, H5Fclose, "file");
  try {
    write_header(w, box, meta);
  } catch (const std::runtime_error& e) {
    fail("(its header)", e);
  }
}

namespace {

void write_header(H5mdWriter::Impl& w, const Box& box, const H5mdMetadata& meta) {
  {
    Handle h5md = group(w.file, "h5md");
    int_attribute(h5md, "version", {1, 1});
    Handle author = group(h5md, "author");
    const char* user = std::getenv("USER");
    const std::string who = !meta.author.empty() ? meta.author : user && *user ? user : "unknown";
    string_attribute(author, "name", {who});
    Handle creator = group(h5md, "creator");
    string_attribute(creator, "name", {"mesobench"});
#ifdef MESO_VERSION
    string_attribute(creator, "version", {MESO_VERSION});
#else
    string_attribute(creator, "version", {"unknown"});
#endif
  }
  {
    Handle params = group(w.file, "parameters");
    Handle mine = group(params, "mesobench");
    string_attribute(mine, "workload", {meta.workload});
    string_attribute(mine, "setup", {meta.setup});
    string_attribute(mine, "backend", {meta.backend});
    string_attribute(mine, "variant", {meta.variant});
    text_attribute(mine, "units", meta.units.description);
    const Vec3d lo = box.lo();
    const double origin[3] = {lo.x, lo.y, lo.z};
    const hsize_t three = 3;
    Handle space = simple_space(1, &three);
    Handle a(H5Acreate2(mine, "box_origin", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
             "box_origin");
    check(H5Awrite(a, H5T_NATIVE_DOUBLE, origin), "box_origin");
  }
  Handle particles = group(w.file, "particles");
  // "trajectory": the name MDAnalysis's Universe looks for (H5MD leaves it free).
  Handle all = group(particles, "trajectory");
  Handle boxg = group(all, "box");
  int_attribute(boxg, "dimension", {3});
  string_attribute(boxg, "boundary", {"periodic", "periodic", "periodic"});

  const hsize_t nn = w.n;
  Handle pos_g = group(all, "position");
  w.step = extensible(pos_g, "step", H5T_STD_I64LE, {});
  w.time = extensible(pos_g, "time", H5T_IEEE_F64LE, {});
  w.position = extensible(pos_g, "value", H5T_IEEE_F64LE, {nn, 3});
  auto element = [&](hid_t parent, const char* name, hid_t type, std::vector<hsize_t> inner) {
    Handle g = group(parent, name);
    check(H5Lcreate_hard(pos_g, "step", g, "step", H5P_DEFAULT, H5P_DEFAULT), "link step");
    check(H5Lcreate_hard(pos_g, "time", g, "time", H5P_DEFAULT, H5P_DEFAULT), "link time");
    return extensible(g, "value", type, std::move(inner));
  };
  w.edges_value = element(boxg, "edges", H5T_IEEE_F64LE, {3});
  w.velocity = element(all, "velocity", H5T_IEEE_F64LE, {nn, 3});
  w.image = element(all, "image", H5T_STD_I32LE, {nn, 3});
  w.species = element(all, "species", H5T_STD_I32LE, {nn});
  // Units (H5MD "units" notation) where MDAnalysis's reader looks: the time
  // dataset (shared by every element), position, box edges, velocity.
  text_attribute(w.time, "unit", meta.units.time);
  text_attribute(w.position, "unit", meta.units.length);
  text_attribute(w.edges_value, "unit", meta.units.length);
  text_attribute(w.velocity, "unit", meta.units.velocity);
}

// The orientational particles' elements, beside the others (their step and
// time the position's).
void add_rotational(H5mdWriter::Impl& w) {
  const hsize_t nn = w.n;
  Handle all(H5Gopen2(w.file, "/particles/trajectory", H5P_DEFAULT), H5Gclose, "/particles/trajectory");
  Handle pos_g(H5Gopen2(all, "position", H5P_DEFAULT), H5Gclose, "position");
  auto element = [&](const char* name, std::vector<hsize_t> inner) {
    Handle g = group(all, name);
    check(H5Lcreate_hard(pos_g, "step", g, "step", H5P_DEFAULT, H5P_DEFAULT), "link step");
    check(H5Lcreate_hard(pos_g, "time", g, "time", H5P_DEFAULT, H5P_DEFAULT), "link time");
    return extensible(g, "value", H5T_IEEE_F64LE, std::move(inner));
  };
  w.orientation = element("orientation", {nn, 4});
  w.angular_momentum = element("angular_momentum", {nn, 3});
  w.rotational = true;
}

}  // namespace

H5mdWriter::~H5mdWriter() {
  if (impl_ && !impl_->closed) abandon();  // an error ended the run: leave nothing behind
}

void H5mdWriter::abandon() noexcept {
  Impl& w = *impl_;
  w.release_datasets();
  w.file.reset();
  w.closed = true;
  if (w.out) w.out->discard();
}

void H5mdWriter::fail(const std::string& when, const std::exception& e) {
  Impl& w = *impl_;
  abandon();
  // A full disk or a file size limit ends the run (exit 2) rather than
  // leaving a trajectory that silently stops: the partial file is removed,
  // as a failed checkpoint's is, and an earlier FILE is left as it was.
  throw_input_error("cannot write trajectory '", w.path, "' ", when, ": ", e.what(), "; ", w.out->temporary(), " (",
                    w.frames, " frame", w.frames == 1 ? "" : "s", ", incomplete) removed");
}

void H5mdWriter::append(const H5mdFrame& f) {
  Impl& w = *impl_;
  if (f.position->size() != w.n || f.velocity->size() != w.n || f.image->size() != w.n ||
      f.species->size() != w.n)
    throw std::logic_error("H5mdWriter::append: a frame of another particle count");
  const bool rotational = f.orientation != nullptr;
  if (rotational != (f.angular_momentum != nullptr) ||
      (rotational && (f.orientation->size() != w.n || f.angular_momentum->size() != w.n)) ||
      (w.frames > 0 && rotational != w.rotational))
    throw std::logic_error("H5mdWriter::append: orientations in some frames only, or of another count");
  const int64_t step = static_cast<int64_t>(f.step);
  const double time = f.time * w.time_factor;
  const double edges[3] = {w.edges.x, w.edges.y, w.edges.z};
  w.species_buf.assign(f.species->begin(), f.species->end());
  const std::vector<Vec3d>* velocity = f.velocity;
  if (w.velocity_factor != 1.0) {
    w.velocity_buf.resize(w.n);
    for (std::size_t i = 0; i < w.n; ++i) w.velocity_buf[i] = w.velocity_factor * (*f.velocity)[i];
    velocity = &w.velocity_buf;
  }
  try {
    if (rotational && !w.rotational) add_rotational(w);
    append_row(w.step, H5T_NATIVE_INT64, w.frames, &step);
    append_row(w.time, H5T_NATIVE_DOUBLE, w.frames, &time);
    append_row(w.edges_value, H5T_NATIVE_DOUBLE, w.frames, edges);
    // Vec3d and Image are three packed scalars (asserted below): written as (N, 3).
    append_row(w.position, H5T_NATIVE_DOUBLE, w.frames, f.position->data());
    append_row(w.velocity, H5T_NATIVE_DOUBLE, w.frames, velocity->data());
    append_row(w.image, H5T_NATIVE_INT32, w.frames, f.image->data());
    append_row(w.species, H5T_NATIVE_INT32, w.frames, w.species_buf.data());
    if (rotational) {  // Quatd: s, x, y, z packed (asserted above)
      append_row(w.orientation, H5T_NATIVE_DOUBLE, w.frames, f.orientation->data());
      append_row(w.angular_momentum, H5T_NATIVE_DOUBLE, w.frames, f.angular_momentum->data());
    }
    check(H5Fflush(w.file, H5F_SCOPE_GLOBAL), "flush");
  } catch (const std::runtime_error& e) {
    fail("at step " + std::to_string(f.step), e);
  }
  ++w.frames;
  w.last_step = f.step;
}

std::size_t H5mdWriter::frames() const { return impl_->frames; }

void H5mdWriter::close() {
  Impl& w = *impl_;
  if (w.closed) return;
  try {
    // Everything cached reaches the file here, where a failure is seen
    // (Handle::reset ignores the result of a close).
    check(H5Fflush(w.file, H5F_SCOPE_GLOBAL), "flush");
    w.release_datasets();
    check(H5Fclose(w.file.release()), "close");
  } catch (const std::runtime_error& e) {
    fail("(closing it after step " + std::to_string(w.last_step) + ")", e);
  }
  w.closed = true;
  w.out->commit();  // on failure it removes the temporary: no half-written output either
}

#endif

}  // namespace meso::io

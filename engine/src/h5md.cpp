// H5MD writer and reader over the HDF5 C API (meso/io/h5md.hpp). Without
// HDF5 (MESO_HAVE_HDF5 undefined) the writer refuses with an InputError.
#include "meso/io/h5md.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "meso/error.hpp"
#include "meso/io/durable_file.hpp"

#ifdef MESO_HAVE_HDF5
#include <hdf5.h>
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

static_assert(sizeof(Vec3d) == 3 * sizeof(double) && sizeof(Image) == 3 * sizeof(int32_t));

namespace {

// Errors become exceptions, not stderr dumps. HDF5's exit handler is turned
// off: after a failed write (a full disk) the file cannot be closed, and the
// handler's second attempt at exit crashes (HDF5 1.10); every file that was
// written whole is closed explicitly before then.
void quiet_hdf5() {
  static const bool once = [] { return H5dont_atexit() >= 0; }();
  (void)once;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

// The system's reason for the HDF5 call that just failed: its file drivers
// record "errno = N" in the error stack (a full disk, a file size limit),
// which the next HDF5 call clears; "" when there is none.
std::string system_reason() {
  int err = 0;
  auto walk = [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
    const char* at = e->desc ? std::strstr(e->desc, "errno = ") : nullptr;
    int* out = static_cast<int*>(data);
    if (at && *out == 0) *out = std::atoi(at + 8);
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk, &err);
  return err > 0 ? std::strerror(err) : "";
}

// Every HDF5 call returns a negative value on failure.
template <class T>
T check(T rc, const char* what) {
  if (rc < 0) {
    const std::string why = system_reason();
    throw std::runtime_error(std::string("HDF5 ") + what + " failed" + (why.empty() ? "" : ": " + why));
  }
  return rc;
}

// Owns one hid_t and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(check(id, what)), close_(close) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept {
    reset();
    id_ = o.id_, close_ = o.close_, o.id_ = -1;
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  // Gives up the id unclosed (to close it where the result is checked).
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

Handle group(hid_t loc, const char* name) {
  return {H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name};
}

Handle simple_space(int rank, const hsize_t* dims, const hsize_t* maxdims = nullptr) {
  return {H5Screate_simple(rank, dims, maxdims), H5Sclose, "dataspace"};
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

struct H5mdWriter::Impl {
  std::string path, tmp;
  std::size_t n = 0;
  Vec3d edges{0, 0, 0};
  Handle file, step, time, edges_value, position, velocity, image, species;
  hsize_t frames = 0;
  uint64_t last_step = 0;
  bool closed = false;
  double time_factor = 1.0, velocity_factor = 1.0;  // H5mdUnits
  std::vector<int32_t> species_buf;
  std::vector<Vec3d> velocity_buf;

  void release_datasets() {
    for (Handle* h : {&edges_value, &step, &time, &position, &velocity, &image, &species}) h->reset();
  }
};

namespace {
void write_header(H5mdWriter::Impl& w, const Box& box, const H5mdMetadata& meta);
}  // namespace

H5mdWriter::H5mdWriter(const std::string& path, std::size_t n, const Box& box, const H5mdMetadata& meta)
    : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.path = path;
  w.tmp = temporary_path(path);
  w.n = n;
  w.edges = box.lengths();
  w.time_factor = meta.units.time_factor;
  w.velocity_factor = meta.units.velocity_factor;
  if (n == 0) throw_input_error("trajectory '", path, "': the system has no particles");
  quiet_hdf5();
  const hid_t f = H5Fcreate(w.tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) throw_input_error("cannot create trajectory '", w.tmp, "' (for --trajectory ", path, ")");
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

}  // namespace

H5mdWriter::~H5mdWriter() {
  if (impl_ && !impl_->closed) abandon();  // an error ended the run: leave nothing behind
}

void H5mdWriter::abandon() noexcept {
  Impl& w = *impl_;
  w.release_datasets();
  w.file.reset();
  w.closed = true;
  std::remove(w.tmp.c_str());
}

void H5mdWriter::fail(const std::string& when, const std::exception& e) {
  Impl& w = *impl_;
  abandon();
  // A full disk or a file size limit ends the run (exit 2) rather than
  // leaving a trajectory that silently stops: the partial file is removed,
  // as a failed checkpoint's is, and an earlier FILE is left as it was.
  throw_input_error("cannot write trajectory '", w.path, "' ", when, ": ", e.what(), "; ", w.tmp, " (",
                    w.frames, " frame", w.frames == 1 ? "" : "s", ", incomplete) removed");
}

void H5mdWriter::append(const H5mdFrame& f) {
  Impl& w = *impl_;
  if (f.position->size() != w.n || f.velocity->size() != w.n || f.image->size() != w.n ||
      f.species->size() != w.n)
    throw std::logic_error("H5mdWriter::append: a frame of another particle count");
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
    append_row(w.step, H5T_NATIVE_INT64, w.frames, &step);
    append_row(w.time, H5T_NATIVE_DOUBLE, w.frames, &time);
    append_row(w.edges_value, H5T_NATIVE_DOUBLE, w.frames, edges);
    // Vec3d and Image are three packed scalars (asserted below): written as (N, 3).
    append_row(w.position, H5T_NATIVE_DOUBLE, w.frames, f.position->data());
    append_row(w.velocity, H5T_NATIVE_DOUBLE, w.frames, velocity->data());
    append_row(w.image, H5T_NATIVE_INT32, w.frames, f.image->data());
    append_row(w.species, H5T_NATIVE_INT32, w.frames, w.species_buf.data());
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
  try {
    commit_file_durably(w.tmp, w.path);
  } catch (...) {
    std::remove(w.tmp.c_str());  // not durable: no half-written output either
    throw;
  }
}

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

#endif

}  // namespace meso::io

// The HDF5 C API as the H5MD writer and reader use it (h5md.cpp,
// h5md_read.cpp): errors as exceptions with the system's reason, and
// handles that close what they own. Internal to engine/src.
#pragma once

#include <hdf5.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace meso::io::hdf5 {

// Errors become exceptions, not stderr dumps. HDF5's exit handler is turned
// off: after a failed write (a full disk) the file cannot be closed, and the
// handler's second attempt at exit crashes (HDF5 1.10); every file that was
// written whole is closed explicitly before then.
inline void quiet_hdf5() {
  static const bool once = [] { return H5dont_atexit() >= 0; }();
  (void)once;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

// The system's reason for the HDF5 call that just failed: its file drivers
// record "errno = N" in the error stack (a full disk, a file size limit),
// which the next HDF5 call clears; "" when there is none.
inline std::string system_reason() {
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

inline Handle simple_space(int rank, const hsize_t* dims, const hsize_t* maxdims = nullptr) {
  return {H5Screate_simple(rank, dims, maxdims), H5Sclose, "dataspace"};
}

}  // namespace meso::io::hdf5

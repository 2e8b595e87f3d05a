// CudaContext: loading the system, the step control words, the particle
// copy-out, and the registry of live operations (cuda_context.cuh).
#include "core/cuda_context.cuh"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <numeric>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "core/device_ops.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/physics/pair_noise.hpp"
#include "core/tag_order.cuh"

namespace meso::cuda {

uint32_t round_up(uint32_t x, uint32_t m) { return (x + m - 1) / m * m; }

// ---- DeviceOp

DeviceOp::DeviceOp(CudaContextBase& ctx) : base_(ctx), serial_(ctx.next_serial++) {
  ctx.ops.push_back(this);
}

DeviceOp::~DeviceOp() {
  auto& ops = base_.ops;
  ops.erase(std::remove(ops.begin(), ops.end(), this), ops.end());
}

// ---- CudaContextBase

CudaContextBase::CudaContextBase(const Variant& v) : variant(v) {
  MESO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  MESO_CUDA_CHECK(cudaMallocHost(&h_ctl, sizeof(StepControl)));
  MESO_CUDA_CHECK(cudaEventCreateWithFlags(&ctl_copied_, cudaEventDisableTiming));
  use_graphs = v.graphs;
}

CudaContextBase::~CudaContextBase() {
  cudaFreeHost(h_ctl);
  cudaEventDestroy(ctl_copied_);
  cudaStreamDestroy(stream);
}

void CudaContextBase::pull_ctl() const {
  MESO_CUDA_CHECK(cudaMemcpyAsync(h_ctl, ctl.data(), sizeof(StepControl), cudaMemcpyDeviceToHost,
                                  stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void CudaContextBase::start_pull_ctl() const {
  MESO_CUDA_CHECK(cudaMemcpyAsync(h_ctl, ctl.data(), sizeof(StepControl), cudaMemcpyDeviceToHost,
                                  stream));
  MESO_CUDA_CHECK(cudaEventRecord(ctl_copied_, stream));
}

void CudaContextBase::finish_pull_ctl() const { MESO_CUDA_CHECK(cudaEventSynchronize(ctl_copied_)); }

void CudaContextBase::push_ctl() const {
  MESO_CUDA_CHECK(cudaMemcpyAsync(const_cast<StepControl*>(ctl.data()), h_ctl, sizeof(StepControl),
                                  cudaMemcpyHostToDevice, stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void CudaContextBase::set_step(uint64_t step) {  // host-side; stream must be idle
  pull_ctl();
  h_ctl->step = step;
  const physics::TeaPairKey k = physics::tea_pair_key(step, params.seed);
  std::memcpy(h_ctl->tea_key, k.k, sizeof(k.k));
  push_ctl();
}

ControlArgs CudaContextBase::control_args(const StepRules& rules) const {
  ControlArgs c;
  c.rules = rules;
  c.seed = params.seed;
  c.tea = tea;
  return c;
}

void CudaContextBase::synchronize() const { MESO_CUDA_CHECK(cudaStreamSynchronize(stream)); }

bool CudaContextBase::alive(const DeviceOp* op, uint64_t serial) const {
  return op && std::find(ops.begin(), ops.end(), op) != ops.end() && op->serial() == serial;
}

void CudaContextBase::restrict_cells(const Domain& d) {
  cells_ranged = true;
  cell_domain = d;
  const CellRange r = md_cell_range(d, {grid.gx, grid.gy, grid.gz});
  grid.nx = r.count[0];
  grid.ny = r.count[1];
  grid.nz = r.count[2];
  grid.first_x = r.first[0];
  grid.first_y = r.first[1];
  grid.first_z = r.first[2];
  invalidate_graphs();
}

std::map<std::string, std::size_t> CudaContextBase::device_bytes_by_part() const {
  std::map<std::string, std::size_t> parts{{"particles", particle_bytes()}, {"control", ctl.bytes()}};
  for (const DeviceOp* op : ops) {
    // The class's name without namespaces or template arguments.
    int status = 0;
    char* d = abi::__cxa_demangle(typeid(*op).name(), nullptr, nullptr, &status);
    std::string name = status == 0 && d ? d : typeid(*op).name();
    std::free(d);
    name = name.substr(0, name.find('<'));
    name = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    parts[name] += op->device_bytes();
  }
  return parts;
}

std::size_t CudaContextBase::device_bytes() const {
  std::size_t b = particle_bytes() + ctl.bytes();
  for (const DeviceOp* op : ops) b += op->device_bytes();
  return b;
}

void CudaContextBase::load_common(const System& s, const RunParams& p) {
  sys = s;
  params = p;
  n = static_cast<uint32_t>(s.particles.n_local);
  n_ghost = 0;
  capacity = n;
  forces_read_pred = false;
  tea = variant.rng == RngKind::tea;
  gw = p.integrator == Integrator::groot_warren;
  nh_mv2_known = false;
  cells = {};
  nlist = {};
  cell_start = nullptr;
  invalidate_graphs();

  const Vec3d L = sys.box.lengths();
  const double w = cell_width();
  auto dim = [&](double l) { return std::max(1, static_cast<int>(std::floor(l / w))); };
  grid.nx = dim(L.x);
  grid.ny = dim(L.y);
  grid.nz = dim(L.z);
  const Vec3d lo = sys.box.lo();
  grid.lo_x = lo.x;
  grid.lo_y = lo.y;
  grid.lo_z = lo.z;
  grid.inv_wx = grid.nx / L.x;
  grid.inv_wy = grid.ny / L.y;
  grid.inv_wz = grid.nz / L.z;
  grid.gx = grid.nx;
  grid.gy = grid.ny;
  grid.gz = grid.nz;
  grid.first_x = grid.first_y = grid.first_z = 0;
  if (cells_ranged) restrict_cells(cell_domain);

  ctl.resize(1);
  std::memset(h_ctl, 0, sizeof(StepControl));
  h_ctl->list.steps_since_sort = 0xffffffffu;  // sort before the first list, as the reference does
  push_ctl();
  loaded = true;
}

// ---- CudaContext<P>

template <class P>
void CudaContext<P>::load(const System& s, const RunParams& p) {
  load_common(s, p);
  // Particle arrays, converted to the storage precision (type in pos.w).
  std::vector<S4> hp(n), hv(n), hf(n);
  const auto& src = s.particles;
  for (uint32_t i = 0; i < n; ++i) {
    hp[i] = make4<S4>(src.position[i], double(src.type[i]));
    hv[i] = make4<S4>(src.velocity[i], 0.0);
    hf[i] = make4<S4>(src.force[i], 0.0);
  }
  const bool pred = gw || variant.fuse;  // Groot-Warren's prediction, fused vv's v(t + dt/2)
  pos.resize(n);
  vel.resize(n);
  force.resize(n);
  last_pos.resize(n);
  tag.resize(n);
  image.resize(n);
  if (pred) vel_pred.resize(n); else vel_pred.release();
  if (tea) sig.resize(n); else sig.release();
  MESO_CUDA_CHECK(cudaMemcpy(pos.data(), hp.data(), n * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(vel.data(), hv.data(), n * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(force.data(), hf.data(), n * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(tag.data(), src.tag.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(image.data(), src.image.data(), n * sizeof(Image), cudaMemcpyHostToDevice));
  if (pred) MESO_CUDA_CHECK(cudaMemset(vel_pred.data(), 0, n * sizeof(S4)));
  mass.resize(s.type_mass.size());
  MESO_CUDA_CHECK(cudaMemcpy(mass.data(), s.type_mass.data(), mass.bytes(), cudaMemcpyHostToDevice));
  load_rotation(src);
}

template <class P>
void CudaContext<P>::load_rotation(const ParticleData<double>& src) {
  rotational = src.rotational;
  if (!rotational) {
    for (auto* b : {&orient, &angmom, &inertia, &torque}) b->release();
    return;
  }
  std::vector<S4> hq(n), hl(n), hi(n), ht(n);
  for (uint32_t i = 0; i < n; ++i) {
    hq[i] = make_quat4<S4>(src.orientation[i]);
    hl[i] = make4<S4>(src.angmom[i], 0.0);
    hi[i] = make4<S4>(src.inertia[i], 0.0);
    ht[i] = make4<S4>(src.torque[i], 0.0);
  }
  const std::pair<DeviceBuffer<S4>*, const std::vector<S4>*> arrays[] = {
      {&orient, &hq}, {&angmom, &hl}, {&inertia, &hi}, {&torque, &ht}};
  for (const auto& [d, h] : arrays) {
    d->resize(n);
    MESO_CUDA_CHECK(cudaMemcpy(d->data(), h->data(), n * sizeof(S4), cudaMemcpyHostToDevice));
  }
}

template <class P>
void CudaContext<P>::get_particles(ParticleData<double>& out) const {
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<uint32_t> by_tag = copy_out_by_tag(pos, vel, tag, image, n, out);
  const std::vector<S4> hf = to_host(force, n);
  for (uint32_t k = 0; k < n; ++k) out.force[k] = xyz(hf[by_tag[k]]);
  out.set_rotational(rotational);
  if (!rotational) return;
  const std::vector<S4> hq = to_host(orient, n), hl = to_host(angmom, n), hn = to_host(inertia, n),
                        htq = to_host(torque, n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = by_tag[k];
    out.orientation[k] = quat_of(hq[i]);
    out.angmom[k] = xyz(hl[i]);
    out.inertia[k] = xyz(hn[i]);
    out.torque[k] = xyz(htq[i]);
  }
}

template <class P>
void CudaContext<P>::list_state(ListRestartState& out) const {
  std::vector<S4> hl(n);
  out.order.resize(n);
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  MESO_CUDA_CHECK(cudaMemcpy(out.order.data(), tag.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(hl.data(), last_pos.data(), n * sizeof(S4), cudaMemcpyDeviceToHost));
  out.build_position.resize(n);
  for (uint32_t i = 0; i < n; ++i) out.build_position[i] = xyz(hl[i]);
  pull_ctl();
  out.steps_since_build = h_ctl->list.steps_since_build;
  out.steps_since_sort = h_ctl->list.steps_since_sort;
}

template <class P>
void CudaContext<P>::restore_list_state(const ListRestartState& state, const ParticleData<double>& now) {
  // The lists were just built from the build positions loaded in storage
  // order; put the current positions and images in the same slots.
  std::vector<uint32_t> ht(n);
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  MESO_CUDA_CHECK(cudaMemcpy(ht.data(), tag.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const std::vector<uint32_t> by_tag = tag_order(ht);
  if (now.n_local != n) throw std::logic_error("restore_list_state: another particle count");
  std::vector<S4> hp(n);
  std::vector<Image> hi(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = by_tag[k];
    if (ht[i] != now.tag[k]) throw std::logic_error("restore_list_state: the loaded tags differ");
    hp[i] = make4<S4>(now.position[k], double(now.type[k]));
    hi[i] = now.image[k];
  }
  MESO_CUDA_CHECK(cudaMemcpy(pos.data(), hp.data(), n * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(image.data(), hi.data(), n * sizeof(Image), cudaMemcpyHostToDevice));
  pull_ctl();
  h_ctl->list.steps_since_build = state.steps_since_build;
  h_ctl->list.steps_since_sort = state.steps_since_sort;
  h_ctl->list.max_disp_bits = 0;
  h_ctl->list.force_rebuild = 0;
  push_ctl();
  nh_mv2_known = false;
}

namespace {

// Reallocates b to `slots` elements, keeping its first `keep`.
template <class T>
void grow_keeping(DeviceBuffer<T>& b, std::size_t slots, std::size_t keep, cudaStream_t s) {
  if (b.size() == 0) return;  // an array this run does not use (vel_pred, sig)
  DeviceBuffer<T> bigger(slots);
  if (keep)
    MESO_CUDA_CHECK(cudaMemcpyAsync(bigger.data(), b.data(), keep * sizeof(T), cudaMemcpyDeviceToDevice, s));
  MESO_CUDA_CHECK(cudaStreamSynchronize(s));
  b.swap(bigger);
}

}  // namespace

template <class P>
void CudaContext<P>::reserve(uint32_t slots) {
  if (slots <= capacity) return;
  // A sixty-fourth more than asked: migration and ghost layers fluctuate
  // by far less from one rebuild to the next (a weak-scaling rank's local
  // count moved by +-0.03% on 2 H200s, results/scaling), and every particle
  // array pays for the headroom (a sixteenth cost 6 bytes a particle).
  const uint64_t want = uint64_t(slots) + slots / 64 + 1024;
  if (want > 0xffffffffull / 64) throw_input_error("cuda backend: ", slots, " particle slots on one rank are too many");
  const std::size_t cap = std::size_t(want), keep = n_all();
  grow_keeping(pos, cap, keep, stream);
  grow_keeping(vel, cap, keep, stream);
  grow_keeping(force, cap, keep, stream);
  grow_keeping(vel_pred, cap, keep, stream);
  grow_keeping(last_pos, cap, keep, stream);
  grow_keeping(tag, cap, keep, stream);
  grow_keeping(sig, cap, keep, stream);
  grow_keeping(image, cap, keep, stream);
  for (auto* b : {&orient, &angmom, &inertia, &torque}) grow_keeping(*b, cap, keep, stream);
  capacity = static_cast<uint32_t>(cap);
  invalidate_graphs();
}

template <class P>
std::size_t CudaContext<P>::particle_bytes() const {
  return pos.bytes() + vel.bytes() + force.bytes() + vel_pred.bytes() + last_pos.bytes() +
         tag.bytes() + sig.bytes() + image.bytes() + mass.bytes() + mpcd.bytes() + orient.bytes() +
         angmom.bytes() + inertia.bytes() + torque.bytes();
}

template class CudaContext<PrecDouble>;
template class CudaContext<PrecMixed>;
template class CudaContext<PrecSingle>;

}  // namespace meso::cuda

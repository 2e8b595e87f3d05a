// The shared device state of the CUDA backend (OpenMM's platform data): what
// every CUDA operation works on. CudaBackend owns one; the operations it
// creates (cuda_operations.cu) hold a reference to it.
//
//   CudaContextBase     the precision-independent part: the system and run
//                       parameters, the stream, the step control words
//                       (device + pinned host mirror), the cell grid, the
//                       views the operations publish for one another, the
//                       registry of live operations and the graph hook;
//   CudaContext<P>      the particle arrays in the storage precision of P,
//                       and the MPCD solvent (CudaMpcd, mpcd_context.cuh).
//
// Operations find each other's data here, never through each other: the
// cell list publishes its CellView, the neighbor list its NlistView, and the
// forces read the latter when they enqueue. An operation that reallocates an
// array a captured graph may hold calls invalidate_graphs().
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/device_views.cuh"
#include "meso/ops/communicator.hpp"
#include "meso/run/backend.hpp"
#include "meso/cuda/device_buffer.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/core/system.hpp"
#include "meso/run/variant.hpp"
#include "mpcd/mpcd_context.cuh"
#include "core/step_control.cuh"

namespace meso::cuda {

class DeviceOp;

uint32_t round_up(uint32_t x, uint32_t m);

class CudaContextBase {
 public:
  explicit CudaContextBase(const Variant& v);
  virtual ~CudaContextBase();
  CudaContextBase(const CudaContextBase&) = delete;
  CudaContextBase& operator=(const CudaContextBase&) = delete;

  // ---- set by set_system (load); operations are created after it
  Variant variant;
  System sys;
  RunParams params;
  // Particles [0, n) are this rank's own; on several ranks the ghosts of
  // the neighbouring domains follow them, [n, n + n_ghost) (the "domain"
  // operation, domain_storage_op.cu). Integrators, list rows, forces and
  // sums run over the n local particles; cells hold every stored particle,
  // and a list entry may name a ghost. One rank has no ghosts.
  uint32_t n = 0;
  uint32_t n_ghost = 0;
  uint32_t n_all() const { return n + n_ghost; }
  // Slots allocated in every particle array (>= n_all(); grown by reserve).
  uint32_t capacity = 0;
  // Whether the forces of the step in progress read vel_pred (Groot-Warren's
  // prediction, fused velocity Verlet's v(t + dt/2)) rather than vel: false
  // for the forces of t = 0, set by the step loop of a run on several ranks
  // so that ghosts carry the velocity their owner's forces read.
  bool forces_read_pred = false;
  bool loaded = false;
  bool tea = false;  // rng=tea: the DPD noise reads TEA signatures
  bool gw = false;   // Groot-Warren: forces read the predicted velocity (vel_pred)
  CellGrid grid{};   // cells at least cell_width() on a side (cell list, reorder keys)
  // r_c + skin for the lists; nlist=cells walks the cells themselves, so
  // r_c, widened by 2^-20 relative: a pair inside r_c by the kernels'
  // rounding (fp32 in mixed LJ) is then never two cells apart.
  double cell_width() const {
    return variant.nlist == NlistKind::cells ? sys.max_rcut() * (1.0 + 0x1p-20) : r_list();
  }
  // Restricts the grid to the range of the global grid a rank's domain and
  // ghost layers touch (meso::md_cell_range, from the domain storage); the
  // cell list resizes at its next build.
  void restrict_cells(const Domain& d);
  bool cells_ranged = false;  // restrict_cells was called: a new load keeps it
  Domain cell_domain{};

  cudaStream_t stream = nullptr;
  // The variant's graphs axis (graphs=off: the host-driven step, the same kernels).
  bool use_graphs = true;

  // Step control words on the device and their pinned host mirror.
  DeviceBuffer<StepControl> ctl;
  StepControl* h_ctl = nullptr;
  void pull_ctl() const;  // device -> mirror; waits for the stream
  // The same in two parts: the copy enqueued behind the work so far, then
  // a wait for that copy only (work enqueued in between goes on running).
  void start_pull_ctl() const;
  void finish_pull_ctl() const;
  void push_ctl() const;  // mirror -> device; waits for the stream
  // Host-side step number and TEA key of the step (the stream must be idle).
  void set_step(uint64_t step);
  // The arguments of open_step (step_control.cuh) for this system.
  ControlArgs control_args(const StepRules& rules) const;
  void synchronize() const;

  // Bonds formed on the device by the polymerize operation (polymerize.cu),
  // beside the topology's rows, which stay those of the loaded system: per
  // tag, slot 0 holds the partner the particle joined its chain by and slot
  // 1 the partner its chain grew to from it (kNoTag: none), so a linear
  // chain's growth never needs a third slot; `id` is the bond's entry in
  // `log` (end, monomer, attempt per bond, in the order the device formed
  // them). The bonded force adds them (bonded_force.cu). Empty unless the
  // system polymerizes.
  struct GrownBonds {
    static constexpr uint32_t kNoTag = 0xffffffffu;
    DeviceBuffer<uint32_t> partner, id, log;
    uint32_t type = 0;  // the growth bond's type
  } grown;

  // Views published by the operations that own the arrays (null until then).
  CellView cells{};  // by the cell_list operation
  NlistView nlist{};  // by the neighbor_list operation
  // nlist=cells: the first slot of every cell of the grid, and n at
  // [ncells] (the particles are in cell order; by the neighbor_list operation).
  const uint32_t* cell_start = nullptr;
  // Bytes of the reorder's scratch (keys, permutation, radix-sort and gather
  // buffers), lent by the neighbor list's storage: a reorder only ever runs
  // at a rebuild, right before the cells and the list are built again, so
  // the list is dead while the scratch is in use. Set by the reorder
  // operation, which the StepPlan creates before the neighbor list.
  std::size_t list_scratch_bytes = 0;
  // The built list's storage, where the reorder keeps its scratch (dead
  // between a reorder and the build right after it), and its size:
  // published with the list. Not nlist.idx: with dynamic pruning the forces
  // read the pruned rows, a smaller buffer that a prune fills before a build.
  void* list_storage = nullptr;
  std::size_t list_storage_bytes = 0;

  // ctl->nh.mv2 holds sum m v^2 of the current velocities in the order of the
  // current particles (nvt): false after set_system and after a reorder
  // outside a step, true once a second half or ensure_nh_mv2 stored it.
  bool nh_mv2_known = false;

  // Graph invalidation, the one mechanism of every captured graph (the
  // step's and the MPCD collision's): a graph holds array pointers and
  // sizes, so whatever reallocates calls invalidate_graphs() (the solvent's
  // arrays through CudaMpcd) and a graph captured at an older epoch is
  // captured again before its next launch.
  uint64_t graph_epoch = 0;
  void invalidate_graphs() { ++graph_epoch; }

  // The live operations of this context (DeviceOp registers itself), for
  // device_bytes() and to tell a live operation from a destroyed one.
  std::vector<DeviceOp*> ops;
  uint64_t next_serial = 1;
  bool alive(const DeviceOp* op, uint64_t serial) const;

  double r_list() const { return sys.max_rcut() + params.skin; }
  // Device memory of the context's arrays and of every live operation's.
  std::size_t device_bytes() const;
  std::map<std::string, std::size_t> device_bytes_by_part() const;

 protected:
  // The precision-independent part of set_system: parameters, flags, grid,
  // step control words reset.
  void load_common(const System& sys, const RunParams& params);
  virtual std::size_t particle_bytes() const = 0;

 private:
  cudaEvent_t ctl_copied_ = nullptr;  // start_pull_ctl's copy
};

template <class P>
class CudaContext final : public CudaContextBase {
 public:
  using S4 = typename P::S4;
  using CudaContextBase::CudaContextBase;

  // Copies the system in (converted to the storage precision), in the order
  // given; forces too (the plan's prepare() overwrites them with those of
  // t = 0, an exact restart keeps them: Simulation's Checkpoint).
  void load(const System& sys, const RunParams& params);
  // The current state in double precision, in tag order.
  void get_particles(ParticleData<double>& out) const;
  // Exact restarts (Backend::list_state, restore_list_state): the storage
  // order, last_pos and the list counters of the step control.
  void list_state(ListRestartState& out) const;
  void restore_list_state(const ListRestartState& state, const ParticleData<double>& now);
  // Grows every particle array to hold at least `slots` particles, keeping
  // the n_all() stored ones (migration and ghosts on several ranks); a
  // reallocation invalidates the graphs.
  void reserve(uint32_t slots);

  DeviceBuffer<S4> pos, vel, force, vel_pred, last_pos;
  DeviceBuffer<uint32_t> tag, sig;
  DeviceBuffer<Image> image;
  DeviceBuffer<double> mass;  // per type
  // Orientational particles (System::particles.rotational): quaternion,
  // body-frame angular momentum, moments of inertia, torque; empty
  // otherwise.
  DeviceBuffer<S4> orient, angmom, inertia, torque;
  bool rotational = false;

  RotationalView<S4> rotation() {
    return {orient.data(), angmom.data(), inertia.data(), torque.data()};
  }

  // The MPCD solvent, beside the MD particles (set by set_mpcd).
  CudaMpcd<S4> mpcd{&graph_epoch};

  ParticleView<S4> view() {
    return {pos.data(), vel.data(), force.data(), vel_pred.data(), tag.data(),
            image.data(), sig.data(), last_pos.data(), n, n_all()};
  }

 private:
  std::size_t particle_bytes() const override;
  void load_rotation(const ParticleData<double>& src);
};

}  // namespace meso::cuda

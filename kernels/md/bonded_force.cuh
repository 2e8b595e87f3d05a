// The bonded-force kernels (bonded_force.cu) as the `bonded` operation
// (bonded_force_op.cu) launches them: the per-particle rows of
// make_bonded_lists on the device, the bond and angle types, and the
// argument struct of one launch.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "meso/physics/bonded.hpp"
#include "meso/physics/bonded_table.hpp"
#include "core/step_control.cuh"

namespace meso::cuda {

constexpr uint32_t kBondedBlock = 128;
// fault when no FENE bond is out of bounds.
constexpr uint32_t kNoBondFault = 0xffffffffu;

// A bond or angle type as the kernel reads it (meso::BondType and
// AngleType without their names); a table kind names its entry of
// BondedArgs::bond_tables or angle_tables.
enum DeviceBondKind : uint32_t { kBondHarmonic = 0, kBondFene = 1, kBondTable = 2 };
constexpr uint32_t kNoTable = 0xffffffffu;
struct DeviceBondType {
  uint32_t kind;  // DeviceBondKind
  uint32_t table;
  physics::HarmonicBondParams harmonic;
  physics::FeneBondParams fene_params;
};
struct DeviceAngleType {
  uint32_t table;  // kNoTable: harmonic
  physics::HarmonicAngleParams harmonic;
};

// make_bonded_lists' rows by tag (topology.hpp), plus bond_id: the topology
// index of each bond entry, so that an out-of-bounds FENE bond is named as
// the reference names it.
struct BondedRows {
  const uint32_t* bond_start;    // ntags + 1
  const uint32_t* bond_partner;
  const uint32_t* bond_type;
  const uint32_t* bond_id;
  const uint32_t* angle_start;   // ntags + 1
  const uint32_t* angle_tags;    // a, b, c per entry
  const uint32_t* angle_type;
  const DeviceBondType* bond_types;
  const DeviceAngleType* angle_types;
  // Bonds formed by polymerization (CudaContextBase::GrownBonds): two
  // partner slots per tag (kNoBondFault: empty), all of type grown_type;
  // a FENE fault names slot k's bond by grown_base + grown_id[k]. Null
  // when the system does not polymerize.
  const uint32_t* grown_partner = nullptr;
  const uint32_t* grown_id = nullptr;
  uint32_t grown_type = 0;
  uint32_t grown_base = 0;
};

template <class P>
struct BondedArgs {
  const typename P::S4* pos;
  typename P::S4* force;
  const uint32_t* tag;
  uint32_t n;
  uint32_t* index_of_tag;  // n: the storage index of each tag, rebuilt by each launch
  BondedRows rows;
  // The topology's bond and angle tables (meso::BondedTable), their
  // coefficients on the device in the kernel's arithmetic.
  const physics::TableView<typename P::A>* bond_tables;
  const physics::TableView<typename P::A>* angle_tables;
  MinImage<typename P::A> box;
  StepControl* ctl;        // abort: read at entry; set by the last block on a fault
  bool overwrite;          // the first force of the plan writes the net force, later ones add
  double* partials;        // 2 per block (energy, virial) with sums
  double* sums;            // [energy, virial] with sums
  unsigned int* counter;   // last_block's counter, 0 between launches
  unsigned int* fault;     // smallest topology index of a FENE bond at r >= R0, or kNoBondFault
};

inline uint32_t bonded_blocks(uint32_t n) { return (n + kBondedBlock - 1) / kBondedBlock; }

// The tag -> index map, then the forces (and with sums the energy and
// virial into a.sums): two launches, no host synchronization. n > 0.
template <class P>
void compute_bonded_forces(const BondedArgs<P>& a, bool sums, cudaStream_t s);

}  // namespace meso::cuda

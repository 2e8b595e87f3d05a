// An operation is one piece of a time step that a backend implements (the
// OpenMM Platform/Kernel pattern: the engine declares the abstract operation,
// each backend registers a factory for it under its name, and the engine's
// StepPlan, with the MPCD solvent as its SolventStage, composes them; see
// ARCHITECTURE.md, "Operations").
//
// The registered names (the table in ARCHITECTURE.md lists them too, and
// tests/scripts/architecture_ops.sh checks it against the registrations):
//   cell_list              CellListOp           (cell_list.hpp)
//   neighbor_list          NeighborListOp       (neighbor_list.hpp)
//   reorder                ReorderOp            (reorder.hpp)
//   pair_force/dpd, /lj    ForceOp              (force.hpp)
//   bonded                 ForceOp: the topology's bonds and angles
//   field/mdscf            MdscfFieldOp: the MD-SCF mean field (field.hpp)
//   integrate/vv, gw, nve, nvt, langevin, berendsen
//                          IntegrationMethodOp  (integration_method.hpp)
//   polymerize             PolymerizeOp         (polymerize.hpp): chain growth
//   domain                 DomainStorageOp      (domain_storage.hpp)
//   mpcd/stream, mpcd/sort, mpcd/collide/srd, mpcd/collide/at, mpcd/domain
//                          MpcdStreamOp, MpcdSortOp, MpcdCollideOp,
//                          MpcdDomainOp         (mpcd.hpp)
// The Communicator (communicator.hpp) of ghost exchange and migration is
// not an operation: it reaches the particles through "domain".
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meso/core/error.hpp"

namespace meso {

class Operation {
 public:
  virtual ~Operation() = default;
  // The name it was registered under ("pair_force/dpd", "integrate/nvt", ...).
  const std::string& name() const { return name_; }

 private:
  template <class Context>
  friend class OperationTable;
  std::string name_;
};

// A backend's registered operations: name -> factory over the backend's
// context (its particle storage, stream, parameters; OpenMM's platform data).
// Adding an operation to a backend is one add() in that backend's
// registration function (reference/src/core/cpu_operations.cpp,
// kernels/core/cuda_operations.cu).
template <class Context>
class OperationTable {
 public:
  using Factory = std::function<std::unique_ptr<Operation>(Context&)>;

  void add(std::string name, Factory f) { factories_[std::move(name)] = std::move(f); }
  bool has(const std::string& name) const { return factories_.count(name) != 0; }

  // Throws InputError naming the operation and the backend when there is none.
  std::unique_ptr<Operation> create(const std::string& name, Context& ctx,
                                    const std::string& backend) const {
    const auto it = factories_.find(name);
    if (it == factories_.end())
      throw_input_error("backend '", backend, "' provides no operation '", name, "'");
    std::unique_ptr<Operation> op = it->second(ctx);
    op->name_ = name;
    return op;
  }

 private:
  std::map<std::string, Factory> factories_;
};

}  // namespace meso

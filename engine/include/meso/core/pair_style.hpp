// A pair style: the pair force a System's particles interact by, as LAMMPS
// registers its pair styles by name. The System holds one (or none) and
// knows it only through this interface: its name, its cutoff and its
// checks. Each backend finds the force that evaluates it under the
// operation name "pair_force/<name>", registered by the style's own file of
// that backend (ARCHITECTURE.md, "Adding a pair style"):
//   engine/include/meso/physics/<force>.hpp   the parameters and evaluator
//   reference/src/md/pair_<name>.cpp           the CPU reference force
//   kernels/md/pair_<name>.cu                  the CUDA force
// Most styles are one parameter struct per type pair (PairStyleOf); the
// tabulated style (meso/tables/pair_potential_table.hpp) holds its tables instead.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "meso/core/error.hpp"

namespace meso {

// Symmetric ntypes x ntypes table stored densely so that kernels can index it
// as params[ti * ntypes + tj] without branches.
template <class T>
class PairTable {
 public:
  PairTable() = default;
  explicit PairTable(uint32_t ntypes, const T& fill = T{})
      : ntypes_(ntypes), data_(static_cast<std::size_t>(ntypes) * ntypes, fill) {}

  uint32_t ntypes() const { return ntypes_; }
  const T& operator()(uint32_t i, uint32_t j) const { return data_[i * ntypes_ + j]; }
  // Sets both (i, j) and (j, i): interactions are symmetric.
  void set(uint32_t i, uint32_t j, const T& v) {
    data_[i * ntypes_ + j] = v;
    data_[j * ntypes_ + i] = v;
  }
  const std::vector<T>& data() const { return data_; }

 private:
  uint32_t ntypes_ = 0;
  std::vector<T> data_;
};

class PairStyle {
 public:
  virtual ~PairStyle() = default;
  // The registered name ("dpd", "lj", ...): the backends' operation is
  // "pair_force/<name>".
  virtual const char* name() const = 0;
  // The largest cutoff of any type pair: the lists' reach is this + skin.
  virtual double max_rcut() const = 0;
  // Throws InputError naming the first bad value: the tables' size against
  // the system's types, every parameter, and orientational particles for a
  // style that exerts torques.
  virtual void validate(uint32_t ntypes, bool rotational) const = 0;
  virtual std::unique_ptr<PairStyle> clone() const = 0;
};

// A style of one parameter struct per type pair (HOOMD-blue's param_type).
// Params, beside the evaluator's fields, provides
//   static constexpr const char* kStyle;         the style's name
//   static constexpr bool kOrientational;        forces and torques from orientations
//   double rcut;                                 the pair's cutoff
//   void check() const;                          throws InputError naming a bad value
template <class Params>
class PairStyleOf final : public PairStyle {
 public:
  explicit PairStyleOf(uint32_t ntypes, const Params& fill = Params{}) : table(ntypes, fill) {}

  PairTable<Params> table;

  const char* name() const override { return Params::kStyle; }
  double max_rcut() const override {
    double rc = 0.0;
    for (const Params& p : table.data()) rc = p.rcut > rc ? p.rcut : rc;
    return rc;
  }
  void validate(uint32_t ntypes, bool rotational) const override {
    if (table.ntypes() != ntypes)
      throw_input_error("pair style ", name(), ": its parameter table is ", table.ntypes(), "x", table.ntypes(),
                        " but there are ", ntypes, " types");
    for (const Params& p : table.data()) p.check();
    if (Params::kOrientational && !rotational)
      throw_input_error("pair style ", name(), " needs orientational particles (orientations, moments of "
                        "inertia): the system has none");
  }
  std::unique_ptr<PairStyle> clone() const override { return std::make_unique<PairStyleOf>(*this); }
};

// A System's pair style by value: copying a System copies its style.
class PairStyleSlot {
 public:
  PairStyleSlot() = default;
  explicit PairStyleSlot(std::unique_ptr<PairStyle> s) : s_(std::move(s)) {}
  PairStyleSlot(const PairStyleSlot& o) : s_(o.s_ ? o.s_->clone() : nullptr) {}
  PairStyleSlot(PairStyleSlot&&) noexcept = default;
  PairStyleSlot& operator=(const PairStyleSlot& o) {
    if (this != &o) s_ = o.s_ ? o.s_->clone() : nullptr;
    return *this;
  }
  PairStyleSlot& operator=(PairStyleSlot&&) noexcept = default;

  explicit operator bool() const { return s_ != nullptr; }
  const PairStyle* get() const { return s_.get(); }
  PairStyle* get() { return s_.get(); }
  const PairStyle* operator->() const { return s_.get(); }

  // The style as its concrete type; std::logic_error when it is another
  // (a backend's force reads only the style it was registered for).
  template <class Style>
  Style& as() {
    auto* s = dynamic_cast<Style*>(s_.get());
    if (!s) throw std::logic_error(std::string("pair style is ") + (s_ ? s_->name() : "none") + ", not the one asked");
    return *s;
  }
  template <class Style>
  const Style& as() const {
    return const_cast<PairStyleSlot*>(this)->as<Style>();
  }

 private:
  std::unique_ptr<PairStyle> s_;
};

}  // namespace meso

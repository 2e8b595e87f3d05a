#include "meso/run/variant.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

#include "meso/core/error.hpp"

namespace meso {
namespace {

// One axis: its name, its allowed values (empty: a non-negative integer, up
// to `max`, meaning `integer`), how a value is stored into and read back
// from the typed Variant, and whether it is a schedule axis (variant.hpp:
// named in canonical strings only away from its default).
struct AxisSpec {
  const char* name;
  std::vector<std::string> allowed;
  void (*set)(Variant&, std::size_t index_or_value);
  std::string (*get)(const Variant&);
  bool schedule = false;
  const char* integer = nullptr;
  uint32_t max = UINT32_MAX;
};

template <class E>
std::string name_of(E e) { return to_string(e); }

const std::vector<AxisSpec>& specs() {
  static const std::vector<AxisSpec> s = {
      {"nlist", {"ballot", "atomic", "tiled", "half", "cluster", "cells"},
       [](Variant& v, std::size_t k) { v.nlist = NlistKind(k); },
       [](const Variant& v) { return name_of(v.nlist); }},
      {"cells", {"atomic", "sorted"},
       [](Variant& v, std::size_t k) { v.cells = CellsKind(k); },
       [](const Variant& v) { return name_of(v.cells); }},
      {"reorder", {"none", "morton2", "hilbert", "cell"},
       [](Variant& v, std::size_t k) { v.reorder = ReorderKind(k); },
       [](const Variant& v) { return name_of(v.reorder); }},
      {"sort", {},
       [](Variant& v, std::size_t n) { v.sort = uint32_t(n); },
       [](const Variant& v) { return std::to_string(v.sort); }, false, "steps between reorders"},
      {"pow", {"libm", "fast"},
       [](Variant& v, std::size_t k) { v.pow = PowKind(k); },
       [](const Variant& v) { return name_of(v.pow); }},
      {"precision", {"double", "mixed", "single"},
       [](Variant& v, std::size_t k) { v.precision = Precision(k); },
       [](const Variant& v) { return name_of(v.precision); }},
      {"rng", {"philox", "tea"},
       [](Variant& v, std::size_t k) { v.rng = RngKind(k); },
       [](const Variant& v) { return name_of(v.rng); }},
      {"fuse", {"off", "on"},
       [](Variant& v, std::size_t k) { v.fuse = k == 1; },
       [](const Variant& v) { return std::string(v.fuse ? "on" : "off"); }},
      {"tpp", {"1", "2", "4", "8", "16", "32"},
       [](Variant& v, std::size_t k) { v.tpp = 1u << k; },
       [](const Variant& v) { return std::to_string(v.tpp); }},
      {"noise", {"fp64", "fp32"},
       [](Variant& v, std::size_t k) { v.noise = NoiseKind(k); },
       [](const Variant& v) { return name_of(v.noise); }},
      {"gather", {"split", "record", "masked"},
       [](Variant& v, std::size_t k) { v.gather = GatherKind(k); },
       [](const Variant& v) { return name_of(v.gather); }},
      {"density", {"gather", "scatter"},
       [](Variant& v, std::size_t k) { v.density = DensityKind(k); },
       [](const Variant& v) { return name_of(v.density); }},
      {"graphs", {"on", "off"},
       [](Variant& v, std::size_t k) { v.graphs = k == 0; },
       [](const Variant& v) { return std::string(v.graphs ? "on" : "off"); }, true},
      {"overlap", {"off", "on", "always"},
       [](Variant& v, std::size_t k) { v.overlap = OverlapKind(k); },
       [](const Variant& v) { return name_of(v.overlap); }, true},
      {"vote", {"schedule", "every"},
       [](Variant& v, std::size_t k) { v.vote = VoteKind(k); },
       [](const Variant& v) { return name_of(v.vote); }, true},
      {"solvent_graphs", {"off", "on"},
       [](Variant& v, std::size_t k) { v.solvent_graphs = k == 1; },
       [](const Variant& v) { return std::string(v.solvent_graphs ? "on" : "off"); }, true},
      {"solvent_capacity", {},
       [](Variant& v, std::size_t n) { v.solvent_capacity = uint32_t(n); },
       [](const Variant& v) { return std::to_string(v.solvent_capacity); }, true,
       "records a solvent migration message holds, 0: agreed by the ranks", 1u << 26},
  };
  return s;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* to_string(NlistKind k) {
  switch (k) {
    case NlistKind::ballot: return "ballot";
    case NlistKind::atomic: return "atomic";
    case NlistKind::tiled: return "tiled";
    case NlistKind::half: return "half";
    case NlistKind::cluster: return "cluster";
    case NlistKind::cells: return "cells";
  }
  return "?";
}
const char* to_string(CellsKind k) { return k == CellsKind::sorted ? "sorted" : "atomic"; }
const char* to_string(ReorderKind k) {
  switch (k) {
    case ReorderKind::none: return "none";
    case ReorderKind::morton2: return "morton2";
    case ReorderKind::hilbert: return "hilbert";
    case ReorderKind::cell: return "cell";
  }
  return "?";
}
const char* to_string(PowKind k) { return k == PowKind::fast ? "fast" : "libm"; }
const char* to_string(Precision k) {
  switch (k) {
    case Precision::double_: return "double";
    case Precision::mixed: return "mixed";
    case Precision::single: return "single";
  }
  return "?";
}
const char* to_string(RngKind k) { return k == RngKind::tea ? "tea" : "philox"; }
const char* to_string(NoiseKind k) { return k == NoiseKind::fp32 ? "fp32" : "fp64"; }
const char* to_string(GatherKind k) {
  switch (k) {
    case GatherKind::split: return "split";
    case GatherKind::record: return "record";
    case GatherKind::masked: return "masked";
  }
  return "?";
}

const char* to_string(DensityKind k) { return k == DensityKind::scatter ? "scatter" : "gather"; }
const char* to_string(OverlapKind k) {
  return k == OverlapKind::always ? "always" : k == OverlapKind::on ? "on" : "off";
}
const char* to_string(VoteKind k) { return k == VoteKind::every ? "every" : "schedule"; }

const std::vector<std::string>& Variant::axes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& s : specs()) n.emplace_back(s.name);
    return n;
  }();
  return names;
}

Variant Variant::parse(std::string_view text) { return parse(text, Variant{}); }

std::vector<std::string> Variant::named_axes(std::string_view text) {
  std::vector<std::string> names;
  parse(text, Variant{}, &names);
  return names;
}

Variant Variant::parse(std::string_view text, const Variant& base) { return parse(text, base, nullptr); }

Variant Variant::parse(std::string_view text, const Variant& base, std::vector<std::string>* named) {
  Variant v = base;
  std::vector<std::string> seen;
  while (!trim(text).empty()) {
    const auto comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw_input_error("variant item '", item, "' is invalid: expected key=value with key one of ",
                        join(axes(), ", "));
    const std::string key(trim(item.substr(0, eq)));
    const std::string value(trim(item.substr(eq + 1)));
    const auto spec = std::find_if(specs().begin(), specs().end(),
                                   [&](const AxisSpec& s) { return key == s.name; });
    if (spec == specs().end())
      throw_input_error("variant axis '", key, "' is unknown: allowed axes are ", join(axes(), ", "));
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw_input_error("variant axis '", key, "' is given twice");
    seen.push_back(key);
    if (spec->allowed.empty()) {
      uint32_t n = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc{} || ptr != value.data() + value.size() || value.empty() || n > spec->max)
        throw_input_error("variant ", key, "=", value, " is invalid: it must be an integer from 0 to ", spec->max,
                          " (", spec->integer, ")");
      spec->set(v, n);
    } else {
      const auto it = std::find(spec->allowed.begin(), spec->allowed.end(), value);
      if (it == spec->allowed.end())
        throw_input_error("variant ", key, "=", value, " is invalid: allowed values are ",
                          join(spec->allowed, ", "));
      spec->set(v, std::size_t(it - spec->allowed.begin()));
    }
  }
  if (named) *named = seen;
  return v;
}

std::string Variant::get(std::string_view axis) const {
  for (const auto& s : specs())
    if (axis == s.name) return s.get(*this);
  throw_input_error("variant axis '", axis, "' is unknown: allowed axes are ", join(axes(), ", "));
}

std::string Variant::values(std::string_view axis) {
  for (const auto& s : specs())
    if (axis == s.name) return s.allowed.empty() ? std::string("N (") + s.integer + ")" : join(s.allowed, "|");
  throw_input_error("variant axis '", axis, "' is unknown: allowed axes are ", join(axes(), ", "));
}

std::string Variant::to_string(const std::vector<std::string>& which) const {
  static const Variant defaults;
  std::vector<std::string> parts;
  for (const auto& s : specs()) {
    if (std::find(which.begin(), which.end(), s.name) == which.end()) continue;
    const std::string value = s.get(*this);
    if (s.schedule && value == s.get(defaults)) continue;
    parts.push_back(std::string(s.name) + "=" + value);
  }
  return join(parts, ",");
}

std::string Variant::to_string() const { return to_string(axes()); }

}  // namespace meso

#include "meso/variant.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "meso/error.hpp"

namespace meso {
namespace {

struct AxisSpec {
  const char* name;
  std::vector<std::string> allowed;  // empty: a non-negative integer
  std::string Variant::*field;
};

const std::vector<AxisSpec>& specs() {
  static const std::vector<AxisSpec> s = {
      {"nlist", {"ballot", "atomic", "tiled"}, &Variant::nlist},
      {"cells", {"atomic", "sorted"}, &Variant::cells},
      {"reorder", {"none", "morton2", "hilbert", "cell"}, &Variant::reorder},
      {"sort", {}, nullptr},
      {"pow", {"libm", "fast"}, &Variant::pow},
      {"precision", {"double", "mixed", "single"}, &Variant::precision},
      {"rng", {"philox", "tea"}, &Variant::rng},
      {"fuse", {"off", "on"}, &Variant::fuse},
      {"tpp", {"1", "2", "4", "8", "16", "32"}, &Variant::tpp},
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

const std::vector<std::string>& Variant::axes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& s : specs()) n.emplace_back(s.name);
    return n;
  }();
  return names;
}

Variant Variant::parse(std::string_view text) {
  Variant v;
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
    if (spec->field == nullptr) {
      uint32_t n = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc{} || ptr != value.data() + value.size() || value.empty())
        throw_input_error("variant sort=", value,
                          " is invalid: it must be a non-negative integer (steps between reorders, 0 = never)");
      v.sort = n;
    } else {
      if (std::find(spec->allowed.begin(), spec->allowed.end(), value) == spec->allowed.end())
        throw_input_error("variant ", key, "=", value, " is invalid: allowed values are ",
                          join(spec->allowed, ", "));
      v.*(spec->field) = value;
    }
  }
  return v;
}

std::string Variant::get(std::string_view axis) const {
  for (const auto& s : specs())
    if (axis == s.name) return s.field ? this->*(s.field) : std::to_string(sort);
  throw_input_error("variant axis '", axis, "' is unknown: allowed axes are ", join(axes(), ", "));
}

std::string Variant::to_string(const std::vector<std::string>& which) const {
  std::vector<std::string> parts;
  for (const auto& a : axes())
    if (std::find(which.begin(), which.end(), a) != which.end()) parts.push_back(a + "=" + get(a));
  return join(parts, ",");
}

std::string Variant::to_string() const { return to_string(axes()); }

}  // namespace meso

#include "meso/rdf.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include "meso/error.hpp"

namespace meso {

Rdf compute_rdf(const Box& box, const ParticleData<double>& p, double r_max, int bins,
                const std::vector<uint32_t>& molecule_of_tag) {
  require_positive("g(r) r_max", r_max);
  if (bins < 1) throw_input_error("g(r) bins = ", bins, " is invalid: it must be >= 1");
  if (r_max > 0.5 * box.min_length())
    throw_input_error("g(r) r_max = ", r_max, " is invalid: it must be <= half the box, ",
                      0.5 * box.min_length());
  const std::size_t n = p.n_local;
  const bool inter = !molecule_of_tag.empty();
  if (inter && molecule_of_tag.size() < n)
    throw_input_error("g(r): molecules of ", molecule_of_tag.size(), " tags for ", n, " particles");
  std::vector<uint32_t> molecule(inter ? n : 0);
  std::map<uint32_t, double> members;
  for (std::size_t i = 0; inter && i < n; ++i) {
    if (p.tag[i] >= molecule_of_tag.size())
      throw_input_error("g(r): tag ", p.tag[i], " has no molecule (", molecule_of_tag.size(), " given)");
    molecule[i] = molecule_of_tag[p.tag[i]];
    members[molecule[i]] += 1.0;
  }
  Rdf out;
  out.bin_width = r_max / bins;
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (inter && molecule[i] == molecule[j]) continue;
      const Vec3d d = box.min_image(p.position[i] - p.position[j]);
      const double r = std::sqrt(dot(d, d));
      if (r < r_max) count[static_cast<std::size_t>(r / out.bin_width)] += 1.0;
    }
  // Ideal pairs in a shell: N (N - 1) / 2 * shell volume / V, less the
  // pairs within one molecule when those are left out.
  double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n > 0 ? n - 1 : 0);
  for (const auto& [m, k] : members) pairs -= 0.5 * k * (k - 1.0);
  for (int b = 0; b < bins; ++b) {
    const double lo = b * out.bin_width, hi = lo + out.bin_width;
    const double shell = 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo);
    out.r.push_back(lo + 0.5 * out.bin_width);
    out.g.push_back(pairs > 0 ? count[b] / (pairs * shell / box.volume()) : 0.0);
  }
  return out;
}

Rdf read_rdf_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_input_error("g(r) file '", path, "' cannot be read");
  Rdf out;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream ls(text);
    std::string a, b;
    if (!(ls >> a)) continue;  // blank or comment
    double r = 0.0, g = 0.0;
    std::size_t used_a = 0, used_b = 0;
    try {
      if (!(ls >> b)) throw std::invalid_argument("one field");
      r = std::stod(a, &used_a);
      g = std::stod(b, &used_b);
    } catch (const std::exception&) {
      throw_input_error(path, ":", line, ": expected two numbers, r and g(r)");
    }
    if (used_a != a.size() || used_b != b.size() || !std::isfinite(r) || !std::isfinite(g))
      throw_input_error(path, ":", line, ": expected two finite numbers, r and g(r)");
    if (g < 0.0) throw_input_error(path, ":", line, ": g(r) = ", g, " is negative");
    out.r.push_back(r);
    out.g.push_back(g);
  }
  const std::size_t n = out.r.size();
  if (n < 4) throw_input_error("g(r) file '", path, "' has ", n, " bins (at least 4)");
  // The grid: centres (i + 1/2) dr, dr from the last centre.
  const double dr = out.r.back() / (n - 0.5);
  if (!(dr > 0.0)) throw_input_error("g(r) file '", path, "': its last r, ", out.r.back(), ", is not positive");
  for (std::size_t i = 0; i < n; ++i)
    if (std::fabs(out.r[i] - (i + 0.5) * dr) > 1e-6 * dr)
      throw_input_error("g(r) file '", path, "', bin ", i + 1, ": r = ", out.r[i], " is not the centre ", (i + 0.5) * dr,
                        " of uniform bins from r = 0 (width ", dr, ")");
  out.bin_width = dr;
  return out;
}

}  // namespace meso

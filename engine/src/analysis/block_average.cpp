#include "meso/analysis/block_average.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace meso {

BlockAverage block_average(const std::vector<double>& series, int blocks) {
  if (blocks < 2) throw std::invalid_argument("block_average: too few samples");
  const std::size_t per = series.size() / static_cast<std::size_t>(blocks);
  if (per == 0) throw std::invalid_argument("block_average: too few samples");
  std::vector<double> means(static_cast<std::size_t>(blocks), 0.0);
  for (int b = 0; b < blocks; ++b) {
    for (std::size_t k = 0; k < per; ++k) means[b] += series[b * per + k];
    means[b] /= static_cast<double>(per);
  }
  double m = 0.0;
  for (double x : means) m += x;
  m /= blocks;
  double var = 0.0;
  for (double x : means) var += (x - m) * (x - m);
  var /= blocks - 1;
  return {m, std::sqrt(var / blocks), var, std::move(means)};
}

}  // namespace meso

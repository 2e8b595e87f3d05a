// Standard error of the mean of a correlated time series by block averaging
// (Flyvbjerg & Petersen 1989): the series is cut into `blocks` equal blocks
// (a remainder at the end is dropped) and the spread of the block means gives
// the error. Used by the validation gates and by linear_fit's inefficiency.
#pragma once

#include <vector>

namespace meso {

struct BlockAverage {
  double mean = 0.0;          // mean of the block means
  double sem = 0.0;           // sqrt(var_of_means / blocks)
  double var_of_means = 0.0;  // sample variance of the block means
  std::vector<double> means;  // the block means, in order
};

// Throws std::invalid_argument unless blocks >= 2 and each block has a sample.
BlockAverage block_average(const std::vector<double>& series, int blocks);

}  // namespace meso

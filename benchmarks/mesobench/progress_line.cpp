#include "progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace meso::bench {
namespace {

constexpr double kLiveRedraw = 0.2;   // seconds between redraws of the live line
constexpr double kChunkSeconds = 1.0;  // work per run-loop call while a sink listens
constexpr uint64_t kFirstChunk = 16;   // until the speed is measured

std::string duration(double s) {
  char buf[32];
  if (s < 120.0)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200.0)
    std::snprintf(buf, sizeof buf, "%.1f min", s / 60.0);
  else
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600.0);
  return buf;
}

// Columns of the terminal on `out` (100 when it does not say).
std::size_t terminal_columns(std::FILE* out) {
  winsize ws{};
  if (::ioctl(::fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 100;
}

}  // namespace

ProgressLine::ProgressLine(std::FILE* out, bool terminal, double interval)
    : out_(out), terminal_(terminal), interval_(interval), chunk_(kFirstChunk), start_(Clock::now()),
      last_report_(start_) {}

ProgressLine::~ProgressLine() { end(); }

void ProgressLine::begin(const std::string& what, uint64_t total_steps) {
  end();
  what_ = what;
  total_ = total_steps;
  done_ = 0;
  next_check_ = 1;
  // A new piece may be far slower than the last (a larger system): measure
  // its speed on a short first chunk rather than trust the old one.
  chunk_ = kFirstChunk;
  start_ = last_report_ = Clock::now();
}

void ProgressLine::advanced(uint64_t steps) {
  done_ += steps;
  if (done_ < next_check_) return;
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double tps = elapsed > 0.0 ? static_cast<double>(done_) / elapsed : 0.0;
  // Look at the clock again after about a quarter of a redraw period of steps.
  next_check_ = done_ + std::max<uint64_t>(1, static_cast<uint64_t>(tps * 0.25 * kLiveRedraw));
  chunk_ = std::max<uint64_t>(1, static_cast<uint64_t>(tps * kChunkSeconds));
  const double since = std::chrono::duration<double>(now - last_report_).count();
  if (since >= (terminal_ ? kLiveRedraw : interval_)) report(now);
}

void ProgressLine::report(Clock::time_point now) {
  last_report_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double tps = elapsed > 0.0 ? static_cast<double>(done_) / elapsed : 0.0;
  const bool known = total_ > 0 && done_ <= total_;
  const double fraction = known ? static_cast<double>(done_) / static_cast<double>(total_) : 0.0;
  std::string left = "total unknown";
  if (known && tps > 0.0) left = "about " + duration(static_cast<double>(total_ - done_) / tps) + " left";
  if (terminal_) {
    constexpr int kWidth = 24;
    const auto filled = static_cast<std::size_t>(std::lround(fraction * kWidth));
    std::string bar;
    if (known) bar.append("[").append(filled, '#').append(kWidth - filled, '-').append("] ");
    char counts[128];
    int k = std::snprintf(counts, sizeof counts, "%llu", static_cast<unsigned long long>(done_));
    if (known) k += std::snprintf(counts + k, sizeof counts - k, "/%llu", static_cast<unsigned long long>(total_));
    std::snprintf(counts + k, sizeof counts - k, " steps  %.4g steps/s  %s", tps, left.c_str());
    // One line that fits the terminal (a wider one would wrap, and \r
    // would redraw only its last row): the label is cut (~) to no less than
    // 20 columns, then the bar goes, then the label is cut further or goes,
    // then the line itself is cut.
    const std::size_t room = terminal_columns(out_) - 1, n = std::strlen(counts);
    auto label_room = [&](std::size_t bar_size) {
      const std::size_t used = 2 + 1 + bar_size + n;
      return used < room ? room - used : 0;
    };
    if (what_.size() > label_room(bar.size()) && label_room(bar.size()) < 20) bar.clear();
    std::string what = what_;
    if (const std::size_t r = label_room(bar.size()); what.size() > r) what = r >= 8 ? what.substr(0, r - 1) + "~" : "";
    std::string line = "  " + what + (what.empty() ? "" : " ") + bar + counts;
    if (line.size() > room) line.resize(room);
    std::fprintf(out_, "\r%s\033[K", line.c_str());
    live_drawn_ = true;
  } else {
    char counts[192];
    int k = std::snprintf(counts, sizeof counts, "%llu", static_cast<unsigned long long>(done_));
    if (known) k += std::snprintf(counts + k, sizeof counts - k, " of %llu", static_cast<unsigned long long>(total_));
    k += std::snprintf(counts + k, sizeof counts - k, " steps");
    if (known) k += std::snprintf(counts + k, sizeof counts - k, " (%.1f%%)", 100.0 * fraction);
    std::snprintf(counts + k, sizeof counts - k, ", %.4g steps/s, %s elapsed, %s", tps, duration(elapsed).c_str(),
                  left.c_str());
    // A log line fits 100 columns too: where the label (a case with its
    // variant) and the counts do not, the counts go on a line of their own.
    constexpr std::size_t kLogColumns = 100;
    const bool fits = std::strlen("  progress: : ") + what_.size() + std::strlen(counts) <= kLogColumns;
    std::fprintf(out_, "  progress: %s:%s%s\n", what_.c_str(), fits ? " " : "\n    ", counts);
  }
  std::fflush(out_);
}

void ProgressLine::end() {
  if (live_drawn_) {
    // Leave the finished line on the screen and move below it.
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  live_drawn_ = false;
  total_ = done_ = 0;
}

ProgressScope::ProgressScope(bool quiet, double interval) {
  if (quiet) return;
  line_ = std::make_unique<ProgressLine>(stderr, ::isatty(STDERR_FILENO) != 0, interval);
  progress::install(line_.get());
}

ProgressScope::~ProgressScope() {
  if (!line_) return;
  progress::install(nullptr);
}

}  // namespace meso::bench

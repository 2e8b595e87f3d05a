// libFuzzer target: the checkpoint reader (meso/io/checkpoint_file.hpp).
// Every input must be read or refused with an InputError; anything else
// (a crash, a sanitizer report, another exception, a hang) is a finding.
//
// A random mutation almost never keeps the FNV-1a checksum and the length
// field right, which would stop the fuzzer at the header. So an input whose
// first byte is odd has both made consistent before it is written (the
// fields behind the checksum are then reached); an even one is written
// as it is (the header checks are reached).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"

namespace {

constexpr std::size_t kPreamble = 20;  // "MESOCKPT", version u32, length u64

std::string consistent(std::string bytes) {
  if (bytes.size() < kPreamble + 8) return bytes;
  const uint64_t length = bytes.size() - kPreamble - 8;
  std::memcpy(bytes.data() + 12, &length, sizeof length);
  const uint64_t sum = meso::io::fnv1a64(bytes.data() + kPreamble, length);
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, sizeof sum);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/tmp/meso_fuzz_checkpoint." + std::to_string(getpid());
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) bytes = consistent(std::move(bytes));
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
  try {
    const meso::io::CheckpointFile f = meso::io::read_checkpoint(path);
    // What a restart checks next: the state against a run's box, types and dt.
    meso::io::check_restart_state(f, {meso::Box(10.0), {1.0, 2.0}, 0.01}, path);
  } catch (const meso::InputError&) {
  }
  return 0;
}

// libFuzzer target: the files of `mesobench ibi` (docs/tables.md): its
// targets (g(r), bond and angle distributions: read_rdf_file,
// read_bonded_distribution_file) and the tables it writes and table-melt
// reads (read_pair_tables, read_bonded_tables). Every input must be read
// or refused with an InputError; anything else is a finding.
//
// And what ibi writes must read back: from a target that was read, the
// potential of mean force is written as a table (write_ibi_table,
// write_bonded_ibi_table) and read again; a refusal of its own table (a
// subnormal value, once) is a finding too.
//
// The first byte is the mode (mod 6): 0-2 a g(r), bond or angle target,
// 3-5 a pair, bond or angle table; the rest is the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "meso/tables/bonded_table.hpp"
#include "meso/core/error.hpp"
#include "meso/tables/ibi.hpp"
#include "meso/tables/ibi_bonded.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/analysis/rdf.hpp"

namespace {

// Reading back what was written: a refusal is a finding.
template <class Read>
void must_read_back(const std::string& written, Read&& read) {
  std::istringstream in(written);
  try {
    read(in);
  } catch (const meso::InputError& e) {
    std::fprintf(stderr, "ibi_files_fuzzer: a table written from an accepted target is refused: %s\n%s\n",
                 e.what(), written.substr(0, 2000).c_str());
    std::abort();
  }
}

void target(int mode, const std::string& path) {
  using namespace meso;
  std::ostringstream table;
  if (mode == 0) {
    const Rdf g = read_rdf_file(path);
    write_ibi_table(table, "T", potential_of_mean_force(g, 1.0), 200);
    must_read_back(table.str(), [](std::istream& in) { read_pair_tables(in, "written"); });
    return;
  }
  const TableKind kind = mode == 1 ? TableKind::bond : TableKind::angle;
  const BondedDistribution d = read_bonded_distribution_file(path, kind);
  write_bonded_ibi_table(table, "T", kind, bonded_potential_of_mean_force(d, 1.0), 181);
  must_read_back(table.str(), [kind](std::istream& in) { read_bonded_tables(in, "written", kind); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 6;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (mode < 3) {  // the targets are read from files only
      static const std::string path = "/tmp/meso_fuzz_ibi." + std::to_string(getpid());
      std::ofstream(path, std::ios::binary) << text;
      target(mode, path);
    } else {
      std::istringstream in(text);
      if (mode == 3) meso::read_pair_tables(in, "fuzz.table");
      else meso::read_bonded_tables(in, "fuzz.table", mode == 4 ? meso::TableKind::bond : meso::TableKind::angle);
    }
  } catch (const meso::InputError&) {
  }
  return 0;
}

// The output-file module (meso/io/durable_file.hpp): a unique temporary
// beside the target (an input or a user's file named FILE.tmp survives),
// the target a regular file or a new path (a FIFO, a directory, a device
// node, or a link to one, is refused and left as it was), a failed write
// removing only its own temporary, and files compared by identity.
#include "meso/io/durable_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "meso/core/error.hpp"
#include "support/temporary_files.hpp"

namespace meso::io {
namespace {

namespace fs = std::filesystem;
using test::temporaries_of;

// A fresh directory per test, removed afterwards.
class DurableFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "meso_output_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (fs::path(dir_) / name).string(); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {})); }
  fs::path dir_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Expects write_file_durably(path) refused with `needle` in the message.
void expect_refused(const std::string& path, const std::string& needle) {
  try {
    write_file_durably(path, "new");
    FAIL() << "wrote " << path << "; expected '" << needle << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << "the message does not name the path";
  }
}

TEST_F(DurableFile, WritesAndReplacesLeavingNoTemporary) {
  const std::string path = at("out.json");
  write_file_durably(path, "first");
  EXPECT_EQ(slurp(path), "first");
  write_file_durably(path, "second");
  EXPECT_EQ(slurp(path), "second");
  EXPECT_TRUE(temporaries_of(path).empty());
  EXPECT_EQ(entries(), 1u);
  // Created as open(..., 0666) would be, not mkstemp's 0600.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(fs::status(path).permissions(), static_cast<fs::perms>(0666 & ~mask));
}

TEST_F(DurableFile, AFileNamedLikeTheOldTemporarySurvives) {
  // FILE.tmp was the fixed temporary name: an input of that name was
  // overwritten and renamed over FILE.
  const std::string path = at("run.ckpt");
  spit(path + ".tmp", "the user's restart checkpoint");
  write_file_durably(path, "the new checkpoint");
  EXPECT_EQ(slurp(path + ".tmp"), "the user's restart checkpoint");
  EXPECT_EQ(slurp(path), "the new checkpoint");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(DurableFile, TemporariesAreUniqueAndRemovedUnlessCommitted) {
  const std::string path = at("traj.h5");
  {
    OutputFile a(path), b(path);
    EXPECT_NE(a.temporary(), b.temporary());
    EXPECT_EQ(fs::path(a.temporary()).parent_path(), dir_);
    EXPECT_EQ(temporaries_of(path).size(), 2u);
    // A library writing the temporary itself (as HDF5 does).
    a.close_descriptor();
    spit(a.temporary(), "written by a library");
    a.commit();
    EXPECT_EQ(slurp(path), "written by a library");
    EXPECT_EQ(temporaries_of(path).size(), 1u);
  }  // b: never committed
  EXPECT_TRUE(temporaries_of(path).empty());
  EXPECT_EQ(slurp(path), "written by a library");
}

TEST_F(DurableFile, SpecialFilesAreRefusedAndLeftAlone) {
  const std::string fifo = at("fifo"), link = at("link-to-fifo"), sub = at("sub");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, link);
  fs::create_directory(sub);
  expect_refused(fifo, "is not a regular file (a FIFO)");
  expect_refused(link, "is not a regular file (a link to a FIFO)");
  expect_refused(sub, "is a directory");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_TRUE(fs::is_directory(sub));
  EXPECT_EQ(entries(), 3u);  // no temporary left either
}

TEST_F(DurableFile, DeviceNodesAreRefusedAndLeftAlone) {
  // A private node (never a real one): only root may make it, and only root
  // could have replaced one by renaming over it.
  if (::geteuid() != 0) GTEST_SKIP() << "mknod needs root";
  const std::string dev = at("null"), link = at("link-to-null");
  ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0600, ::makedev(1, 3)), 0);
  fs::create_symlink(dev, link);
  expect_refused(dev, "is not a regular file (a character device)");
  expect_refused(link, "is not a regular file (a link to a character device)");
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status(dev)));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(entries(), 2u);
}

TEST_F(DurableFile, ATargetThatBecameSpecialMeanwhileIsNotReplaced) {
  const std::string path = at("out");
  OutputFile out(path);
  out.write("data");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);  // appeared while the file was written
  EXPECT_THROW(out.commit(), InputError);
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(path)));
  EXPECT_TRUE(temporaries_of(path).empty());
}

TEST_F(DurableFile, AFailedWriteRemovesOnlyItsOwnTemporary) {
  const std::string path = at("ckpt");
  spit(path, "previous");
  spit(path + ".tmp", "someone's file");
  // A file size limit: the write fails with EFBIG (SIGXFSZ ignored), as on
  // a full disk.
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  bool refused = false;
  try {
    write_file_durably(path, std::string(100000, 'x'));
  } catch (const InputError& e) {
    refused = std::string(e.what()).find(path) != std::string::npos;
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(refused) << "not refused naming " << path;
  EXPECT_EQ(slurp(path), "previous");
  EXPECT_EQ(slurp(path + ".tmp"), "someone's file");
  EXPECT_TRUE(temporaries_of(path).empty());
}

TEST_F(DurableFile, MissingOrUnwritablePlacesAndLongNamesAreRefused) {
  expect_refused(at("no-such-dir/out"), "does not exist");
  EXPECT_THROW(check_output_path("--json", ""), InputError);
  EXPECT_THROW(check_output_path("--json", at(std::string(250, 'x'))), InputError);
  EXPECT_NO_THROW(check_output_path("--json", at(std::string(240, 'x'))));
}

TEST_F(DurableFile, SameFileComparesIdentities) {
  const std::string a = at("a"), b = at("b"), hard = at("hard"), soft = at("soft");
  spit(a, "a");
  spit(b, "a");  // equal bytes, another file
  fs::create_hard_link(a, hard);
  fs::create_symlink(a, soft);
  EXPECT_TRUE(same_file(a, hard));
  EXPECT_TRUE(same_file(a, soft));
  EXPECT_TRUE(same_file(a, (dir_ / "." / "a").string()));
  EXPECT_FALSE(same_file(a, b));
  EXPECT_FALSE(same_file(a, at("new")));
  // Two outputs of one new name.
  EXPECT_TRUE(same_file(at("new"), (dir_ / ".." / dir_.filename() / "new").string()));
  EXPECT_FALSE(same_file(at("new"), at("other")));
}

}  // namespace
}  // namespace meso::io

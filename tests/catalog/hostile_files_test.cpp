// Trees that try to hang, crash or exhaust the reader: each problem must become a diagnostic on
// the PMU or event concerned while the rest of the tree loads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

bool has_id(const std::vector<Diagnostic>& diagnostics, std::string_view id) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.id == id; });
}

class HostileTree : public ::testing::Test {
 protected:
  void SetUp() override {
    tree.write("devices/good/type", "42\n");
    tree.write("devices/good/format/event", "config:0-7\n");
    tree.write("devices/good/events/ok", "event=0x3c\n");
  }
  Catalog open() {
    auto catalog = Catalog::open(tree.path("devices"));
    EXPECT_TRUE(catalog) << catalog.error().message;
    return std::move(catalog).value();
  }
  void expect_good_pmu_intact(const Catalog& catalog) {
    const Pmu* good = catalog.find_pmu("good");
    ASSERT_NE(good, nullptr);
    EXPECT_EQ(good->type(), 42u);
    ASSERT_NE(good->find_event("ok"), nullptr);
    EXPECT_FALSE(good->find_event("ok")->error);
    EXPECT_NE(good->find_format("event"), nullptr);
  }
  TempTree tree;
};

TEST_F(HostileTree, FifoEventFileDoesNotHang) {
  tree.write("devices/good/events/zz_after", "event=0x1\n");
  tree.fifo("devices/good/events/pipe");
  Catalog catalog = open();
  const Pmu* good = catalog.find_pmu("good");
  // Before the listing: the probe opens the FIFO directly (O_NONBLOCK) and rejects it.
  const Event* probed = good->find_event("pipe");
  ASSERT_NE(probed, nullptr);
  ASSERT_TRUE(probed->error);
  EXPECT_EQ(probed->error->id, "file-not-regular");
  EXPECT_THAT(probed->error->message, ::testing::HasSubstr("FIFO"));
  // The listing skips it by its d_type.
  ASSERT_EQ(good->events().size(), 3u);
  const Event* listed = good->find_event("pipe");
  ASSERT_TRUE(listed->error);
  EXPECT_EQ(listed->error->id, "file-not-regular");
  EXPECT_FALSE(good->find_event("zz_after")->error);
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, DirectoryWhereAnEventFileBelongs) {
  tree.mkdir("devices/good/events/adir");
  Catalog catalog = open();
  const Event* probed = catalog.find_pmu("good")->find_event("adir");
  ASSERT_NE(probed, nullptr);
  ASSERT_TRUE(probed->error);
  EXPECT_EQ(probed->error->id, "file-not-regular");
  ASSERT_EQ(catalog.find_pmu("good")->events().size(), 2u);
  EXPECT_EQ(catalog.find_pmu("good")->find_event("adir")->error->id, "file-not-regular");
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, OneMebibyteFileIsNotRead) {
  tree.write("devices/good/events/huge", std::string(1 << 20, 'a'));
  tree.write("devices/good/format/huge", std::string(kMaxSysfsFileSize + 1, '1'));
  Catalog catalog = open();
  const Pmu* good = catalog.find_pmu("good");
  const Event* huge = good->find_event("huge");
  ASSERT_NE(huge, nullptr);
  ASSERT_TRUE(huge->error);
  EXPECT_EQ(huge->error->id, "file-too-large");
  EXPECT_TRUE(huge->text.empty());
  const Format* format = good->find_format("huge");
  ASSERT_NE(format, nullptr);  // still listed, with no bits
  EXPECT_EQ(format->spec.mask, 0u);
  EXPECT_TRUE(has_id(good->diagnostics(), "file-too-large"));
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, FileOfExactlyTheLimitIsRead) {
  std::string text = "event=0x1" + std::string(kMaxSysfsFileSize - 10, ' ') + "\n";
  ASSERT_EQ(text.size(), kMaxSysfsFileSize);
  tree.write("devices/good/events/big_but_ok", text);
  Catalog catalog = open();
  const Event* event = catalog.find_pmu("good")->find_event("big_but_ok");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->text.size(), kMaxSysfsFileSize);
  EXPECT_FALSE(event->error && event->error->id == "file-too-large");
}

TEST_F(HostileTree, NulBytesAreALocatedError) {
  tree.write("devices/good/events/nul", std::string("event=0x1\0,umask=2\n", 19));
  tree.write("devices/good/type", std::string("4\0\n", 3));
  Catalog catalog = open();
  const Pmu* good = catalog.find_pmu("good");
  const Event* event = good->find_event("nul");
  ASSERT_TRUE(event && event->error);
  EXPECT_EQ(event->error->id, "file-nul-byte");
  EXPECT_EQ(event->error->range.column, 10u);
  EXPECT_FALSE(good->type());
  EXPECT_TRUE(has_id(good->attributes().diagnostics, "file-nul-byte"));
}

TEST_F(HostileTree, SymlinkLoops) {
  tree.symlink("loop_a", "devices/good/events/loop_b");
  tree.symlink("loop_b", "devices/good/events/loop_a");
  tree.symlink("self", "devices/self");
  tree.symlink("cpumask", "devices/good/cpumask");  // a file that points at itself
  Catalog catalog = open();
  const Pmu* good = catalog.find_pmu("good");
  const Event* loop = good->find_event("loop_a");
  ASSERT_TRUE(loop && loop->error);
  EXPECT_EQ(loop->error->id, "file-unreadable");
  EXPECT_EQ(good->events().size(), 3u);
  EXPECT_TRUE(has_id(good->attributes().diagnostics, "file-unreadable"));
  EXPECT_EQ(good->type(), 42u);

  const Pmu* self = catalog.find_pmu("self");
  ASSERT_NE(self, nullptr);
  EXPECT_FALSE(self->type());
  ASSERT_EQ(self->attributes().diagnostics.size(), 1u);
  EXPECT_EQ(self->attributes().diagnostics[0].id, "pmu-dir-unreadable");
  EXPECT_THAT(self->attributes().diagnostics[0].message, ::testing::HasSubstr("loop"));
  EXPECT_TRUE(self->events().empty());
  EXPECT_EQ(self->find_event("anything"), nullptr);
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, DanglingPmuLink) {
  tree.symlink(tree.path("gone/uncore_x").string(), "devices/uncore_x");
  Catalog catalog = open();
  const Pmu* dangling = catalog.find_pmu("uncore_x");
  ASSERT_NE(dangling, nullptr);
  EXPECT_FALSE(dangling->type());
  ASSERT_EQ(dangling->attributes().diagnostics.size(), 1u);
  const Diagnostic& d = dangling->attributes().diagnostics[0];
  EXPECT_EQ(d.id, "pmu-dir-unreadable");
  EXPECT_THAT(d.message, ::testing::HasSubstr("dangling"));
  EXPECT_EQ(d.range.file, tree.path("devices/uncore_x").string());
  EXPECT_TRUE(dangling->formats().empty());
  EXPECT_EQ(dangling->kind(), PmuKind::other);
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, DanglingEventLink) {
  tree.symlink("nowhere", "devices/good/events/dangling");
  Catalog catalog = open();
  const Pmu* good = catalog.find_pmu("good");
  // A probe cannot tell a dangling link from no file, so it falls back to the listing, which
  // knows the entry exists.
  const Event* event = good->find_event("dangling");
  ASSERT_NE(event, nullptr);
  ASSERT_TRUE(event->error);
  EXPECT_EQ(event->error->id, "file-unreadable");
  expect_good_pmu_intact(catalog);
}

TEST_F(HostileTree, EventsAndFormatAsFiles) {
  tree.write("devices/flat/type", "50\n");
  tree.write("devices/flat/events", "not a directory\n");
  tree.write("devices/flat/format", "not a directory\n");
  Catalog catalog = open();
  const Pmu* flat = catalog.find_pmu("flat");
  EXPECT_EQ(flat->find_event("anything"), nullptr);
  EXPECT_TRUE(flat->events().empty());
  EXPECT_TRUE(flat->formats().empty());
  std::vector<Diagnostic> diagnostics = flat->diagnostics();
  EXPECT_EQ(std::count_if(diagnostics.begin(), diagnostics.end(),
                          [](const Diagnostic& d) { return d.id == "file-unreadable"; }),
            2);
}

// EACCES needs a reader without CAP_DAC_OVERRIDE: as root, a forked child drops to `nobody`.
TEST_F(HostileTree, UnreadableFileIsADiagnostic) {
  tree.write("devices/good/events/secret", "event=0x1\n");
  std::filesystem::permissions(tree.path("devices/good/events/secret"),
                               std::filesystem::perms::none);
  std::filesystem::permissions(
      tree.root(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                       std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                       std::filesystem::perms::others_exec);
  auto check = [&]() -> int {
    auto catalog = Catalog::open(tree.path("devices"));
    if (!catalog) return 10;
    const Pmu* good = catalog->find_pmu("good");
    const Event* probed = good->find_event("secret");
    if (probed == nullptr || !probed->error || probed->error->id != "file-unreadable") return 11;
    if (probed->error->message.find("Permission denied") == std::string::npos) return 12;
    if (good->events().size() != 2) return 13;
    const Event* listed = &good->events()[1];
    if (listed->name != "secret" || !listed->error || listed->error->id != "file-unreadable") {
      return 14;
    }
    if (good->find_event("ok") == nullptr || good->find_event("ok")->error) return 15;
    return 0;
  };
  if (::geteuid() != 0) {
    EXPECT_EQ(check(), 0);
    return;
  }
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(20);
    ::_exit(check());
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "see the return codes in check()";
}

}  // namespace
PMUCAT_END_NAMESPACE

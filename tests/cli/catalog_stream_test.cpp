// Internal unit test of cli/pmuls/catalog_json.h, cli/common/output_buffer.h: pmuls --json.
// pmuls --json streams the catalog PMU by PMU: the text must be exactly what one document of
// the whole selection dumps to, and the output buffer must deliver every byte.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "common/json.h"
#include "common/output_buffer.h"
#include "pmucat/catalog.h"
#include "pmuls/catalog_json.h"
#include "test_pmus.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::string as_one_document(const Catalog& catalog, const std::vector<const Pmu*>& pmus) {
  std::vector<Json> items;
  for (const Pmu* pmu : pmus) items.push_back(pmu_to_json(*pmu));
  return dump_json(catalog_to_json(catalog, items));
}

std::string streamed(const Catalog& catalog, const std::vector<const Pmu*>& pmus, unsigned jobs = 1,
                     std::size_t* pieces = nullptr) {
  std::string out;
  std::size_t count = 0;
  write_catalog_json(catalog, pmus, jobs, {}, {}, [&](std::string_view text) {
    out += text;
    ++count;
  });
  if (pieces != nullptr) *pieces = count;
  return out;
}

std::vector<const Pmu*> all_of(const Catalog& catalog) {
  std::vector<const Pmu*> pmus;
  for (const Pmu& pmu : catalog.pmus()) pmus.push_back(&pmu);
  return pmus;
}

class StreamedFixture : public ::testing::TestWithParam<const char*> {};

TEST_P(StreamedFixture, IsTheSameTextAsOneDocument) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/" + GetParam());
  ASSERT_TRUE(catalog);
  const std::vector<const Pmu*> pmus = all_of(*catalog);
  ASSERT_FALSE(pmus.empty());
  const std::string document = as_one_document(*catalog, pmus);
  // Several jobs read and print PMUs on other threads; the text must not change.
  for (unsigned jobs : {1u, 2u, 5u}) {
    std::size_t pieces = 0;
    EXPECT_EQ(streamed(*catalog, pmus, jobs, &pieces), document) << jobs << " jobs";
    EXPECT_EQ(pieces, pmus.size() + 2);  // head, one piece per PMU, tail
  }
}

// Trees with every kind of broken file, so diagnostics with carets are streamed too.
INSTANTIATE_TEST_SUITE_P(Trees, StreamedFixture,
                         ::testing::Values("intel-spr", "amd-zen4", "arm-neoverse", "power9",
                                           "broken/files/devices", "broken/metadata/devices",
                                           "broken/terms/devices", "broken/type/devices"));

// Whether a PMU holds findings once every part of it is read.
bool has_diagnostics_when_loaded(const Pmu& pmu) {
  const Pmu fresh = Pmu::from_directory(pmu.name(), pmu.path().string());
  (void)fresh.attributes();
  (void)fresh.formats();
  (void)fresh.events();
  return !fresh.diagnostics().empty();
}

TEST(StreamedCatalog, LeavesTheCatalogsOwnPmusUnloaded) {
  auto catalog =
      Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/broken/files/devices");
  ASSERT_TRUE(catalog);
  std::vector<const Pmu*> broken;
  for (const Pmu& pmu : catalog->pmus()) {
    if (has_diagnostics_when_loaded(pmu)) broken.push_back(&pmu);
  }
  ASSERT_FALSE(broken.empty());
  const std::string text = streamed(*catalog, broken, 2);
  EXPECT_NE(text.find("\"diagnostics\": [\n"), std::string::npos);
  // Loading them would have collected those diagnostics; an unloaded PMU reports nothing.
  for (const Pmu* pmu : broken) EXPECT_TRUE(pmu->diagnostics().empty()) << pmu->name();
}

TEST(StreamedCatalog, InMemoryPmusAndAnEmptySelection) {
  std::vector<Pmu> pmus;
  pmus.push_back(testing::amd_cpu_pmu());
  pmus.push_back(testing::hv_24x7_pmu());
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  EXPECT_EQ(streamed(catalog, all_of(catalog)), as_one_document(catalog, all_of(catalog)));
  EXPECT_EQ(streamed(catalog, all_of(catalog), 2), as_one_document(catalog, all_of(catalog)));
  EXPECT_EQ(streamed(catalog, {}), as_one_document(catalog, {}));
  EXPECT_EQ(streamed(catalog, {}, 2), as_one_document(catalog, {}));
}

// Invalid UTF-8 is replaced the same way on both paths, and a PMU with every kind of member
// (caps, cpu lists, string terms, parameters) streams to the same text as one document.
TEST(StreamedCatalog, InvalidUtf8AndEveryMemberKind) {
  PmuInfo info;
  info.name = "odd\xff_pmu";
  info.attributes.type = 42;
  info.attributes.caps["pmu_name"] = "bad \xc3\x28 text";
  info.attributes.alias = "alias\xfe";
  info.attributes.cpumask = CpuList{"0-1", {0, 1}};
  std::vector<Pmu> pmus;
  pmus.push_back(Pmu::from_info(std::move(info)));
  pmus.push_back(testing::make_pmu("uncore_x", 30, {{"event", "config:0-7"}, {"ch", "config1:0-3"}},
                                   {{"with_param", "event=0x3,ch=?"}, {"plain", "event=0x5"}}, {},
                                   "0"));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  const std::string text = streamed(catalog, all_of(catalog));
  EXPECT_EQ(text, as_one_document(catalog, all_of(catalog)));
  EXPECT_NE(text.find("odd\xef\xbf\xbd_pmu"), std::string::npos);  // U+FFFD replaced the byte
  EXPECT_NE(text.find("\"params\": [\n"), std::string::npos);
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, std::size_t(got));
  return text;
}

TEST(OutputBuffer, DeliversEveryByteInOrder) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  std::string expected;
  {
    OutputBuffer out(::fileno(file), 100);
    for (int i = 0; i < 1000; ++i) {
      const std::string piece = std::to_string(i) + (i % 7 == 0 ? std::string(250, 'x') : ",");
      out.append(piece);
      expected += piece;
    }
    EXPECT_TRUE(out.ok());
  }  // the destructor writes the rest
  ASSERT_EQ(::lseek(::fileno(file), 0, SEEK_SET), 0);
  EXPECT_EQ(read_all(::fileno(file)), expected);
  std::fclose(file);
}

TEST(OutputBuffer, ReportsAWriteThatFails) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);  // nobody reads: writing fails with EPIPE (SIGPIPE ignored below)
  auto* previous = std::signal(SIGPIPE, SIG_IGN);
  {
    OutputBuffer out(fds[1], 16);
    out.append("more than sixteen bytes of text");
    EXPECT_FALSE(out.ok());
    EXPECT_FALSE(out.flush());
  }
  std::signal(SIGPIPE, previous);
  ::close(fds[1]);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

// The shared perf.data corpus (perf 3.4 ... 6.12, file and pipe mode): read without error, with
// attrs, features and record counts matching what perf itself reports, and rewritten without
// loss. Skipped when the corpus (or, for the perf comparisons, perf) is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <sstream>

#include "pmucat/perfdata.h"
#include "shared_dir.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

const std::filesystem::path kCorpus = testing::shared_dir() / "perfdata-corpus";

std::vector<std::string> corpus_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("perf.data", 0) == 0) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

class Corpus : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kCorpus / GetParam())) GTEST_SKIP() << "corpus absent";
  }
  std::filesystem::path path() const { return kCorpus / GetParam(); }
};

// perf's "Aggregated stats" of `perf report -D`: "<NAME> events: <count>".
std::map<std::string, std::uint64_t> perf_record_counts(const std::string& dump) {
  std::map<std::string, std::uint64_t> out;
  const auto start = dump.find("Aggregated stats:");
  if (start == std::string::npos) return out;
  std::istringstream lines(dump.substr(start));
  std::string line;
  std::getline(lines, line);
  static const std::regex kLine(R"(^\s+(\S+) events:\s+(\d+))");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, kLine)) break;
    if (m[1] != "TOTAL") out[m[1]] = std::stoull(m[2]);
  }
  return out;
}

std::map<std::string, std::uint64_t> our_record_counts(const PerfData& data) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& r : data.records) ++out[record_type_name(r.type)];
  if (data.mode == PerfDataMode::pipe) {
    // Our model keeps pipe-mode ATTR and FEATURE records as events and features.
    if (!data.events.empty()) out["ATTR"] += data.events.size();
    const std::uint64_t features = data.features.size() + (data.pipe_end_marker ? 1 : 0);
    if (features != 0) out["FEATURE"] += features;
  }
  return out;
}

TEST_P(Corpus, ReadsAndRewritesWithoutLoss) {
  const auto data = read_perf_data(path());
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_FALSE(data->events.empty());
  EXPECT_FALSE(data->records.empty());
  testing::ScratchDir dir;
  const auto out = dir / "rewritten.data";
  ASSERT_FALSE(write_perf_data(out, *data, options_like(*data)));
  const auto again = read_perf_data(out);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(*again, *data);
  for (const auto& p : check_perf_data(testing::read_bytes(path()), GetParam())) {
    EXPECT_NE(p.severity, Severity::error) << p.message;
    // Every feature payload decodes (perf 6.12's padded pipe FEATURE records included).
    EXPECT_EQ(p.message.find("is malformed"), std::string::npos) << p.message;
  }
}

TEST_P(Corpus, MatchesPerfsView) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  const auto data = read_perf_data(path());
  ASSERT_TRUE(data) << data.error().message;
  const auto dump = testing::run_command("perf report -D -i '" + path().string() + "'");
  EXPECT_EQ(our_record_counts(*data), perf_record_counts(dump.out));

  const auto header =
      testing::run_command("perf report --header-only -I -i '" + path().string() + "'");
  std::vector<std::string> perf_names;
  static const std::regex kEvent(R"(# event : name = ([^,]*),)");
  for (std::sregex_iterator it(header.out.begin(), header.out.end(), kEvent), end; it != end;
       ++it) {
    perf_names.push_back((*it)[1]);
  }
  std::vector<std::string> our_names;
  for (const auto& e : data->events) our_names.push_back(e.name);
  EXPECT_EQ(our_names, perf_names);

  // Every feature perf 6.1 knows and does not list as missing is present, and vice versa.
  // (Pipe mode has no "missing features" line; its FEATURE records were counted above.)
  if (data->mode == PerfDataMode::pipe) return;
  const auto missing_at = header.out.find("# missing features:");
  ASSERT_NE(missing_at, std::string::npos);
  const std::string missing =
      header.out.substr(missing_at, header.out.find('\n', missing_at) - missing_at) + " ";
  for (std::uint32_t id = 1; id < feature::last; ++id) {
    // Built with +=: `" " + name + " "` trips GCC 12's -Wrestrict at -O3.
    std::string word = " ";
    word += feature_name(id);
    word += ' ';
    const bool perf_has = missing.find(word) == std::string::npos;
    EXPECT_EQ(data->features.count(id) == 1, perf_has) << feature_name(id);
  }
}

TEST_P(Corpus, RewrittenFileGivesTheSamePerfScript) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  const auto data = read_perf_data(path());
  ASSERT_TRUE(data);
  testing::ScratchDir dir;
  const auto out = dir / "rewritten.data";
  ASSERT_FALSE(write_perf_data(out, *data, options_like(*data)));
  const auto a = testing::run_command("perf script -i '" + path().string() + "'");
  const auto b = testing::run_command("perf script -i '" + out.string() + "'");
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.out, b.out);
}

INSTANTIATE_TEST_SUITE_P(Files, Corpus, ::testing::ValuesIn(corpus_files()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Corpus);

}  // namespace
PMUCAT_END_NAMESPACE

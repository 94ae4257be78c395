// perf.data directories (perf record --threads -o DIR): DIR/data is a file-mode perf.data with
// the DIR_FORMAT feature and the synthesized records, DIR/data.N hold the threads' records bare.
// Read, checked, streamed and converted as one file; the fixtures are written by our writer, and
// a directory perf records here is compared with perf's own view when perf may record.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "model_builder.h"
#include "perf_view.h"
#include "pmucat/perfdata.h"
#include "support/command.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

const std::string kTool = PMUCAT_BINARY_DIR "/cli/pmudata/pmudata";

void write_bare_records(const std::filesystem::path& path, const std::vector<Record>& records) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& r : records) {
    const std::uint32_t type = r.type;
    const std::uint16_t misc = r.misc;
    const auto size = static_cast<std::uint16_t>(r.size());
    out.write(reinterpret_cast<const char*>(&type), 4);
    out.write(reinterpret_cast<const char*>(&misc), 2);
    out.write(reinterpret_cast<const char*>(&size), 2);
    out.write(reinterpret_cast<const char*>(r.payload.data()),
              static_cast<std::streamsize>(r.payload.size()));
  }
}

// The demo model as perf --threads lays it out: the COMM in the header file, the samples
// spread over data.0, data.2 and data.10 (read in number order, not name order), and the
// FINISHED_ROUND in data.10.
struct Fixture {
  PerfData model;  // the directory read as one file
  std::filesystem::path dir;
};

Fixture make_directory(const std::filesystem::path& dir) {
  test::ModelSpec spec;
  spec.events = 2;
  spec.samples = 5;
  Fixture f{test::demo_model(spec), dir};
  std::filesystem::create_directories(dir);
  PerfData header = f.model;
  header.records.assign(f.model.records.begin(), f.model.records.begin() + 1);
  header.features[feature::dir_format] = std::vector<std::byte>(8);
  header.features[feature::dir_format][0] = std::byte{1};
  EXPECT_FALSE(write_perf_data(dir / "data", header, options_like(header)));
  const auto& r = f.model.records;  // COMM, 5 samples, FINISHED_ROUND
  write_bare_records(dir / "data.0", {r[1], r[2]});
  write_bare_records(dir / "data.2", {r[3]});
  write_bare_records(dir / "data.10", {r[4], r[5], r[6]});
  write_bare_records(dir / "data.1", {});
  std::ofstream(dir / "data.x") << "not a data file";
  return f;
}

TEST(PerfDataDirectory, ReadsTheHeaderFileThenDataNInNumberOrder) {
  testing::ScratchDir scratch;
  const auto f = make_directory(scratch / "thr.data");
  const auto data = read_perf_data(f.dir);
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_EQ(data->features.count(feature::dir_format), 0u);  // dropped: read as one file
  EXPECT_EQ(*data, f.model);
  EXPECT_TRUE(check_perf_data_file(f.dir).empty());
}

class Count : public PerfDataVisitor {
 public:
  std::optional<Diagnostic> begin(const PerfData&) override { return std::nullopt; }
  std::optional<Diagnostic> record(const Record& r) override {
    types.push_back(r.type);
    return std::nullopt;
  }
  std::vector<std::uint32_t> types;
};

TEST(PerfDataDirectory, StreamsEveryRecordAndCountsEveryFile) {
  testing::ScratchDir scratch;
  const auto f = make_directory(scratch / "thr.data");
  Count count;
  const auto summary = stream_perf_data(f.dir, count);
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->records, f.model.records.size());
  ASSERT_EQ(count.types.size(), f.model.records.size());
  EXPECT_EQ(count.types.back(), record_type::finished_round);
  std::uint64_t bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(f.dir)) bytes += e.file_size();
  EXPECT_EQ(summary->size_bytes, bytes - std::string("not a data file").size());
}

TEST(PerfDataDirectory, ProblemsNameTheDataFile) {
  testing::ScratchDir scratch;
  const auto f = make_directory(scratch / "thr.data");
  std::filesystem::resize_file(f.dir / "data.2", std::filesystem::file_size(f.dir / "data.2") - 4);
  const auto data = read_perf_data(f.dir);
  ASSERT_FALSE(data);
  EXPECT_EQ(data.error().range.file, (f.dir / "data.2").string()) << data.error().message;
  const auto problems = check_perf_data_file(f.dir);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front().range.file, (f.dir / "data.2").string());
}

TEST(PerfDataDirectory, ADirectoryWithoutDataIsRefused) {
  testing::ScratchDir scratch;
  std::filesystem::create_directories(scratch / "empty");
  const auto data = read_perf_data(scratch / "empty");
  ASSERT_FALSE(data);
  EXPECT_NE(data.error().message.find("is a directory, not a perf.data file"), std::string::npos)
      << data.error().message;
}

TEST(PerfDataDirectory, PmudataInfoCheckAndConvert) {
  if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
  testing::ScratchDir scratch;
  const auto f = make_directory(scratch / "thr.data");
  const auto q = [](const std::filesystem::path& p) { return "'" + p.string() + "'"; };
  const auto info = testing::run_command(kTool + " info " + q(f.dir));
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("SAMPLE                  5"), std::string::npos) << info.out;
  const auto check = testing::run_command(kTool + " check " + q(f.dir));
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  for (const std::string out : {"one.data", "one.pb", "one.pbtxt"}) {
    const auto r = testing::run_command(kTool + " convert " + q(f.dir) + " " + q(scratch / out));
    ASSERT_EQ(r.status, 0) << out << ": " << r.err;
  }
  for (const std::string in : {"one.pb", "one.pbtxt"}) {
    const auto r = testing::run_command(kTool + " convert " + q(scratch / in) + " " +
                                        q(scratch / (in + ".data")));
    ASSERT_EQ(r.status, 0) << in << ": " << r.err;
  }
  for (const std::string name : {"one.data", "one.pb.data", "one.pbtxt.data"}) {
    const auto back = read_perf_data(scratch / name);
    ASSERT_TRUE(back) << name;
    EXPECT_EQ(*back, f.model) << name;
  }
}

TEST(PerfDataDirectory, PerfRecordThreadsConvertsToWhatPerfSees) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
  testing::ScratchDir scratch;
  const auto dir = scratch / "thr.data";
  const auto rec = testing::run_command("perf record -q --threads -e page-faults -c 1 -o '" +
                                        dir.string() + "' -- /bin/ls / 2>&1 >/dev/null");
  if (rec.status != 0 || !std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "perf record --threads is not permitted here: " << rec.out;
  }
  const auto one = scratch / "one.data";
  const auto pb = scratch / "one.pb";
  const auto back = scratch / "back.data";
  for (const auto& [in, out] : std::vector<std::pair<std::filesystem::path, std::filesystem::path>>{
           {dir, one}, {dir, pb}, {pb, back}}) {
    const auto r =
        testing::run_command(kTool + " convert '" + in.string() + "' '" + out.string() + "'");
    ASSERT_EQ(r.status, 0) << r.err;
  }
  for (const auto& file : {one, back}) {
    EXPECT_EQ(testing::perf_view("script", file), testing::perf_view("script", dir)) << file;
    EXPECT_EQ(testing::perf_view("report --stdio", file, {.sorted = true}),
              testing::perf_view("report --stdio", dir, {.sorted = true}))
        << file;
    EXPECT_EQ(testing::perf_view("evlist -v", file), testing::perf_view("evlist -v", dir)) << file;
  }
}

}  // namespace
PMUCAT_END_NAMESPACE

// Pipe-mode files keep their header records where perf wrote them: HEADER_ATTR and
// HEADER_FEATURE records come back in the same order (perf <= 4.x wrote the features first) after
// a rewrite, a .pb and a .pbtxt round trip, and perf itself (evlist -v, --header-only, script,
// sorted report) sees the same file. The perf comparisons need the shared corpus and perf.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "model_builder.h"
#include "perf_view.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_proto.h"
#include "shared_dir.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using Kind = PipeHeaderRecord::Kind;

const std::filesystem::path kCorpus = testing::shared_dir() / "perfdata-corpus";
const std::string kTool = PMUCAT_BINARY_DIR "/cli/pmudata/pmudata";

// A pipe-mode model whose features come before its attrs, as perf 4.14 wrote them, with the
// uninitialised misc perf left in the attr record.
PerfData features_first() {
  test::ModelSpec spec;
  spec.events = 2;
  spec.mode = PerfDataMode::pipe;
  PerfData data = test::demo_model(spec);
  data.pipe_end_marker = feature::last;
  for (const auto& [id, payload] : data.features)
    data.pipe_header.push_back({Kind::feature, id, 0});
  data.pipe_header.push_back({Kind::attr, 0, 0x7ba8});
  data.pipe_header.push_back({Kind::attr, 1, 0});
  data.pipe_header.push_back({Kind::end_marker, feature::last, 0});
  return data;
}

TEST(PipeHeader, ReaderRecordsWhereTheHeaderRecordsWere) {
  testing::ScratchDir dir;
  const PerfData data = features_first();
  ASSERT_FALSE(write_perf_data(dir / "p.data", data, options_like(data)));
  const auto back = read_perf_data(dir / "p.data");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->pipe_header, data.pipe_header);
  EXPECT_EQ(back->events, data.events);
  ASSERT_EQ(back->records.size(), data.records.size());
  EXPECT_EQ(back->records.front().type, record_type::comm);
  EXPECT_EQ(back->features, data.features);
}

TEST(PipeHeader, OrderSurvivesTheProto) {
  testing::ScratchDir dir;
  const PerfData data = features_first();
  ASSERT_FALSE(write_perf_data(dir / "p.data", data, options_like(data)));
  const auto read = read_perf_data(dir / "p.data");
  ASSERT_TRUE(read);
  for (const auto format : {ProtoFormat::binary, ProtoFormat::text}) {
    const auto proto = to_perf_data_proto(*read, format);
    ASSERT_TRUE(proto);
    const auto back = from_perf_data_proto(*proto, format, "p.pb");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->pipe_header, read->pipe_header);
    EXPECT_EQ(*back, *read);
  }
}

TEST(PipeHeader, EntriesNamingNothingAreSkippedAndTheRestFollows) {
  testing::ScratchDir dir;
  PerfData data = features_first();
  // An attr index past the events, a feature the file lacks, a marker it does not write.
  data.pipe_header = {{Kind::attr, 7, 0},
                      {Kind::feature, feature::auxtrace, 0},
                      {Kind::end_marker, 99, 0},
                      {Kind::attr, 1, 0}};
  ASSERT_FALSE(write_perf_data(dir / "p.data", data, options_like(data)));
  const auto back = read_perf_data(dir / "p.data");
  ASSERT_TRUE(back) << back.error().message;
  // Event 1 first, then event 0 (left out by the order), then the features by id and the
  // marker: read back, that is the usual order of the events as they now are, noted as none.
  ASSERT_EQ(back->events.size(), 2u);
  EXPECT_EQ(back->events[0].ids, data.events[1].ids);
  EXPECT_EQ(back->events[1].ids, data.events[0].ids);
  EXPECT_TRUE(back->pipe_header.empty());
  EXPECT_EQ(back->features, data.features);
  EXPECT_EQ(back->pipe_end_marker, feature::last);
}

TEST(PipeHeader, FileModeAndTheUsualOrderLeaveNone) {
  testing::ScratchDir dir;
  test::ModelSpec spec;
  const PerfData file_mode = test::demo_model(spec);
  ASSERT_FALSE(write_perf_data(dir / "f.data", file_mode, {}));
  const auto back = read_perf_data(dir / "f.data");
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->pipe_header.empty());
  // File mode -> pipe mode: the usual order (attrs, features by id, marker), read as none.
  WriterOptions pipe;
  pipe.mode = PerfDataMode::pipe;
  ASSERT_FALSE(write_perf_data(dir / "p.data", *back, pipe));
  const auto piped = read_perf_data(dir / "p.data");
  ASSERT_TRUE(piped);
  EXPECT_TRUE(piped->pipe_header.empty());
  EXPECT_EQ(piped->pipe_end_marker, feature::last);
}

// A pipe stream whose first record is a data record and whose features come after it: no
// header record came before the records, so none is placed, whether the reader takes the first
// record on its fast path (a batch of whole records in the window) or its careful one, in
// memory or streamed. Found by perfdata_stream_fuzz: in memory the fast path left the header
// open, so the later features were noted as coming first, and the .pb written from the stream
// differed from the one converted in memory.
TEST(PipeHeader, FeaturesAfterTheFirstRecordAreNotPlacedOnEitherPath) {
  testing::ScratchDir dir;
  std::vector<std::byte> bytes;
  const auto put = [&bytes](auto value) {
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes.insert(bytes.end(), p, p + sizeof value);
  };
  const auto put_record = [&](std::uint32_t type, const std::vector<std::byte>& payload,
                              std::uint16_t misc = 0) {
    put(type);
    put(misc);
    put(static_cast<std::uint16_t>(8 + payload.size()));
    bytes.insert(bytes.end(), payload.begin(), payload.end());
  };
  bytes.insert(bytes.end(), {std::byte{'P'}, std::byte{'E'}, std::byte{'R'}, std::byte{'F'},
                             std::byte{'I'}, std::byte{'L'}, std::byte{'E'}, std::byte{'2'}});
  put(std::uint64_t{16});
  put_record(record_type::comm, std::vector<std::byte>(24, std::byte{'c'}));
  put_record(record_type::header_feature,
             test::header_feature_payload(feature::hostname, encode_feature_string("vm")),
             0xf800);  // not the order a writer gives
  put_record(record_type::finished_round, {});
  const auto path = dir / "late-features.data";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }

  const auto whole = read_perf_data(path);
  ASSERT_TRUE(whole) << whole.error().message;
  EXPECT_TRUE(whole->pipe_header.empty());
  EXPECT_EQ(decode_feature_string(whole->features.at(feature::hostname)), "vm");
  ASSERT_EQ(whole->records.size(), 2u);

  test::RecordCollector keep;
  const auto streamed = stream_perf_data(path, keep);
  ASSERT_TRUE(streamed) << streamed.error().message;
  EXPECT_EQ(streamed->header.pipe_header, whole->pipe_header);
  EXPECT_EQ(streamed->header.features, whole->features);
  EXPECT_EQ(keep.records, whole->records);

  auto writer = PerfDataProtoWriter::create(dir / "streamed.pb", streamed->header);
  ASSERT_TRUE(writer) << writer.error().message;
  for (const auto& r : keep.records) ASSERT_FALSE(writer->write(r));
  ASSERT_FALSE(writer->finish(streamed->header));
  EXPECT_EQ(testing::read_text(dir / "streamed.pb"),
            to_perf_data_proto(*whole, ProtoFormat::binary).value());
}

// ---- the corpus, through pmudata and perf -----------------------------------------------------

std::vector<std::string> piped_corpus_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("perf.data.piped", 0) == 0) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

class PipedCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PipedCorpus, RoundTripsLookTheSameToPerf) {
  const auto original = kCorpus / GetParam();
  if (!std::filesystem::exists(original)) GTEST_SKIP() << "corpus absent";
  if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  testing::ScratchDir dir;
  const auto convert = [&](const std::filesystem::path& in, const std::filesystem::path& out,
                           const std::string& to) {
    const auto r = testing::run_command(kTool + " convert " + to + " '" + in.string() + "' '" +
                                        out.string() + "'");
    return r.status == 0 ? std::string() : r.err;
  };
  ASSERT_EQ(convert(original, dir / "rewritten.data", "--to pipe"), "");
  ASSERT_EQ(convert(original, dir / "p.pb", ""), "");
  ASSERT_EQ(convert(dir / "p.pb", dir / "from-pb.data", ""), "");
  ASSERT_EQ(convert(original, dir / "p.pbtxt", ""), "");
  ASSERT_EQ(convert(dir / "p.pbtxt", dir / "from-pbtxt.data", ""), "");
  const auto want = read_perf_data(original);
  ASSERT_TRUE(want);
  for (const auto* name : {"rewritten.data", "from-pb.data", "from-pbtxt.data"}) {
    const auto got = read_perf_data(dir / name);
    ASSERT_TRUE(got) << name;
    EXPECT_EQ(got->pipe_header, want->pipe_header) << name;
    EXPECT_EQ(*got, *want) << name;
    for (const auto& [command, sorted] :
         std::vector<std::pair<std::string, bool>>{{"evlist -v", false},
                                                   {"report --header-only -I", false},
                                                   {"script", false},
                                                   {"report --stdio", true}}) {
      // `captured on` is the rewrite's own time.
      const testing::PerfViewOptions view{.sorted = sorted, .without_capture_time = true};
      EXPECT_EQ(testing::perf_view(command, dir / name, view),
                testing::perf_view(command, original, view))
          << name << ": perf " << command;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, PipedCorpus, ::testing::ValuesIn(piped_corpus_files()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PipedCorpus);

}  // namespace
PMUCAT_END_NAMESPACE

// Truncated, bit-flipped and other-endian inputs: errors with offsets, never crashes.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <fstream>

#include "model_builder.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::vector<std::byte> demo_image(PerfDataMode mode, std::uint32_t events) {
  testing::ScratchDir dir;
  test::ModelSpec spec;
  spec.mode = mode;
  spec.events = events;
  const auto model = test::demo_model(spec);
  EXPECT_FALSE(write_perf_data(dir / "x.data", model, options_like(model)));
  return testing::read_bytes(dir / "x.data");
}

TEST(PerfDataHostile, EveryTruncationIsAnErrorOrAShorterValidFile) {
  for (auto mode : {PerfDataMode::file, PerfDataMode::pipe}) {
    const auto image = demo_image(mode, 2);
    for (std::size_t n = 0; n < image.size(); ++n) {
      const auto result = parse_perf_data(std::span(image).first(n), "cut.data");
      if (mode == PerfDataMode::file) {
        // File mode ends with feature payloads whose index points past a cut.
        ASSERT_FALSE(result) << "accepted a file cut to " << n << " bytes";
        EXPECT_NE(result.error().message.find("offset"), std::string::npos)
            << result.error().message;
        EXPECT_EQ(result.error().range.file, "cut.data");
      } else if (!result) {
        EXPECT_FALSE(result.error().message.empty());
      }
      (void)check_perf_data(std::span(image).first(n), "cut.data");
    }
  }
}

TEST(PerfDataHostile, ACutPipeStreamKeepsTheRecordsBeforeTheCut) {
  const auto image = demo_image(PerfDataMode::pipe, 2);
  const auto whole = parse_perf_data(image, "whole.data");
  ASSERT_TRUE(whole);
  ASSERT_GE(whole->records.size(), 3u);
  // Cut 5 bytes into the last record.
  const std::uint64_t last = whole->records.back().file_offset;
  const auto cut = std::span(image).first(static_cast<std::size_t>(last + 5));
  const auto result = parse_perf_data(cut, "cut.data");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->records.size(), whole->records.size() - 1);
  EXPECT_TRUE(std::equal(result->records.begin(), result->records.end(), whole->records.begin()));
  const auto problems = check_perf_data(cut, "cut.data");
  ASSERT_FALSE(problems.empty());
  const auto& warning = problems.front();
  EXPECT_EQ(warning.severity, Severity::warning);
  EXPECT_NE(warning.message.find("cut inside"), std::string::npos) << warning.message;
  EXPECT_NE(warning.message.find(std::to_string(last)), std::string::npos) << warning.message;
  // A file-mode data section cut the same way stays an error.
  const auto file_image = demo_image(PerfDataMode::file, 2);
  EXPECT_FALSE(parse_perf_data(std::span(file_image).first(file_image.size() - 300), "f.data"));
}

TEST(PerfDataHostile, NamesTheOffsetOfABadRecord) {
  auto image = demo_image(PerfDataMode::file, 1);
  // The first record (COMM) starts at data.offset = 256; make its size 4.
  image[256 + 6] = std::byte{4};
  image[256 + 7] = std::byte{0};
  const auto result = parse_perf_data(image, "bad.data");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("offset 262"), std::string::npos) << result.error().message;
  EXPECT_EQ(result.error().range.offset, 262u);
}

TEST(PerfDataHostile, HugeSectionsAreNotAllocated) {
  auto image = demo_image(PerfDataMode::file, 1);
  for (std::size_t i = 0; i < 8; ++i) image[48 + i] = std::byte{0xff};  // data.size
  const auto result = parse_perf_data(image, "huge.data");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("data section"), std::string::npos);
}

TEST(PerfDataHostile, NotPerfData) {
  const std::string text = "this is not a perf.data file at all";
  std::vector<std::byte> bytes;
  for (char c : text) bytes.push_back(static_cast<std::byte>(c));
  const auto result = parse_perf_data(bytes, "t");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("magic"), std::string::npos);
  EXPECT_FALSE(read_perf_data("/nonexistent/dir/x.data"));
}

RC_GTEST_PROP(PerfDataHostile, BitFlipsNeverCrash, ()) {
  const auto mode = *rc::gen::element(PerfDataMode::file, PerfDataMode::pipe);
  auto image = demo_image(mode, *rc::gen::inRange<std::uint32_t>(1, 3));
  const auto flips = *rc::gen::inRange(1, 8);
  for (int i = 0; i < flips; ++i) {
    const auto at = *rc::gen::inRange<std::size_t>(0, image.size());
    const auto bit = *rc::gen::inRange(0, 8);
    image[at] ^= static_cast<std::byte>(1 << bit);
  }
  const auto result = parse_perf_data(image, "flipped.data");
  if (result) {
    // Whatever parsed must also be writable and re-readable without loss.
    testing::ScratchDir dir;
    if (!result->other_endian && !write_perf_data(dir / "w.data", *result, options_like(*result))) {
      const auto again = read_perf_data(dir / "w.data");
      RC_ASSERT(again.has_value());
      RC_ASSERT(again->records == result->records);
    }
  } else {
    RC_ASSERT(!result.error().message.empty());
  }
  (void)check_perf_data(image, "flipped.data");
}

RC_GTEST_PROP(PerfDataHostile, RandomBytesNeverCrash, ()) {
  auto raw = *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>());
  std::vector<std::byte> image;
  const char* magic = *rc::gen::arbitrary<bool>() ? "PERFILE2" : "2ELIFREP";
  for (int i = 0; i < 8; ++i) image.push_back(static_cast<std::byte>(magic[i]));
  for (auto b : raw) image.push_back(static_cast<std::byte>(b));
  (void)parse_perf_data(image, "random.data");
  (void)check_perf_data(image, "random.data");
}

std::vector<std::byte> image_of(const PerfData& model) {
  testing::ScratchDir dir;
  EXPECT_FALSE(write_perf_data(dir / "x.data", model, options_like(model)));
  return testing::read_bytes(dir / "x.data");
}

bool has_problem(const std::vector<Diagnostic>& problems, Severity severity,
                 std::string_view text) {
  for (const auto& p : problems) {
    if (p.severity == severity && p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string all_messages(const std::vector<Diagnostic>& problems) {
  std::string out;
  for (const auto& p : problems) out += p.message + "\n";
  return out;
}

// perf 6.1: "failed to process type: 99" and it stops reading; kernel-range unknowns are only
// counted ("Found 1 unknown events!").
TEST(PerfDataCheck, RecordTypesPerfRefusesAreErrors) {
  for (const std::uint32_t type : {99u, 84u, 30u}) {
    auto model = test::demo_model({});
    Record r;
    r.type = type;
    r.payload.resize(8);
    model.records.insert(model.records.begin() + 1, r);
    const auto problems = check_perf_data(image_of(model), "t.data");
    const bool refused = type >= 84;  // 83 is COMPRESSED2: compressed_test
    EXPECT_EQ(has_problem(problems, Severity::error, "record type " + std::to_string(type)),
              refused)
        << all_messages(problems);
    EXPECT_TRUE(
        has_problem(problems, refused ? Severity::error : Severity::warning, "unknown to perf 6.1"))
        << all_messages(problems);
  }
}

TEST(PerfDataCheck, SampleTypeBitsPerf61DoesNotKnowAreErrors) {
  auto model = test::demo_model({});
  model.events.front().attr.sample_type |= std::uint64_t{1} << 25;
  model.records.resize(1);  // no samples laid out for the unknown bit
  const auto problems = check_perf_data(image_of(model), "s.data");
  EXPECT_TRUE(has_problem(problems, Severity::error, "sample_type bits 0x2000000"))
      << all_messages(problems);
}

TEST(PerfDataCheck, CpuTopologyCountsMustMatchThePayload) {
  auto model = test::demo_model({});
  model.features[feature::nrcpus] = encode_nrcpus(2, 2);
  CpuTopology topology;
  topology.core_siblings = {"0-1"};
  topology.thread_siblings = {"0", "1"};
  topology.cpus = {{0, 0}, {1, 0}};
  model.features[feature::cpu_topology] = encode_cpu_topology(topology);
  EXPECT_FALSE(has_problem(check_perf_data(image_of(model), "c.data"), Severity::error, "CPU_"));
  // Claim 3 thread-sibling strings: the core/socket ids are then read as a string.
  auto& payload = model.features[feature::cpu_topology];
  const std::size_t threads_nr_at = 4 + 4 + 64;
  payload[threads_nr_at] = std::byte{3};
  const auto image = image_of(model);
  const auto problems = check_perf_data(image, "c.data");
  ASSERT_TRUE(has_problem(problems, Severity::error, "CPU_TOPOLOGY counts do not match"))
      << all_messages(problems);
  for (const auto& p : problems) {
    if (p.message.find("CPU_TOPOLOGY") == std::string::npos) continue;
    // The feature's own offset, not 0: its payload is found there.
    ASSERT_GT(p.range.offset, 0u);
    ASSERT_LT(p.range.offset + payload.size(), image.size() + 1);
    EXPECT_EQ(std::to_integer<int>(image[p.range.offset]), 1) << p.message;  // core list nr
  }
}

TEST(PerfDataCheck, FeatureProblemsNameTheFeatureOffset) {
  auto model = test::demo_model({});
  model.features[feature::pmu_mappings] = encode_pmu_mappings({});
  for (auto mode : {PerfDataMode::file, PerfDataMode::pipe}) {
    model.mode = mode;
    const auto problems = check_perf_data(image_of(model), "f.data");
    bool seen = false;
    for (const auto& p : problems) {
      if (p.message.find("PMU_MAPPINGS is empty") == std::string::npos) continue;
      seen = true;
      EXPECT_GT(p.range.offset, 40u) << p.message;
    }
    EXPECT_TRUE(seen) << all_messages(problems);
  }
}

// perf record -z writes COMPRESSED records of 8 + the zstd frame's size, not padded to 8, and
// the samples are inside them.
TEST(PerfDataCheck, CompressedRecordsRaiseNoFalseAlarm) {
  auto model = test::demo_model({});
  model.records.resize(1);
  Record compressed;
  compressed.type = record_type::compressed;
  compressed.payload.resize(13);
  model.records.push_back(compressed);
  const auto problems = check_perf_data(image_of(model), "z.data");
  EXPECT_FALSE(has_problem(problems, Severity::warning, "multiple of 8")) << all_messages(problems);
  EXPECT_FALSE(has_problem(problems, Severity::warning, "no SAMPLE")) << all_messages(problems);
}

TEST(PerfDataInput, DirectoriesShortInputsAndUnknownFirstBytesAreRefused) {
  testing::ScratchDir dir;
  const auto refused = [](const std::filesystem::path& path, std::string_view text) {
    const auto input = read_input(path);
    ASSERT_FALSE(input) << path;
    EXPECT_NE(input.error().message.find(text), std::string::npos) << input.error().message;
  };
  refused(dir.path(), "is a directory");
  std::filesystem::create_directory(dir / "threads");
  std::ofstream(dir / "threads" / "data") << "x";
  std::ofstream(dir / "threads" / "data.0") << "x";
  refused(dir / "threads", "perf.data directory (perf record --threads");
  std::ofstream(dir / "empty");
  refused(dir / "empty", "0 bytes is too short");
  std::ofstream(dir / "two") << "ab";
  refused(dir / "two", "2 bytes is too short");
  std::ofstream(dir / "zeros") << std::string(4096, '\0');
  refused(dir / "zeros", "neither perf.data");
}

TEST(PerfDataInput, DeclaredSizesAndTheCapAreCheckedWhileReading) {
  testing::ScratchDir dir;
  // A pipe-mode header, then a record whose size (0) can never be valid.
  std::string pipe = "PERFILE2";
  pipe += std::string("\x10\0\0\0\0\0\0\0", 8) + std::string(64, '\0');
  std::ofstream(dir / "pipe.data") << pipe;
  auto input = read_input(dir / "pipe.data");
  ASSERT_FALSE(input);
  EXPECT_NE(input.error().message.find("record size 0"), std::string::npos)
      << input.error().message;
  // Records whose data after them (AUXTRACE, a pipe TRACING_DATA blob) declare more than the cap.
  for (const auto& [type, name] : {std::pair{record_type::auxtrace, "AUXTRACE"},
                                   std::pair{record_type::header_tracing_data, "TRACING_DATA"}}) {
    std::string record(48, '\0');
    record[0] = static_cast<char>(type);
    record[6] = 48;
    record[8 + 3] = 1;  // size field 1 << 24: 16 MiB of data
    std::ofstream(dir / "data.data")
        << "PERFILE2" << std::string("\x10\0\0\0\0\0\0\0", 8) << record;
    input = read_input(dir / "data.data", InputLimits::uniform(1 << 20));
    ASSERT_FALSE(input) << name;
    EXPECT_NE(input.error().message.find(std::string("a ") + name +
                                         " record of 16777264 bytes "
                                         "with its data exceeds the 1 MiB input limit"),
              std::string::npos)
        << input.error().message;
  }
  // A binary proto whose first field declares more bytes than the cap.
  std::ofstream(dir / "len.pb") << std::string("\x0a\xff\xff\xff\xff\x0f", 6) << "abcdef";
  input = read_input(dir / "len.pb", InputLimits::uniform(1 << 20));
  ASSERT_FALSE(input);
  EXPECT_NE(input.error().message.find("more than the 1 MiB input limit"), std::string::npos)
      << input.error().message;
  // A valid file larger than the cap is refused before it is read.
  const auto image = demo_image(PerfDataMode::file, 1);
  std::ofstream(dir / "big.data", std::ios::binary)
      .write(reinterpret_cast<const char*>(image.data()),
             static_cast<std::streamsize>(image.size()));
  input = read_input(dir / "big.data", InputLimits::uniform(1024));
  ASSERT_FALSE(input);
  EXPECT_NE(input.error().message.find("exceeds the 1 KiB"), std::string::npos)
      << input.error().message;
  input = read_input(dir / "big.data");
  ASSERT_TRUE(input) << input.error().message;
  EXPECT_EQ(input->bytes, image);
  EXPECT_EQ(input->kind, InputKind::perf_data);
}

TEST(PerfDataInput, ByteSizes) {
  EXPECT_EQ(parse_byte_size("16M"), std::uint64_t{16} << 20);
  EXPECT_EQ(parse_byte_size("1GiB"), std::uint64_t{1} << 30);
  EXPECT_EQ(parse_byte_size("100"), 100u);
  EXPECT_FALSE(parse_byte_size("M"));
  EXPECT_FALSE(parse_byte_size("12X"));
  EXPECT_FALSE(parse_byte_size("99999999999999999999"));
  EXPECT_EQ(format_byte_size(std::uint64_t{32} << 20), "32 MiB");
  EXPECT_EQ(format_byte_size(100), "100 bytes");
}

// A big-endian file built by hand: header, one 64-byte attr with one id, one record, HOSTNAME.
class BigEndianImage {
 public:
  BigEndianImage& u64(std::uint64_t v) { return put(v, 8); }
  BigEndianImage& u32(std::uint64_t v) { return put(v, 4); }
  BigEndianImage& u16(std::uint64_t v) { return put(v, 2); }
  BigEndianImage& put(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) bytes.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
    return *this;
  }
  std::vector<std::byte> bytes;
};

TEST(PerfDataOtherEndian, ReadsABigEndianFile) {
  BigEndianImage f;
  const std::uint64_t ids_at = 104, attrs_at = 112, attr_size = 64 + 16, data_at = 192;
  f.u64(0x32454c4946524550ull).u64(104).u64(attr_size);
  f.u64(attrs_at).u64(attr_size).u64(data_at).u64(8).u64(0).u64(0);
  f.u64(std::uint64_t{1} << feature::hostname).u64(0).u64(0).u64(0);
  f.u64(77);  // the id
  // attr: type 4, size 64, config 0x1c2, period 1000, sample_type IP, read_format 0, flags:
  // `disabled` is the most significant bit of the first flags byte on big-endian.
  f.u32(4).u32(64).u64(0x1c2).u64(1000).u64(1).u64(0);
  f.bytes.push_back(std::byte{0x80});
  for (int i = 0; i < 7; ++i) f.bytes.push_back(std::byte{0});
  f.u32(0).u32(0).u64(0x3);  // wakeup, bp_type, config1
  f.u64(ids_at).u64(8);
  ASSERT_EQ(f.bytes.size(), data_at);
  f.u32(record_type::finished_round).u16(0).u16(8);
  f.u64(data_at + 8 + 16).u64(8);  // feature index: HOSTNAME
  f.u32(4).bytes.insert(f.bytes.end(),
                        {std::byte{'b'}, std::byte{'e'}, std::byte{0}, std::byte{0}});
  const auto data = parse_perf_data(f.bytes, "be.data");
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_TRUE(data->other_endian);
  ASSERT_EQ(data->events.size(), 1u);
  const Attr& a = data->events[0].attr;
  EXPECT_EQ(a.type, 4u);
  EXPECT_EQ(a.config[0], 0x1c2u);
  EXPECT_EQ(a.config[1], 0x3u);
  EXPECT_EQ(a.sample_period, 1000u);
  EXPECT_TRUE(a.disabled);
  EXPECT_FALSE(a.inherit);
  EXPECT_EQ(data->events[0].ids, std::vector<std::uint64_t>{77});
  ASSERT_EQ(data->records.size(), 1u);
  EXPECT_EQ(data->records[0].type, record_type::finished_round);
  EXPECT_TRUE(data->features.count(feature::hostname));
  testing::ScratchDir dir;
  EXPECT_TRUE(write_perf_data(dir / "out.data", *data, options_like(*data)));
}

}  // namespace
PMUCAT_END_NAMESPACE

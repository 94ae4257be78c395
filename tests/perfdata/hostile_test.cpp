// Truncated, bit-flipped and other-endian inputs: errors with offsets, never crashes.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model_builder.h"
#include "pmucat/perfdata.h"
#include "run_command.h"

namespace pmucat {
namespace {

std::vector<std::byte> demo_image(PerfDataMode mode, std::uint32_t events) {
  test::TempDir dir;
  test::ModelSpec spec;
  spec.mode = mode;
  spec.events = events;
  const auto model = test::demo_model(spec);
  EXPECT_FALSE(write_perf_data(dir / "x.data", model, options_like(model)));
  return test::file_bytes(dir / "x.data");
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
    test::TempDir dir;
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
  test::TempDir dir;
  EXPECT_TRUE(write_perf_data(dir / "out.data", *data, options_like(*data)));
}

}  // namespace
}  // namespace pmucat

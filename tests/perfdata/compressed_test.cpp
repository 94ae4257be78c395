// COMPRESSED records (perf record -z): records compressed as one zstd stream over several
// COMPRESSED records, with a record split across two of them, come back whole and in order.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "model_builder.h"
#include "pmucat/perfdata.h"

#ifdef PMUCAT_TEST_ZSTD
#include <zstd.h>
#endif

PMUCAT_BEGIN_NAMESPACE
namespace {

std::vector<std::byte> bytes_of(const Record& r) {
  std::vector<std::byte> out(8 + r.payload.size());
  const std::uint32_t type = r.type;
  const std::uint16_t misc = r.misc, size = static_cast<std::uint16_t>(r.size());
  std::memcpy(out.data(), &type, 4);
  std::memcpy(out.data() + 4, &misc, 2);
  std::memcpy(out.data() + 6, &size, 2);
  if (!r.payload.empty()) std::memcpy(out.data() + 8, r.payload.data(), r.payload.size());
  return out;
}

// A model's records, one after the other, as the bytes perf compresses.
std::vector<std::byte> record_bytes(const PerfData& model) {
  std::vector<std::byte> plain;
  for (const auto& r : model.records) {
    const auto b = bytes_of(r);
    plain.insert(plain.end(), b.begin(), b.end());
  }
  return plain;
}

// The records inside `compressed`, expanded in order by one CompressedRecords (one zstd
// stream); an expansion error fails the test and ends the list there.
std::vector<Record> expand_all(const std::vector<Record>& compressed) {
  CompressedRecords expander;
  std::vector<Record> back;
  for (const auto& c : compressed) {
    const auto error = expander.expand(c, false, [&](const Record& r) { back.push_back(r); });
    if (error) {
      ADD_FAILURE() << *error;
      break;
    }
  }
  return back;
}

TEST(CompressedRecords, ExpandsRecordsSplitAcrossCompressedRecords) {
#ifndef PMUCAT_TEST_ZSTD
  EXPECT_FALSE(CompressedRecords::supported());
  GTEST_SKIP() << "built without zstd";
#else
  ASSERT_TRUE(CompressedRecords::supported());
  test::ModelSpec spec;
  spec.samples = 50;
  const PerfData model = test::demo_model(spec);
  const std::vector<std::byte> plain = record_bytes(model);
  // One stream, flushed in pieces of 100 bytes: records straddle COMPRESSED records.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::vector<Record> compressed;
  for (std::size_t at = 0; at < plain.size(); at += 100) {
    const std::size_t n = std::min<std::size_t>(100, plain.size() - at);
    std::vector<std::byte> out(ZSTD_compressBound(n) + 64);
    ZSTD_inBuffer in{plain.data() + at, n, 0};
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ASSERT_EQ(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_flush), 0u);
    out.resize(o.pos);
    Record c;
    c.type = record_type::compressed;
    c.payload = std::move(out);
    compressed.push_back(std::move(c));
  }
  ZSTD_freeCCtx(cctx);
  ASSERT_GT(compressed.size(), 2u);
  EXPECT_EQ(expand_all(compressed), model.records);
  // Garbage is an error, not a crash.
  Record bad;
  bad.type = record_type::compressed;
  bad.payload.assign(64, std::byte{0x5a});
  CompressedRecords fresh;
  EXPECT_TRUE(fresh.expand(bad, false, [](const Record&) {}));
#endif
}

#ifdef PMUCAT_TEST_ZSTD
// `plain` compressed as one zstd stream flushed every `piece` bytes; every other record is a
// COMPRESSED2 (u64 data_size, the zstd bytes, zero padding to 8 bytes), the rest COMPRESSED.
std::vector<Record> compress_mixed(const std::vector<std::byte>& plain, std::size_t piece) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::vector<Record> out;
  for (std::size_t at = 0; at < plain.size(); at += piece) {
    const std::size_t n = std::min<std::size_t>(piece, plain.size() - at);
    std::vector<std::byte> z(ZSTD_compressBound(n) + 64);
    ZSTD_inBuffer in{plain.data() + at, n, 0};
    ZSTD_outBuffer o{z.data(), z.size(), 0};
    EXPECT_EQ(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_flush), 0u);
    z.resize(o.pos);
    Record c;
    if (out.size() % 2 == 1) {
      c.type = record_type::compressed2;
      const std::uint64_t data_size = z.size();
      // The record stays 8-byte aligned: zero padding after the zstd bytes.
      c.payload.assign((8 + z.size() + 7) / 8 * 8, std::byte{0});
      std::memcpy(c.payload.data(), &data_size, 8);
      std::memcpy(c.payload.data() + 8, z.data(), z.size());
    } else {
      c.type = record_type::compressed;
      c.payload = std::move(z);
    }
    out.push_back(std::move(c));
  }
  ZSTD_freeCCtx(cctx);
  return out;
}
#endif

TEST(CompressedRecords, Compressed2HasADataSizeAndPadding) {
#ifndef PMUCAT_TEST_ZSTD
  GTEST_SKIP() << "built without zstd";
#else
  EXPECT_EQ(record_type_name(record_type::compressed2), "COMPRESSED2");
  test::ModelSpec spec;
  spec.samples = 40;
  const PerfData model = test::demo_model(spec);
  const std::vector<std::byte> plain = record_bytes(model);
  const auto compressed = compress_mixed(plain, 90);
  ASSERT_GT(compressed.size(), 3u);
  std::size_t padded = 0;
  for (const auto& c : compressed) {
    if (c.type == record_type::compressed2) {
      EXPECT_EQ(c.size() % 8, 0u);
      std::uint64_t data_size = 0;
      std::memcpy(&data_size, c.payload.data(), 8);
      padded += data_size + 8 != c.payload.size();
    }
  }
  EXPECT_GT(padded, 0u) << "no COMPRESSED2 record has padding: the test proves nothing";
  EXPECT_EQ(expand_all(compressed), model.records);

  // Written into a file: checked clean, and every record inside is checked and streamed.
  PerfData file = model;
  file.records = compressed;
  const auto path = std::filesystem::temp_directory_path() /
                    ("pmucat-compressed2-" + std::to_string(::getpid()) + ".data");
  ASSERT_FALSE(write_perf_data(path, file, {}));
  // One warning: perf 6.1 does not know COMPRESSED2; nothing inside is a problem.
  const auto problems = check_perf_data_file(path);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems.front().severity, Severity::warning);
  EXPECT_NE(problems.front().message.find("COMPRESSED2"), std::string::npos);
  std::filesystem::remove(path);

  // A data_size past the record, or a record too short for one, is an error.
  Record bad;
  bad.type = record_type::compressed2;
  bad.payload.assign(16, std::byte{0});
  bad.payload[0] = std::byte{9};
  CompressedRecords fresh;
  const auto error = fresh.expand(bad, false, [](const Record&) {});
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("data_size 9"), std::string::npos) << *error;
  bad.payload.assign(4, std::byte{0});
  EXPECT_TRUE(CompressedRecords().expand(bad, false, [](const Record&) {}));
#endif
}

}  // namespace
PMUCAT_END_NAMESPACE

// COMPRESSED records (perf record -z): records compressed as one zstd stream over several
// COMPRESSED records, with a record split across two of them, come back whole and in order.
#include <gtest/gtest.h>

#include <cstring>

#include "model_builder.h"
#include "pmucat/perfdata.h"

#ifdef PMUCAT_TEST_ZSTD
#include <zstd.h>
#endif

namespace pmucat {
namespace {

std::vector<std::byte> bytes_of(const Record& r) {
  std::vector<std::byte> out(8);
  const std::uint32_t type = r.type;
  const std::uint16_t misc = r.misc, size = static_cast<std::uint16_t>(r.size());
  std::memcpy(out.data(), &type, 4);
  std::memcpy(out.data() + 4, &misc, 2);
  std::memcpy(out.data() + 6, &size, 2);
  out.insert(out.end(), r.payload.begin(), r.payload.end());
  return out;
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
  std::vector<std::byte> plain;
  for (const auto& r : model.records) {
    const auto b = bytes_of(r);
    plain.insert(plain.end(), b.begin(), b.end());
  }
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
  CompressedRecords expander;
  std::vector<Record> back;
  for (const auto& c : compressed) {
    const auto error = expander.expand(c, false, [&](const Record& r) { back.push_back(r); });
    ASSERT_FALSE(error) << *error;
  }
  EXPECT_EQ(back, model.records);
  // Garbage is an error, not a crash.
  Record bad;
  bad.type = record_type::compressed;
  bad.payload.assign(64, std::byte{0x5a});
  CompressedRecords fresh;
  EXPECT_TRUE(fresh.expand(bad, false, [](const Record&) {}));
#endif
}

}  // namespace
}  // namespace pmucat

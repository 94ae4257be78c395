// The streaming perf.data reader (stream_perf_data, check_perf_data_file) on the input written
// to a file, against the in-memory reader on the same bytes. Invariants: both accept or both
// reject; the streamed header and records equal the model's; the streaming check reports what
// the in-memory check reports (in any order); PerfDataProtoWriter writes the bytes
// to_perf_data_proto gives.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_proto.h"

namespace {

class Collect : public pmucat::PerfDataVisitor {
 public:
  std::optional<pmucat::Diagnostic> begin(const pmucat::PerfData&) override {
    ++begins;
    return std::nullopt;
  }
  std::optional<pmucat::Diagnostic> record(const pmucat::Record& r) override {
    records.push_back(r);
    return std::nullopt;
  }
  int begins = 0;
  std::vector<pmucat::Record> records;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> image(reinterpret_cast<const std::byte*>(data), size);
  const std::filesystem::path path = fuzz_scratch_file("pmucat-stream-fuzz");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto whole = pmucat::parse_perf_data(image, path.string());
  Collect collect;
  auto streamed = pmucat::stream_perf_data(path, collect);
  PMUCAT_FUZZ_CHECK(whole.has_value() == streamed.has_value());
  if (whole) {
    PMUCAT_FUZZ_CHECK(collect.begins == 1);
    PMUCAT_FUZZ_CHECK(collect.records == whole->records);
    PMUCAT_FUZZ_CHECK(streamed->records == whole->records.size());
    PMUCAT_FUZZ_CHECK(streamed->header.events == whole->events);
    PMUCAT_FUZZ_CHECK(streamed->header.features == whole->features);
    auto proto = pmucat::to_perf_data_proto(*whole, pmucat::ProtoFormat::binary);
    const std::filesystem::path pb = fuzz_scratch_file("pmucat-stream-fuzz");
    auto writer = pmucat::PerfDataProtoWriter::create(pb, streamed->header);
    PMUCAT_FUZZ_CHECK(proto.has_value() == writer.has_value());
    if (writer) {
      for (const auto& r : collect.records) PMUCAT_FUZZ_CHECK(!writer->write(r));
      PMUCAT_FUZZ_CHECK(!writer->finish(streamed->header));
      PMUCAT_FUZZ_CHECK(slurp(pb) == *proto);
    }
    std::error_code ignored;
    std::filesystem::remove(pb, ignored);
  }
  const auto in_memory = pmucat::check_perf_data(image, path.string());
  const auto from_file = pmucat::check_perf_data_file(path);
  // The same problems (a pipe stream's EVENT_DESC warning may come earlier when streamed). On a
  // file with a fatal problem the streaming check stops at the first one in its reading order
  // (header and feature sections before the records, docs/perfdata.md), where the in-memory
  // check has walked the records first: then both report an error and every error the
  // streaming check reports is one the in-memory check reports.
  std::vector<std::string> a, b;
  for (const auto& d : in_memory) a.push_back(d.message);
  for (const auto& d : from_file) b.push_back(d.message);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const auto has_error = [](const std::vector<pmucat::Diagnostic>& ds) {
    return std::any_of(ds.begin(), ds.end(), [](const pmucat::Diagnostic& d) {
      return d.severity == pmucat::Severity::error;
    });
  };
  if (has_error(in_memory)) {
    // Errors only: the warnings of the sections each reads before its fatal problem differ.
    const auto errors = [](const std::vector<pmucat::Diagnostic>& ds) {
      std::vector<std::string> out;
      for (const auto& d : ds) {
        if (d.severity == pmucat::Severity::error) out.push_back(d.message);
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    const auto in_memory_errors = errors(in_memory);
    const auto streamed_errors = errors(from_file);
    PMUCAT_FUZZ_CHECK(!streamed_errors.empty());
    PMUCAT_FUZZ_CHECK(std::includes(in_memory_errors.begin(), in_memory_errors.end(),
                                    streamed_errors.begin(), streamed_errors.end()));
  } else {
    if (a != b) {
      // Both lists, so that a finding says which problem one check reports and the other not.
      for (const auto& m : a) std::fprintf(stderr, "in memory: %s\n", m.c_str());
      for (const auto& m : b) std::fprintf(stderr, "streamed:  %s\n", m.c_str());
    }
    PMUCAT_FUZZ_CHECK(a == b);
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return 0;
}

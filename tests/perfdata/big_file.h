// Writes a large, valid perf.data for the streaming tests and bench/perfdata: the demo model's
// events and features (model_builder.h), one COMM, then samples (and a FINISHED_ROUND every
// 4096) until the file reaches `bytes`. Written through PerfDataWriter, so memory stays small.
#pragma once

#include <filesystem>
#include <optional>

#include "model_builder.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace test {

inline std::optional<Diagnostic> write_big_perf_data(const std::filesystem::path& path,
                                                     std::uint64_t bytes, PerfDataMode mode,
                                                     std::uint32_t events = 2) {
  ModelSpec spec;
  spec.events = events;
  spec.samples = 0;
  spec.mode = mode;
  const PerfData model = demo_model(spec);
  WriterOptions options = options_like(model);
  auto writer = PerfDataWriter::create(path, model.events, model.features, options);
  if (!writer) return std::move(writer).error();
  for (const auto& r : model.records) {
    if (r.type == record_type::finished_round) continue;
    if (auto e = writer->write(r)) return e;
  }
  SampleFields f;
  f.pid = f.tid = 4242;
  f.period = 1000;
  for (std::uint64_t s = 0; writer->bytes_written() < bytes; ++s) {
    const auto e = static_cast<std::uint32_t>(s % model.events.size());
    f.identifier = 100 + e;
    f.ip = 0x400000 + 16 * (s % 65536);
    f.time = 1'000'000'001 + s;
    if (auto error = writer->write(make_sample_record(f, model.events[e].attr, 2))) return error;
    if (s % 4096 == 4095) {
      if (auto error = writer->write(make_finished_round_record())) return error;
    }
  }
  return writer->finish();
}

}  // namespace test
PMUCAT_END_NAMESPACE

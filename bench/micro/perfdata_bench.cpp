// Writing perf.data records with the streaming writer: records/s and bytes/s. Each iteration
// writes one batch into a fresh file (create, records, finish), so the file never grows without
// bound and the per-file costs are included, amortised over the batch.
#include <benchmark/benchmark.h>
#include <pmucat/perfdata.h>
#include <pmucat/perfdata_records.h>
#include <unistd.h>

#include <string>
#include <system_error>

#include "alloc_counter.h"
#include "register.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

Attr sampling_attr() {
  Attr attr;
  attr.type = static_cast<std::uint32_t>(PerfType::raw);
  attr.config[0] = 0x380013c;
  attr.sample_period = 100003;
  attr.sample_type = sample::ip | sample::tid | sample::time | sample::period | sample::id;
  attr.sample_id_all = true;
  return attr;
}

void perfdata_write(benchmark::State& state) {
  const auto batch = static_cast<std::uint64_t>(state.range(0));
  const Attr attr = sampling_attr();
  SampleFields fields;
  fields.ip = 0xffffffff81000000;
  fields.pid = fields.tid = static_cast<std::uint32_t>(getpid());
  fields.period = 100003;
  fields.id = 1;
  const fs::path path =
      fs::temp_directory_path() / ("pmucat-bench-" + std::to_string(getpid()) + ".data");
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  for (auto _ : state) {
    PerfEventEntry entry{attr, {1}, "cpu/event=0x3c,umask=0x1,inv,cmask=3/"};
    auto writer = PerfDataWriter::create(path, {entry}, {});
    if (!writer) {
      state.SkipWithError("cannot create the perf.data writer");
      break;
    }
    for (std::uint64_t i = 0; i < batch; ++i) {
      fields.time = i * 1000;
      fields.ip += 4;
      if (auto error = writer->write(make_sample_record(fields, attr, 1))) {
        state.SkipWithError(error->message.c_str());
        break;
      }
    }
    if (auto error = writer->finish()) state.SkipWithError(error->message.c_str());
    bytes += writer->bytes_written();
    records += writer->records_written();
  }
  std::error_code ignored;
  fs::remove(path, ignored);
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

}  // namespace

void register_perfdata_benchmarks() {
  benchmark::RegisterBenchmark("perfdata_write_samples", perfdata_write)
      ->Arg(10000)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace bench
PMUCAT_END_NAMESPACE

// Reading counts: perf stat -j and -x, output (captured from perf 6.1 here, and hand-written
// garbled lines), perf.data STAT records, multiplexing scaling and name matching.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/metric_counts.h"
#include "pmucat/metric_counts_perfdata.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::string data_file(std::string_view name) {
  std::string path = PMUCAT_SOURCE_DIR;
  path += "/tests/metrics/data/";
  path += name;
  return testing::read_text(path);
}

// A count built field by field (designated initializers would need every member under
// -Wmissing-field-initializers).
Count count_of(std::string event, double value, std::optional<std::uint64_t> enabled = {},
               std::optional<std::uint64_t> running = {},
               CountStatus status = CountStatus::counted) {
  Count count;
  count.event = std::move(event);
  count.value = value;
  count.enabled = enabled;
  count.running = running;
  count.status = status;
  return count;
}

TEST(StatJson, ReadsPerf61Output) {
  const CountsRead read = read_stat_json(data_file("perf-stat-sw.json"), "sw.json");
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(read.counts.size(), 4u);
  const Count* clock = read.counts.find("task-clock");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->unit, "msec");
  EXPECT_DOUBLE_EQ(clock->value, 3.398632);
  EXPECT_EQ(clock->running, 3398632u);
  EXPECT_DOUBLE_EQ(*clock->percent_running, 100.0);
  // The metric sees nanoseconds, as perf's stat-shadow undoes the msec scale.
  EXPECT_NEAR(*metric_input_value(*clock), 3398632.0, 0.5);
  EXPECT_DOUBLE_EQ(*metric_input_value(*read.counts.find("page-faults")), 48.0);
  EXPECT_EQ(read.counts.find("duration_time")->unit, "ns");
  EXPECT_EQ(read.counts.entries()[1].where.line, 4u);
}

TEST(StatCsv, ReadsPerf61Output) {
  const CountsRead read = read_stat_csv(data_file("perf-stat-sw.csv"), "sw.csv");
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(read.counts.size(), 4u);
  EXPECT_DOUBLE_EQ(*metric_input_value(*read.counts.find("task-clock")), 4.05e6);
  EXPECT_DOUBLE_EQ(read.counts.find("page-faults")->value, 48.0);
  EXPECT_EQ(read.counts.find("duration_time")->running, 17920093u);
}

TEST(StatText, DetectsTheFormat) {
  EXPECT_EQ(detect_counts_format(data_file("perf-stat-sw.json")), CountsFormat::json_lines);
  EXPECT_EQ(detect_counts_format(data_file("perf-stat-sw.csv")), CountsFormat::csv);
  EXPECT_EQ(detect_counts_format(std::string_view("PERFILE2\x68\0\0\0", 12)),
            CountsFormat::perf_data);
  EXPECT_EQ(read_stat_text(data_file("perf-stat-sw.csv"), "x").format, CountsFormat::csv);
}

TEST(StatCsv, NotCountedAndNotSupported) {
  const CountsRead read = read_stat_csv(
      "<not supported>,,cycles,0,100.00,,\n<not counted>,,instructions,0,0.00,,\n", "c.csv");
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_EQ(read.counts.size(), 2u);
  EXPECT_EQ(read.counts.find("cycles")->status, CountStatus::not_supported);
  EXPECT_EQ(read.counts.find("instructions")->status, CountStatus::not_counted);
  EXPECT_FALSE(metric_input_value(*read.counts.find("cycles")));
}

TEST(StatCsv, EventNamesWithTheSeparatorAndPrefixFields) {
  // -A (a CPU column), an interval time stamp, a name with commas, a variance column.
  const CountsRead read = read_stat_csv(
      "CPU0,100,,cpu/event=0x3c,umask=0x0/,2000,50.00,,\n"
      "     1.001000000,7,,faults,2000,100.00,,\n"
      "S0,2,9,,uops,1000,100.00,,\n"
      "12,,branches,0.50%,1000,100.00,1.0,M/sec\n"
      "     2.002000000,CPU3,11,,instructions,2000,100.00,0.50,insn per cycle\n",
      "c.csv");
  EXPECT_TRUE(read.diagnostics.empty()) << render(read.diagnostics.front());
  ASSERT_NE(read.counts.find("cpu/event=0x3c,umask=0x0/"), nullptr);
  EXPECT_DOUBLE_EQ(read.counts.find("cpu/event=0x3c,umask=0x0/")->value, 100);
  EXPECT_DOUBLE_EQ(read.counts.find("faults")->value, 7);
  EXPECT_DOUBLE_EQ(read.counts.find("uops")->value, 9);
  EXPECT_DOUBLE_EQ(read.counts.find("branches")->value, 12);
  // -I -A: the time stamp and the CPU before the value.
  ASSERT_NE(read.counts.find("instructions"), nullptr);
  EXPECT_DOUBLE_EQ(read.counts.find("instructions")->value, 11);
}

// perf stat prints a second metric beside one event on a line of its own: the time stamp and
// aggregation fields (when any), five empty fields where the count goes, the metric's value and
// unit. Such a line carries no count and is no error; one with a field filled where the count
// goes still is.
TEST(StatCsv, MetricOnlyLinesCarryNoCount) {
  const CountsRead read = read_stat_csv(
      "1,,context-switches,709761,100.00,1408.9,cs/sec  cs_per_second\n"
      ",,,,,0.0,CPUs  CPUs_utilized\n"
      "0.010000000,0.71,msec,task-clock,709761,100.00,,\n"
      "0.010000000,,,,,,2.1,GHz  cycles_frequency\n"
      "0.010000000,CPU1,,,,,,,\n"
      ",,,,x,0.0,CPUs  CPUs_utilized\n",
      "c.csv");
  EXPECT_EQ(read.counts.size(), 2u);
  ASSERT_EQ(read.diagnostics.size(), 1u);
  EXPECT_EQ(read.diagnostics[0].range.line, 6u);
}

TEST(StatCsv, GarbledLinesAreLocatedAndTheRestKept) {
  const std::string text =
      "1,,context-switches,10,100.00,,\n"
      "garbage here\n"
      "x,y,z,w,v,u\n"
      "48,,page-faults,10,100.00,,\n";
  const CountsRead read = read_stat_csv(text, "c.csv");
  EXPECT_EQ(read.counts.size(), 2u);
  ASSERT_EQ(read.diagnostics.size(), 2u);
  EXPECT_EQ(read.diagnostics[0].id, "counts-garbled");
  EXPECT_EQ(read.diagnostics[0].range.file, "c.csv");
  EXPECT_EQ(read.diagnostics[0].range.line, 2u);
  EXPECT_EQ(read.diagnostics[1].range.line, 3u);
  EXPECT_EQ(read.diagnostics[1].range.column, 1u);
  EXPECT_NE(read.diagnostics[1].message.find("'x'"), std::string::npos);
}

TEST(StatJson, GarbledLinesAreLocatedAndTheRestKept) {
  const std::string text =
      "{\"counter-value\" : \"1.000000\", \"unit\" : \"\", \"event\" : \"a\", \"event-runtime\" : "
      "5, \"pcnt-running\" : 100.00}\n"
      "{\"counter-value\" : \"1.0\", \"event\" : \n"
      "{\"counter-value\" : \"lots\", \"event\" : \"b\"}\n"
      "{\"counter-value\" : \"2\", \"event\" : \"c\", \"event-runtime\" : -4}\n"
      "{\"IPC\" : \"1.2\"}\n"
      "{\"counter-value\" : \"3.0\", \"event\" : \"d\"}\n";
  const CountsRead read = read_stat_json(text, "c.json");
  ASSERT_EQ(read.counts.size(), 2u);
  EXPECT_NE(read.counts.find("a"), nullptr);
  EXPECT_NE(read.counts.find("d"), nullptr);
  ASSERT_EQ(read.diagnostics.size(), 3u);
  EXPECT_EQ(read.diagnostics[0].range.line, 2u);
  EXPECT_EQ(read.diagnostics[1].range.line, 3u);
  EXPECT_EQ(read.diagnostics[1].range.column, 2u);  // at "counter-value"
  EXPECT_EQ(read.diagnostics[2].range.line, 4u);
}

// A perf stat -a -A -I line of `event` on `cpu` at `interval`.
std::string interval_line(int interval, int cpu, std::string_view event, int value) {
  return "{\"interval\" : " + std::to_string(interval) + ".100000, \"cpu\": \"" +
         std::to_string(cpu) + "\", \"counts\" : \"" + std::to_string(value) +
         "\", \"counter-value\" : \"" + std::to_string(value) +
         ".000000\", \"unit\" : \"\", "
         "\"event\" : \"" +
         std::string(event) +
         "\", \"event-runtime\" : 100000, "
         "\"pcnt-running\" : 100.00}\n";
}

TEST(StatTextReader, PiecesSplitAnywhereReadAsTheWhole) {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += interval_line(i, i % 4, i % 3 == 0 ? "cycles" : "instructions", i);
    if (i % 7 == 0) text += "{\"counter-value\" : \"x\", \"event\" : \"bad\"}\n";
  }
  const CountsRead whole = read_stat_json(text, "w.json");
  for (const std::size_t size : {1U, 2U, 3U, 7U, 64U, 1000U}) {
    StatTextReader reader(CountsFormat::json_lines, "w.json");
    for (std::size_t at = 0; at < text.size(); at += size) {
      reader.feed(std::string_view(text).substr(at, size));
    }
    const CountsRead pieces = reader.finish();
    ASSERT_EQ(pieces.counts.size(), whole.counts.size());
    for (std::size_t i = 0; i < whole.counts.size(); ++i) {
      EXPECT_EQ(pieces.counts.entries()[i].value, whole.counts.entries()[i].value);
      EXPECT_EQ(pieces.counts.entries()[i].lines, whole.counts.entries()[i].lines);
      EXPECT_EQ(pieces.counts.entries()[i].where, whole.counts.entries()[i].where);
    }
    ASSERT_EQ(pieces.diagnostics.size(), whole.diagnostics.size());
    for (std::size_t i = 0; i < whole.diagnostics.size(); ++i) {
      EXPECT_EQ(pieces.diagnostics[i].range, whole.diagnostics[i].range);
      EXPECT_EQ(pieces.diagnostics[i].source_line, whole.diagnostics[i].source_line);
    }
  }
  ASSERT_EQ(whole.diagnostics.size(), 6U);
  // Located as make_diagnostic on the whole text would locate them.
  for (const Diagnostic& d : whole.diagnostics) {
    const Diagnostic full = make_diagnostic(Severity::warning, DiagId::counts_garbled, "w.json",
                                            text, d.range.offset, d.range.length, d.message);
    EXPECT_EQ(d.range, full.range);
    EXPECT_EQ(d.source_line, full.source_line);
  }
  EXPECT_EQ(whole.counts.find("cycles")->where.line, 1U);
  EXPECT_EQ(whole.counts.find("instructions")->where.line, 3U);
  EXPECT_EQ(whole.counts.find("cycles")->lines, 14U);
}

TEST(StatTextReader, DiagnosticsAndLinesAreBounded) {
  std::string text;
  for (std::size_t i = 0; i < kMaxCountsDiagnostics + 5; ++i) text += "x,y,z,w,v,u\n";
  text += std::string(kMaxCountsLine + 10, ',') + "\n";
  text += "1,,cycles,10,100.00,,\n";
  const CountsRead read = read_stat_csv(text, "c.csv");
  ASSERT_EQ(read.diagnostics.size(), kMaxCountsDiagnostics + 1);
  EXPECT_EQ(read.diagnostics.back().message,
            "6 more lines could not be read (the first 100 are shown above)");
  ASSERT_EQ(read.counts.size(), 1U);
  EXPECT_EQ(read.counts.find("cycles")->where.line, kMaxCountsDiagnostics + 7);
  // The over-long line alone: a diagnostic of its own, the next line still read.
  const CountsRead one = read_stat_csv(std::string(kMaxCountsLine + 1, 'a') + "\n" +
                                           std::string(300, ',') + "\n1,,cycles,10,100.00,,",
                                       "l.csv");
  ASSERT_EQ(one.diagnostics.size(), 2U);
  EXPECT_EQ(one.diagnostics[0].range.line, 1U);
  EXPECT_NE(one.diagnostics[0].message.find("longer than 1048576 bytes"), std::string::npos);
  EXPECT_EQ(one.diagnostics[1].range.line, 2U);
  EXPECT_EQ(one.diagnostics[1].message, "more than 256 fields: not a count line");
  EXPECT_EQ(one.counts.size(), 1U);
}

// The reader's fast path (a flat object scanned without a JSON document) reads every line as
// the full parser does: the same line with a member the fast path leaves to the parser (an
// escaped key) gives the same counts and diagnostics.
RC_GTEST_PROP(StatJsonProperty, FastPathAgreesWithTheParser, ()) {
  const std::vector<std::string> keys = {
      "event", "counter-value", "unit", "event-runtime", "pcnt-running", "cpu", "interval"};
  const std::vector<std::string> values = {"\"\"",
                                           "\"cycles\"",
                                           "\"<not counted>\"",
                                           "\"<not supported>\"",
                                           "\"12.5\"",
                                           "\"x\"",
                                           "\"msec\"",
                                           "0",
                                           "-0",
                                           "100",
                                           "1.5",
                                           "1e3",
                                           "-7",
                                           "18446744073709551616",
                                           "1E-2",
                                           "true",
                                           "null",
                                           "007",
                                           "1.",
                                           "\"a\\\"b\""};
  const auto members = *rc::gen::container<std::vector<std::pair<std::size_t, std::size_t>>>(
      rc::gen::pair(rc::gen::inRange<std::size_t>(0, keys.size()),
                    rc::gen::inRange<std::size_t>(0, values.size())));
  const bool with_event = *rc::gen::arbitrary<bool>();
  std::string body;
  if (with_event) body = "\"event\" : \"instructions\"";
  for (const auto& [key, value] : members) {
    if (!body.empty()) body += ", ";
    body += "\"" + keys[key] + "\" : " + values[value];
  }
  const std::string fast = "{" + body + "}\n";
  const std::string slow = "{\"\\u0078\" : 0" + (body.empty() ? "" : ", " + body) + "}\n";
  const CountsRead a = read_stat_json(fast, "f.json");
  const CountsRead b = read_stat_json(slow, "f.json");
  RC_ASSERT(a.counts.size() == b.counts.size());
  RC_ASSERT(a.lines_read == b.lines_read);
  for (std::size_t i = 0; i < a.counts.size(); ++i) {
    const Count& x = a.counts.entries()[i];
    const Count& y = b.counts.entries()[i];
    RC_ASSERT(x.event == y.event);
    RC_ASSERT(x.value == y.value);
    RC_ASSERT(x.status == y.status);
    RC_ASSERT(x.unit == y.unit);
    RC_ASSERT(x.running == y.running);
    RC_ASSERT(x.percent_running == y.percent_running);
  }
  RC_ASSERT(a.diagnostics.size() == b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    if (a.diagnostics[i].message != "not a JSON object") {
      RC_ASSERT(a.diagnostics[i].message == b.diagnostics[i].message);
    }
  }
}

TEST(Counts, ManyDistinctEventsAreIndexed) {
  Counts counts;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 20000; ++i) counts.add(count_of("e" + std::to_string(i), 1));
  }
  ASSERT_EQ(counts.size(), 20000U);
  EXPECT_EQ(counts.find("e19999")->value, 3.0);
  EXPECT_EQ(counts.find("E5")->value, 3.0);  // the caseless rule still applies
}

TEST(Counts, MatchingRule) {
  Counts counts;
  counts.add(count_of("cpu/INST_RETIRED.ANY/", 1));
  counts.add(count_of("cpu_clk_unhalted.thread", 2));
  counts.add(count_of("uops_issued.any:u", 3));
  counts.add(count_of("msr/tsc/", 4));
  EXPECT_DOUBLE_EQ(counts.find("cpu@INST_RETIRED.ANY@")->value, 1);
  EXPECT_DOUBLE_EQ(counts.find("CPU_CLK_UNHALTED.THREAD")->value, 2);
  EXPECT_DOUBLE_EQ(counts.find("UOPS_ISSUED.ANY")->value, 3);
  EXPECT_DOUBLE_EQ(counts.find("msr@tsc@")->value, 4);
  EXPECT_EQ(counts.find("inst_retired.any"), nullptr);
}

TEST(Counts, DuplicatesAreSummedRawBeforeScaling) {
  Counts counts;
  counts.add(count_of("e", 100, 10, 5));
  counts.add(count_of("e", 100, 10, 10));
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts.entries()[0].lines, 2u);
  // (100 + 100) * 20 / 15 truncated as libperf truncates: 266.67 -> 266
  EXPECT_DOUBLE_EQ(*metric_input_value(counts.entries()[0]), 266);
  counts.add(count_of("e", 0, {}, {}, CountStatus::not_counted));
  EXPECT_FALSE(metric_input_value(counts.entries()[0]));
}

TEST(Counts, RunningZeroIsNotCounted) {
  EXPECT_FALSE(metric_input_value(count_of("e", 5, 10, 0)));
  EXPECT_FALSE(metric_input_value(count_of("e", 5, 0, 0)));
  EXPECT_DOUBLE_EQ(*metric_input_value(count_of("e", 5, 9, 9)), 5);
}

// Scaling: a count multiplexed for a fraction of the time equals the unmultiplexed count
// scaled up, truncated to an integer as libperf truncates; and equal times change nothing.
RC_GTEST_PROP(CountsProperty, ScaledAndUnscaledAgreeWhenNotMultiplexed, ()) {
  const auto raw = *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 50);
  const auto time = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 40);
  const Count scaled = count_of("e", static_cast<double>(raw), time, time);
  const Count plain = count_of("e", static_cast<double>(raw));
  RC_ASSERT(*metric_input_value(scaled) == *metric_input_value(plain));
}

RC_GTEST_PROP(CountsProperty, MultiplexScalingIsEnabledOverRunning, ()) {
  const auto raw = *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 40);
  const auto running = *rc::gen::inRange<std::uint64_t>(1, 1000000);
  const auto enabled = running + *rc::gen::inRange<std::uint64_t>(0, 1000000);
  const Count count = count_of("e", static_cast<double>(raw), enabled, running);
  const double expected =
      static_cast<double>(raw) * static_cast<double>(enabled) / static_cast<double>(running);
  const double got = *metric_input_value(count);
  RC_ASSERT(got <= expected * (1 + 1e-12));
  RC_ASSERT(expected - got < 1 + expected * 1e-12);
  RC_ASSERT(got == std::trunc(got));
  RC_ASSERT(got >= static_cast<double>(raw));
}

// ---- perf.data -------------------------------------------------------------------------------

std::vector<std::byte> le_words(std::initializer_list<std::uint64_t> words) {
  std::vector<std::byte> out;
  for (std::uint64_t w : words) {
    for (int i = 0; i < 8; ++i) {
      out.push_back(static_cast<std::byte>((w >> (8 * i)) & 0xff));
    }
  }
  return out;
}

Record record_of(std::uint32_t type, std::vector<std::byte> payload) {
  Record record;
  record.type = type;
  record.payload = std::move(payload);
  return record;
}

Record stat_record(std::uint64_t id, std::uint32_t cpu, std::uint32_t thread, std::uint64_t val,
                   std::uint64_t ena, std::uint64_t run) {
  return record_of(
      record_type::stat,
      le_words({id, std::uint64_t{cpu} | (std::uint64_t{thread} << 32), val, ena, run}));
}

PerfData stat_model() {
  PerfData data;
  Attr attr;
  attr.type = 1;
  attr.size = kAttrSizeVer7;
  data.events.push_back({attr, {10, 11}, "task-clock"});
  attr.config[0] = 3;
  data.events.push_back({attr, {20, 21}, "cycles"});
  data.records.push_back(stat_record(10, 0, 0, 1000, 100, 100));
  data.records.push_back(stat_record(11, 1, 0, 2000, 100, 100));
  data.records.push_back(stat_record(20, 0, 0, 50, 100, 50));
  data.records.push_back(stat_record(21, 1, 0, 50, 100, 50));
  data.records.push_back(stat_record(99, 1, 0, 50, 100, 50));            // no such id
  data.records.push_back(record_of(record_type::stat, le_words({20})));  // short
  data.features[feature::event_desc] = encode_event_desc(data.events, kAttrSizeVer7);
  return data;
}

TEST(StatPerfData, SumsCpusAndScales) {
  const CountsRead read = read_stat_perf_data(stat_model(), "stat.data");
  ASSERT_EQ(read.counts.size(), 2u);
  EXPECT_DOUBLE_EQ(*metric_input_value(*read.counts.find("task-clock")), 3000);
  EXPECT_DOUBLE_EQ(*metric_input_value(*read.counts.find("cycles")), 200);
  ASSERT_EQ(read.diagnostics.size(), 2u);
  EXPECT_NE(read.diagnostics[0].message.find("id 99"), std::string::npos);
  EXPECT_NE(read.diagnostics[1].message.find("shorter"), std::string::npos);
}

TEST(StatPerfData, NoScaleConfig) {
  PerfData data = stat_model();
  data.records.insert(data.records.begin(),
                      record_of(record_type::stat_config, le_words({1, 2, 0})));
  const CountsRead read = read_stat_perf_data(data, "stat.data");
  EXPECT_DOUBLE_EQ(*metric_input_value(*read.counts.find("cycles")), 100);
}

TEST(StatPerfData, WrittenAndReadBack) {
  testing::ScratchDir dir;
  const PerfData model = stat_model();
  ASSERT_FALSE(write_perf_data(dir / "s.data", model, options_like(model)));
  const auto back = read_perf_data(dir / "s.data");
  ASSERT_TRUE(back) << back.error().message;
  const CountsRead read = read_stat_perf_data(*back, "s.data");
  EXPECT_EQ(read.counts.size(), 2u);
  EXPECT_EQ(read.diagnostics.size(), 2u);
}

// A perf.data written by the real `perf stat record` on software events, when perf runs here.
TEST(StatPerfData, RealPerfStatRecord) {
  testing::ScratchDir dir;
  const std::string path = (dir / "stat.data").string();
  std::string command = "perf stat record -o '";
  command += path;
  command += "' -e task-clock,context-switches,page-faults true";
  const auto result = testing::run_command(command);
  if (result.status != 0) {
    GTEST_SKIP() << "perf stat record does not run here: " << result.err;
  }
  const auto data = read_perf_data(path);
  ASSERT_TRUE(data) << data.error().message;
  const CountsRead read = read_stat_perf_data(*data, path);
  EXPECT_TRUE(read.diagnostics.empty());
  ASSERT_NE(read.counts.find("page-faults"), nullptr);
  ASSERT_NE(read.counts.find("task-clock"), nullptr);
  EXPECT_GT(*metric_input_value(*read.counts.find("page-faults")), 0);
  EXPECT_GT(*metric_input_value(*read.counts.find("task-clock")), 1000);  // ns
}

}  // namespace
PMUCAT_END_NAMESPACE

// The counting session over a fake kernel (tests/count/fake_kernel.h): read buffers, scaling,
// every trust grade and every error, without a PMU.
#include "pmucat/count.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "count/fake_kernel.h"
#include "pmucat/diagnostic_ids.h"
#include "support/temp_tree.h"

namespace {

using pmucat::Aggregation;
using pmucat::Attr;
using pmucat::Catalog;
using pmucat::CountEvent;
using pmucat::CountOptions;
using pmucat::CountSession;
using pmucat::CountTarget;
using pmucat::DiagId;
using pmucat::EncodedEvent;
using pmucat::EventValue;
using pmucat::ReadBuffer;
using pmucat::Reading;
using pmucat::TrustGrade;
using pmucat::testing::FakeCounts;
using pmucat::testing::FakeKernel;
using pmucat::testing::kernel_read_bytes;
using pmucat::testing::TempTree;
namespace read_fmt = pmucat::read_fmt;

constexpr std::uint64_t kAllFields =
    read_fmt::total_time_enabled | read_fmt::total_time_running | read_fmt::id | read_fmt::lost;

// A tree with a software PMU, an x86 core PMU `cpu` and an uncore PMU counting CPUs 0 and 2.
class Tree {
 public:
  Tree() {
    pmu("software", 1);
    pmu("cpu", 4);
    file("cpu", "format/event", "config:0-7");
    file("cpu", "format/umask", "config:8-15");
    file("cpu", "events/cycles-ct", "event=0x3c");
    pmu("uncore_imc_0", 20);
    file("uncore_imc_0", "cpumask", "0,2");
    file("uncore_imc_0", "format/event", "config:0-7");
    file("uncore_imc_0", "events/cas_count_read", "event=0x04");
    file("uncore_imc_0", "events/cas_count_read.scale", "6.103515625e-5");
    file("uncore_imc_0", "events/cas_count_read.unit", "MiB");
  }
  void pmu(std::string_view name, int type) const { file(name, "type", std::to_string(type)); }
  void file(std::string_view pmu_name, std::string_view relative, std::string_view text) const {
    tree.write(
        "sys/bus/event_source/devices/" + std::string(pmu_name) + "/" + std::string(relative),
        std::string(text) + "\n");
  }
  Catalog catalog() const { return std::move(*Catalog::open(tree.root())); }
  TempTree tree{"count"};
};

std::vector<EncodedEvent> encode_all(const Catalog& catalog, std::string_view spec) {
  pmucat::EncodeOptions options;
  options.tool = pmucat::Tool::stat;
  auto events = pmucat::encode(catalog, spec, options);
  EXPECT_TRUE(events.has_value()) << (events ? "" : events.error().message);
  return events ? *events : std::vector<EncodedEvent>{};
}

CountOptions on_cpus(std::vector<int> cpus) {
  CountOptions options;
  options.target.kind = CountTarget::Kind::cpus;
  options.target.cpus = std::move(cpus);
  return options;
}

CountOptions on_this_thread() {
  CountOptions options;
  options.target.kind = CountTarget::Kind::threads;
  options.target.threads = {::getpid()};
  return options;
}

bool has_grade(const EventValue& value, TrustGrade grade) {
  return std::any_of(value.trust.begin(), value.trust.end(),
                     [&](const pmucat::Trust& trust) { return trust.grade == grade; });
}

std::vector<TrustGrade> grades_of(const EventValue& value) {
  std::vector<TrustGrade> grades;
  for (const pmucat::Trust& trust : value.trust) grades.push_back(trust.grade);
  return grades;
}

const EventValue& value_of(const Reading& reading, std::size_t event, int cpu = -1) {
  for (const EventValue& value : reading.values) {
    if (value.event == event && value.cpu == cpu) return value;
  }
  throw std::runtime_error("no such value");
}

std::span<const std::byte> bytes_of(const std::vector<std::byte>& bytes) {
  return bytes;
}

// ---- read buffers ----------------------------------------------------------------------------

TEST(ReadBuffer, OneCounterWithEveryField) {
  const auto bytes =
      kernel_read_bytes(kAllFields, {{.value = 7, .enabled = 9, .running = 8, .lost = 2}}, 42);
  auto parsed = pmucat::parse_read_buffer(bytes_of(bytes), kAllFields, 1, "e");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->enabled, 9u);
  EXPECT_EQ(parsed->running, 8u);
  ASSERT_EQ(parsed->counters.size(), 1u);
  EXPECT_EQ(parsed->counters[0].value, 7u);
  EXPECT_EQ(parsed->counters[0].id, 42u);
  EXPECT_EQ(parsed->counters[0].lost, 2u);
  EXPECT_EQ(bytes.size(), pmucat::read_buffer_size(kAllFields, 1));
}

TEST(ReadBuffer, GroupLeaderHoldsItsMembers) {
  const std::uint64_t format = kAllFields | read_fmt::group;
  const auto bytes = kernel_read_bytes(format, {{.value = 1}, {.value = 2}, {.value = 3}}, 10);
  auto parsed = pmucat::parse_read_buffer(bytes_of(bytes), format, 3, "g");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->counters.size(), 3u);
  EXPECT_EQ(parsed->counters[2].value, 3u);
  EXPECT_EQ(parsed->counters[2].id, 12u);
}

TEST(ReadBuffer, ShortReadIsAnError) {
  const auto bytes = kernel_read_bytes(kAllFields, {{.value = 7}});
  auto parsed =
      pmucat::parse_read_buffer(bytes_of(bytes).first(bytes.size() - 1), kAllFields, 1, "e");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().code, DiagId::count_read_short);
}

TEST(ReadBuffer, BytesThatDoNotFitAreAnError) {
  const std::uint64_t format = read_fmt::group | read_fmt::total_time_enabled;
  // A group read saying 2 members where 3 were opened, then one saying 3 with 2 opened.
  const auto two = kernel_read_bytes(format, {{.value = 1}, {.value = 2}});
  auto wrong_count = pmucat::parse_read_buffer(bytes_of(two), format, 1, "g");
  ASSERT_FALSE(wrong_count.has_value());
  EXPECT_EQ(wrong_count.error().code, DiagId::count_read_garbled);
  std::vector<std::byte> longer = two;
  longer.resize(longer.size() + 8);
  auto trailing = pmucat::parse_read_buffer(bytes_of(longer), format, 2, "g");
  ASSERT_FALSE(trailing.has_value());
  EXPECT_EQ(trailing.error().code, DiagId::count_read_garbled);
  auto huge = pmucat::parse_read_buffer(bytes_of(two), format, pmucat::kMaxGroupRead + 1, "g");
  ASSERT_FALSE(huge.has_value());
  EXPECT_EQ(huge.error().code, DiagId::count_read_garbled);
}

RC_GTEST_PROP(ReadBuffer, WhatTheKernelWritesParsesBack, ()) {
  const std::uint64_t format = *rc::gen::inRange<std::uint64_t>(0, 32);
  const std::size_t members = (format & read_fmt::group) ? *rc::gen::inRange<std::size_t>(1, 9) : 1;
  std::vector<FakeCounts> counts;
  for (std::size_t i = 0; i < members; ++i) {
    counts.push_back({*rc::gen::arbitrary<std::uint64_t>(), *rc::gen::arbitrary<std::uint64_t>(),
                      *rc::gen::arbitrary<std::uint64_t>(), *rc::gen::arbitrary<std::uint64_t>()});
  }
  const auto bytes = kernel_read_bytes(format, counts, 5);
  RC_ASSERT(bytes.size() == pmucat::read_buffer_size(format, members));
  auto parsed = pmucat::parse_read_buffer(bytes_of(bytes), format, members, "p");
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->counters.size() == members);
  RC_ASSERT(parsed->enabled.has_value() == ((format & read_fmt::total_time_enabled) != 0));
  if (parsed->enabled) RC_ASSERT(*parsed->enabled == counts[0].enabled);
  if (parsed->running) RC_ASSERT(*parsed->running == counts[0].running);
  for (std::size_t i = 0; i < members; ++i) {
    RC_ASSERT(parsed->counters[i].value == counts[i].value);
    RC_ASSERT(parsed->counters[i].id.has_value() == ((format & read_fmt::id) != 0));
    if (parsed->counters[i].lost) RC_ASSERT(*parsed->counters[i].lost == counts[i].lost);
  }
  // Every byte fewer is a short read, never a value made up.
  if (!bytes.empty()) {
    const std::size_t cut = *rc::gen::inRange<std::size_t>(0, bytes.size());
    RC_ASSERT(!pmucat::parse_read_buffer(bytes_of(bytes).first(cut), format, members, "p"));
  }
}

TEST(Scale, AsLibperfTruncates) {
  EXPECT_EQ(pmucat::scale_count(1000, 2000, 2000), 1000.0);
  EXPECT_EQ(pmucat::scale_count(1000, 3, 2), 1500.0);
  EXPECT_EQ(pmucat::scale_count(1001, 3, 2), 1501.0);  // 1501.5, truncated
  EXPECT_FALSE(pmucat::scale_count(1000, 2000, 0).has_value());
  EXPECT_FALSE(pmucat::scale_count(1000, 0, 0).has_value());
}

TEST(TrustGrades, IdsAreUniqueAndParseBack) {
  std::vector<std::string_view> seen;
  for (TrustGrade grade : pmucat::all_trust_grades()) {
    const std::string_view id = pmucat::to_string(grade);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), id), 0) << id;
    seen.push_back(id);
    EXPECT_EQ(pmucat::parse_trust_grade(id), grade);
    EXPECT_FALSE(pmucat::summary_of(grade).empty());
  }
  EXPECT_FALSE(pmucat::parse_trust_grade("no-such-grade").has_value());
}

// ---- sessions --------------------------------------------------------------------------------

TEST(CountSession, OpensPerfStatsAttrsOnEachCpuAndScales) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr& attr, int cpu) {
    if (attr.config[0] == 0x3c) return FakeCounts{.value = 100, .enabled = 1000, .running = 500};
    return FakeCounts{.value = static_cast<std::uint64_t>(10 + cpu)};
  };
  CountOptions options = on_cpus({0, 1});
  options.predicted_fraction = {0.5, std::nullopt};
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "cpu/event=0x3c/,cpu/event=0xc0/"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  ASSERT_EQ(kernel.opens.size(), 4u);  // two events on two CPUs
  for (const FakeKernel::Open& open : kernel.opens) {
    EXPECT_EQ(open.pid, -1);
    EXPECT_FALSE(open.attr.inherit);  // counting CPUs: nothing to inherit
    EXPECT_FALSE(open.attr.enable_on_exec);
    EXPECT_TRUE(open.attr.disabled);
    EXPECT_NE(open.attr.read_format & read_fmt::id, 0u);
  }
  session->start();
  EXPECT_EQ(kernel.opens[0].enabled, 1);
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value()) << reading.error().message;
  const EventValue& cycles = value_of(*reading, 0);
  EXPECT_EQ(cycles.raw, 200u);
  EXPECT_EQ(cycles.value, 400.0);  // 200 counted in half the time
  ASSERT_TRUE(has_grade(cycles, TrustGrade::multiplexed));
  EXPECT_NE(cycles.trust.front().reason.find("the planner predicted 50.00%"), std::string::npos)
      << cycles.trust.front().reason;
  const EventValue& other = value_of(*reading, 1);
  EXPECT_EQ(other.value, 21.0);
  EXPECT_TRUE(has_grade(other, TrustGrade::exact));
}

TEST(CountSession, PerCpuValues) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int cpu) {
    return FakeCounts{.value = static_cast<std::uint64_t>(5 * (cpu + 1))};
  };
  CountOptions options = on_cpus({0, 1, 3});
  options.aggregation = Aggregation::per_cpu;
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0xc0/"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_EQ(reading->values.size(), 3u);
  EXPECT_EQ(value_of(*reading, 0, 3).value, 20.0);
}

TEST(CountSession, GroupIsReadThroughItsLeader) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr& attr, int) {
    return FakeCounts{.value = attr.config[0], .enabled = 100, .running = 100};
  };
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "{cpu/event=0x3c/,cpu/event=0xc0/}"), on_cpus({0}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  ASSERT_EQ(kernel.opens.size(), 2u);
  EXPECT_EQ(kernel.opens[1].group_fd, FakeKernel::kFirstFd);
  EXPECT_NE(kernel.opens[0].attr.read_format & read_fmt::group, 0u);
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value()) << reading.error().message;
  EXPECT_EQ(kernel.reads, 1);  // one read() for the whole group
  EXPECT_EQ(value_of(*reading, 0).value, 0x3c);
  EXPECT_EQ(value_of(*reading, 1).value, 0xc0);
}

TEST(CountSession, AMemberRefusedOnOneCpuLeavesTheOtherGroupReadsWhole) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.refuse = [](const Attr& attr, pid_t, int cpu) {
    return attr.config[0] == 0xc0 && cpu == 1 ? EOPNOTSUPP : 0;
  };
  kernel.counts = [](const Attr& attr, int) { return FakeCounts{.value = attr.config[0]}; };
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "{cpu/event=0x3c/,cpu/event=0xc0/}"), on_cpus({0, 1}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value()) << reading.error().message;
  EXPECT_EQ(value_of(*reading, 0).value, 2.0 * 0x3c);
  EXPECT_FALSE(value_of(*reading, 1).value.has_value());  // no value from part of the CPUs
  EXPECT_TRUE(has_grade(value_of(*reading, 1), TrustGrade::not_supported));
}

TEST(CountSession, NeverScheduledIsNotCounted) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int) {
    return FakeCounts{.value = 0, .enabled = 900, .running = 0};
  };
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  ASSERT_TRUE(session.has_value());
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  const EventValue& value = value_of(*reading, 0);
  EXPECT_FALSE(value.value.has_value());
  EXPECT_TRUE(has_grade(value, TrustGrade::not_counted));
}

TEST(CountSession, ZeroOnAHardwareCounterIsSuspectNotOnASoftwareOne) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;  // every count 0, fully running
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "cpu/event=0x3c/,context-switches"), on_cpus({0}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::zero_count));
  EXPECT_EQ(value_of(*reading, 0).value, 0.0);  // a value all the same
  EXPECT_TRUE(has_grade(value_of(*reading, 1), TrustGrade::exact));
}

TEST(CountSession, LostCountsAreSaid) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 5, .lost = 3}; };
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  ASSERT_TRUE(session.has_value());
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::counts_lost));
}

TEST(CountSession, KernelWithoutFormatLostIsProbedOnce) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.refuse = [](const Attr& attr, pid_t, int) {
    return (attr.read_format & read_fmt::lost) ? EINVAL : 0;
  };
  kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 5}; };
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "cpu/event=0x3c/,cpu/event=0xc0/"), on_cpus({0, 1}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  ASSERT_EQ(kernel.opens.size(), 4u);
  for (const FakeKernel::Open& open : kernel.opens) {
    EXPECT_EQ(open.attr.read_format & read_fmt::lost, 0u);
  }
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value()) << reading.error().message;
  EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::exact));
}

TEST(CountSession, RefusedEventIsNotSupportedAndTheOthersCount) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  for (int error : {ENOENT, EOPNOTSUPP, EINVAL, ENODEV}) {
    FakeKernel kernel;
    kernel.refuse = [error](const Attr& attr, pid_t, int) { return attr.type == 4 ? error : 0; };
    kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 3}; };
    auto session = CountSession::open(
        catalog, kernel, encode_all(catalog, "cpu/event=0x3c/,page-faults"), on_cpus({0}));
    ASSERT_TRUE(session.has_value()) << session.error().message;
    const CountEvent& refused = session->events()[0];
    ASSERT_TRUE(refused.refused.has_value()) << error;
    EXPECT_EQ(refused.refused->grade, TrustGrade::not_supported);
    EXPECT_FALSE(refused.refused_errno.empty());
    auto reading = session->read();
    ASSERT_TRUE(reading.has_value());
    EXPECT_FALSE(value_of(*reading, 0).value.has_value());
    EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::not_supported));
    EXPECT_EQ(value_of(*reading, 1).value, 3.0);
  }
}

// The error opening `cpu/event=0x3c/` on CPU 0 fails with when every open answers `error`.
std::optional<DiagId> open_error(int error) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.refuse = [error](const Attr&, pid_t, int) { return error; };
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  if (session) return std::nullopt;
  return session.error().code;
}

TEST(CountSession, PermissionStopsTheWholeOpenAsPerfStatDoes) {
  EXPECT_EQ(open_error(EACCES), DiagId::count_open_denied);
  EXPECT_EQ(open_error(EPERM), DiagId::count_open_denied);
}

TEST(CountSession, NothingOpenedIsAnError) {
  EXPECT_EQ(open_error(ENOENT), DiagId::count_nothing_opened);
}

TEST(CountSession, UncoreCountsItsCpumaskAndNeverATask) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  {
    FakeKernel kernel;
    kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 16384}; };
    auto session = CountSession::open(
        catalog, kernel, encode_all(catalog, "uncore_imc_0/cas_count_read/"), on_cpus({0, 1}));
    ASSERT_TRUE(session.has_value()) << session.error().message;
    ASSERT_EQ(kernel.opens.size(), 1u);  // its cpumask 0,2 within 0,1
    EXPECT_EQ(kernel.opens[0].cpu, 0);
    auto reading = session->read();
    ASSERT_TRUE(reading.has_value());
    EXPECT_EQ(session->events()[0].unit, "MiB");
    EXPECT_DOUBLE_EQ(*value_of(*reading, 0).value, 1.0);  // 16384 x 6.103515625e-5
  }
  {
    FakeKernel kernel;
    auto session = CountSession::open(
        catalog, kernel, encode_all(catalog, "uncore_imc_0/cas_count_read/,page-faults"),
        on_this_thread());
    ASSERT_TRUE(session.has_value()) << session.error().message;
    EXPECT_EQ(kernel.opens.size(), 1u);  // page-faults alone
    auto reading = session->read();
    ASSERT_TRUE(reading.has_value());
    EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::uncore_per_task));
  }
}

TEST(CountSession, ShortReadIsAnErrorNotANumber) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.short_by = 8;
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  ASSERT_TRUE(session.has_value());
  auto reading = session->read();
  ASSERT_FALSE(reading.has_value());
  EXPECT_EQ(reading.error().code, DiagId::count_read_short);
  EXPECT_EQ(reading.error().range.file, "cpu/event=0x3c/") << "the event read is named";
}

TEST(CountSession, IntervalsAreDifferences) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  std::uint64_t now = 1000;
  kernel.counts = [&now](const Attr&, int) {
    return FakeCounts{.value = now / 10, .enabled = now, .running = now / 2};
  };
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  ASSERT_TRUE(session.has_value());
  auto first = session->read();
  now = 3000;
  auto second = session->read();
  ASSERT_TRUE(first && second);
  const Reading delta = pmucat::difference(*second, *first, session->events(), {});
  // The same from counts alone, as -I reads them.
  Reading counts_before;
  Reading counts_after;
  Reading from_counts;
  now = 1000;
  ASSERT_FALSE(session->read_counts(counts_before).has_value());
  EXPECT_FALSE(counts_before.values[0].value.has_value());  // not scaled
  EXPECT_TRUE(counts_before.values[0].trust.empty());       // not graded
  now = 3000;
  ASSERT_FALSE(session->read_counts(counts_after).has_value());
  pmucat::difference(counts_after, counts_before, session->events(), {}, from_counts);
  EXPECT_EQ(from_counts.values[0].value, 400.0);
  EXPECT_TRUE(has_grade(from_counts.values[0], TrustGrade::multiplexed));
  const EventValue& value = value_of(delta, 0);
  EXPECT_EQ(value.raw, 200u);
  EXPECT_EQ(value.enabled, 2000u);
  EXPECT_EQ(value.running, 1000u);
  EXPECT_EQ(value.value, 400.0);
  EXPECT_TRUE(has_grade(value, TrustGrade::multiplexed));
}

// -I reuses one Reading for every interval's difference: each interval is graded afresh, its
// grades neither kept from the interval before nor doubled.
TEST(CountSession, AReusedIntervalIsGradedAfresh) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  FakeCounts counts{.value = 0, .enabled = 0, .running = 0};
  kernel.counts = [&counts](const Attr&, int) { return counts; };
  auto session =
      CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), on_cpus({0}));
  ASSERT_TRUE(session.has_value());
  Reading before;
  Reading after;
  Reading interval;
  const auto next_interval = [&](FakeCounts later) {
    ASSERT_FALSE(session->read_counts(before).has_value());
    counts = later;
    ASSERT_FALSE(session->read_counts(after).has_value());
    pmucat::difference(after, before, session->events(), {}, interval);
  };
  counts = {.value = 10, .enabled = 100, .running = 100, .lost = 1};
  next_interval({.value = 30, .enabled = 300, .running = 200, .lost = 3});
  ASSERT_EQ(interval.values.size(), 1u);
  EXPECT_EQ(grades_of(interval.values[0]),
            (std::vector<TrustGrade>{TrustGrade::multiplexed, TrustGrade::counts_lost}));
  const std::string multiplexed = interval.values[0].trust[0].reason;
  EXPECT_NE(multiplexed.find("counted 50.00% of the time"), std::string::npos) << multiplexed;
  next_interval({.value = 50, .enabled = 400, .running = 300, .lost = 3});
  EXPECT_EQ(grades_of(interval.values[0]), std::vector<TrustGrade>{TrustGrade::exact});
  EXPECT_EQ(interval.values[0].trust[0].reason, "");
  EXPECT_EQ(interval.values[0].value, 20.0);
  next_interval({.value = 50, .enabled = 400, .running = 300, .lost = 3});
  EXPECT_EQ(grades_of(interval.values[0]), std::vector<TrustGrade>{TrustGrade::not_counted});
  EXPECT_EQ(interval.values[0].trust[0].reason,
            "never enabled: the counted task or CPU did not run");
}

// A tree with a JSON model holding INST_RETIRED.ANY (and one event marked with errata).
Catalog catalog_with_vendor_events(const Tree& tree) {
  tree.tree.write("arch/x86/mapfile.csv",
                  "Family-model,Version,Filename,EventType\nGenuineIntel-6-8F,v1,errlake,core\n");
  tree.tree.write("arch/x86/errlake/pipeline.json",
                  R"([{"EventName": "INST_RETIRED.ANY_ERRATUM", "EventCode": "0xc0", "UMask": "0x0",
                       "BriefDescription": "instructions", "Errata": "SPR123"},
                      {"EventName": "INST_RETIRED.ANY", "EventCode": "0xc0", "UMask": "0x1",
                       "BriefDescription": "instructions"}])");
  pmucat::VendorOptions vendor;
  vendor.events_dir = tree.tree.path("arch");
  vendor.cpuid = "GenuineIntel-6-8F-8";
  return std::move(*Catalog::open(tree.tree.root(), vendor));
}

TEST(CountSession, ErrataFromTheVendorTablesAreSaid) {
  Tree tree;
  const Catalog catalog = catalog_with_vendor_events(tree);
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 9}; };
  auto session = CountSession::open(catalog, kernel,
                                    encode_all(catalog, "inst_retired.any_erratum"), on_cpus({0}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::errata));
  EXPECT_NE(value_of(*reading, 0).trust[0].reason.find("SPR123"), std::string::npos);
  EXPECT_EQ(value_of(*reading, 0).value, 9.0);
}

TEST(CountSession, CommandNotFoundExits127) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  CountOptions options;
  options.target.command = {"pmucat-no-such-command-here"};
  auto session = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  const pid_t child = session->child();
  ASSERT_GT(child, 0);
  EXPECT_EQ(kernel.opens.at(0).pid, child);
  EXPECT_TRUE(kernel.opens.at(0).attr.enable_on_exec);  // counting starts at exec
  EXPECT_TRUE(kernel.opens.at(0).attr.inherit);
  session->start();
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 127);
  auto failed = session->command_error();
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->code, DiagId::count_command_failed);
}

TEST(CountSession, WaitingNeedsAStartedCommand) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  CountOptions options;
  options.target.command = {"sh", "-c", "exit 3"};
  auto session = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto early = session->wait();  // held before exec: waiting now would never end
  ASSERT_FALSE(early.has_value());
  EXPECT_EQ(early.error().code, DiagId::count_command_failed);
  session->start();
  auto status = session->wait();
  ASSERT_TRUE(status.has_value()) << status.error().message;
  EXPECT_EQ(*status, 3);
  auto cpus = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), on_cpus({0}));
  ASSERT_TRUE(cpus.has_value());
  EXPECT_FALSE(cpus->wait().has_value());  // no command at all
}

// exited() asks without waiting (pmustat -I asks it every interval): nothing before start(),
// the status once the command has exited, and nothing after it was reaped.
TEST(CountSession, ExitedAsksWithoutWaiting) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  CountOptions options;
  options.target.command = {"sh", "-c", "exit 4"};
  auto session = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  EXPECT_EQ(session->exited(), std::nullopt) << "held before exec: not started";
  session->start();
  std::optional<int> status;
  for (int tries = 0; tries < 1000 && !status; ++tries) {
    status = session->exited();
    if (!status) ::usleep(10000);
  }
  EXPECT_EQ(status, 4);
  EXPECT_EQ(session->exited(), std::nullopt) << "reaped once";
}

// A command with a CPU target only times the count: started after the counters are enabled,
// waited for, its exec failure said; its own process is not what is counted.
TEST(CountSession, ACommandTimesACpuCount) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  CountOptions options = on_cpus({0});
  options.target.command = {"pmucat-no-such-command-here"};
  auto session = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  ASSERT_GT(session->child(), 0);
  EXPECT_EQ(kernel.opens.at(0).pid, -1);  // every task on CPU 0, not the command
  EXPECT_FALSE(kernel.opens.at(0).attr.enable_on_exec);
  session->start();
  EXPECT_EQ(kernel.opens.at(0).enabled, 1);
  auto status = session->wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, 127);
  auto failed = session->command_error();
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->code, DiagId::count_command_failed);
}

TEST(CountSession, CommandNeverStartedIsReaped) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  CountOptions options;
  options.target.command = {"true"};
  pid_t child = 0;
  {
    auto session = CountSession::open(catalog, kernel, encode_all(catalog, "page-faults"), options);
    ASSERT_TRUE(session.has_value());
    child = session->child();
  }
  EXPECT_EQ(::waitpid(child, nullptr, WNOHANG), -1);  // gone: killed and reaped
  for (const FakeKernel::Open& open : kernel.opens) EXPECT_TRUE(open.closed);
}

// ---- metrics -----------------------------------------------------------------------------------

pmucat::VendorMetric metric(std::string name, std::string expr, std::string group,
                            std::string scale_unit) {
  pmucat::VendorMetric out;
  out.name = std::move(name);
  out.expr = std::move(expr);
  out.group = std::move(group);
  out.scale_unit = std::move(scale_unit);
  return out;
}

pmucat::ExpandedMetric expanded(std::string name, std::vector<std::string> ids) {
  pmucat::ExpandedMetric out;
  out.name = std::move(name);
  out.ids = std::move(ids);
  return out;
}

// Four events on CPU 0, {A,B} a group and C, D alone, with the counts chosen per event, and
// metrics over them.
struct MetricSetup {
  Tree tree;
  Catalog catalog = tree.catalog();
  FakeKernel kernel;
  std::vector<CountEvent> events;
  Reading reading;

  explicit MetricSetup(std::function<FakeCounts(std::uint64_t event_code)> counts) {
    kernel.counts = [counts](const Attr& attr, int) { return counts(attr.config[0]); };
    auto session = CountSession::open(
        catalog, kernel,
        encode_all(catalog, "{cpu/event=0xa/,cpu/event=0xb/},cpu/event=0xc/,cpu/event=0xd/"),
        on_cpus({0}));
    EXPECT_TRUE(session.has_value());
    events = session->events();
    reading = *session->read();
  }
  std::vector<pmucat::MetricReading> evaluate(const std::vector<pmucat::VendorMetric>& table,
                                              const pmucat::SessionMetrics& metrics) {
    const pmucat::MetricEvaluator evaluator(table);
    return pmucat::evaluate_session_metrics(reading, events, metrics, evaluator, {});
  }
};

bool has_grade(const pmucat::MetricReading& value, TrustGrade grade) {
  return std::any_of(value.trust.begin(), value.trust.end(),
                     [&](const pmucat::Trust& trust) { return trust.grade == grade; });
}

TEST(SessionMetrics, ValuesAndARatioAbove100PercentIsOutOfRange) {
  MetricSetup setup([](std::uint64_t code) { return FakeCounts{.value = code}; });
  const std::vector<pmucat::VendorMetric> table = {metric("Ratio", "A / B", "", "100%"),
                                                   metric("Inverse", "B / A", "", "100%")};
  pmucat::SessionMetrics metrics;
  metrics.metrics = {expanded("Ratio", {"A", "B"}), expanded("Inverse", {"B", "A"})};
  metrics.id_events = {{{0}, {1}}, {{1}, {0}}};
  const auto values = setup.evaluate(table, metrics);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_NEAR(*values[0].value, 100.0 * 0xa / 0xb, 1e-9);
  EXPECT_TRUE(has_grade(values[0], TrustGrade::exact));
  EXPECT_EQ(values[0].unit, "%");
  EXPECT_TRUE(has_grade(values[1], TrustGrade::out_of_range));  // 110%
}

// A metric is printed beside the event of the id its expression names first, whatever the order
// of its ids; ids the expression does not spell out (a tool event perf adds) come last. Found
// once per run, apart from any reading.
TEST(SessionMetrics, EachMetricIsPlacedBesideTheEventItsExpressionNamesFirst) {
  const std::vector<pmucat::VendorMetric> table = {metric("PerB", "cpu@B\\-x@ / A", "", ""),
                                                   metric("Tool", "A * 2", "", ""),
                                                   metric("Unknown", "A", "", "")};
  pmucat::SessionMetrics metrics;
  metrics.metrics = {expanded("PerB", {"A", "cpu@B-x@"}), expanded("Tool", {"duration_time", "A"}),
                     expanded("NotInTheTable", {"A"})};
  metrics.metrics[0].expr = "cpu@B\\-x@ / A";
  metrics.metrics[1].expr = "A * 2";
  metrics.id_events = {{{0}, {1}}, {{3}, {0}}, {{0}}};
  const auto hosts = pmucat::metric_host_events(metrics, pmucat::MetricEvaluator(table));
  ASSERT_EQ(hosts.size(), 3u);
  EXPECT_EQ(hosts[0], 1u) << "its expression names B first";
  EXPECT_EQ(hosts[1], 0u) << "A, spelled out, before the tool event";
  EXPECT_EQ(hosts[2], std::nullopt) << "a metric the table lacks has no line";
}

TEST(SessionMetrics, EventsInDifferentGroupsWhileMultiplexedAreSaid) {
  MetricSetup setup([](std::uint64_t code) {
    return code == 0xc ? FakeCounts{.value = 5, .enabled = 100, .running = 50}
                       : FakeCounts{.value = code};
  });
  const std::vector<pmucat::VendorMetric> table = {metric("Split", "A / C", "", ""),
                                                   metric("Together", "A / B", "", "")};
  pmucat::SessionMetrics metrics;
  metrics.metrics = {expanded("Split", {"A", "C"}), expanded("Together", {"A", "B"})};
  metrics.id_events = {{{0}, {2}}, {{0}, {1}}};
  const auto values = setup.evaluate(table, metrics);
  EXPECT_TRUE(has_grade(values[0], TrustGrade::metric_split_groups));
  EXPECT_TRUE(has_grade(values[1], TrustGrade::exact));
}

TEST(SessionMetrics, AMetricWithoutItsInputsHasNoValue) {
  MetricSetup setup([](std::uint64_t code) {
    return code == 0xd ? FakeCounts{.value = 0, .enabled = 100, .running = 0}
                       : FakeCounts{.value = code};
  });
  const std::vector<pmucat::VendorMetric> table = {
      metric("NeedsD", "A / D", "", ""), metric("NeedsLiteral", "A * #num_cores", "", "")};
  pmucat::SessionMetrics metrics;
  metrics.metrics = {expanded("NeedsD", {"A", "D"}), expanded("NeedsLiteral", {"A"})};
  metrics.id_events = {{{0}, {3}}, {{0}}};
  const auto values = setup.evaluate(table, metrics);
  EXPECT_FALSE(values[0].value.has_value());
  EXPECT_TRUE(has_grade(values[0], TrustGrade::metric_input_missing));
  EXPECT_FALSE(values[1].value.has_value());  // no literal given
  EXPECT_TRUE(has_grade(values[1], TrustGrade::metric_input_missing));
}

TEST(SessionMetrics, ATmaChildAboveItsParentIsSaid) {
  MetricSetup setup([](std::uint64_t code) { return FakeCounts{.value = code}; });
  const std::vector<pmucat::VendorMetric> table = {
      metric("tma_parent", "A / D", "TopdownL1;tma_L1_group", "100%"),
      metric("tma_child", "C / D", "TopdownL2;tma_L2_group;tma_parent_group", "100%"),
      metric("tma_small", "A / C / 2", "TopdownL2;tma_L2_group;tma_parent_group", "100%")};
  pmucat::SessionMetrics metrics;
  metrics.metrics = {expanded("tma_parent", {"A", "D"}), expanded("tma_child", {"C", "D"}),
                     expanded("tma_small", {"A", "C"})};
  metrics.id_events = {{{0}, {3}}, {{2}, {3}}, {{0}, {2}}};
  const auto values = setup.evaluate(table, metrics);
  EXPECT_TRUE(has_grade(values[1], TrustGrade::child_above_parent));  // 0xc/0xd > 0xa/0xd
  EXPECT_FALSE(has_grade(values[2], TrustGrade::child_above_parent));
  EXPECT_FALSE(has_grade(values[0], TrustGrade::child_above_parent));
}

TEST(CountSession, DurationTimeIsMeasuredNotOpened) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 4}; };
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "duration_time,user_time,page-faults"), on_cpus({0}));
  ASSERT_TRUE(session.has_value()) << session.error().message;
  EXPECT_EQ(kernel.opens.size(), 1u);  // page-faults alone reaches the kernel
  session->start();
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_GT(value_of(*reading, 0).raw, 0u);
  EXPECT_TRUE(has_grade(value_of(*reading, 0), TrustGrade::exact));
  EXPECT_TRUE(has_grade(value_of(*reading, 1), TrustGrade::not_supported));
  EXPECT_EQ(value_of(*reading, 2).value, 4.0);
}

TEST(CountSession, ToolEventsInAGroupAreMeasuredBesideIt) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  for (const char* spec : {"{duration_time,cpu/event=0x3c/,cpu/event=0xc0/}",
                           "{cpu/event=0x3c/,duration_time,cpu/event=0xc0/}"}) {
    FakeKernel kernel;
    kernel.counts = [](const Attr& attr, int) { return FakeCounts{.value = attr.config[0]}; };
    auto session = CountSession::open(catalog, kernel, encode_all(catalog, spec), on_cpus({0}));
    ASSERT_TRUE(session.has_value()) << session.error().message;
    ASSERT_EQ(kernel.opens.size(), 2u) << spec;
    EXPECT_TRUE(kernel.opens[0].attr.disabled) << spec;  // the kernel's leader
    EXPECT_EQ(kernel.opens[1].group_fd, FakeKernel::kFirstFd) << spec;
    session->start();
    auto reading = session->read();
    ASSERT_TRUE(reading.has_value()) << reading.error().message;
    for (const EventValue& value : reading->values) {
      EXPECT_TRUE(value.value.has_value()) << spec << " " << value.event;
      EXPECT_TRUE(has_grade(value, TrustGrade::exact)) << spec << " " << value.event;
    }
  }
}

TEST(CountSession, FallbackClimbsDownTheLadderAndSaysSo) {
  Tree tree;
  const Catalog catalog = catalog_with_vendor_events(tree);
  FakeKernel kernel;
  // No raw PMU events, no precise sampling, no hardware cycles: what a VM often offers.
  kernel.refuse = [](const Attr& attr, pid_t, int) {
    if (attr.type == 4 || attr.precise_ip > 0) return EOPNOTSUPP;
    if (attr.type == 0 && attr.config[0] == 0) return ENOENT;
    return 0;
  };
  kernel.counts = [](const Attr&, int) { return FakeCounts{.value = 7}; };
  CountOptions options = on_cpus({0});
  options.fallback = true;
  auto session = CountSession::open(
      catalog, kernel, encode_all(catalog, "cycles,instructions:pp,inst_retired.any"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  const auto& events = session->events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].name, "cpu-clock");
  EXPECT_EQ(events[0].encoded.attr.type, 1u);
  ASSERT_TRUE(events[0].substituted.has_value());
  EXPECT_NE(events[0].substituted->reason.find("cycles -> cpu-clock"), std::string::npos);
  EXPECT_EQ(events[1].encoded.attr.precise_ip, 0u);
  EXPECT_NE(events[1].substituted->reason.find("precise_ip 2 -> 1, then precise_ip 1 -> 0"),
            std::string::npos)
      << events[1].substituted->reason;
  EXPECT_EQ(events[2].name, "instructions");
  EXPECT_EQ(events[2].encoded.attr.type, 0u);
  EXPECT_EQ(events[2].encoded.attr.config[0], 1u);
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  for (const EventValue& value : reading->values) {
    EXPECT_TRUE(has_grade(value, TrustGrade::substituted)) << value.event;
    EXPECT_TRUE(value.value.has_value());
  }
  // Without --fallback nothing is substituted.
  FakeKernel plain;
  plain.refuse = kernel.refuse;
  auto strict =
      CountSession::open(catalog, plain, encode_all(catalog, "cycles,page-faults"), on_cpus({0}));
  ASSERT_TRUE(strict.has_value());
  EXPECT_FALSE(strict->events()[0].substituted.has_value());
  EXPECT_TRUE(strict->events()[0].refused.has_value());
  // The ladder ends at cpu-clock: when even that is refused, the event is, and the open ends.
  FakeKernel bare;
  bare.refuse = [](const Attr& attr, pid_t, int) {
    return attr.type == 1 && attr.config[0] == 9 ? 0 : EOPNOTSUPP;  // only the dummy event
  };
  CountOptions all_refused = on_cpus({0});
  all_refused.fallback = true;
  auto bottom =
      CountSession::open(catalog, bare, encode_all(catalog, "cycles,cpu/event=0x3c/"), all_refused);
  ASSERT_FALSE(bottom.has_value());
  EXPECT_EQ(bottom.error().code, DiagId::count_nothing_opened);
}

TEST(CountSession, HybridValuesStayPerCorePmu) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-adl-hybrid");
  ASSERT_TRUE(catalog.has_value());
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int cpu) {
    return FakeCounts{.value = 10 + static_cast<std::uint64_t>(cpu)};
  };
  CountOptions options;
  options.target.kind = CountTarget::Kind::cpus;  // -C 0,1,16,17
  options.target.cpus = {0, 1, 16, 17};
  auto session = CountSession::open(*catalog, kernel, encode_all(*catalog, "cycles"), options);
  ASSERT_TRUE(session.has_value()) << session.error().message;
  const auto& events = session->events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].name, events[0].encoded.pmu + "/cycles/");
  EXPECT_NE(events[0].encoded.pmu, events[1].encoded.pmu);
  // Each core PMU opens on its own CPUs only (its cpus file: cpu_core 0-15, cpu_atom 16-23).
  ASSERT_EQ(kernel.opens.size(), 4u);
  for (const FakeKernel::Open& open : kernel.opens) {
    const auto owner = std::find_if(events.begin(), events.end(), [&](const CountEvent& event) {
      return event.encoded.attr.config == open.attr.config &&
             event.encoded.attr.type == open.attr.type;
    });
    ASSERT_NE(owner, events.end());
    EXPECT_EQ(owner->encoded.pmu == "cpu_core", open.cpu < 16)
        << owner->encoded.pmu << " " << open.cpu;
  }
  auto reading = session->read();
  ASSERT_TRUE(reading.has_value());
  EXPECT_EQ(reading->values.size(), 2u);  // one per core PMU, not their sum
}

TEST(CountSession, PerCoreAndPerSocketSumTheirCpus) {
  Tree tree;
  const Catalog catalog = tree.catalog();
  FakeKernel kernel;
  kernel.counts = [](const Attr&, int cpu) {
    return FakeCounts{.value = std::uint64_t{1} << cpu, .enabled = 100, .running = 100};
  };
  auto session = CountSession::open(catalog, kernel, encode_all(catalog, "cpu/event=0x3c/"), [] {
    CountOptions options = on_cpus({0, 1, 2, 3});
    options.aggregation = Aggregation::per_cpu;
    return options;
  }());
  ASSERT_TRUE(session.has_value()) << session.error().message;
  auto per_cpu = session->read();
  ASSERT_TRUE(per_cpu.has_value());
  // Two sockets of two cores, the second core of socket 1 without topology files.
  const std::map<int, pmucat::CpuPlace> places = {{0, {0, 0, 0}}, {1, {0, 0, 1}}, {2, {1, 0, 0}}};
  const Reading cores =
      pmucat::aggregate(*per_cpu, Aggregation::per_core, places, session->events());
  ASSERT_EQ(cores.values.size(), 4u);  // three cores, and CPU 3 alone
  const Reading sockets =
      pmucat::aggregate(*per_cpu, Aggregation::per_socket, places, session->events());
  ASSERT_EQ(sockets.values.size(), 3u);  // socket 0, socket 1, CPU 3
  EXPECT_EQ(sockets.values[0].raw, 1u + 2u);
  EXPECT_EQ(sockets.values[0].cpus, 2u);
  EXPECT_EQ(sockets.values[0].enabled, 200u);
  EXPECT_EQ(sockets.values[0].place.socket, 0);
  EXPECT_EQ(sockets.values[2].raw, 8u);
  EXPECT_TRUE(has_grade(sockets.values[0], TrustGrade::exact));

  TempTree host("topology");
  for (int cpu : {0, 1}) {
    const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    host.write(dir + "physical_package_id", "0\n");
    host.write(dir + "die_id", "0\n");
    host.write(dir + "core_id", std::to_string(cpu * 4) + "\n");
  }
  const std::vector<int> cpus = {0, 1, 2};
  const auto read = pmucat::cpu_places(cpus, host.root().string());
  ASSERT_EQ(read.size(), 2u);  // CPU 2 has no files
  EXPECT_EQ(read.at(1), (pmucat::CpuPlace{0, 0, 4}));
}

TEST(CountTargets, ThreadsOfThisProcessAndOnlineCpus) {
  auto threads = pmucat::threads_of(::getpid());
  ASSERT_TRUE(threads.has_value()) << threads.error().message;
  EXPECT_NE(std::find(threads->begin(), threads->end(), ::getpid()), threads->end());
  auto missing = pmucat::threads_of(0x7ffffff0);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, DiagId::count_target_invalid);
  TempTree host("host");
  host.write("sys/devices/system/cpu/online", "0-2,5\n");
  auto cpus = pmucat::online_cpus(host.root().string());
  ASSERT_TRUE(cpus.has_value());
  EXPECT_EQ(*cpus, (std::vector<int>{0, 1, 2, 5}));
  EXPECT_FALSE(pmucat::online_cpus(host.path("nowhere").string()).has_value());
}

}  // namespace

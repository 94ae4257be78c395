// Internal unit test of src/perfdata_proto/profile.proto: pprof output read back with its code.
// A recording made here (mappings, callchains, a LOST record, two events) converted by to_pprof
// and by `pmudata convert --to pprof`; and a differential check against quipper's
// perf_to_profile on the shared corpus (sample totals per sample type, the mappings samples
// use, the location addresses).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_proto.h"
#include "pmucat/perfdata_records.h"
#include "profile.pb.h"
#include "shared_dir.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace pp = perftools::profiles;

constexpr std::uint16_t kKernel = 1, kUser = 2;
constexpr std::uint64_t kContextUser = static_cast<std::uint64_t>(-512);
constexpr std::uint64_t kKernelIp = 0xffffffff81000100;

// A mapping as (start, limit, offset, filename, build id).
using MappingTuple =
    std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string, std::string>;

struct Summary {
  std::vector<std::string> sample_types;
  std::vector<std::int64_t> totals;                  // per sample type
  std::set<MappingTuple> mappings;                   // those a location refers to
  std::set<std::uint64_t> addresses;                 // of every location
  std::map<std::uint64_t, MappingTuple> mapping_of;  // by location address (mapped ones)
  std::vector<std::string> comments;
  std::string default_type;
};

Summary summarize(const pp::Profile& p) {
  Summary s;
  const auto str = [&](std::int64_t i) { return p.string_table(static_cast<int>(i)); };
  for (const auto& t : p.sample_type())
    s.sample_types.push_back(str(t.type()) + "/" + str(t.unit()));
  s.totals.assign(static_cast<std::size_t>(p.sample_type_size()), 0);
  for (const auto& sample : p.sample()) {
    for (int i = 0; i < sample.value_size() && i < p.sample_type_size(); ++i) {
      s.totals[static_cast<std::size_t>(i)] += sample.value(i);
    }
  }
  for (auto c : p.comment()) s.comments.push_back(str(c));
  s.default_type = str(p.default_sample_type());
  std::map<std::uint64_t, MappingTuple> by_id;
  for (const auto& m : p.mapping()) {
    by_id[m.id()] = {m.memory_start(), m.memory_limit(), m.file_offset(), str(m.filename()),
                     str(m.build_id())};
  }
  for (const auto& loc : p.location()) {
    s.addresses.insert(loc.address());
    if (auto it = by_id.find(loc.mapping_id()); it != by_id.end()) {
      s.mappings.insert(it->second);
      s.mapping_of[loc.address()] = it->second;
    }
  }
  return s;
}

pp::Profile parse(const std::string& bytes) {
  pp::Profile p;
  EXPECT_TRUE(p.ParseFromString(bytes));
  return p;
}

// An MMAP2 record carrying its build id (20 bytes of 0xcd) instead of device and inode.
Record mmap2_with_build_id(std::uint32_t pid, std::uint64_t start, std::uint64_t len,
                           std::uint64_t pgoff, const std::string& filename) {
  Record r;
  r.type = record_type::mmap2;
  r.misc = kUser | (1u << 14);
  const auto put = [&](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) r.payload.push_back(static_cast<std::byte>(v >> (8 * i)));
  };
  put(pid, 4);
  put(pid, 4);
  put(start, 8);
  put(len, 8);
  put(pgoff, 8);
  put(20, 1);
  put(0, 3);
  for (int i = 0; i < 20; ++i) put(0xcd, 1);
  put(5, 4);  // prot
  put(2, 4);  // flags
  for (char c : filename) put(static_cast<unsigned char>(c), 1);
  do {
    put(0, 1);
  } while (r.payload.size() % 8 != 0);
  return r;
}

// One event (cycles, callchains), a user and a kernel mapping, a process and its fork.
PerfData recording() {
  PerfData data;
  Attr a;
  a.type = 0;
  a.size = kAttrSizeVer7;
  a.sample_period = 1000;
  a.sample_type = sample::ip | sample::tid | sample::period | sample::callchain;
  a.sample_id_all = false;
  data.events.push_back({a, {7}, "cycles"});
  const SampleFields none;
  data.records.push_back(make_comm_record(100, 100, "demo", false, none, a));
  data.records.push_back(
      make_mmap_record(100, 100, 0x400000, 0x1000, 0, "/usr/bin/demo", kUser, none, a));
  data.records.push_back(make_mmap_record(0xffffffffu, 0, 0xffffffff81000000, 0x1000000, 0,
                                          "[kernel.kallsyms]_text", kKernel, none, a));
  data.records.push_back(make_fork_record(false, 101, 100, 101, 100, 0, none, a));
  // A FORK written after the child's own MMAP (another CPU's buffer): the child's mapping stays.
  data.records.push_back(
      make_mmap_record(102, 102, 0x400000, 0x2000, 0, "/usr/bin/other", kUser, none, a));
  data.records.push_back(make_fork_record(false, 102, 100, 102, 100, 0, none, a));
  data.records.push_back(
      mmap2_with_build_id(100, 0x7f0000000000, 0x2000, 0x1000, "/usr/lib/libx.so"));
  const auto add = [&](std::uint32_t pid, std::uint64_t ip, std::uint64_t period,
                       std::vector<std::uint64_t> chain, std::uint16_t mode) {
    SampleFields f;
    f.pid = f.tid = pid;
    f.ip = ip;
    f.period = period;
    f.callchain = std::move(chain);
    data.records.push_back(make_sample_record(f, a, mode));
  };
  // The callchain repeats the ip; 0x400000 is a mapping's start and 0x900000 in no mapping:
  // both are dropped, the rest become return address - 1.
  const std::vector<std::uint64_t> chain = {kContextUser, 0x400010, 0x400101, 0x400000, 0x900000};
  add(100, 0x400010, 1000, chain, kUser);
  add(100, 0x400010, 500, chain, kUser);
  add(101, 0x400020, 0, {}, kUser);   // the forked child sees its parent's mappings; period 0
  add(100, 0x12345, 200, {}, kUser);  // no mapping: address 0
  add(100, kKernelIp, 300, {}, kKernel);
  add(100, 0x7f0000000010, 400, {}, kUser);
  add(102, 0x401800, 100, {}, kUser);
  // A LOST record (no VERSION feature: counted as perf before 6.1 does): 3 samples.
  Record lost;
  lost.type = record_type::lost;
  lost.payload.resize(16);
  lost.payload[0] = std::byte{7};
  lost.payload[8] = std::byte{3};
  data.records.push_back(lost);
  const BuildId demo{.misc = kUser,
                     .pid = 100,
                     .id = std::vector<std::byte>(20, std::byte{0xab}),
                     .filename = "/usr/bin/demo"};
  data.features[feature::build_id] = encode_build_ids(std::vector<BuildId>{demo});
  data.features[feature::event_desc] = encode_event_desc(data.events, kAttrSizeVer7);
  return data;
}

void expect_recording(const pp::Profile& p) {
  ASSERT_GT(p.string_table_size(), 0);
  EXPECT_EQ(p.string_table(0), "");
  const Summary s = summarize(p);
  EXPECT_EQ(s.sample_types,
            (std::vector<std::string>{"cycles_sample/count", "cycles_event/count"}));
  EXPECT_EQ(p.string_table(static_cast<int>(p.default_sample_type())), "cycles_event");
  // 7 samples and 3 lost; weights: periods, the attr's period where a sample has none.
  EXPECT_EQ(s.totals,
            (std::vector<std::int64_t>{10, 1000 + 500 + 1000 + 200 + 300 + 400 + 100 + 3 * 1000}));
  const MappingTuple demo{0x400000, 0x401000, 0, "/usr/bin/demo", [] {
                            std::string hex;
                            for (int i = 0; i < 20; ++i) hex += "ab";
                            return hex;
                          }()};
  const MappingTuple kernel{0xffffffff81000000, 0xffffffff82000000, 0, "[kernel.kallsyms]_text",
                            ""};
  const MappingTuple lost{std::uint64_t{9} << 60, (std::uint64_t{9} << 60) + 1, 0, "[lost]", ""};
  const MappingTuple libx{0x7f0000000000, 0x7f0000002000, 0x1000, "/usr/lib/libx.so", [] {
                            std::string hex;
                            for (int i = 0; i < 20; ++i) hex += "cd";
                            return hex;
                          }()};
  const MappingTuple other{0x400000, 0x402000, 0, "/usr/bin/other", ""};
  EXPECT_EQ(s.mappings, (std::set<MappingTuple>{demo, kernel, lost, libx, other}));
  EXPECT_EQ(s.mapping_of.at(0x401800), other);
  EXPECT_EQ(s.addresses,
            (std::set<std::uint64_t>{0x400010, 0x400100, 0x400020, 0, kKernelIp, 0x7f0000000010,
                                     0x401800, std::uint64_t{9} << 60}));
  EXPECT_EQ(s.mapping_of.at(0x400100), demo);
  EXPECT_EQ(s.mapping_of.at(kKernelIp), kernel);
  EXPECT_EQ(s.mapping_of.count(0), 0u);
  EXPECT_EQ(p.function_size(), 0);
  // Equal stacks are one sample: {0x400010, 0x400100} twice.
  int merged = 0;
  for (const auto& sample : p.sample()) {
    if (sample.location_id_size() == 2) {
      ++merged;
      EXPECT_EQ(sample.value(0), 2);
      EXPECT_EQ(sample.value(1), 1500);
    }
  }
  EXPECT_EQ(merged, 1);
  EXPECT_EQ(p.sample_size(), 7);
}

TEST(Pprof, RecordingConvertsWithMappingsAndLocations) {
  const auto bytes = to_pprof(recording());
  ASSERT_TRUE(bytes) << bytes.error().message;
  expect_recording(parse(*bytes));
}

TEST(Pprof, PmudataConvertWritesTheSameProfile) {
  testing::ScratchDir dir("pprof");
  ASSERT_FALSE(write_perf_data(dir.path() / "perf.data", recording(), WriterOptions{}));
  const auto r = testing::run_tool_command(
      "pmudata convert " + testing::shell_quote((dir.path() / "perf.data").string()) + " " +
          testing::shell_quote((dir.path() / "out.pprof").string()),
      "");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_recording(parse(testing::read_text(dir.path() / "out.pprof")));
  // --to pprof whatever the extension, from a PerfDataProto too.
  const auto r2 = testing::run_tool_command(
      "cd " + testing::shell_quote(dir.path().string()) +
          " && pmudata convert perf.data x.pb && pmudata convert --to pprof x.pb x.out",
      "");
  ASSERT_EQ(r2.status, 0) << r2.err;
  expect_recording(parse(testing::read_text(dir.path() / "x.out")));
}

// A sample written before the MMAP that maps it (each CPU's buffer is written in turn): handled
// in time order, as perf_to_profile's parser sorts them, it is mapped.
TEST(Pprof, RecordsAreHandledInTimeOrder) {
  PerfData data;
  Attr a;
  a.type = 1;
  a.size = kAttrSizeVer7;
  a.sample_period = 1;
  a.sample_type = sample::ip | sample::tid | sample::time | sample::period;
  a.sample_id_all = true;
  data.events.push_back({a, {7}, "page-faults"});
  SampleFields s;
  s.pid = s.tid = 9;
  s.ip = 0x400010;
  s.period = 1;
  s.time = 300;
  data.records.push_back(make_sample_record(s, a, kUser));
  SampleFields id;
  id.pid = id.tid = 9;
  id.time = 200;
  data.records.push_back(
      make_mmap_record(9, 9, 0x400000, 0x1000, 0, "/usr/bin/child", kUser, id, a));
  data.records.push_back(make_finished_round_record());
  const auto bytes = to_pprof(data);
  ASSERT_TRUE(bytes) << bytes.error().message;
  const Summary sum = summarize(parse(*bytes));
  ASSERT_EQ(sum.mapping_of.count(0x400010), 1u);
  EXPECT_EQ(sum.mapping_of.at(0x400010),
            (MappingTuple{0x400000, 0x401000, 0, "/usr/bin/child", ""}));
  EXPECT_EQ(sum.totals, (std::vector<std::int64_t>{1, 1}));
}

TEST(Pprof, OtherEndianIsRefused) {
  PerfData data = recording();
  data.other_endian = true;
  const auto bytes = to_pprof(data);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error().id, "perfdata-malformed");
}

// perf_to_profile (quipper) against `pmudata convert --to pprof` on every corpus file.
TEST(Pprof, AgreesWithPerfToProfileOnTheCorpus) {
  const auto corpus = testing::shared_dir() / "perfdata-corpus";
  const std::filesystem::path quipper =
      std::filesystem::path(testing::source_dir()) / ".cache/quipper-build/perf_to_profile";
  if (!std::filesystem::is_directory(corpus)) GTEST_SKIP() << "no corpus at " << corpus;
  if (!std::filesystem::is_regular_file(quipper)) {
    GTEST_SKIP() << "quipper is not built (" << quipper
                 << "): ctest -R perfdata_quipper_interop builds it";
  }
  testing::ScratchDir dir("pprof-diff");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    const auto name = entry.path().filename().string();
    if (!name.starts_with("perf.data")) continue;
    SCOPED_TRACE(name);
    ++files;
    const auto theirs = dir.path() / (name + ".quipper");
    const auto ours = dir.path() / (name + ".pmucat");
    const auto q = testing::run_command(testing::shell_quote(quipper.string()) + " -f -i " +
                                        testing::shell_quote(entry.path().string()) + " -o " +
                                        testing::shell_quote(theirs.string()));
    ASSERT_EQ(q.status, 0) << q.err;
    const auto r = testing::run_tool_command("pmudata convert --to pprof " +
                                                 testing::shell_quote(entry.path().string()) + " " +
                                                 testing::shell_quote(ours.string()),
                                             "");
    ASSERT_EQ(r.status, 0) << r.err;
    const Summary a = summarize(parse(testing::read_text(theirs)));
    const Summary b = summarize(parse(testing::read_text(ours)));
    EXPECT_EQ(a.sample_types, b.sample_types);
    EXPECT_EQ(a.totals, b.totals);
    EXPECT_EQ(a.mappings, b.mappings);
    EXPECT_EQ(a.addresses, b.addresses);
    EXPECT_EQ(a.comments, b.comments);
    EXPECT_EQ(a.default_type, b.default_type);
    EXPECT_FALSE(b.addresses.empty());
  }
  EXPECT_GT(files, 0);
}

}  // namespace
PMUCAT_END_NAMESPACE

// Internal unit test of src/perfdata/perf_data.proto: conversions read back with its code.
// perf.data <-> PerfDataProto: lossless both ways for our files, perf's files and the corpus;
// stable proto -> perf.data -> proto; quipper-only protos (no pmucat extensions) still convert.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>

#include "model_builder.h"
#include "perf_data.pb.h"
#include "perfdata_proto/proto_records.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_proto.h"
#include "pmucat/perfdata_records.h"
#include "shared_dir.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

const std::filesystem::path kCorpus = testing::shared_dir() / "perfdata-corpus";

void expect_lossless(const PerfData& data, const std::string& what) {
  for (auto format : {ProtoFormat::binary, ProtoFormat::text}) {
    const auto proto = to_perf_data_proto(data, format);
    ASSERT_TRUE(proto) << what;
    const auto back = from_perf_data_proto(*proto, format, what);
    ASSERT_TRUE(back) << what << ": " << back.error().message;
    EXPECT_EQ(*back, data) << what;
    // proto -> perf.data -> proto is stable, byte for byte.
    const auto again = to_perf_data_proto(*back, format);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *proto) << what;
  }
}

// How many records needed the raw extension (typed quipper messages did not suffice).
std::size_t raw_records(const PerfData& data) {
  quipper::PerfDataProto proto;
  EXPECT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  std::size_t n = 0;
  for (const auto& e : proto.events()) n += e.has_pmucat_raw() ? 1 : 0;
  return n;
}

// The first event of a record type (events are in time order, not file order).
const quipper::PerfDataProto::PerfEvent& first_of(const quipper::PerfDataProto& proto,
                                                  std::uint32_t type) {
  for (const auto& e : proto.events()) {
    if (e.header().type() == type) return e;
  }
  static const quipper::PerfDataProto::PerfEvent none;
  ADD_FAILURE() << "no event of type " << type;
  return none;
}

TEST(PerfDataProto, OurModelsAreLosslessAndFullyTyped) {
  for (auto mode : {PerfDataMode::file, PerfDataMode::pipe}) {
    for (std::uint32_t events : {1u, 3u}) {
      test::ModelSpec spec;
      spec.mode = mode;
      spec.events = events;
      const auto model = test::demo_model(spec);
      expect_lossless(model, "demo");
      EXPECT_EQ(raw_records(model), 0u);
    }
  }
}

TEST(PerfDataProto, TypedFieldsCarryQuippersView) {
  test::ModelSpec spec;
  spec.events = 2;
  const auto model = test::demo_model(spec);
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(model, ProtoFormat::binary)));
  ASSERT_EQ(proto.file_attrs_size(), 2);
  EXPECT_EQ(proto.file_attrs(1).attr().config(), 1u);
  EXPECT_EQ(proto.file_attrs(1).ids(0), 101u);
  ASSERT_EQ(proto.event_types_size(), 2);
  EXPECT_EQ(proto.event_types(1).name(), "event1");
  EXPECT_EQ(proto.event_types(1).id(), 1u);  // quipper: id = attr.config
  EXPECT_EQ(proto.string_metadata().hostname().value(), "testhost");
  EXPECT_EQ(proto.string_metadata().perf_command_line_whole().value(), "/usr/bin/pmucat record");
  ASSERT_EQ(proto.pmu_mappings_size(), 2);
  EXPECT_EQ(proto.pmu_mappings(1).name(), "cpu");
  ASSERT_GE(proto.events_size(), 3);
  const auto& comm = first_of(proto, record_type::comm);
  EXPECT_EQ(comm.comm_event().comm(), "demo");
  EXPECT_EQ(comm.comm_event().sample_info().id(), 100u);
  const auto& sample = first_of(proto, record_type::sample);
  EXPECT_EQ(sample.sample_event().ip(), 0x400000u);
  EXPECT_EQ(sample.timestamp(), 1'000'000'001u);
  EXPECT_EQ(proto.pmucat_features_size(), 0);  // every feature was typed exactly
  EXPECT_EQ(proto.metadata_mask(0) >> feature::hostname & 1, 1u);
}

TEST(PerfDataProto, QuipperOnlyProtoStillConverts) {
  test::ModelSpec spec;
  spec.events = 2;
  const auto model = test::demo_model(spec);
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(model, ProtoFormat::binary)));
  // What quipper itself would have: no pmucat extension fields.
  proto.clear_pmucat_features();
  proto.clear_pmucat_event_names();
  proto.clear_pmucat_pipe_mode();
  proto.clear_pmucat_pipe_end_marker();
  for (auto& fa : *proto.mutable_file_attrs()) fa.mutable_attr()->clear_pmucat_flags();
  const auto back = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "q");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->events, model.events);
  EXPECT_EQ(back->records, model.records);
  EXPECT_EQ(back->features, model.features);
  if (!testing::have_perf()) return;
  testing::ScratchDir dir;
  ASSERT_FALSE(write_perf_data(dir / "q.data", *back, {}));
  const auto r = testing::run_command("perf script -i '" + (dir / "q.data").string() + "'");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("event1:"), std::string::npos) << r.out;
}

TEST(PerfDataProto, GarbageIsAnError) {
  EXPECT_FALSE(from_perf_data_proto("\xff\xff\xff", ProtoFormat::binary, "g"));
  EXPECT_FALSE(from_perf_data_proto("file_attrs { nonsense: 1 }", ProtoFormat::text, "g"));
  // A typed sample with no attr to lay it out cannot become a record.
  EXPECT_FALSE(from_perf_data_proto("events { header { type: 9 } sample_event { ip: 1 } }",
                                    ProtoFormat::text, "g"));
}

// A declared attr size was allocated as is (8.4 GB for a 4 GiB `size`); it is checked first.
TEST(PerfDataProto, DeclaredAttrSizeIsCheckedBeforeUse) {
  const auto bytes = to_perf_data_proto(test::demo_model({}), ProtoFormat::binary);
  ASSERT_TRUE(bytes);
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*bytes));
  auto& attr = *proto.mutable_file_attrs(0)->mutable_attr();
  // Ours: the real size is pmucat_size.
  attr.set_pmucat_size(0xffffffffu);
  auto back = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "b.pb");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("file_attrs[0].attr.pmucat_size 4294967295"),
            std::string::npos)
      << back.error().message;
  // quipper's: only `size`.
  attr.clear_pmucat_size();
  attr.set_size(0xffffffffu);
  back = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "b.pb");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("file_attrs[0].attr.size 4294967295"), std::string::npos)
      << back.error().message;
}

// The feature gap a proto declares is bounded like the index it stands for.
TEST(PerfDataProto, DeclaredFeatureGapIsChecked) {
  quipper::PerfDataProto proto;
  ASSERT_TRUE(
      proto.ParseFromString(*to_perf_data_proto(test::demo_model({}), ProtoFormat::binary)));
  proto.set_pmucat_feature_gap(kMaxFeatureGap + 1);
  const auto back = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "g.pb");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("pmucat_feature_gap"), std::string::npos)
      << back.error().message;
  proto.set_pmucat_feature_gap(32);
  const auto ok = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "g.pb");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->feature_gap, 32u);
}

// quipper writes records it has no message for as a bare header.
TEST(PerfDataProto, HeaderOnlyRecordsConvert) {
  const auto parsed =
      from_perf_data_proto("events { header { type: 70 size: 8 } }", ProtoFormat::text, "h");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->records.size(), 1u);
  EXPECT_EQ(parsed->records[0].type, 70u);
  EXPECT_TRUE(parsed->records[0].payload.empty());
  EXPECT_FALSE(
      from_perf_data_proto("events { header { type: 70 size: 16 } }", ProtoFormat::text, "h"));
}

// Found by perfdata_fuzz: protobuf's default error collector printed every text-format error to
// stderr from inside the library. The first error is now in the diagnostic instead.
// SAMPLE_ID without IDENTIFIER: the writer decodes a sample with the first attr's layout, the
// reader finds the attr again by the id it carries; when that id names another event with
// another layout, the typed form would come back with the wrong fields, so the record must be
// stored raw. Found by perfdata_fuzz (crash-c40d6c73..., now in fuzz/regressions/perfdata).
TEST(PerfDataProto, SampleWhoseIdNamesAnotherLayoutIsLossless) {
  PerfData data;
  Attr first = test::demo_attr({}, 0);
  first.sample_type = sample::ip | sample::tid | sample::time | sample::id | sample::period;
  Attr second = first;
  second.config[0] = 1;
  second.sample_type |= sample::cpu | sample::addr;
  data.events.push_back({first, {100}, "first"});
  data.events.push_back({second, {101}, "second"});
  for (std::uint64_t id : {100u, 101u}) {
    SampleFields f;
    f.ip = 0x400000;
    f.pid = f.tid = 4242;
    f.time = 1'000'000'000;
    f.id = id;
    f.period = 1000;
    data.records.push_back(make_sample_record(f, first, 2));
  }
  expect_lossless(data, "id without identifier");
}

// perf.data strings are bytes, not UTF-8: PerfDataProto is proto2, whose `string` fields carry
// any bytes on the wire (protobuf only logs, in debug builds), and the text format escapes them.
TEST(PerfDataProto, NonUtf8StringsAreLossless) {
  test::ModelSpec spec;
  PerfData data = test::demo_model(spec);
  data.features[feature::hostname] = encode_feature_string("host\xff\xfe");
  const std::vector<PmuMapping> pmus = {{4, "cpu\xc3\x28"}};
  data.features[feature::pmu_mappings] = encode_pmu_mappings(pmus);
  data.events.front().name = "ev\x80";
  SampleFields id;
  id.pid = id.tid = 4242;
  data.records.push_back(
      make_comm_record(4242, 4242, "c\xff", false, id, data.events.front().attr));
  data.records.push_back(make_mmap_record(4242, 4242, 0x400000, 0x1000, 0, "/lib/\xfe\xff.so", 2,
                                          id, data.events.front().attr));
  expect_lossless(data, "non-UTF-8 strings");
}

TEST(PerfDataProto, TextParseErrorsGoIntoTheDiagnosticNotStderr) {
  ::testing::internal::CaptureStderr();
  const auto parsed = from_perf_data_proto("file_attrs {\n  nonsense: 1 }", ProtoFormat::text, "g");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_FALSE(parsed);
  // Located: the error is on line 2 of the text.
  EXPECT_NE(parsed.error().message.find("PerfDataProto: 2:"), std::string::npos)
      << parsed.error().message;
  EXPECT_NE(parsed.error().message.find("nonsense"), std::string::npos) << parsed.error().message;
}

TEST(PerfDataProto, CorpusIsLossless) {
  std::error_code ec;
  if (!std::filesystem::exists(kCorpus, ec)) GTEST_SKIP() << "corpus absent";
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("perf.data", 0) != 0) continue;
    const auto data = read_perf_data(entry.path());
    ASSERT_TRUE(data) << name;
    expect_lossless(*data, name);
    // Most records map onto quipper's typed messages.
    EXPECT_LT(raw_records(*data) * 2, data->records.size()) << name;
  }
}

TEST(PerfDataProto, PerfRecordedFileIsLossless) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  testing::ScratchDir dir;
  const auto rec = testing::run_command("perf record -q -e cpu-clock -o '" +
                                        (dir / "r.data").string() + "' -- /bin/true");
  if (rec.status != 0) GTEST_SKIP() << "perf record is not permitted here";
  const auto data = read_perf_data(dir / "r.data");
  ASSERT_TRUE(data);
  expect_lossless(*data, "perf record");
  const auto proto = to_perf_data_proto(*data, ProtoFormat::binary);
  const auto back = from_perf_data_proto(*proto, ProtoFormat::binary, "r.pb");
  ASSERT_FALSE(write_perf_data(dir / "back.data", *back, options_like(*back)));
  const auto a = testing::run_command("perf script -i '" + (dir / "r.data").string() + "'");
  const auto b = testing::run_command("perf script -i '" + (dir / "back.data").string() + "'");
  EXPECT_EQ(a.out, b.out);
  // Byte for byte, also the zeroed index slots perf record leaves after its feature index.
  EXPECT_EQ(testing::read_bytes(dir / "back.data"), testing::read_bytes(dir / "r.data"));
}

// Samples with REGS_USER, STACK_USER and REGS_INTR (--call-graph dwarf, --user-regs,
// --intr-regs) are SampleEvents with our extension fields, not raw records, and come back exact.
std::size_t raw_samples(const PerfData& data) {
  quipper::PerfDataProto proto;
  EXPECT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  std::size_t n = 0;
  for (const auto& e : proto.events()) {
    n += e.has_pmucat_raw() && e.header().type() == record_type::sample ? 1 : 0;
  }
  return n;
}

TEST(PerfDataProto, UserRegsAndStackSamplesAreSampleEvents) {
  test::ModelSpec spec;
  spec.samples = 4;
  PerfData data = test::demo_model(spec);
  Attr& attr = data.events.front().attr;
  attr.sample_type |= sample::regs_user | sample::stack_user | sample::regs_intr;
  attr.sample_regs_user = 0x7;  // three registers
  attr.sample_stack_user = 64;
  attr.sample_regs_intr = 0x1;
  std::size_t n = 0;
  for (auto& r : data.records) {
    if (r.type != record_type::sample) continue;
    SampleFields f;
    f.ip = 0x400000 + n;
    f.pid = f.tid = 4242;
    f.time = 1'000'000'001 + n;
    f.period = 1000;
    std::vector<std::byte> bytes;
    struct Words {
      std::vector<std::byte>& out;
      Words& put(std::uint64_t w) {
        const auto* p = reinterpret_cast<const std::byte*>(&w);
        out.insert(out.end(), p, p + 8);
        return *this;
      }
    } rest{bytes};
    // REGS_USER: ABI 2 (64-bit) and three registers, or ABI 0 (none) for every other sample.
    rest.put(std::uint64_t{n % 2 == 0 ? 2u : 0u});
    if (n % 2 == 0) rest.put(std::uint64_t{1}).put(std::uint64_t{2}).put(std::uint64_t{3});
    // STACK_USER: 16 bytes and dyn_size 12, or size 0 (nothing follows).
    if (n < 2) {
      rest.put(std::uint64_t{16});
      for (std::uint64_t w : {0x1122334455667788ull, 0x99aabbccddeeff00ull}) rest.put(w);
      rest.put(std::uint64_t{12});
    } else {
      rest.put(std::uint64_t{0});
    }
    rest.put(std::uint64_t{2}).put(std::uint64_t{0xfeed});  // REGS_INTR: ABI 2, one register
    f.rest = bytes;
    r = make_sample_record(f, attr, 2);
    ++n;
  }
  ASSERT_EQ(n, 4u);
  expect_lossless(data, "regs/stack samples");
  EXPECT_EQ(raw_samples(data), 0u);
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  bool seen = false;
  for (const auto& e : proto.events()) {
    if (!e.has_sample_event() || e.sample_event().pmucat_stack_user().empty()) continue;
    seen = true;
    EXPECT_EQ(e.sample_event().pmucat_regs_user_abi(), 2u);
    EXPECT_EQ(e.sample_event().pmucat_regs_user_size(), 3);
    EXPECT_EQ(e.sample_event().pmucat_stack_user().size(), 16u);
    EXPECT_EQ(e.sample_event().pmucat_stack_user_dyn_size(), 12u);
    EXPECT_EQ(e.sample_event().pmucat_regs_intr_size(), 1);
    break;
  }
  EXPECT_TRUE(seen);
}

TEST(PerfDataProto, PerfDwarfCallGraphRecordingIsTypedAndLossless) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  testing::ScratchDir dir;
  const auto in = dir / "dwarf.data";
  for (const std::string options : {"--call-graph dwarf", "--user-regs=ip,sp"}) {
    const auto rec = testing::run_command(
        "perf record -q " + options + " -e page-faults -c 1 -o '" + in.string() + "' -- /bin/true");
    if (rec.status != 0) GTEST_SKIP() << "perf record is not permitted here";
    const auto data = read_perf_data(in);
    ASSERT_TRUE(data) << options;
    ASSERT_TRUE(data->events.front().attr.sample_type & sample::regs_user) << options;
    expect_lossless(*data, options);
    EXPECT_EQ(raw_samples(*data), 0u) << options;
    const auto proto = to_perf_data_proto(*data, ProtoFormat::binary);
    const auto back = from_perf_data_proto(*proto, ProtoFormat::binary, "d.pb");
    ASSERT_TRUE(back);
    ASSERT_FALSE(write_perf_data(dir / "back.data", *back, options_like(*back)));
    const auto a = testing::run_command("perf script -i '" + in.string() + "'");
    const auto b = testing::run_command("perf script -i '" + (dir / "back.data").string() + "'");
    EXPECT_EQ(a.out, b.out) << options;
  }
}

// Little-endian words and fixed fields for hand-made record payloads.
struct Payload {
  std::vector<std::byte> bytes;
  template <class T>
  Payload& put(T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      bytes.push_back(static_cast<std::byte>(static_cast<std::uint64_t>(v) >> (8 * i)));
    }
    return *this;
  }
  Payload& text(std::string_view s, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      bytes.push_back(static_cast<std::byte>(i < s.size() ? s[i] : '\0'));
    }
    return *this;
  }
  Payload& append(const std::vector<std::byte>& more) {
    bytes.insert(bytes.end(), more.begin(), more.end());
    return *this;
  }
};

Record record_of(std::uint32_t type, std::uint16_t misc, const Payload& p) {
  Record r;
  r.type = type;
  r.misc = misc;
  r.payload = p.bytes;
  return r;
}

// Every record type quipper has a message for beyond MMAP ... CGROUP: typed, no raw bytes beside.
PerfData model_with_quippers_record_types() {
  PerfData data = test::demo_model({});
  const Attr& attr = data.events.front().attr;
  SampleFields id;
  id.pid = id.tid = 7;
  id.time = 1'000'000'100;
  const auto trailer = encode_sample_id(id, attr);
  auto& r = data.records;
  r.push_back(record_of(record_type::time_conv, 0, Payload().put(1ull).put(2ull).put(3ull)));
  r.push_back(record_of(record_type::time_conv, 0,
                        Payload()
                            .put(31ull)
                            .put(1000ull)
                            .put(5ull)
                            .put(6ull)
                            .put(~0ull)
                            .put(std::uint8_t{1})
                            .put(std::uint8_t{0})
                            .text("", 6)));
  r.push_back(record_of(record_type::id_index, 0,
                        Payload()
                            .put(2ull)
                            .put(100ull)
                            .put(0ull)
                            .put(0ull)
                            .put(7ull)
                            .put(101ull)
                            .put(0ull)
                            .put(1ull)
                            .put(7ull)));
  r.push_back(record_of(record_type::stat_config, 0,
                        Payload().put(2ull).put(0ull).put(1ull).put(1ull).put(2ull)));
  r.push_back(record_of(record_type::stat, 0,
                        Payload().put(100ull).put(1u).put(2u).put(300ull).put(400ull).put(500ull)));
  r.push_back(record_of(record_type::ksymbol, 0,
                        Payload()
                            .put(0xffffffffc0000000ull)
                            .put(0x100u)
                            .put(std::uint16_t{1})
                            .put(std::uint16_t{0})
                            .text("bpf_prog_6deef7357e7b4530", 32)
                            .append(trailer)));
  r.push_back(
      record_of(record_type::auxtrace_info, 0, Payload().put(3u).put(0u).put(11ull).put(12ull)));
  r.push_back(record_of(record_type::auxtrace_error, 0,
                        Payload()
                            .put(1u)
                            .put(2u)
                            .put(3u)
                            .put(4u)
                            .put(5u)
                            .put(0u)
                            .put(0x400000ull)
                            .text("lost trace data", 64)));
  r.push_back(record_of(84, 0,
                        Payload()
                            .text("prog", 512)
                            .put(2ull)
                            .text("a_key", 64)
                            .text("one", 256)
                            .text("b_key", 64)
                            .text("two", 256)));
  std::vector<std::byte> build_id(20);
  for (std::size_t i = 0; i < 20; ++i) build_id[i] = static_cast<std::byte>(0xa0 + i);
  r.push_back(record_of(record_type::mmap2, 0x4000 | 2,
                        Payload()
                            .put(7u)
                            .put(7u)
                            .put(0x400000ull)
                            .put(0x1000ull)
                            .put(0ull)
                            .put(std::uint8_t{20})
                            .put(std::uint8_t{0})
                            .put(std::uint16_t{0})
                            .append(build_id)
                            .put(5u)
                            .put(2u)
                            .text("/bin/true", 16)
                            .append(trailer)));
  return data;
}

TEST(PerfDataProto, QuippersRecordTypesAreTypedAndLossless) {
  const PerfData data = model_with_quippers_record_types();
  expect_lossless(data, "quipper's record types");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  EXPECT_EQ(proto.pmucat_events_size(), 0);
  std::map<std::uint32_t, const quipper::PerfDataProto::PerfEvent*> by_type;
  for (const auto& e : proto.events()) {
    EXPECT_FALSE(e.has_pmucat_raw()) << e.header().type();
    by_type[e.header().type()] = &e;
  }
  EXPECT_EQ(by_type.at(record_type::time_conv)->time_conv_event().time_mask(), ~0ull);
  EXPECT_TRUE(by_type.at(record_type::time_conv)->time_conv_event().cap_user_time_zero());
  ASSERT_EQ(by_type.at(record_type::id_index)->id_index_event().entries_size(), 2);
  EXPECT_EQ(by_type.at(record_type::id_index)->id_index_event().entries(1).id(), 101u);
  EXPECT_EQ(by_type.at(record_type::stat_config)->stat_config_event().data(1).val(), 2u);
  EXPECT_EQ(by_type.at(record_type::stat)->stat_event().running(), 500u);
  EXPECT_EQ(by_type.at(record_type::ksymbol)->ksymbol_event().name(), "bpf_prog_6deef7357e7b4530");
  EXPECT_EQ(by_type.at(record_type::ksymbol)->ksymbol_event().sample_info().pid(), 7u);
  EXPECT_EQ(by_type.at(record_type::auxtrace_info)
                ->auxtrace_info_event()
                .unparsed_binary_blob_priv_data(1),
            12u);
  EXPECT_EQ(by_type.at(record_type::auxtrace_error)->auxtrace_error_event().msg(),
            "lost trace data");
  EXPECT_EQ(by_type.at(84)->bpf_metadata_event().metadata().at("b_key"), "two");
  EXPECT_EQ(by_type.at(record_type::mmap2)->mmap_event().build_id(),
            "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3");
}

// What quipper writes for perf >= 4.14 files: TIME_CONV and ID_INDEX as typed events, no pmucat
// extension: both become records of the layout perf writes.
TEST(PerfDataProto, QuippersTimeConvAndIdIndexConvert) {
  const auto parsed = from_perf_data_proto(
      "file_attrs { attr { type: 1 size: 96 sample_type: 7 sample_id_all: true } ids: 5 }\n"
      "events { header { type: 69 size: 48 } id_index_event { entries { id: 5 idx: 0 cpu: 1 "
      "tid: 2 } } }\n"
      "events { header { type: 79 size: 32 } time_conv_event { time_shift: 1 time_mult: 2 "
      "time_zero: 3 } }\n",
      ProtoFormat::text, "q.pbtxt");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->records.size(), 2u);
  EXPECT_EQ(parsed->records[0].size(), 48u);
  EXPECT_EQ(parsed->records[1].size(), 32u);
  EXPECT_EQ(parsed->records[1].payload, (Payload().put(1ull).put(2ull).put(3ull).bytes));
}

// A record the typed message cannot give back (bytes after the MMAP file name, as old perf left
// them) keeps the typed message for quipper, whose parser needs every MMAP's range, with the raw
// bytes beside it for us; header.size is the size quipper rebuilds.
// Every record as record_to_proto writes it when it skips the byte compare for samples known to
// be exact, and when it compares every record: the two must be the same message.
void expect_shortcut_agrees(const PerfData& data, const std::string& what) {
  const perfdata::AttrLookup lookup(data.events);
  std::size_t i = 0;
  for (const auto& r : data.records) {
    quipper::PerfDataProto::PerfEvent fast, checked;
    const bool a = perfdata::record_to_proto(r, lookup.find(r), data.events, fast);
    const bool b = perfdata::record_to_proto(r, lookup.find(r), data.events, checked, true);
    EXPECT_EQ(a, b) << what << " record " << i;
    EXPECT_EQ(fast.SerializeAsString(), checked.SerializeAsString()) << what << " record " << i;
    ++i;
  }
}

TEST(PerfDataProto, SamplesKnownExactNeedNoByteCompare) {
  // Corpus files and our own models: the shortcut changes nothing.
  expect_shortcut_agrees(test::demo_model({}), "demo model");
  std::error_code ec;
  if (std::filesystem::exists(kCorpus, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
      const auto name = entry.path().filename().string();
      if (name.rfind("perf.data", 0) != 0) continue;
      const auto data = read_perf_data(entry.path());
      ASSERT_TRUE(data) << name;
      expect_shortcut_agrees(*data, name);
    }
  }
  // Samples whose content the schema cannot hold: each one must be found inexact (and so
  // compared, and stored with its raw bytes).
  Attr attr = test::demo_attr({}, 0);
  attr.sample_type = sample::ip | sample::tid | sample::time | sample::id | sample::identifier |
                     sample::cpu | sample::period | sample::raw | sample::branch_stack;
  SampleFields base;
  base.ip = 0x400000;
  base.pid = base.tid = 7;
  base.time = 5;
  base.id = base.identifier = 100;
  base.period = 1;
  base.raw.assign(4, std::byte{1});  // 4 + 4 bytes: ends 8-aligned
  base.branch_nr = 1;
  base.branch_stack = {0x1000, 0x2000, 0x3};
  std::vector<std::pair<std::string, SampleFields>> inexact;
  inexact.emplace_back("identifier unlike id", base);
  inexact.back().second.identifier = 101;
  inexact.emplace_back("cpu reserved word", base);
  inexact.back().second.cpu_reserved = 9;
  inexact.emplace_back("raw not ending aligned", base);
  inexact.back().second.raw.assign(8, std::byte{1});
  inexact.emplace_back("branch flags past the schema", base);
  inexact.back().second.branch_stack[2] = std::uint64_t{1} << 40;
  EXPECT_TRUE(perfdata::sample_fields_round_trip(base, attr));
  PerfData data;
  data.events.push_back({attr, {100}, "e"});
  data.records.push_back(make_sample_record(base, attr, 2));
  for (const auto& [what, fields] : inexact) {
    EXPECT_FALSE(perfdata::sample_fields_round_trip(fields, attr)) << what;
    data.records.push_back(make_sample_record(fields, attr, 2));
  }
  expect_shortcut_agrees(data, "crafted samples");
  expect_lossless(data, "crafted samples");
  Attr aux = attr;
  aux.sample_type |= sample::aux;
  EXPECT_FALSE(perfdata::sample_fields_round_trip(base, aux));
}

TEST(PerfDataProto, InexactRecordsAreTypedWithTheRawBytesBeside) {
  PerfData data = test::demo_model({});
  Record mmap = make_mmap_record(4242, 4242, 0x400000, 0x2000, 0, "/bin/true", 2, {},
                                 data.events.front().attr);
  // pid, tid, addr, len, pgoff, then "/bin/true\0" padded to 16, and 8 more bytes of garbage
  // (old perf wrote the name into a larger buffer).
  const std::size_t name_end = 4 + 4 + 8 + 8 + 8 + 16;
  mmap.payload.insert(mmap.payload.begin() + name_end, 8, std::byte{0x5a});
  data.records.insert(data.records.begin() + 1, mmap);
  expect_lossless(data, "garbage after an MMAP name");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  const auto& e = first_of(proto, record_type::mmap);
  ASSERT_TRUE(e.has_mmap_event());
  EXPECT_EQ(e.mmap_event().start(), 0x400000u);
  EXPECT_EQ(e.mmap_event().len(), 0x2000u);
  EXPECT_EQ(e.mmap_event().filename(), "/bin/true");
  ASSERT_TRUE(e.has_pmucat_raw());
  EXPECT_EQ(e.pmucat_raw().payload().size(), mmap.payload.size());
  // What the typed message alone rebuilds: the name padded to 8 with zeros.
  EXPECT_EQ(e.header().size(), mmap.size() - 8);
}

// Records quipper has no message for sit outside `events`, where its writer would refuse them,
// and come back in their place.
TEST(PerfDataProto, RecordsWithoutAMessageArePlacedBesideTheEvents) {
  PerfData data = test::demo_model({});
  Record cpu_map = record_of(record_type::cpu_map, 0,
                             Payload().put(std::uint16_t{0}).put(std::uint16_t{1}).put(0u));
  Record init = record_of(record_type::finished_init, 0, Payload());
  data.records.insert(data.records.begin(), {cpu_map, init});
  data.records.push_back(cpu_map);
  expect_lossless(data, "CPU_MAP and FINISHED_INIT");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  ASSERT_EQ(proto.pmucat_events_size(), 3);
  EXPECT_EQ(proto.pmucat_events(0).position(), 0u);
  EXPECT_EQ(proto.pmucat_events(1).event().header().type(), record_type::finished_init);
  EXPECT_EQ(proto.pmucat_events(2).position(), static_cast<std::uint64_t>(proto.events_size()));
  for (const auto& e : proto.events()) {
    EXPECT_NE(e.header().type(), record_type::cpu_map);
    EXPECT_NE(e.header().type(), record_type::finished_init);
  }
  // The streaming reader places them the same way.
  testing::ScratchDir dir;
  const auto pb = dir / "placed.pb";
  {
    std::ofstream out(pb, std::ios::binary);
    out << *to_perf_data_proto(data, ProtoFormat::binary);
  }
  test::RecordCollector keep;
  ASSERT_TRUE(stream_perf_data_proto(pb, keep));
  EXPECT_EQ(keep.records, data.records);
}

// Each CPU's buffer is written in turn, so a child's sample can come before its FORK and MMAP
// in the file. quipper's perf_converter writes events sorted by time and perf_to_profile maps a
// proto's samples in the order it holds them: ours are sorted the same way (within perf's
// rounds), and read back in file order.
PerfData out_of_time_order() {
  test::ModelSpec spec;
  spec.samples = 0;
  PerfData data = test::demo_model(spec);
  data.records.clear();
  const Attr& a = data.events.front().attr;
  const auto id = [](std::uint64_t time) {
    SampleFields f;
    f.pid = f.tid = 7;
    f.time = time;
    return f;
  };
  const auto sample = [&](std::uint64_t time) {
    SampleFields f = id(time);
    f.ip = 0x400010;
    f.period = 1;
    return make_sample_record(f, a, 2);
  };
  data.records.push_back(sample(300));
  data.records.push_back(make_fork_record(false, 7, 1, 7, 1, 100, id(100), a));
  data.records.push_back(
      make_mmap_record(7, 7, 0x400000, 0x1000, 0, "/usr/bin/child", 2, id(200), a));
  data.records.push_back(make_finished_round_record());
  data.records.push_back(sample(500));
  data.records.push_back(make_comm_record(7, 7, "child", true, id(400), a));
  data.records.push_back(make_finished_round_record());
  data.records.push_back(sample(600));
  return data;
}

TEST(PerfDataProto, EventsAreInTimeOrderAndReadBackInFileOrder) {
  const PerfData data = out_of_time_order();
  expect_lossless(data, "out of time order");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  ASSERT_EQ(proto.events_size(), 8);
  std::vector<std::uint64_t> times;
  for (const auto& e : proto.events()) {
    if (e.header().type() != record_type::finished_round) times.push_back(e.timestamp());
  }
  EXPECT_EQ(times, (std::vector<std::uint64_t>{100, 200, 300, 400, 500, 600}));
  // The first round goes out at the second one's end (perf's rule), FINISHED_ROUNDs (no time,
  // 0 to quipper) first; the FORK and MMAP before the sample they map.
  std::vector<std::uint32_t> types;
  for (const auto& e : proto.events()) types.push_back(e.header().type());
  EXPECT_EQ(types, (std::vector<std::uint32_t>{
                       record_type::finished_round, record_type::finished_round, record_type::fork,
                       record_type::mmap, record_type::sample, record_type::comm,
                       record_type::sample, record_type::sample}));
  testing::ScratchDir dir;
  const auto pb = dir / "sorted.pb";
  {
    std::ofstream out(pb, std::ios::binary);
    out << *to_perf_data_proto(data, ProtoFormat::binary);
  }
  test::RecordCollector keep;
  ASSERT_TRUE(stream_perf_data_proto(pb, keep));
  EXPECT_EQ(keep.records, data.records);
}

TEST(PerfDataProto, OrderSkipOutOfPlaceIsAnError) {
  const PerfData data = out_of_time_order();
  testing::ScratchDir dir;
  for (const std::int64_t skip : {std::int64_t{1000}, std::int64_t{-1}, INT64_MIN, INT64_MAX}) {
    SCOPED_TRACE(skip);
    quipper::PerfDataProto proto;
    ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
    // The last event: out of range, or a place already taken.
    proto.mutable_events(proto.events_size() - 1)->set_pmucat_order_skip(skip);
    const std::string bytes = proto.SerializeAsString();
    const auto back = from_perf_data_proto(bytes, ProtoFormat::binary, "x.pb");
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().id, "perfdata-malformed");
    EXPECT_NE(back.error().message.find("pmucat_order_skip"), std::string::npos)
        << back.error().message;
    const auto pb = dir / "bad.pb";
    {
      std::ofstream out(pb, std::ios::binary | std::ios::trunc);
      out << bytes;
    }
    test::RecordCollector keep;
    const auto streamed = stream_perf_data_proto(pb, keep);
    ASSERT_FALSE(streamed);
    EXPECT_EQ(streamed.error().id, "perfdata-malformed");
  }
}

// A pipe-mode HEADER_TRACING_DATA record stays a record for us (pmucat_events); quipper reads
// its data from `tracing_data` (and writes it as the TRACING_DATA feature), which is marked as
// being there for quipper only.
TEST(PerfDataProto, PipeTracingDataIsQuippersTracingData) {
  test::ModelSpec spec;
  spec.mode = PerfDataMode::pipe;
  PerfData data = test::demo_model(spec);
  Record tracing;
  tracing.type = record_type::header_tracing_data;
  tracing.payload = {std::byte{8}, std::byte{0}, std::byte{0}, std::byte{0},
                     std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0}};
  tracing.trailer.assign(8, std::byte{0x42});
  data.records.insert(data.records.begin(), tracing);
  expect_lossless(data, "pipe tracing data");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  EXPECT_EQ(proto.tracing_data().tracing_data(), std::string(8, '\x42'));
  EXPECT_EQ(proto.metadata_mask(0) >> feature::tracing_data & 1, 1u);
  ASSERT_EQ(proto.pmucat_typed_only_features_size(), 1);
  const auto back = from_perf_data_proto(proto.SerializeAsString(), ProtoFormat::binary, "x.pb");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->features.count(feature::tracing_data), 0u);
}

// quipper's PerfEventAttr.size is its own 96-byte struct's; the real size rides in pmucat_size.
TEST(PerfDataProto, AttrSizeIsQuippersWithTheRealOneBeside) {
  quipper::PerfDataProto proto;
  ASSERT_TRUE(
      proto.ParseFromString(*to_perf_data_proto(test::demo_model({}), ProtoFormat::binary)));
  EXPECT_EQ(proto.file_attrs(0).attr().size(), 96u);
  EXPECT_EQ(proto.file_attrs(0).attr().pmucat_size(), kAttrSizeVer7);
}

TEST(PerfDataProto, HybridTopologyIsTyped) {
  PerfData data = test::demo_model({});
  const std::vector<HybridNode> nodes = {{"cpu_core", "0-3,8"}, {"cpu_atom", "4-7"}};
  data.features[feature::hybrid_topology] = encode_hybrid_topology(nodes);
  expect_lossless(data, "hybrid");
  quipper::PerfDataProto proto;
  ASSERT_TRUE(proto.ParseFromString(*to_perf_data_proto(data, ProtoFormat::binary)));
  ASSERT_EQ(proto.hybrid_topology_size(), 2);
  EXPECT_EQ(proto.hybrid_topology(0).cpus(), "0-3,8");
  EXPECT_EQ(std::vector<std::uint32_t>(proto.hybrid_topology(0).cpu_list().begin(),
                                       proto.hybrid_topology(0).cpu_list().end()),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 8}));
  for (const auto& f : proto.pmucat_features()) EXPECT_NE(f.id(), feature::hybrid_topology);
}

}  // namespace
PMUCAT_END_NAMESPACE

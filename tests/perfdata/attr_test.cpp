// perf_event_attr serialisation: bit positions, byte offsets, every ABI size, byte swapping,
// and perf's textual dump.
#include "pmucat/attr.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attr_gen.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct FlagBit {
  bool Attr::*member;
  int bit;
  const char* name;
};

// uapi bit positions, as listed in linux/perf_event.h (precise_ip sits at 15-16).
const FlagBit kFlagBits[] = {
    {&Attr::disabled, 0, "disabled"},
    {&Attr::inherit, 1, "inherit"},
    {&Attr::pinned, 2, "pinned"},
    {&Attr::exclusive, 3, "exclusive"},
    {&Attr::exclude_user, 4, "exclude_user"},
    {&Attr::exclude_kernel, 5, "exclude_kernel"},
    {&Attr::exclude_hv, 6, "exclude_hv"},
    {&Attr::exclude_idle, 7, "exclude_idle"},
    {&Attr::mmap, 8, "mmap"},
    {&Attr::comm, 9, "comm"},
    {&Attr::freq, 10, "freq"},
    {&Attr::inherit_stat, 11, "inherit_stat"},
    {&Attr::enable_on_exec, 12, "enable_on_exec"},
    {&Attr::task, 13, "task"},
    {&Attr::watermark, 14, "watermark"},
    {&Attr::mmap_data, 17, "mmap_data"},
    {&Attr::sample_id_all, 18, "sample_id_all"},
    {&Attr::exclude_host, 19, "exclude_host"},
    {&Attr::exclude_guest, 20, "exclude_guest"},
    {&Attr::exclude_callchain_kernel, 21, "exclude_callchain_kernel"},
    {&Attr::exclude_callchain_user, 22, "exclude_callchain_user"},
    {&Attr::mmap2, 23, "mmap2"},
    {&Attr::comm_exec, 24, "comm_exec"},
    {&Attr::use_clockid, 25, "use_clockid"},
    {&Attr::context_switch, 26, "context_switch"},
    {&Attr::write_backward, 27, "write_backward"},
    {&Attr::namespaces, 28, "namespaces"},
    {&Attr::ksymbol, 29, "ksymbol"},
    {&Attr::bpf_event, 30, "bpf_event"},
    {&Attr::aux_output, 31, "aux_output"},
    {&Attr::cgroup, 32, "cgroup"},
    {&Attr::text_poke, 33, "text_poke"},
    {&Attr::build_id, 34, "build_id"},
    {&Attr::inherit_thread, 35, "inherit_thread"},
    {&Attr::remove_on_exec, 36, "remove_on_exec"},
    {&Attr::sigtrap, 37, "sigtrap"},
};

TEST(AttrFlags, EachFlagHasItsUapiBit) {
  for (const auto& f : kFlagBits) {
    Attr attr;
    attr.*f.member = true;
    EXPECT_EQ(attr.flags_word(), std::uint64_t{1} << f.bit) << f.name;
    Attr back;
    back.set_flags_word(std::uint64_t{1} << f.bit);
    EXPECT_TRUE(back.*f.member) << f.name;
    EXPECT_EQ(back.flags_word(), std::uint64_t{1} << f.bit) << f.name;
  }
}

TEST(AttrFlags, PreciseIpIsTwoBitsAtFifteen) {
  for (std::uint8_t p = 0; p < 4; ++p) {
    Attr attr;
    attr.precise_ip = p;
    EXPECT_EQ(attr.flags_word(), std::uint64_t{p} << 15);
    Attr back;
    back.set_flags_word(std::uint64_t{p} << 15);
    EXPECT_EQ(back.precise_ip, p);
  }
}

TEST(AttrFlags, PerfRecordCpuClockWord) {
  // The flags word real `perf record -e cpu-clock` (perf 6.1) wrote.
  Attr attr;
  attr.set_flags_word(0x61943703);
  EXPECT_TRUE(attr.disabled && attr.inherit && attr.mmap && attr.comm && attr.freq &&
              attr.enable_on_exec && attr.task && attr.sample_id_all && attr.exclude_guest &&
              attr.mmap2 && attr.comm_exec && attr.ksymbol && attr.bpf_event);
  EXPECT_FALSE(attr.pinned || attr.exclude_kernel || attr.exclude_host);
  EXPECT_EQ(attr.flags_word(), 0x61943703u);
}

TEST(AttrFlags, ReservedBitsAreKeptAboveBit37) {
  Attr attr;
  attr.set_flags_word(0xffffffffffffffffull);
  EXPECT_EQ(attr.reserved_flags, 0xffffffc000000000ull);
  EXPECT_EQ(attr.precise_ip, 3);
  EXPECT_EQ(attr.flags_word(), 0xffffffffffffffffull);
}

RC_GTEST_PROP(AttrFlags, WordRoundTrips, (std::uint64_t word)) {
  Attr attr;
  attr.set_flags_word(word);
  RC_ASSERT(attr.flags_word() == word);
}

std::uint64_t read_le(const std::vector<std::byte>& bytes, std::size_t offset, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    v |= std::uint64_t{std::to_integer<std::uint8_t>(bytes[offset + i])} << (8 * i);
  }
  return v;
}

Attr distinct_attr() {
  Attr a;
  a.type = 0x11223344;
  a.size = kAttrSizeVer9;
  a.config = {0x0101010101010101, 0x0202020202020202, 0x0303030303030303, 0x0404040404040404,
              0x1414141414141414};
  a.sample_period = 0x0505050505050505;
  a.sample_type = 0x0606060606060606;
  a.read_format = 0x0707070707070707;
  a.set_flags_word(0x0000003fffff0001);
  a.watermark = false;
  a.freq = false;
  a.wakeup_events = 0x08080808;
  a.bp_type = 0x09090909;
  a.branch_sample_type = 0x0a0a0a0a0a0a0a0a;
  a.sample_regs_user = 0x0b0b0b0b0b0b0b0b;
  a.sample_stack_user = 0x0c0c0c0c;
  a.clockid = 0x0d0d0d0d;
  a.sample_regs_intr = 0x0e0e0e0e0e0e0e0e;
  a.aux_watermark = 0x0f0f0f0f;
  a.sample_max_stack = 0x1010;
  a.aux_sample_size = 0x12121212;
  a.sig_data = 0x1313131313131313;
  return a;
}

TEST(AttrBytes, FieldsSitAtTheirUapiOffsets) {
  const Attr a = distinct_attr();
  const auto bytes = to_bytes(a);
  ASSERT_EQ(bytes.size(), 144u);
  EXPECT_EQ(read_le(bytes, 0, 4), a.type);
  EXPECT_EQ(read_le(bytes, 4, 4), 144u);
  EXPECT_EQ(read_le(bytes, 8, 8), a.config[0]);
  EXPECT_EQ(read_le(bytes, 16, 8), a.sample_period);
  EXPECT_EQ(read_le(bytes, 24, 8), a.sample_type);
  EXPECT_EQ(read_le(bytes, 32, 8), a.read_format);
  EXPECT_EQ(read_le(bytes, 40, 8), a.flags_word());
  EXPECT_EQ(read_le(bytes, 48, 4), a.wakeup_events);
  EXPECT_EQ(read_le(bytes, 52, 4), a.bp_type);
  EXPECT_EQ(read_le(bytes, 56, 8), a.config[1]);
  EXPECT_EQ(read_le(bytes, 64, 8), a.config[2]);
  EXPECT_EQ(read_le(bytes, 72, 8), a.branch_sample_type);
  EXPECT_EQ(read_le(bytes, 80, 8), a.sample_regs_user);
  EXPECT_EQ(read_le(bytes, 88, 4), a.sample_stack_user);
  EXPECT_EQ(read_le(bytes, 92, 4), static_cast<std::uint32_t>(a.clockid));
  EXPECT_EQ(read_le(bytes, 96, 8), a.sample_regs_intr);
  EXPECT_EQ(read_le(bytes, 104, 4), a.aux_watermark);
  EXPECT_EQ(read_le(bytes, 108, 2), a.sample_max_stack);
  EXPECT_EQ(read_le(bytes, 110, 2), 0u);  // __reserved_2
  EXPECT_EQ(read_le(bytes, 112, 4), a.aux_sample_size);
  EXPECT_EQ(read_le(bytes, 116, 4), 0u);  // __reserved_3
  EXPECT_EQ(read_le(bytes, 120, 8), a.sig_data);
  EXPECT_EQ(read_le(bytes, 128, 8), a.config[3]);
  EXPECT_EQ(read_le(bytes, 136, 8), a.config[4]);
}

TEST(AttrBytes, UnionsFollowTheirSelectorFlags) {
  Attr a;
  a.freq = true;
  a.sample_freq = 4000;
  a.watermark = true;
  a.wakeup_watermark = 8192;
  const auto bytes = to_bytes(a);
  EXPECT_EQ(read_le(bytes, 16, 8), 4000u);
  EXPECT_EQ(read_le(bytes, 48, 4), 8192u);
  const auto back = attr_from_bytes(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->sample_freq, 4000u);
  EXPECT_EQ(back->sample_period, 0u);
  EXPECT_EQ(back->wakeup_watermark, 8192u);
  EXPECT_EQ(back->wakeup_events, 0u);
}

TEST(AttrBytes, ShorterThanVer0IsRejected) {
  std::vector<std::byte> bytes(63);
  EXPECT_FALSE(attr_from_bytes(bytes));
  EXPECT_FALSE(attr_from_bytes({}));
}

// Which fields an attr of `size` bytes can hold: the rest read back as zero.
Attr truncated_to(Attr a, std::uint32_t size) {
  auto keep = [size](std::size_t offset, std::size_t width) { return offset + width <= size; };
  if (!keep(64, 8)) a.config[2] = 0;
  if (!keep(72, 8)) a.branch_sample_type = 0;
  if (!keep(80, 8)) a.sample_regs_user = 0;
  if (!keep(88, 4)) a.sample_stack_user = 0;
  if (!keep(92, 4)) a.clockid = 0;
  if (!keep(96, 8)) a.sample_regs_intr = 0;
  if (!keep(104, 4)) a.aux_watermark = 0;
  if (!keep(108, 2)) a.sample_max_stack = 0;
  if (!keep(112, 4)) a.aux_sample_size = 0;
  if (!keep(120, 8)) a.sig_data = 0;
  if (!keep(128, 8)) a.config[3] = 0;
  if (!keep(136, 8)) a.config[4] = 0;
  return a;
}

TEST(AttrBytes, EverySizeFrom64To144) {
  for (std::uint32_t size = 64; size <= 144; ++size) {
    Attr a = distinct_attr();
    a.size = size;
    const auto bytes = to_bytes(a);
    ASSERT_EQ(bytes.size(), size);
    const auto back = attr_from_bytes(bytes);
    ASSERT_TRUE(back) << size;
    EXPECT_EQ(*back, truncated_to(a, size)) << "size " << size;
  }
}

TEST(AttrBytes, ExtraBytesPastVer9AreIgnored) {
  Attr a = distinct_attr();
  auto bytes = to_bytes(a);
  bytes.resize(160, std::byte{0xee});
  const auto back = attr_from_bytes(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, a);
}

RC_GTEST_PROP(AttrBytes, RoundTripsAtEverySize, ()) {
  Attr a = *test::gen_attr();
  a.size = *rc::gen::inRange<std::uint32_t>(64, 145);
  const auto back = attr_from_bytes(to_bytes(a));
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == truncated_to(a, a.size));
}

// An independent big-endian encoder: fields byte-reversed, and the bitfield laid out the way a
// big-endian compiler allocates it (first field in the most significant bit of byte 0).
std::vector<std::byte> to_big_endian_bytes(const Attr& a) {
  std::vector<std::byte> out(a.size);
  auto put = [&out](std::size_t offset, std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      out[offset + i] = static_cast<std::byte>((v >> (8 * (n - 1 - i))) & 0xff);
    }
  };
  put(0, a.type, 4);
  put(4, a.size, 4);
  put(8, a.config[0], 8);
  put(16, a.freq ? a.sample_freq : a.sample_period, 8);
  put(24, a.sample_type, 8);
  put(32, a.read_format, 8);
  auto set_position = [&out](int position) {  // position counted from the MSB of byte 0
    out[40 + position / 8] |= static_cast<std::byte>(0x80 >> (position % 8));
  };
  Attr no_precise = a;
  no_precise.precise_ip = 0;
  const std::uint64_t word = no_precise.flags_word();
  for (int bit = 0; bit < 64; ++bit) {
    if ((word >> bit) & 1) set_position(bit);
  }
  if (a.precise_ip & 2) set_position(15);  // the field's high bit comes first
  if (a.precise_ip & 1) set_position(16);
  put(48, a.watermark ? a.wakeup_watermark : a.wakeup_events, 4);
  put(52, a.bp_type, 4);
  put(56, a.config[1], 8);
  put(64, a.config[2], 8);
  put(72, a.branch_sample_type, 8);
  put(80, a.sample_regs_user, 8);
  put(88, a.sample_stack_user, 4);
  put(92, static_cast<std::uint32_t>(a.clockid), 4);
  put(96, a.sample_regs_intr, 8);
  put(104, a.aux_watermark, 4);
  put(108, a.sample_max_stack, 2);
  put(112, a.aux_sample_size, 4);
  put(120, a.sig_data, 8);
  put(128, a.config[3], 8);
  put(136, a.config[4], 8);
  return out;
}

TEST(AttrBytes, SwappedKnownAttr) {
  Attr a = distinct_attr();
  a.precise_ip = 2;
  const auto back = attr_from_bytes(to_big_endian_bytes(a), /*swap=*/true);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, a);
}

RC_GTEST_PROP(AttrBytes, SwappedRoundTrip, ()) {
  Attr a = *test::gen_attr();
  a.size = kAttrSizeVer9;
  const auto back = attr_from_bytes(to_big_endian_bytes(a), /*swap=*/true);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == a);
}

TEST(AttrNames, SampleType) {
  EXPECT_EQ(sample_type_names(0x107), "IP|TID|TIME|PERIOD");
  EXPECT_EQ(sample_type_names(sample::identifier), "IDENTIFIER");
  EXPECT_EQ(
      sample_type_names(sample::ip | sample::tid | sample::time | sample::addr | sample::callchain |
                        sample::regs_user | sample::stack_user | sample::data_src),
      "IP|TID|TIME|ADDR|CALLCHAIN|REGS_USER|STACK_USER|DATA_SRC");
  EXPECT_EQ(sample_type_names(sample::weight_struct | sample::code_page_size),
            "CODE_PAGE_SIZE|WEIGHT_STRUCT");
  EXPECT_EQ(sample_type_names(0), "");
  EXPECT_EQ(sample_type_names(sample::ip | (1ull << 40)), "IP|0x10000000000");
}

TEST(AttrNames, ReadFormatAndBranch) {
  EXPECT_EQ(read_format_names(3), "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING");
  EXPECT_EQ(read_format_names(0x14), "ID|LOST");
  EXPECT_EQ(read_format_names(read_fmt::group), "GROUP");
  EXPECT_EQ(branch_sample_type_names(branch::any), "ANY");
  EXPECT_EQ(branch_sample_type_names(branch::user | branch::any_call | branch::hw_index),
            "USER|ANY_CALL|HW_INDEX");
}

TEST(AttrDump, MatchesPerfStatVerbose) {
  // `perf stat -vv -e cpu-clock true` (perf 6.1) printed this attr.
  Attr a;
  a.type = 1;
  a.size = 128;
  a.sample_type = sample::identifier;
  a.read_format = read_fmt::total_time_enabled | read_fmt::total_time_running;
  a.disabled = a.inherit = a.enable_on_exec = a.exclude_guest = true;
  EXPECT_EQ(dump_attr(a),
            "perf_event_attr:\n"
            "  type                             1\n"
            "  size                             128\n"
            "  sample_type                      IDENTIFIER\n"
            "  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING\n"
            "  disabled                         1\n"
            "  inherit                          1\n"
            "  enable_on_exec                   1\n"
            "  exclude_guest                    1\n");
}

TEST(AttrDump, MatchesPerfRecordVerbose) {
  // `perf record -vv -e cpu-clock -b` (perf 6.1).
  Attr a;
  a.type = 1;
  a.size = 128;
  a.sample_freq = 4000;
  a.sample_type = sample::ip | sample::tid | sample::time | sample::period | sample::branch_stack;
  a.read_format = read_fmt::id | read_fmt::lost;
  a.set_flags_word(0x61943703);
  a.branch_sample_type = branch::any;
  EXPECT_EQ(dump_attr(a),
            "perf_event_attr:\n"
            "  type                             1\n"
            "  size                             128\n"
            "  { sample_period, sample_freq }   4000\n"
            "  sample_type                      IP|TID|TIME|PERIOD|BRANCH_STACK\n"
            "  read_format                      ID|LOST\n"
            "  disabled                         1\n"
            "  inherit                          1\n"
            "  mmap                             1\n"
            "  comm                             1\n"
            "  freq                             1\n"
            "  enable_on_exec                   1\n"
            "  task                             1\n"
            "  sample_id_all                    1\n"
            "  exclude_guest                    1\n"
            "  mmap2                            1\n"
            "  comm_exec                        1\n"
            "  ksymbol                          1\n"
            "  bpf_event                        1\n"
            "  branch_sample_type               ANY\n");
}

TEST(AttrDump, ConfigWordsAndStackFields) {
  Attr a;
  a.type = 42;
  a.size = 136;
  a.config = {0x13c, 0x5, 0x10, 0x7};
  a.sample_regs_user = 0xff0fff;
  a.sample_stack_user = 8192;
  a.precise_ip = 2;
  a.clockid = -1;
  EXPECT_EQ(dump_attr(a),
            "perf_event_attr:\n"
            "  type                             42\n"
            "  size                             136\n"
            "  config                           0x13c\n"
            "  precise_ip                       2\n"
            "  { bp_addr, config1 }             0x5\n"
            "  { bp_len, config2 }              0x10\n"
            "  sample_regs_user                 0xff0fff\n"
            "  sample_stack_user                8192\n"
            "  clockid                          -1\n"
            "  config3                          0x7\n");
}

TEST(AttrDump, EveryFlagIsNamed) {
  for (const auto& f : kFlagBits) {
    Attr a;
    a.*f.member = true;
    const std::string dump = dump_attr(a);
    EXPECT_NE(dump.find(std::string("  ") + f.name + " "), std::string::npos) << f.name;
  }
}

}  // namespace
PMUCAT_END_NAMESPACE

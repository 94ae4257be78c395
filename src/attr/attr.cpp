// perf_event_attr <-> the kernel's byte layout, and perf's textual dump of it.
#include "pmucat/attr.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>

PMUCAT_BEGIN_NAMESPACE
namespace {

// Byte offsets of the fields in struct perf_event_attr (uapi).
namespace off {
constexpr std::size_t type = 0, size = 4, config = 8, sample_period = 16, sample_type = 24,
                      read_format = 32, flags = 40, wakeup = 48, bp_type = 52, config1 = 56,
                      config2 = 64, branch_sample_type = 72, sample_regs_user = 80,
                      sample_stack_user = 88, clockid = 92, sample_regs_intr = 96,
                      aux_watermark = 104, sample_max_stack = 108, aux_sample_size = 112,
                      sig_data = 120, config3 = 128, config4 = 136;
}  // namespace off

constexpr std::uint64_t kKnownFlagsMask = (std::uint64_t{1} << 38) - 1;

// Little-endian stores into a buffer that is known to be large enough.
template <class T>
void store(std::vector<std::byte>& out, std::size_t offset, T value) {
  if (offset + sizeof(T) > out.size()) return;  // field past the chosen ABI size: not written
  auto v = static_cast<std::make_unsigned_t<T>>(value);
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out[offset + i] = static_cast<std::byte>((v >> (8 * i)) & 0xff);
  }
}

// Loads a field if the attr is long enough to hold it; 0 otherwise (older ABI).
template <class T>
T load(std::span<const std::byte> in, std::size_t offset, bool swap) {
  if (offset + sizeof(T) > in.size()) return T{};
  std::make_unsigned_t<T> v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    const std::size_t index = swap ? sizeof(T) - 1 - i : i;
    v |= static_cast<std::make_unsigned_t<T>>(
        static_cast<std::make_unsigned_t<T>>(std::to_integer<std::uint8_t>(in[offset + index]))
        << (8 * i));
  }
  return static_cast<T>(v);
}

std::uint8_t reverse_bits(std::uint8_t b) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; ++i) {
    if (b & (1u << i)) r = static_cast<std::uint8_t>(r | (1u << (7 - i)));
  }
  return r;
}

// A big-endian compiler allocates bitfields from the most significant bit of each byte in
// memory order; reversing the bits of every byte (no byte swap) maps them onto the
// little-endian positions. Multi-bit fields come out mirrored, so precise_ip is fixed up.
std::uint64_t flags_from_other_endian(std::span<const std::byte> in) {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const auto b = std::to_integer<std::uint8_t>(in[off::flags + i]);
    word |= std::uint64_t{reverse_bits(b)} << (8 * i);
  }
  const std::uint64_t p0 = (word >> 15) & 1, p1 = (word >> 16) & 1;
  word &= ~(std::uint64_t{3} << 15);
  word |= (p0 << 16) | (p1 << 15);
  return word;
}

struct BitName {
  std::uint64_t bit;
  std::string_view name;
};

std::string bit_names(std::uint64_t value, std::span<const BitName> names) {
  std::string out;
  for (const auto& [bit, name] : names) {
    if (value & bit) {
      if (!out.empty()) out += '|';
      out += name;
      value &= ~bit;
    }
  }
  // perf drops bits it has no name for; we keep them visible.
  if (value != 0) {
    if (!out.empty()) out += '|';
    out += fmt::format("{:#x}", value);
  }
  return out;
}

}  // namespace

std::uint64_t Attr::flags_word() const {
  const std::pair<bool, int> bits[] = {
      {disabled, 0},
      {inherit, 1},
      {pinned, 2},
      {exclusive, 3},
      {exclude_user, 4},
      {exclude_kernel, 5},
      {exclude_hv, 6},
      {exclude_idle, 7},
      {mmap, 8},
      {comm, 9},
      {freq, 10},
      {inherit_stat, 11},
      {enable_on_exec, 12},
      {task, 13},
      {watermark, 14},
      {mmap_data, 17},
      {sample_id_all, 18},
      {exclude_host, 19},
      {exclude_guest, 20},
      {exclude_callchain_kernel, 21},
      {exclude_callchain_user, 22},
      {mmap2, 23},
      {comm_exec, 24},
      {use_clockid, 25},
      {context_switch, 26},
      {write_backward, 27},
      {namespaces, 28},
      {ksymbol, 29},
      {bpf_event, 30},
      {aux_output, 31},
      {cgroup, 32},
      {text_poke, 33},
      {build_id, 34},
      {inherit_thread, 35},
      {remove_on_exec, 36},
      {sigtrap, 37},
  };
  std::uint64_t word = 0;
  for (const auto& [set, bit] : bits) {
    if (set) word |= std::uint64_t{1} << bit;
  }
  word |= std::uint64_t{precise_ip & 3u} << 15;
  return word | (reserved_flags & ~kKnownFlagsMask);
}

void Attr::set_flags_word(std::uint64_t word) {
  auto bit = [word](int n) { return ((word >> n) & 1) != 0; };
  disabled = bit(0);
  inherit = bit(1);
  pinned = bit(2);
  exclusive = bit(3);
  exclude_user = bit(4);
  exclude_kernel = bit(5);
  exclude_hv = bit(6);
  exclude_idle = bit(7);
  mmap = bit(8);
  comm = bit(9);
  freq = bit(10);
  inherit_stat = bit(11);
  enable_on_exec = bit(12);
  task = bit(13);
  watermark = bit(14);
  precise_ip = static_cast<std::uint8_t>((word >> 15) & 3);
  mmap_data = bit(17);
  sample_id_all = bit(18);
  exclude_host = bit(19);
  exclude_guest = bit(20);
  exclude_callchain_kernel = bit(21);
  exclude_callchain_user = bit(22);
  mmap2 = bit(23);
  comm_exec = bit(24);
  use_clockid = bit(25);
  context_switch = bit(26);
  write_backward = bit(27);
  namespaces = bit(28);
  ksymbol = bit(29);
  bpf_event = bit(30);
  aux_output = bit(31);
  cgroup = bit(32);
  text_poke = bit(33);
  build_id = bit(34);
  inherit_thread = bit(35);
  remove_on_exec = bit(36);
  sigtrap = bit(37);
  reserved_flags = word & ~kKnownFlagsMask;
}

std::string_view attr_field_beyond(const Attr& attr, std::uint32_t size) {
  struct Field {
    std::string_view name;
    std::size_t offset;
    bool set;
  };
  // Only fields that can lie past VER0 (64 bytes); everything before config2 always fits.
  const Field fields[] = {
      {"config2", off::config2, attr.config[2] != 0},
      {"branch_sample_type", off::branch_sample_type, attr.branch_sample_type != 0},
      {"sample_regs_user", off::sample_regs_user, attr.sample_regs_user != 0},
      {"sample_stack_user", off::sample_stack_user, attr.sample_stack_user != 0},
      {"clockid", off::clockid, attr.clockid != 0},
      {"sample_regs_intr", off::sample_regs_intr, attr.sample_regs_intr != 0},
      {"aux_watermark", off::aux_watermark, attr.aux_watermark != 0},
      {"sample_max_stack", off::sample_max_stack, attr.sample_max_stack != 0},
      {"aux_sample_size", off::aux_sample_size, attr.aux_sample_size != 0},
      {"sig_data", off::sig_data, attr.sig_data != 0},
      {"config3", off::config3, attr.config[3] != 0},
      {"config4", off::config4, attr.config[4] != 0},
  };
  for (const Field& field : fields) {
    if (field.set && field.offset >= size) return field.name;
  }
  return {};
}

std::vector<std::byte> to_bytes(const Attr& attr) {
  std::vector<std::byte> out(std::max(attr.size, kAttrSizeVer0));
  store(out, off::type, attr.type);
  store(out, off::size, attr.size);
  store(out, off::config, attr.config[0]);
  store(out, off::sample_period, attr.freq ? attr.sample_freq : attr.sample_period);
  store(out, off::sample_type, attr.sample_type);
  store(out, off::read_format, attr.read_format);
  store(out, off::flags, attr.flags_word());
  store(out, off::wakeup, attr.watermark ? attr.wakeup_watermark : attr.wakeup_events);
  store(out, off::bp_type, attr.bp_type);
  store(out, off::config1, attr.config[1]);
  store(out, off::config2, attr.config[2]);
  store(out, off::branch_sample_type, attr.branch_sample_type);
  store(out, off::sample_regs_user, attr.sample_regs_user);
  store(out, off::sample_stack_user, attr.sample_stack_user);
  store(out, off::clockid, attr.clockid);
  store(out, off::sample_regs_intr, attr.sample_regs_intr);
  store(out, off::aux_watermark, attr.aux_watermark);
  store(out, off::sample_max_stack, attr.sample_max_stack);
  store(out, off::aux_sample_size, attr.aux_sample_size);
  store(out, off::sig_data, attr.sig_data);
  store(out, off::config3, attr.config[3]);
  store(out, off::config4, attr.config[4]);
  return out;
}

std::optional<Attr> attr_from_bytes(std::span<const std::byte> bytes, bool swap) {
  if (bytes.size() < kAttrSizeVer0) return std::nullopt;
  Attr attr;
  attr.type = load<std::uint32_t>(bytes, off::type, swap);
  attr.size = load<std::uint32_t>(bytes, off::size, swap);
  attr.config[0] = load<std::uint64_t>(bytes, off::config, swap);
  attr.sample_type = load<std::uint64_t>(bytes, off::sample_type, swap);
  attr.read_format = load<std::uint64_t>(bytes, off::read_format, swap);
  attr.set_flags_word(swap ? flags_from_other_endian(bytes)
                           : load<std::uint64_t>(bytes, off::flags, false));
  const auto period = load<std::uint64_t>(bytes, off::sample_period, swap);
  (attr.freq ? attr.sample_freq : attr.sample_period) = period;
  const auto wakeup = load<std::uint32_t>(bytes, off::wakeup, swap);
  (attr.watermark ? attr.wakeup_watermark : attr.wakeup_events) = wakeup;
  attr.bp_type = load<std::uint32_t>(bytes, off::bp_type, swap);
  attr.config[1] = load<std::uint64_t>(bytes, off::config1, swap);
  attr.config[2] = load<std::uint64_t>(bytes, off::config2, swap);
  attr.branch_sample_type = load<std::uint64_t>(bytes, off::branch_sample_type, swap);
  attr.sample_regs_user = load<std::uint64_t>(bytes, off::sample_regs_user, swap);
  attr.sample_stack_user = load<std::uint32_t>(bytes, off::sample_stack_user, swap);
  attr.clockid = load<std::int32_t>(bytes, off::clockid, swap);
  attr.sample_regs_intr = load<std::uint64_t>(bytes, off::sample_regs_intr, swap);
  attr.aux_watermark = load<std::uint32_t>(bytes, off::aux_watermark, swap);
  attr.sample_max_stack = load<std::uint16_t>(bytes, off::sample_max_stack, swap);
  attr.aux_sample_size = load<std::uint32_t>(bytes, off::aux_sample_size, swap);
  attr.sig_data = load<std::uint64_t>(bytes, off::sig_data, swap);
  attr.config[3] = load<std::uint64_t>(bytes, off::config3, swap);
  attr.config[4] = load<std::uint64_t>(bytes, off::config4, swap);
  return attr;
}

std::string sample_type_names(std::uint64_t sample_type) {
  static constexpr BitName kNames[] = {
      {sample::ip, "IP"},
      {sample::tid, "TID"},
      {sample::time, "TIME"},
      {sample::addr, "ADDR"},
      {sample::read, "READ"},
      {sample::callchain, "CALLCHAIN"},
      {sample::id, "ID"},
      {sample::cpu, "CPU"},
      {sample::period, "PERIOD"},
      {sample::stream_id, "STREAM_ID"},
      {sample::raw, "RAW"},
      {sample::branch_stack, "BRANCH_STACK"},
      {sample::regs_user, "REGS_USER"},
      {sample::stack_user, "STACK_USER"},
      {sample::weight, "WEIGHT"},
      {sample::data_src, "DATA_SRC"},
      {sample::identifier, "IDENTIFIER"},
      {sample::transaction, "TRANSACTION"},
      {sample::regs_intr, "REGS_INTR"},
      {sample::phys_addr, "PHYS_ADDR"},
      {sample::aux, "AUX"},
      {sample::cgroup, "CGROUP"},
      {sample::data_page_size, "DATA_PAGE_SIZE"},
      {sample::code_page_size, "CODE_PAGE_SIZE"},
      {sample::weight_struct, "WEIGHT_STRUCT"},
  };
  return bit_names(sample_type, kNames);
}

std::string read_format_names(std::uint64_t read_format) {
  static constexpr BitName kNames[] = {
      {read_fmt::total_time_enabled, "TOTAL_TIME_ENABLED"},
      {read_fmt::total_time_running, "TOTAL_TIME_RUNNING"},
      {read_fmt::id, "ID"},
      {read_fmt::group, "GROUP"},
      {read_fmt::lost, "LOST"},
  };
  return bit_names(read_format, kNames);
}

std::string branch_sample_type_names(std::uint64_t branch_sample_type) {
  static constexpr BitName kNames[] = {
      {branch::user, "USER"},
      {branch::kernel, "KERNEL"},
      {branch::hv, "HV"},
      {branch::any, "ANY"},
      {branch::any_call, "ANY_CALL"},
      {branch::any_return, "ANY_RETURN"},
      {branch::ind_call, "IND_CALL"},
      {branch::abort_tx, "ABORT_TX"},
      {branch::in_tx, "IN_TX"},
      {branch::no_tx, "NO_TX"},
      {branch::cond, "COND"},
      {branch::call_stack, "CALL_STACK"},
      {branch::ind_jump, "IND_JUMP"},
      {branch::call, "CALL"},
      {branch::no_flags, "NO_FLAGS"},
      {branch::no_cycles, "NO_CYCLES"},
      {branch::type_save, "TYPE_SAVE"},
      {branch::hw_index, "HW_INDEX"},
      {branch::priv_save, "PRIV_SAVE"},
      {branch::counters, "COUNTERS"},
  };
  return bit_names(branch_sample_type, kNames);
}

std::string dump_attr(const Attr& attr) {
  std::string out = "perf_event_attr:\n";
  auto line = [&out](std::string_view name, const std::string& value) {
    out += fmt::format("  {:<32} {}\n", name, value);
  };
  auto dec = [&](std::string_view name, std::uint64_t value) {
    if (value != 0) line(name, fmt::format("{}", value));
  };
  auto hex = [&](std::string_view name, std::uint64_t value) {
    if (value != 0) line(name, fmt::format("{:#x}", value));
  };
  auto flag = [&](std::string_view name, bool value) {
    if (value) line(name, "1");
  };
  line("type", fmt::format("{}", attr.type));
  line("size", fmt::format("{}", attr.size));
  hex("config", attr.config[0]);
  dec("{ sample_period, sample_freq }", attr.freq ? attr.sample_freq : attr.sample_period);
  if (attr.sample_type != 0) line("sample_type", sample_type_names(attr.sample_type));
  if (attr.read_format != 0) line("read_format", read_format_names(attr.read_format));
  flag("disabled", attr.disabled);
  flag("inherit", attr.inherit);
  flag("pinned", attr.pinned);
  flag("exclusive", attr.exclusive);
  flag("exclude_user", attr.exclude_user);
  flag("exclude_kernel", attr.exclude_kernel);
  flag("exclude_hv", attr.exclude_hv);
  flag("exclude_idle", attr.exclude_idle);
  flag("mmap", attr.mmap);
  flag("comm", attr.comm);
  flag("freq", attr.freq);
  flag("inherit_stat", attr.inherit_stat);
  flag("enable_on_exec", attr.enable_on_exec);
  flag("task", attr.task);
  flag("watermark", attr.watermark);
  dec("precise_ip", attr.precise_ip);
  flag("mmap_data", attr.mmap_data);
  flag("sample_id_all", attr.sample_id_all);
  flag("exclude_host", attr.exclude_host);
  flag("exclude_guest", attr.exclude_guest);
  flag("exclude_callchain_kernel", attr.exclude_callchain_kernel);
  flag("exclude_callchain_user", attr.exclude_callchain_user);
  flag("mmap2", attr.mmap2);
  flag("comm_exec", attr.comm_exec);
  flag("use_clockid", attr.use_clockid);
  flag("context_switch", attr.context_switch);
  flag("write_backward", attr.write_backward);
  flag("namespaces", attr.namespaces);
  flag("ksymbol", attr.ksymbol);
  flag("bpf_event", attr.bpf_event);
  flag("aux_output", attr.aux_output);
  flag("cgroup", attr.cgroup);
  flag("text_poke", attr.text_poke);
  flag("build_id", attr.build_id);
  flag("inherit_thread", attr.inherit_thread);
  flag("remove_on_exec", attr.remove_on_exec);
  flag("sigtrap", attr.sigtrap);
  dec("{ wakeup_events, wakeup_watermark }",
      attr.watermark ? attr.wakeup_watermark : attr.wakeup_events);
  dec("bp_type", attr.bp_type);
  hex("{ bp_addr, config1 }", attr.config[1]);
  hex("{ bp_len, config2 }", attr.config[2]);
  if (attr.branch_sample_type != 0) {
    line("branch_sample_type", branch_sample_type_names(attr.branch_sample_type));
  }
  hex("sample_regs_user", attr.sample_regs_user);
  dec("sample_stack_user", attr.sample_stack_user);
  if (attr.clockid != 0) line("clockid", fmt::format("{}", attr.clockid));
  hex("sample_regs_intr", attr.sample_regs_intr);
  dec("aux_watermark", attr.aux_watermark);
  dec("sample_max_stack", attr.sample_max_stack);
  dec("aux_sample_size", attr.aux_sample_size);
  dec("sig_data", attr.sig_data);
  hex("config3", attr.config[3]);
  hex("config4", attr.config[4]);
  return out;
}

PMUCAT_END_NAMESPACE

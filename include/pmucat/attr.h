// A value-type mirror of the kernel's struct perf_event_attr (uapi, VER8 = 136 bytes) with the
// fields quipper's PerfEventAttr names, plus the newer ones.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// perf_event_attr sizes by ABI version (PERF_ATTR_SIZE_VER0..VER9).
inline constexpr std::uint32_t kAttrSizeVer0 = 64;
inline constexpr std::uint32_t kAttrSizeVer7 = 128;  // perf <= 6.2 (no config3)
inline constexpr std::uint32_t kAttrSizeVer8 = 136;  // config3
inline constexpr std::uint32_t kAttrSizeVer9 = 144;  // config4 (perf >= 7.2)

// The config words perf_event_attr has: config, config1, config2, config3, config4.
using ConfigWords = std::array<std::uint64_t, 5>;

// How many of `config`'s words a listing shows: config..config3 always (the shape outputs had
// before config4), config4 only when set.
constexpr std::size_t shown_config_words(const ConfigWords& config) {
  return config[4] != 0 ? 5 : 4;
}

// Fixed perf_type_id values.
enum class PerfType : std::uint32_t {
  hardware = 0,
  software = 1,
  tracepoint = 2,
  hw_cache = 3,
  raw = 4,
  breakpoint = 5,
};

// Bits of perf_event_attr::sample_type.
namespace sample {
inline constexpr std::uint64_t ip = 1u << 0, tid = 1u << 1, time = 1u << 2, addr = 1u << 3,
                               read = 1u << 4, callchain = 1u << 5, id = 1u << 6, cpu = 1u << 7,
                               period = 1u << 8, stream_id = 1u << 9, raw = 1u << 10,
                               branch_stack = 1u << 11, regs_user = 1u << 12, stack_user = 1u << 13,
                               weight = 1u << 14, data_src = 1u << 15, identifier = 1u << 16,
                               transaction = 1u << 17, regs_intr = 1u << 18, phys_addr = 1u << 19,
                               aux = 1u << 20, cgroup = 1u << 21, data_page_size = 1u << 22,
                               code_page_size = 1u << 23, weight_struct = 1u << 24;
}  // namespace sample

// Bits of perf_event_attr::read_format.
namespace read_fmt {
inline constexpr std::uint64_t total_time_enabled = 1, total_time_running = 2, id = 4, group = 8,
                               lost = 16;
}  // namespace read_fmt

// Bits of perf_event_attr::branch_sample_type (perf's branch_type= names map onto these).
namespace branch {
inline constexpr std::uint64_t user = 1u << 0, kernel = 1u << 1, hv = 1u << 2, any = 1u << 3,
                               any_call = 1u << 4, any_return = 1u << 5, ind_call = 1u << 6,
                               abort_tx = 1u << 7, in_tx = 1u << 8, no_tx = 1u << 9,
                               cond = 1u << 10, call_stack = 1u << 11, ind_jump = 1u << 12,
                               call = 1u << 13, no_flags = 1u << 14, no_cycles = 1u << 15,
                               type_save = 1u << 16, hw_index = 1u << 17, priv_save = 1u << 18,
                               counters = 1u << 19;
}  // namespace branch

struct Attr {
  std::uint32_t type = 0;
  std::uint32_t size = kAttrSizeVer8;
  ConfigWords config{};             // config, config1 (bp_addr), config2 (bp_len), config3, config4
  std::uint64_t sample_period = 0;  // union with sample_freq: `freq` says which
  std::uint64_t sample_freq = 0;
  std::uint64_t sample_type = 0;
  std::uint64_t read_format = 0;

  // The flags word, in uapi bit order.
  bool disabled = false, inherit = false, pinned = false, exclusive = false;
  bool exclude_user = false, exclude_kernel = false, exclude_hv = false, exclude_idle = false;
  bool mmap = false, comm = false, freq = false, inherit_stat = false;
  bool enable_on_exec = false, task = false, watermark = false;
  std::uint8_t precise_ip = 0;  // 0..3, two bits
  bool mmap_data = false, sample_id_all = false, exclude_host = false, exclude_guest = false;
  bool exclude_callchain_kernel = false, exclude_callchain_user = false;
  bool mmap2 = false, comm_exec = false, use_clockid = false, context_switch = false;
  bool write_backward = false, namespaces = false, ksymbol = false, bpf_event = false;
  bool aux_output = false, cgroup = false, text_poke = false, build_id = false;
  bool inherit_thread = false, remove_on_exec = false, sigtrap = false;
  std::uint64_t reserved_flags = 0;  // bits 38..63 as read from a file; writers keep them 0

  std::uint32_t wakeup_events = 0;  // union with wakeup_watermark: `watermark` says which
  std::uint32_t wakeup_watermark = 0;
  std::uint32_t bp_type = 0;
  std::uint64_t branch_sample_type = 0;
  std::uint64_t sample_regs_user = 0;
  std::uint32_t sample_stack_user = 0;
  std::int32_t clockid = 0;
  std::uint64_t sample_regs_intr = 0;
  std::uint32_t aux_watermark = 0;
  std::uint16_t sample_max_stack = 0;
  std::uint32_t aux_sample_size = 0;
  std::uint64_t sig_data = 0;

  std::uint64_t& config0() { return config[0]; }

  // The 64-bit flags word (disabled = bit 0 ... sigtrap = bit 37, reserved_flags above).
  std::uint64_t flags_word() const;
  void set_flags_word(std::uint64_t word);

  friend bool operator==(const Attr&, const Attr&) = default;
};

// Serialises to the kernel's little-endian layout, `attr.size` bytes (64..144; bytes past 144
// are zero). Used by perf.data writers and for perf_event_open.
std::vector<std::byte> to_bytes(const Attr& attr);

// The first field `attr` sets (non-zero) that does not fit in the first `size` bytes of the
// kernel layout, by its uapi name ("config3", "sig_data", ...), or empty when `size` bytes hold
// every field the attr sets. For writing into a caller's struct perf_event_attr of an older ABI
// (PERF_ATTR_SIZE_VER0..VER7): such a field cannot be expressed and must not be dropped silently.
std::string_view attr_field_beyond(const Attr& attr, std::uint32_t size);
// Reads an attr of `bytes.size()` bytes (any ABI size >= 64; fields past the end stay 0).
// `swap` reads a big-endian (other-endian) record. Returns nullopt when shorter than 64 bytes.
std::optional<Attr> attr_from_bytes(std::span<const std::byte> bytes, bool swap = false);

// `perf stat -vv`-style dump: one "  name  value" line per field that is set (type and size
// always), in perf's field order and with perf's spelling (sample_type=IP|TID|..., etc.).
std::string dump_attr(const Attr& attr);

// Names of the set bits, joined with '|' the way perf prints them ("IP|TID|TIME").
std::string sample_type_names(std::uint64_t sample_type);
std::string read_format_names(std::uint64_t read_format);
std::string branch_sample_type_names(std::uint64_t branch_sample_type);

PMUCAT_END_NAMESPACE

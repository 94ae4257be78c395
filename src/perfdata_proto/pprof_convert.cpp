// perf.data -> pprof's profile.proto, with the sample types, locations and mappings quipper's
// perf_to_profile gives (docs/perfdata.md, "pprof output").
#include <fmt/format.h>

#include <algorithm>
#include <compare>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>

#include "perfdata_proto/proto_records.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_proto.h"
#include "profile.pb.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace pp = perftools::profiles;

// The pid quipper files kernel mappings (pid -1) under; looked up when the process has none.
constexpr std::uint32_t kKernelPid = 0xffffffffu;
// Callchain markers are the values from PERF_CONTEXT_MAX (-4095) up.
constexpr std::uint64_t kContextMax = static_cast<std::uint64_t>(-4095);
constexpr std::uint64_t kContextHv = static_cast<std::uint64_t>(-32);
constexpr std::uint64_t kContextKernel = static_cast<std::uint64_t>(-128);
constexpr std::uint64_t kContextUser = static_cast<std::uint64_t>(-512);
// A LOST record stands for that many samples at this address, in a "[lost]" mapping.
constexpr std::uint64_t kLostAddress = std::uint64_t{9} << 60;
// misc: the cpumode bits, and MMAP2 carrying a build id instead of device numbers.
constexpr std::uint16_t kCpumodeMask = 7, kCpumodeKernel = 1, kCpumodeUser = 2;
constexpr std::uint16_t kMiscMmapBuildId = 1u << 14;
constexpr std::uint16_t kBuildIdSizeValid = 0x8000;
constexpr std::string_view kKernelPrefix = "[kernel.kallsyms]";

enum class Context : std::uint8_t { kernel, user, other };

Context context_of_misc(std::uint16_t misc) {
  switch (misc & kCpumodeMask) {
    case kCpumodeKernel:
      return Context::kernel;
    case kCpumodeUser:
      return Context::user;
    default:
      return Context::other;  // hypervisor, guest: quipper maps none of these
  }
}

std::uint64_t load_u64(std::span<const std::byte> bytes, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}
std::uint32_t load_u32(std::span<const std::byte> bytes, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

std::string to_hex(std::span<const std::byte> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (auto b : bytes) {
    out += kDigits[std::to_integer<unsigned>(b) >> 4];
    out += kDigits[std::to_integer<unsigned>(b) & 15];
  }
  return out;
}

// A build id's bytes as perf recorded them: its own size when misc says so, else the 20-byte
// field less the trailing zero 4-byte words perf pads shorter ids with.
std::string build_id_hex(std::span<const std::byte> id, std::size_t size) {
  id = id.first(std::min(size, id.size()));
  while (id.size() >= 4 &&
         std::all_of(id.end() - 4, id.end(), [](std::byte b) { return b == std::byte{0}; })) {
    id = id.first(id.size() - 4);
  }
  return to_hex(id);
}

struct MappingKey {
  std::uint64_t start = 0, limit = 0, offset = 0;
  std::string filename, build_id;
  auto operator<=>(const MappingKey&) const = default;
};

// One process's mappings by address; a new mapping hides what it overlaps.
class AddressSpace {
 public:
  void insert(std::uint64_t start, std::uint64_t limit, std::uint64_t mapping) {
    auto it = ranges_.lower_bound(start);
    if (it != ranges_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.limit > start) {
        const Range tail = prev->second;
        prev->second.limit = start;
        if (tail.limit > limit) ranges_[limit] = Range{tail.limit, tail.mapping};
      }
    }
    while (it != ranges_.end() && it->first < limit) {
      const Range r = it->second;
      it = ranges_.erase(it);
      if (r.limit > limit) {
        ranges_[limit] = r;
        break;
      }
    }
    ranges_[start] = Range{limit, mapping};
  }
  // Puts every range of `top` over these.
  void overlay(const AddressSpace& top) {
    for (const auto& [start, range] : top.ranges_) insert(start, range.limit, range.mapping);
  }
  // The mapping index covering `address`, or -1.
  std::int64_t find(std::uint64_t address) const {
    auto it = ranges_.upper_bound(address);
    if (it == ranges_.begin()) return -1;
    --it;
    return address < it->second.limit ? static_cast<std::int64_t>(it->second.mapping) : -1;
  }

 private:
  struct Range {
    std::uint64_t limit = 0, mapping = 0;
  };
  std::map<std::uint64_t, Range> ranges_;
};

}  // namespace

struct PprofBuilder::State {
  explicit State(const PerfData& header) : events(header.events), lookup(events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
      for (auto id : events[i].ids) event_by_id.emplace(id, i);
    }
    profile.add_string_table("");
    std::int64_t last = 0;
    for (std::size_t i = 0, unnamed = 0; i < events.size(); ++i) {
      const std::string prefix = events[i].name.empty() ? "event_" + std::to_string(unnamed++) + "_"
                                                        : events[i].name + "_";
      auto* count = profile.add_sample_type();
      count->set_type(string_id(prefix + "sample"));
      count->set_unit(string_id("count"));
      auto* weight = profile.add_sample_type();
      last = string_id(prefix + "event");
      weight->set_type(last);
      weight->set_unit(string_id("count"));
    }
    profile.set_default_sample_type(last);
    read_features(header);
  }

  void read_features(const PerfData& header) {
    if (auto it = header.features.find(feature::build_id); it != header.features.end()) {
      if (auto ids = decode_build_ids(it->second)) {
        for (const auto& b : *ids) {
          const std::size_t size = (b.misc & kBuildIdSizeValid) ? b.id.size() : 20;
          build_ids.emplace(b.filename, build_id_hex(b.id, size));
        }
      }
    }
    if (auto it = header.features.find(feature::version); it != header.features.end()) {
      if (auto v = decode_feature_string(it->second)) {
        profile.add_comment(string_id("perf-version:" + *v));
        // perf 6.1 counts lost samples in LOST_SAMPLES records; before it, in LOST records.
        unsigned major = 0, minor = 0;
        if (std::sscanf(v->c_str(), "%u.%u", &major, &minor) == 2) {
          lost_samples_records = std::pair(major, minor) >= std::pair(6u, 1u);
        }
      }
    }
    if (auto it = header.features.find(feature::cmdline); it != header.features.end()) {
      if (auto args = decode_feature_string_list(it->second)) {
        std::string whole;
        for (const auto& a : *args) whole += (whole.empty() ? "" : " ") + a;
        profile.add_comment(string_id("perf-command:" + whole));
      }
    }
  }

  std::int64_t string_id(const std::string& s) {
    auto [it, added] = strings.emplace(s, profile.string_table_size());
    if (added) profile.add_string_table(s);
    return it->second;
  }

  std::string build_id_for(const std::string& filename) const {
    if (auto it = build_ids.find(filename); it != build_ids.end()) return it->second;
    // perf names the kernel's build id "[kernel.kallsyms]" and its mapping
    // "[kernel.kallsyms]_text" (or _stext).
    if (filename.starts_with(kKernelPrefix)) {
      if (auto it = build_ids.find(std::string(kKernelPrefix)); it != build_ids.end()) {
        return it->second;
      }
    }
    return {};
  }

  // The handle (1-based) of the mapping `key`; the profile gets it when a location uses it.
  std::uint64_t mapping_handle(MappingKey key) {
    auto [it, added] = mapping_handles.emplace(std::move(key), mappings.size() + 1);
    if (added) mappings.push_back({&it->first, 0});
    return it->second;
  }

  std::uint64_t profile_mapping_id(std::uint64_t handle) {
    auto& known = mappings[handle - 1];
    if (known.id == 0) {
      const MappingKey& key = *known.key;
      auto* m = profile.add_mapping();
      known.id = static_cast<std::uint64_t>(profile.mapping_size());
      m->set_id(known.id);
      m->set_memory_start(key.start);
      m->set_memory_limit(key.limit);
      m->set_file_offset(key.offset);
      m->set_filename(string_id(key.filename));
      if (!key.build_id.empty()) m->set_build_id(string_id(key.build_id));
    }
    return known.id;
  }

  void add_mmap(const Record& r) {
    const auto p = std::span<const std::byte>(r.payload);
    const bool two = r.type == record_type::mmap2;
    const std::size_t name_at = two ? 64 : 32;
    if (p.size() < name_at) return;
    const std::uint32_t pid = load_u32(p, 0);
    MappingKey key;
    key.start = load_u64(p, 8);
    const std::uint64_t len = load_u64(p, 16);
    key.offset = load_u64(p, 24);
    if (len == 0 || key.start + len < key.start) return;
    key.limit = key.start + len;
    const auto name = p.subspan(name_at);
    const auto* chars = reinterpret_cast<const char*>(name.data());
    key.filename.assign(chars, strnlen(chars, name.size()));
    if (two && (r.misc & kMiscMmapBuildId)) {
      // After the page offset: a u8 size, 3 reserved bytes, the id's 20 bytes.
      const std::size_t size = std::to_integer<std::size_t>(p[32]);
      key.build_id = to_hex(p.subspan(36, std::min<std::size_t>(size, 20)));
    } else {
      key.build_id = build_id_for(key.filename);
    }
    // A kernel mapping whose start perf left below the kernel's half: its page offset is the
    // start.
    constexpr std::uint64_t kHalf = std::uint64_t{1} << 63;
    if (key.start <= kHalf && key.offset > kHalf && key.limit > kHalf) {
      key.start = key.offset - key.offset % 4096;
    }
    if (key.start >= key.limit) return;
    const std::uint64_t start = key.start, limit = key.limit;
    spaces[pid].insert(start, limit, mapping_handle(std::move(key)));
  }

  void add_fork(const Record& r) {
    if (r.payload.size() < 8) return;
    const std::uint32_t pid = load_u32(r.payload, 0), ppid = load_u32(r.payload, 4);
    if (pid == ppid) return;  // a thread shares its process's mappings
    // The kernel may write a FORK after the child's first MMAPs (each CPU has its own buffer):
    // the child's own mappings are the later ones and stay on top.
    if (auto it = spaces.find(ppid); it != spaces.end()) {
      AddressSpace copy = it->second;
      if (auto own = spaces.find(pid); own != spaces.end()) copy.overlay(own->second);
      spaces[pid] = std::move(copy);
    }
  }

  // The mapping handle covering `address` in `pid` (then the kernel's, outside user context), or 0.
  std::uint64_t find_mapping(std::uint32_t pid, std::uint64_t address, Context context) const {
    if (address >> 60 == 0x8 || context == Context::other) return 0;
    std::int64_t id = -1;
    if (auto it = spaces.find(pid); it != spaces.end()) id = it->second.find(address);
    if (id < 0 && context != Context::user) {
      if (auto it = spaces.find(kKernelPid); it != spaces.end()) id = it->second.find(address);
    }
    return id < 0 ? 0 : static_cast<std::uint64_t>(id);
  }

  std::uint64_t location_id(std::uint64_t mapping, std::uint64_t address) {
    auto [it, added] =
        location_ids.emplace(std::pair(mapping, address), profile.location_size() + 1);
    if (added) {
      auto* loc = profile.add_location();
      loc->set_id(it->second);
      loc->set_address(address);
      if (mapping != 0) loc->set_mapping_id(profile_mapping_id(mapping));
    }
    return it->second;
  }

  std::uint64_t mapping_start(std::uint64_t handle) const {
    return mappings[handle - 1].key->start;
  }

  // The event index of a record carrying `id`; nullopt when no event has it.
  std::optional<std::size_t> event_index(std::uint64_t id) const {
    if (events.size() == 1) return 0;
    auto it = event_by_id.find(id);
    if (it == event_by_id.end()) return std::nullopt;
    return it->second;
  }

  void count(std::vector<std::uint64_t> stack, std::size_t event, std::uint64_t weight,
             std::uint64_t times) {
    auto [it, added] = samples.emplace(std::move(stack), profile.sample_size());
    if (added) {
      auto* s = profile.add_sample();
      for (auto id : it->first) s->add_location_id(id);
      for (std::size_t i = 0; i < 2 * events.size(); ++i) s->add_value(0);
    }
    auto* s = profile.mutable_sample(it->second);
    const int at = static_cast<int>(2 * event);
    // Unsigned sums: a hostile count wraps instead of overflowing.
    const auto plus = [](std::int64_t v, std::uint64_t add) {
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) + add);
    };
    s->set_value(at, plus(s->value(at), times));
    s->set_value(at + 1, plus(s->value(at + 1), weight * times));
  }

  std::uint64_t fixed_weight(std::size_t event) const {
    const Attr& attr = events[event].attr;
    return !attr.freq && attr.sample_period > 0 ? attr.sample_period : 1;
  }

  void add_sample(const Record& r) {
    const Attr* attr = lookup.find(r);
    if (attr == nullptr) return;
    auto s = decode_sample(r.payload, *attr);
    if (!s) return;
    const auto event = event_index(s->id);
    if (!event) return;
    if (&events[*event].attr != attr) {
      s = decode_sample(r.payload, events[*event].attr);
      if (!s) return;
    }
    const Context context = context_of_misc(r.misc);
    std::vector<std::uint64_t> stack;
    const std::uint64_t leaf = find_mapping(s->pid, s->ip, context);
    stack.push_back(location_id(leaf, leaf == 0 ? 0 : s->ip));
    // With a branch stack the user part of the stack comes from it, not from the callchain.
    const bool lbr = s->branch_nr > 0;
    Context frame_context = context;
    bool skipped_leaf = false;
    for (const std::uint64_t ip : s->callchain) {
      if (lbr && ip == kContextUser) break;
      if (ip >= kContextMax) {
        frame_context = ip == kContextKernel ? Context::kernel
                        : ip == kContextUser ? Context::user
                        : ip == kContextHv   ? Context::other
                                             : Context::other;
        continue;
      }
      // The first entry repeats the sample's ip.
      if (!skipped_leaf) {
        skipped_leaf = true;
        continue;
      }
      const std::uint64_t m = find_mapping(s->pid, ip, frame_context);
      // A return address at a mapping's start belongs to the call before it, outside.
      if (m == 0 || ip <= mapping_start(m)) continue;
      stack.push_back(location_id(m, ip - 1));
    }
    if (lbr) {
      // Entries of {from, to, flags} after an optional hw_idx word.
      const auto& words = s->branch_stack;
      const std::uint64_t n = std::min<std::uint64_t>(s->branch_nr, words.size() / 3);
      for (std::size_t i = words.size() - 3 * n; i + 2 < words.size(); i += 3) {
        const std::uint64_t from = words[i];
        const std::uint64_t m = find_mapping(s->pid, from, Context::kernel);
        if (m == 0 || from < mapping_start(m)) continue;
        stack.push_back(location_id(m, from));
      }
    }
    count(std::move(stack), *event, s->period > 0 ? s->period : fixed_weight(*event), 1);
  }

  void add_lost(const Record& r) {
    std::uint64_t id = 0, lost = 0;
    if (r.type == record_type::lost) {
      if (lost_samples_records || r.payload.size() < 16) return;
      id = load_u64(r.payload, 0);
      lost = load_u64(r.payload, 8);
    } else {
      if (!lost_samples_records || r.payload.size() < 8) return;
      lost = load_u64(r.payload, 0);
      const Attr* attr = lookup.find(r);
      if (events.size() > 1) {
        // Its id is in the sample_id trailer: found through the attr lookup.
        if (attr == nullptr) return;
        for (std::size_t i = 0; i < events.size(); ++i) {
          if (&events[i].attr == attr && !events[i].ids.empty()) id = events[i].ids.front();
        }
      }
    }
    const auto event = event_index(id);
    if (!event || lost == 0) return;
    MappingKey key;
    key.start = kLostAddress;
    key.limit = kLostAddress + 1;
    key.filename = "[lost]";
    const std::uint64_t m = mapping_handle(std::move(key));
    count({location_id(m, kLostAddress)}, *event, fixed_weight(*event), lost);
  }

  // Records in file order; they are handled in time order (TimeOrder), as perf_to_profile's
  // parser sorts them.
  void take(const Record& r) {
    if (is_compressed_record(r.type)) {
      if (expand_error) return;
      if (!CompressedRecords::supported()) {
        expand_error = "COMPRESSED records need zstd, which this build lacks";
        return;
      }
      if (auto bad = compressed.expand(r, false, [this](const Record& inner) { hold(inner); })) {
        expand_error = fmt::format("{} record at byte offset {}: {}", record_type_name(r.type),
                                   r.file_offset, *bad);
      }
      return;
    }
    hold(r);
  }
  void hold(const Record& r) {
    order.add(Record(r), perfdata::record_time(r, lookup.find(r)),
              r.payload.size() + r.trailer.size() + perfdata::kHeldItemOverhead,
              r.type == record_type::finished_round,
              [this](Record&& held, std::uint64_t) { add(held); });
  }
  void flush() {
    order.flush([this](Record&& held, std::uint64_t) { add(held); });
  }

  void add(const Record& r) {
    switch (r.type) {
      case record_type::sample:
        add_sample(r);
        break;
      case record_type::mmap:
      case record_type::mmap2:
        add_mmap(r);
        break;
      case record_type::fork:
        add_fork(r);
        break;
      case record_type::lost:
      case record_type::lost_samples:
        add_lost(r);
        break;
      default:
        break;
    }
  }

  std::vector<PerfEventEntry> events;
  perfdata::AttrLookup lookup;
  std::unordered_map<std::uint64_t, std::size_t> event_by_id;
  std::map<std::string, std::string> build_ids;  // by file name
  bool lost_samples_records = false;
  pp::Profile profile;
  std::unordered_map<std::string, std::int64_t> strings;
  // Every mapping of the MMAP records, by handle; `id` is its profile id once a location uses it.
  struct KnownMapping {
    const MappingKey* key = nullptr;
    std::uint64_t id = 0;
  };
  std::map<MappingKey, std::uint64_t> mapping_handles;
  std::vector<KnownMapping> mappings;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> location_ids;
  std::map<std::vector<std::uint64_t>, int> samples;
  std::unordered_map<std::uint32_t, AddressSpace> spaces;
  CompressedRecords compressed;
  std::optional<std::string> expand_error;  // the first bad COMPRESSED record
  perfdata::TimeOrder<Record> order{perfdata::all_events_timed(events)};
};

PprofBuilder::PprofBuilder(const PerfData& header) : state_(std::make_unique<State>(header)) {}
PprofBuilder::PprofBuilder(PprofBuilder&&) noexcept = default;
PprofBuilder& PprofBuilder::operator=(PprofBuilder&&) noexcept = default;
PprofBuilder::~PprofBuilder() = default;

void PprofBuilder::add(const Record& record) {
  state_->take(record);
}

Expected<std::string> PprofBuilder::finish() {
  state_->flush();
  if (state_->expand_error) {
    Diagnostic d;
    set_id(d, DiagId::perfdata_malformed);
    d.message = *state_->expand_error;
    return unexpected(std::move(d));
  }
  std::string out;
  if (!state_->profile.SerializeToString(&out)) {
    Diagnostic d;
    set_id(d, DiagId::perfdata_io);
    d.message = "the profile is too large to serialise";
    return unexpected(std::move(d));
  }
  return out;
}

Expected<std::string> to_pprof(const PerfData& data) {
  if (data.other_endian) {
    Diagnostic d;
    set_id(d, DiagId::perfdata_malformed);
    d.message = "cannot convert an other-endian file to pprof";
    return unexpected(std::move(d));
  }
  PprofBuilder builder(data);
  for (const auto& r : data.records) builder.add(r);
  return builder.finish();
}

PMUCAT_END_NAMESPACE

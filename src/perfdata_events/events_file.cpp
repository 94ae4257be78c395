// Encoded events -> a perf.data that perf opens: attrs with ids, names, PMU mappings, host
// metadata, and optionally synthetic samples.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>

#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "pmucat/catalog.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_events.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_host.h"
#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::uint64_t kFirstId = 1;
constexpr std::uint64_t kEventUpdateName = 2;
constexpr std::uint64_t kKernelStart = 0xffffffff81000000ull, kKernelLength = 0x1000000;
constexpr std::uint16_t kCpumodeKernel = 1;
constexpr std::uint64_t kSampleLayout = sample::ip | sample::tid | sample::time | sample::period;

// The name perf would show: `name=` if given, else the spec as the user wrote it when it names
// this very PMU (`power/energy-pkg/`), else the sysfs event on this instance, else the resolved
// terms (a pattern or bare terms say nothing about which instance an attr is for).
std::string event_name(const EncodedEvent& e) {
  if (e.settings.name && !e.settings.name->empty()) return *e.settings.name;
  if (!e.pmu.empty() && e.spec.size() > e.pmu.size() && e.spec.starts_with(e.pmu) &&
      e.spec[e.pmu.size()] == '/') {
    return e.spec;
  }
  if (!e.pmu.empty() && !e.event.empty()) return e.pmu + "/" + e.event + "/";
  if (!e.perf_string.empty()) return e.perf_string;
  return e.spec;
}

std::vector<PmuMapping> pmu_mappings(std::span<const EncodedEvent> events, const Catalog& catalog) {
  std::vector<PmuMapping> out;
  auto add = [&out](std::uint32_t type, const std::string& name) {
    for (const auto& m : out) {
      if (m.type == type || m.name == name) return;
    }
    out.push_back({type, name});
  };
  for (const auto& pmu : catalog.pmus()) {
    if (const auto type = pmu.type()) add(*type, pmu.name());
  }
  for (const auto& e : events) {
    if (!e.pmu.empty()) add(e.attr.type, e.pmu);
  }
  // perf 6.1 reads an empty list as "absent" and shows the host's PMUs instead.
  if (out.empty()) add(static_cast<std::uint32_t>(PerfType::software), "software");
  return out;
}

std::uint64_t monotonic_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

Record event_update_name(std::uint64_t id, const std::string& name) {
  perfdata::ByteWriter body;
  body.put(kEventUpdateName).put(id).put_padded_string(name, 8);
  Record r;
  r.type = record_type::event_update;
  r.payload = body.take();
  return r;
}

// A sample with every field the attr asks for present and empty, so its layout is valid.
SampleFields synthetic_sample(const Attr& a, std::uint64_t id, std::uint64_t ip, std::uint32_t pid,
                              std::uint64_t time) {
  SampleFields f;
  f.identifier = f.id = id;
  f.ip = ip;
  f.pid = f.tid = pid;
  f.time = time;
  f.period = a.freq ? 1 : std::max<std::uint64_t>(a.sample_period, 1);
  if (a.sample_type & sample::read) {
    const std::uint64_t rf = a.read_format;
    const bool group = rf & read_fmt::group;
    if (group) f.read_values.push_back(1);
    if (!group) f.read_values.push_back(f.period);
    if (rf & read_fmt::total_time_enabled) f.read_values.push_back(0);
    if (rf & read_fmt::total_time_running) f.read_values.push_back(0);
    if (group) f.read_values.push_back(f.period);
    if (rf & read_fmt::id) f.read_values.push_back(id);
    if (rf & read_fmt::lost) f.read_values.push_back(0);
  }
  if (a.branch_sample_type & branch::hw_index) f.branch_stack.push_back(0);
  // Every field after BRANCH_STACK is one u64 when empty (ABI/size/value 0).
  for (std::uint64_t bit :
       {sample::regs_user, sample::stack_user, sample::weight, sample::weight_struct,
        sample::data_src, sample::transaction, sample::regs_intr, sample::phys_addr, sample::aux,
        sample::cgroup, sample::data_page_size, sample::code_page_size}) {
    if (a.sample_type & bit) f.rest.resize(f.rest.size() + 8);
  }
  return f;
}

// perf's GROUP_DESC: one entry per group of more than one member (perf writes no others), its
// members the attrs right after the leader. perf rebuilds groups from the order of the attrs, so
// a group whose members are not contiguous after their leader is left out.
std::vector<GroupDesc> group_descs(std::span<const EncodedEvent> events) {
  std::vector<GroupDesc> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].group_leader != i) continue;
    std::size_t end = i + 1;
    while (end < events.size() && events[end].group_leader == i) ++end;
    const bool contiguous =
        std::none_of(events.begin() + static_cast<std::ptrdiff_t>(end), events.end(),
                     [i](const EncodedEvent& e) { return e.group_leader == i; });
    if (end - i < 2 || !contiguous) continue;
    out.push_back(GroupDesc{events[i].group_name.empty() ? "{anon_group}" : events[i].group_name,
                            static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end - i)});
  }
  return out;
}

// What perf record sets on a group's attrs: the leader alone starts disabled and is enabled at
// exec (the kernel switches the members with it); a group that samples reads (`S`) reads every
// member in one go (PERF_FORMAT_GROUP, with ids to tell them apart).
void set_group_bits(const GroupDesc& group, std::vector<PerfEventEntry>& entries) {
  bool sample_read = false;
  for (std::uint32_t k = 0; k < group.members; ++k) {
    Attr& a = entries[group.leader_index + k].attr;
    const bool leader = k == 0;
    a.disabled = leader;
    a.enable_on_exec = leader;
    sample_read = sample_read || (a.sample_type & sample::read) != 0;
  }
  if (!sample_read) return;
  for (std::uint32_t k = 0; k < group.members; ++k) {
    entries[group.leader_index + k].attr.read_format |= read_fmt::group | read_fmt::id;
  }
}

}  // namespace

std::optional<Diagnostic> write_events_perf_data(const std::filesystem::path& path,
                                                 std::span<const EncodedEvent> events,
                                                 const Catalog& catalog,
                                                 const EventsFileOptions& options) {
  if (events.empty()) return perfdata::io_error(path.string(), "no events to write");
  const bool several = events.size() > 1;
  std::vector<PerfEventEntry> entries;
  for (std::size_t i = 0; i < events.size(); ++i) {
    PerfEventEntry entry{events[i].attr, {kFirstId + i}, event_name(events[i])};
    Attr& a = entry.attr;
    // Several events: perf needs the id at a fixed place in every record, and the same
    // sample_id_all on every attr, or it refuses the file.
    if (several) a.sample_type |= sample::identifier;
    // What perf record samples by default; perf script refuses events without IP.
    a.sample_id_all = true;
    a.sample_type |= kSampleLayout;
    if (auto d = check_attr_fits(a, options.writer.attr_size, entry.name)) return d;
    a.size = options.writer.attr_size;
    entries.push_back(std::move(entry));
  }

  const std::vector<GroupDesc> groups = group_descs(events);
  for (const GroupDesc& group : groups) set_group_bits(group, entries);

  auto features = host_features(collect_host_metadata(options.cmdline));
  if (!groups.empty()) features[feature::group_desc] = encode_group_desc(groups);
  features[feature::event_desc] = encode_event_desc(entries, options.writer.attr_size);
  features[feature::pmu_mappings] = encode_pmu_mappings(pmu_mappings(events, catalog));

  auto writer = PerfDataWriter::create(path, entries, std::move(features), options.writer);
  if (!writer) return std::move(writer).error();

  if (writer->mode() == PerfDataMode::pipe) {
    // perf script (pipe mode) names events of fixed types only from EVENT_UPDATE records.
    for (const auto& e : entries) {
      if (auto d = writer->write(event_update_name(e.ids.front(), e.name))) return d;
    }
  }
  const std::uint32_t pid = options.pid != 0 ? options.pid : static_cast<std::uint32_t>(::getpid());
  std::uint64_t time = monotonic_ns();
  SampleFields id;
  id.pid = id.tid = pid;
  id.time = time;
  id.id = id.identifier = entries.front().ids.front();
  if (auto d = writer->write(
          make_comm_record(pid, pid, options.comm, false, id, entries.front().attr))) {
    return d;
  }
  // Like perf record: a kernel map, without which perf report warns about restricted kernel
  // address maps for events that count in the kernel.
  const bool kernel = std::any_of(entries.begin(), entries.end(),
                                  [](const PerfEventEntry& e) { return !e.attr.exclude_kernel; });
  if (kernel) {
    SampleFields kernel_id = id;
    kernel_id.pid = kernel_id.tid = 0;
    if (auto d = writer->write(make_mmap_record(0xffffffffu, 0, kKernelStart, kKernelLength,
                                                kKernelStart, "[kernel.kallsyms]_text",
                                                kCpumodeKernel, kernel_id, entries.front().attr))) {
      return d;
    }
  }
  for (std::uint32_t s = 0; s < options.samples_per_event; ++s) {
    for (const auto& e : entries) {
      const SampleFields f =
          synthetic_sample(e.attr, e.ids.front(), 0x400000 + 0x10 * s, pid, ++time);
      if (auto d = writer->write(make_sample_record(f, e.attr, 2))) return d;
    }
  }
  if (auto d = writer->write(make_finished_round_record())) return d;
  return writer->finish();
}

PMUCAT_END_NAMESPACE

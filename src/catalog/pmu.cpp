// Pmu: one PMU, its parts loaded on first use (std::call_once) and cached.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <map>
#include <mutex>
#include <numeric>

#include "catalog/pmu_parts.h"
#include "catalog/sysfs_file.h"
#include "catalog/vendor_catalog.h"
#include "pmucat/catalog.h"
#include "pmucat/metadata.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::string ascii_lower(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return result;
}

std::string ascii_upper(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return result;
}

// A name that could be a directory entry: no '/' or NUL, at most NAME_MAX bytes, not . or ..
bool possible_entry_name(std::string_view name) {
  return !name.empty() && name.size() <= NAME_MAX && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

// An event name a direct open can answer for exactly as the listing would: a possible entry
// that is not a metadata file.
bool probeable_event_name(std::string_view name) {
  return possible_entry_name(name) && metadata_suffix(name) == MetadataSuffix::none;
}

// One lazily computed part: `load` runs at most once, readers after it see the result.
// A mutex rather than std::call_once: glibc's pthread_once makes a futex system call each time
// it runs an initializer, which was one system call per loaded part of every PMU.
template <class T>
class LazyPart {
 public:
  template <class Load>
  const T& get(Load&& load) const {
    if (ready_.load(std::memory_order_acquire)) return value_;
    std::lock_guard lock(mutex_);
    if (!ready_.load(std::memory_order_relaxed)) {
      value_ = load();
      ready_.store(true, std::memory_order_release);
    }
    return value_;
  }
  // The value if it was loaded already, without loading it.
  const T* peek() const { return ready_.load(std::memory_order_acquire) ? &value_ : nullptr; }
  // Marks the part as given (from_info); must happen before the Pmu is shared.
  void set(T value) {
    get([&] { return std::move(value); });
  }

 private:
  mutable std::mutex mutex_;
  mutable T value_{};
  mutable std::atomic<bool> ready_{false};
};

struct EventIndex {
  std::vector<Event> events;                               // sorted by name
  std::vector<std::pair<std::string, std::size_t>> lower;  // (lowercase name, index), sorted
  std::vector<Diagnostic> diagnostics;
};

// Sorts by name, equal names kept in their order, without the buffer of whole events that a
// stable sort of them allocates: an Event is ~600 bytes and a PMU has hundreds, and fresh memory
// costs a page fault per 4 KiB. The order is found on indices, then applied by cycles.
void sort_by_name(std::vector<Event>& events) {
  std::vector<std::size_t> order(events.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&events](std::size_t a, std::size_t b) {
    return events[a].name < events[b].name;
  });
  // Position j takes the event at order[j]; each cycle of the permutation moves once around.
  for (std::size_t start = 0; start < order.size(); ++start) {
    if (order[start] == start) continue;
    Event held = std::move(events[start]);
    std::size_t at = start;
    while (order[at] != start) {
      const std::size_t from = order[at];
      events[at] = std::move(events[from]);
      order[at] = at;
      at = from;
    }
    events[at] = std::move(held);
    order[at] = at;
  }
}

EventIndex index_events(std::vector<Event> events, std::vector<Diagnostic> diagnostics) {
  EventIndex index;
  sort_by_name(events);
  index.events = std::move(events);
  index.diagnostics = std::move(diagnostics);
  index.lower.reserve(index.events.size());
  for (std::size_t i = 0; i < index.events.size(); ++i) {
    index.lower.emplace_back(ascii_lower(index.events[i].name), i);
  }
  std::stable_sort(index.lower.begin(), index.lower.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return index;
}

struct FormatList {
  std::vector<Format> formats;  // sorted by name
  std::vector<Diagnostic> diagnostics;
};

// Which spelling answers, in order: the exact one, the all-lower one, the all-upper one, then any
// other case variant (the first in byte order).
const Event* find_in(const EventIndex& index, const std::string& lower,
                     std::span<const std::string> spellings) {
  const std::vector<Event>& events = index.events;
  for (const std::string& spelling : spellings) {
    auto found = std::lower_bound(
        events.begin(), events.end(), spelling,
        [](const Event& event, const std::string& key) { return event.name < key; });
    if (found != events.end() && found->name == spelling) return &*found;
  }
  auto found =
      std::lower_bound(index.lower.begin(), index.lower.end(), lower,
                       [](const auto& entry, const std::string& key) { return entry.first < key; });
  if (found != index.lower.end() && found->first == lower) return &events[found->second];
  return nullptr;
}

}  // namespace

struct Pmu::State {
  std::string name;
  std::string dir;  // the directory for the loaders; empty for from_info PMUs
  // Built on first use: splitting a path into components costs more than opening the catalog
  // does per PMU, and most PMUs of a catalog are never asked for their path.
  LazyPart<std::filesystem::path> path;

  LazyPart<detail::TypeAttribute> type;
  LazyPart<detail::LoadedAttributes> attributes;
  LazyPart<FormatList> formats;
  LazyPart<EventIndex> events;
  // The catalog's vendor JSON events (null: sysfs only); merged into `events` when it loads.
  std::shared_ptr<const detail::VendorCatalogs> vendor;
  // This PMU's vendor catalog (vendor must be set): the tree's one, or on an arm64 tree read
  // by its MIDR files, the one of this PMU's CPUs (which needs its attributes).
  const detail::VendorCatalog& vendor_catalog() const {
    return vendor->per_pmu() ? vendor->for_pmu(load_attributes().attributes) : vendor->main();
  }
  // A from_info PMU's events, indexed (with the vendor's) on first use.
  mutable std::optional<std::vector<Event>> given_events;

  detail::PmuAttachment attachment() const {
    return detail::attachment_of(name, load_attributes().attributes);
  }

  // Events found by find_event() probes before events() ran; node-based so that pointers
  // handed out stay valid.
  mutable std::mutex probe_mutex;
  mutable std::map<std::string, std::unique_ptr<Event>, std::less<>> probed;
  // The lower-cased event names events/ lists (a metadata file counts as its event's), listed
  // once by the first lookup that lists events/ anyway (a JSON name's, on a PMU its events do
  // not attach to): later lookups of names absent from it (`-M` asks every PMU for every event
  // of its lists) cost no system call. Unset when the listing failed.
  mutable bool names_listed = false;
  mutable std::optional<std::vector<std::string>> listed_names;  // sorted
  bool names_were_listed() const {
    std::lock_guard lock(probe_mutex);
    return names_listed;
  }
  bool listing_lacks(const std::string& lower) const {
    std::lock_guard lock(probe_mutex);
    if (!names_listed) {
      names_listed = true;
      const std::string events_dir = dir + "/events";
      auto directory = detail::Directory::open(AT_FDCWD, events_dir, events_dir);
      if (directory) {
        std::vector<std::string> names;
        for (const detail::DirEntry& entry : directory->list()) {
          names.push_back(ascii_lower(metadata_suffix(entry.name) == MetadataSuffix::none
                                          ? std::string_view(entry.name)
                                          : metadata_base_name(entry.name)));
        }
        std::sort(names.begin(), names.end());
        listed_names = std::move(names);
      } else if (directory.error().missing()) {
        listed_names.emplace();  // no events/: no event
      }
    }
    return listed_names && !std::binary_search(listed_names->begin(), listed_names->end(), lower);
  }

  const detail::TypeAttribute& load_type() const {
    return type.get([&] { return detail::load_type(dir); });
  }
  const detail::LoadedAttributes& load_attributes() const {
    return attributes.get([&] {
      const detail::TypeAttribute* known_type = type.peek();
      detail::LoadedAttributes loaded = detail::load_attributes(dir, known_type);
      if (known_type == nullptr) type.get([&] { return loaded.type; });
      return loaded;
    });
  }
  // A part the PMU directory's listing (taken with the attributes) shows is absent is empty
  // without a failing open.
  bool listed_without(bool detail::LoadedAttributes::*may_have) const {
    const detail::LoadedAttributes* listed = attributes.peek();
    return listed != nullptr && !(listed->*may_have);
  }
  // Fields read one by one by find_format() before formats() ran (nullptr: certainly absent);
  // node-based so that pointers handed out stay valid. Past kProbedFormats names the listing,
  // read once, costs less than a probe per name.
  mutable std::mutex format_probe_mutex;
  mutable std::map<std::string, std::unique_ptr<Format>, std::less<>> probed_formats;
  static constexpr std::size_t kProbedFormats = 8;

  const FormatList& load_formats() const {
    return formats.get([&] {
      if (listed_without(&detail::LoadedAttributes::may_have_formats)) return FormatList{};
      detail::LoadedFormats loaded = detail::load_formats(dir);
      return FormatList{std::move(loaded.formats), std::move(loaded.diagnostics)};
    });
  }
  const EventIndex& load_events() const {
    return events.get([&] {
      detail::LoadedEvents loaded;
      if (given_events) {
        loaded.events = std::move(*given_events);
      } else if (!listed_without(&detail::LoadedAttributes::may_have_events)) {
        loaded = detail::load_events(dir);
      }
      if (vendor) {
        const auto json = vendor_catalog().events_for(attachment());
        loaded.events = detail::merge_vendor_events(std::move(loaded.events), json);
      }
      return index_events(std::move(loaded.events), std::move(loaded.diagnostics));
    });
  }

  // detail::attaches(event, attachment()), deciding by name where it can: a bare-name lookup
  // asks every PMU, and the attributes it would read cost more than the rest of the lookup. A
  // core event (no Unit) attaches to a PMU not named `cpu` only when it has `cpus`; a PMU
  // directory without that entry cannot, which one fstatat() tells.
  bool vendor_attaches(const VendorEvent& event) const {
    if (attributes.peek() != nullptr || dir.empty() || event.system_table) {
      return detail::attaches(event, attachment());
    }
    if (!event.pmu.empty()) {
      if (event.pmu == name) return true;
      if (!vendor_pmu_matches(event.pmu, name)) return false;
      return detail::attaches(event, attachment());  // is this an uncore PMU?
    }
    if (name == "cpu") return true;
    if (!vendor_pmu_matches("cpu", name) && !has_entry("cpus")) return false;
    return detail::attaches(event, attachment());
  }
  // False only when `dir` certainly has no entry `entry_name` (fstatat says ENOENT).
  bool has_entry(const char* entry_name) const {
    struct stat status {};
    const std::string entry_path = dir + "/" + entry_name;
    return ::fstatat(AT_FDCWD, entry_path.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 ||
           errno != ENOENT;
  }

  // One name's merge of sysfs and JSON events, for lookups before events() has run: the sysfs
  // case variants of the name (events/ listed, only those files read) merged with `json` (the
  // JSON events of that name attaching to this PMU, table order) by the listing's own rule, so
  // the answer is the listing's. Node-based so that pointers handed out stay valid.
  mutable std::mutex named_mutex;
  mutable std::map<std::string, std::unique_ptr<EventIndex>, std::less<>> named;
  // Each one-name merge lists events/ again; past a few names on one PMU the whole listing
  // (read once, then shared by every lookup) costs less.
  static constexpr std::size_t kNamedBeforeListing = 8;
  bool few_named() const {
    std::lock_guard lock(named_mutex);
    return named.size() < kNamedBeforeListing;
  }
  // `sysfs`: that name's sysfs events when the caller has listed them already.
  const EventIndex& merge_named(const std::string& lower,
                                std::span<const std::shared_ptr<const VendorEvent>> json,
                                std::optional<Diagnostic> lookup_error,
                                std::optional<detail::LoadedEvents> sysfs = std::nullopt) const;
  // A lookup with no JSON event of the name on this PMU: the spellings probed (unless
  // `probe_first` is false: the caller expects a miss), then that one name's listing, both on
  // one open of events/ (find_named_events).
  const Event* find_sysfs_named(const std::string& lower, std::span<const std::string> spellings,
                                bool probe_first) const;
};

const EventIndex& Pmu::State::merge_named(const std::string& lower,
                                          std::span<const std::shared_ptr<const VendorEvent>> json,
                                          std::optional<Diagnostic> lookup_error,
                                          std::optional<detail::LoadedEvents> sysfs) const {
  std::lock_guard lock(named_mutex);
  if (auto found = named.find(lower); found != named.end()) return *found->second;
  detail::LoadedEvents loaded;
  if (sysfs) {
    loaded = std::move(*sysfs);
  } else if (given_events) {
    for (const Event& event : *given_events) {
      if (iequals(event.name, lower)) loaded.events.push_back(event);
    }
  } else if (!listed_without(&detail::LoadedAttributes::may_have_events)) {
    loaded = detail::load_events(dir, lower);
  }
  if (lookup_error) loaded.diagnostics.push_back(std::move(*lookup_error));
  loaded.events = detail::merge_vendor_events(std::move(loaded.events), json);
  auto index = std::make_unique<EventIndex>(
      index_events(std::move(loaded.events), std::move(loaded.diagnostics)));
  const EventIndex& result = *index;
  named.emplace(lower, std::move(index));
  return result;
}

const Event* Pmu::State::find_sysfs_named(const std::string& lower,
                                          std::span<const std::string> spellings,
                                          bool probe_first) const {
  {
    std::lock_guard lock(probe_mutex);
    for (const std::string& spelling : spellings) {
      if (auto found = probed.find(spelling); found != probed.end()) return found->second.get();
    }
  }
  const EventIndex* index = nullptr;
  {
    // A name merged before (a miss too: `-M` asks every PMU for each event of every list) is
    // answered by that merge, without probing and listing events/ again.
    std::lock_guard lock(named_mutex);
    if (auto found = named.find(lower); found != named.end()) index = found->second.get();
  }
  if (index != nullptr) return find_in(*index, lower, spellings);
  // Probes come first while events/ was never listed (a file added meanwhile is still seen);
  // a JSON name's lookup lists it anyway.
  if ((!probe_first || names_were_listed()) && listing_lacks(lower)) {
    return find_in(merge_named(lower, {}, std::nullopt, detail::LoadedEvents{}), lower, spellings);
  }
  if (!few_named()) {
    index = &load_events();
  } else if (listed_without(&detail::LoadedAttributes::may_have_events)) {
    index = &merge_named(lower, {}, std::nullopt);
  } else {
    detail::NamedEvents found = detail::find_named_events(
        dir, probe_first ? spellings : std::span<const std::string>(), lower);
    if (found.probed) {
      std::lock_guard lock(probe_mutex);
      // Another thread may have probed the same file meanwhile: the first stored answers.
      const std::string file_name = found.probed->name;
      return probed.emplace(file_name, std::make_unique<Event>(std::move(*found.probed)))
          .first->second.get();
    }
    index = &merge_named(lower, {}, std::nullopt, std::move(found.variants));
  }
  return find_in(*index, lower, spellings);
}

Pmu::Pmu(std::unique_ptr<State> state) : state_(std::move(state)) {}
Pmu::Pmu(Pmu&&) noexcept = default;
Pmu& Pmu::operator=(Pmu&&) noexcept = default;
Pmu::~Pmu() = default;

Pmu Pmu::from_info(PmuInfo info) {
  auto state = std::make_unique<State>();
  state->name = std::move(info.name);
  detail::LoadedAttributes given;
  given.attributes = std::move(info.attributes);
  state->attributes.set(std::move(given));
  std::stable_sort(info.formats.begin(), info.formats.end(),
                   [](const Format& a, const Format& b) { return natural_less(a.name, b.name); });
  state->formats.set(FormatList{std::move(info.formats), {}});
  state->given_events = std::move(info.events);
  return Pmu(std::move(state));
}

Pmu Pmu::from_directory(std::string name, std::string dir) {
  auto state = std::make_unique<State>();
  state->name = std::move(name);
  state->dir = std::move(dir);
  return Pmu(std::move(state));
}

const std::string& Pmu::name() const {
  return state_->name;
}
const std::filesystem::path& Pmu::path() const {
  return state_->path.get([&] { return std::filesystem::path(state_->dir); });
}

const PmuAttributes& Pmu::attributes() const {
  return state_->load_attributes().attributes;
}

std::optional<std::uint32_t> Pmu::type() const {
  // Given PMUs (from_info) only have attributes; directory-backed ones read `type` alone.
  if (state_->dir.empty()) return attributes().type;
  return state_->load_type().type;
}

PmuKind Pmu::kind() const {
  const std::string& name = state_->name;
  if (name == "cpu") return PmuKind::core;
  if (name == "software" || name == "tracepoint" || name == "breakpoint" || name == "kprobe" ||
      name == "uprobe") {
    return PmuKind::software;
  }
  const PmuAttributes& attributes = this->attributes();
  if (attributes.cpus) return PmuKind::core;
  if (attributes.type == 1 || attributes.type == 2 || attributes.type == 5)
    return PmuKind::software;
  if (attributes.cpumask) return PmuKind::uncore;
  return PmuKind::other;
}

std::span<const Format> Pmu::formats() const {
  return state_->load_formats().formats;
}

namespace {

const Format* find_listed_format(std::span<const Format> formats, std::string_view name) {
  auto found = std::lower_bound(
      formats.begin(), formats.end(), name,
      [](const Format& format, std::string_view key) { return natural_less(format.name, key); });
  return found != formats.end() && found->name == name ? &*found : nullptr;
}

}  // namespace

const Format* Pmu::find_format(std::string_view name) const {
  // Before format/ is listed, a field is read by its own path: an encode names a few of a PMU's
  // fields, and reading only those spares the listing and the other files. The listing, once
  // read, answers (so formats() and find_format() hand out the same pointers from then on).
  if (const FormatList* listed = state_->formats.peek()) {
    return find_listed_format(listed->formats, name);
  }
  if (!state_->dir.empty()) {
    if (!possible_entry_name(name)) return nullptr;  // no directory entry is named so
    // The PMU directory's listing (read for the attributes) shows there is no format/.
    if (state_->listed_without(&detail::LoadedAttributes::may_have_formats)) return nullptr;
    std::lock_guard lock(state_->format_probe_mutex);
    auto& probed = state_->probed_formats;
    if (auto found = probed.find(name); found != probed.end()) return found->second.get();
    if (probed.size() < State::kProbedFormats) {
      detail::ProbedFormat read = detail::probe_format(state_->dir, name);
      if (read.outcome == detail::ProbedFormat::Outcome::absent) {
        probed.emplace(std::string(name), nullptr);
        return nullptr;
      }
      if (read.outcome == detail::ProbedFormat::Outcome::found) {
        auto format = std::make_unique<Format>(std::move(read.format));
        return probed.emplace(std::string(name), std::move(format)).first->second.get();
      }
    }
  }
  return find_listed_format(this->formats(), name);
}

std::span<const Event> Pmu::events() const {
  return state_->load_events().events;
}

const Event* Pmu::find_event(std::string_view name) const {
  // Which spelling answers, in order: the exact one, the all-lower one, the all-upper one (real
  // trees name events so, and perf 6.10+ relies on it), then any other case variant (the first
  // in byte order). Probes and the listing follow the same order, so a lookup gives the same
  // answer before events() has run as after it.
  const std::string lower = ascii_lower(name);
  std::array<std::string, 3> candidates{std::string(name), lower, ascii_upper(name)};
  std::size_t distinct = 1;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    const auto seen = candidates.begin() + static_cast<std::ptrdiff_t>(distinct);
    if (std::find(candidates.begin(), seen, candidates[i]) != seen) continue;
    if (i != distinct) candidates[distinct] = std::move(candidates[i]);
    ++distinct;
  }
  const std::span<const std::string> spellings(candidates.data(), distinct);
  const EventIndex* index = state_->events.peek();
  // A name the vendor catalog has for this PMU is answered by that one name's merge (sysfs
  // variants + its JSON events), so that the event carries its JSON side whichever way it was
  // found first, without the PMU's whole listing.
  bool json_name = false;
  if (index == nullptr && state_->vendor) {
    auto named = state_->vendor_catalog().named(lower);
    std::vector<std::shared_ptr<const VendorEvent>> json;
    std::optional<Diagnostic> lookup_error;
    if (named) {
      json_name = !named->empty();
      for (std::shared_ptr<const VendorEvent>& event : *named) {
        if (state_->vendor_attaches(*event)) json.push_back(std::move(event));
      }
    } else {
      lookup_error = std::move(named.error());
    }
    if ((!json.empty() || lookup_error) && state_->few_named()) {
      index = &state_->merge_named(lower, json, std::move(lookup_error));
    } else if (!json.empty() || lookup_error) {
      index = &state_->load_events();
    }
  }
  if (index == nullptr && !state_->dir.empty() && probeable_event_name(name)) {
    // No JSON event of this name attaches here: a probe of each spelling, and when none hits
    // (another case variant may exist) one listing of events/ that reads only that name's files,
    // so that one name's merge is the listing's answer without reading every event file (and,
    // with a vendor catalog, without decoding the whole model) as the PMU's listing would.
    // A JSON name rarely has a sysfs file on a PMU its JSON events do not attach to (a bare name
    // asks every PMU): the listing alone answers there, without probes that would miss.
    return state_->find_sysfs_named(lower, spellings, !json_name);
  }
  if (index == nullptr) index = &state_->load_events();
  return find_in(*index, lower, spellings);
}

void Pmu::attach_vendor(std::shared_ptr<const detail::VendorCatalogs> vendor) {
  state_->vendor = std::move(vendor);
}

std::vector<Diagnostic> Pmu::diagnostics() const {
  std::vector<Diagnostic> result;
  if (const detail::LoadedAttributes* loaded = state_->attributes.peek()) {
    const std::vector<Diagnostic>& attribute_diagnostics = loaded->attributes.diagnostics;
    result.insert(result.end(), attribute_diagnostics.begin(), attribute_diagnostics.end());
  } else if (const detail::TypeAttribute* type = state_->type.peek()) {
    result.insert(result.end(), type->diagnostics.begin(), type->diagnostics.end());
  }
  if (const FormatList* formats = state_->formats.peek()) {
    result.insert(result.end(), formats->diagnostics.begin(), formats->diagnostics.end());
    for (const Format& format : formats->formats) {
      result.insert(result.end(), format.spec.lints.begin(), format.spec.lints.end());
    }
  } else {
    std::lock_guard lock(state_->format_probe_mutex);
    for (const auto& [name, format] : state_->probed_formats) {
      if (format) result.insert(result.end(), format->spec.lints.begin(), format->spec.lints.end());
    }
  }
  auto add_event = [&](const Event& event) {
    if (event.error) result.push_back(*event.error);
    result.insert(result.end(), event.diagnostics.begin(), event.diagnostics.end());
  };
  const EventIndex* index = state_->events.peek();
  // A from_info PMU's events are in memory already: index them rather than report none.
  if (index == nullptr && state_->given_events) index = &state_->load_events();
  if (index != nullptr) {
    result.insert(result.end(), index->diagnostics.begin(), index->diagnostics.end());
    for (const Event& event : index->events) add_event(event);
  } else {
    {
      std::lock_guard lock(state_->probe_mutex);
      for (const auto& [name, event] : state_->probed) add_event(*event);
    }
    std::lock_guard lock(state_->named_mutex);
    for (const auto& [name, named] : state_->named) {
      result.insert(result.end(), named->diagnostics.begin(), named->diagnostics.end());
      for (const Event& event : named->events) add_event(event);
    }
  }
  return result;
}

std::string_view to_string(PmuKind kind) {
  switch (kind) {
    case PmuKind::core:
      return "core";
    case PmuKind::uncore:
      return "uncore";
    case PmuKind::software:
      return "software";
    case PmuKind::other:
      return "other";
  }
  return "other";
}

PMUCAT_END_NAMESPACE

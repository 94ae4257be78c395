// The vendor JSON events of a catalog: reading the model once, attaching and merging as perf 6.1.
#include "catalog/vendor_catalog.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "catalog/sysfs_file.h"
#include "pmu_events/vendor_numbers.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/terms.h"
#include "pmucat/vendor_index_cache.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {
namespace {

using pmu_events::ascii_lower;

// perf's core PMU name for events without a Unit.
std::string_view event_pmu_name(const VendorEvent& event, const PmuAttachment& pmu) {
  if (!event.pmu.empty()) return event.pmu;
  return pmu.has_cpus ? pmu.name : std::string_view("cpu");
}

bool same_name(const std::pair<std::string_view, std::size_t>& entry, std::string_view name) {
  return entry.first < name;
}

}  // namespace

PmuAttachment attachment_of(std::string_view name, const PmuAttributes& attributes) {
  PmuAttachment attachment;
  attachment.name = name;
  attachment.has_cpus = attributes.cpus.has_value();
  // perf_pmu__hybrid_mounted(): a cpu_* PMU with `cpus` is a hybrid core PMU, never uncore.
  const bool hybrid = attachment.name.starts_with("cpu_") && attachment.has_cpus;
  attachment.is_uncore = attributes.cpumask.has_value() && !hybrid;
  if (attributes.identifier) attachment.identifier = *attributes.identifier;
  return attachment;
}

bool attaches(const VendorEvent& event, const PmuAttachment& pmu) {
  if (event.system_table) {
    // perf's pmu_add_sys_aliases(): only PMUs with an identifier, events with Compat and Unit.
    return pmu.identifier && !event.compat.empty() && !event.pmu.empty() &&
           event.compat == *pmu.identifier && vendor_pmu_matches(event.pmu, pmu.name);
  }
  const std::string_view name = event_pmu_name(event, pmu);
  if (pmu.is_uncore && vendor_pmu_matches(name, pmu.name)) return true;
  return name == pmu.name;
}

VendorCatalog::VendorCatalog(VendorOptions options) : options_(std::move(options)) {}

namespace {

// An index that could not be read: a cache entry with this error is passed over for the JSON.
bool index_damaged(const Diagnostic& diagnostic) {
  return diagnostic.code == DiagId::vendor_index_corrupt ||
         diagnostic.code == DiagId::vendor_index_unreadable;
}

// What open_vendor_index_model() checks of a model file the cache opened.
Expected<VendorIndexModel> checked_model(VendorIndexModel model, const VendorModelChoice& choice) {
  if (model.arch() != choice.arch || model.directory() != choice.row.directory) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_index_corrupt,
                                           choice.row.directory, "a cache entry of another model"));
  }
  if (const Diagnostic* failure = model.failure()) return unexpected(*failure);
  return model;
}

}  // namespace

PerfRelease VendorCatalog::json_rules() const {
  // Unset: perf 6.1's, the rules a caller that names no perf expects.
  return options_.rules.value_or(PerfRelease::v6_1);
}

// An index of other rules is still the best there is for the model (its event strings encode the
// same; orders and descriptions follow its perf): used, with a warning.
void VendorCatalog::check_index_rules(PerfRelease built, const std::filesystem::path& root,
                                      std::vector<Diagnostic>& diagnostics) const {
  if (!options_.rules || built == *options_.rules) return;
  diagnostics.push_back(make_file_diagnostic(
      Severity::warning, DiagId::vendor_index_rules, root.string(),
      fmt::format("the vendor event index was built with perf {}'s jevents rules, not perf {}'s",
                  to_string(built), to_string(*options_.rules))));
}

namespace {

// Sets `flag` when the scope ends, however it ends: a once-only body with many returns.
class SetOnExit {
 public:
  explicit SetOnExit(std::atomic<bool>& flag) : flag_(flag) {}
  SetOnExit(const SetOnExit&) = delete;
  SetOnExit& operator=(const SetOnExit&) = delete;
  ~SetOnExit() { flag_.store(true, std::memory_order_release); }

 private:
  std::atomic<bool>& flag_;
};

}  // namespace

const VendorCatalog::Loaded& VendorCatalog::loaded() const {
  std::call_once(once_, [&] {
    const SetOnExit done(loaded_done_);
    if (options_.events_dir.empty()) return;
    std::optional<VendorIndexModel> cached_model;
    std::optional<VendorModelChoice> choice;
    if (!options_.cpuid.empty()) {
      choice = choose_vendor_model(options_.events_dir, options_.cpuid, loaded_.diagnostics);
    }
    if (choice) {
      loaded_.cpuid = choice->row.cpuid;
      loaded_.arch = choice->arch;
    }
    if (is_vendor_index(options_.events_dir)) {
      loaded_.index_root = options_.events_dir;
    } else if (!options_.index_cache.empty()) {
      // The architecture system() reads the tables of: the model's, else the host's.
      const std::string_view arch = choice ? choice->arch : vendor_host_arch();
      auto entry =
          VendorIndexCache(options_.index_cache)
              .open(options_.events_dir, arch, choice ? choice->row.directory : "", json_rules());
      // Why the cache was not used, or an earlier entry not taken, as notes: a tool's output
      // is the same either way, so none is an error.
      if (entry) {
        loaded_.diagnostics.insert(loaded_.diagnostics.end(), entry->notes.begin(),
                                   entry->notes.end());
        loaded_.index_root = entry->root;
        loaded_.cached = true;
        cached_model = std::move(entry->model);
      } else {
        Diagnostic note = std::move(entry).error();
        note.severity = Severity::note;
        loaded_.diagnostics.push_back(std::move(note));
      }
    }
    if (!choice) {
      loaded_.common_metrics = read_common_metrics(
          loaded_.cached ? std::filesystem::path() : loaded_.index_root, loaded_.diagnostics);
      return;
    }
    if (!loaded_.index_root.empty()) {
      // The compiled index: only the model file's header is read now (the cache has read it).
      auto index = cached_model ? checked_model(std::move(*cached_model), *choice)
                                : open_vendor_index_model(loaded_.index_root, choice->arch,
                                                          choice->row.directory);
      if (index) {
        loaded_.diagnostics.insert(loaded_.diagnostics.end(), index->diagnostics().begin(),
                                   index->diagnostics().end());
        check_index_rules(index->rules(), options_.events_dir, loaded_.diagnostics);
        loaded_.index = std::move(*index);
        return;
      }
      if (!loaded_.cached || !index_damaged(index.error())) {
        loaded_.diagnostics.push_back(std::move(index.error()));
        return;
      }
      // A damaged cache entry: the JSON says the same, and a note says why it was passed over.
      Diagnostic note = std::move(index.error());
      note.severity = Severity::note;
      loaded_.diagnostics.push_back(std::move(note));
      loaded_.index_root.clear();
      loaded_.cached = false;
    }
    auto model =
        load_vendor_model(options_.events_dir / choice->arch, choice->row.directory, json_rules());
    if (!model) {
      loaded_.diagnostics.push_back(std::move(model.error()));
      return;
    }
    auto shared = std::make_shared<VendorModel>(std::move(*model));
    if (shared->cpuid.empty()) shared->cpuid = choice->row.cpuid;
    loaded_.diagnostics.insert(loaded_.diagnostics.end(), shared->diagnostics.begin(),
                               shared->diagnostics.end());
    loaded_.by_name.reserve(shared->events.size());
    for (std::size_t i = 0; i < shared->events.size(); ++i) {
      loaded_.by_name.emplace_back(shared->events[i].name, i);
    }
    std::stable_sort(loaded_.by_name.begin(), loaded_.by_name.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    loaded_.model = std::move(shared);
  });
  return loaded_;
}

namespace {

// A compiled model's metrics and group descriptions alone, decoded without its events.
Expected<std::shared_ptr<const VendorModel>> metrics_of(const VendorIndexModel& index) {
  auto decoded = index.metrics();
  if (!decoded) return unexpected(std::move(decoded.error()));
  auto descriptions = index.metric_group_descriptions();
  if (!descriptions) return unexpected(std::move(descriptions.error()));
  auto model = std::make_shared<VendorModel>();
  model->metrics = std::move(*decoded);
  model->metric_group_descriptions = std::move(*descriptions);
  return std::shared_ptr<const VendorModel>(std::move(model));
}

}  // namespace

const VendorCatalog::Full& VendorCatalog::full() const {
  std::call_once(full_once_, [&] {
    const SetOnExit done(full_done_);
    decode_full();
    group_by_pmu(full_);
  });
  return full_;
}

const std::vector<Diagnostic>* VendorCatalog::diagnostics_so_far() const {
  if (full_done_.load(std::memory_order_acquire)) return &full_.diagnostics;
  if (loaded_done_.load(std::memory_order_acquire)) return &loaded_.diagnostics;
  return nullptr;
}

void VendorCatalog::decode_full() const {
  const Loaded& loaded = this->loaded();
  full_.diagnostics = loaded.diagnostics;
  if (!loaded.index) {
    full_.model = loaded.model;
    return;
  }
  auto model = loaded.index->model();
  if (!model && loaded.cached) {
    // A cache entry damaged past its header: the JSON it was compiled from says the same.
    model = load_vendor_model(options_.events_dir / loaded.arch, loaded.index->directory(),
                              json_rules());
  }
  if (!model) {
    full_.diagnostics.push_back(std::move(model.error()));
    return;
  }
  if (model->cpuid.empty()) model->cpuid = loaded.cpuid;
  full_.model = std::make_shared<const VendorModel>(std::move(*model));
}

std::shared_ptr<const VendorModel> VendorCatalog::read_common_metrics(
    const std::filesystem::path& index_root, std::vector<Diagnostic>& diagnostics) const {
  constexpr std::string_view kCommon = "common";  // perf's arch/common/common
  std::error_code error;
  if (!index_root.empty()) {
    // An index built with perf 6.x's rules has no `common` directory: no common table.
    if (!std::filesystem::is_directory(index_root / kCommon, error)) return nullptr;
    auto index = open_vendor_index_model(index_root, kCommon, kCommon);
    if (!index) {
      diagnostics.push_back(std::move(index.error()));
      return nullptr;
    }
    auto model = metrics_of(*index);
    if (!model) diagnostics.push_back(std::move(model.error()));
    return model ? std::move(*model) : nullptr;
  }
  if (jevents_rules(json_rules()) < JeventsRules::of_7_2 ||
      !std::filesystem::is_directory(options_.events_dir / kCommon / kCommon, error)) {
    return nullptr;
  }
  auto model = load_vendor_model(options_.events_dir / kCommon, kCommon, json_rules());
  if (!model) {
    diagnostics.push_back(std::move(model.error()));
    return nullptr;
  }
  diagnostics.insert(diagnostics.end(), model->diagnostics.begin(), model->diagnostics.end());
  return std::make_shared<const VendorModel>(std::move(*model));
}

const VendorModel* VendorCatalog::metrics_model() const {
  std::call_once(metrics_once_, [&] {
    const Loaded& loaded = this->loaded();
    if (!loaded.model && !loaded.index) {
      metrics_model_ = loaded.common_metrics;
      return;
    }
    if (!loaded.index) {
      metrics_model_ = loaded.model;
      return;
    }
    // A corrupt index's error is full()'s to report.
    if (auto model = metrics_of(*loaded.index)) metrics_model_ = std::move(*model);
  });
  return metrics_model_.get();
}

std::span<const VendorMetric> VendorCatalog::metrics() const {
  const VendorModel* model = metrics_model();
  if (!model) return {};
  return model->metrics;
}

std::span<const VendorMetricGroupDescription> VendorCatalog::metric_group_descriptions() const {
  const VendorModel* model = metrics_model();
  if (!model) return {};
  return model->metric_group_descriptions;
}

const VendorCatalog::System& VendorCatalog::system() const {
  std::call_once(system_once_, [&] {
    if (options_.events_dir.empty()) return;
    const Loaded& loaded = this->loaded();
    std::vector<std::string> archs{loaded.arch.empty() ? std::string(vendor_host_arch())
                                                       : loaded.arch};
    if (archs.front() != "test") archs.emplace_back("test");
    auto tables = std::make_shared<VendorModel>();
    tables->directory = "sys";
    auto take = [&](VendorModel&& table) {
      for (VendorEvent& event : table.events) {
        event.system_table = true;  // the index does not store it: its file says it
        tables->events.push_back(std::move(event));
      }
      system_.diagnostics.insert(system_.diagnostics.end(), table.diagnostics.begin(),
                                 table.diagnostics.end());
    };
    for (const std::string& arch : archs) {
      if (arch.empty()) continue;
      if (loaded.index_root.empty()) {
        take(load_vendor_sys_tables(options_.events_dir / arch, json_rules()));
        continue;
      }
      auto file = open_vendor_index_sys(loaded.index_root, arch);
      if (!file && loaded.cached) {
        take(load_vendor_sys_tables(options_.events_dir / arch, json_rules()));  // damaged entry
        continue;
      }
      if (!file) {
        system_.diagnostics.push_back(std::move(file.error()));
        continue;
      }
      if (!*file) continue;
      // Said once: with a model, the model's file said it already.
      if (!this->loaded().index) {
        check_index_rules((*file)->rules(), options_.events_dir, system_.diagnostics);
      }
      auto table = (*file)->model();
      if (!table && loaded.cached) {
        take(load_vendor_sys_tables(options_.events_dir / arch, json_rules()));
        continue;
      }
      if (!table) {
        system_.diagnostics.push_back(std::move(table.error()));
        continue;
      }
      take(std::move(*table));
    }
    system_.tables = std::move(tables);
  });
  return system_;
}

void VendorCatalog::group_by_pmu(Full& full) {
  if (!full.model) return;
  std::map<std::string_view, std::size_t> group_of;
  const std::vector<VendorEvent>& events = full.model->events;
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto [found, added] = group_of.emplace(events[i].pmu, full.by_pmu.size());
    if (added) full.by_pmu.emplace_back();
    full.by_pmu[found->second].push_back(i);
  }
}

std::vector<std::shared_ptr<const VendorEvent>> VendorCatalog::events_for(
    const PmuAttachment& pmu) const {
  std::vector<std::shared_ptr<const VendorEvent>> result;
  const Full& full = this->full();
  if (!full.model) {
    append_system(pmu, result);
    return result;
  }
  const std::vector<VendorEvent>& events = full.model->events;
  std::vector<std::size_t> attached;
  for (const std::vector<std::size_t>& group : full.by_pmu) {
    if (attaches(events[group.front()], pmu))
      attached.insert(attached.end(), group.begin(), group.end());
  }
  std::sort(attached.begin(), attached.end());  // table order
  result.reserve(attached.size());
  // Aliasing pointers: each shares the model's ownership, none copies an event.
  for (std::size_t i : attached) result.emplace_back(full.model, &events[i]);
  append_system(pmu, result);
  return result;
}

VendorCatalog::Named VendorCatalog::named(std::string_view name) const {
  std::string lower = ascii_lower(name);
  std::lock_guard lock(named_mutex_);
  auto found = named_.find(lower);
  if (found == named_.end()) {
    Named events = look_up(lower);
    found = named_.emplace(std::move(lower), std::move(events)).first;
  }
  return found->second;
}

VendorCatalog::Named VendorCatalog::look_up(const std::string& lower) const {
  std::vector<std::shared_ptr<const VendorEvent>> result;
  const Loaded& loaded = this->loaded();
  if (loaded.index) {
    auto events = loaded.index->named(lower);
    if (!events && loaded.cached) {
      // A cache entry damaged past its header: the whole model, which full() then reads
      // from the JSON.
      std::vector<VendorEvent> from_json;
      if (const auto& model = full().model) {
        for (const VendorEvent& event : model->events) {
          if (event.name == lower) from_json.push_back(event);
        }
      }
      events = std::move(from_json);
    }
    if (!events) return unexpected(std::move(events.error()));
    for (VendorEvent& event : *events) {
      result.push_back(std::make_shared<const VendorEvent>(std::move(event)));
    }
  } else if (loaded.model) {
    auto found = std::lower_bound(loaded.by_name.begin(), loaded.by_name.end(),
                                  std::string_view(lower), same_name);
    for (; found != loaded.by_name.end() && found->first == lower; ++found) {
      result.emplace_back(loaded.model, &loaded.model->events[found->second]);
    }
  }
  // perf adds the system tables' aliases after the model's.
  if (const auto& tables = system().tables) {
    for (const VendorEvent& event : tables->events) {
      if (event.name == lower) result.emplace_back(tables, &event);
    }
  }
  return result;
}

void VendorCatalog::append_system(const PmuAttachment& pmu,
                                  std::vector<std::shared_ptr<const VendorEvent>>& events) const {
  // Only a PMU with an identifier can take a system event: the others skip the tables' load.
  if (!pmu.identifier) return;
  const auto& tables = system().tables;
  if (!tables) return;
  for (const VendorEvent& event : tables->events) {
    if (attaches(event, pmu)) events.emplace_back(tables, &event);
  }
}

std::string midr_cpuid_of(const std::filesystem::path& sysfs_root,
                          std::span<const std::uint32_t> cpus) {
  for (std::uint32_t cpu : cpus) {
    const std::string path =
        (sysfs_root / fmt::format("devices/system/cpu/cpu{}", cpu) / "regs/identification/midr_el1")
            .string();
    auto text = read_sysfs_file(AT_FDCWD, path, path);
    // perf tries the next CPU of the PMU, and stops at the first whose file gives a line.
    if (!text || text->empty()) continue;
    return arm64_cpuid_from_midr(*text).value_or(std::string());
  }
  return {};
}

VendorCatalogs::VendorCatalogs(VendorOptions options)
    : main_(std::make_shared<const VendorCatalog>(std::move(options))) {}

VendorCatalogs::VendorCatalogs(std::function<VendorOptions()> resolve)
    : deferred_(true), resolve_(std::move(resolve)) {}

const VendorCatalog& VendorCatalogs::main() const {
  if (deferred_) {
    std::call_once(resolved_, [&] {
      main_ = std::make_shared<const VendorCatalog>(resolve_());
      resolve_ = nullptr;
      main_made_.store(true, std::memory_order_release);
    });
  }
  return *main_;
}

const VendorCatalog* VendorCatalogs::main_if_made() const {
  if (!deferred_ || main_made_.load(std::memory_order_acquire)) return main_.get();
  return nullptr;
}

const VendorCatalog& VendorCatalogs::for_pmu(const PmuAttributes& attributes) const {
  if (!per_pmu()) return main();
  // perf's pmu_cpumask(): the cpumask file first, else cpus.
  const CpuList* cpus = attributes.cpumask ? &*attributes.cpumask
                        : attributes.cpus  ? &*attributes.cpus
                                           : nullptr;
  std::lock_guard lock(mutex_);
  std::string cpuid;
  if (cpus != nullptr) {
    for (std::uint32_t cpu : cpus->cpus) {
      auto [known, added] = midr_of_cpu_.try_emplace(cpu);
      if (added) {
        const std::uint32_t one[] = {cpu};
        known->second = midr_cpuid_of(options().midr_root, one);
      }
      if (!known->second.empty()) {
        cpuid = known->second;
        break;
      }
    }
  }
  auto found = by_cpuid_.find(cpuid);
  if (found == by_cpuid_.end()) {
    VendorOptions options = main().options();
    options.cpuid = cpuid;  // empty: no model for this PMU, as perf's NULL identifier
    options.midr_root.clear();
    found = by_cpuid_.emplace(cpuid, std::make_unique<VendorCatalog>(std::move(options))).first;
  }
  return *found->second;
}

Event make_vendor_event(std::shared_ptr<const VendorEvent> vendor) {
  Event event;
  event.name = vendor->name;
  event.path = fmt::format("{}[{}]", vendor->location.file, vendor->name);
  event.text = vendor->terms;
  event.metadata_loaded = true;
  event.source = EventSource::json;
  event.per_pkg = vendor->per_pkg;
  if (!vendor->scale_unit.empty()) {
    // perf reads ScaleUnit with strtod in the C locale: the number, then the unit as it follows.
    const std::string& text = vendor->scale_unit;
    double scale = 0;
    const char* first = text.data();
    while (first != text.data() + text.size() && (*first == ' ' || *first == '\t')) ++first;
    auto [stop, status] =
        std::from_chars(first, text.data() + text.size(), scale, std::chars_format::general);
    if (status != std::errc()) {
      scale = 0;
      stop = text.data();
    }
    event.scale = scale;
    event.scale_text = std::string(text.data(), stop);
    event.unit = std::string(stop, text.data() + text.size());
  }
  auto terms = parse_terms(event.text, event.path, TermSyntax::event_file);
  if (!terms) {
    // The term string is generated: point also at the JSON object it was generated from.
    Diagnostic definition;
    definition.severity = Severity::note;
    definition.range = vendor->location;
    definition.message = "the JSON event is defined here";
    event.error = std::move(terms.error());
    event.error->notes.push_back(std::move(definition));
  } else {
    // No lints: they judge how a sysfs file is written (upper-case hex, ...), and this text is
    // generated from the JSON's fields as perf's jevents does, not a file anyone wrote.
    event.terms = std::move(*terms);
    event.terms.lints.clear();
  }
  event.vendor = std::move(vendor);
  return event;
}

std::vector<Event> merge_vendor_events(std::vector<Event> sysfs,
                                       std::span<const std::shared_ptr<const VendorEvent>> json) {
  std::vector<Event> events = std::move(sysfs);
  events.reserve(events.size() + json.size());  // no regrowth: an Event is ~600 bytes
  // The first event of each lower-cased name: perf merges into the first alias its strcasecmp()
  // finds, and sysfs aliases come before JSON ones.
  std::map<std::string, std::size_t, std::less<>> first_of;
  for (std::size_t i = 0; i < events.size(); ++i) first_of.emplace(ascii_lower(events[i].name), i);
  for (const std::shared_ptr<const VendorEvent>& vendor : json) {
    auto found = first_of.find(vendor->name);
    if (found == first_of.end()) {
      first_of.emplace(vendor->name, events.size());
      events.push_back(make_vendor_event(vendor));
      continue;
    }
    Event& existing = events[found->second];
    if (existing.error && existing.source == EventSource::sysfs) {
      // perf dropped the sysfs alias it could not parse; the JSON event takes the name.
      Event replacement = make_vendor_event(vendor);
      replacement.diagnostics.insert(replacement.diagnostics.begin(), std::move(*existing.error));
      existing = std::move(replacement);
      continue;
    }
    const bool both_json_of_one_pmu = existing.source == EventSource::json && existing.vendor &&
                                      !existing.vendor->pmu.empty() && !vendor->pmu.empty() &&
                                      iequals(existing.vendor->pmu, vendor->pmu);
    if (both_json_of_one_pmu) continue;  // perf keeps it, but finds the first
    std::string text = vendor->terms;
    if (!parse_terms(text, vendor->location.file, TermSyntax::event_file)) continue;
    if (existing.source == EventSource::sysfs) existing.source = EventSource::both;
    existing.vendor = vendor;
  }
  return events;
}

}  // namespace detail
PMUCAT_END_NAMESPACE

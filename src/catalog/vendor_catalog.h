// The vendor JSON events of one catalog: the model read on first use, shared by every PMU, and
// perf 6.1's rules for which PMU gets which event and how it merges with the sysfs aliases.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/vendor_events.h"
#include "pmucat/vendor_index.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {

// What perf looks at in a PMU to attach JSON events to it.
struct PmuAttachment {
  std::string_view name;
  bool has_cpus = false;   // a `cpus` file: a core PMU by perf's arm64 test, named in its own right
  bool is_uncore = false;  // a `cpumask` file, and not a hybrid core PMU (cpu_* with `cpus`)
  // The `identifier` file's first line (system tables attach by it); nullopt without the file.
  std::optional<std::string_view> identifier;
};
PmuAttachment attachment_of(std::string_view name, const PmuAttributes& attributes);

// True when perf 6.1 adds `event` to the PMU: the event's PMU (or, without one, the core PMU's
// name: the PMU's own when it has `cpus`, else `cpu`) equals the PMU's name, or the PMU is an
// uncore one that vendor_pmu_matches() it. A system-table event instead needs its Compat to
// equal the PMU's identifier and its PMU (Unit) to vendor_pmu_matches() the PMU's name.
bool attaches(const VendorEvent& event, const PmuAttachment& pmu);

// The vendor events of one catalog. `events_dir` is either a JSON tree (the whole model is parsed
// on first use: the slower path, unless the index cache gives a compiled entry of it) or a
// compiled index (vendor_index.h: a lookup by name decodes
// only that name's records; the whole model is decoded only for a listing).
class VendorCatalog {
 public:
  explicit VendorCatalog(VendorOptions options);

  const VendorOptions& options() const { return options_; }

  // The model chosen for the cpuid, opened (thread-safe, once).
  struct Loaded {
    std::string cpuid;  // the mapfile row's pattern that chose the model
    std::string arch;   // the chosen model's architecture directory (x86)
    // JSON tree: the whole model (null when none was found or readable).
    std::shared_ptr<const VendorModel> model;
    // (lower-cased name, index into model->events), sorted by name then table order.
    std::vector<std::pair<std::string_view, std::size_t>> by_name;
    // The compiled index read: events_dir itself, or the cache's entry for a JSON tree
    // (VendorOptions::index_cache); empty: the JSON is parsed.
    std::filesystem::path index_root;
    bool cached = false;  // index_root is the cache's
    // Compiled index: the model's file, opened (its header and diagnostics read).
    std::optional<VendorIndexModel> index;
    // No model chosen (no row matches the cpuid, or none given): perf 7.2+'s common table's
    // metrics, which perf then searches alone (null with older rules or without the table).
    std::shared_ptr<const VendorModel> common_metrics;
    std::vector<Diagnostic> diagnostics;
  };
  const Loaded& loaded() const;

  // Every event of the model (the index decoded on first call; thread-safe, once).
  struct Full {
    std::shared_ptr<const VendorModel> model;  // null when none was found or readable
    std::vector<Diagnostic> diagnostics;       // loaded()'s, and a corrupt index's error
    // The model's events grouped by their `pmu` field (indices in table order): whether an
    // event attaches depends on that field alone, so a PMU asks once per group, not per event.
    std::vector<std::vector<std::size_t>> by_pmu;
  };
  const Full& full() const;
  // The diagnostics of the reading done so far, reading nothing: full()'s once it ran, else
  // loaded()'s once it ran, else nullptr. For a tool that reports what the lookups it made found
  // without paying for a listing it never needed.
  const std::vector<Diagnostic>* diagnostics_so_far() const;

  // The model's metrics in table order (without a model: perf 7.2+'s common table's, else none;
  // none on a corrupt index, whose error full() reports), decoded without the events: `-M`
  // needs no event listing.
  std::span<const VendorMetric> metrics() const;
  // The model's metric group descriptions (VendorModel::metric_group_descriptions), read with
  // the metrics.
  std::span<const VendorMetricGroupDescription> metric_group_descriptions() const;

  // The model's events (table order), then the system tables', that perf adds to `pmu`.
  std::vector<std::shared_ptr<const VendorEvent>> events_for(const PmuAttachment& pmu) const;
  // The system tables (events attaching by the PMU's identifier, whatever the model): every
  // `sys` directory of the chosen model's architecture (the host's without a model) and of
  // `test`, as perf 6.1 builds them in (thread-safe, once). Events marked system_table.
  struct System {
    std::shared_ptr<const VendorModel> tables;  // null without an events directory
    std::vector<Diagnostic> diagnostics;
  };
  const System& system() const;

  // The model's events named `name` (case-insensitive), in table order, then the system tables'
  // of that name, whatever their PMU; an
  // error when the index is corrupt where the name is looked up. Remembered per name: a bare
  // name asks every PMU of the tree, and each asks here.
  using Named = Expected<std::vector<std::shared_ptr<const VendorEvent>>>;
  Named named(std::string_view name) const;

 private:
  // The rules a JSON tree is read with; the warning for an index built with others.
  PerfRelease json_rules() const;
  void check_index_rules(PerfRelease built, const std::filesystem::path& root,
                         std::vector<Diagnostic>& diagnostics) const;
  // Loaded::common_metrics, read from the compiled index (its `common` model file) or the JSON
  // tree's arch/common/common; what reading it found goes to `diagnostics`.
  std::shared_ptr<const VendorModel> read_common_metrics(const std::filesystem::path& index_root,
                                                         std::vector<Diagnostic>& diagnostics) const;
  VendorOptions options_;
  mutable std::once_flag once_;
  mutable Loaded loaded_;
  mutable std::atomic<bool> loaded_done_{false};
  mutable std::once_flag full_once_;
  mutable Full full_;
  mutable std::atomic<bool> full_done_{false};
  mutable std::once_flag metrics_once_;
  // Only its metrics and group descriptions are used.
  mutable std::shared_ptr<const VendorModel> metrics_model_;
  const VendorModel* metrics_model() const;
  mutable std::once_flag system_once_;
  mutable System system_;
  mutable std::mutex named_mutex_;
  mutable std::map<std::string, Named, std::less<>> named_;

  Named look_up(const std::string& lower) const;
  void decode_full() const;
  // Appends the system tables' events that attach to `pmu`.
  void append_system(const PmuAttachment& pmu,
                     std::vector<std::shared_ptr<const VendorEvent>>& events) const;
  static void group_by_pmu(Full& full);
};

// The vendor catalogs of one tree: one model for every PMU (options.cpuid), or, with
// options.midr_root, one per CPU identifier its PMUs' CPUs have (perf 6.1 on arm64, where a
// big.LITTLE machine's core PMUs each get their own model). Thread-safe.
class VendorCatalogs {
 public:
  explicit VendorCatalogs(VendorOptions options);
  // The options are `resolve`'s, called once, by the first member that needs them
  // (Catalog::with_vendor's deferred form). Options without an events directory give catalogs
  // with no events, metrics or diagnostics.
  explicit VendorCatalogs(std::function<VendorOptions()> resolve);
  const VendorOptions& options() const { return main().options(); }
  // True when the catalog of a PMU depends on its CPUs (options.midr_root set).
  bool per_pmu() const { return !options().midr_root.empty(); }
  // options.cpuid's catalog: every PMU's without midr_root; the machine's with it.
  const VendorCatalog& main() const;
  // main() when it exists already (never resolves the deferred options), else nullptr.
  const VendorCatalog* main_if_made() const;
  // The catalog of a PMU with these attributes (its cpumask, else cpus, names its CPUs).
  const VendorCatalog& for_pmu(const PmuAttributes& attributes) const;

 private:
  const bool deferred_ = false;  // constructed from a resolver
  mutable std::once_flag resolved_;
  mutable std::function<VendorOptions()> resolve_;  // emptied once called
  mutable std::shared_ptr<const VendorCatalog> main_;
  mutable std::atomic<bool> main_made_{false};
  mutable std::mutex mutex_;
  mutable std::map<std::uint32_t, std::string> midr_of_cpu_;  // "" when unreadable
  mutable std::map<std::string, std::unique_ptr<VendorCatalog>, std::less<>> by_cpuid_;
};

// perf's arm64 identifier of a PMU's CPUs: the MIDR of the first of `cpus` whose midr_el1 under
// `sysfs_root` reads, variant and revision cleared, `0x%016lx`; empty when none does.
std::string midr_cpuid_of(const std::filesystem::path& sysfs_root,
                          std::span<const std::uint32_t> cpus);

// A JSON event as an Event of a PMU (source json): its term string parsed like an events/ file,
// ScaleUnit split into scale and unit as perf does (strtod's number, then the rest).
Event make_vendor_event(std::shared_ptr<const VendorEvent> vendor);

// perf 6.1's merge of the JSON events attached to a PMU (`json`, table order) into its sysfs
// events: a JSON event named like an existing event (case-insensitively) updates that event's
// descriptions instead of adding one (its terms stay, so sysfs wins the encoding), unless both
// are JSON events of the same PMU (perf then keeps both and finds the first); a JSON event whose
// terms do not parse never merges (perf drops it).
// Names never interact: merging the sysfs events and JSON events of one lower-cased name gives
// exactly that name's events of the whole merge, which is how a lookup merges one name without
// the PMU's listing (Pmu::find_event) and gets the listing's answer.
std::vector<Event> merge_vendor_events(std::vector<Event> sysfs,
                                       std::span<const std::shared_ptr<const VendorEvent>> json);

}  // namespace detail
PMUCAT_END_NAMESPACE

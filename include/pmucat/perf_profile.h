// Which perf pmucat imitates, as data: the releases it follows and the behaviours each has, all
// from include/pmucat/perf_releases.def. Code asks a Profile for a behaviour by name
// (`profile.has(Behaviour::weak_needs_group)`) or reads one of its multi-valued switches
// (`profile.lexer()`); it never compares releases, so a new perf is rows of the table.
// docs/perf-compat.md says what each behaviour is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// A perf release pmucat follows bit for bit, oldest first.
enum class PerfRelease : std::uint8_t {
#define PMUCAT_PERF_RELEASE(id, name, tables, attr_size, lexer, metric_dialect, metric_rules, \
                            jevents, oracle)                                                  \
  id,
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_RELEASE
};

// A behaviour that differs between the semantics: a change some perf release introduced, or one
// of pmucat's own deliberate differences.
enum class Behaviour : std::uint8_t {
#define PMUCAT_PERF_CHANGE(id, since, pmucat, message, anchor) id,
#define PMUCAT_OWN_DIFFERENCE(id, anchor) id,
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_CHANGE
#undef PMUCAT_OWN_DIFFERENCE
};

// The multi-valued switches: where releases differ by more than yes or no, each value named after
// the release whose behaviour it is.
// How perf's event lexer reads built-in names (legacy hardware and cache names, the tokens that
// take a group name away).
enum class Lexer : std::uint8_t { of_6_1, of_6_12 };
// The metric expression language: keywords, `NaN`, the `#` literals it knows. of_7_2 reads the
// `#` literals as tool-PMU events (any case, `#target_cpu`) and has `aggr_nr()`. Each dialect
// reads every expression the older ones read, so the values are ordered.
enum class MetricDialect : std::uint8_t { of_6_1, of_6_12, of_7_2 };
// `perf stat -M`'s metricgroup rules: which metrics a name selects, grouping, constraints.
enum class MetricRules : std::uint8_t { of_6_1, of_6_12 };
// How perf's build (jevents) turns vendor JSON into its tables; stored in a vendor index as a u8.
// of_7_2 adds the common tables (arch/common/common) and the metrics the build generates, of_7_3
// the offcore-response MSRs 0x3E0-0x3E3.
enum class JeventsRules : std::uint8_t { of_6_1, of_6_12, of_7_2, of_7_3 };

// A release's row of the table.
struct ReleaseInfo {
  PerfRelease release;
  std::string_view name;    // "6.12"
  std::string_view tables;  // "linux 6.12": the vendor table set it reads
  std::uint32_t attr_size;  // the perf_event_attr size it sends
  Lexer lexer;
  MetricDialect metric_dialect;
  MetricRules metric_rules;
  JeventsRules jevents;
  std::string_view oracle;  // how the differential tests get that perf
};

// A behaviour's row.
struct BehaviourInfo {
  Behaviour behaviour;
  std::string_view name;             // its id in the table ("weak_needs_group")
  std::optional<PerfRelease> since;  // nullopt: pmucat's own difference, in no perf
  bool in_pmucat;                    // whether pmucat's own semantics have it (when in its base)
  // pmucat's own semantics have it although it is newer than their base release (`adopted`).
  bool adopted;
  std::string_view message;  // perf's message where it prints one, else ""
  std::string_view anchor;   // its section of docs/perf-compat.md
};

namespace perf_table {

inline constexpr ReleaseInfo kReleases[] = {
#define PMUCAT_PERF_RELEASE(id, name, tables, attr_size, lexer, metric_dialect, metric_rules, \
                            jevents, oracle)                                                  \
  {PerfRelease::id,                                                                           \
   name,                                                                                      \
   tables,                                                                                    \
   attr_size,                                                                                 \
   Lexer::lexer,                                                                              \
   MetricDialect::metric_dialect,                                                             \
   MetricRules::metric_rules,                                                                 \
   JeventsRules::jevents,                                                                     \
   oracle},
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_RELEASE
};

inline constexpr BehaviourInfo kBehaviours[] = {
#define PMUCAT_PERF_CHANGE(id, since, pmucat, message, anchor) \
  {Behaviour::id,                                              \
   #id,                                                        \
   PerfRelease::since,                                         \
   std::string_view(#pmucat) != "differs",                     \
   std::string_view(#pmucat) == "adopted",                     \
   message,                                                    \
   anchor},
#define PMUCAT_OWN_DIFFERENCE(id, anchor) \
  {Behaviour::id, #id, std::nullopt, true, false, "", anchor},
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_CHANGE
#undef PMUCAT_OWN_DIFFERENCE
};

inline constexpr PerfRelease kReleaseIds[] = {
#define PMUCAT_PERF_RELEASE(id, name, tables, attr_size, lexer, metric_dialect, metric_rules, \
                            jevents, oracle)                                                  \
  PerfRelease::id,
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_RELEASE
};

inline constexpr std::size_t kReleaseCount = std::size(kReleases);
inline constexpr std::size_t kBehaviourCount = std::size(kBehaviours);
static_assert(kBehaviourCount <= 64, "Profile keeps the behaviours in one 64-bit word");

}  // namespace perf_table

// The newest release pmucat follows.
inline constexpr PerfRelease kNewestPerfRelease =
    perf_table::kReleases[perf_table::kReleaseCount - 1].release;

// The release pmucat's own semantics build on: the default catalog's tables, and what those
// semantics are measured against (PMUCAT_OWN_BASE in the table).
inline constexpr PerfRelease kPmucatBaseRelease =
#define PMUCAT_OWN_BASE(id) PerfRelease::id
#include "pmucat/perf_releases.def"
#undef PMUCAT_OWN_BASE
    ;

constexpr const ReleaseInfo& info(PerfRelease release) {
  return perf_table::kReleases[static_cast<std::size_t>(release)];
}
constexpr const BehaviourInfo& info(Behaviour behaviour) {
  return perf_table::kBehaviours[static_cast<std::size_t>(behaviour)];
}

// Every release, oldest first; every behaviour, in table order.
constexpr std::span<const ReleaseInfo> perf_releases() {
  return perf_table::kReleases;
}
constexpr std::span<const BehaviourInfo> behaviours() {
  return perf_table::kBehaviours;
}
constexpr std::span<const PerfRelease> known_perf_releases() {
  return perf_table::kReleaseIds;
}

// The jevents rules that read the vendor tables of `release` (a table set is named by the release
// it came with).
constexpr JeventsRules jevents_rules(PerfRelease release) {
  return info(release).jevents;
}

// "6.1", "6.12", "7.3".
constexpr std::string_view to_string(PerfRelease release) {
  return info(release).name;
}

// The release a text names: its table name ("6.12"), or what `perf --version` prints of one of its
// point releases ("perf version 6.1.187", "6.12.118-dirty"); nullopt for any other text. The one
// parser of release names: the CLI, the C API and Python read them here.
std::optional<PerfRelease> parse_perf_release(std::string_view text);

// The releases' names, comma-separated ("6.1, 6.12, 7.3"), for messages.
std::string_view known_perf_releases_text();

// The behaviours in force for one semantics: a perf release's (the changes up to it), or
// pmucat's own (its base release's, less the changes it deliberately does not follow, plus its
// own differences). A small value: copy it.
class Profile {
 public:
  // pmucat's own semantics (the default).
  constexpr Profile() : Profile(pmucat()) {}
  static constexpr Profile pmucat() {
    Profile profile(kPmucatBaseRelease, false);
    for (const BehaviourInfo& row : perf_table::kBehaviours) {
      if (row.in_pmucat && (!row.since || *row.since <= kPmucatBaseRelease || row.adopted)) {
        profile.bits_ |= bit(row.behaviour);
      }
    }
    return profile;
  }
  // Exactly what `release` does.
  static constexpr Profile perf(PerfRelease release) {
    Profile profile(release, true);
    for (const BehaviourInfo& row : perf_table::kBehaviours) {
      if (row.since && *row.since <= release) profile.bits_ |= bit(row.behaviour);
    }
    return profile;
  }

  constexpr bool has(Behaviour behaviour) const { return (bits_ & bit(behaviour)) != 0; }
  constexpr Lexer lexer() const { return info(release_).lexer; }
  // pmucat's own semantics read expressions in the newest release's dialect: it reads every
  // older table set's expressions too, and the default catalog (the newest tables) needs it.
  constexpr MetricDialect metric_dialect() const {
    return info(perf_ ? release_ : kNewestPerfRelease).metric_dialect;
  }
  constexpr MetricRules metric_rules() const { return info(release_).metric_rules; }
  constexpr JeventsRules jevents() const { return info(release_).jevents; }
  constexpr std::uint32_t attr_size() const { return info(release_).attr_size; }
  // The release whose tables and switches these semantics use (pmucat's: its base). For
  // choosing tables and for messages; behaviours are asked with has().
  constexpr PerfRelease release() const { return release_; }
  // "pmucat", "perf 6.1", "perf 6.12", "perf 7.3".
  std::string_view name() const;

  friend constexpr bool operator==(const Profile&, const Profile&) = default;

 private:
  constexpr Profile(PerfRelease release, bool perf) : release_(release), perf_(perf) {}
  static constexpr std::uint64_t bit(Behaviour behaviour) {
    return std::uint64_t{1} << static_cast<unsigned>(behaviour);
  }

  std::uint64_t bits_ = 0;
  PerfRelease release_;
  bool perf_;
};

// The release a semantics name selects: "pmucat", or a perf release as parse_perf_release()
// reads it, optionally written "perf-6.12" or "perf 6.12"; nullopt for anything else.
std::optional<Profile> parse_profile(std::string_view text);

PMUCAT_END_NAMESPACE

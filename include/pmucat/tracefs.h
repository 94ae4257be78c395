// Tracepoints from tracefs: the systems and events under `events/` and each event's `id` (the
// perf_event_attr config of a PERF_TYPE_TRACEPOINT event). Read lazily, with the same safety
// rules as sysfs (bounded reads, regular files only, no blocking on FIFOs, located errors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

struct Tracepoint {
  std::string system;
  std::string event;
  std::uint64_t id = 0;
  friend bool operator==(const Tracepoint&, const Tracepoint&) = default;
};

// A tracefs root: a directory with an `events/` directory (a live tracefs mount, or a capture).
class Tracefs {
 public:
  // `root` must hold an `events/` directory; otherwise a tracepoint-no-tracefs error naming it.
  static Expected<Tracefs> open(std::string root);
  // The running kernel's tracefs as perf 6.1 finds it: /sys/kernel/tracing, then debugfs's
  // /sys/kernel/debug/tracing (the first with an `events/` directory).
  static Expected<Tracefs> open_live();
  // The live candidates, in the order open_live() tries them.
  static std::vector<std::string> live_candidates();

  const std::string& root() const { return root_; }

  // Subdirectories of events/ (the systems), sorted; `enable`, `header_*` files are skipped
  // because they are not directories.
  Expected<std::vector<std::string>> systems() const;
  // Subdirectories of events/<system>/ (its events), sorted.
  Expected<std::vector<std::string>> events(std::string_view system) const;
  // events/<system>/<event>/id as a number (tracepoint-bad-id when unreadable or not decimal).
  Expected<std::uint64_t> id(std::string_view system, std::string_view event) const;
  // Every tracepoint whose system and event match the globs (`*`, `?`, `[...]`), sorted by
  // (system, event), with ids. A pattern without `*` or `?` is a plain name, as in perf 6.1.
  // An empty result is not an error here.
  Expected<std::vector<Tracepoint>> match(std::string_view system_glob,
                                          std::string_view event_glob) const;
  // The systems a glob (or plain name, when present) matches, sorted.
  Expected<std::vector<std::string>> match_systems(std::string_view system_glob) const;
  // Every tracepoint, sorted (for listings).
  Expected<std::vector<Tracepoint>> list() const { return match("*", "*"); }

 private:
  explicit Tracefs(std::string root) : root_(std::move(root)) {}
  std::string root_;
};

// perf's glob match (strglobmatch): `*`, `?`, `[abc]`, `[a-z]`, `[!a]`, `\` escapes.
bool tracepoint_glob_match(std::string_view name, std::string_view glob);

PMUCAT_END_NAMESPACE

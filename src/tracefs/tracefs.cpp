// Tracefs reading: systems and events listed lazily with one getdents walk per directory, ids
// read with the catalog's bounded, non-blocking file reader.
#include "pmucat/tracefs.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "catalog/sysfs_file.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

Diagnostic no_tracefs(std::string_view root, std::string_view why) {
  auto d = make_file_diagnostic(Severity::error, DiagId::tracepoint_no_tracefs, root,
                                fmt::format("no tracefs here: {}", why));
  d.hint = "give a tracefs directory (one holding events/) with --tracefs DIR or PMUCAT_TRACEFS";
  return d;
}

// Subdirectory names of `path` (symlinks and unknown types are checked with a stat through the
// directory fd), sorted. d_type DT_DIR is trusted, as perf trusts readdir.
Expected<std::vector<std::string>> subdirectories(const std::string& path) {
  auto dir = detail::Directory::open(AT_FDCWD, path, path);
  if (!dir) return unexpected(std::move(dir).error().diagnostic);
  std::vector<std::string> names;
  for (const detail::DirEntry& entry : dir->list()) {
    if (entry.type == DT_DIR) {
      names.push_back(entry.name);
    } else if (entry.type == DT_LNK || entry.type == DT_UNKNOWN) {
      // A symlink to a directory counts (capture trees may link); a loop or a dangling link
      // does not, silently, like a file.
      auto sub = detail::open_directory_fd(dir->fd(), entry.name, entry.name);
      if (sub) names.push_back(entry.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool has_glob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

// `[...]` at glob[pos] (pos after '['): matches `c`? Advances pos past ']'.
bool match_class(char c, std::string_view glob, std::size_t& pos, bool& ok) {
  bool negate = false;
  if (pos < glob.size() && glob[pos] == '!') {
    negate = true;
    ++pos;
  }
  bool matched = false;
  const std::size_t start = pos;
  while (pos < glob.size() && (glob[pos] != ']' || pos == start)) {
    if (pos + 2 < glob.size() && glob[pos + 1] == '-' && glob[pos + 2] != ']') {
      if (glob[pos] <= c && c <= glob[pos + 2]) matched = true;
      pos += 3;
    } else {
      if (glob[pos] == c) matched = true;
      ++pos;
    }
  }
  ok = pos < glob.size();  // an unclosed class matches nothing
  if (ok) ++pos;
  return matched != negate;
}

}  // namespace

bool tracepoint_glob_match(std::string_view name, std::string_view glob) {
  // Iterative match with one backtrack point for the last '*'.
  std::size_t n = 0, g = 0;
  std::size_t star_g = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (g < glob.size()) {
      const char p = glob[g];
      if (p == '*') {
        star_g = ++g;
        star_n = n;
        continue;
      }
      if (p == '?') {
        ++g;
        ++n;
        continue;
      }
      if (p == '[') {
        std::size_t pos = g + 1;
        bool ok = false;
        if (match_class(name[n], glob, pos, ok) && ok) {
          g = pos;
          ++n;
          continue;
        }
      } else {
        char literal = p;
        std::size_t next = g + 1;
        if (p == '\\' && g + 1 < glob.size()) {
          literal = glob[g + 1];
          next = g + 2;
        }
        if (literal == name[n]) {
          g = next;
          ++n;
          continue;
        }
      }
    }
    if (star_g == std::string_view::npos) return false;
    g = star_g;
    n = ++star_n;
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

std::vector<std::string> Tracefs::live_candidates() {
  return {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
}

Expected<Tracefs> Tracefs::open(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  auto events = detail::open_directory_fd(AT_FDCWD, root + "/events", root + "/events");
  if (!events) {
    return unexpected(
        no_tracefs(root, fmt::format("cannot open {}/events: {}", root,
                                     detail::error_text(events.error().error_number))));
  }
  return Tracefs(std::move(root));
}

Expected<Tracefs> Tracefs::open_live() {
  for (const std::string& candidate : live_candidates()) {
    if (auto tracefs = open(candidate)) return tracefs;
  }
  auto d = no_tracefs(live_candidates().front(),
                      "neither /sys/kernel/tracing nor /sys/kernel/debug/tracing has events/ "
                      "(is tracefs mounted, and readable by this user?)");
  return unexpected(std::move(d));
}

Expected<std::vector<std::string>> Tracefs::systems() const {
  return subdirectories(root_ + "/events");
}

Expected<std::vector<std::string>> Tracefs::events(std::string_view system) const {
  return subdirectories(fmt::format("{}/events/{}", root_, system));
}

Expected<std::uint64_t> Tracefs::id(std::string_view system, std::string_view event) const {
  const std::string path = fmt::format("{}/events/{}/{}/id", root_, system, event);
  auto text = detail::read_sysfs_file(AT_FDCWD, path, path);
  auto bad = [&](std::string message) {
    return unexpected(
        make_file_diagnostic(Severity::error, DiagId::tracepoint_bad_id, path, std::move(message)));
  };
  if (!text) {
    auto d = std::move(text).error().diagnostic;
    return bad(fmt::format("cannot read the tracepoint id: {}", d.message));
  }
  const std::string_view line = detail::without_trailing_newline(*text);
  if (line.empty() || line.size() > 20) return bad("the tracepoint id is not a decimal number");
  std::uint64_t value = 0;
  for (char c : line) {
    if (c < '0' || c > '9') return bad("the tracepoint id is not a decimal number");
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return bad("the tracepoint id does not fit in 64 bits");
    value = value * 10 + digit;
  }
  return value;
}

Expected<std::vector<std::string>> Tracefs::match_systems(std::string_view system_glob) const {
  auto listed = systems();
  if (!listed) return unexpected(std::move(listed).error());
  std::vector<std::string> out;
  for (std::string& system : *listed) {
    if (has_glob(system_glob) ? tracepoint_glob_match(system, system_glob)
                              : system == system_glob) {
      out.push_back(std::move(system));
    }
  }
  return out;
}

Expected<std::vector<Tracepoint>> Tracefs::match(std::string_view system_glob,
                                                 std::string_view event_glob) const {
  std::vector<std::string> systems;
  if (has_glob(system_glob)) {
    auto listed = this->systems();
    if (!listed) return unexpected(std::move(listed).error());
    for (std::string& system : *listed) {
      if (tracepoint_glob_match(system, system_glob)) systems.push_back(std::move(system));
    }
  } else {
    systems.emplace_back(system_glob);
  }
  std::vector<Tracepoint> out;
  for (const std::string& system : systems) {
    std::vector<std::string> events;
    if (has_glob(event_glob)) {
      auto listed = this->events(system);
      if (!listed) {
        // A plain system name that is not there: no match rather than an error.
        if (!has_glob(system_glob)) return out;
        return unexpected(std::move(listed).error());
      }
      for (std::string& event : *listed) {
        if (tracepoint_glob_match(event, event_glob)) events.push_back(std::move(event));
      }
    } else {
      events.emplace_back(event_glob);
    }
    for (std::string& event : events) {
      if (!has_glob(event_glob)) {
        // A plain name: absent is "no match", present but unreadable is an error.
        const std::string dir = fmt::format("{}/events/{}/{}", root_, system, event);
        if (!detail::open_directory_fd(AT_FDCWD, dir, dir)) continue;
      }
      auto id = this->id(system, event);
      if (!id) return unexpected(std::move(id).error());
      out.push_back(Tracepoint{system, std::move(event), *id});
    }
  }
  return out;
}

PMUCAT_END_NAMESPACE

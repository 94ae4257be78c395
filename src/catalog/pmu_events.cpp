// Loading events/: one listing; event files parsed, metadata files attached to their events.
#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <map>

#include "catalog/pmu_parts.h"
#include "catalog/sysfs_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/metadata.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {
namespace {

using FileContent = Expected<std::string, ReadFailure>;

FileContent read_entry(const Directory& directory, const DirEntry& entry, const std::string& path) {
  if (!may_be_regular(entry.type)) return unexpected(not_regular_failure(entry.type, path));
  return read_sysfs_file(directory.fd(), entry.name, path, entry.type);
}

Event make_event(std::string name, std::string path, FileContent content) {
  Event event;
  event.name = std::move(name);
  event.path = std::move(path);
  if (!content) {
    event.error = std::move(content.error().diagnostic);
    return event;
  }
  event.text = std::move(*content);
  auto terms = parse_terms(event.text, event.path, TermSyntax::event_file);
  if (!terms) {
    event.error = std::move(terms.error());
    return event;
  }
  event.terms = std::move(*terms);
  // Lints are copied so that Event::diagnostics is the one list of this event's problems.
  event.diagnostics = event.terms.lints;
  if (event.terms.terms.empty()) {
    event.diagnostics.push_back(make_file_diagnostic(Severity::warning, DiagId::event_empty,
                                                     event.path,
                                                     "event file is empty; perf ignores it"));
  }
  return event;
}

struct MetadataFile {
  MetadataSuffix suffix;
  std::string base;
  std::string path;
  FileContent content;
};

void append(std::vector<Diagnostic>& to, std::vector<Diagnostic> from) {
  for (Diagnostic& diagnostic : from) to.push_back(std::move(diagnostic));
}

void attach(Event& event, MetadataFile& file) {
  if (!file.content) {
    // perf treats a flag file's existence as true, even when its content cannot be read.
    if (file.suffix == MetadataSuffix::per_pkg) event.per_pkg = true;
    if (file.suffix == MetadataSuffix::snapshot) event.snapshot = true;
    event.diagnostics.push_back(std::move(file.content.error().diagnostic));
    return;
  }
  const std::string& text = *file.content;
  switch (file.suffix) {
    case MetadataSuffix::unit: {
      auto unit = parse_unit(text, file.path);
      if (!unit) {
        event.diagnostics.push_back(std::move(unit.error()));
        return;
      }
      event.unit = std::move(unit->text);
      append(event.diagnostics, std::move(unit->lints));
      return;
    }
    case MetadataSuffix::scale: {
      event.scale_text = std::string(without_trailing_newline(text));
      auto scale = parse_scale(text, file.path);
      if (!scale) {
        event.diagnostics.push_back(std::move(scale.error()));
        return;
      }
      event.scale = scale->value;
      event.scale_text = std::move(scale->text);
      append(event.diagnostics, std::move(scale->lints));
      return;
    }
    case MetadataSuffix::per_pkg:
    case MetadataSuffix::snapshot: {
      Flag flag = parse_flag(text, file.path);
      (file.suffix == MetadataSuffix::per_pkg ? event.per_pkg : event.snapshot) = flag.value;
      append(event.diagnostics, std::move(flag.lints));
      return;
    }
    case MetadataSuffix::none:
      return;
  }
}

// Lists an open events/ directory (see load_events).
LoadedEvents list_events(Directory& directory, const std::string& events_dir,
                         std::string_view only_lower_name) {
  LoadedEvents loaded;
  std::vector<MetadataFile> metadata;
  // With one name, an entry is that name or its metadata file (`name.unit`, ...).
  auto of_the_name = [only_lower_name](std::string_view entry_name) {
    return iequals(metadata_suffix(entry_name) == MetadataSuffix::none
                       ? entry_name
                       : metadata_base_name(entry_name),
                   only_lower_name);
  };
  for (DirEntry& entry :
       only_lower_name.empty() ? directory.list() : directory.list_if(of_the_name)) {
    MetadataSuffix suffix = metadata_suffix(entry.name);
    std::string path = events_dir + "/" + entry.name;
    FileContent content = read_entry(directory, entry, path);
    if (suffix == MetadataSuffix::none) {
      loaded.events.push_back(
          make_event(std::move(entry.name), std::move(path), std::move(content)));
    } else {
      metadata.push_back(MetadataFile{suffix, std::string(metadata_base_name(entry.name)),
                                      std::move(path), std::move(content)});
    }
  }
  std::sort(loaded.events.begin(), loaded.events.end(),
            [](const Event& a, const Event& b) { return a.name < b.name; });
  for (Event& event : loaded.events) event.metadata_loaded = true;

  // Metadata names the base event with its exact spelling, as perf builds the path from it.
  auto by_name = [](const Event& event, const std::string& name) { return event.name < name; };
  std::sort(metadata.begin(), metadata.end(),
            [](const MetadataFile& a, const MetadataFile& b) { return a.path < b.path; });
  for (MetadataFile& file : metadata) {
    auto found = std::lower_bound(loaded.events.begin(), loaded.events.end(), file.base, by_name);
    if (found == loaded.events.end() || found->name != file.base) {
      loaded.diagnostics.push_back(make_file_diagnostic(
          Severity::error, DiagId::event_orphan_metadata, file.path,
          fmt::format("metadata file has no event '{}' to belong to", file.base)));
      continue;
    }
    attach(*found, file);
  }
  return loaded;
}

}  // namespace

LoadedEvents load_events(const std::string& pmu_dir, std::string_view only_lower_name) {
  std::string events_dir = pmu_dir + "/events";
  auto directory = Directory::open(AT_FDCWD, events_dir, events_dir);
  if (!directory) {
    LoadedEvents loaded;
    // Many PMUs have no events/ (uncore boxes, software); only other failures are reported.
    if (!directory.error().missing())
      loaded.diagnostics.push_back(std::move(directory.error().diagnostic));
    return loaded;
  }
  return list_events(*directory, events_dir, only_lower_name);
}

NamedEvents find_named_events(const std::string& pmu_dir, std::span<const std::string> spellings,
                              std::string_view lower) {
  NamedEvents found;
  std::string events_dir = pmu_dir + "/events";
  auto directory = Directory::open(AT_FDCWD, events_dir, events_dir);
  if (!directory) {
    if (!directory.error().missing())
      found.variants.diagnostics.push_back(std::move(directory.error().diagnostic));
    return found;
  }
  for (const std::string& spelling : spellings) {
    // Relative to the open directory: the kernel walks one component, not the whole path.
    std::string path = events_dir + "/" + spelling;
    auto content = read_sysfs_file_if_present(directory->fd(), spelling, path);
    if (content && !*content) continue;  // not there (or not telling): the listing decides
    found.probed =
        content ? make_event(spelling, std::move(path), std::move(**content))
                : make_event(spelling, std::move(path), unexpected(std::move(content.error())));
    return found;
  }
  found.variants = list_events(*directory, events_dir, lower);
  return found;
}

}  // namespace detail
PMUCAT_END_NAMESPACE

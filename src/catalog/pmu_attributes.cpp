// Loading a PMU directory's scalar attributes: type, cpu lists, caps/, alias, ...
#include <fmt/core.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "catalog/pmu_parts.h"
#include "catalog/sysfs_file.h"
#include "parser/char_class.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/pmu_attribute_files.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {
namespace {

using char_class::is_blank;
using char_class::is_digit;

// The PMU directory, listed once: attributes that are not in the listing are absent, so none
// is probed for, and listed regular files are read without an fstat().
struct PmuListing {
  int fd;
  std::vector<DirEntry> entries;
  const DirEntry* find(std::string_view name) const {
    for (const DirEntry& entry : entries) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }
};

// Reads one optional attribute file; absent files are not a problem, unreadable ones are.
std::optional<std::string> read_optional(const PmuListing& listing, const std::string& pmu_dir,
                                         const char* name, std::vector<Diagnostic>& diagnostics) {
  const DirEntry* entry = listing.find(name);
  if (entry == nullptr) return std::nullopt;
  std::string path = pmu_dir + "/" + name;
  auto content =
      may_be_regular(entry->type)
          ? read_sysfs_file(listing.fd, entry->name, path, entry->type)
          : Expected<std::string, ReadFailure>(unexpected(not_regular_failure(entry->type, path)));
  if (content) return std::move(*content);
  // Removed since the listing: as good as never there.
  if (!content.error().missing()) diagnostics.push_back(std::move(content.error().diagnostic));
  return std::nullopt;
}

// A plain decimal attribute such as nr_addr_filters ("2\n").
std::optional<std::uint32_t> read_decimal(std::string_view text, std::string_view file,
                                          std::vector<Diagnostic>& diagnostics) {
  std::string_view digits = without_trailing_newline(text);
  std::uint64_t value = 0;
  bool valid =
      !digits.empty() && digits.size() <= 10 && std::all_of(digits.begin(), digits.end(), is_digit);
  if (valid) {
    for (char c : digits) value = value * 10 + static_cast<std::uint64_t>(c - '0');
    valid = value <= UINT32_MAX;
  }
  if (!valid) {
    diagnostics.push_back(make_diagnostic(Severity::error, DiagId::pmu_attribute_invalid, file,
                                          text, 0, digits.size(), "expected a decimal number"));
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(value);
}

std::optional<CpuList> read_cpu_list(const PmuListing& listing, const std::string& pmu_dir,
                                     const char* name, std::vector<Diagnostic>& diagnostics) {
  auto text = read_optional(listing, pmu_dir, name, diagnostics);
  if (!text) return std::nullopt;
  auto list = parse_cpu_list(*text, pmu_dir + "/" + name);
  if (!list) {
    diagnostics.push_back(std::move(list.error()));
    return std::nullopt;
  }
  return std::move(*list);
}

void read_caps(const PmuListing& listing, const std::string& pmu_dir, PmuAttributes& attributes) {
  if (listing.find("caps") == nullptr) return;
  std::string caps_dir = pmu_dir + "/caps";
  auto directory = Directory::open(listing.fd, "caps", caps_dir);
  if (!directory) {
    if (!directory.error().missing()) {
      attributes.diagnostics.push_back(std::move(directory.error().diagnostic));
    }
    return;
  }
  for (const DirEntry& entry : directory->list()) {
    std::string path = caps_dir + "/" + entry.name;
    auto content =
        may_be_regular(entry.type)
            ? read_sysfs_file(directory->fd(), entry.name, path, entry.type)
            : Expected<std::string, ReadFailure>(unexpected(not_regular_failure(entry.type, path)));
    if (!content) {
      attributes.diagnostics.push_back(std::move(content.error().diagnostic));
      continue;
    }
    attributes.caps.emplace(entry.name, std::string(first_line(*content)));
  }
}

Diagnostic unreachable_directory(const std::string& pmu_dir, int error_number) {
  std::string_view reason = error_number == ENOENT    ? " (a dangling symlink?)"
                            : error_number == ELOOP   ? " (a symlink loop)"
                            : error_number == ENOTDIR ? " (not a directory)"
                                                      : "";
  return make_file_diagnostic(
      Severity::error, DiagId::pmu_dir_unreadable, pmu_dir,
      fmt::format("cannot open PMU directory: {}{}", error_text(error_number), reason));
}

}  // namespace

TypeReading read_type(std::string_view text, std::string_view file) {
  TypeReading reading;
  std::size_t position = 0;
  while (position < text.size() && is_blank(text[position])) ++position;
  std::size_t digits_start = position;
  std::uint64_t value = 0;
  bool overflow = false;
  while (position < text.size() && is_digit(text[position])) {
    value = value * 10 + static_cast<std::uint64_t>(text[position] - '0');
    overflow = overflow || value > UINT32_MAX;
    if (overflow) value = UINT32_MAX + std::uint64_t{1};  // keep accumulating without wrapping
    ++position;
  }
  std::size_t digit_count = position - digits_start;
  if (digit_count == 0) {
    reading.diagnostics.push_back(
        make_diagnostic(Severity::error, DiagId::pmu_type_invalid, file, text, digits_start,
                        digits_start < text.size() ? 1 : 0, "expected a decimal PMU type number"));
    return reading;
  }
  if (overflow) {
    reading.diagnostics.push_back(make_diagnostic(Severity::error, DiagId::pmu_type_invalid, file,
                                                  text, digits_start, digit_count,
                                                  "PMU type does not fit in 32 bits"));
    return reading;
  }
  reading.type = static_cast<std::uint32_t>(value);
  std::string_view rest = text.substr(position);
  if (rest.empty() || rest == "\n") return reading;
  if (value == 0 && digit_count == 1 && (rest.front() == 'x' || rest.front() == 'X')) {
    Diagnostic hex = make_diagnostic(
        Severity::error, DiagId::pmu_type_hex, file, text, digits_start,
        first_line(text.substr(digits_start)).size(),
        "PMU type is written in hex; perf reads it with %u, so the type is 0 (PERF_TYPE_HARDWARE)");
    hex.hint = "the kernel writes the type in decimal";
    reading.diagnostics.push_back(std::move(hex));
    return reading;
  }
  reading.diagnostics.push_back(make_diagnostic(Severity::warning, DiagId::pmu_type_trailing, file,
                                                text, position, first_line(rest).size(),
                                                "unexpected text after the PMU type is ignored"));
  return reading;
}

namespace {

TypeAttribute missing_type(const std::string& type_path) {
  TypeAttribute result;
  result.diagnostics.push_back(
      make_file_diagnostic(Severity::error, DiagId::pmu_type_missing, type_path,
                           "PMU directory has no 'type' file; perf does not treat it as a PMU"));
  return result;
}

// The type attribute from what reading `type` gave, once the PMU directory is known to exist.
TypeAttribute type_from_content(Expected<std::string, ReadFailure> content,
                                const std::string& type_path) {
  TypeAttribute result;
  if (content) {
    result.text = std::string(without_trailing_newline(*content));
    TypeReading reading = read_type(*content, type_path);
    result.type = reading.type;
    result.diagnostics = std::move(reading.diagnostics);
  } else if (content.error().missing()) {
    return missing_type(type_path);
  } else {
    result.diagnostics.push_back(std::move(content.error().diagnostic));
  }
  return result;
}

TypeAttribute type_from_listing(const PmuListing& listing, const std::string& pmu_dir) {
  std::string type_path = pmu_dir + "/type";
  const DirEntry* entry = listing.find("type");
  if (entry == nullptr) return missing_type(type_path);
  return type_from_content(may_be_regular(entry->type)
                               ? read_sysfs_file(listing.fd, entry->name, type_path, entry->type)
                               : Expected<std::string, ReadFailure>(
                                     unexpected(not_regular_failure(entry->type, type_path))),
                           type_path);
}

}  // namespace

TypeAttribute load_type(const std::string& pmu_dir) {
  std::string type_path = pmu_dir + "/type";
  auto type_text = read_sysfs_file(AT_FDCWD, type_path, type_path);
  if (!type_text) {
    const int error_number = type_text.error().error_number;
    if (error_number == ENOENT || error_number == ENOTDIR || error_number == ELOOP) {
      // Only the directory itself tells a missing `type` from a PMU entry that leads nowhere.
      auto pmu_fd = open_directory_fd(AT_FDCWD, pmu_dir, pmu_dir);
      if (!pmu_fd) {
        TypeAttribute result;
        result.pmu_dir_unreadable = true;
        result.diagnostics.push_back(unreachable_directory(pmu_dir, pmu_fd.error().error_number));
        return result;
      }
    }
  }
  return type_from_content(std::move(type_text), type_path);
}

LoadedAttributes load_attributes(const std::string& pmu_dir, const TypeAttribute* known_type) {
  LoadedAttributes loaded;
  PmuAttributes& attributes = loaded.attributes;
  auto copy_type = [&] {
    attributes.type = loaded.type.type;
    attributes.type_text = loaded.type.text;
    attributes.diagnostics = loaded.type.diagnostics;
  };
  if (known_type != nullptr && known_type->pmu_dir_unreadable) {
    loaded.type = *known_type;
    copy_type();
    return loaded;
  }
  auto directory = Directory::open(AT_FDCWD, pmu_dir, pmu_dir);
  if (!directory) {
    // A directory that cannot be listed may still be searchable: `type` is read by its path.
    loaded.type = known_type != nullptr ? *known_type : load_type(pmu_dir);
    copy_type();
    if (!loaded.type.pmu_dir_unreadable) {
      attributes.diagnostics.push_back(
          unreachable_directory(pmu_dir, directory.error().error_number));
    }
    return loaded;
  }
  const PmuListing listing{directory->fd(), directory->list()};
  loaded.type = known_type != nullptr ? *known_type : type_from_listing(listing, pmu_dir);
  copy_type();
  loaded.may_have_formats = listing.find("format") != nullptr;
  loaded.may_have_events = listing.find("events") != nullptr;
  std::vector<Diagnostic>& diagnostics = attributes.diagnostics;
  // `type`, the table's first file, is read above with the listing.
  static_assert(kPmuAttributeFiles[0].name == "type");
  for (const PmuAttributeFile& file : std::span(kPmuAttributeFiles).subspan(1)) {
    const std::string name(file.name);
    if (file.cpu_list != nullptr) {
      attributes.*file.cpu_list = read_cpu_list(listing, pmu_dir, name.c_str(), diagnostics);
      continue;
    }
    auto text = read_optional(listing, pmu_dir, name.c_str(), diagnostics);
    if (!text) continue;
    if (file.number != nullptr) {
      attributes.*file.number = read_decimal(*text, pmu_dir + "/" + name, diagnostics);
    } else {
      attributes.*file.line = std::string(first_line(*text));
    }
  }
  read_caps(listing, pmu_dir, attributes);
  return loaded;
}

}  // namespace detail
PMUCAT_END_NAMESPACE

// mapfile.csv and the CPU identifier rules, as perf 6.1 applies them (jevents.py builds the table
// from the csv; util/header.c and arch/x86/util/header.c compare identifiers with its rows).
#include <regex.h>

#include <algorithm>
#include <cstring>
#include <system_error>

#include "pmu_events/cpuid_prefilter.h"
#include "pmu_events/text_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

// An upper bound of how many copies of its parts glibc's regcomp makes for `pattern` (it expands
// `x+` to `xx*` and `x{m,n}` to n copies, nested ones multiplied): a CPU identifier pattern of a
// real mapfile needs at most 5, while a hostile one (`.++++…`, `(a{255}){255}`) takes gigabytes.
bool within_compile_budget(std::string_view pattern) {
  constexpr std::uint64_t kMaxCopies = 4096;
  if (pattern.size() > 1024) return false;
  std::uint64_t copies = 1;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    std::uint64_t factor = 1;
    if (pattern[i] == '\\') {
      ++i;
    } else if (pattern[i] == '+') {
      factor = 2;
    } else if (pattern[i] == '{') {
      // The largest number in the interval (its upper bound, or the lower one of `{m,}`).
      std::uint64_t largest = 0;
      std::uint64_t number = 0;
      for (++i; i < pattern.size() && pattern[i] != '}'; ++i) {
        if (pattern[i] >= '0' && pattern[i] <= '9') {
          number = std::min<std::uint64_t>(number * 10 + static_cast<unsigned>(pattern[i] - '0'),
                                           kMaxCopies + 1);
        } else {
          number = 0;
        }
        largest = std::max(largest, number);
      }
      factor = largest + 1;
    }
    copies *= factor;
    if (copies > kMaxCopies) return false;
  }
  return true;
}

// A compiled POSIX extended regular expression, freed on scope exit. One over the compile budget
// is not compiled: it matches nothing, like a pattern regcomp rejects.
class PosixRegex {
 public:
  explicit PosixRegex(const std::string& pattern)
      : ok_(within_compile_budget(pattern) &&
            regcomp(&regex_, pattern.c_str(), REG_EXTENDED) == 0) {}
  PosixRegex(const PosixRegex&) = delete;
  PosixRegex& operator=(const PosixRegex&) = delete;
  ~PosixRegex() {
    if (ok_) regfree(&regex_);
  }
  bool ok() const { return ok_; }
  // The length of the leftmost match in `subject`, or nullopt.
  std::optional<std::size_t> match_length(const std::string& subject) const {
    regmatch_t match[1];
    if (!ok_ || regexec(&regex_, subject.c_str(), 1, match, 0) != 0) return std::nullopt;
    return static_cast<std::size_t>(match[0].rm_eo - match[0].rm_so);
  }

 private:
  regex_t regex_{};
  bool ok_;
};

// perf reads C strings: whatever follows a NUL byte is not there.
std::string as_c_string(std::string_view text) {
  return std::string(text.substr(0, text.find('\0')));
}

bool is_full_x86_cpuid(std::string_view id) {
  return std::count(id.begin(), id.end(), '-') == 3;
}

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

// The architecture perf was built for on this host: its own mapfile is the one perf reads.
std::string_view host_arch() {
#if defined(__x86_64__) || defined(__i386__)
  return "x86";
#elif defined(__aarch64__)
  return "arm64";
#elif defined(__powerpc__) || defined(__powerpc64__)
  return "powerpc";
#elif defined(__s390__) || defined(__s390x__)
  return "s390";
#else
  return "";
#endif
}

}  // namespace

namespace {

// The rows of a mapfile, each with the byte offset of its line, without compiling their regular
// expressions: choosing a model compiles only the rows it has to try.
struct ParsedRows {
  Mapfile mapfile;
  std::vector<std::size_t> offsets;  // of each row's line, parallel to mapfile.rows
};

ParsedRows parse_rows(std::string_view text, std::string_view path, std::string arch) {
  ParsedRows parsed;
  Mapfile& mapfile = parsed.mapfile;
  mapfile.arch = std::move(arch);
  mapfile.path = std::string(path);
  std::size_t line_start = 0;
  std::uint32_t line_number = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    const std::size_t offset = line_start;
    line_start = line_end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // jevents.py skips the file's first row whatever it holds (x86's header; arm64's first
    // comment), then blank rows and rows starting with '#'.
    if (line_number == 1 || line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> fields = split_commas(line);
    if (fields.size() < 3) {
      mapfile.diagnostics.push_back(make_diagnostic(
          Severity::error, DiagId::mapfile_syntax, path, text, offset, line.size(),
          "mapfile row has no CPU identifier, version and directory fields; skipped"));
      continue;
    }
    MapfileRow row;
    row.cpuid = std::string(fields[0]);
    row.version = std::string(fields[1]);
    row.directory = std::string(fields[2]);
    if (fields.size() > 3) row.type = std::string(fields[3]);
    row.line = line_number;
    mapfile.rows.push_back(std::move(row));
    parsed.offsets.push_back(offset);
  }
  return parsed;
}

Diagnostic bad_regex(const Mapfile& mapfile, std::string_view text, std::size_t row_index,
                     std::size_t offset) {
  const MapfileRow& row = mapfile.rows[row_index];
  const std::string why = within_compile_budget(as_c_string(row.cpuid))
                              ? "is not a POSIX extended regular expression"
                              : "repeats more than pmucat compiles (glibc would copy it "
                                "thousands of times)";
  return make_diagnostic(Severity::error, DiagId::mapfile_regex, mapfile.path, text, offset,
                         row.cpuid.size(),
                         "CPU identifier '" + row.cpuid + "' " + why + "; the row never matches");
}

}  // namespace

Mapfile parse_mapfile(std::string_view text, std::string_view path, std::string arch) {
  ParsedRows parsed = parse_rows(text, path, std::move(arch));
  for (std::size_t i = 0; i < parsed.mapfile.rows.size(); ++i) {
    if (!PosixRegex(as_c_string(parsed.mapfile.rows[i].cpuid)).ok()) {
      parsed.mapfile.diagnostics.push_back(bad_regex(parsed.mapfile, text, i, parsed.offsets[i]));
    }
  }
  return std::move(parsed.mapfile);
}

CpuidRules cpuid_rules_for_arch(std::string_view arch) {
  return arch == "x86" ? CpuidRules::x86 : CpuidRules::whole;
}

namespace {

// The literal text every match of the extended regular expression `pattern` starts with: its
// bytes up to the first special one (less the last when a quantifier follows it); empty when a
// `|` outside brackets and parentheses offers another start. Compiling a pattern (glibc's
// regcomp) costs far more than comparing bytes, and every x86 row before the one that matches
// would otherwise be compiled.
std::string_view literal_start(std::string_view pattern) {
  int depth = 0;
  bool in_bracket = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (in_bracket) {
      if (c == ']') in_bracket = false;
    } else if (c == '[') {
      in_bracket = true;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;  // `[]...]`: `]` is a member
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth > 0) --depth;
    } else if (c == '|' && depth == 0) {
      return {};
    }
  }
  const std::size_t special = pattern.find_first_of(".[]()*+?{}|^$\\");
  std::string_view literal = pattern.substr(0, special);
  if (special != std::string_view::npos && !literal.empty() &&
      (pattern[special] == '*' || pattern[special] == '?' || pattern[special] == '{')) {
    literal.remove_suffix(1);
  }
  return literal;
}

bool is_plain(char c) {
  return std::string_view(".[]()*+?{}|^$\\").find(c) == std::string_view::npos && c != '\0';
}

bool is_optional_quantifier(std::string_view pattern, std::size_t at) {
  return at < pattern.size() && (pattern[at] == '*' || pattern[at] == '?' || pattern[at] == '{');
}

// What can follow the literal start in a match, when the pattern makes that plain: one of a
// group of alternatives made of plain bytes only (`(97|9A|B7)`), or one byte of a bracket of
// plain bytes and ranges (`[56789A-F]`), not made optional by a quantifier. Empty when unknown.
std::vector<std::string> next_texts(std::string_view pattern, std::size_t at) {
  if (at >= pattern.size()) return {};
  std::vector<std::string> texts;
  if (pattern[at] == '(') {
    std::size_t i = at + 1;
    for (;;) {
      if (i >= pattern.size() || !is_plain(pattern[i]) || is_optional_quantifier(pattern, i + 1)) {
        return {};
      }
      // The whole alternative: plain bytes only, else give up.
      const std::size_t start = i;
      ++i;
      while (i < pattern.size() && pattern[i] != '|' && pattern[i] != ')') {
        if (!is_plain(pattern[i])) return {};
        ++i;
      }
      if (i >= pattern.size()) return {};
      texts.emplace_back(pattern.substr(start, i - start));
      if (pattern[i] == ')') break;
      ++i;  // past '|'
    }
    if (is_optional_quantifier(pattern, i + 1)) return {};
    return texts;
  }
  if (pattern[at] == '[') {
    std::string bytes;
    std::size_t i = at + 1;
    if (i >= pattern.size() || pattern[i] == '^' || pattern[i] == ']') return {};
    while (i < pattern.size() && pattern[i] != ']') {
      const char first = pattern[i];
      if (first == '[' || first == '\\') return {};  // classes, collating elements
      if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
        const char last = pattern[i + 2];
        if (last == '[' || static_cast<unsigned char>(last) < static_cast<unsigned char>(first)) {
          return {};
        }
        for (int c = static_cast<unsigned char>(first); c <= static_cast<unsigned char>(last);
             ++c) {
          bytes += static_cast<char>(c);
        }
        i += 3;
      } else {
        bytes += first;
        ++i;
      }
    }
    if (i >= pattern.size() || is_optional_quantifier(pattern, i + 1)) return {};
    for (char byte : bytes) texts.emplace_back(1, byte);
    return texts;
  }
  return {};
}

}  // namespace

namespace pmu_events {

bool cpuid_may_match(std::string_view pattern, std::string_view id) {
  const std::string_view literal = literal_start(pattern);
  if (literal.empty()) return true;
  // A plain byte right after the literal start is one a quantifier made optional: unknown.
  const std::vector<std::string> next =
      literal.size() < pattern.size() && !is_plain(pattern[literal.size()])
          ? next_texts(pattern, literal.size())
          : std::vector<std::string>();
  for (std::size_t at = id.find(literal); at != std::string_view::npos;
       at = id.find(literal, at + 1)) {
    if (next.empty()) return true;
    const std::string_view after = id.substr(at + literal.size());
    for (const std::string& text : next) {
      if (after.starts_with(text)) return true;
    }
  }
  return false;
}

}  // namespace pmu_events

namespace {

// The length perf requires of the leftmost match of `pattern` in `id`, or nullopt when the
// identifier's form already rules the row out.
std::optional<std::size_t> required_match_length(const std::string& pattern, const std::string& id,
                                                 CpuidRules rules) {
  std::size_t compared_length = id.size();
  if (rules == CpuidRules::x86) {
    const bool full_pattern = is_full_x86_cpuid(pattern);
    const bool full_id = is_full_x86_cpuid(id);
    if (full_pattern && !full_id) return std::nullopt;
    // The whole identifier is searched; only the length the match must have drops the stepping.
    if (!full_pattern && full_id) compared_length = id.rfind('-');
  }
  return compared_length;
}

// A pattern without special bytes (most x86 rows: `GenuineIntel-6-8F`) matches exactly its own
// bytes, so its leftmost match in `id` has the pattern's length when it occurs at all: such a
// row is decided without compiling it.
bool is_literal(const std::string& pattern) {
  return !pattern.empty() && std::all_of(pattern.begin(), pattern.end(), is_plain);
}

bool literal_row_matches(const std::string& pattern, const std::string& id, CpuidRules rules) {
  const std::optional<std::size_t> required = required_match_length(pattern, id, rules);
  return required && id.find(pattern) != std::string::npos && pattern.size() == *required;
}

bool row_matches(const PosixRegex& regex, const std::string& pattern, const std::string& id,
                 CpuidRules rules) {
  const std::optional<std::size_t> required = required_match_length(pattern, id, rules);
  if (!required) return false;
  const std::optional<std::size_t> length = regex.match_length(id);
  return length && *length == *required;
}

}  // namespace

bool cpuid_matches(std::string_view row_cpuid, std::string_view cpuid, CpuidRules rules) {
  const std::string pattern = as_c_string(row_cpuid);
  const std::string id = as_c_string(cpuid);
  // What every match must hold decides most rows without compiling them.
  if (!pmu_events::cpuid_may_match(pattern, id)) return false;
  if (is_literal(pattern)) return literal_row_matches(pattern, id, rules);
  return row_matches(PosixRegex(pattern), pattern, id, rules);
}

const MapfileRow* find_mapfile_row(const Mapfile& mapfile, std::string_view cpuid) {
  const CpuidRules rules = cpuid_rules_for_arch(mapfile.arch);
  for (const MapfileRow& row : mapfile.rows) {
    if (cpuid_matches(row.cpuid, cpuid, rules)) return &row;
  }
  return nullptr;
}

std::string_view vendor_host_arch() {
  return host_arch();
}

std::optional<VendorModelChoice> choose_vendor_model(const fs::path& events_root,
                                                     std::string_view cpuid,
                                                     std::vector<Diagnostic>& notes) {
  const std::string id = as_c_string(cpuid);
  auto choose_in = [&](const std::string& arch) -> std::optional<VendorModelChoice> {
    const fs::path path = events_root / arch / "mapfile.csv";
    const auto text = pmu_events::read_bounded_text_file(path, pmu_events::kMaxMapfileSize);
    if (!text) {
      notes.push_back(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                           path.string(),
                                           "cannot read the mapfile: " + text.error()));
      return std::nullopt;
    }
    // Rows are compiled only when tried, so a bad regular expression is reported when a row
    // before the match holds it (parse_mapfile() checks every row).
    ParsedRows parsed = parse_rows(*text, path.string(), arch);
    const Mapfile& mapfile = parsed.mapfile;
    notes.insert(notes.end(), mapfile.diagnostics.begin(), mapfile.diagnostics.end());
    const CpuidRules rules = cpuid_rules_for_arch(arch);
    for (std::size_t i = 0; i < mapfile.rows.size(); ++i) {
      const std::string pattern = as_c_string(mapfile.rows[i].cpuid);
      if (!pmu_events::cpuid_may_match(pattern, id)) continue;
      if (is_literal(pattern)) {
        if (literal_row_matches(pattern, id, rules))
          return VendorModelChoice{arch, mapfile.rows[i]};
        continue;
      }
      const PosixRegex regex(pattern);
      if (!regex.ok()) {
        notes.push_back(bad_regex(mapfile, *text, i, parsed.offsets[i]));
        continue;
      }
      if (row_matches(regex, pattern, id, rules)) return VendorModelChoice{arch, mapfile.rows[i]};
    }
    return std::nullopt;
  };
  auto has_mapfile = [&](const fs::path& arch_dir) {
    std::error_code status_error;
    return fs::is_regular_file(arch_dir / "mapfile.csv", status_error);
  };

  // The host's architecture first, without listing the root: it answers almost every lookup.
  const std::string host(host_arch());
  if (has_mapfile(events_root / host)) {
    if (auto choice = choose_in(host)) return choice;
  }
  std::vector<std::string> archs;
  std::error_code error;
  for (fs::directory_iterator it(events_root, error), end; !error && it != end;
       it.increment(error)) {
    const std::string arch = it->path().filename().string();
    if (arch != host && has_mapfile(it->path())) archs.push_back(arch);
  }
  std::sort(archs.begin(), archs.end());
  for (const std::string& arch : archs) {
    if (auto choice = choose_in(arch)) return choice;
  }
  notes.push_back(make_file_diagnostic(
      Severity::note, DiagId::mapfile_no_match, events_root.string(),
      "no mapfile.csv row matches CPU identifier '" + std::string(cpuid) + "'"));
  return std::nullopt;
}

PMUCAT_END_NAMESPACE

// mapfile.csv and the CPU identifier rules, as perf 6.1 applies them (jevents.py builds the table
// from the csv; util/header.c and arch/x86/util/header.c compare identifiers with its rows).
#include <regex.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

namespace pmucat {
namespace {

namespace fs = std::filesystem;

// A compiled POSIX extended regular expression, freed on scope exit.
class PosixRegex {
 public:
  explicit PosixRegex(const std::string& pattern)
      : ok_(regcomp(&regex_, pattern.c_str(), REG_EXTENDED) == 0) {}
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

std::optional<std::string> read_small_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
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

Mapfile parse_mapfile(std::string_view text, std::string_view path, std::string arch) {
  Mapfile mapfile;
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
    if (!PosixRegex(as_c_string(row.cpuid)).ok()) {
      mapfile.diagnostics.push_back(make_diagnostic(
          Severity::error, DiagId::mapfile_regex, path, text, offset, fields[0].size(),
          "CPU identifier '" + row.cpuid +
              "' is not a POSIX extended regular expression; the row never matches"));
    }
    mapfile.rows.push_back(std::move(row));
  }
  return mapfile;
}

CpuidRules cpuid_rules_for_arch(std::string_view arch) {
  return arch == "x86" ? CpuidRules::x86 : CpuidRules::whole;
}

namespace {

// The literal text every match of the extended regular expression `pattern` starts with: its
// bytes up to the first special one (less the last when a quantifier follows it); empty when a
// `|` outside brackets and parentheses offers another start. Compiling a pattern costs ~10 us
// (glibc), and choosing a model compiled every x86 row before the one that matches.
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

}  // namespace

bool cpuid_matches(std::string_view row_cpuid, std::string_view cpuid, CpuidRules rules) {
  const std::string pattern = as_c_string(row_cpuid);
  const std::string id = as_c_string(cpuid);
  // A match contains the pattern's literal start: without it there is nothing to compile.
  if (id.find(literal_start(pattern)) == std::string::npos) return false;
  std::size_t compared_length = id.size();
  if (rules == CpuidRules::x86) {
    const bool full_pattern = is_full_x86_cpuid(pattern);
    const bool full_id = is_full_x86_cpuid(id);
    if (full_pattern && !full_id) return false;
    // The whole identifier is searched; only the length the match must have drops the stepping.
    if (!full_pattern && full_id) compared_length = id.rfind('-');
  }
  const std::optional<std::size_t> length = PosixRegex(pattern).match_length(id);
  return length && *length == compared_length;
}

const MapfileRow* find_mapfile_row(const Mapfile& mapfile, std::string_view cpuid) {
  const CpuidRules rules = cpuid_rules_for_arch(mapfile.arch);
  for (const MapfileRow& row : mapfile.rows) {
    if (cpuid_matches(row.cpuid, cpuid, rules)) return &row;
  }
  return nullptr;
}

std::optional<VendorModelChoice> choose_vendor_model(const fs::path& events_root,
                                                     std::string_view cpuid,
                                                     std::vector<Diagnostic>& notes) {
  std::vector<std::string> archs;
  std::error_code error;
  for (fs::directory_iterator it(events_root, error), end; !error && it != end;
       it.increment(error)) {
    std::error_code status_error;
    if (fs::is_regular_file(it->path() / "mapfile.csv", status_error)) {
      archs.push_back(it->path().filename().string());
    }
  }
  std::sort(archs.begin(), archs.end());
  const auto host = std::find(archs.begin(), archs.end(), host_arch());
  if (host != archs.end()) std::rotate(archs.begin(), host, host + 1);

  for (const std::string& arch : archs) {
    const fs::path path = events_root / arch / "mapfile.csv";
    const std::optional<std::string> text = read_small_text(path);
    if (!text) {
      notes.push_back(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                           path.string(), "cannot read the mapfile"));
      continue;
    }
    Mapfile mapfile = parse_mapfile(*text, path.string(), arch);
    notes.insert(notes.end(), mapfile.diagnostics.begin(), mapfile.diagnostics.end());
    if (const MapfileRow* row = find_mapfile_row(mapfile, cpuid)) {
      return VendorModelChoice{arch, *row};
    }
  }
  notes.push_back(make_file_diagnostic(
      Severity::note, DiagId::mapfile_no_match, events_root.string(),
      "no mapfile.csv row matches CPU identifier '" + std::string(cpuid) + "'"));
  return std::nullopt;
}

}  // namespace pmucat

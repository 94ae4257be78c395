// The forms perf writes CPU identifiers in: arch/x86/util/header.c (`%s-%u-%X-%X`),
// arch/arm64/util/header.c (`0x%016lx`), arch/powerpc/util/header.c (`%.8lx`),
// arch/s390/util/header.c and arch/riscv/util/header.c, as facts.
#include "pmucat/cpuid_form.h"

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "parser/char_class.h"
#include "pmu_events/text_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using char_class::is_alnum;
using char_class::is_digit;
bool is_hex(char c) {
  return char_class::is_hex_digit(c);
}
bool is_lower_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f');
}

template <class Predicate>
bool all_of(std::string_view text, Predicate predicate) {
  return !text.empty() && std::all_of(text.begin(), text.end(), predicate);
}

std::string to_upper_hex(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string to_lower_hex(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

constexpr std::string_view kForms =
    "perf's forms: x86 Vendor-Family-Model[-Stepping] with upper-case hex (GenuineIntel-6-8F-8), "
    "arm64 0x and 16 lower-case hex digits (0x00000000410fd490), powerpc 8 lower-case hex digits, "
    "s390 Manufacturer,Type,Model";

Diagnostic warning(DiagId id, std::string_view what, std::string_view cpuid, std::string message,
                   std::optional<std::string> replacement) {
  Diagnostic diagnostic = make_diagnostic(Severity::warning, to_string(id), what, cpuid, 0,
                                          cpuid.size(), std::move(message));
  if (replacement) diagnostic.fixit = FixIt{diagnostic.range, std::move(*replacement)};
  diagnostic.hint = std::string(kForms);
  return diagnostic;
}

// x86: Vendor-Family-Model[-Stepping]. nullopt: not this form at all; "" : perf's form exactly;
// otherwise the identifier in perf's case.
std::optional<std::string> x86_form(std::string_view cpuid) {
  const std::vector<std::string_view> parts = split(cpuid, '-');
  if (parts.size() != 3 && parts.size() != 4) return std::nullopt;
  if (!all_of(parts[0], is_alnum) || !all_of(parts[1], is_digit)) return std::nullopt;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (!all_of(parts[i], is_hex)) return std::nullopt;
  }
  std::string fixed(parts[0]);
  fixed += '-';
  fixed += parts[1];
  for (std::size_t i = 2; i < parts.size(); ++i) {
    fixed += '-';
    fixed += to_upper_hex(parts[i]);
  }
  return fixed == cpuid ? std::string() : fixed;
}

}  // namespace

std::optional<Diagnostic> check_cpuid_form(std::string_view cpuid, std::string_view what) {
  if (const auto x86 = x86_form(cpuid)) {
    if (x86->empty()) return std::nullopt;
    return warning(
        DiagId::cpuid_case, what, cpuid,
        fmt::format("CPU identifier '{}'"
                    " has lower-case hex digits; perf writes x86 models and steppings in "
                    "upper case and matches mapfile.csv rows case-sensitively",
                    cpuid),
        *x86);
  }
  if (cpuid.starts_with("0x") || cpuid.starts_with("0X")) {
    const std::string_view rest = cpuid.substr(2);
    const std::vector<std::string_view> parts = split(cpuid, '-');
    if (parts.size() == 3) {
      // riscv: 0xVENDOR-0xARCH-0xIMP.
      bool form = true;
      bool lower = true;
      for (std::string_view part : parts) {
        if (!part.starts_with("0x") || !all_of(part.substr(2), is_hex)) form = false;
        if (part.size() > 2 && !all_of(part.substr(2), is_lower_hex)) lower = false;
      }
      if (form && lower) return std::nullopt;
      if (form) {
        return warning(
            DiagId::cpuid_case, what, cpuid,
            fmt::format("CPU identifier '{}'"
                        " has upper-case hex digits; perf writes riscv identifiers in lower "
                        "case and matches mapfile.csv rows case-sensitively",
                        cpuid),
            to_lower_hex(cpuid));
      }
    } else if (all_of(rest, is_hex) && cpuid[1] == 'x') {
      if (rest.size() == 16 && all_of(rest, is_lower_hex)) return std::nullopt;
      if (rest.size() <= 16) {
        const std::string fixed = fmt::format("0x{:0>16}", to_lower_hex(rest));
        if (rest.size() == 16) {
          return warning(
              DiagId::cpuid_case, what, cpuid,
              fmt::format("CPU identifier '{}'"
                          " has upper-case hex digits; perf writes an arm64 MIDR in lower "
                          "case and matches mapfile.csv rows case-sensitively",
                          cpuid),
              fixed);
        }
        return warning(DiagId::cpuid_malformed, what, cpuid,
                       fmt::format("CPU identifier '{}' has {} hex digits; perf writes an arm64 "
                                   "MIDR with 16 (0x%016lx) and matches mapfile.csv rows "
                                   "against that text",
                                   cpuid, rest.size()),
                       fixed);
      }
    }
    return warning(DiagId::cpuid_malformed, what, cpuid,
                   fmt::format("CPU identifier '{}'"
                               " is not in any form perf writes one in",
                               cpuid),
                   std::nullopt);
  }
  if (cpuid.size() == 8 && all_of(cpuid, is_hex)) {
    if (all_of(cpuid, is_lower_hex)) return std::nullopt;
    return warning(
        DiagId::cpuid_case, what, cpuid,
        fmt::format("CPU identifier '{}'"
                    " has upper-case hex digits; perf writes a powerpc PVR in lower case and "
                    "matches mapfile.csv rows case-sensitively",
                    cpuid),
        to_lower_hex(cpuid));
  }
  if (const std::vector<std::string_view> fields = split(cpuid, ',');
      fields.size() >= 3 && std::none_of(fields.begin(), fields.begin() + 3,
                                         [](std::string_view field) { return field.empty(); })) {
    return std::nullopt;  // s390
  }
  return warning(DiagId::cpuid_malformed, what, cpuid,
                 fmt::format("CPU identifier '{}'"
                             " is not in any form perf writes one in",
                             cpuid),
                 std::nullopt);
}

std::vector<std::string> nearest_mapfile_rows(const std::filesystem::path& events_root,
                                              std::string_view cpuid, std::size_t count) {
  // (distance, arch, row order, text): ties keep the mapfiles' own order.
  std::vector<std::tuple<std::size_t, std::string, std::size_t, std::string>> rows;
  std::error_code error;
  for (std::filesystem::directory_iterator it(events_root, error), end; !error && it != end;
       it.increment(error)) {
    const std::filesystem::path path = it->path() / "mapfile.csv";
    const std::optional<std::string> text = pmu_events::read_text_file(path);
    if (!text) continue;
    const std::string arch = it->path().filename().string();
    const Mapfile mapfile = parse_mapfile(*text, path.string(), arch);
    for (std::size_t i = 0; i < mapfile.rows.size(); ++i) {
      const MapfileRow& row = mapfile.rows[i];
      rows.emplace_back(edit_distance(cpuid, row.cpuid), arch, i,
                        fmt::format("{} ({})", row.cpuid, row.directory));
    }
  }
  std::sort(rows.begin(), rows.end());
  std::vector<std::string> nearest;
  for (std::size_t i = 0; i < rows.size() && i < count; ++i) {
    nearest.push_back(std::get<3>(rows[i]));
  }
  return nearest;
}

PMUCAT_END_NAMESPACE

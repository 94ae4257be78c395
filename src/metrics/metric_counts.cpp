// Counts for metric evaluation: the Counts table and the perf stat text readers (JSON lines and
// CSV).
#include "pmucat/metric_counts.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "parser/char_class.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE

namespace {

using char_class::ascii_iequal;

constexpr std::string_view kNotCounted = "<not counted>";
constexpr std::string_view kNotSupported = "<not supported>";

// perf's escape of '/' in metric-expression ids: `cpu@INST_RETIRED.ANY@` is printed as
// `cpu/INST_RETIRED.ANY/`.
std::string unescape_at(std::string_view id) {
  std::string out(id);
  std::replace(out.begin(), out.end(), '@', '/');
  return out;
}

// The value of a `name=` term of a `pmu@terms@` id: perf prints such an event under that name
// (`software@task-clock,name=task-clock@`, perf 7.3's common metrics, is `task-clock`).
std::optional<std::string_view> name_term(std::string_view id) {
  const std::size_t at = id.find('@');
  const std::size_t last = id.rfind('@');
  if (at == std::string_view::npos || last <= at) return std::nullopt;
  std::string_view terms = id.substr(at + 1, last - at - 1);
  for (;;) {
    const std::size_t comma = terms.find(',');
    const std::string_view term = terms.substr(0, comma);
    if (term.starts_with("name=") && term.size() > 5) return term.substr(5);
    if (comma == std::string_view::npos) return std::nullopt;
    terms.remove_prefix(comma + 1);
  }
}

// A printed name without the modifiers `-M NAME:mods` appended ("inst_retired.any:u",
// "cpu/INST_RETIRED.ANY/u"); the name itself when it has none.
std::string_view without_modifiers(std::string_view name) {
  const std::size_t slash = name.rfind('/');
  if (slash != std::string_view::npos && slash > 0 && name.find('/') < slash) {
    return name.substr(0, slash + 1);
  }
  const std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(0, colon);
}

// The unit scale perf applied to a printed value with this unit: task-clock and cpu-clock count
// nanoseconds and print milliseconds. Other units are taken as printed (docs/metrics.md).
double unit_scale_of(std::string_view unit) {
  return unit == "msec" ? 1e-6 : 1.0;
}

std::optional<double> parse_double(std::string_view text) {
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  if (text.front() == '+') {
    text.remove_prefix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// The value field of a count line: a number, or perf's <not counted> / <not supported>.
bool value_like(std::string_view field) {
  return field == kNotCounted || field == kNotSupported || parse_double(field).has_value();
}

// Calls `line_fn(line, offset)` for every line of `text` (without its '\n').
template <typename Fn>
void for_each_line(std::string_view text, Fn&& line_fn) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    line_fn(line, start);
    start = end + 1;
  }
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

void set_value(Count& count, std::string_view field) {
  if (field == kNotCounted) {
    count.status = CountStatus::not_counted;
  } else if (field == kNotSupported) {
    count.status = CountStatus::not_supported;
  } else {
    count.value = parse_double(field).value_or(0);
  }
}

}  // namespace

std::string_view to_string(CountStatus status) {
  switch (status) {
    case CountStatus::counted:
      return "counted";
    case CountStatus::not_counted:
      return "not counted";
    case CountStatus::not_supported:
      return "not supported";
  }
  return "?";
}

std::string_view to_string(CountsFormat format) {
  switch (format) {
    case CountsFormat::json_lines:
      return "perf stat -j";
    case CountsFormat::csv:
      return "perf stat -x";
    case CountsFormat::perf_data:
      return "perf.data";
  }
  return "?";
}

std::optional<double> metric_input_value(const Count& count) {
  if (count.status != CountStatus::counted) {
    return std::nullopt;
  }
  const double unscale = count.unit_scale != 0 ? count.unit_scale : 1.0;
  if (count.multiplex_scaled) {
    if (count.running && *count.running == 0) {
      return std::nullopt;
    }
    return count.value / unscale;
  }
  if (!count.running || !count.enabled) {
    return count.value / unscale;  // no times: taken as never multiplexed
  }
  if (*count.running == 0 || *count.enabled == 0) {
    return std::nullopt;
  }
  double value = count.value;
  if (*count.running < *count.enabled) {
    // libperf's perf_counts_values__scale (perf 6.1 to 7.3): (u64)((double)val * ena / run),
    // truncated.
    value = std::trunc(value * static_cast<double>(*count.enabled) /
                       static_cast<double>(*count.running));
  }
  return value / unscale;
}

void Counts::add(Count count) {
  const auto [slot, fresh] = index_.try_emplace(count.event, entries_.size());
  if (fresh) {
    entries_.push_back(std::move(count));
    return;
  }
  {
    Count& existing = entries_[slot->second];
    existing.lines += count.lines;
    if (existing.status != CountStatus::counted) {
      return;
    }
    if (count.status != CountStatus::counted) {
      existing.status = count.status;
      return;
    }
    existing.value += count.value;
    const auto sum = [](std::optional<std::uint64_t>& a, std::optional<std::uint64_t> b) {
      if (a && b) {
        *a += *b;
      } else {
        a.reset();
      }
    };
    sum(existing.enabled, count.enabled);
    sum(existing.running, count.running);
    if (existing.percent_running && count.percent_running) {
      existing.percent_running = std::min(*existing.percent_running, *count.percent_running);
    }
  }
}

const Count* Counts::find(std::string_view id) const {
  const std::string slashed = unescape_at(id);
  for (const std::string& name : {std::string(id), slashed}) {
    if (const auto exact = index_.find(name); exact != index_.end()) {
      return &entries_[exact->second];
    }
  }
  const std::optional<std::string_view> named = name_term(id);
  if (named) {
    if (const auto exact = index_.find(std::string(*named)); exact != index_.end()) {
      return &entries_[exact->second];
    }
  }
  for (const Count& count : entries_) {
    if (ascii_iequal(count.event, id) || ascii_iequal(count.event, slashed) ||
        (named && ascii_iequal(count.event, *named))) {
      return &count;
    }
  }
  for (const Count& count : entries_) {
    const std::string_view bare = without_modifiers(count.event);
    if (bare != count.event && (ascii_iequal(bare, id) || ascii_iequal(bare, slashed))) {
      return &count;
    }
  }
  return nullptr;
}

// ---- the text readers ---------------------------------------------------------------------

StatTextReader::StatTextReader(CountsFormat format, std::string_view file, char separator)
    : file_(file), separator_(separator) {
  read_.format = format;
}

void StatTextReader::feed(std::string_view piece) {
  while (!piece.empty()) {
    const std::size_t newline = piece.find('\n');
    const std::string_view head = piece.substr(0, newline);
    length_ += head.size();
    if (skipping_) {
      // The rest of an over-long line: skipped.
    } else if (partial_.size() + head.size() > kMaxCountsLine) {
      skipping_ = true;
      partial_.clear();
      partial_.shrink_to_fit();
      diagnose(
          {}, 0, 0,
          fmt::format("a line longer than {} bytes: not a count line, skipped", kMaxCountsLine));
    } else if (newline != std::string_view::npos && partial_.empty()) {
      line(head);  // the whole line is in this piece: no copy
    } else {
      partial_.append(head);
      if (newline != std::string_view::npos) {
        line(partial_);
        partial_.clear();
      }
    }
    if (newline == std::string_view::npos) {
      return;
    }
    // The next line starts.
    offset_ += length_ + 1;
    length_ = 0;
    ++line_;
    skipping_ = false;
    piece.remove_prefix(newline + 1);
  }
}

CountsRead StatTextReader::finish() {
  if (!partial_.empty() && !skipping_) {
    line(partial_);
  }
  partial_.clear();
  if (unshown_ > 0) {
    read_.diagnostics.push_back(make_file_diagnostic(
        Severity::warning, DiagId::counts_garbled, file_,
        fmt::format("{} more line{} could not be read (the first {} are shown above)", unshown_,
                    unshown_ == 1 ? "" : "s", kMaxCountsDiagnostics)));
  }
  return std::move(read_);
}

// A diagnostic for bytes [at, at + length) of the line `text`, located in the whole file
// without rescanning it.
void StatTextReader::diagnose(std::string_view text, std::size_t at, std::size_t length,
                              std::string message) {
  if (read_.diagnostics.size() >= kMaxCountsDiagnostics) {
    ++unshown_;
    return;
  }
  Diagnostic diagnostic = make_diagnostic(Severity::warning, DiagId::counts_garbled, file_, text,
                                          at, length, std::move(message));
  diagnostic.range.line = line_;
  diagnostic.range.offset += offset_;
  read_.diagnostics.push_back(std::move(diagnostic));
}

void StatTextReader::add(Count count) {
  count.where.file = file_;
  count.where.line = line_;
  count.where.column = 1;
  count.where.offset = offset_;
  ++read_.lines_read;
  read_.counts.add(std::move(count));
}

void StatTextReader::line(std::string_view text) {
  if (!text.empty() && text.back() == '\r') {
    text.remove_suffix(1);
  }
  if (blank(text)) {
    return;
  }
  if (read_.format == CountsFormat::csv) {
    csv_line(text);
  } else {
    json_line(text);
  }
}

// ---- perf stat -j ------------------------------------------------------------------------------

namespace {

// ---- perf stat -j: the fast path -----------------------------------------------------------

// One member of a flat JSON object: its value's text (a string's without its quotes).
struct FlatMember {
  std::string_view key;
  std::string_view value;
  bool is_string = false;
};

bool json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A JSON string at `at` (its opening quote) with no escape, control or non-ASCII byte (which the
// full parser checks); its contents, with `at` past the closing quote.
std::optional<std::string_view> plain_json_string(std::string_view line, std::size_t& at) {
  const std::size_t begin = at + 1;
  for (std::size_t i = begin; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == '"') {
      at = i + 1;
      return line.substr(begin, i - begin);
    }
    if (c == '\\' || c < 0x20 || c >= 0x80) return std::nullopt;
  }
  return std::nullopt;
}

// The length of a JSON number at the start of `text`
// (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or 0.
std::size_t json_number_length(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return 0;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return 0;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return 0;
  }
  return i;
}

// The members of `line` when it is a flat JSON object of plain strings, numbers, true, false
// and null with no key twice, as perf stat -j writes every line; nothing otherwise (the full
// parser then reads the line and says what is wrong).
bool scan_flat_object(std::string_view line, std::vector<FlatMember>& members) {
  members.clear();
  std::size_t at = 0;
  const auto skip_space = [&] {
    while (at < line.size() && json_space(line[at])) ++at;
  };
  skip_space();
  if (at == line.size() || line[at] != '{') return false;
  ++at;
  skip_space();
  if (at < line.size() && line[at] == '}') {
    ++at;
  } else {
    while (true) {
      skip_space();
      if (at == line.size() || line[at] != '"') return false;
      const auto key = plain_json_string(line, at);
      if (!key) return false;
      skip_space();
      if (at == line.size() || line[at] != ':') return false;
      ++at;
      skip_space();
      if (at == line.size()) return false;
      FlatMember member{*key, {}, false};
      if (line[at] == '"') {
        const auto value = plain_json_string(line, at);
        if (!value) return false;
        member.value = *value;
        member.is_string = true;
      } else {
        std::size_t length = json_number_length(line.substr(at));
        for (const std::string_view word : {"true", "false", "null"}) {
          if (length == 0 && line.substr(at).starts_with(word)) length = word.size();
        }
        if (length == 0) return false;
        member.value = line.substr(at, length);
        at += length;
      }
      for (const FlatMember& seen : members) {
        if (seen.key == member.key) return false;
      }
      members.push_back(member);
      skip_space();
      if (at < line.size() && line[at] == ',') {
        ++at;
        continue;
      }
      if (at < line.size() && line[at] == '}') {
        ++at;
        break;
      }
      return false;
    }
  }
  skip_space();
  return at == line.size();
}

bool is_json_number(const FlatMember& member) {
  return !member.is_string && member.value != "true" && member.value != "false" &&
         member.value != "null";
}

}  // namespace

// A count line read without building a JSON document, when every member has the type the
// full path accepts; false (nothing added) for the full path to read or reject the line.
bool StatTextReader::fast_json_line(std::string_view line) {
  std::vector<FlatMember> members;
  members.reserve(12);
  if (!scan_flat_object(line, members)) return false;
  const auto find = [&](std::string_view key) -> const FlatMember* {
    for (const FlatMember& member : members) {
      if (member.key == key) return &member;
    }
    return nullptr;
  };
  const FlatMember* event = find("event");
  if (event == nullptr) return true;  // --metric-only lines and other objects carry no count
  if (!event->is_string || event->value.empty()) return false;
  Count count;
  count.multiplex_scaled = true;
  const FlatMember* value = find("counter-value");
  if (value == nullptr) return false;
  if (value->is_string) {
    if (!value_like(value->value)) return false;
    set_value(count, value->value);
  } else if (is_json_number(*value)) {
    const auto number = parse_double(value->value);
    if (!number) return false;
    count.value = *number;
  } else {
    return false;
  }
  if (const FlatMember* unit = find("unit")) {
    if (!unit->is_string) return false;
    count.unit = std::string(unit->value);
    count.unit_scale = unit_scale_of(count.unit);
  }
  if (const FlatMember* run = find("event-runtime")) {
    // An integer JSON number that is not negative ("-0" is 0).
    if (!is_json_number(*run) || run->value.find_first_of(".eE") != std::string_view::npos) {
      return false;
    }
    if (run->value == "-0") {
      count.running = 0;
    } else if (const auto ns = parse_u64(run->value)) {
      count.running = *ns;
    } else {
      return false;
    }
  }
  if (const FlatMember* pcnt = find("pcnt-running")) {
    if (!is_json_number(*pcnt)) return false;
    const auto percent = parse_double(pcnt->value);
    if (!percent) return false;
    count.percent_running = *percent;
  }
  count.event = std::string(event->value);
  add(std::move(count));
  return true;
}

void StatTextReader::json_line(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (line[first] != '{') {
    return;  // perf's own messages ("Performance counter stats ...") between the lines
  }
  if (fast_json_line(line)) {
    return;
  }
  const auto garbled = [&](std::size_t at, std::size_t length, std::string message) {
    diagnose(line, at, length, std::move(message));
  };
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::parse_error& error) {
    const std::size_t at = error.byte > 0 ? error.byte - 1 : 0;
    garbled(std::min(at, line.size()), 1, "not a JSON object");
    return;
  } catch (const nlohmann::json::exception&) {
    garbled(0, line.size(), "not a JSON object");
    return;
  }
  if (!object.is_object()) {
    garbled(0, line.size(), "not a JSON object");
    return;
  }
  const auto event = object.find("event");
  if (event == object.end()) {
    return;  // --metric-only lines and other objects carry no count
  }
  const auto key_at = [&](std::string_view key) {
    const std::size_t at = line.find(fmt::format("\"{}\"", key));
    return at == std::string_view::npos ? 0 : at;
  };
  if (!event->is_string() || event->get_ref<const std::string&>().empty()) {
    garbled(key_at("event"), 7, "\"event\" is not a non-empty string");
    return;
  }
  Count count;
  count.event = std::move(event->get_ref<std::string&>());
  count.multiplex_scaled = true;
  const auto value = object.find("counter-value");
  if (value == object.end()) {
    garbled(0, line.size(), fmt::format("no \"counter-value\" for '{}'", count.event));
    return;
  }
  if (value->is_number()) {
    count.value = value->get<double>();
  } else if (value->is_string() && value_like(value->get_ref<const std::string&>())) {
    set_value(count, value->get_ref<const std::string&>());
  } else {
    garbled(key_at("counter-value"), 15,
            fmt::format("\"counter-value\" of '{}' is not a number", count.event));
    return;
  }
  if (const auto unit = object.find("unit"); unit != object.end()) {
    if (!unit->is_string()) {
      garbled(key_at("unit"), 6, "\"unit\" is not a string");
      return;
    }
    count.unit = unit->get<std::string>();
    count.unit_scale = unit_scale_of(count.unit);
  }
  if (const auto run = object.find("event-runtime"); run != object.end()) {
    if (!run->is_number_unsigned() &&
        !(run->is_number_integer() && run->get<std::int64_t>() >= 0)) {
      garbled(key_at("event-runtime"), 15, "\"event-runtime\" is not a count of nanoseconds");
      return;
    }
    count.running = run->get<std::uint64_t>();
  }
  if (const auto pcnt = object.find("pcnt-running"); pcnt != object.end()) {
    if (!pcnt->is_number()) {
      garbled(key_at("pcnt-running"), 14, "\"pcnt-running\" is not a number");
      return;
    }
    count.percent_running = pcnt->get<double>();
  }
  add(std::move(count));
}

CountsRead read_stat_json(std::string_view text, std::string_view file) {
  StatTextReader reader(CountsFormat::json_lines, file);
  reader.feed(text);
  return reader.finish();
}

// ---- perf stat -x ------------------------------------------------------------------------------

namespace {

struct Field {
  std::string_view text;
  std::size_t offset;  // in the line
};

// The most fields a count line is split into: an event name holding the separator
// (`cpu/event=0x3c,umask=0x0/`) adds a few, never hundreds.
constexpr std::size_t kMaxCsvFields = 256;

// False when the line has more than kMaxCsvFields fields.
bool split_fields(std::string_view line, char separator, std::vector<Field>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    if (fields.size() == kMaxCsvFields) {
      return false;
    }
    const std::size_t end = line.find(separator, start);
    if (end == std::string_view::npos) {
      fields.push_back({line.substr(start), start});
      return true;
    }
    fields.push_back({line.substr(start, end - start), start});
    start = end + 1;
  }
}

// The layout of one CSV count line: where its value is, where its event name ends (names may
// hold the separator: `cpu/event=0x3c,umask=0x0/`) and where the run time is.
struct CsvLayout {
  std::size_t value = 0;
  std::size_t event_end = 0;  // one past the last field of the event name
  std::size_t runtime = 0;
};

bool percent_like(std::string_view field) {
  return !field.empty() && field.back() == '%' &&
         parse_double(field.substr(0, field.size() - 1)).has_value();
}

std::optional<CsvLayout> csv_layout(const std::vector<Field>& fields) {
  // Up to three leading fields: an interval time stamp and an aggregation (CPU0; S0,2; ...).
  for (std::size_t v = 0; v < 4 && v + 4 < fields.size(); ++v) {
    if (!value_like(fields[v].text)) {
      continue;
    }
    if (parse_double(fields[v + 1].text)) {
      continue;  // a number where the unit goes: this was a prefix field
    }
    if (value_like(fields[v + 2].text)) {
      // A number where the event goes: this was a time stamp, the value comes after the
      // aggregation (`-I -A`: interval,CPU0,value,unit,event,...).
      continue;
    }
    // value, unit, event..., [variance%,] run time, percent running, [metric value, metric unit]
    for (std::size_t r = v + 3; r + 1 < fields.size(); ++r) {
      const std::size_t rest = fields.size() - (r + 2);
      if (rest != 0 && rest != 2) {
        continue;
      }
      if (!parse_u64(fields[r].text) || !parse_double(fields[r + 1].text)) {
        continue;
      }
      std::size_t event_end = r;
      if (event_end > v + 3 && percent_like(fields[event_end - 1].text)) {
        --event_end;
      }
      return CsvLayout{v, event_end, r};
    }
  }
  return std::nullopt;
}

// The line perf stat prints for a second metric beside one event: its time stamp and
// aggregation fields (when any, up to three), the count's five fields empty, then the metric's
// value and unit. It carries no count.
bool metric_only_line(const std::vector<Field>& fields) {
  constexpr std::size_t kEmptyCountFields = 5;
  if (fields.size() < kEmptyCountFields + 2) return false;
  const std::size_t empty_from = fields.size() - 2 - kEmptyCountFields;
  if (empty_from > 3) return false;
  for (std::size_t i = empty_from; i < fields.size() - 2; ++i) {
    if (!fields[i].text.empty()) return false;
  }
  for (std::size_t i = 0; i < empty_from; ++i) {
    if (fields[i].text.empty()) return false;
  }
  return true;
}

}  // namespace

void StatTextReader::csv_line(std::string_view line) {
  if (line.front() == '#') {
    return;
  }
  std::vector<Field> fields;
  if (!split_fields(line, separator_, fields)) {
    diagnose(line, fields.back().offset, 1,
             fmt::format("more than {} fields: not a count line", kMaxCsvFields));
    return;
  }
  if (metric_only_line(fields)) return;
  const std::optional<CsvLayout> layout = csv_layout(fields);
  if (!layout) {
    // Point at the first field that is not what a count line holds there.
    std::size_t at = 0;
    std::string message = fmt::format(
        "not a count line (value{0}unit{0}event{0}run time{0}percent running)", separator_);
    if (fields.size() < 5) {
      at = line.size();
      message = fmt::format("{} {} where a count line has at least 5 (separator '{}')",
                            fields.size(), fields.size() == 1 ? "field" : "fields", separator_);
    } else if (!value_like(fields[0].text)) {
      at = fields[0].offset;
      message =
          fmt::format("'{}' is not a count, <not counted> or <not supported>", fields[0].text);
    }
    diagnose(line, at, 1, std::move(message));
    return;
  }
  Count count;
  count.multiplex_scaled = true;
  set_value(count, fields[layout->value].text);
  count.unit = std::string(fields[layout->value + 1].text);
  count.unit_scale = unit_scale_of(count.unit);
  const std::size_t name_begin = fields[layout->value + 2].offset;
  const std::size_t name_end =
      fields[layout->event_end - 1].offset + fields[layout->event_end - 1].text.size();
  count.event = std::string(line.substr(name_begin, name_end - name_begin));
  if (count.event.empty()) {
    diagnose(line, name_begin, 1, "a count line without an event name");
    return;
  }
  count.running = parse_u64(fields[layout->runtime].text);
  count.percent_running = parse_double(fields[layout->runtime + 1].text);
  add(std::move(count));
}

CountsRead read_stat_csv(std::string_view text, std::string_view file, char separator) {
  StatTextReader reader(CountsFormat::csv, file, separator);
  reader.feed(text);
  return reader.finish();
}

// ---- detection ---------------------------------------------------------------------------------

CountsFormat detect_counts_format(std::string_view head) {
  if (head.starts_with("PERFILE2") || head.starts_with("2ELIFREP")) {
    return CountsFormat::perf_data;
  }
  std::optional<CountsFormat> found;
  for_each_line(head, [&](std::string_view line, std::size_t) {
    if (found || blank(line) || line.front() == '#') {
      return;
    }
    found =
        line[line.find_first_not_of(" \t")] == '{' ? CountsFormat::json_lines : CountsFormat::csv;
  });
  return found.value_or(CountsFormat::csv);
}

CountsFormat detect_counts_format(std::span<const std::byte> head) {
  return detect_counts_format(
      std::string_view(reinterpret_cast<const char*>(head.data()), head.size()));
}

CountsRead read_stat_text(std::string_view text, std::string_view file) {
  return detect_counts_format(text) == CountsFormat::json_lines ? read_stat_json(text, file)
                                                                : read_stat_csv(text, file);
}

PMUCAT_END_NAMESPACE

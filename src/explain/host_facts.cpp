// The thin impure half of the explainer: reading HostFacts from a root laid out like `/`. Every
// read is of a small regular file (a FIFO or device where a fact belongs is left unread, so a
// hostile capture cannot hang the reader); whatever cannot be read stays unknown, and a text
// with a NUL byte in it is reported, never read up to the NUL nor past it.
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <sstream>

#include "host/host_root.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/explain.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

std::optional<int> parse_int(std::string_view text) {
  text = trim(text);
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The value of `key:` in a /proc/<pid>/status text, or nothing.
std::optional<std::string_view> status_field(std::string_view status, std::string_view key) {
  std::size_t at = 0;
  while (at < status.size()) {
    std::size_t end = status.find('\n', at);
    if (end == std::string_view::npos) end = status.size();
    std::string_view line = status.substr(at, end - at);
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ':') {
      return trim(line.substr(key.size() + 1));
    }
    at = end + 1;
  }
  return std::nullopt;
}

// The facts' texts under one root; a text with a NUL byte is refused and reported.
class FactReader {
 public:
  FactReader(const fs::path& root, std::vector<Diagnostic>* problems)
      : root_(root), problems_(problems) {}

  const host::Root& root() const { return root_; }

  // The text of `relative`; `fact` names what it would have told, for the warning.
  std::optional<std::string> read(std::string_view relative, std::string_view fact) const {
    std::optional<std::size_t> nul_at;
    auto text = root_.read(relative, &nul_at);
    if (nul_at && problems_ != nullptr) {
      Diagnostic warning = make_file_diagnostic(
          Severity::warning, DiagId::host_fact_nul, (root_ / relative).string(),
          fmt::format("holds a NUL byte at offset {}: perf reads the text only up to it, so {} "
                      "is left unknown",
                      *nul_at, fact));
      warning.range.offset = *nul_at;
      problems_->push_back(std::move(warning));
    }
    return text;
  }

 private:
  host::Root root_;
  std::vector<Diagnostic>* problems_;
};

void read_status(const FactReader& reader, HostFacts& facts) {
  const auto status = reader.read("proc/self/status", "the capabilities and uid");
  if (!status) return;
  if (auto cap_eff = status_field(*status, "CapEff")) {
    std::uint64_t value = 0;
    const auto [end, error] =
        std::from_chars(cap_eff->data(), cap_eff->data() + cap_eff->size(), value, 16);
    if (error == std::errc{} && end == cap_eff->data() + cap_eff->size()) {
      facts.capabilities = value;
    }
  }
  // Uid: real, effective, saved, filesystem; the kernel checks the effective one.
  if (auto uids = status_field(*status, "Uid")) {
    std::istringstream words{std::string(*uids)};
    std::uint32_t real = 0;
    std::uint32_t effective = 0;
    if (words >> real >> effective) facts.uid = effective;
  }
}

void read_tracefs(const host::Root& root, HostFacts& facts) {
  // perf 6.1 looks for tracefs at /sys/kernel/tracing first, then under debugfs.
  for (const char* candidate : {"sys/kernel/tracing", "sys/kernel/debug/tracing"}) {
    struct stat info {};
    const fs::path path = root / candidate;
    if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) continue;
    // An empty mount point (tracefs not mounted there) is passed over; a directory we may not
    // enter is taken as it is, since its mode is the fact wanted.
    std::error_code error;
    const bool enterable = ::access(path.c_str(), X_OK) == 0;
    if (enterable && !fs::is_directory(path / "events", error)) continue;
    facts.tracefs = std::string("/") + candidate;
    facts.tracefs_mode = static_cast<std::uint32_t>(info.st_mode & 07777);
    facts.tracefs_owner = static_cast<std::uint32_t>(info.st_uid);
    return;
  }
}

}  // namespace

HostFacts read_host_facts(const fs::path& root_path, std::vector<Diagnostic>* problems) {
  const FactReader reader(root_path, problems);
  HostFacts facts;
  const std::string kernel = "proc/sys/kernel/";
  if (auto text = reader.read(kernel + "perf_event_paranoid", "perf_event_paranoid")) {
    facts.perf_event_paranoid = parse_int(*text);
  }
  if (auto text = reader.read(kernel + "nmi_watchdog", "the NMI watchdog")) {
    if (auto value = parse_int(*text)) facts.nmi_watchdog = *value != 0;
  }
  if (auto text = reader.read(kernel + "perf_event_max_sample_rate", "the maximum sample rate")) {
    if (auto value = parse_int(*text); value && *value >= 0) {
      facts.max_sample_rate = static_cast<std::uint64_t>(*value);
    }
  }
  if (auto text = reader.read(kernel + "osrelease", "the kernel release")) {
    const std::string_view release = trim(*text);
    if (!release.empty()) facts.kernel_release = std::string(release);
  }
  read_status(reader, facts);
  read_tracefs(reader.root(), facts);
  return facts;
}

PMUCAT_END_NAMESPACE

#include "host/host_root.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace host {

namespace {

// read_bounded_file, stopping after the first `until` when it is not empty.
std::optional<std::string> read_bounded(const std::filesystem::path& path, std::size_t cap,
                                        std::string* why, std::string_view until) {
  auto fail = [why](std::string reason) -> std::optional<std::string> {
    if (why != nullptr) *why = std::move(reason);
    return std::nullopt;
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return fail(std::strerror(errno));
  auto too_large = [cap] {
    return cap >= (std::size_t{1} << 20)
               ? "larger than the " + std::to_string(cap >> 20) + " MiB cap for this file"
               : "larger than the " + std::to_string(cap) + " byte cap for this file";
  };
  struct stat status {};
  std::string reason;
  std::string text;
  if (::fstat(fd, &status) != 0) {
    reason = std::strerror(errno);
  } else if (!S_ISREG(status.st_mode)) {
    reason = "not a regular file";
  } else if (static_cast<std::uint64_t>(status.st_size) > cap) {
    reason = too_large();
  } else {
    text.reserve(static_cast<std::size_t>(status.st_size));
    char buffer[8192];
    for (;;) {
      const ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        reason = std::strerror(errno);
        break;
      }
      if (got == 0) break;
      if (static_cast<std::size_t>(got) > cap - text.size()) {
        reason = too_large();
        break;
      }
      text.append(buffer, static_cast<std::size_t>(got));
      if (until.empty()) continue;
      // Only the bytes just read can complete `until`.
      const std::size_t from =
          text.size() - std::min(text.size(), static_cast<std::size_t>(got) + until.size() - 1);
      const std::size_t found = text.find(until, from);
      if (found != std::string::npos) {
        text.resize(found + until.size());
        break;
      }
    }
  }
  ::close(fd);
  if (!reason.empty()) return fail(std::move(reason));
  return text;
}

}  // namespace

std::optional<std::string> read_bounded_file(const std::filesystem::path& path, std::size_t cap,
                                             std::string* why) {
  return read_bounded(path, cap, why, {});
}

std::optional<std::string> cpuinfo_first_processor(const Root& root) {
  auto text = read_bounded(root / "proc/cpuinfo", kMaxCpuinfoSize, nullptr, "\n\n");
  if (text && text->find('\0') != std::string::npos) return std::nullopt;
  return text;
}

std::string_view first_line(std::string_view text) {
  return text.substr(0, text.find('\n'));
}

bool Root::is_live() const {
  std::error_code error;
  return std::filesystem::equivalent(root_, "/", error);
}

std::optional<std::string> Root::read(std::string_view relative,
                                      std::optional<std::size_t>* nul_at) const {
  if (nul_at != nullptr) nul_at->reset();
  auto text = read_bounded_file(root_ / relative, kMaxFactFileSize);
  if (!text) return text;
  if (const std::size_t nul = text->find('\0'); nul != std::string::npos) {
    if (nul_at != nullptr) *nul_at = nul;
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> Root::read_line(std::string_view relative) const {
  auto text = read(relative);
  if (text) text->resize(first_line(*text).size());
  return text;
}

bool Root::exists(std::string_view relative) const {
  std::error_code error;
  return std::filesystem::exists(root_ / relative, error);
}

std::vector<unsigned> parse_cpu_list(std::string_view list) {
  std::vector<unsigned> cpus;
  auto number = [](std::string_view text, unsigned& value) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
      text.remove_suffix(1);
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc{} && end != text.data();
  };
  while (!list.empty() && cpus.size() < kMaxListedCpus) {
    const std::size_t comma = list.find(',');
    const std::string_view part = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    const std::size_t dash = part.find('-');
    unsigned first = 0;
    unsigned last = 0;
    if (!number(part.substr(0, dash), first)) continue;
    last = first;
    if (dash != std::string_view::npos && !number(part.substr(dash + 1), last)) continue;
    for (unsigned cpu = first; cpu <= last && cpus.size() < kMaxListedCpus; ++cpu) {
      cpus.push_back(cpu);
    }
  }
  return cpus;
}

std::optional<std::pair<std::string_view, std::string_view>> cpuinfo_field(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto trim = [](std::string_view text) {
    const std::size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return std::string_view();
    return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
  };
  return std::pair{trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

}  // namespace host
PMUCAT_END_NAMESPACE

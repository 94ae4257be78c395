// What a target names: the threads of a process, the online CPUs.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

#include "host/host_root.h"
#include "pmucat/count.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// The most threads of one process a session opens counters for (perf has no limit; each is a
// file descriptor per event).
constexpr std::size_t kMaxThreads = 65536;

[[gnu::cold]] Diagnostic target_error(std::string_view what, std::string message) {
  return make_file_diagnostic(Severity::error, DiagId::count_target_invalid, what,
                              std::move(message));
}

}  // namespace

Expected<std::vector<pid_t>> threads_of(pid_t pid, const std::string& root) {
  const std::filesystem::path dir =
      std::filesystem::path(root) / "proc" / std::to_string(pid) / "task";
  std::error_code error;
  std::filesystem::directory_iterator it(dir, error);
  if (error) {
    return unexpected(
        target_error(dir.string(), fmt::format("no process {} ({})", pid, error.message())));
  }
  std::vector<pid_t> threads;
  for (; it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (error) break;
    const std::string name = it->path().filename().string();
    pid_t tid = 0;
    const auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (parsed != std::errc() || end != name.data() + name.size() || tid <= 0) continue;
    if (threads.size() == kMaxThreads) {
      return unexpected(target_error(
          dir.string(), fmt::format("process {} has more than {} threads", pid, kMaxThreads)));
    }
    threads.push_back(tid);
  }
  if (threads.empty()) {
    return unexpected(target_error(dir.string(), fmt::format("process {} has no threads", pid)));
  }
  std::sort(threads.begin(), threads.end());
  return threads;
}

Expected<std::vector<int>> online_cpus(const std::string& root) {
  const host::Root host_root(root);
  const std::optional<std::string> online = host_root.read_line("sys/devices/system/cpu/online");
  if (!online) {
    return unexpected(target_error((host_root / "sys/devices/system/cpu/online").string(),
                                   "cannot read the online CPUs"));
  }
  std::vector<int> cpus;
  for (unsigned cpu : host::parse_cpu_list(*online)) cpus.push_back(static_cast<int>(cpu));
  if (cpus.empty()) {
    return unexpected(target_error((host_root / "sys/devices/system/cpu/online").string(),
                                   fmt::format("no CPU in the list '{}'", *online)));
  }
  return cpus;
}

Expected<CountTarget> count_target(std::vector<std::string> command, pid_t pid,
                                   std::string_view cpus) {
  CountTarget target;
  if (!command.empty()) {
    target.command = std::move(command);
  } else if (pid > 0) {
    target.kind = CountTarget::Kind::threads;
    auto threads = threads_of(pid);
    if (!threads) return unexpected(threads.error());
    target.threads = std::move(*threads);
  } else if (cpus.empty()) {
    target.kind = CountTarget::Kind::all_cpus;
  } else {
    target.kind = CountTarget::Kind::cpus;
    auto list = parse_cpu_list(cpus, "cpus");
    if (!list) return unexpected(list.error());
    for (std::uint32_t cpu : list->cpus) target.cpus.push_back(static_cast<int>(cpu));
  }
  return target;
}

std::map<int, CpuPlace> cpu_places(std::span<const int> cpus, const std::string& root) {
  const host::Root host_root(root);
  const auto number = [&](int cpu, std::string_view file) -> std::optional<int> {
    const auto text =
        host_root.read_line(fmt::format("sys/devices/system/cpu/cpu{}/topology/{}", cpu, file));
    if (!text) return std::nullopt;
    int value = 0;
    const auto [end, parsed] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (parsed != std::errc()) return std::nullopt;
    return value;
  };
  std::map<int, CpuPlace> places;
  for (int cpu : cpus) {
    const auto socket = number(cpu, "physical_package_id");
    const auto core = number(cpu, "core_id");
    if (!socket || !core) continue;
    places[cpu] = CpuPlace{*socket, number(cpu, "die_id").value_or(0), *core};
  }
  return places;
}

PMUCAT_END_NAMESPACE

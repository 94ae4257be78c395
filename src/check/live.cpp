// --live: open every event of a PMU on the running kernel and read it once.
#include <fmt/core.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "context.h"
#include "pmucat/attr.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {

std::string explain_open_errno(int error_number) {
  const char* name = strerrorname_np(error_number);
  std::string label = name != nullptr ? name : fmt::format("errno {}", error_number);
  std::string_view meaning;
  switch (error_number) {
    case ENOENT:
      meaning = "the PMU type or this config is unknown to the kernel";
      break;
    case EINVAL:
      meaning =
          "the kernel rejects bits of the attr (reserved config bits, exclude_* flags or a field "
          "this PMU does not support)";
      break;
    case EACCES:
    case EPERM:
      meaning = "not permitted: perf_event_paranoid forbids it without CAP_PERFMON (or root)";
      break;
    case EOPNOTSUPP:
      meaning = "the PMU does not support this mode (sampling, exclusion or a per-task event)";
      break;
    case ENODEV:
      meaning = "the event is not supported on this CPU";
      break;
    case E2BIG:
      meaning = "this kernel does not know the perf_event_attr size";
      break;
    case EBUSY:
      meaning = "the counter is busy (another user or the NMI watchdog holds it)";
      break;
    case ENOSPC:
      meaning = "no free counter or breakpoint slot";
      break;
    case EMFILE:
      meaning = "too many open files";
      break;
    case ESRCH:
      meaning = "the target task does not exist";
      break;
    case EOVERFLOW:
      meaning = "sample_max_stack exceeds kernel.perf_event_max_stack";
      break;
    default:
      meaning = std::strerror(error_number);
      break;
  }
  return fmt::format("{} ({})", label, meaning);
}

namespace detail {
namespace {

int read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int level = 2;
  if (!(in >> level)) level = 2;
  return level;
}

struct OpenResult {
  int error = 0;  // 0: opened and read
  bool read_failed = false;
};

OpenResult open_and_read(const Attr& attr, int pid, int cpu) {
  std::vector<std::byte> bytes = to_bytes(attr);
  long fd = syscall(SYS_perf_event_open, bytes.data(), pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return {errno, false};
  std::uint64_t count = 0;
  ssize_t got = ::read(static_cast<int>(fd), &count, sizeof count);
  int read_error = got == static_cast<ssize_t>(sizeof count) ? 0 : (got < 0 ? errno : EIO);
  ::close(static_cast<int>(fd));
  return {read_error, read_error != 0};
}

bool has_parameter(const Event& event) {
  for (const Term& term : event.terms.terms) {
    if (term.kind == TermValueKind::param) return true;
  }
  return false;
}

}  // namespace

void check_live(PmuContext& context) {
  const Pmu& pmu = context.pmu();
  const PmuAttributes& attributes = pmu.attributes();
  bool uncore = attributes.cpumask.has_value() && !attributes.cpumask->cpus.empty();
  int cpu = uncore ? static_cast<int>(attributes.cpumask->cpus.front()) : -1;
  int pid = uncore ? -1 : 0;
  // Per-task events of unprivileged users may only count user space at paranoid >= 2.
  bool exclude_kernel = !uncore && geteuid() != 0 && read_paranoid() >= 2;
  for (const Event& event : pmu.events()) {
    if (event.error.has_value() || event.terms.terms.empty()) continue;  // reported elsewhere
    if (has_parameter(event)) {
      context.add(
          DiagId::live_needs_parameter,
          make_file_diagnostic(Severity::note, "", event.path,
                               fmt::format("not opened: '{}' needs `?` parameters", event.name)));
      continue;
    }
    EncodeOptions options;
    options.tool = Tool::stat;
    auto encoded = encode_terms(pmu, event.terms, Modifiers{}, event.text, options);
    if (!encoded) {
      Diagnostic diagnostic = encoded.error();
      // The terms came from the event file, so the encoder's offsets point into it.
      if (diagnostic.range.file == "<spec>") diagnostic.range.file = event.path;
      diagnostic.message = fmt::format("cannot encode '{}': {}", event.name, diagnostic.message);
      context.add(DiagId::live_encode_failed, std::move(diagnostic));
      continue;
    }
    Attr attr = encoded->attr;
    attr.exclude_kernel = attr.exclude_kernel || exclude_kernel;
    attr.exclude_hv = attr.exclude_hv || exclude_kernel;
    OpenResult result = open_and_read(attr, pid, cpu);
    // perf's own fallbacks: PMUs without guest/host filtering (msr, uncore) reject the default
    // exclude_guest with EINVAL; a paranoid kernel refuses kernel counting with EACCES.
    if (result.error == EINVAL && (attr.exclude_guest || attr.exclude_host)) {
      attr.exclude_guest = attr.exclude_host = false;
      result = open_and_read(attr, pid, cpu);
    }
    if ((result.error == EACCES || result.error == EPERM) && !uncore && !attr.exclude_kernel) {
      attr.exclude_kernel = attr.exclude_hv = true;
      result = open_and_read(attr, pid, cpu);
    }
    if (result.error == 0) continue;
    std::string where = uncore ? fmt::format("on CPU {}", cpu) : std::string("for this process");
    auto diagnostic = make_file_diagnostic(
        Severity::error, "", event.path,
        fmt::format("{} '{}/{}/' (type {}, config {:#x}) {}: {}",
                    result.read_failed ? "cannot read" : "cannot open", pmu.name(), event.name,
                    attr.type, attr.config[0], where, explain_open_errno(result.error)));
    context.add(result.read_failed ? DiagId::live_read_failed : DiagId::live_open_failed,
                std::move(diagnostic));
  }
}

}  // namespace detail
}  // namespace check
PMUCAT_END_NAMESPACE

// The CPU identifier perf 6.1 computes for the machine it runs on (arch/*/util/header.c).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>
#include <vector>

#include "host/host_root.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

// The words of `line` after `prefix`, split at spaces and newlines as perf's strtok_r does
// (a tab is part of a word).
std::vector<std::string_view> words_after(std::string_view line, std::string_view prefix) {
  std::vector<std::string_view> words;
  std::string_view rest = line.substr(prefix.size());
  while (!rest.empty()) {
    const std::size_t start = rest.find_first_not_of(" \n");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const std::size_t end = rest.find_first_of(" \n");
    words.push_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end);
  }
  return words;
}

// perf fills fixed buffers with scnprintf: at most `size` - 1 bytes end up in a field.
void append_capped(std::string& field, std::string_view text, std::size_t size) {
  if (field.size() + 1 >= size) return;
  field.append(text.substr(0, size - 1 - field.size()));
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end == std::string_view::npos ? text.size() : end + 1));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

}  // namespace

std::string powerpc_cpuid(std::uint64_t pvr) {
  return fmt::format("{:08x}", pvr);
}

std::optional<std::string> s390_cpuid(std::string_view sysinfo,
                                      std::optional<std::string_view> service_levels) {
  // perf's buffers: manufacturer[32], type[8], model[33], version[8], authorization[8].
  std::string manufacturer;
  std::string type;
  std::string model;
  for (std::string_view line : lines_of(sysinfo)) {
    if (line.starts_with("Manufacturer:")) {
      for (std::string_view word : words_after(line, "Manufacturer:")) {
        append_capped(manufacturer, word, 32);
      }
    }
    if (line.starts_with("Type:")) {
      for (std::string_view word : words_after(line, "Type:")) append_capped(type, word, 8);
    }
    if (line.starts_with("Model:")) {
      // Model capacity, then the model: joined by a comma; only the first Model: line counts.
      for (std::string_view word : words_after(line, "Model:")) {
        if (!model.empty()) append_capped(model, ",", 33);
        append_capped(model, word, 33);
      }
      break;
    }
  }
  if (manufacturer.empty() || type.empty() || model.empty()) return std::nullopt;
  std::string version;
  std::string authorization;
  if (service_levels) {
    for (std::string_view line : lines_of(*service_levels)) {
      if (!line.starts_with("CPU-MF:")) continue;
      for (std::string_view word : words_after(line, "CPU-MF:")) {
        if (word.starts_with("version=")) append_capped(version, word.substr(8), 8);
        if (word.starts_with("authorization=")) append_capped(authorization, word.substr(14), 8);
      }
    }
  }
  if (!version.empty() && !authorization.empty()) {
    return fmt::format("{},{},{},{},{}", manufacturer, type, model, version, authorization);
  }
  return fmt::format("{},{},{}", manufacturer, type, model);
}

// The MIDR of the first CPU that has one, variant and revision cleared, as perf's arm64
// get_cpuid_str prints it. Read from any sysfs root, so it is testable everywhere.
std::optional<std::string> arm64_midr_cpuid(const fs::path& sysfs_root) {
  const fs::path cpu_dir = sysfs_root / "devices/system/cpu";
  std::vector<unsigned long> cpus;
  std::error_code error;
  for (fs::directory_iterator it(cpu_dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 3 && name.starts_with("cpu") &&
        std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        name.size() < 12) {
      cpus.push_back(std::strtoul(name.c_str() + 3, nullptr, 10));
    }
  }
  std::sort(cpus.begin(), cpus.end());
  for (unsigned long cpu : cpus) {
    const std::optional<std::string> text = host::read_bounded_file(
        cpu_dir / fmt::format("cpu{}", cpu) / "regs/identification/midr_el1",
        host::kMaxFactFileSize);
    // perf stops at the first CPU whose file gives a line (fgets).
    if (text && !text->empty()) return arm64_cpuid_from_midr(*text);
  }
  return std::nullopt;
}

std::optional<std::string> arm64_cpuid_from_midr(std::string_view text) {
  const std::string line(text.substr(0, text.find('\n')));
  constexpr unsigned long kVariantMask = 0xful << 20;
  constexpr unsigned long kRevisionMask = 0xf;
  const unsigned long midr =
      std::strtoul(line.c_str(), nullptr, 16) & ~(kVariantMask | kRevisionMask);
  if (midr == 0) return std::nullopt;
  return fmt::format("0x{:016x}", midr);
}

std::optional<std::string> host_cpuid(const fs::path& sysfs_root) {
#if defined(__x86_64__) || defined(__i386__)
  (void)sysfs_root;
  const std::optional<host::X86Cpuid> cpu = host::x86_cpuid();
  if (!cpu) return std::nullopt;
  return fmt::format("{}-{}-{:X}-{:X}", cpu->vendor, cpu->family, cpu->model, cpu->stepping);
#elif defined(__aarch64__)
  return arm64_midr_cpuid(sysfs_root);
#elif defined(__powerpc__) || defined(__powerpc64__)
  (void)sysfs_root;
  const std::optional<std::uint64_t> pvr = host::powerpc_pvr();
  if (!pvr) return std::nullopt;
  return powerpc_cpuid(*pvr);
#elif defined(__s390__) || defined(__s390x__)
  (void)sysfs_root;
  const host::Root root;
  const std::optional<std::string> sysinfo = root.read("proc/sysinfo");
  if (!sysinfo) return std::nullopt;
  const std::optional<std::string> levels = root.read("proc/service_levels");
  return s390_cpuid(*sysinfo, levels ? std::optional<std::string_view>(*levels) : std::nullopt);
#else
  (void)sysfs_root;
  return std::nullopt;
#endif
}

PMUCAT_END_NAMESPACE

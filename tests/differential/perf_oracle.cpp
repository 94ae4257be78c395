#include "perf_oracle.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>
#include <system_error>

#include "diff_env.h"
#include "pmucat/version.h"
#include "support/command.h"

#ifndef PMUCAT_PERF_ORACLE_DIR
#define PMUCAT_PERF_ORACLE_DIR ".cache"
#endif

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace fs = std::filesystem;

namespace {

using testing::run_command;
using testing::shell_quote;

std::optional<testing::ScratchDir> make_scratch_dir(std::string_view label) {
  try {
    return std::optional<testing::ScratchDir>(std::in_place, label);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

constexpr const char* kSpecMarker = "@@PMUCAT-SPEC@@";
constexpr const char* kMountFailed = "@@PMUCAT-MOUNT-FAILED@@";
constexpr const char* kAllDone = "@@PMUCAT-ALL-DONE@@";

std::string trim_left(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  return first == std::string::npos ? std::string{} : text.substr(first);
}

std::uint64_t parse_number(const std::string& text) {
  try {
    return std::stoull(text, nullptr, 0);
  } catch (const std::exception&) {
    return 0;
  }
}

// perf 6.12 names what some values mean after them: `type 4 (cpu)`, `config 0xc0
// (inst_retired.any)`, `config 0 (PERF_COUNT_HW_CPU_CYCLES)`. perf 6.1 prints the bare value.
std::string without_annotation(std::string field) {
  if (!field.ends_with(')')) return field;
  const auto open = field.rfind(" (");
  if (open == std::string::npos) return field;
  field.erase(open);
  return field;
}

std::string last_word(const std::string& line) {
  const auto space = line.find_last_of(' ');
  return space == std::string::npos ? line : line.substr(space + 1);
}

// Runs one worker: a shell in a private mount namespace that runs perf per spec line.
std::vector<PerfResult> run_worker(const fs::path& devices_dir,
                                   const std::vector<std::string>& specs,
                                   const OracleOptions& options, std::string& failure) {
  std::vector<PerfResult> results;
  if (specs.empty()) return results;
  const std::optional<testing::ScratchDir> scratch = make_scratch_dir("perf");
  if (!scratch) {
    failure = "cannot create a temporary directory";
    return results;
  }
  const fs::path& work = scratch->path();
  {
    std::ofstream list(work / "specs");
    for (const auto& spec : specs) list << spec << '\n';
  }
  // perf reads no user config (PERF_CONFIG) and runs from the scratch dir; `true` is the workload.
  // PERF_CPUID is options.cpuid: by default one no pmu-events table matches, which keeps the
  // host's JSON events out of the fake PMUs.
  const std::string script = fmt::format(
      "mount --bind \"$1\" /sys/bus/event_source/devices || {{ echo {}; exit 99; }}; "
      "cd \"$3\" || exit 98; "
      "if [ -n \"$7\" ]; then export TRACEFS_PATH=\"$7\"; fi; "
      "while IFS= read -r spec; do echo {}; "
      "if [ -n \"$spec\" ]; then "
      "PERF_CONFIG=/dev/null PERF_CPUID=\"$5\" timeout 30 \"$4\" $6 -vv -e \"$spec\" "
      "true </dev/null 2>&1; "
      "else PERF_CONFIG=/dev/null PERF_CPUID=\"$5\" timeout 30 \"$4\" $6 -vv true </dev/null 2>&1; "
      "fi; "
      "done < \"$2\"; echo {}",
      kMountFailed, kSpecMarker, kAllDone);
  const std::string command =
      fmt::format("unshare -m sh -c {} sh {} {} {} {} {} {} {} 2>&1", shell_quote(script),
                  shell_quote(devices_dir.string()), shell_quote((work / "specs").string()),
                  shell_quote(work.string()), shell_quote(options.perf), shell_quote(options.cpuid),
                  shell_quote(options.command), shell_quote(options.tracefs));
  // perf runs once per spec, each under its own `timeout 30`: the worker as a whole may be slow.
  const testing::CommandResult output = run_command(command, std::chrono::hours(24));
  const auto done = output.out.rfind(kAllDone);
  if (output.out.find(kMountFailed) != std::string::npos || done == std::string::npos) {
    failure = fmt::format("unshare/mount failed (status {}): {}", output.status,
                          output.out.substr(0, 300));
    return results;
  }
  std::size_t pos = output.out.find(kSpecMarker);
  while (pos != std::string::npos) {
    const std::size_t start = pos + std::string(kSpecMarker).size() + 1;
    const std::size_t next = output.out.find(kSpecMarker, start);
    const std::size_t end = next == std::string::npos ? done : next;
    results.push_back(parse_perf_output(output.out.substr(start, end - start)));
    pos = next;
  }
  if (results.size() != specs.size()) {
    failure = fmt::format("expected {} perf runs, saw {}", specs.size(), results.size());
  }
  return results;
}

}  // namespace

std::string to_string(const AttrBits& bits) {
  return fmt::format("eu={} ek={} eh={} eG={} eH={} eI={} pinned={} exclusive={} precise={}",
                     bits.exclude_user, bits.exclude_kernel, bits.exclude_hv, bits.exclude_guest,
                     bits.exclude_host, bits.exclude_idle, bits.pinned, bits.exclusive,
                     bits.precise_ip);
}

std::string to_string(const AttrWords& words) {
  std::string text = fmt::format("type={} config={:#x} config1={:#x} config2={:#x}", words.type,
                                 words.config[0], words.config[1], words.config[2]);
  if (words.config[3] != 0) text += fmt::format(" config3={:#x}", words.config[3]);
  if (words.bp_type != 0) text += fmt::format(" bp_type={}", words.bp_type);
  return text;
}

std::string normalise_attr_line(const std::string& line) {
  const std::string field = without_annotation(trim_left(line));
  const auto space = field.find_last_of(' ');
  if (space == std::string::npos || field.starts_with("perf_event_attr:")) return {};
  std::string name = field.substr(0, space);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (name.empty()) return {};
  // perf 6.1 prints no field that is zero; perf 6.12 prints `config 0` when it can name it
  // (`config 0 (PERF_COUNT_SW_CPU_CLOCK)`): a zero is no field in both.
  if (field.substr(space + 1) == "0") return {};
  return name + ' ' + field.substr(space + 1);
}

PerfResult parse_perf_output(const std::string& output) {
  PerfResult result;
  result.output = output;
  std::istringstream lines(output);
  std::string line;
  std::optional<AttrWords> block;
  AttrBits bits;
  std::vector<std::string> other;
  // Whether the last block printed could be perf 6.12's probe for extended hardware types
  // (`type 0`, `config` = a PMU type << 32, opened on itself, pid 0): perf_pmus__supports_
  // extended_type() asks the kernel so before the events of a hybrid machine. Not an event.
  bool maybe_probe = false;
  // A dashed line inside a block: it ends the block unless `perf_event_attr:` follows. perf 7.3
  // runs that probe lazily while it prints an event's attr, so the event's block stops after a
  // few fields, the probes' blocks follow, and the event's fields resume after them.
  bool dashes = false;
  struct Suspended {
    AttrWords words;
    AttrBits bits;
    std::vector<std::string> fields;
  };
  std::optional<Suspended> suspended;
  auto close_block = [&] {
    result.attrs.push_back(*block);
    result.printed.emplace_back(*block, bits);
    maybe_probe =
        block->type == 0 && (block->config[0] & 0xffff'ffffu) == 0 && (block->config[0] >> 32) != 0;
    block.reset();
  };
  while (std::getline(lines, line)) {
    if (dashes) {
      dashes = false;
      if (line.starts_with("perf_event_attr:")) {
        suspended = Suspended{*block, bits, std::move(result.blocks.back())};
        result.blocks.pop_back();
        block.reset();
      } else {
        close_block();
      }
    }
    if (maybe_probe && line.starts_with("sys_perf_event_open: pid 0 ")) {
      result.attrs.pop_back();
      result.printed.pop_back();
      result.blocks.pop_back();
      maybe_probe = false;
      continue;
    }
    maybe_probe = false;
    if (line.starts_with("perf_event_attr:")) {
      block = AttrWords{};
      result.blocks.emplace_back();
      bits = AttrBits{};
      continue;
    }
    if (!block && suspended && line.size() > 2 && line.starts_with("  ") &&
        ((line[2] >= 'a' && line[2] <= 'z') || line[2] == '{')) {
      block = suspended->words;
      bits = suspended->bits;
      result.blocks.push_back(std::move(suspended->fields));
      suspended.reset();
    }
    if (block) {
      if (line.starts_with("----------")) {
        dashes = true;
        continue;
      }
      if (std::string normal = normalise_attr_line(line); !normal.empty()) {
        result.blocks.back().push_back(std::move(normal));
      }
      const std::string field = without_annotation(trim_left(line));
      const std::string value = last_word(field);
      const std::string name = field.substr(0, field.find(' '));
      const bool set = parse_number(value) != 0;
      if (name == "exclude_user") bits.exclude_user = set;
      if (name == "exclude_kernel") bits.exclude_kernel = set;
      if (name == "exclude_hv") bits.exclude_hv = set;
      if (name == "exclude_guest") bits.exclude_guest = set;
      if (name == "exclude_host") bits.exclude_host = set;
      if (name == "exclude_idle") bits.exclude_idle = set;
      if (name == "pinned") bits.pinned = set;
      if (name == "exclusive") bits.exclusive = set;
      if (name == "precise_ip") bits.precise_ip = static_cast<unsigned>(parse_number(value));
      if (field.starts_with("type ")) block->type = static_cast<std::uint32_t>(parse_number(value));
      if (field.starts_with("config ")) block->config[0] = parse_number(value);
      if (field.starts_with("{ bp_addr, config1 }")) block->config[1] = parse_number(value);
      if (field.starts_with("{ bp_len, config2 }")) block->config[2] = parse_number(value);
      if (field.starts_with("config3 ")) block->config[3] = parse_number(value);
      if (field.starts_with("bp_type "))
        block->bp_type = static_cast<std::uint32_t>(parse_number(value));
      continue;
    }
    if (line.starts_with("WARNING")) {
      result.warnings.push_back(line);
    } else {
      other.push_back(line);
    }
  }
  if (block) close_block();
  std::sort(result.attrs.begin(), result.attrs.end());
  result.attrs.erase(std::unique(result.attrs.begin(), result.attrs.end()), result.attrs.end());
  // "parser error" is perf's grammar rejecting the spec, whatever the kernel has. Attrs printed
  // before it are perf 6.1's hybrid cache probes, opened while parsing (`l1-dcache-load-misses`
  // probes the cache event `l1-d`, then fails at `cache`). Other errors after a probe stay
  // answers: a probe that fails here (no such PMU in this kernel) succeeds on a real hybrid
  // machine, where the event is accepted ("event parser found nothing", or `cpu_core/NAME/`'s
  // "unknown term" after its probe).
  if (std::any_of(other.begin(), other.end(), [](const std::string& text) {
        return text.find("\\___ parser error") != std::string::npos;
      })) {
    result.attrs.clear();
    result.printed.clear();
    result.blocks.clear();
  }
  if (result.attrs.empty()) {
    // perf repeats its error under "Initial error:"; keep the first report only.
    for (const auto& text : other) {
      if (text.starts_with("Initial error:") || text.starts_with("Run 'perf list'")) break;
      if (text.starts_with("Using CPUID") || text.starts_with("Attempting to add event") ||
          text.starts_with("After aliases") || text.starts_with("intel_pt default config") ||
          text.starts_with("sys_perf_event_open") || text.starts_with("----------") ||
          text.empty()) {
        continue;
      }
      if (!result.error.empty()) result.error += " | ";
      result.error += text;
    }
  }
  return result;
}

OracleOptions OracleOptions::from_environment() {
  OracleOptions options;
  options.version = oracle_perf_version();
  // perf 6.1 is Debian's linux-perf on PATH; each later release is built into the checkout's
  // .cache/perf-<release>/perf as its row of include/pmucat/perf_releases.def says
  // ($PMUCAT_PERF_6_12, $PMUCAT_PERF_7_3 ... name another build, or scripts/perf-oracle-7.sh's
  // wrapper of Debian's packaged perf in a root).
  if (options.version != PerfRelease::v6_1) {
    const std::string name(to_string(options.version));
    std::string variable = "PMUCAT_PERF_" + name;
    std::replace(variable.begin(), variable.end(), '.', '_');
    const char* built = std::getenv(variable.c_str());
    options.perf = built != nullptr && *built != '\0'
                       ? std::string(built)
                       : fmt::format("{}/perf-{}/perf", PMUCAT_PERF_ORACLE_DIR, name);
  }
  if (const char* perf = std::getenv("PMUCAT_PERF"); perf != nullptr && *perf != '\0') {
    options.perf = perf;
  }
  if (const char* jobs = std::getenv("PMUCAT_DIFF_JOBS"); jobs != nullptr && *jobs != '\0') {
    options.workers = static_cast<unsigned>(std::clamp(std::atoi(jobs), 1, 64));
  }
  return options;
}

std::optional<std::string> oracle_unavailable(const OracleOptions& options) {
  if (geteuid() != 0) return "not root: the perf oracle needs a private mount namespace";
  const auto perf = run_command(fmt::format("{} --version 2>&1", shell_quote(options.perf)));
  if (perf.status != 0 || !perf.out.starts_with("perf version")) {
    return options.version == PerfRelease::v6_1
               ? fmt::format("'{}' is not a working perf (install linux-perf)", options.perf)
               : fmt::format("'{}' is not a working perf (perf {}: {})", options.perf,
                             to_string(options.version), info(options.version).oracle);
  }
  if (parse_perf_release(perf.out) != options.version) {
    return fmt::format("'{}' is {}, not perf {}", options.perf,
                       perf.out.substr(0, perf.out.find('\n')), to_string(options.version));
  }
  const auto unshare =
      run_command("unshare -m sh -c 'mount --bind /tmp /sys/bus/event_source/devices' 2>&1");
  if (unshare.status != 0) {
    return fmt::format("unshare -m + bind mount over /sys/bus/event_source/devices fails: {}",
                       unshare.out);
  }
  return std::nullopt;
}

namespace {

// Rewrites `<pmu>/type` files whose leading decimal number is a dynamic type; what follows the
// number (a newline, or junk perf's %u stops at) is kept.
void move_dynamic_types(const fs::path& devices) {
  std::error_code error;
  for (fs::directory_iterator it(devices, error), end; !error && it != end; it.increment(error)) {
    const fs::path type_file = it->path() / "type";
    std::ifstream in(type_file, std::ios::binary);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    in.close();
    const std::string content = text.str();
    std::size_t digits = 0;
    while (digits < content.size() && digits < 9 && content[digits] >= '0' &&
           content[digits] <= '9') {
      ++digits;
    }
    if (digits == 0 ||
        (digits < content.size() && content[digits] >= '0' && content[digits] <= '9')) {
      continue;  // not a number, or too long to be a type: perf reads it as it is
    }
    const auto type = std::stoul(content.substr(0, digits));
    if (type < kFirstDynamicType) continue;
    std::ofstream out(type_file, std::ios::binary | std::ios::trunc);
    out << type + kMaterialisedTypeOffset << content.substr(digits);
  }
}

}  // namespace

namespace {

// A type the tree gave (moved up by kMaterialisedTypeOffset), not one of the types perf 7.3 gives
// its own PMUs from the top of the range (tool 0xfffffffe, hwmon 0xffff0000 + N, drm).
bool materialised(std::uint64_t type) {
  return type >= kFirstDynamicType + kMaterialisedTypeOffset && type < 0xfffe'0000u;
}

}  // namespace

void restore_materialised_types(PerfResult& result) {
  for (AttrWords& words : result.attrs) {
    if (materialised(words.type)) words.type -= kMaterialisedTypeOffset;
  }
  std::sort(result.attrs.begin(), result.attrs.end());
  for (std::vector<std::string>& block : result.blocks) {
    for (std::string& field : block) {
      if (!field.starts_with("type ")) continue;
      const auto type = parse_number(field.substr(5));
      if (materialised(type)) field = fmt::format("type {}", type - kMaterialisedTypeOffset);
    }
  }
  for (auto& [words, bits] : result.printed) {
    if (materialised(words.type)) words.type -= kMaterialisedTypeOffset;
  }
}

std::optional<MaterialisedTree> MaterialisedTree::copy_of(const fs::path& devices_dir) {
  std::optional<testing::ScratchDir> root = make_scratch_dir("tree");
  if (!root) return std::nullopt;
  const fs::path devices = *root / "devices";
  const auto copy = run_command(fmt::format("cp -rL {} {} 2>&1", shell_quote(devices_dir.string()),
                                            shell_quote(devices.string())));
  if (copy.status != 0) return std::nullopt;
  move_dynamic_types(devices);
  return MaterialisedTree(std::move(*root), devices);
}

MaterialisedTree::MaterialisedTree(testing::ScratchDir root, fs::path devices)
    : root_(std::move(root)), devices_(std::move(devices)) {}

OracleRun run_perf(const fs::path& devices_dir, const std::vector<std::string>& specs,
                   const OracleOptions& options) {
  const unsigned workers = std::max(1U, options.workers);
  std::vector<std::vector<std::string>> shares(workers);
  // Contiguous shares keep the results in order when concatenated.
  const std::size_t per_worker = (specs.size() + workers - 1) / workers;
  for (std::size_t i = 0; i < specs.size(); ++i) shares[i / per_worker].push_back(specs[i]);
  std::vector<std::string> failures(workers);
  std::vector<std::future<std::vector<PerfResult>>> running;
  for (unsigned w = 0; w < workers; ++w) {
    running.push_back(std::async(std::launch::async, [&, w] {
      return run_worker(devices_dir, shares[w], options, failures[w]);
    }));
  }
  OracleRun run;
  for (unsigned w = 0; w < workers; ++w) {
    auto part = running[w].get();
    run.results.insert(run.results.end(), std::make_move_iterator(part.begin()),
                       std::make_move_iterator(part.end()));
  }
  for (const auto& failure : failures) {
    if (!failure.empty()) run.failure += failure + "; ";
  }
  return run;
}

}  // namespace differential
PMUCAT_END_NAMESPACE

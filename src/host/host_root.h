// The facts of a machine, read from one root laid out like `/`: this machine's own `/`, or a
// capture of one (`--host-root`, a pmusnap tree). One bounded reader of /proc and /sys texts, CPU
// lists, /proc/cpuinfo, and the CPU's identification instructions where the root is this
// machine's. vendor (the CPU identifier), metrics (perf's metric literals), perfdata (perf.data's
// host features) and explain (HostFacts) all read the host through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace host {

// The most bytes of one /proc or /sys text (docs/catalog.md, "Bounds"): a file larger is refused
// whole, so /dev/zero or /proc/self/pagemap where a fact belongs costs at most this much.
inline constexpr std::size_t kMaxFactFileSize = std::size_t{1} << 20;
// /proc/cpuinfo holds about 1.5 KB per CPU: this covers several thousand CPUs.
inline constexpr std::size_t kMaxCpuinfoSize = std::size_t{16} << 20;
// The most CPUs one list (`0-4095`) expands to.
inline constexpr std::size_t kMaxListedCpus = 65536;

// The whole content of the regular file at `path`, at most `cap` bytes; else nothing, and why in
// `*why` when given (cannot be opened or read, not a regular file, larger than `cap`). A FIFO or
// device is refused without blocking (O_NONBLOCK, then fstat); the buffer grows with what is
// read, never to what a stat claims (/proc and /sys files say 0 bytes).
std::optional<std::string> read_bounded_file(const std::filesystem::path& path, std::size_t cap,
                                             std::string* why = nullptr);

// `text` up to its first newline.
std::string_view first_line(std::string_view text);

// A root laid out like `/`.
class Root {
 public:
  explicit Root(std::filesystem::path root = "/") : root_(std::move(root)) {}

  const std::filesystem::path& path() const { return root_; }
  std::filesystem::path operator/(std::string_view relative) const { return root_ / relative; }

  // Whether the root is this machine's own `/`: the facts of an instruction (CPUID) or a system
  // call (uname, sysconf) describe this machine, never a capture.
  bool is_live() const;

  // The text of `relative` (`proc/sys/kernel/osrelease`) with read_bounded_file's rules and
  // kMaxFactFileSize; nothing when it cannot be read, or when it holds a NUL byte: perf reads
  // these texts as C strings, only up to the first NUL, so a fact taken from the rest (or from
  // the part before it) would not be the one perf sees. `*nul_at`, when given, is where that
  // first NUL is (nullopt for any other failure).
  std::optional<std::string> read(std::string_view relative,
                                  std::optional<std::size_t>* nul_at = nullptr) const;
  // Its first line.
  std::optional<std::string> read_line(std::string_view relative) const;
  bool exists(std::string_view relative) const;

 private:
  std::filesystem::path root_;
};

// The CPUs of a kernel CPU list (`0-3,8`), in the list's order; an unparsable part is skipped,
// and at most kMaxListedCpus come out.
std::vector<unsigned> parse_cpu_list(std::string_view list);

// The first processor's block of `root`'s /proc/cpuinfo (up to its first blank line), read no
// further: the kernel writes each CPU's block as it is read, and a large machine's whole file
// costs far more than its first block. Nothing when it cannot be read or holds a NUL byte (as
// Root::read).
std::optional<std::string> cpuinfo_first_processor(const Root& root);

// `key : value` of one /proc/cpuinfo line (both trimmed of blanks), or nothing without a colon.
std::optional<std::pair<std::string_view, std::string_view>> cpuinfo_field(std::string_view line);

// What CPUID says of this machine's x86 CPU (leaf 0: the vendor; leaf 1: family, model and
// stepping, the extended fields folded in as the SDM says; leaf 0x15: the TSC's frequency).
struct X86Cpuid {
  std::string vendor;     // "GenuineIntel"
  unsigned max_leaf = 0;  // leaf 0's EAX
  unsigned family = ~0u;  // ~0u when leaf 1 is missing (perf prints -1 then)
  unsigned model = ~0u;
  unsigned stepping = ~0u;
  double tsc_hz = 0;  // leaf 0x15's crystal ratio, 0 when it gives none
};

// This machine's CPUID, or nothing off x86.
std::optional<X86Cpuid> x86_cpuid();
// This machine's processor version register (mfspr PVR, which the kernel emulates for users), or
// nothing off POWER.
std::optional<std::uint64_t> powerpc_pvr();

}  // namespace host
PMUCAT_END_NAMESPACE

// Internal unit test of cli/common/prefault.h: the plan from a process's facts, and that a
// link-ordered tool takes fewer page faults with it than without it (PMUCAT_NO_PREFAULT).
#include "common/prefault.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/tools.h"

namespace pmucat::cli {
namespace {

constexpr std::uintptr_t kPage = 4096;

// A static tool's layout as lld gives it: code, RELRO ending on a page boundary, then .data and
// .bss starting mid-page.
MemoryFacts linked_in_order() {
  MemoryFacts facts;
  facts.page_size = kPage;
  facts.stack_pointer = 0x7ffc'1234'5678;
  facts.executable = {0x2bcf80, 0x6e7000};
  facts.hot_text_end = 0x356b00;
  facts.writable = {0x6f57a0, 0x713800};
  facts.relro_end = 0x6f5000;
  facts.hot_data_end = 0x6ff5c1;
  facts.heap_top = {0x1204'1e10, 0x1206'2000};
  return facts;
}

std::vector<PrefaultSpan> spans(const PrefaultPlan& plan) {
  return {plan.spans.begin(), plan.spans.begin() + static_cast<std::ptrdiff_t>(plan.count)};
}

TEST(PrefaultPlan, MapsEachRegionInWholePages) {
  const std::vector<PrefaultSpan> expected = {
      // Code: from the first whole page (_start's page is mapped by running it) to the marker.
      {{0x2bd000, 0x357000}, Populate::read},
      // Stack: 20 KiB below the caller's page.
      {{0x7ffc'1234'0000, 0x7ffc'1234'5000}, Populate::write},
      // Data: from the first page wholly past RELRO to the page holding the data marker's end.
      {{0x6f6000, 0x700000}, Populate::write},
      // Heap: from the page holding the top chunk's start to the page holding its 24 KiB point.
      {{0x1204'1000, 0x1204'8000}, Populate::write},
  };
  EXPECT_EQ(spans(plan_prefault(linked_in_order())), expected);
}

TEST(PrefaultPlan, NothingWithoutAPageSize) {
  MemoryFacts facts = linked_in_order();
  facts.page_size = 0;
  EXPECT_EQ(plan_prefault(facts).count, 0U);
}

TEST(PrefaultPlan, MarkersOutsideTheirSegmentsMeanNoLinkOrder) {
  // A binary the list did not lay out: the markers may lie anywhere, so code and data are left
  // alone; the stack and the heap do not depend on the layout.
  MemoryFacts facts = linked_in_order();
  facts.hot_text_end = 0x6f0000;  // in the writable segment, not the code
  facts.hot_data_end = 0;         // unknown
  const std::vector<PrefaultSpan> plan = spans(plan_prefault(facts));
  ASSERT_EQ(plan.size(), 2U);
  EXPECT_EQ(plan[0].range, (AddressSpan{0x7ffc'1234'0000, 0x7ffc'1234'5000}));
  EXPECT_EQ(plan[1].range, (AddressSpan{0x1204'1000, 0x1204'8000}));
  facts.hot_text_end = facts.executable.begin;  // at the segment's start: nothing is hot
  EXPECT_EQ(plan_prefault(facts).count, 2U);
}

TEST(PrefaultPlan, BudgetsCapEachRegion) {
  MemoryFacts facts = linked_in_order();
  PrefaultBudget budget;
  budget.text = 64 * 1024;
  budget.data = 3 * kPage + 1;  // rounded up to whole pages
  budget.stack = 2 * kPage;
  budget.heap = kPage;
  const std::vector<PrefaultSpan> plan = spans(plan_prefault(facts, budget));
  ASSERT_EQ(plan.size(), 4U);
  EXPECT_EQ(plan[0].range, (AddressSpan{0x2bd000, 0x2cd000}));
  EXPECT_EQ(plan[1].range, (AddressSpan{0x7ffc'1234'3000, 0x7ffc'1234'5000}));
  EXPECT_EQ(plan[2].range, (AddressSpan{0x6f6000, 0x6fa000}));
  EXPECT_EQ(plan[3].range, (AddressSpan{0x1204'1000, 0x1204'3000}));
}

TEST(PrefaultPlan, TheHeapStopsAtTheProgramBreak) {
  MemoryFacts facts = linked_in_order();
  facts.heap_top = {0x1204'1e10, 0x1204'4000};  // 8.5 KiB left before the break
  EXPECT_EQ(spans(plan_prefault(facts))[3].range, (AddressSpan{0x1204'1000, 0x1204'4000}));
  facts.heap_top = {0x1204'1e10, 0x1204'1e10};  // no top chunk known
  EXPECT_EQ(plan_prefault(facts).count, 3U);
}

TEST(PrefaultPlan, DataStartsPastAnUnalignedRelroEnd) {
  // glibc leaves the page holding an unaligned RELRO end writable, but it is not this plan's to
  // write: the span starts at the next page.
  MemoryFacts facts = linked_in_order();
  facts.writable = {0x6e8950, 0x713800};
  facts.relro_end = 0x6f4ab0;
  EXPECT_EQ(spans(plan_prefault(facts))[2].range, (AddressSpan{0x6f5000, 0x700000}));
}

TEST(PrefaultPlan, AStackPointerBelowTheBudgetGetsNoStackSpan) {
  MemoryFacts facts = linked_in_order();
  facts.stack_pointer = 0x3000;
  const std::vector<PrefaultSpan> plan = spans(plan_prefault(facts));
  ASSERT_EQ(plan.size(), 3U);
  EXPECT_EQ(plan[1].range, (AddressSpan{0x6f6000, 0x700000}));
}

// Whether this kernel has MADV_POPULATE_WRITE (Linux 5.14).
bool kernel_populates() {
  void* page = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return false;
  const bool ok = madvise(page, kPage, MADV_POPULATE_WRITE) == 0;
  munmap(page, kPage);
  return ok;
}

// Whether the page holding `address` is mapped in this process (/proc/self/pagemap's present
// bit, readable without privileges); nullopt when there is no pagemap.
std::optional<bool> page_present(std::uintptr_t address) {
  const int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (pagemap < 0) return std::nullopt;
  std::uint64_t entry = 0;
  const auto offset = static_cast<off_t>(address / kPage * sizeof entry);
  const bool read_ok = pread(pagemap, &entry, sizeof entry, offset) == sizeof entry;
  close(pagemap);
  if (!read_ok) return std::nullopt;
  return (entry >> 63) != 0;
}

TEST(Prefault, StartMapsTheStackBelowItsCaller) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (5.14)";
  // A new thread's stack is untouched a few pages below its first frames, so a page there that
  // is mapped afterwards was mapped by prefault_start (its markers 0: no code or data span here).
  std::optional<bool> before;
  std::optional<bool> after;
  std::thread([&] {
    const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    const std::uintptr_t probe = frame - frame % kPage - 3 * kPage;
    before = page_present(probe);
    prefault_start(0, 0);
    after = page_present(probe);
  }).join();
  if (!before || !after) GTEST_SKIP() << "no /proc/self/pagemap";
  if (*before) GTEST_SKIP() << "the new thread's stack was mapped already (huge pages?)";
  EXPECT_TRUE(*after);
}

// Page faults of one run of `argv` with `environment` added, as perf's page-faults event counts
// them: faults the process took, not the pages madvise populated for it (which getrusage's
// ru_minflt counts too). -1 when the run or the counter fails.
long page_faults(const std::vector<std::string>& argv, const std::string& environment) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_PAGE_FAULTS;
  attr.disabled = 1;
  attr.inherit = 1;  // the child's count joins this one when it exits
  attr.exclude_kernel = 1;
  const int counter = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (counter < 0) return -1;
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_strings = {"PATH=/usr/bin:/bin"};
  if (!environment.empty()) env_strings.push_back(environment);
  std::vector<char*> env;
  for (std::string& entry : env_strings) env.push_back(entry.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  ioctl(counter, PERF_EVENT_IOC_ENABLE, 0);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, args[0], &actions, nullptr, args.data(), env.data());
  int status = 0;
  const bool ran = spawned == 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                   WEXITSTATUS(status) == 0;
  ioctl(counter, PERF_EVENT_IOC_DISABLE, 0);
  posix_spawn_file_actions_destroy(&actions);
  std::uint64_t count = 0;
  const bool counted = read(counter, &count, sizeof count) == sizeof count;
  close(counter);
  return ran && counted ? static_cast<long>(count) : -1;
}

TEST(Prefault, ALinkOrderedToolTakesFewerFaults) {
  const std::string pmuencode = testing::tool("pmuencode");
  std::ifstream file(pmuencode, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), {}};
  if (bytes.find("pmucat_link_order_text_end") == std::string::npos) {
    GTEST_SKIP() << "pmuencode is not link-ordered (no lld, a sanitizer, or a shared runtime)";
  }
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (5.14)";
  // The count is of user-mode faults (exclude_kernel, so that an unprivileged run may count):
  // the tool's own, as perf stat -e page-faults:u shows them.
  const std::vector<std::string> argv = {pmuencode, "--sysfs", "fixtures/sysfs/intel-spr",
                                         "cpu/event=0x3c,umask=0x1,inv,cmask=3/"};
  // The fewest of a few runs each: a run can only gain faults (memory pressure, a page-cache
  // page read again), never lose the ones the plan saves.
  long with = -1;
  long without = -1;
  for (int run = 0; run < 3; ++run) {
    const long on = page_faults(argv, "");
    const long off = page_faults(argv, "PMUCAT_NO_PREFAULT=1");
    if (on < 0 || off < 0) GTEST_SKIP() << "no perf software counter here (perf_event_paranoid)";
    with = with < 0 ? on : std::min(with, on);
    without = without < 0 ? off : std::min(without, off);
  }
  // Measured on this fixture: 21-22 against 38-39 (perf stat -e page-faults:u, with and without
  // PMUCAT_NO_PREFAULT=1); the stack, data and heap spans alone save over 10.
  EXPECT_LE(with + 10, without) << "with " << with << ", without " << without;
}

}  // namespace
}  // namespace pmucat::cli

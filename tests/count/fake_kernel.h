// A PerfEventKernel that opens nothing: it answers each open as told (a file descriptor, or an
// errno), and each read with the counts and times chosen for the event, laid out as the kernel
// lays out a read of the counter's read_format (a group leader's holds its members').
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "pmucat/count_kernel.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

struct FakeCounts {
  std::uint64_t value = 0;
  std::uint64_t enabled = 1000;
  std::uint64_t running = 1000;
  std::uint64_t lost = 0;
};

// The bytes of one read() as the kernel writes them: `counts` leader first (all of them when
// read_format has PERF_FORMAT_GROUP, the first alone otherwise), the times the leader's.
inline std::vector<std::byte> kernel_read_bytes(std::uint64_t read_format,
                                                const std::vector<FakeCounts>& counts,
                                                std::uint64_t first_id = 1) {
  std::vector<std::uint64_t> words;
  const bool group = (read_format & read_fmt::group) != 0;
  const auto member = [&](const FakeCounts& c, std::uint64_t id, bool with_value) {
    if (with_value) words.push_back(c.value);
    if (read_format & read_fmt::id) words.push_back(id);
    if (read_format & read_fmt::lost) words.push_back(c.lost);
  };
  if (group) {
    words.push_back(counts.size());
  } else {
    words.push_back(counts.front().value);
  }
  if (read_format & read_fmt::total_time_enabled) words.push_back(counts.front().enabled);
  if (read_format & read_fmt::total_time_running) words.push_back(counts.front().running);
  if (group) {
    for (std::size_t i = 0; i < counts.size(); ++i) member(counts[i], first_id + i, true);
  } else {
    member(counts.front(), first_id, false);
  }
  std::vector<std::byte> bytes(words.size() * 8);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

class FakeKernel final : public PerfEventKernel {
 public:
  struct Open {
    Attr attr;
    pid_t pid = 0;
    int cpu = 0;
    int group_fd = -1;
    bool closed = false;
    int enabled = 0;
  };
  static constexpr int kFirstFd = 100;

  // An errno (> 0) refuses the open; 0 accepts it. Unset: every open is accepted.
  std::function<int(const Attr&, pid_t, int cpu)> refuse;
  // The counts a read returns for an event (by its attr) on a CPU. Unset: zeros, fully running.
  std::function<FakeCounts(const Attr&, int cpu)> counts;
  // Bytes cut off the end of every read (a short read).
  std::size_t short_by = 0;
  std::vector<Open> opens;
  int reads = 0;

  int open(const Attr& attr, pid_t pid, int cpu, int group_fd) override {
    if (refuse) {
      if (const int error = refuse(attr, pid, cpu)) return -error;
    }
    opens.push_back({attr, pid, cpu, group_fd, false, 0});
    return kFirstFd + static_cast<int>(opens.size()) - 1;
  }

  long read(int fd, std::span<std::byte> buffer) override {
    ++reads;
    const Open& leader = opens.at(static_cast<std::size_t>(fd - kFirstFd));
    std::vector<FakeCounts> values{counts_of(leader)};
    if (leader.attr.read_format & read_fmt::group) {
      for (const Open& other : opens) {
        if (other.group_fd == fd) values.push_back(counts_of(other));
      }
    }
    std::vector<std::byte> bytes = kernel_read_bytes(leader.attr.read_format, values);
    const std::size_t size =
        std::min(buffer.size(), bytes.size() - std::min(short_by, bytes.size()));
    std::memcpy(buffer.data(), bytes.data(), size);
    return static_cast<long>(size);
  }

  int enable(int fd, bool) override {
    ++opens.at(static_cast<std::size_t>(fd - kFirstFd)).enabled;
    return 0;
  }
  int disable(int, bool) override { return 0; }
  void close(int fd) override { opens.at(static_cast<std::size_t>(fd - kFirstFd)).closed = true; }

 private:
  FakeCounts counts_of(const Open& open) const {
    return counts ? counts(open.attr, open.cpu) : FakeCounts{};
  }
};

}  // namespace testing
PMUCAT_END_NAMESPACE

// Records in time order, as quipper's PerfParser sorts them before it maps samples (and as the
// PerfDataProto its perf_converter writes holds them; perf_to_profile does not sort a proto).
// Each CPU's ring buffer is written out in turn, so a child's first samples can come before
// the FORK and MMAP records its parent's CPU wrote earlier in time; processed in file order
// they find no mapping.
//
// Sorting the whole file would hold it in memory. perf's own rule bounds the window: at the end
// of a round (FINISHED_ROUND) every record no later than the latest time of the previous round
// can go out, because later rounds hold nothing earlier. Records are kept in arrival order and
// a flush sorts what goes out stably by time, so the result is quipper's stable sort of the
// whole file whenever the recording keeps perf's rule. Records without a time sort as 0, as in
// quipper. A file without rounds (perf record --threads) is sorted as a whole up to
// kMaxBufferedBytes; past that the buffer is flushed whole, and the output is sorted window by
// window.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

// What a flush may hold at most before it goes out whole, and what each held item counts
// besides its own bytes.
inline constexpr std::size_t kMaxBufferedBytes = std::size_t{32} << 20;
inline constexpr std::size_t kHeldItemOverhead = 64;

// quipper sorts only when every event's samples carry PERF_SAMPLE_TIME.
bool all_events_timed(const std::vector<PerfEventEntry>& events);

// The record's time as quipper reads it: the sample's TIME, or the TIME of a kernel record's
// sample_id trailer (sample_id_all); 0 when it has none. `attr` is the record's event.
std::uint64_t record_time(const Record& record, const Attr* attr);

template <class Item>
class TimeOrder {
 public:
  // Inactive, items go out as they come.
  explicit TimeOrder(bool active, std::size_t max_bytes = kMaxBufferedBytes)
      : active_(active), max_bytes_(max_bytes) {}

  bool active() const { return active_; }

  // `index` is the item's place in arrival order (passed back to emit); `round_end` marks a
  // FINISHED_ROUND. emit(Item&&, index) is called for every item that can go out now.
  template <class Emit>
  void add(Item item, std::uint64_t time, std::size_t bytes, bool round_end, Emit&& emit) {
    const std::uint64_t index = next_index_++;
    if (!active_) {
      emit(std::move(item), index);
      return;
    }
    buffer_.push_back({time, index, bytes, std::move(item)});
    buffered_bytes_ += bytes;
    max_time_ = std::max(max_time_, time);
    if (round_end) {
      flush_upto(previous_round_max_, emit);
      previous_round_max_ = max_time_;
    } else if (buffered_bytes_ > max_bytes_) {
      flush(emit);
    }
  }

  // Everything still held, in time order.
  template <class Emit>
  void flush(Emit&& emit) {
    flush_upto(UINT64_MAX, emit);
  }

  // How many items are held, and each of them (to move what they refer to).
  std::size_t held() const { return buffer_.size(); }
  std::size_t held_bytes() const { return buffered_bytes_; }
  template <class F>
  void for_each_held(F&& f) {
    for (auto& e : buffer_) f(e.item);
  }

 private:
  struct Entry {
    std::uint64_t time;
    std::uint64_t index;
    std::size_t bytes;
    Item item;
  };

  template <class Emit>
  void flush_upto(std::uint64_t limit, Emit& emit) {
    const auto out = std::stable_partition(buffer_.begin(), buffer_.end(),
                                           [limit](const Entry& e) { return e.time <= limit; });
    std::stable_sort(buffer_.begin(), out,
                     [](const Entry& a, const Entry& b) { return a.time < b.time; });
    for (auto it = buffer_.begin(); it != out; ++it) emit(std::move(it->item), it->index);
    buffer_.erase(buffer_.begin(), out);
    buffered_bytes_ = 0;
    for (const auto& e : buffer_) buffered_bytes_ += e.bytes;
  }

  bool active_;
  std::size_t max_bytes_;
  std::vector<Entry> buffer_;
  std::size_t buffered_bytes_ = 0;
  std::uint64_t next_index_ = 0;
  std::uint64_t max_time_ = 0;
  std::uint64_t previous_round_max_ = 0;
};

}  // namespace perfdata
PMUCAT_END_NAMESPACE

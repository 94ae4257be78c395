// The trust grades of counted values (trust_grades.def), and the values of an interval.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>

#include "pmucat/count.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct GradeInfo {
  TrustGrade grade;
  std::string_view id;
  TrustLevel level;
  std::string_view summary;
};

constexpr GradeInfo kGrades[] = {
#define PMUCAT_GRADE(name, id, level, summary) {TrustGrade::name, id, TrustLevel::level, summary},
#include "pmucat/trust_grades.def"
};

constexpr std::array kGradeList = [] {
  std::array<TrustGrade, std::size(kGrades)> list{};
  for (std::size_t i = 0; i < list.size(); ++i) list[i] = kGrades[i].grade;
  return list;
}();

const GradeInfo& info(TrustGrade grade) {
  return kGrades[static_cast<std::size_t>(grade)];
}

// Writes a value's grades over the ones it held, reusing the vector's elements and their reasons'
// storage: -I grades every value each interval, and most intervals grade as the one before.
class GradeWriter {
 public:
  explicit GradeWriter(std::vector<Trust>& trust) : trust_(trust) {}
  GradeWriter(const GradeWriter&) = delete;
  GradeWriter& operator=(const GradeWriter&) = delete;
  ~GradeWriter() {
    trust_.erase(trust_.begin() + static_cast<std::ptrdiff_t>(used_), trust_.end());
  }

  // The reason of a new grade, empty, to be written.
  std::string& add(TrustGrade grade) {
    if (used_ == trust_.size()) trust_.emplace_back();
    Trust& trust = trust_[used_++];
    trust.grade = grade;
    trust.reason.clear();
    return trust.reason;
  }
  void add(const Trust& trust) { add(trust.grade) = trust.reason; }
  bool empty() const { return used_ == 0; }

 private:
  std::vector<Trust>& trust_;
  std::size_t used_ = 0;
};

template <typename... Args>
void write_reason(std::string& reason, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(reason), format, std::forward<Args>(args)...);
}

void append_percent(std::string& out, double fraction) {
  write_reason(out, "{:.2f}%", 100.0 * fraction);
}

}  // namespace

std::string_view to_string(TrustLevel level) {
  switch (level) {
    case TrustLevel::trusted:
      return "trusted";
    case TrustLevel::caution:
      return "caution";
    case TrustLevel::untrusted:
      return "untrusted";
  }
  return "?";
}

std::string_view to_string(TrustGrade grade) {
  return info(grade).id;
}
TrustLevel level_of(TrustGrade grade) {
  return info(grade).level;
}
std::string_view summary_of(TrustGrade grade) {
  return info(grade).summary;
}
std::span<const TrustGrade> all_trust_grades() {
  return kGradeList;
}
std::optional<TrustGrade> parse_trust_grade(std::string_view id) {
  for (const GradeInfo& grade : kGrades) {
    if (grade.id == id) return grade.grade;
  }
  return std::nullopt;
}

void grade_values(Reading& reading, std::span<const CountEvent> events,
                  std::span<const std::optional<double>> predicted_fraction) {
  for (EventValue& value : reading.values) {
    GradeWriter grades(value.trust);
    const CountEvent& event = events[value.event];
    if (event.refused) {
      value.value.reset();
      grades.add(*event.refused);
      continue;
    }
    const std::optional<double> scaled = scale_count(value.raw, value.enabled, value.running);
    value.value = scaled ? std::optional<double>(*scaled * event.scale) : std::nullopt;
    if (!scaled) {
      std::string& reason = grades.add(TrustGrade::not_counted);
      if (value.enabled == 0) {
        reason = "never enabled: the counted task or CPU did not run";
      } else {
        write_reason(reason,
                     "never scheduled: running 0 of {} ns enabled (perf stat's <not counted>)",
                     value.enabled);
      }
    } else if (value.running < value.enabled) {
      std::string& reason = grades.add(TrustGrade::multiplexed);
      reason = "counted ";
      append_percent(reason, value.running_fraction());
      write_reason(reason, " of the time it was enabled; the count is scaled by {:.3f}",
                   static_cast<double>(value.enabled) / static_cast<double>(value.running));
      if (value.event < predicted_fraction.size() && predicted_fraction[value.event]) {
        reason += "; the planner predicted ";
        append_percent(reason, *predicted_fraction[value.event]);
      }
    }
    if (scaled && value.raw == 0 && event.counts_hardware) {
      write_reason(grades.add(TrustGrade::zero_count),
                   "a hardware counter that counted 0 over {} ns of running: many VMs open "
                   "PMU events that never count",
                   value.running);
    }
    if (value.lost != 0) {
      write_reason(grades.add(TrustGrade::counts_lost), "the kernel reports {} lost", value.lost);
    }
    if (event.substituted) grades.add(*event.substituted);
    if (!event.errata.empty()) {
      write_reason(grades.add(TrustGrade::errata),
                   "the vendor tables list errata {} for this event", event.errata);
    }
    if (grades.empty()) grades.add(TrustGrade::exact);
  }
}

Reading difference(const Reading& later, const Reading& earlier, std::span<const CountEvent> events,
                   std::span<const std::optional<double>> predicted_fraction) {
  Reading delta;
  difference(later, earlier, events, predicted_fraction, delta);
  return delta;
}

void difference(const Reading& later, const Reading& earlier, std::span<const CountEvent> events,
                std::span<const std::optional<double>> predicted_fraction, Reading& delta) {
  // Each value's grades keep their storage (grade_values writes over them): -I takes a
  // difference every interval.
  delta.values.resize(later.values.size());
  for (std::size_t i = 0; i < delta.values.size(); ++i) {
    EventValue& value = delta.values[i];
    std::vector<Trust> grades = std::move(value.trust);
    value = later.values[i];
    value.trust = std::move(grades);
    const auto same = [&](const EventValue& candidate) {
      return candidate.event == value.event && candidate.cpu == value.cpu;
    };
    // Two readings of one session hold their values in the same order.
    auto before = i < earlier.values.size() && same(earlier.values[i])
                      ? earlier.values.begin() + static_cast<std::ptrdiff_t>(i)
                      : std::find_if(earlier.values.begin(), earlier.values.end(), same);
    if (before == earlier.values.end()) continue;
    // Counters only grow; a smaller later count (a counter reset) is taken as zero rather than
    // wrapped round.
    const auto less = [](std::uint64_t a, std::uint64_t b) { return a >= b ? a - b : 0; };
    value.raw = less(value.raw, before->raw);
    value.enabled = less(value.enabled, before->enabled);
    value.running = less(value.running, before->running);
    value.lost = less(value.lost, before->lost);
  }
  grade_values(delta, events, predicted_fraction);
}

Reading aggregate(const Reading& per_cpu, Aggregation aggregation,
                  const std::map<int, CpuPlace>& places, std::span<const CountEvent> events) {
  Reading out;
  // (event, place) -> the value summing it, in the order first met.
  std::map<std::tuple<std::size_t, int, int, int, int>, std::size_t> index;
  for (const EventValue& value : per_cpu.values) {
    const auto found = places.find(value.cpu);
    CpuPlace place = found == places.end() ? CpuPlace{} : found->second;
    if (aggregation == Aggregation::per_socket) place.die = place.core = -1;
    // A CPU without a place (or no CPU) stays on its own.
    const int alone = found == places.end() ? value.cpu : -1;
    const auto key = std::make_tuple(value.event, place.socket, place.die, place.core, alone);
    const auto [slot, inserted] = index.try_emplace(key, out.values.size());
    if (inserted) {
      EventValue sum = value;
      sum.place = place;
      sum.cpus = 1;
      sum.trust.clear();
      out.values.push_back(std::move(sum));
      continue;
    }
    EventValue& sum = out.values[slot->second];
    sum.raw += value.raw;
    sum.enabled += value.enabled;
    sum.running += value.running;
    sum.lost += value.lost;
    ++sum.cpus;
  }
  grade_values(out, events, {});
  return out;
}

PMUCAT_END_NAMESPACE

// The trust grades of counted values (trust_grades.def), and the values of an interval.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

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

std::string percent(double fraction) {
  return fmt::format("{:.2f}%", 100.0 * fraction);
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
    value.trust.clear();
    const CountEvent& event = events[value.event];
    if (event.refused) {
      value.value.reset();
      value.trust.push_back(*event.refused);
      continue;
    }
    const std::optional<double> scaled = scale_count(value.raw, value.enabled, value.running);
    value.value = scaled ? std::optional<double>(*scaled * event.scale) : std::nullopt;
    if (!scaled) {
      value.trust.push_back(
          {TrustGrade::not_counted,
           value.enabled == 0
               ? std::string("never enabled: the counted task or CPU did not run")
               : fmt::format("never scheduled: running 0 of {} ns enabled (perf stat's <not "
                             "counted>)",
                             value.enabled)});
    } else if (value.running < value.enabled) {
      std::string reason =
          fmt::format("counted {} of the time it was enabled; the count is scaled by {:.3f}",
                      percent(value.running_fraction()),
                      static_cast<double>(value.enabled) / static_cast<double>(value.running));
      if (value.event < predicted_fraction.size() && predicted_fraction[value.event]) {
        reason +=
            fmt::format("; the planner predicted {}", percent(*predicted_fraction[value.event]));
      }
      value.trust.push_back({TrustGrade::multiplexed, std::move(reason)});
    }
    if (scaled && value.raw == 0 && event.counts_hardware) {
      value.trust.push_back(
          {TrustGrade::zero_count,
           fmt::format("a hardware counter that counted 0 over {} ns of running: many VMs open "
                       "PMU events that never count",
                       value.running)});
    }
    if (value.lost != 0) {
      value.trust.push_back(
          {TrustGrade::counts_lost, fmt::format("the kernel reports {} lost", value.lost)});
    }
    if (event.substituted) value.trust.push_back(*event.substituted);
    if (!event.errata.empty()) {
      value.trust.push_back(
          {TrustGrade::errata,
           fmt::format("the vendor tables list errata {} for this event", event.errata)});
    }
    if (value.trust.empty()) {
      value.trust.push_back({TrustGrade::exact, std::string()});
    }
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
  // Assigned element by element, so the values' grade vectors keep their storage.
  delta.values = later.values;
  for (std::size_t i = 0; i < delta.values.size(); ++i) {
    EventValue& value = delta.values[i];
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

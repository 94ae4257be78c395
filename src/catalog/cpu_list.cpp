// parse_cpu_list: the kernel's cpulist text ("0-3,8"), as in cpumask/cpus files.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>

#include "catalog/sysfs_file.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Far above any NR_CPUS the kernel allows (8192 today); keeps a hostile "0-4294967295" from
// allocating gigabytes.
constexpr std::uint32_t kMaxCpuId = 65535;

class CpuListParser {
 public:
  CpuListParser(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Expected<CpuList> parse() {
    std::vector<bool> present;
    while (position_ < text_.size()) {
      auto first = number();
      if (!first) return unexpected(std::move(*error_));
      std::uint32_t last = *first;
      std::size_t item_start = item_start_;
      if (position_ < text_.size() && text_[position_] == '-') {
        ++position_;
        auto second = number();
        if (!second) return unexpected(std::move(*error_));
        last = *second;
        if (last < *first) {
          return unexpected(
              make_diagnostic(Severity::error, DiagId::cpulist_reversed_range, file_, text_,
                              item_start, position_ - item_start,
                              fmt::format("CPU range {}-{} ends before it starts", *first, last)));
        }
      }
      if (present.size() <= last) present.resize(last + 1);
      std::fill(present.begin() + *first, present.begin() + last + 1, true);
      if (position_ == text_.size()) break;
      if (text_[position_] != ',') {
        return unexpected(make_diagnostic(Severity::error, DiagId::cpulist_syntax, file_, text_,
                                          position_, 1, "expected ',' or '-' after a CPU number"));
      }
      ++position_;
      if (position_ == text_.size()) {
        return unexpected(make_diagnostic(Severity::error, DiagId::cpulist_syntax, file_, text_,
                                          position_, 0, "expected a CPU number after ','"));
      }
    }
    CpuList list;
    list.text = std::string(text_);
    for (std::uint32_t cpu = 0; cpu < present.size(); ++cpu) {
      if (present[cpu]) list.cpus.push_back(cpu);
    }
    return list;
  }

 private:
  // A decimal CPU number at the current position; sets error_ when there is none.
  std::optional<std::uint32_t> number() {
    item_start_ = position_;
    std::size_t start = position_;
    std::uint64_t value = 0;
    while (position_ < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[position_])) != 0) {
      value = value * 10 + static_cast<std::uint64_t>(text_[position_] - '0');
      if (value > kMaxCpuId) {
        while (position_ < text_.size() &&
               std::isdigit(static_cast<unsigned char>(text_[position_])) != 0) {
          ++position_;
        }
        error_ = make_diagnostic(Severity::error, DiagId::cpulist_cpu_too_large, file_, text_,
                                 start, position_ - start,
                                 fmt::format("CPU number is larger than {}", kMaxCpuId));
        return std::nullopt;
      }
      ++position_;
    }
    if (position_ == start) {
      error_ = make_diagnostic(Severity::error, DiagId::cpulist_syntax, file_, text_, start,
                               position_ < text_.size() ? 1 : 0, "expected a CPU number");
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(value);
  }

  std::string_view text_;
  std::string_view file_;
  std::size_t position_ = 0;
  std::size_t item_start_ = 0;
  std::optional<Diagnostic> error_;
};

}  // namespace

Expected<CpuList> parse_cpu_list(std::string_view text, std::string_view file) {
  // The kernel ends the list with '\n'; an empty mask is a lone "\n".
  return CpuListParser(detail::without_trailing_newline(text), file).parse();
}

PMUCAT_END_NAMESPACE

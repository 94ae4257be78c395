// Internal to the metrics module: the set of ids perf 6.1 keeps for a metric (its hashmap, whose
// iteration order decides the order of the events perf builds), and perf's id search over a
// metric expression (expr__find_ids: constant folding of literals, `if` with a constant
// condition keeping one branch). Facts from perf's util/hashmap.c, util/expr.{l,y,c}; our code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/metrics.h"

namespace pmucat::metrics_detail {

// perf's string hashmap: hash = hash * 31 + char over the bytes (chars signed, as on x86), the
// bucket is the top `bits` bits of hash * 0x9E3779B97F4A7C15, 4 buckets first, doubling when an
// insertion would fill more than 3/4, a new entry at the head of its bucket, growth rehashing
// bucket by bucket (which reverses chains), iteration bucket by bucket from the head.
class PerfIdMap {
 public:
  // hashmap__set: an existing key stays where it is.
  void insert(std::string_view key);
  bool erase(std::string_view key);
  bool contains(std::string_view key) const;
  std::size_t size() const { return size_; }
  std::vector<std::string> keys() const;  // in perf's iteration order
  template <class F>
  void for_each(F&& f) const {
    for (const auto& bucket : buckets_) {
      for (const auto& key : bucket) f(key);
    }
  }

 private:
  void grow();
  std::size_t bucket_of(std::string_view key, unsigned bits) const;
  std::vector<std::vector<std::string>> buckets_;  // front = head of the chain
  std::size_t size_ = 0;
  unsigned bits_ = 0;
};

// perf's ids__union: nullopt is perf's NULL set. The larger map is kept (the first on a tie) and
// the other's keys are inserted into it in its iteration order.
std::optional<PerfIdMap> ids_union(std::optional<PerfIdMap> a, std::optional<PerfIdMap> b);

// expr__find_ids(expr, NULL, ctx): adds the ids `expr` needs to `ids` (perf's
// `ctx->ids = ids__union(found, ctx->ids)`). `runtime` replaces `?` in ids. Fails (perf: a broken
// metric) on a syntax error, an unknown or unavailable literal, a division by constant zero;
// the diagnostic points into `expr` (file `file`).
// Returns nullopt on success.
std::optional<Diagnostic> find_ids(std::string_view expr, int runtime,
                                   const MetricLiterals& literals, std::string_view file,
                                   PerfIdMap& ids);

}  // namespace pmucat::metrics_detail

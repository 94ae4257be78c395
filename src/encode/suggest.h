// Nearest-name suggestions for "did you mean ...?" hints.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pmucat::encode_detail {

// Levenshtein distance between `a` and `b`, ASCII case folded when `ignore_case`.
std::size_t edit_distance(std::string_view a, std::string_view b, bool ignore_case);

// The candidate closest to `word` when it is close enough to be a plausible typo (distance at
// most a third of the longer name, at least 1; case differences are free), else nullopt.
// Ties keep the first candidate.
std::optional<std::string> nearest_name(std::string_view word,
                                        std::span<const std::string> candidates);

}  // namespace pmucat::encode_detail

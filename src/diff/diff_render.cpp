// pmudiff's text and JSON output.
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "pmucat/diff.h"

PMUCAT_BEGIN_NAMESPACE
namespace diff {
namespace {

char marker(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::added:
      return '+';
    case ChangeKind::removed:
      return '-';
    case ChangeKind::changed:
      return '~';
  }
  return '~';
}

std::string config_words(const ConfigWords& config) {
  std::string out = fmt::format("{:#x}", config[0]);
  for (unsigned i = 1; i < config.size(); ++i) {
    if (config[i] != 0) out += fmt::format(" {}={:#x}", config_word_name(i), config[i]);
  }
  return out;
}

std::string subject_name(const Change& change) {
  return change.name.empty() ? change.pmu : change.pmu + "/" + change.name;
}

}  // namespace

std::string render_text(const Result& result) {
  std::string out;
  std::size_t breaks = 0;
  for (const Change& change : result.changes) {
    out += fmt::format("{} {} {}", marker(change.kind), to_string(change.subject),
                       subject_name(change));
    switch (change.kind) {
      case ChangeKind::added:
        out += fmt::format(": {}", change.new_text);
        break;
      case ChangeKind::removed:
        out += fmt::format(": {}", change.old_text);
        break;
      case ChangeKind::changed:
        out += fmt::format(": {} -> {}", change.old_text, change.new_text);
        break;
    }
    if (change.abi_break) {
      out += "  [ABI break]";
      ++breaks;
    }
    out += '\n';
    if (change.subject == Subject::event && (change.old_config || change.new_config) &&
        change.kind == ChangeKind::changed) {
      out += fmt::format("    config {} -> {}\n",
                         change.old_config ? config_words(*change.old_config) : "(none)",
                         change.new_config ? config_words(*change.new_config) : "(none)");
    }
    if (!change.reason.empty()) {
      out += fmt::format("    {}\n", change.reason);
    }
  }
  out += fmt::format("{} change{}, {} ABI break{}\n", result.changes.size(),
                     result.changes.size() == 1 ? "" : "s", breaks, breaks == 1 ? "" : "s");
  return out;
}

std::string render_json(const Result& result) {
  nlohmann::json changes = nlohmann::json::array();
  for (const Change& change : result.changes) {
    nlohmann::json item = {{"kind", std::string(to_string(change.kind))},
                           {"subject", std::string(to_string(change.subject))},
                           {"pmu", change.pmu},
                           {"name", change.name},
                           {"old", change.old_text},
                           {"new", change.new_text},
                           {"abi_break", change.abi_break},
                           {"reason", change.reason}};
    auto words = [](const ConfigWords& config) {
      nlohmann::json out = nlohmann::json::array();
      for (std::size_t i = 0; i < shown_config_words(config); ++i) {
        out.push_back(fmt::format("{:#x}", config[i]));
      }
      return out;
    };
    item["old_config"] = change.old_config ? words(*change.old_config) : nlohmann::json(nullptr);
    item["new_config"] = change.new_config ? words(*change.new_config) : nlohmann::json(nullptr);
    changes.push_back(std::move(item));
  }
  nlohmann::json out = {{"changes", changes}, {"abi_break", result.has_abi_break()}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace diff
PMUCAT_END_NAMESPACE

#include "pmuencode/decode_words.h"

#include <fmt/core.h>

#include <charconv>

#include "common/diagnostics.h"
#include "common/text_table.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/format.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr std::string_view kWhat = "<decode>";

std::optional<unsigned> word_index(std::string_view name) {
  for (unsigned word = 0; word < kConfigWords; ++word) {
    if (name == config_word_name(word)) return word;
  }
  return std::nullopt;
}

Expected<std::uint64_t> parse_value(std::string_view argument, std::size_t offset) {
  std::string_view digits = argument.substr(offset);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  const std::size_t value_length = argument.size() - offset;
  if (error == std::errc::result_out_of_range) {
    return unexpected(argument_error(DiagId::decode_value_too_big, kWhat, argument, offset,
                                     value_length, "value does not fit in 64 bits"));
  }
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    return unexpected(argument_error(DiagId::decode_bad_value, kWhat, argument, offset,
                                     value_length, "expected a decimal or 0x-prefixed hex number"));
  }
  return value;
}

std::string words_text(const ConfigWords& words) {
  std::string text;
  for (unsigned word = 0; word < words.size(); ++word) {
    if (word == 0 || words[word] != 0) {
      if (!text.empty()) text += ' ';
      text += fmt::format("{}={:#x}", config_word_name(word), words[word]);
    }
  }
  return text;
}

std::string perf_form(const Pmu& pmu, const Decoded& decoded) {
  return fmt::format("{}/{}/", pmu.name(), decoded.terms_string);
}

}  // namespace

Expected<ConfigWords> parse_config_words(std::span<const std::string> arguments) {
  ConfigWords words{};
  std::array<bool, kConfigWords> seen{};
  for (const std::string& argument : arguments) {
    const std::size_t equals = argument.find('=');
    const std::string_view name = std::string_view(argument).substr(0, equals);
    const auto index = word_index(name);
    if (!index) {
      std::vector<std::string> valid;
      for (unsigned word = 0; word < kConfigWords; ++word) valid.push_back(config_word_name(word));
      std::string hint = "valid words: config, config1, config2, config3, config4";
      if (auto suggestion = nearest_name(name, valid)) {
        hint = fmt::format("did you mean '{}'?", *suggestion);
      }
      return unexpected(argument_error(DiagId::decode_unknown_word, kWhat, argument, 0, name.size(),
                                       fmt::format("unknown config word '{}'", name), hint));
    }
    if (equals == std::string::npos) {
      return unexpected(argument_error(DiagId::decode_missing_value, kWhat, argument,
                                       argument.size(), 0,
                                       fmt::format("missing '=VALUE' after '{}'", name)));
    }
    if (seen[*index]) {
      return unexpected(argument_error(DiagId::decode_repeated_word, kWhat, argument, 0,
                                       name.size(), fmt::format("'{}' is given twice", name)));
    }
    seen[*index] = true;
    auto value = parse_value(argument, equals + 1);
    if (!value) return unexpected(value.error());
    words[*index] = *value;
  }
  return words;
}

std::string render_decoded(const Pmu& pmu, const ConfigWords& words, const Decoded& decoded) {
  std::string out = perf_form(pmu, decoded) + '\n';
  TextTable table({TextTable::Align::left, TextTable::Align::left, TextTable::Align::left});
  table.add_row({"words", words_text(words)});
  for (const DecodedTerm& term : decoded.terms) {
    const Format* format = pmu.find_format(term.name);
    table.add_row({term.name, fmt::format("{:#x}", term.value),
                   format != nullptr ? to_string(format->spec) : std::string()});
  }
  for (unsigned word = 0; word < decoded.residue.size(); ++word) {
    if (decoded.residue[word] != 0) {
      table.add_row({"unknown bits",
                     fmt::format("{}={:#x}", config_word_name(word), decoded.residue[word]),
                     "no format covers them"});
    }
  }
  std::string events;
  for (const std::string& name : decoded.events) {
    if (!events.empty()) events += ' ';
    events += fmt::format("{}/{}/", pmu.name(), name);
  }
  table.add_row({"events", events.empty() ? std::string("(none)") : events});
  out += table.render("  ");
  return out;
}

Json decoded_to_json(const Pmu& pmu, const ConfigWords& words, const Decoded& decoded) {
  Json out = Json::object();
  out["pmu"] = pmu.name();
  out["type"] = pmu.type() ? Json(*pmu.type()) : Json(nullptr);
  for (unsigned word = 0; word < shown_config_words(words); ++word) {
    out[config_word_name(word)] = words[word];
  }
  Json terms = Json::array();
  for (const DecodedTerm& term : decoded.terms) {
    Json item = Json::object();
    item["name"] = term.name;
    item["value"] = term.value;
    terms.push_back(std::move(item));
  }
  out["terms"] = std::move(terms);
  Json residue = Json::object();
  for (unsigned word = 0; word < shown_config_words(decoded.residue); ++word) {
    residue[config_word_name(word)] = decoded.residue[word];
  }
  out["residue"] = std::move(residue);
  out["events"] = decoded.events;
  out["perf"] = perf_form(pmu, decoded);
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE

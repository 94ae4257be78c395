// A diagnostic as JSON: the one encoding every tool's --json output and pmucheck's findings use
// (docs/schema/*.schema.json). A template over the JSON type, so this header needs no JSON
// library: the code that calls it (the check module and the tools) brings nlohmann_json.
#pragma once

#include <string>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// {"severity", "id", "file", "line", "column", "length", "message", then "source_line", "hint"
// and "fixit" {"line", "column", "length", "replacement"} when the diagnostic has them}. `file`
// is the path the diagnostic names; line and column are 0 for a whole-file problem. Json is
// nlohmann::ordered_json (keys in this order) or nlohmann::json (keys sorted).
template <typename Json>
Json diagnostic_to_json(const Diagnostic& diagnostic) {
  Json out = Json::object();
  out["severity"] = std::string(to_string(diagnostic.severity));
  out["id"] = diagnostic.id;
  out["file"] = diagnostic.range.file;
  out["line"] = diagnostic.range.line;
  out["column"] = diagnostic.range.column;
  out["length"] = diagnostic.range.length;
  out["message"] = diagnostic.message;
  if (!diagnostic.source_line.empty()) out["source_line"] = diagnostic.source_line;
  if (!diagnostic.hint.empty()) out["hint"] = diagnostic.hint;
  if (diagnostic.fixit) {
    out["fixit"] = {{"line", diagnostic.fixit->range.line},
                    {"column", diagnostic.fixit->range.column},
                    {"length", diagnostic.fixit->range.length},
                    {"replacement", diagnostic.fixit->replacement}};
  }
  return out;
}

PMUCAT_END_NAMESPACE

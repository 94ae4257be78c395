// perf_event_attr config words -> the terms and catalog events that produce them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

struct DecodedTerm {
  std::string name;         // format name
  std::uint64_t value = 0;  // the logical (gathered) value
  friend bool operator==(const DecodedTerm&, const DecodedTerm&) = default;
};

struct Decoded {
  // Non-zero fields in format order (config word, then lowest bit, then name). Where formats
  // overlap (aliases such as hv_24x7 core/chip/vcpu) each bit is claimed by the first format in
  // that order that owns it.
  std::vector<DecodedTerm> terms;
  // Bits set in a word that no format covers, per word (config..config4).
  ConfigWords residue{};
  // Names of events whose encoding equals the words exactly (events with `?` parameters match
  // when every non-parameter bit matches).
  std::vector<std::string> events;
  // `event=0x3c,umask=0x1[,config=0x...]`: re-encodes to the same words on this PMU.
  std::string terms_string;
  friend bool operator==(const Decoded&, const Decoded&) = default;
};

Decoded decode(const Pmu& pmu, const ConfigWords& config);

PMUCAT_END_NAMESPACE

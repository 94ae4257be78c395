#include "pmu_events_index/digest.h"

#include <cstring>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events_index {
namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

std::uint64_t rotate_left(std::uint64_t value, int bits) {
  return (value << bits) | (value >> (64 - bits));
}

// Little-endian loads, whatever the host's order (the digest is part of the file format).
std::uint64_t load64(const unsigned char* at) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | at[i];
  return value;
}

std::uint64_t load32(const unsigned char* at) {
  std::uint64_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | at[i];
  return value;
}

std::uint64_t accumulate(std::uint64_t lane, std::uint64_t input) {
  lane += input * kPrime2;
  return rotate_left(lane, 31) * kPrime1;
}

std::uint64_t merge(std::uint64_t hash, std::uint64_t lane) {
  hash ^= accumulate(0, lane);
  return hash * kPrime1 + kPrime4;
}

}  // namespace

std::uint64_t digest64(std::string_view bytes) {
  const auto* at = reinterpret_cast<const unsigned char*>(bytes.data());
  const unsigned char* const end = at + bytes.size();
  std::uint64_t hash = 0;
  if (bytes.size() >= 32) {
    // Four independent lanes over 32-byte stripes: the loop the compiler keeps in registers.
    std::uint64_t lanes[4] = {kPrime1 + kPrime2, kPrime2, 0, 0 - kPrime1};
    for (; end - at >= 32; at += 32) {
      for (int i = 0; i < 4; ++i) lanes[i] = accumulate(lanes[i], load64(at + 8 * i));
    }
    hash = rotate_left(lanes[0], 1) + rotate_left(lanes[1], 7) + rotate_left(lanes[2], 12) +
           rotate_left(lanes[3], 18);
    for (std::uint64_t lane : lanes) hash = merge(hash, lane);
  } else {
    hash = kPrime5;
  }
  hash += bytes.size();
  for (; end - at >= 8; at += 8) {
    hash ^= accumulate(0, load64(at));
    hash = rotate_left(hash, 27) * kPrime1 + kPrime4;
  }
  if (end - at >= 4) {
    hash ^= load32(at) * kPrime1;
    hash = rotate_left(hash, 23) * kPrime2 + kPrime3;
    at += 4;
  }
  for (; at < end; ++at) {
    hash ^= *at * kPrime5;
    hash = rotate_left(hash, 11) * kPrime1;
  }
  hash ^= hash >> 33;
  hash *= kPrime2;
  hash ^= hash >> 29;
  hash *= kPrime3;
  hash ^= hash >> 32;
  return hash;
}

}  // namespace pmu_events_index
PMUCAT_END_NAMESPACE

// The hwmon devices the hwmon tests give pmucat and perf alike: scripts/hwmon-oracle.sh's default
// layout (docs/hwmon.md), as a table of files.
#pragma once

#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

struct HwmonFile {
  const char* device;  // its class/hwmon link (`hwmon0`)
  const char* name;
  const char* text;
};

inline const std::vector<HwmonFile>& hwmon_default_layout() {
  static const std::vector<HwmonFile> files = {
      {"hwmon0", "name", "k10temp\n"},
      {"hwmon0", "temp1_input", "45125\n"},
      {"hwmon0", "temp1_label", "Tctl\n"},
      {"hwmon0", "temp1_max", "70000\n"},
      {"hwmon0", "temp1_crit", "100000\n"},
      {"hwmon0", "temp1_crit_alarm", "0\n"},
      {"hwmon0", "temp2_input", "40000\n"},
      {"hwmon0", "temp3_label", "Tccd9\n"},
      {"hwmon0", "temp4_max", "1000\n"},
      {"hwmon0", "fan1_input", "1200\n"},
      {"hwmon0", "fan1_min", "300\n"},
      {"hwmon0", "in0_input", "1100\n"},
      {"hwmon0", "in0_label", "Vcore\n"},
      {"hwmon0", "power1_input", "12500000\n"},
      {"hwmon0", "power1_label", "PPT\n"},
      {"hwmon0", "curr1_input", "2500\n"},
      {"hwmon0", "energy1_input", "123456789\n"},
      {"hwmon0", "humidity1_input", "45000\n"},
      {"hwmon0", "pwm1", "128\n"},
      {"hwmon0", "pwm2_input", "64\n"},
      {"hwmon0", "intrusion0_alarm", "0\n"},
      {"hwmon0", "intrusion1_input", "1\n"},
      {"hwmon0", "cpu0_vid", "1200\n"},
      {"hwmon0", "cpu1_input", "900\n"},
      {"hwmon0", "update_interval", "1000\n"},
      {"hwmon1", "name", "nvme\n"},
      {"hwmon1", "temp1_input", "35000\n"},
      {"hwmon1", "temp1_label", "Composite\n"},
  };
  return files;
}

}  // namespace testing
PMUCAT_END_NAMESPACE

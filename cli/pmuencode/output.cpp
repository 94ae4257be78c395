#include "pmuencode/output.h"

#include <fmt/core.h>

#include <algorithm>

#include "common/attr_fields.h"
#include "pmucat/attr.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr std::string_view kDashes =
    "------------------------------------------------------------\n";

std::string c_value(const AttrField& field) {
  switch (field.style) {
    case FieldStyle::hex:
      return fmt::format("{:#x}ULL", field.value);
    case FieldStyle::flag:
      return "1";
    case FieldStyle::signed_decimal:
      return std::to_string(static_cast<std::int64_t>(field.value));
    case FieldStyle::decimal:
      break;
  }
  return std::to_string(field.value);
}

std::string c_comment_for(const AttrField& field) {
  switch (field.names) {
    case AttrField::Names::sample_type:
      return " /* " + sample_type_names(field.value) + " */";
    case AttrField::Names::read_format:
      return " /* " + read_format_names(field.value) + " */";
    case AttrField::Names::branch_sample_type:
      return " /* " + branch_sample_type_names(field.value) + " */";
    case AttrField::Names::none:
      break;
  }
  return {};
}

// `*/` inside a spec would end the comment early.
std::string comment_safe(std::string text) {
  for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at)) {
    text.replace(at, 2, "* /");
  }
  return text;
}

std::string c_body(const EncodedEvent& event, std::string_view indent) {
  std::string out;
  for (const AttrField& field : set_attr_fields(event.attr)) {
    if (field.name == "size") {
      // The running kernel's headers know their own size; the library's ABI size may differ.
      out += fmt::format("{}.size = sizeof(struct perf_event_attr),\n", indent);
      continue;
    }
    out += fmt::format("{}.{} = {},{}\n", indent, field.name, c_value(field), c_comment_for(field));
    if (field.name == "config3") {
      out += fmt::format("{}/* config3 needs <linux/perf_event.h> from Linux 6.3 or later */\n",
                         indent);
    }
    if (field.name == "config4") {
      out += fmt::format("{}/* config4 needs <linux/perf_event.h> with PERF_ATTR_SIZE_VER9 */\n",
                         indent);
    }
  }
  return out;
}

// perf's group syntax around the members' canonical strings: `name{a,b}:mods`.
std::string group_perf_string(std::span<const EncodedEvent> events, std::size_t leader) {
  const EncodedEvent& first = events[leader];
  std::string out = first.group_name + "{";
  bool comma = false;
  for (const EncodedEvent& member : events) {
    if (member.group_leader != leader) continue;
    if (comma) out += ',';
    out += member.perf_string;
    comma = true;
  }
  out += '}';
  if (!first.group_modifiers.empty()) out += ":" + first.group_modifiers;
  return out;
}

// "group: leader of name{...}" / "group: member #N, leader #L": numbered from `begin`, the
// first event of the list shown, while group leaders index the whole of `events`.
std::string group_line(std::span<const EncodedEvent> events, std::size_t index, std::size_t begin) {
  const EncodedEvent& event = events[index];
  if (!event.group_leader || *event.group_leader >= events.size()) return {};
  const std::size_t leader = *event.group_leader;
  if (leader == index) {
    return fmt::format("group: leader of {}\n", group_perf_string(events, leader));
  }
  if (leader < begin) {
    return fmt::format("group: member #{}, leader {}\n", index - begin, events[leader].perf_string);
  }
  return fmt::format("group: member #{}, leader #{} ({})\n", index - begin, leader - begin,
                     events[leader].perf_string);
}

}  // namespace

std::string render_attr_dumps(std::span<const EncodedEvent> events) {
  return render_attr_dumps(events, 0, events.size());
}

std::string render_attr_dumps(std::span<const EncodedEvent> events, std::size_t begin,
                              std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < std::min(end, events.size()); ++i) {
    const EncodedEvent& event = events[i];
    if (!out.empty()) out += '\n';
    out += kDashes;
    out += dump_attr(event.attr);  // starts with perf's "perf_event_attr:" line
    out += kDashes;
    out += event.perf_string;
    out += '\n';
    out += group_line(events, i, begin);
  }
  return out;
}

std::string render_perf_strings(std::span<const EncodedEvent> events) {
  std::string out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EncodedEvent& event = events[i];
    if (!event.group_leader) {
      out += event.perf_string;
    } else if (*event.group_leader == i) {
      out += group_perf_string(events, i);  // members print inside their leader's braces
    } else {
      continue;
    }
    out += '\n';
  }
  return out;
}

std::string render_c_initializer(std::span<const EncodedEvent> events) {
  std::string out = "#include <linux/perf_event.h>\n\n";
  if (events.size() == 1) {
    out += fmt::format("/* {} */\n", comment_safe(events.front().perf_string));
    out += "struct perf_event_attr attr = {\n";
    out += c_body(events.front(), "\t");
    out += "};\n";
    return out;
  }
  out += "struct perf_event_attr attrs[] = {\n";
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EncodedEvent& event = events[i];
    out += fmt::format("\t/* {} */\n", comment_safe(event.perf_string));
    if (event.group_leader) {
      out += *event.group_leader == i ? "\t/* group leader: open first, group_fd -1 */\n"
                                      : fmt::format("\t/* group member: group_fd of attrs[{}] */\n",
                                                    *event.group_leader);
    }
    out += "\t{\n";
    out += c_body(event, "\t\t");
    out += "\t},\n";
  }
  out += "};\n";
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE

#include "common/attr_fields.h"

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

class FieldList {
 public:
  explicit FieldList(bool with_config) : with_config_(with_config) {}

  void always(std::string_view name, std::uint64_t value, FieldStyle style) {
    fields_.push_back({name, value, style});
  }
  void number(std::string_view name, std::uint64_t value, FieldStyle style = FieldStyle::decimal,
              AttrField::Names names = AttrField::Names::none) {
    if (value != 0) fields_.push_back({name, value, style, names});
  }
  void config(std::string_view name, std::uint64_t value) {
    if (with_config_) number(name, value, FieldStyle::hex);
  }
  void flag(std::string_view name, bool value) {
    if (value) fields_.push_back({name, 1, FieldStyle::flag});
  }
  std::vector<AttrField> take() { return std::move(fields_); }

 private:
  bool with_config_;
  std::vector<AttrField> fields_;
};

}  // namespace

bool is_config_word(std::string_view field_name) {
  return field_name == "config" || field_name == "config1" || field_name == "config2" ||
         field_name == "config3" || field_name == "config4";
}

std::vector<AttrField> set_attr_fields(const Attr& attr, bool with_config) {
  FieldList list(with_config);
  list.always("type", attr.type, FieldStyle::decimal);
  list.always("size", attr.size, FieldStyle::decimal);
  list.config("config", attr.config[0]);
  if (attr.freq) {
    list.number("sample_freq", attr.sample_freq);
  } else {
    list.number("sample_period", attr.sample_period);
  }
  list.number("sample_type", attr.sample_type, FieldStyle::hex, AttrField::Names::sample_type);
  list.number("read_format", attr.read_format, FieldStyle::hex, AttrField::Names::read_format);
  list.flag("disabled", attr.disabled);
  list.flag("inherit", attr.inherit);
  list.flag("pinned", attr.pinned);
  list.flag("exclusive", attr.exclusive);
  list.flag("exclude_user", attr.exclude_user);
  list.flag("exclude_kernel", attr.exclude_kernel);
  list.flag("exclude_hv", attr.exclude_hv);
  list.flag("exclude_idle", attr.exclude_idle);
  list.flag("mmap", attr.mmap);
  list.flag("comm", attr.comm);
  list.flag("freq", attr.freq);
  list.flag("inherit_stat", attr.inherit_stat);
  list.flag("enable_on_exec", attr.enable_on_exec);
  list.flag("task", attr.task);
  list.flag("watermark", attr.watermark);
  list.number("precise_ip", attr.precise_ip);
  list.flag("mmap_data", attr.mmap_data);
  list.flag("sample_id_all", attr.sample_id_all);
  list.flag("exclude_host", attr.exclude_host);
  list.flag("exclude_guest", attr.exclude_guest);
  list.flag("exclude_callchain_kernel", attr.exclude_callchain_kernel);
  list.flag("exclude_callchain_user", attr.exclude_callchain_user);
  list.flag("mmap2", attr.mmap2);
  list.flag("comm_exec", attr.comm_exec);
  list.flag("use_clockid", attr.use_clockid);
  list.flag("context_switch", attr.context_switch);
  list.flag("write_backward", attr.write_backward);
  list.flag("namespaces", attr.namespaces);
  list.flag("ksymbol", attr.ksymbol);
  list.flag("bpf_event", attr.bpf_event);
  list.flag("aux_output", attr.aux_output);
  list.flag("cgroup", attr.cgroup);
  list.flag("text_poke", attr.text_poke);
  list.flag("build_id", attr.build_id);
  list.flag("inherit_thread", attr.inherit_thread);
  list.flag("remove_on_exec", attr.remove_on_exec);
  list.flag("sigtrap", attr.sigtrap);
  if (attr.watermark) {
    list.number("wakeup_watermark", attr.wakeup_watermark);
  } else {
    list.number("wakeup_events", attr.wakeup_events);
  }
  list.number("bp_type", attr.bp_type);
  list.config("config1", attr.config[1]);
  list.config("config2", attr.config[2]);
  list.number("branch_sample_type", attr.branch_sample_type, FieldStyle::hex,
              AttrField::Names::branch_sample_type);
  list.number("sample_regs_user", attr.sample_regs_user, FieldStyle::hex);
  list.number("sample_stack_user", attr.sample_stack_user);
  // clockid is signed; its bits travel in the unsigned value.
  list.number("clockid", static_cast<std::uint64_t>(static_cast<std::int64_t>(attr.clockid)),
              FieldStyle::signed_decimal);
  list.number("sample_regs_intr", attr.sample_regs_intr, FieldStyle::hex);
  list.number("aux_watermark", attr.aux_watermark);
  list.number("sample_max_stack", attr.sample_max_stack);
  list.number("aux_sample_size", attr.aux_sample_size);
  list.number("sig_data", attr.sig_data, FieldStyle::hex);
  list.config("config3", attr.config[3]);
  list.config("config4", attr.config[4]);
  return list.take();
}

}  // namespace cli
PMUCAT_END_NAMESPACE

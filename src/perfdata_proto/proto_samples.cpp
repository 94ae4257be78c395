// SAMPLE records <-> quipper's SampleEvent (see proto_records.h).
#include <bit>

#include "perfdata/bytes.h"
#include "perfdata_proto/proto_records.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {
namespace {

using Proto = quipper::PerfDataProto;

std::vector<std::byte> to_bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

}  // namespace

namespace {

// REGS_USER / REGS_INTR: the ABI word, then one word per bit of `mask` unless the ABI is 0.
template <typename Out>
bool read_regs(ByteReader& in, std::uint64_t mask, std::uint64_t& abi, Out* regs) {
  const auto a = in.read<std::uint64_t>();
  if (!a) return false;
  abi = *a;
  if (abi == 0) return true;
  for (int k = std::popcount(mask); k > 0; --k) {
    const auto v = in.read<std::uint64_t>();
    if (!v) return false;
    regs->Add(*v);
  }
  return true;
}

}  // namespace

bool sample_fields_round_trip(const SampleFields& s, const Attr& attr) {
  const std::uint64_t t = attr.sample_type;
  // AUX data has no field: the typed sample drops it.
  if (t & sample::aux) return false;
  // One id field in the schema for two words.
  if ((t & sample::id) && (t & sample::identifier) && s.id != s.identifier) return false;
  // CPU's second word has no field.
  if ((t & sample::cpu) && s.cpu_reserved != 0) return false;
  // RAW is written back padded so that its u32 size and data end 8-aligned.
  if ((t & sample::raw) && (s.raw.size() + 4) % 8 != 0) return false;
  // Branch flags past spec (bit 25) have no field.
  if (t & sample::branch_stack) {
    const std::size_t first = (attr.branch_sample_type & branch::hw_index) ? 1 : 0;
    for (std::size_t i = first + 2; i < s.branch_stack.size(); i += 3) {
      if (s.branch_stack[i] >> 26 != 0) return false;
    }
  }
  // Every other field of the layout is a whole word (or two u32) the SampleEvent keeps, and
  // sample_to_proto accepts the fields after BRANCH_STACK only when they fill the payload.
  return true;
}

bool sample_to_proto(std::span<const std::byte> payload, const Attr& attr, Proto::SampleEvent& out,
                     std::uint64_t& timestamp, bool& exact) {
  const auto s = decode_sample(payload, attr);
  if (!s) return false;
  const std::uint64_t t = attr.sample_type;
  exact = sample_fields_round_trip(*s, attr);
  if (t & sample::ip) out.set_ip(s->ip);
  if (t & sample::tid) out.set_pid(s->pid), out.set_tid(s->tid);
  if (t & sample::time) out.set_sample_time_ns(s->time), timestamp = s->time;
  if (t & sample::addr) out.set_addr(s->addr);
  if (t & sample::id) out.set_id(s->id);
  if (t & sample::identifier) out.set_id(s->identifier);
  if (t & sample::stream_id) out.set_stream_id(s->stream_id);
  if (t & sample::cpu) out.set_cpu(s->cpu);
  if (t & sample::period) out.set_period(s->period);
  if (t & sample::read) {
    auto& info = *out.mutable_read_info();
    const auto& w = s->read_values;
    std::size_t i = 0;
    const std::uint64_t f = attr.read_format;
    const bool group = f & read_fmt::group;
    const std::uint64_t nr = group ? w[i++] : 1;
    auto next = [&]() { return i < w.size() ? w[i++] : 0; };
    if (!group) {
      auto* v = info.add_read_value();
      v->set_value(next());
    }
    if (f & read_fmt::total_time_enabled) info.set_time_enabled(next());
    if (f & read_fmt::total_time_running) info.set_time_running(next());
    for (std::uint64_t k = 0; k < nr; ++k) {
      auto* v = group ? info.add_read_value() : info.mutable_read_value(0);
      if (group) v->set_value(next());
      if (f & read_fmt::id) v->set_id(next());
      if (f & read_fmt::lost) v->set_lost(next());
    }
  }
  if (t & sample::callchain) {
    out.mutable_callchain()->Add(s->callchain.begin(), s->callchain.end());
  }
  if (t & sample::raw) {
    out.set_raw_size(static_cast<std::uint32_t>(s->raw.size()));
    out.set_raw(std::string(reinterpret_cast<const char*>(s->raw.data()), s->raw.size()));
  }
  if (t & sample::branch_stack) {
    std::size_t i = 0;
    if (attr.branch_sample_type & branch::hw_index) {
      out.set_branch_stack_hw_idx(s->branch_stack[i++]);
    } else {
      out.set_no_hw_idx(true);
    }
    for (std::uint64_t k = 0; k < s->branch_nr; ++k) {
      auto* e = out.add_branch_stack();
      e->set_from_ip(s->branch_stack[i++]);
      e->set_to_ip(s->branch_stack[i++]);
      const std::uint64_t flags = s->branch_stack[i++];
      e->set_mispredicted(flags & 1);
      e->set_predicted((flags >> 1) & 1);
      e->set_in_transaction((flags >> 2) & 1);
      e->set_abort((flags >> 3) & 1);
      e->set_cycles(static_cast<std::uint32_t>((flags >> 4) & 0xffff));
      e->set_type(static_cast<std::uint32_t>((flags >> 20) & 0xf));
      e->set_spec(static_cast<std::uint32_t>((flags >> 24) & 0x3));
    }
  }
  ByteReader rest(s->rest, false);
  auto field = [&](std::uint64_t bit, auto setter) {
    if (!(t & bit)) return true;
    const auto v = rest.read<std::uint64_t>();
    if (!v) return false;
    setter(*v);
    return true;
  };
  if (t & sample::regs_user) {
    std::uint64_t abi = 0;
    if (!read_regs(rest, attr.sample_regs_user, abi, out.mutable_pmucat_regs_user())) return false;
    out.set_pmucat_regs_user_abi(abi);
  }
  if (t & sample::stack_user) {
    const auto size = rest.read<std::uint64_t>();
    if (!size || *size % 8 != 0) return false;
    if (*size != 0) {
      const auto data = rest.take(*size);
      if (!data) return false;
      out.set_pmucat_stack_user(reinterpret_cast<const char*>(data->data()), data->size());
      const auto dyn_size = rest.read<std::uint64_t>();
      if (!dyn_size) return false;
      out.set_pmucat_stack_user_dyn_size(*dyn_size);
    } else {
      out.set_pmucat_stack_user("");
    }
  }
  const bool ok =
      field(sample::weight, [&](std::uint64_t v) { out.set_weight(v); }) &&
      field(sample::weight_struct,
            [&](std::uint64_t v) {
              auto* w = out.mutable_weight_struct();
              w->set_var1_dw(static_cast<std::uint32_t>(v));
              w->set_var2_w(static_cast<std::uint32_t>((v >> 32) & 0xffff));
              w->set_var3_w(static_cast<std::uint32_t>(v >> 48));
            }) &&
      field(sample::data_src, [&](std::uint64_t v) { out.set_data_src(v); }) &&
      field(sample::transaction, [&](std::uint64_t v) { out.set_transaction(v); }) &&
      (!(t & sample::regs_intr) ||
       [&] {
         std::uint64_t abi = 0;
         if (!read_regs(rest, attr.sample_regs_intr, abi, out.mutable_pmucat_regs_intr())) {
           return false;
         }
         out.set_pmucat_regs_intr_abi(abi);
         return true;
       }()) &&
      field(sample::phys_addr, [&](std::uint64_t v) { out.set_physical_addr(v); }) &&
      field(sample::cgroup, [&](std::uint64_t v) { out.set_cgroup(v); }) &&
      field(sample::data_page_size, [&](std::uint64_t v) { out.set_data_page_size(v); }) &&
      field(sample::code_page_size, [&](std::uint64_t v) { out.set_code_page_size(v); });
  // AUX data has no field in either schema: the sample is typed without it, and the raw
  // record beside it (the round trip check fails) keeps it.
  if (ok && (t & sample::aux)) {
    const auto size = rest.read<std::uint64_t>();
    return size && rest.skip(*size) && rest.at_end();
  }
  return ok && rest.at_end();
}

std::vector<std::byte> sample_from_proto(const Proto::SampleEvent& in, const Attr& attr) {
  SampleFields s;
  const std::uint64_t t = attr.sample_type;
  s.ip = in.ip();
  s.pid = in.pid();
  s.tid = in.tid();
  s.time = in.sample_time_ns();
  s.addr = in.addr();
  s.id = s.identifier = in.id();
  s.stream_id = in.stream_id();
  s.cpu = in.cpu();
  s.period = in.period();
  if (t & sample::read) {
    const auto& info = in.read_info();
    const std::uint64_t f = attr.read_format;
    const bool group = f & read_fmt::group;
    if (group) s.read_values.push_back(static_cast<std::uint64_t>(info.read_value_size()));
    if (!group) s.read_values.push_back(info.read_value_size() ? info.read_value(0).value() : 0);
    if (f & read_fmt::total_time_enabled) s.read_values.push_back(info.time_enabled());
    if (f & read_fmt::total_time_running) s.read_values.push_back(info.time_running());
    for (int k = 0; k < (group ? info.read_value_size() : 1); ++k) {
      const auto v = k < info.read_value_size() ? info.read_value(k) : Proto::ReadInfo::ReadValue();
      if (group) s.read_values.push_back(v.value());
      if (f & read_fmt::id) s.read_values.push_back(v.id());
      if (f & read_fmt::lost) s.read_values.push_back(v.lost());
    }
  }
  s.callchain.assign(in.callchain().begin(), in.callchain().end());
  s.raw = to_bytes_of(in.raw());
  if (t & sample::branch_stack) {
    s.branch_nr = static_cast<std::uint64_t>(in.branch_stack_size());
    if (attr.branch_sample_type & branch::hw_index)
      s.branch_stack.push_back(in.branch_stack_hw_idx());
    for (const auto& e : in.branch_stack()) {
      const std::uint64_t flags =
          std::uint64_t{e.mispredicted()} | std::uint64_t{e.predicted()} << 1 |
          std::uint64_t{e.in_transaction()} << 2 | std::uint64_t{e.abort()} << 3 |
          std::uint64_t{e.cycles() & 0xffffu} << 4 | std::uint64_t{e.type() & 0xfu} << 20 |
          std::uint64_t{e.spec() & 0x3u} << 24;
      s.branch_stack.insert(s.branch_stack.end(), {e.from_ip(), e.to_ip(), flags});
    }
  }
  ByteWriter rest;
  if (t & sample::regs_user) {
    rest.put(in.pmucat_regs_user_abi());
    for (auto v : in.pmucat_regs_user()) rest.put(v);
  }
  if (t & sample::stack_user) {
    const auto& stack = in.pmucat_stack_user();
    rest.put(std::uint64_t{stack.size()});
    if (!stack.empty()) {
      rest.put_bytes(to_bytes_of(stack));
      rest.put(in.pmucat_stack_user_dyn_size());
    }
  }
  if (t & sample::weight) rest.put(in.weight());
  if (t & sample::weight_struct) {
    const auto& w = in.weight_struct();
    rest.put(std::uint64_t{w.var1_dw()} | std::uint64_t{w.var2_w() & 0xffffu} << 32 |
             std::uint64_t{w.var3_w() & 0xffffu} << 48);
  }
  if (t & sample::data_src) rest.put(in.data_src());
  if (t & sample::transaction) rest.put(in.transaction());
  if (t & sample::regs_intr) {
    rest.put(in.pmucat_regs_intr_abi());
    for (auto v : in.pmucat_regs_intr()) rest.put(v);
  }
  if (t & sample::phys_addr) rest.put(in.physical_addr());
  if (t & sample::cgroup) rest.put(in.cgroup());
  if (t & sample::data_page_size) rest.put(in.data_page_size());
  if (t & sample::code_page_size) rest.put(in.code_page_size());
  if (t & sample::aux) rest.put(std::uint64_t{0});  // no AUX data in the schema
  s.rest = rest.take();
  return encode_sample(s, attr);
}

}  // namespace perfdata
PMUCAT_END_NAMESPACE

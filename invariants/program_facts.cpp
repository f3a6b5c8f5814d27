// Program facts for the transaction graph (program_facts.hpp, DESIGN.md §B5 step 1): one scan of
// every instruction's expressions for the objects it accesses and the addresses it takes, and a
// forward data-flow pass per thread for the pcs that may run outside an atomic section.
#include "invariants/program_facts.hpp"

#include "ir/cfg.hpp"

#include <deque>

namespace siren::invariants::detail {

Facts::Facts(const ir::ThreadModel& tm) : tm_(tm) {
  escaped_.assign(tm.objects.size(), false);
  for (const auto& o : tm.objects) {
    if (o.kind == ir::ObjectKind::Heap) escaped_[o.id] = true;
    for (const auto& c : o.cells)
      if (c.init_obj != 0 && c.init_obj < escaped_.size()) escaped_[c.init_obj] = true;
  }
  facts_.resize(tm.threads.size());
  for (std::size_t t = 0; t < tm.threads.size(); ++t) {
    const auto& code = tm.threads[t].code;
    facts_[t].resize(code.size());
    for (std::size_t pc = 0; pc < code.size(); ++pc) facts_[t][pc] = scan_instr(code[pc]);
    // may-be-outside-atomic per pc
    std::vector<std::uint8_t> st(code.size(), 0);  // bit 1: outside possible, bit 2: inside possible
    std::deque<std::uint32_t> work;
    if (!code.empty()) {
      st[0] = 1;
      work.push_back(0);
    }
    while (!work.empty()) {
      const std::uint32_t pc = work.front();
      work.pop_front();
      const Instr& in = code[pc];
      std::uint8_t out = st[pc];
      if (in.kind == InstrKind::AtomicBegin) out = 2;
      if (in.kind == InstrKind::AtomicEnd) out = 1;
      auto push = [&](std::uint32_t n) {
        if (n >= code.size()) return;
        if ((st[n] | out) != st[n]) {
          st[n] |= out;
          work.push_back(n);
        }
      };
      // The thread's code ends at ThreadExit; an always-taken goto does not fall through.
      for (std::uint32_t n : ir::successors(code, pc, {.exit_to_end = false, .include_end = false})) push(n);
    }
    outside_.push_back(std::vector<bool>(code.size()));
    for (std::size_t pc = 0; pc < code.size(); ++pc) outside_.back()[pc] = (st[pc] & 1) || st[pc] == 0;
  }
}

void Facts::scan(ExprRef e, bool direct_addr, InstrFacts& f) {
  if (!e) return;
  if (e->op == Op::ObjAddr) {
    if (!direct_addr && e->obj < escaped_.size()) escaped_[e->obj] = true;
    return;
  }
  if (e->op == Op::Load) {
    const ExprRef p = e->kids[0];
    f.objects.push_back(p->op == Op::ObjAddr ? p->obj : kAnyObject);
    scan(p, true, f);
    return;
  }
  if (e->op == Op::ValidPtr) f.inherently_visible = true;
  for (ExprRef k : e->kids) scan(k, false, f);
}

void Facts::access(ExprRef p, InstrFacts& f, bool write) {
  if (!p) return;
  if (p->op == Op::ObjAddr) {
    f.objects.push_back(p->obj);
    if (write) f.written.push_back(p->obj);
    return;
  }
  if (p->is_const()) return;  // null
  f.objects.push_back(kAnyObject);
  if (write) f.written.push_back(kAnyObject);
  scan(p, false, f);
}

InstrFacts Facts::scan_instr(const Instr& in) {
  InstrFacts f;
  switch (in.kind) {
    case InstrKind::Store:
      access(in.a, f, true);
      scan(in.b, false, f);
      break;
    case InstrKind::ThreadCreate:
      f.inherently_visible = true;
      access(in.a, f, true);
      scan(in.b, false, f);
      break;
    case InstrKind::ThreadJoin:
      f.inherently_visible = true;
      scan(in.a, false, f);
      access(in.b, f, true);
      break;
    case InstrKind::ThreadExit: case InstrKind::Abort: case InstrKind::AtomicBegin: case InstrKind::AtomicEnd:
    case InstrKind::Malloc: case InstrKind::Free:
      f.inherently_visible = true;
      scan(in.a, false, f);
      scan(in.b, false, f);
      break;
    default:
      if (ir::sync_address_operand(in.kind)) {
        f.inherently_visible = true;
        access(in.a, f, true);
        scan(in.b, false, f);
      } else {
        scan(in.a, false, f);
        scan(in.b, false, f);
      }
      for (ExprRef x : in.args) scan(x, false, f);
  }
  return f;
}

}  // namespace siren::invariants::detail

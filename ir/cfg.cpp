// The successor rule and the step classes of ir/cfg.hpp.
#include "ir/cfg.hpp"

namespace siren::ir {

bool always_taken(const Instr& in) {
  return in.kind == InstrKind::Goto && (!in.a || (in.a->is_const() && in.a->value != 0));
}

std::vector<std::uint32_t> successors(const std::vector<Instr>& code, std::uint32_t pc, const SuccessorRule& rule) {
  const auto end = static_cast<std::uint32_t>(code.size());
  const Instr& in = code[pc];
  std::vector<std::uint32_t> out;
  auto add = [&](std::uint32_t v) {
    if (v < end || (rule.include_end && v == end)) out.push_back(v);
  };
  switch (in.kind) {
    case InstrKind::Abort: return out;
    case InstrKind::ThreadExit:
      if (rule.exit_to_end) add(end);
      return out;
    case InstrKind::Goto:
      add(in.target);
      if (rule.taken_goto_falls_through || !always_taken(in)) add(pc + 1);
      return out;
    case InstrKind::Assert:
      if (!(rule.failing_assert_ends && in.a && in.a->is_const() && in.a->value == 0)) add(pc + 1);
      return out;
    default: add(pc + 1); return out;
  }
}

StepClass step_class(InstrKind k) {
  switch (k) {
    case InstrKind::Assign: case InstrKind::Store: case InstrKind::Goto: case InstrKind::Assert:
    case InstrKind::Havoc: case InstrKind::Skip:
      return StepClass::Data;
    case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::Unlock: case InstrKind::RdLock:
    case InstrKind::WrLock: case InstrKind::RwUnlock: case InstrKind::CondWait: case InstrKind::CondSignal:
    case InstrKind::CondBroadcast:
      return StepClass::SyncObject;
    case InstrKind::ThreadCreate: case InstrKind::ThreadJoin: case InstrKind::ThreadExit:
      return StepClass::Thread;
    case InstrKind::AtomicBegin: case InstrKind::AtomicEnd:
      return StepClass::Atomic;
    case InstrKind::Assume: case InstrKind::Abort: case InstrKind::Malloc: case InstrKind::Free:
    case InstrKind::Call: case InstrKind::Return:
      return StepClass::Control;
  }
  return StepClass::Control;
}

}  // namespace siren::ir

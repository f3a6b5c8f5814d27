// The concrete interpreter (ir/interpreter.hpp): docs/semantics.md, executed literally.
#include "ir/interpreter.hpp"

#include "ir/arith.hpp"
#include "ir/printer.hpp"

#include <cassert>

namespace siren::ir {

namespace {

constexpr Type kI64 = Type::integer(64, true);

std::uint64_t mask_of(unsigned w) { return w >= 64 ? ~0ULL : ((1ULL << w) - 1); }
std::int64_t sext_width(unsigned w, std::uint64_t v) { return as_signed(Type::integer(w, true), v); }

}  // namespace

Interpreter::Interpreter(const ThreadModel& tm) : tm_(tm) {}

Value Interpreter::convert(Type from, Type to, const Value& v) {
  if (from == to) return v;
  if (to.is_bool()) {
    if (from.is_ptr()) return {(v.obj != 0 || v.bits != 0) ? 1u : 0u, 0};
    return {(v.bits & mask_of(from.width)) != 0 ? 1u : 0u, 0};
  }
  if (to.is_ptr()) {
    if (from.is_bool()) return {v.bits ? 1u : 0u, 0};
    return {static_cast<std::uint64_t>(as_signed(from, v.bits)), 0};
  }
  // to Int
  if (from.is_bool()) return {normalize(to, v.bits ? 1 : 0), 0};
  if (from.is_ptr()) return {normalize(to, (static_cast<std::uint64_t>(v.obj) << 24) + v.bits), 0};
  return {normalize(to, normalize(from, v.bits)), 0};
}

std::optional<std::uint32_t> Interpreter::cell_of(const State& s, const Value& p, std::uint32_t bytes) const {
  if (p.obj == 0 || p.obj >= tm_.objects.size()) return std::nullopt;
  if (p.obj >= s.live.size() || !s.live[p.obj]) return std::nullopt;
  const Object& o = tm_.objects[p.obj];
  const auto c = o.cell_at(static_cast<std::int64_t>(p.bits));
  if (!c || !o.cells[*c].fits(bytes)) return std::nullopt;
  return c;
}

Value Interpreter::eval(const State& s, ThreadId t, ExprRef e) const {
  const Type ty = e->type;
  switch (e->op) {
    case Op::Const: return {e->value, 0};
    case Op::Local: {
      const auto& locals = s.threads[t].locals;
      return e->value < locals.size() ? locals[e->value] : Value{};
    }
    case Op::ObjAddr: return {e->value, e->obj};
    case Op::Load: {
      const Value p = eval(s, t, e->kids[0]);
      const auto c = cell_of(s, p);
      if (!c) return {};
      return convert(tm_.objects[p.obj].cells[*c].type, ty, s.memory[p.obj][*c]);
    }
    case Op::ValidPtr:
      return {valid_ptr(s, eval(s, t, e->kids[0]), static_cast<std::uint32_t>(e->value)) ? 1u : 0u, 0};
    case Op::Ite: {
      const Value c = eval(s, t, e->kids[0]);
      return eval(s, t, c.bits ? e->kids[1] : e->kids[2]);
    }
    default: break;
  }
  if (e->kids.size() == 1) {
    const ExprRef k = e->kids[0];
    const Value a = eval(s, t, k);
    switch (e->op) {
      case Op::Neg: return {normalize(ty, ~a.bits + 1), 0};
      case Op::BitNot: return {normalize(ty, ~a.bits), 0};
      case Op::LNot: return {a.bits ? 0u : 1u, 0};
      case Op::IntToBool: return {(a.bits & mask_of(k->type.width)) ? 1u : 0u, 0};
      case Op::ZExt:
        if (k->type.is_bool()) return {normalize(ty, a.bits ? 1 : 0), 0};
        return {normalize(ty, a.bits & mask_of(k->type.width)), 0};
      case Op::SExt:
        if (k->type.is_bool()) return {normalize(ty, a.bits ? ~0ULL : 0), 0};
        return {normalize(ty, static_cast<std::uint64_t>(sext_width(k->type.width, a.bits))), 0};
      case Op::Trunc: return {normalize(ty, a.bits), 0};
      case Op::PtrToInt: return convert(Type::pointer(), ty, a);
      case Op::IntToPtr: return {static_cast<std::uint64_t>(as_signed(k->type, a.bits)), 0};
      default: assert(false && "eval: unary"); return {};
    }
  }
  const Value a = eval(s, t, e->kids[0]);
  const Value b = eval(s, t, e->kids[1]);
  const Type at = e->kids[0]->type;
  switch (e->op) {
    case Op::PtrAdd:
      return {a.bits + static_cast<std::uint64_t>(as_signed(e->kids[1]->type, b.bits)), a.obj};
    case Op::PtrDiff: return {normalize(ty, a.bits - b.bits), 0};
    default: break;
  }
  if (at.is_ptr()) {
    const auto ao = static_cast<std::int64_t>(a.bits), bo = static_cast<std::int64_t>(b.bits);
    bool r = false;
    switch (e->op) {
      case Op::Eq: r = a.obj == b.obj && a.bits == b.bits; break;
      case Op::Ne: r = !(a.obj == b.obj && a.bits == b.bits); break;
      case Op::Ult: case Op::Slt: r = a.obj < b.obj || (a.obj == b.obj && ao < bo); break;
      case Op::Ule: case Op::Sle: r = a.obj < b.obj || (a.obj == b.obj && ao <= bo); break;
      default: assert(false && "eval: pointer operator"); break;
    }
    return {r ? 1u : 0u, 0};
  }
  const Type opt = at.is_bool() ? Type::integer(1, false) : at;
  return {normalize(ty, eval_int_binary(e->op, opt.width, a.bits, b.bits)), 0};
}

State Interpreter::initial_state(const std::vector<Value>& initial_nondet) const {
  State s;
  const std::size_t n = tm_.objects.size();
  s.memory.resize(n);
  s.live.assign(n, false);
  s.allocated.assign(n, false);
  std::size_t next = 0;
  for (std::size_t o = 0; o < n; ++o) {
    const Object& obj = tm_.objects[o];
    s.memory[o].resize(obj.cells.size());
    if (o == 0 || obj.kind == ObjectKind::Heap) continue;
    s.live[o] = true;
    for (std::size_t c = 0; c < obj.cells.size(); ++c) {
      const Cell& cell = obj.cells[c];
      if (cell.init_nondet) {
        const Value v = next < initial_nondet.size() ? initial_nondet[next] : Value{};
        ++next;
        s.memory[o][c] = cell.type.is_ptr() ? v : Value{normalize(cell.type, v.bits), 0};
      } else if (cell.type.is_ptr()) {
        s.memory[o][c] = {cell.init, cell.init_obj};
      } else {
        s.memory[o][c] = {normalize(cell.type, cell.init), 0};
      }
    }
  }
  s.threads.resize(tm_.threads.size());
  for (std::size_t t = 0; t < tm_.threads.size(); ++t)
    s.threads[t].locals.assign(tm_.threads[t].locals.size(), Value{});
  if (!s.threads.empty()) s.threads[0].started = true;
  return s;
}

namespace {
struct SyncCell {
  bool valid = false;
  std::int64_t value = 0;  // the cell read as a signed integer of its width
};
}  // namespace

static SyncCell read_sync(const Interpreter& in, const ThreadModel& tm, const State& s, const Value& p) {
  const auto k = in.cell_of(s, p);
  if (!k) return {};
  const Cell& c = tm.objects[p.obj].cells[*k];
  const Value v = s.memory[p.obj][*k];
  if (c.type.is_int()) return {true, sext_width(c.type.width, v.bits)};
  return {true, static_cast<std::int64_t>(v.bits)};
}

static void write_int(const Interpreter& in, const ThreadModel& tm, State& s, const Value& p, std::int64_t v) {
  const auto k = in.cell_of(s, p);
  if (!k) return;
  s.memory[p.obj][*k] = Interpreter::convert(kI64, tm.objects[p.obj].cells[*k].type, {static_cast<std::uint64_t>(v), 0});
}

bool Interpreter::enabled(const State& s, ThreadId t) const {
  if (s.terminated || t >= s.threads.size()) return false;
  const ThreadState& ts = s.threads[t];
  if (!ts.started || ts.finished) return false;
  if (s.atomic != 0 && s.atomic != t + 1) return false;
  const auto& code = tm_.threads[t].code;
  if (ts.pc >= code.size()) return false;
  const Instr& in = code[ts.pc];
  switch (in.kind) {
    case InstrKind::Assume: return eval(s, t, in.a).bits != 0;
    case InstrKind::Lock:
    case InstrKind::WrLock: return read_sync(*this, tm_, s, eval(s, t, in.a)).value == 0;
    case InstrKind::RdLock: return read_sync(*this, tm_, s, eval(s, t, in.a)).value >= 0;
    case InstrKind::ThreadJoin: {
      const Value h = eval(s, t, in.a);
      const std::uint64_t id = in.a->type.is_int() ? (h.bits & mask_of(in.a->type.width)) : h.bits;
      return id < s.threads.size() && s.threads[id].finished;
    }
    case InstrKind::AtomicBegin: return s.atomic == 0;
    default: return true;
  }
}

StepResult Interpreter::step(State& s, const Step& st) const {
  StepResult r;
  const ThreadId t = st.thread;
  if (!enabled(s, t)) {
    r.outcome = StepOutcome::NotEnabled;
    if (t < tm_.threads.size() && t < s.threads.size() && s.threads[t].pc < tm_.threads[t].code.size())
      r.loc = tm_.threads[t].code[s.threads[t].pc].loc;
    return r;
  }
  ThreadState& ts = s.threads[t];
  const Instr& in = tm_.threads[t].code[ts.pc];
  const auto& locals_decl = tm_.threads[t].locals;
  r.loc = in.loc;
  std::uint32_t next = ts.pc + 1;
  auto nondet = [&](std::size_t i) { return i < st.nondet.size() ? st.nondet[i] : Value{}; };
  auto set_local = [&](LocalId l, Value v) {
    if (l == kNoLocal || l >= ts.locals.size()) return;
    const Type lt = locals_decl[l].type;
    ts.locals[l] = lt.is_ptr() ? v : Value{normalize(lt, v.bits), 0};
  };
  auto fail = [&](AssertKind k, std::string msg, LimitKind limit = LimitKind::None) {
    r.outcome = StepOutcome::Error;
    r.error_kind = k;
    r.error_message = std::move(msg);
    r.error_limit = limit;
  };
  switch (in.kind) {
    case InstrKind::Skip:
    case InstrKind::Assume:
    case InstrKind::CondSignal:
    case InstrKind::CondBroadcast: break;
    case InstrKind::Assign: {
      const Value v = eval(s, t, in.a);
      set_local(in.lhs, in.lhs < locals_decl.size() ? convert(in.a->type, locals_decl[in.lhs].type, v) : v);
      break;
    }
    case InstrKind::Store: {
      const Value p = eval(s, t, in.a);
      const Value v = eval(s, t, in.b);
      if (const auto c = cell_of(s, p)) s.memory[p.obj][*c] = convert(in.b->type, tm_.objects[p.obj].cells[*c].type, v);
      break;
    }
    case InstrKind::Havoc: set_local(in.lhs, nondet(0)); break;
    case InstrKind::Assert:
      if (eval(s, t, in.a).bits == 0)
        fail(in.assert_kind, in.message.empty() ? "assertion failed: " + in.text : in.message, in.limit);
      break;
    case InstrKind::Goto:
      if (!in.a || eval(s, t, in.a).bits != 0) next = in.target;
      break;
    case InstrKind::Abort:
      s.terminated = true;
      next = ts.pc;
      break;
    case InstrKind::Lock:
    case InstrKind::TryLock: {
      const Value p = eval(s, t, in.a);
      const bool free_ = read_sync(*this, tm_, s, p).value == 0;
      if (free_) write_int(*this, tm_, s, p, static_cast<std::int64_t>(t) + 1);
      if (in.kind == InstrKind::TryLock) set_local(in.lhs, convert(kI64, in.lhs < locals_decl.size() ? locals_decl[in.lhs].type : kI64, {free_ ? 0u : 16u, 0}));
      break;
    }
    case InstrKind::Unlock: write_int(*this, tm_, s, eval(s, t, in.a), 0); break;
    case InstrKind::RdLock: {
      const Value p = eval(s, t, in.a);
      write_int(*this, tm_, s, p, read_sync(*this, tm_, s, p).value + 1);
      break;
    }
    case InstrKind::WrLock: write_int(*this, tm_, s, eval(s, t, in.a), -1); break;
    case InstrKind::RwUnlock: {
      const Value p = eval(s, t, in.a);
      const std::int64_t v = read_sync(*this, tm_, s, p).value;
      write_int(*this, tm_, s, p, v < 0 ? 0 : v - 1);
      break;
    }
    case InstrKind::CondWait:  // not in thread-model code; lowered as unlock + lock
      break;
    case InstrKind::ThreadCreate: {
      const std::uint64_t counter = in.lhs < ts.locals.size() ? ts.locals[in.lhs].bits : 0;
      if (counter >= in.threads.size()) {
        fail(AssertKind::Limit, "threads: pthread_create site has no free instance slot", LimitKind::Threads);
        break;
      }
      const ThreadId nt = in.threads[counter];
      const Value arg = in.b ? eval(s, t, in.b) : Value{};
      const Value handle = in.a ? eval(s, t, in.a) : Value{};
      ThreadState& child = s.threads[nt];
      child.started = true;
      child.pc = 0;
      const LocalId param = tm_.threads[nt].param;
      if (param != kNoLocal && param < child.locals.size())
        child.locals[param] = convert(in.b ? in.b->type : Type::pointer(), tm_.threads[nt].locals[param].type, arg);
      if (const auto c = cell_of(s, handle))
        s.memory[handle.obj][*c] = convert(kI64, tm_.objects[handle.obj].cells[*c].type, {nt, 0});
      ThreadState& self = s.threads[t];  // (reference still valid: no reallocation)
      if (in.lhs < self.locals.size()) set_local(in.lhs, {counter + 1, 0});
      break;
    }
    case InstrKind::ThreadJoin: {
      const Value h = eval(s, t, in.a);
      const std::uint64_t id = in.a->type.is_int() ? (h.bits & mask_of(in.a->type.width)) : h.bits;
      if (in.b) {
        const Value p = eval(s, t, in.b);
        if (const auto c = cell_of(s, p))
          s.memory[p.obj][*c] = convert(Type::pointer(), tm_.objects[p.obj].cells[*c].type, s.threads[id].retval);
      }
      break;
    }
    case InstrKind::ThreadExit: {
      const Value v = in.a ? eval(s, t, in.a) : Value{};
      ts.retval = in.a ? convert(in.a->type, Type::pointer(), v) : Value{};
      ts.finished = true;
      next = ts.pc;
      break;
    }
    case InstrKind::AtomicBegin: s.atomic = t + 1; break;
    case InstrKind::AtomicEnd: s.atomic = 0; break;
    case InstrKind::Malloc: {
      const ObjectId o = in.obj;
      if (o >= tm_.objects.size()) {
        fail(AssertKind::Limit, "heap: unknown object");
        break;
      }
      if (s.allocated[o]) {
        fail(AssertKind::Limit, "heap: call site executed more than once", LimitKind::HeapSlots);
        break;
      }
      s.allocated[o] = true;
      s.live[o] = true;
      const Object& obj = tm_.objects[o];
      std::size_t k = 0;
      for (std::size_t c = 0; c < obj.cells.size(); ++c) {
        const Cell& cell = obj.cells[c];
        if (cell.init_nondet) {
          const Value v = nondet(k++);
          s.memory[o][c] = cell.type.is_ptr() ? v : Value{normalize(cell.type, v.bits), 0};
        } else {
          s.memory[o][c] = cell.type.is_ptr() ? Value{cell.init, cell.init_obj} : Value{normalize(cell.type, cell.init), 0};
        }
      }
      set_local(in.lhs, {0, o});
      break;
    }
    case InstrKind::Free: {
      const Value p = eval(s, t, in.a);
      if (p.obj == 0 && p.bits == 0) break;
      const bool ok = p.obj < tm_.objects.size() && tm_.objects[p.obj].kind == ObjectKind::Heap &&
                      p.bits == 0 && s.live[p.obj];
      if (!ok) {
        fail(AssertKind::MemSafety, "free: pointer is not the start of a live heap object");
        break;
      }
      s.live[p.obj] = false;
      break;
    }
    case InstrKind::Call:
    case InstrKind::Return:
      fail(AssertKind::Limit, "internal: call/return in thread-model code");
      break;
  }
  s.threads[t].pc = next;
  return r;
}

std::string Interpreter::format_value(const Value& v, Type t) const {
  switch (t.kind) {
    case TypeKind::Bool: return v.bits ? "1" : "0";
    case TypeKind::Int:
      return t.is_signed ? std::to_string(as_signed(t, v.bits)) : std::to_string(normalize(t, v.bits));
    case TypeKind::Ptr: break;
  }
  const auto off = static_cast<std::int64_t>(v.bits);
  if (v.obj == 0) return off == 0 ? "NULL" : "(void*)" + std::to_string(off);
  return "&" + cell_name(tm_.objects, v.obj, off);
}

ReplayResult replay(const ThreadModel& tm, const std::vector<Value>& initial_nondet,
                    const std::vector<Step>& schedule) {
  Interpreter in(tm);
  ReplayResult res;
  res.final_state = in.initial_state(initial_nondet);
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    res.last = in.step(res.final_state, schedule[i]);
    if (res.last.outcome == StepOutcome::NotEnabled) {
      res.steps_done = i;
      return res;
    }
    res.steps_done = i + 1;
    if (res.last.outcome == StepOutcome::Error) return res;
  }
  return res;
}

}  // namespace siren::ir

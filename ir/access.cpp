// Static access summaries (ir/access.hpp).
#include "ir/access.hpp"

namespace siren::ir {

const char* loc_kind_name(LocKind k) {
  switch (k) {
    case LocKind::Cell: return "cell";
    case LocKind::Started: return "started";
    case LocKind::Finished: return "finished";
    case LocKind::Alloc: return "alloc";
    case LocKind::Atomic: return "atomic";
    case LocKind::Terminated: return "terminated";
  }
  return "?";
}

namespace {

Access cell(ExprRef p, bool write) {
  Access a;
  a.kind = LocKind::Cell;
  a.write = write;
  a.addr = p;
  return a;
}

Access alloc_of(ExprRef p, bool write) {
  Access a;
  a.kind = LocKind::Alloc;
  a.write = write;
  a.addr = p;
  return a;
}

// A memory access through pointer p: alloc[obj(p)] is read (heap objects), the cell accessed.
void ptr_access(ExprRef p, bool write, std::vector<Access>& out) {
  out.push_back(alloc_of(p, false));
  out.push_back(cell(p, write));
}

void expr_accesses(ExprRef e, std::vector<Access>& out) {
  if (!e) return;
  visit_post_order(e, [&](ExprRef n) {
    if (n->op == Op::Load) ptr_access(n->kids[0], false, out);
    else if (n->op == Op::ValidPtr) out.push_back(alloc_of(n->kids[0], false));
  });
}

}  // namespace

std::vector<Access> accesses(const ThreadModel& tm, ThreadId t, std::uint32_t pc) {
  std::vector<Access> out;
  {
    Access a;
    a.kind = LocKind::Started;
    a.thread = t;
    out.push_back(a);
    a = Access{};
    a.kind = LocKind::Terminated;
    out.push_back(a);
    a = Access{};
    a.kind = LocKind::Atomic;
    out.push_back(a);
  }
  if (t >= tm.threads.size() || pc >= tm.threads[t].code.size()) return out;
  const Instr& in = tm.threads[t].code[pc];
  expr_accesses(in.a, out);
  expr_accesses(in.b, out);
  for (ExprRef e : in.args) expr_accesses(e, out);
  switch (in.kind) {
    case InstrKind::Store: ptr_access(in.a, true, out); break;
    case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::Unlock: case InstrKind::RdLock:
    case InstrKind::WrLock: case InstrKind::RwUnlock: case InstrKind::CondSignal: case InstrKind::CondBroadcast:
      ptr_access(in.a, false, out);  // read (guard / old value) ...
      ptr_access(in.a, true, out);   // ... and write
      break;
    case InstrKind::ThreadCreate: {
      for (std::uint32_t k = 0; k < in.threads.size(); ++k) {
        Access a;
        a.kind = LocKind::Started;
        a.write = true;
        a.thread = in.threads[k];
        a.counter = in.lhs;
        a.slot = k;
        out.push_back(a);
      }
      if (in.a) ptr_access(in.a, true, out);
      break;
    }
    case InstrKind::ThreadJoin: {
      Access a;
      a.kind = LocKind::Finished;
      a.addr = in.a;
      out.push_back(a);
      if (in.b) ptr_access(in.b, true, out);
      break;
    }
    case InstrKind::ThreadExit: {
      Access a;
      a.kind = LocKind::Finished;
      a.write = true;
      a.thread = t;
      out.push_back(a);
      break;
    }
    case InstrKind::AtomicBegin: case InstrKind::AtomicEnd: {
      Access a;
      a.kind = LocKind::Atomic;
      a.write = true;
      out.push_back(a);
      break;
    }
    case InstrKind::Malloc: {
      Access a;
      a.kind = LocKind::Alloc;
      a.write = true;
      a.obj = in.obj;
      out.push_back(a);
      break;
    }
    case InstrKind::Free: out.push_back(alloc_of(in.a, true)); break;
    case InstrKind::Abort: {
      Access a;
      a.kind = LocKind::Terminated;
      a.write = true;
      out.push_back(a);
      break;
    }
    default: break;
  }
  return out;
}

std::vector<Access> memory_accesses(const ThreadModel& tm, ThreadId t, std::uint32_t pc) {
  std::vector<Access> out;
  for (Access& a : accesses(tm, t, pc))
    if (a.kind == LocKind::Cell) out.push_back(a);
  return out;
}

std::vector<Location> access_locations(const ThreadModel& tm, const Interpreter& in, const State& s, ThreadId t) {
  std::vector<Location> out;
  auto is_heap = [&](ObjectId o) { return o != 0 && o < tm.objects.size() && tm.objects[o].kind == ObjectKind::Heap; };
  for (const Access& a : accesses(tm, t, s.threads[t].pc)) {
    switch (a.kind) {
      case LocKind::Cell: {
        const Value p = in.eval(s, t, a.addr);
        if (in.valid_ptr(s, p)) out.push_back({a.kind, (std::uint64_t{p.obj} << 32) | (p.bits & 0xffffffffULL), a.write});
        break;
      }
      case LocKind::Alloc: {
        if (!a.addr) {
          out.push_back({a.kind, a.obj, a.write});
          break;
        }
        const Value p = in.eval(s, t, a.addr);
        if (a.write ? p.obj != 0 : is_heap(p.obj)) out.push_back({a.kind, p.obj, a.write});
        break;
      }
      case LocKind::Started:
        if (a.counter != kNoLocal) {
          const auto& locals = s.threads[t].locals;
          const std::uint64_t c = a.counter < locals.size() ? locals[a.counter].bits : 0;
          if (c != a.slot) break;
        }
        out.push_back({a.kind, a.thread, a.write});
        break;
      case LocKind::Finished:
        out.push_back({a.kind, a.addr ? in.eval(s, t, a.addr).bits : a.thread, a.write});
        break;
      case LocKind::Atomic:
      case LocKind::Terminated: out.push_back({a.kind, 0, a.write}); break;
    }
  }
  return out;
}

bool conflict(const std::vector<Location>& a, const std::vector<Location>& b) {
  for (const Location& x : a)
    for (const Location& y : b)
      if ((x.write || y.write) && x.kind == y.kind && x.index == y.index) return true;
  return false;
}

}  // namespace siren::ir

// Must-locksets and create/join order (ir/concurrency.hpp): forward data-flow analyses over one
// thread's code (intersection at joins for must-facts, union for may-started).
#include "ir/concurrency.hpp"

#include "ir/access.hpp"
#include "ir/cfg.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>

namespace siren::ir {
namespace {

// The dataflow stops at the thread's end; an always-taken goto also falls through (more paths,
// still sound).
constexpr SuccessorRule kFlow{.exit_to_end = false, .taken_goto_falls_through = true, .include_end = true};

std::uint64_t cell_key(ObjectId obj, std::int64_t offset) {
  return (std::uint64_t{obj} << 32) | static_cast<std::uint32_t>(offset);
}
std::uint64_t cell_key(ExprRef a) { return cell_key(a->obj, a->offset()); }
constexpr std::uint64_t kLocalTag = std::uint64_t{1} << 63;

}  // namespace

std::vector<std::optional<std::set<std::uint64_t>>> must_locksets(const ThreadModel& tm, ThreadId t,
                                                                   const PointsTo* points_to) {
  const auto& code = tm.threads[t].code;
  std::vector<std::optional<std::set<std::uint64_t>>> in(code.size());
  if (code.empty()) return in;
  in[0] = std::set<std::uint64_t>{};
  std::vector<std::uint32_t> work{0};
  // The mutex cell an address designates whenever the operation goes through: a constant, or a
  // pointer whose points-to set is one cell (it may also be invalid, but then the operation's
  // MemSafety check stops the thread first). Objects are single concrete objects in the thread
  // model (a heap site per thread instance executes at most once), so one cell is must-alias.
  auto key_of = [&](ExprRef a) -> std::optional<std::uint64_t> {
    if (!a) return std::nullopt;
    if (a->op == Op::ObjAddr) return cell_key(a);
    if (!points_to) return std::nullopt;
    const PtsSet s = points_to->of(t, a);
    if (s.any || s.targets.size() != 1) return std::nullopt;
    const PtsTarget& x = *s.targets.begin();
    if (x.offset == PtsTarget::kAnyOffset || x.obj >= tm.objects.size() || !tm.objects[x.obj].cell_at(x.offset))
      return std::nullopt;
    return cell_key(x.obj, x.offset);
  };
  while (!work.empty()) {
    const std::uint32_t i = work.back();
    work.pop_back();
    std::set<std::uint64_t> out = *in[i];
    const Instr& ins = code[i];
    switch (ins.kind) {
      case InstrKind::Lock:
        if (auto k = key_of(ins.a)) out.insert(*k);
        break;
      case InstrKind::Unlock:
        if (auto k = key_of(ins.a)) out.erase(*k);
        else {
          const bool atomic = out.count(kAtomicKey) != 0;
          out.clear();
          if (atomic) out.insert(kAtomicKey);
        }
        break;
      case InstrKind::AtomicBegin: out.insert(kAtomicKey); break;
      case InstrKind::AtomicEnd: out.erase(kAtomicKey); break;
      default: break;
    }
    for (std::uint32_t s : successors(code, i, kFlow)) {
      if (s >= code.size()) continue;
      if (!in[s]) {
        in[s] = out;
        work.push_back(s);
        continue;
      }
      std::set<std::uint64_t> meet;
      std::set_intersection(in[s]->begin(), in[s]->end(), out.begin(), out.end(), std::inserter(meet, meet.begin()));
      if (meet != *in[s]) {
        in[s] = std::move(meet);
        work.push_back(s);
      }
    }
  }
  return in;
}


bool CreateJoinOrder::stopped_at(std::uint32_t pc, ThreadId u) const {
  if (pc >= stopped.size()) return false;
  return std::binary_search(stopped[pc].begin(), stopped[pc].end(), u);
}

CreateJoinOrder create_join_order(const ThreadModel& tm, ThreadId p) {
  CreateJoinOrder r;
  const auto& code = tm.threads[p].code;
  r.stopped.resize(code.size());
  if (code.empty()) return r;
  const std::size_t n = tm.threads.size();

  // Who creates whom; which objects have their address taken; which cells are written where.
  std::vector<std::set<ThreadId>> creators(n);
  std::set<ObjectId> taken;
  std::map<std::uint64_t, std::set<std::pair<ThreadId, std::uint32_t>>> writers;  // cell -> (thread, pc)
  // An object's address is taken when it appears other than as the address of a load, a store
  // or a create's handle.
  std::function<void(ExprRef, bool)> scan = [&](ExprRef e, bool direct) {
    if (!e) return;
    if (e->op == Op::ObjAddr) {
      if (!direct) taken.insert(e->obj);
      return;
    }
    if (e->op == Op::Load) return scan(e->kids[0], true);
    for (ExprRef k : e->kids) scan(k, false);
  };
  for (ThreadId q = 0; q < n; ++q) {
    const auto& c = tm.threads[q].code;
    for (std::uint32_t i = 0; i < c.size(); ++i) {
      const Instr& in = c[i];
      if (in.kind == InstrKind::ThreadCreate)
        for (std::uint32_t u : in.threads)
          if (u < n) creators[u].insert(q);
      const bool direct_a = in.kind == InstrKind::Store || in.kind == InstrKind::ThreadCreate;
      scan(in.a, direct_a);
      scan(in.b, false);
      for (ExprRef x : in.args) scan(x, false);
      if (direct_a && in.a && in.a->op == Op::ObjAddr) writers[cell_key(in.a)].insert({q, i});
    }
  }
  // Creates of p that start exactly one thread and run at most once (on no cycle).
  auto on_cycle = [&](std::uint32_t pc) {
    std::vector<char> seen(code.size(), 0);
    std::vector<std::uint32_t> work = successors(code, pc, kFlow);
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      if (v >= code.size() || seen[v]) continue;
      if (v == pc) return true;
      seen[v] = 1;
      for (std::uint32_t s : successors(code, v, kFlow)) work.push_back(s);
    }
    return false;
  };
  std::map<std::uint32_t, ThreadId> single_create;  // pc -> the thread it starts
  for (std::uint32_t i = 0; i < code.size(); ++i) {
    const Instr& in = code[i];
    if (in.kind != InstrKind::ThreadCreate || in.threads.size() != 1 || !in.a || in.a->op != Op::ObjAddr) continue;
    if (taken.count(in.a->obj)) continue;
    bool only_creates_of_p = true;
    for (const auto& [q, pc] : writers[cell_key(in.a)])
      if (q != p || tm.threads[q].code[pc].kind != InstrKind::ThreadCreate) only_creates_of_p = false;
    if (only_creates_of_p && !on_cycle(i)) single_create[i] = static_cast<ThreadId>(in.threads[0]);
  }

  // Forward analyses over p's code: may-started (union) and a must-state (intersection):
  // cells / locals known to hold a thread's id, threads joined.
  struct St {
    std::vector<char> started;
    std::map<std::uint64_t, ThreadId> known;
    std::set<ThreadId> joined;
    bool operator==(const St&) const = default;
  };
  std::vector<std::optional<St>> in(code.size());
  in[0] = St{std::vector<char>(n, 0), {}, {}};
  std::vector<std::uint32_t> work{0};
  auto id_of = [&](const St& s, ExprRef e) -> std::optional<ThreadId> {
    while (e && (e->op == Op::ZExt || e->op == Op::SExt || e->op == Op::Trunc) && !e->kids.empty()) e = e->kids[0];
    if (!e) return std::nullopt;
    std::uint64_t k;
    if (e->op == Op::Local) k = kLocalTag | e->value;
    else if (e->op == Op::Load && e->kids[0]->op == Op::ObjAddr) k = cell_key(e->kids[0]);
    else return std::nullopt;
    auto it = s.known.find(k);
    if (it == s.known.end()) return std::nullopt;
    return it->second;
  };
  while (!work.empty()) {
    const std::uint32_t i = work.back();
    work.pop_back();
    St out = *in[i];
    const Instr& ins = code[i];
    if (ins.lhs != kNoLocal) out.known.erase(kLocalTag | ins.lhs);
    switch (ins.kind) {
      case InstrKind::ThreadCreate:
        for (std::uint32_t u : ins.threads)
          if (u < n) out.started[u] = 1;
        if (ins.a && ins.a->op == Op::ObjAddr) {
          out.known.erase(cell_key(ins.a));
          if (auto it = single_create.find(i); it != single_create.end()) out.known[cell_key(ins.a)] = it->second;
        }
        break;
      case InstrKind::Assign:
        if (ins.lhs != kNoLocal)
          if (auto u = id_of(*in[i], ins.a)) out.known[kLocalTag | ins.lhs] = *u;
        break;
      case InstrKind::Store:
        if (ins.a && ins.a->op == Op::ObjAddr) out.known.erase(cell_key(ins.a));
        break;
      case InstrKind::ThreadJoin:
        if (auto u = id_of(*in[i], ins.a)) out.joined.insert(*u);
        break;
      default: break;
    }
    for (std::uint32_t s : successors(code, i, kFlow)) {
      if (s >= code.size()) continue;
      if (!in[s]) {
        in[s] = out;
        work.push_back(s);
        continue;
      }
      St m = *in[s];
      for (std::size_t u = 0; u < n; ++u) m.started[u] |= out.started[u];
      std::erase_if(m.known, [&](const auto& kv) {
        auto it = out.known.find(kv.first);
        return it == out.known.end() || it->second != kv.second;
      });
      std::erase_if(m.joined, [&](ThreadId u) { return !out.joined.count(u); });
      if (!(m == *in[s])) {
        in[s] = std::move(m);
        work.push_back(s);
      }
    }
  }
  for (std::uint32_t i = 0; i < code.size(); ++i) {
    if (!in[i]) continue;
    for (ThreadId u = 0; u < n; ++u)
      if (creators[u] == std::set<ThreadId>{p} && (!in[i]->started[u] || in[i]->joined.count(u)))
        r.stopped[i].push_back(u);
  }
  return r;
}

std::optional<std::vector<std::uint64_t>> access_cells(const ThreadModel& tm, const PointsTo& points_to, ThreadId t,
                                                       ExprRef addr) {
  std::vector<std::uint64_t> keys;
  if (addr->op == Op::ObjAddr) {
    const ObjectId o = addr->obj;
    if (o < tm.objects.size() && tm.objects[o].cell_at(addr->offset())) keys.push_back(cell_key(o, addr->offset()));
    return keys;
  }
  const auto cells = points_to.cells_of(t, addr);
  if (!cells) return std::nullopt;
  for (const auto& [o, c] : *cells) keys.push_back(cell_key(o, tm.objects[o].cells[c].offset));
  return keys;
}

std::vector<std::vector<char>> protected_steps(const ThreadModel& tm, const PointsTo& points_to,
                                               bool test_one_sided_lock) {
  const std::size_t n = tm.threads.size();
  std::vector<std::vector<std::optional<std::set<std::uint64_t>>>> locks;
  std::vector<CreateJoinOrder> order;
  for (ThreadId t = 0; t < n; ++t) {
    locks.push_back(must_locksets(tm, t, &points_to));
    order.push_back(create_join_order(tm, t));
  }
  // Every memory access of every reachable instruction, by cell; accesses that may touch any
  // cell (points-to "anywhere") in `any`.
  struct Acc {
    ThreadId t;
    std::uint32_t pc;
    bool write;
  };
  std::map<std::uint64_t, std::vector<Acc>> by_cell;
  std::vector<Acc> any;
  std::vector<char> frees(n, 0);  // thread t has a Free
  auto cells_of = [&](ThreadId t, ExprRef addr) { return access_cells(tm, points_to, t, addr); };
  for (ThreadId t = 0; t < n; ++t) {
    const auto& code = tm.threads[t].code;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      if (code[pc].kind == InstrKind::Free) frees[t] = 1;
      if (!locks[t][pc]) continue;  // unreachable
      for (const Access& a : memory_accesses(tm, t, pc)) {
        const auto keys = cells_of(t, a.addr);
        if (!keys) any.push_back({t, pc, a.write});
        else
          for (std::uint64_t k : *keys) by_cell[k].push_back({t, pc, a.write});
      }
    }
  }
  auto common_lock = [](const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
    for (std::uint64_t k : a)
      if (b.count(k)) return true;
    return false;
  };
  // Can access (u, q) of another thread run beside (t, pc) and conflict with it?
  auto beside = [&](ThreadId t, std::uint32_t pc, bool write, const Acc& b) {
    const bool locked = test_one_sided_lock ? !locks[t][pc]->empty() : common_lock(*locks[t][pc], *locks[b.t][b.pc]);
    return b.t != t && (write || b.write) && !locked &&
           !order[t].stopped_at(pc, b.t) && !order[b.t].stopped_at(b.pc, t);
  };
  std::vector<std::vector<char>> out(n);
  for (ThreadId t = 0; t < n; ++t) {
    const auto& code = tm.threads[t].code;
    out[t].assign(code.size(), 0);
    bool others_free = false;
    for (ThreadId u = 0; u < n; ++u) others_free = others_free || (u != t && frees[u]);
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      const Instr& in = code[pc];
      if (!locks[t][pc]) continue;
      if (in.kind != InstrKind::Assign && in.kind != InstrKind::Assume && in.kind != InstrKind::Assert &&
          in.kind != InstrKind::Store && in.kind != InstrKind::Goto)
        continue;
      bool ok = true, touches = false;
      for (const Access& a : accesses(tm, t, pc)) {
        if (!ok) break;
        if (a.kind == LocKind::Alloc) {
          touches = true;
          if (others_free) ok = false;
          continue;
        }
        if (a.kind != LocKind::Cell) continue;  // started/terminated/atomic reads of every step
        touches = true;
        const auto keys = cells_of(t, a.addr);
        if (!keys) {
          ok = false;
          break;
        }
        for (const Acc& b : any)
          if (beside(t, pc, a.write, b)) ok = false;
        for (std::uint64_t k : *keys) {
          auto it = by_cell.find(k);
          if (it == by_cell.end()) continue;
          for (const Acc& b : it->second)
            if (beside(t, pc, a.write, b)) ok = false;
        }
      }
      out[t][pc] = ok && touches ? 1 : 0;
    }
  }
  return out;
}

}  // namespace siren::ir

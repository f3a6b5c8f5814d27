// Location matching and must-lockset candidates (race/triage.hpp).
#include "race/triage.hpp"

#include "encoder/engine.hpp"
#include "ir/concurrency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace siren::race {

using namespace encoder;  // the BMC engine these queries are encoded in

std::vector<RaceAccess> accesses_at(const ir::ThreadModel& tm, const SrcLoc& loc) {
  const std::string base = basename_of(loc.file);
  std::vector<RaceAccess> line_acc;
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
    for (std::uint32_t i = 0; i < tm.threads[t].code.size(); ++i) {
      const auto& l = tm.threads[t].code[i].loc;
      if (l.line != loc.line || l.file >= tm.files.size() || basename_of(tm.files[l.file]) != base) continue;
      auto a = data_accesses(tm, t, i);
      line_acc.insert(line_acc.end(), a.begin(), a.end());
    }
  if (loc.column == 0) return line_acc;
  std::vector<RaceAccess> exact;
  for (const auto& a : line_acc)
    if (tm.threads[a.thread].code[a.pc].loc.col == loc.column) exact.push_back(a);
  return exact.empty() ? line_acc : exact;
}

TriageQuery triage_query(const ir::ThreadModel& tm, const Warning& w) {
  TriageQuery q;
  if (w.no_candidates) {
    q.decided = w.model_limited ? "UNKNOWN" : "NO_RACE";
    return q;
  }
  q.query.first = accesses_at(tm, w.first);
  q.query.second = accesses_at(tm, w.second);
  if (q.query.first.empty() || q.query.second.empty()) {
    q.decided = "NO_ACCESS";
    return q;
  }
  bool possible = false;
  for (const auto& a : q.query.first)
    for (const auto& b : q.query.second) possible = possible || (a.thread != b.thread && (a.write || b.write));
  if (!possible) q.decided = "NO_RACE";
  return q;
}

const char* triage_verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Unsafe: return "RACE";
    case Verdict::Safe: return "NO_RACE";
    case Verdict::SafeUpToBound: return "NO_RACE_UP_TO_BOUND";
    case Verdict::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::vector<Warning> lockset_candidates(const ir::ThreadModel& tm) {
  // The cells an access through a pointer may touch: the points-to analysis; where it says
  // "anywhere", every candidate object of the encoder's own analysis.
  solvers::TermManager terms;
  auto dp = solvers::make_cadical_bitblaster(terms);
  auto sch = reduction::make_scheduler_constraints("none", tm);
  Engine e(tm, terms, *dp, *sch);

  struct Acc {
    RaceAccess a;
    const std::set<std::uint64_t>* locks;
    std::vector<std::pair<ir::ObjectId, std::int64_t>> cells;  // cell -1: any cell of the object
  };
  std::vector<std::vector<std::optional<std::set<std::uint64_t>>>> ls(tm.threads.size());
  std::vector<Acc> accs;
  const ir::PointsTo pts = ir::PointsTo::analyse(tm);
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) {
    ls[t] = ir::must_locksets(tm, t, &pts);
    for (std::uint32_t i = 0; i < tm.threads[t].code.size(); ++i) {
      if (!ls[t][i]) continue;  // unreachable code
      for (const RaceAccess& a : data_accesses(tm, t, i)) {
        Acc x{a, &*ls[t][i], {}};
        if (a.addr->op == ir::Op::ObjAddr) {
          const auto c = tm.objects[a.addr->obj].cell_at(a.addr->offset());
          if (c && is_data_cell(tm, a.addr->obj, *c)) x.cells.push_back({a.addr->obj, static_cast<std::int64_t>(*c)});
        } else if (const auto cells = pts.cells_of(t, a.addr)) {  // the cells the pointer may designate
          for (const auto& [o, c] : *cells)
            if (is_data_cell(tm, o, c)) x.cells.push_back({o, static_cast<std::int64_t>(c)});
        } else {
          for (ir::ObjectId o : e.candidates(a.addr)) x.cells.push_back({o, -1});
        }
        if (a.object)  // free: any cell of the object(s) it may free
          for (auto& c : x.cells) c.second = -1;
        if (!x.cells.empty()) accs.push_back(std::move(x));
      }
    }
  }
  auto may_alias = [](const Acc& x, const Acc& y) {
    for (const auto& [o1, c1] : x.cells)
      for (const auto& [o2, c2] : y.cells)
        if (o1 == o2 && (c1 < 0 || c2 < 0 || c1 == c2)) return true;
    return false;
  };
  // Create/join order: an access of a parent at a point where the other thread is not yet
  // created or already joined (a driver harness's init and exit) cannot race with it.
  std::vector<ir::CreateJoinOrder> order;
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) order.push_back(ir::create_join_order(tm, t));
  auto ordered = [&](const Acc& x, const Acc& y) {
    return order[x.a.thread].stopped_at(x.a.pc, y.a.thread) || order[y.a.thread].stopped_at(y.a.pc, x.a.thread);
  };
  auto loc_of = [&](const RaceAccess& a) {
    const auto& l = tm.threads[a.thread].code[a.pc].loc;
    return SrcLoc{l.file < tm.files.size() ? tm.files[l.file] : std::string(), l.line, l.col};
  };
  std::vector<Warning> out;
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < accs.size(); ++i)
    for (std::size_t j = i + 1; j < accs.size(); ++j) {
      const Acc& x = accs[i];
      const Acc& y = accs[j];
      if (x.a.thread == y.a.thread || !(x.a.write || y.a.write)) continue;
      if (x.locks->count(ir::kAtomicKey) && y.locks->count(ir::kAtomicKey)) continue;
      bool common = false;
      for (std::uint64_t k : *x.locks)
        if (k != ir::kAtomicKey && y.locks->count(k)) common = true;
      if (common || !may_alias(x, y) || ordered(x, y)) continue;
      Warning w;
      w.first = loc_of(x.a);
      w.second = loc_of(y.a);
      if (w.second.line < w.first.line || (w.second.line == w.first.line && w.second.column < w.first.column))
        std::swap(w.first, w.second);
      w.id = warning_id(w.first, w.second);
      if (seen.insert(w.id).second) out.push_back(std::move(w));
    }
  return out;
}

}  // namespace siren::race

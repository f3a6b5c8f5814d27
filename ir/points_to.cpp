// Points-to analysis (ir/points_to.hpp): the constraints of every instruction, solved by
// iterating to the least fixpoint.
#include "ir/points_to.hpp"

#include <sstream>

namespace siren::ir {

namespace {
constexpr std::int64_t kAny = PtsTarget::kAnyOffset;
const PtsSet kEmpty{};
}  // namespace

bool PtsSet::add(const PtsSet& o) {
  if (any) return false;
  if (o.any) {
    any = true;
    targets.clear();
    return true;
  }
  bool grew = false;
  for (const PtsTarget& t : o.targets)
    if (!targets.count({t.obj, kAny})) grew |= targets.insert(t).second;
  return grew;
}

// Evaluation over a (partial or final) solution.
class PointsTo::View {
 public:
  View(const PointsTo& pt) : pt_(pt), tm_(*pt.tm_) {}

  PtsSet eval(ThreadId t, ExprRef e) const {
    PtsSet out;
    if (!e || !e->type.is_ptr()) return out;
    switch (e->op) {
      case Op::ObjAddr:
        if (e->obj != 0) out.targets.insert({e->obj, e->offset()});
        return out;
      case Op::Local:
        return e->value < pt_.locals_[t].size() ? pt_.locals_[t][e->value] : out;
      case Op::Load: return read(eval(t, e->kids[0]));
      case Op::Ite:
        out = eval(t, e->kids[1]);
        out.add(eval(t, e->kids[2]));
        return out;
      case Op::PtrAdd: {
        const PtsSet base = eval(t, e->kids[0]);
        if (base.any) return base;
        const ExprRef i = e->kids[1];
        for (const PtsTarget& b : base.targets) {
          std::int64_t off = kAny;
          if (b.offset != kAny && i->is_const()) off = b.offset + as_signed(i->type, i->value);
          out.targets.insert({b.obj, off});
        }
        normalize(out);
        return out;
      }
      default: return out;  // Const, IntToPtr: the null object (semantics.md)
    }
  }

  /// Calls f(o, c) for every cell a pointer in `p` may designate (p not `any`).
  template <class F>
  void for_cells(const PtsSet& p, F&& f) const {
    for (const PtsTarget& x : p.targets) {
      if (x.obj == 0 || x.obj >= tm_.objects.size()) continue;
      const Object& obj = tm_.objects[x.obj];
      if (x.offset == kAny) {
        for (std::uint32_t c = 0; c < obj.cells.size(); ++c) f(x.obj, c);
      } else if (const auto c = obj.cell_at(x.offset)) {
        f(x.obj, *c);
      }
    }
  }

  /// The pointers the cells designated by `addr` may hold.
  PtsSet read(const PtsSet& addr) const {
    PtsSet out;
    if (addr.any) {
      out.any = true;
      return out;
    }
    for_cells(addr, [&](ObjectId o, std::uint32_t c) { out.add(pt_.cell(o, c)); });
    return out;
  }

  /// Collapses an object's offsets into (object, any) when there are too many, or when
  /// (object, any) is there already.
  void normalize(PtsSet& s) const {
    if (s.any) return;
    std::map<ObjectId, unsigned> n;
    std::set<ObjectId> collapse;
    for (const PtsTarget& x : s.targets)
      if (x.offset == kAny || ++n[x.obj] > pt_.max_offsets_) collapse.insert(x.obj);
    for (ObjectId o : collapse) {
      for (auto it = s.targets.lower_bound({o, kAny}); it != s.targets.end() && it->obj == o;) it = s.targets.erase(it);
      s.targets.insert({o, kAny});
    }
  }

 private:
  const PointsTo& pt_;
  const ThreadModel& tm_;
};

class PointsTo::Solver {
 public:
  Solver(PointsTo& pt, const PointsToOptions& o) : pt_(pt), tm_(*pt.tm_), o_(o), view_(pt) {}

  void run() {
    pt_.locals_.resize(tm_.threads.size());
    for (ThreadId t = 0; t < tm_.threads.size(); ++t) pt_.locals_[t].assign(tm_.threads[t].locals.size(), PtsSet{});
    retvals_.assign(tm_.threads.size(), PtsSet{});
    for (const Object& obj : tm_.objects)
      for (std::uint32_t c = 0; c < obj.cells.size(); ++c) {
        const Cell& cell = obj.cells[c];
        if (!cell.type.is_ptr()) continue;
        PtsSet& s = pt_.cells_[{obj.id, c}];
        if (cell.init_nondet) s.any = true;  // an indeterminate pointer (locals, malloc)
        else if (cell.init_obj != 0 && !o_.test_drop_initial_targets) s.targets.insert({cell.init_obj, static_cast<std::int64_t>(cell.init)});
      }
    for (bool changed = true; changed;) {
      changed = false;
      for (ThreadId t = 0; t < tm_.threads.size(); ++t)
        for (const Instr& in : tm_.threads[t].code) changed |= step(t, in);
    }
    if (o_.test_drop_one_target)
      for (auto& ls : pt_.locals_)
        for (PtsSet& s : ls)
          if (!s.any && !s.targets.empty()) {
            s.targets.erase(s.targets.begin());
            return;
          }
  }

 private:
  bool store(const PtsSet& addr, const PtsSet& v) {
    if (!v.any && v.targets.empty()) return false;
    if (addr.any) return pt_.anywhere_stores_.add(v);
    bool changed = false;
    view_.for_cells(addr, [&](ObjectId o, std::uint32_t c) {
      if (tm_.objects[o].cells[c].type.is_ptr()) changed |= add_norm(pt_.cells_[{o, c}], v);
    });
    return changed;
  }

  bool add_local(ThreadId t, LocalId l, const PtsSet& v) {
    if (l == kNoLocal || l >= pt_.locals_[t].size() || !tm_.threads[t].locals[l].type.is_ptr()) return false;
    return add_norm(pt_.locals_[t][l], v);
  }

  bool add_norm(PtsSet& s, const PtsSet& v) {
    if (!s.add(v)) return false;
    view_.normalize(s);
    return true;
  }

  bool step(ThreadId t, const Instr& in) {
    switch (in.kind) {
      case InstrKind::Assign: return add_local(t, in.lhs, view_.eval(t, in.a));
      case InstrKind::Havoc: {
        PtsSet any;
        any.any = true;
        return add_local(t, in.lhs, any);
      }
      case InstrKind::Malloc: {
        PtsSet m;
        m.targets.insert({in.obj, 0});
        return add_local(t, in.lhs, m);
      }
      case InstrKind::Store: return in.b && in.b->type.is_ptr() && store(view_.eval(t, in.a), view_.eval(t, in.b));
      case InstrKind::ThreadCreate: {
        bool changed = false;
        if (!in.b || !in.b->type.is_ptr()) return false;
        const PtsSet arg = view_.eval(t, in.b);
        for (ThreadId u : in.threads)
          if (u < tm_.threads.size()) changed |= add_local(u, tm_.threads[u].param, arg);
        return changed;
      }
      case InstrKind::ThreadExit:
        return in.a && in.a->type.is_ptr() && add_norm(retvals_[t], view_.eval(t, in.a));
      case InstrKind::ThreadJoin: {
        if (!in.b) return false;
        PtsSet any_result;  // the joined thread is a run-time value: any thread's result
        for (const PtsSet& r : retvals_) any_result.add(r);
        return store(view_.eval(t, in.b), any_result);
      }
      default: return false;
    }
  }

  PointsTo& pt_;
  const ThreadModel& tm_;
  const PointsToOptions& o_;
  View view_;
  std::vector<PtsSet> retvals_;
};

PointsTo PointsTo::analyse(const ThreadModel& tm, const PointsToOptions& o) {
  PointsTo pt(tm);
  pt.max_offsets_ = o.max_offsets;
  Solver(pt, o).run();
  return pt;
}

PtsSet PointsTo::of(ThreadId t, ExprRef e) const { return View(*this).eval(t, e); }

const PtsSet& PointsTo::local(ThreadId t, LocalId l) const {
  if (t >= locals_.size() || l >= locals_[t].size()) return kEmpty;
  return locals_[t][l];
}

PtsSet PointsTo::cell(ObjectId o, std::uint32_t c) const {
  PtsSet out;
  auto it = cells_.find({o, c});
  if (it == cells_.end()) return out;  // not a pointer cell
  out = it->second;
  out.add(anywhere_stores_);
  return out;
}

std::optional<std::vector<std::pair<ObjectId, std::uint32_t>>> PointsTo::cells_of(ThreadId t, ExprRef e) const {
  const View v(*this);
  const PtsSet p = v.eval(t, e);
  if (p.any) return std::nullopt;
  std::vector<std::pair<ObjectId, std::uint32_t>> out;
  v.for_cells(p, [&](ObjectId obj, std::uint32_t c) { out.emplace_back(obj, c); });
  return out;
}

namespace {

std::string target_name(const ThreadModel& tm, const PtsTarget& x) {
  const Object& o = tm.objects[x.obj];
  if (x.offset == kAny) return o.name + "+any";
  if (o.cells.empty() && x.offset == 0) return o.name;  // a function, an argv string
  if (const auto c = o.cell_at(x.offset)) {
    const std::string& n = o.cells[*c].name;
    return n.empty() || o.cells.size() == 1 ? o.name : n;
  }
  return o.name + (x.offset >= 0 ? "+" : "") + std::to_string(x.offset);
}

std::string set_text(const ThreadModel& tm, const PtsSet& s) {
  if (s.any) return "anywhere";
  std::string out = "{";
  for (const PtsTarget& x : s.targets) out += (out.size() > 1 ? ", " : "") + target_name(tm, x);
  return out + "}";
}

}  // namespace

std::string PointsTo::print() const {
  const ThreadModel& tm = *tm_;
  std::ostringstream os;
  for (ThreadId t = 0; t < locals_.size(); ++t)
    for (LocalId l = 0; l < locals_[t].size(); ++l) {
      const PtsSet& s = locals_[t][l];
      if (!s.any && s.targets.empty()) continue;
      os << tm.threads[t].name << "::" << tm.threads[t].locals[l].name << " -> " << set_text(tm, s) << '\n';
    }
  for (const auto& [k, s0] : cells_) {
    const PtsSet s = cell(k.first, k.second);
    if (!s.any && s.targets.empty()) continue;
    const Object& o = tm.objects[k.first];
    const std::string& n = o.cells[k.second].name;
    os << (n.empty() ? o.name : n) << " -> " << set_text(tm, s) << '\n';
  }
  if (anywhere_stores_.any || !anywhere_stores_.targets.empty())
    os << "(every pointer cell, through stores to anywhere) -> " << set_text(tm, anywhere_stores_) << '\n';
  return os.str();
}

}  // namespace siren::ir

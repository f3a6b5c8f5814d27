// The transaction graph with octagon invariants: see transaction_graph.hpp and DESIGN.md §B5.
#include "invariants/transaction_graph.hpp"

#include "ir/concurrency.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace siren::invariants {

using ir::ExprRef;
using ir::Instr;
using ir::InstrKind;
using ir::Op;
using ir::ThreadId;
using ir::Type;

bool TgState::is_bottom() const {
  for (const auto& p : packs)
    if (p.is_bottom()) return true;
  return false;
}

std::optional<std::size_t> TransactionGraph::find(const std::vector<std::int32_t>& locs, bool terminated) const {
  std::string key(reinterpret_cast<const char*>(locs.data()), locs.size() * sizeof(std::int32_t));
  key.push_back(terminated ? 'T' : 'R');
  auto it = index.find(key);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

namespace {

__extension__ typedef __int128 W;
constexpr W kSafe = W{1} << 61;  // bounds beyond ±2^61 are dropped (sound weakening)

std::string node_key(const std::vector<std::int32_t>& locs, bool terminated) {
  std::string key(reinterpret_cast<const char*>(locs.data()), locs.size() * sizeof(std::int32_t));
  key.push_back(terminated ? 'T' : 'R');
  return key;
}

// --- intervals over 128-bit integers -------------------------------------------------------
struct Itv {
  bool lo_inf = true, hi_inf = true;
  W lo = 0, hi = 0;
  static Itv point(W v) { return {false, false, v, v}; }
  static Itv of(W l, W h) { return {false, false, l, h}; }
  bool singleton() const { return !lo_inf && !hi_inf && lo == hi; }
};

Itv type_range(Type t) {
  if (t.is_bool()) return Itv::of(0, 1);
  if (!t.is_int()) return {};
  if (t.is_signed) return Itv::of(-(W{1} << (t.width - 1)), (W{1} << (t.width - 1)) - 1);
  return Itv::of(0, (W{1} << t.width) - 1);
}
bool fits(const Itv& v, Type t) {
  const Itv r = type_range(t);
  return !v.lo_inf && !v.hi_inf && !r.lo_inf && v.lo >= r.lo && v.hi <= r.hi;
}
Itv add(const Itv& a, const Itv& b) {
  Itv r;
  r.lo_inf = a.lo_inf || b.lo_inf;
  r.hi_inf = a.hi_inf || b.hi_inf;
  if (!r.lo_inf) r.lo = a.lo + b.lo;
  if (!r.hi_inf) r.hi = a.hi + b.hi;
  return r;
}
Itv scale(const Itv& a, W k) {
  if (k == 0) return Itv::point(0);
  Itv r;
  if (k > 0) {
    r.lo_inf = a.lo_inf, r.hi_inf = a.hi_inf;
    r.lo = a.lo * k, r.hi = a.hi * k;
  } else {
    r.lo_inf = a.hi_inf, r.hi_inf = a.lo_inf;
    r.lo = a.hi * k, r.hi = a.lo * k;
  }
  return r;
}
Itv hull(const Itv& a, const Itv& b) {
  Itv r;
  r.lo_inf = a.lo_inf || b.lo_inf;
  r.hi_inf = a.hi_inf || b.hi_inf;
  if (!r.lo_inf) r.lo = std::min(a.lo, b.lo);
  if (!r.hi_inf) r.hi = std::max(a.hi, b.hi);
  return r;
}
bool big(W v) { return v > kSafe || v < -kSafe; }
Itv mul(const Itv& a, const Itv& b) {
  if (a.lo_inf || a.hi_inf || b.lo_inf || b.hi_inf) return {};
  if (big(a.lo) || big(a.hi) || big(b.lo) || big(b.hi)) return {};
  W c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return Itv::of(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}
std::optional<std::int64_t> opt_lo(const Itv& v) {
  if (v.lo_inf || v.lo < -kSafe) return std::nullopt;
  return static_cast<std::int64_t>(std::min(v.lo, kSafe));
}
std::optional<std::int64_t> opt_hi(const Itv& v) {
  if (v.hi_inf || v.hi > kSafe) return std::nullopt;
  return static_cast<std::int64_t>(std::max(v.hi, -kSafe));
}

/// Concrete value of a constant / cell bits as a mathematical integer of its type.
W value_of(Type t, std::uint64_t bits) {
  if (t.is_bool()) return bits & 1;
  if (t.is_int() && !t.is_signed) return static_cast<W>(ir::normalize(t, bits));
  return static_cast<W>(ir::as_signed(t, ir::normalize(t, bits)));
}

// --- linear forms --------------------------------------------------------------------------
struct Lin {
  std::vector<std::pair<int, W>> terms;  // (var, coefficient), sorted by var, no zeros
  W c = 0;
  static Lin constant(W v) { return {{}, v}; }
  static Lin var(int v) { return {{{v, 1}}, 0}; }
};
Lin lin_add(const Lin& a, const Lin& b, W kb = 1) {
  Lin r;
  r.c = a.c + kb * b.c;
  std::size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      r.terms.push_back(a.terms[i++]);
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      r.terms.push_back({b.terms[j].first, kb * b.terms[j].second});
      ++j;
    } else {
      const W k = a.terms[i].second + kb * b.terms[j].second;
      if (k != 0) r.terms.push_back({a.terms[i].first, k});
      ++i, ++j;
    }
  }
  return r;
}
Lin lin_scale(const Lin& a, W k) {
  if (k == 0) return Lin::constant(0);
  Lin r = a;
  r.c *= k;
  for (auto& t : r.terms) t.second *= k;
  return r;
}

struct AVal {
  bool lin_ok = false;
  Lin lin;
  Itv itv;
};

// --- thread-model facts --------------------------------------------------------------------
constexpr ir::ObjectId kAnyObject = ~0u;

bool is_sync_addr_kind(InstrKind k) {
  switch (k) {
    case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::Unlock: case InstrKind::RdLock:
    case InstrKind::WrLock: case InstrKind::RwUnlock: case InstrKind::CondSignal: case InstrKind::CondBroadcast:
      return true;
    default: return false;
  }
}

/// Objects accessed by an instruction (kAnyObject for a non-constant address) and whether it is
/// visible whatever objects it touches (sync, thread operations, ValidPtr).
struct InstrFacts {
  std::vector<ir::ObjectId> objects;  // read or written (kAnyObject: through a pointer)
  std::vector<ir::ObjectId> written;  // written (kAnyObject: through a pointer)
  bool inherently_visible = false;
};

class Facts {
 public:
  explicit Facts(const ir::ThreadModel& tm) : tm_(tm) {
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
        if (in.kind == InstrKind::ThreadExit || in.kind == InstrKind::Abort) continue;
        if (in.kind == InstrKind::Goto) {
          push(in.target);
          if (!(in.a && in.a->is_const() && in.a->value != 0)) push(pc + 1);
        } else {
          push(pc + 1);
        }
      }
      outside_.push_back(std::vector<bool>(code.size()));
      for (std::size_t pc = 0; pc < code.size(); ++pc) outside_.back()[pc] = (st[pc] & 1) || st[pc] == 0;
    }
  }

  bool escaped(ir::ObjectId o) const { return o < escaped_.size() && escaped_[o]; }
  const InstrFacts& at(ThreadId t, std::uint32_t pc) const { return facts_[t][pc]; }
  bool may_be_outside_atomic(ThreadId t, std::uint32_t pc) const { return outside_[t][pc]; }

 private:
  void scan(ExprRef e, bool direct_addr, InstrFacts& f) {
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
  void access(ExprRef p, InstrFacts& f, bool write) {
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
  InstrFacts scan_instr(const Instr& in) {
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
        if (is_sync_addr_kind(in.kind)) {
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

  const ir::ThreadModel& tm_;
  std::vector<bool> escaped_;
  std::vector<std::vector<InstrFacts>> facts_;
  std::vector<std::vector<bool>> outside_;
};

// --- the analysis --------------------------------------------------------------------------

struct TxOut {
  std::int32_t loc = 0;  // pc, kLocFinished
  bool terminated = false;
  std::vector<std::uint32_t> started;  // slots started in this transaction (sorted)
  TgState st;
  std::uint32_t last_pc = 0;
};

struct Sliced {
  std::uint32_t pc;
  bool branch;
};

class Builder {
 public:
  Builder(const ir::ThreadModel& tm, const TgOptions& o, TransactionGraph& g)
      : tm_(tm), o_(o), g_(g), facts_(tm), start_(std::chrono::steady_clock::now()) {}

  void run() {
    make_vars();
    make_thresholds();
    // Initially every object accessed by two threads, or escaped, is shared.
    std::vector<std::vector<bool>> reach(tm_.threads.size());
    for (std::size_t t = 0; t < tm_.threads.size(); ++t) reach[t].assign(tm_.threads[t].code.size(), true);
    std::vector<std::vector<bool>> prev_switch;
    for (unsigned round = 0; round <= o_.max_refinements; ++round) {
      compute_switch_points(reach);
      if (round > 0 && switch_ == prev_switch) break;
      prev_switch = switch_;
      g_.rounds = round + 1;
      build_graph();
      if (!g_.complete) break;
      reach = executed_;
    }
    compute_relevance();
    g_.switch_points = switch_;
    g_.seconds = elapsed();
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // ---- variables and clusters -------------------------------------------------------------
  void make_vars() {
    local_var_.resize(tm_.threads.size());
    for (const auto& o : tm_.objects) {
      if (o.id == 0 || (o.kind != ir::ObjectKind::Global && o.kind != ir::ObjectKind::Local)) continue;
      for (std::uint32_t c = 0; c < o.cells.size(); ++c) {
        const auto& cell = o.cells[c];
        if (cell.type.is_ptr()) continue;
        TgVar v;
        v.kind = TgVar::Cell;
        v.name = cell.name;
        if (o.kind == ir::ObjectKind::Local)
          v.name = o.cells.size() == 1 ? o.name : o.name + "[" + cell.name + "]";
        v.type = cell.type;
        v.obj = o.id;
        v.cell = c;
        cell_var_[key(o.id, c)] = static_cast<int>(vars_.size());
        vars_.push_back(v);
      }
    }
    std::set<std::string> names;
    for (const auto& v : vars_) names.insert(v.name);
    for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
      const auto& th = tm_.threads[t];
      local_var_[t].assign(th.locals.size(), -1);
      for (std::uint32_t l = 0; l < th.locals.size(); ++l) {
        if (th.locals[l].type.is_ptr()) continue;
        TgVar v;
        v.kind = TgVar::Local;
        v.name = th.locals[l].name;
        if (names.count(v.name)) v.name = th.name + "::" + v.name;
        names.insert(v.name);
        v.type = th.locals[l].type;
        v.thread = static_cast<ThreadId>(t);
        v.local = l;
        local_var_[t][l] = static_cast<int>(vars_.size());
        vars_.push_back(v);
      }
    }
    // union-find over def-use co-occurrence
    std::vector<int> parent(vars_.size());
    std::iota(parent.begin(), parent.end(), 0);
    std::function<int(int)> find = [&](int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
    auto unite = [&](const std::vector<int>& vs) {
      for (std::size_t i = 1; i < vs.size(); ++i) parent[find(vs[i])] = find(vs[0]);
    };
    for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
      for (const Instr& in : tm_.threads[t].code) {
        std::vector<int> vs;
        auto add = [&](ExprRef e) { vars_in(static_cast<ThreadId>(t), e, vs); };
        switch (in.kind) {
          case InstrKind::Assign:
            if (in.lhs < local_var_[t].size() && local_var_[t][in.lhs] >= 0) vs.push_back(local_var_[t][in.lhs]);
            add(in.a);
            break;
          case InstrKind::Store:
            if (int c = const_cell(in.a); c >= 0) vs.push_back(c);
            add(in.b);
            break;
          case InstrKind::Goto: case InstrKind::Assume: case InstrKind::Assert: case InstrKind::ThreadJoin:
            add(in.a);
            break;
          case InstrKind::ThreadCreate:
            for (std::uint32_t slot : in.threads)
              if (slot < tm_.threads.size()) {
                const auto& th = tm_.threads[slot];
                if (th.param != ir::kNoLocal && th.param < local_var_[slot].size() && local_var_[slot][th.param] >= 0) {
                  std::vector<int> w;
                  vars_in(static_cast<ThreadId>(t), in.b, w);
                  w.push_back(local_var_[slot][th.param]);
                  unite(w);
                }
              }
            break;
          default: break;
        }
        unite(vs);
      }
    }
    std::map<int, std::vector<int>> groups;
    for (int v = 0; v < static_cast<int>(vars_.size()); ++v) groups[find(v)].push_back(v);
    for (auto& [root, members] : groups) {
      for (std::size_t i = 0; i < members.size(); i += o_.max_pack_vars) {
        TgCluster c;
        for (std::size_t j = i; j < std::min(members.size(), i + o_.max_pack_vars); ++j) {
          vars_[members[j]].pack = static_cast<int>(clusters_.size());
          vars_[members[j]].index = static_cast<int>(c.vars.size());
          c.vars.push_back(members[j]);
        }
        clusters_.push_back(std::move(c));
      }
    }
    state_bytes_ = 0;
    for (const auto& c : clusters_) state_bytes_ += 4 * c.vars.size() * c.vars.size() * sizeof(Bound) + 64;
    g_.vars = vars_;
    g_.clusters = clusters_;
  }

  static std::uint64_t key(ir::ObjectId o, std::uint32_t c) { return (std::uint64_t{o} << 32) | c; }
  int const_cell(ExprRef p) const {
    if (!p || p->op != Op::ObjAddr) return -1;
    const std::int64_t off = p->offset();
    if (off < 0 || off > UINT32_MAX) return -1;
    auto it = cell_var_.find(key(p->obj, static_cast<std::uint32_t>(off)));
    return it == cell_var_.end() ? -1 : it->second;
  }
  int local_of(ThreadId t, ir::LocalId l) const {
    return l < local_var_[t].size() ? local_var_[t][l] : -1;
  }
  void vars_in(ThreadId t, ExprRef e, std::vector<int>& out) const {
    if (!e) return;
    if (e->op == Op::Local) {
      if (int v = local_of(t, static_cast<ir::LocalId>(e->value)); v >= 0) out.push_back(v);
      return;
    }
    if (e->op == Op::Load) {
      if (int v = const_cell(e->kids[0]); v >= 0) out.push_back(v);
      else vars_in(t, e->kids[0], out);
      return;
    }
    for (ExprRef k : e->kids) vars_in(t, k, out);
  }

  void make_thresholds() {
    std::set<std::int64_t> th = {0, 1, -1};
    for (unsigned w : {8u, 16u, 32u, 64u}) {
      for (bool s : {true, false}) {
        const Itv r = type_range(Type::integer(w, s));
        if (auto lo = opt_lo(r)) th.insert(*lo);
        if (auto hi = opt_hi(r)) th.insert(*hi);
      }
    }
    std::set<std::int64_t> consts;
    for (const auto& t : tm_.threads)
      for (const Instr& in : t.code)
        for (ExprRef e : {in.a, in.b})
          if (e)
            ir::visit_post_order(e, [&](ExprRef n) {
              if (n->op == Op::Const && (n->type.is_int())) {
                const W v = value_of(n->type, n->value);
                if (!big(v)) consts.insert(static_cast<std::int64_t>(v));
              }
            });
    for (std::int64_t c : consts) {  // Octagon::widen sorts its thresholds on every call: keep few
      if (th.size() > 80) break;
      th.insert(c);
    }
    thresholds_.assign(th.begin(), th.end());
  }

  // ---- switch points ---------------------------------------------------------------------
  void compute_switch_points(const std::vector<std::vector<bool>>& reach) {
    const std::size_t nobj = tm_.objects.size();
    std::vector<std::set<ThreadId>> users(nobj);
    for (std::size_t t = 0; t < tm_.threads.size(); ++t)
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
        if (!reach[t][pc]) continue;
        for (ir::ObjectId o : facts_.at(static_cast<ThreadId>(t), pc).objects)
          if (o != kAnyObject && o < nobj) users[o].insert(static_cast<ThreadId>(t));
      }
    shared_obj_.assign(nobj, false);
    for (std::size_t o = 1; o < nobj; ++o) shared_obj_[o] = facts_.escaped(static_cast<ir::ObjectId>(o)) || users[o].size() > 1;
    // Protected accesses (DESIGN.md B5 step 1, "POR with synchronization constraints"): an
    // access of a shared object o is no switch point when no conflicting access of o by
    // another thread can run beside it: both hold a common must-held lock, or create/join
    // order keeps the other thread stopped (not yet created, or joined). Sound (Lipton): a
    // lock, create or join is always a switch point, so from the first step of the access's
    // transaction to the access the lock stays held (the other thread stays stopped), no
    // conflicting access happens in between, and the access commutes with what does.
    struct Acc {
      ThreadId t;
      std::uint32_t pc;
      bool write;
      const std::set<std::uint64_t>* locks;
    };
    std::vector<std::vector<Acc>> by_obj(nobj);
    std::vector<Acc> any;  // accesses through pointers: any object
    if (o_.lockset_transactions) {
      if (locks_.empty())
        for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
          locks_.push_back(ir::must_locksets(tm_, static_cast<ThreadId>(t)));
          order_.push_back(ir::create_join_order(tm_, static_cast<ThreadId>(t)));
        }
      for (std::size_t t = 0; t < tm_.threads.size(); ++t)
        for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
          if (!reach[t][pc] || !locks_[t][pc]) continue;
          const InstrFacts& f = facts_.at(static_cast<ThreadId>(t), pc);
          for (ir::ObjectId o : f.objects) {
            const bool w = std::find(f.written.begin(), f.written.end(), o) != f.written.end() ||
                           std::find(f.written.begin(), f.written.end(), kAnyObject) != f.written.end();
            const Acc a{static_cast<ThreadId>(t), pc, w, &*locks_[t][pc]};
            if (o == kAnyObject) any.push_back(a);
            else if (o < nobj) by_obj[o].push_back(a);
          }
        }
    }
    auto common = [](const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
      for (std::uint64_t k : a)
        if (b.count(k)) return true;
      return false;
    };
    auto protected_access = [&](ThreadId t, std::uint32_t pc, ir::ObjectId o) {
      if (!o_.lockset_transactions || !locks_[t][pc]) return false;
      const InstrFacts& f = facts_.at(t, pc);
      const bool w = std::find(f.written.begin(), f.written.end(), o) != f.written.end();
      for (const auto* list : {&by_obj[o], &any})
        for (const Acc& a : *list)
          if (a.t != t && (w || a.write) && !common(*locks_[t][pc], *a.locks) && !order_[t].stopped_at(pc, a.t) &&
              !order_[a.t].stopped_at(a.pc, t))
            return false;
      return true;
    };
    switch_.assign(tm_.threads.size(), {});
    g_.protected_accesses = 0;
    for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
      const auto& code = tm_.threads[t].code;
      switch_[t].assign(code.size(), false);
      for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
        const InstrFacts& f = facts_.at(static_cast<ThreadId>(t), pc);
        bool visible = f.inherently_visible, shared = false;
        for (ir::ObjectId o : f.objects) {
          if (o == kAnyObject) visible = true;
          else if (o < nobj && shared_obj_[o]) {
            shared = true;
            if (!protected_access(static_cast<ThreadId>(t), pc, o)) visible = true;
          }
        }
        const bool outside = facts_.may_be_outside_atomic(static_cast<ThreadId>(t), pc);
        switch_[t][pc] = pc == 0 || (visible && outside);
        if (pc != 0 && !visible && shared && outside && reach[t][pc]) ++g_.protected_accesses;
      }
    }
  }

  // ---- abstract values ---------------------------------------------------------------------
  Itv var_itv(const TgState& s, int v) const {
    const Octagon& o = s.packs[vars_[v].pack];
    const int i = vars_[v].index;
    Interval iv;
    if (o.is_closed()) {
      if (o.is_bottom()) return Itv::of(1, 0);
      const Bound up = o.entry(2 * i + 1, 2 * i), down = o.entry(2 * i, 2 * i + 1);
      if (up != kInfinity) iv.hi = up / 2;
      if (down != kInfinity) iv.lo = -(down / 2);
    } else {
      iv = o.interval(i);
    }
    Itv r;
    if (iv.lo) r.lo_inf = false, r.lo = *iv.lo;
    if (iv.hi) r.hi_inf = false, r.hi = *iv.hi;
    return r;
  }
  Itv lin_itv(const TgState& s, const Lin& l) const {
    Itv r = Itv::point(l.c);
    for (const auto& [v, k] : l.terms) r = add(r, scale(var_itv(s, v), k));
    return r;
  }
  AVal unknown(Type t) const { return {false, {}, type_range(t)}; }
  AVal make(const TgState& s, Lin l, Type t) const {
    Itv i = lin_itv(s, l);
    if (!fits(i, t)) return unknown(t);
    return {true, std::move(l), i};
  }
  AVal from_itv(Itv i, Type t) const {
    if (!fits(i, t)) return unknown(t);
    if (i.singleton()) return {true, Lin::constant(i.lo), i};
    return {false, {}, i};
  }

  AVal eval(const TgState& s, ThreadId t, ExprRef e) {
    const Type ty = e->type;
    switch (e->op) {
      case Op::Const:
        if (ty.is_ptr()) return unknown(ty);
        return {true, Lin::constant(value_of(ty, e->value)), Itv::point(value_of(ty, e->value))};
      case Op::Local: {
        const int v = local_of(t, static_cast<ir::LocalId>(e->value));
        if (v < 0) return unknown(ty);
        return {true, Lin::var(v), var_itv(s, v)};
      }
      case Op::Load: {
        const int v = const_cell(e->kids[0]);
        if (v < 0 || !(vars_[v].type == ty)) return unknown(ty);
        return {true, Lin::var(v), var_itv(s, v)};
      }
      case Op::Add: case Op::Sub: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
        const W k = e->op == Op::Add ? 1 : -1;
        if (a.lin_ok && b.lin_ok) return make(s, lin_add(a.lin, b.lin, k), ty);
        return from_itv(add(a.itv, scale(b.itv, k)), ty);
      }
      case Op::Neg: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]);
        if (a.lin_ok) return make(s, lin_scale(a.lin, -1), ty);
        return from_itv(scale(a.itv, -1), ty);
      }
      case Op::Mul: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
        if (a.lin_ok && b.lin_ok && b.lin.terms.empty() && !big(b.lin.c)) return make(s, lin_scale(a.lin, b.lin.c), ty);
        if (a.lin_ok && b.lin_ok && a.lin.terms.empty() && !big(a.lin.c)) return make(s, lin_scale(b.lin, a.lin.c), ty);
        return from_itv(mul(a.itv, b.itv), ty);
      }
      case Op::ZExt: case Op::SExt: case Op::Trunc: {
        const ExprRef k = e->kids[0];
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, k);
        // value unchanged when it fits the target type (a bool source is 0/1)
        if (fits(a.itv, ty)) {
          if (e->op == Op::SExt && k->type.is_int() && !k->type.is_signed) {
            // unsigned source read as signed first: unchanged only below 2^(w-1)
            if (a.itv.hi >= (W{1} << (k->type.width - 1))) return unknown(ty);
          }
          if (e->op == Op::ZExt && k->type.is_int() && k->type.is_signed && a.itv.lo < 0) return unknown(ty);
          return a;
        }
        if (e->op == Op::ZExt && k->type.is_int() && k->type.is_signed && !a.itv.hi_inf && a.itv.hi < 0 &&
            !a.itv.lo_inf) {
          const W m = W{1} << k->type.width;
          if (a.lin_ok) return make(s, lin_add(a.lin, Lin::constant(m)), ty);
          return from_itv(add(a.itv, Itv::point(m)), ty);
        }
        return unknown(ty);
      }
      case Op::URem: case Op::SRem: case Op::UDiv: case Op::SDiv: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
        if (!b.itv.singleton() || b.itv.lo <= 0 || a.itv.lo_inf || a.itv.hi_inf) return unknown(ty);
        const W d = b.itv.lo;
        if (e->op == Op::URem || e->op == Op::SRem) {
          if (a.itv.lo >= 0) {
            if (a.itv.hi < d) return a;
            return from_itv(Itv::of(0, d - 1), ty);
          }
          if (e->op == Op::SRem) return from_itv(Itv::of(a.itv.hi < 0 ? -(d - 1) : -(d - 1), a.itv.hi < 0 ? 0 : d - 1), ty);
          return unknown(ty);
        }
        // division by a positive constant: truncation toward zero is monotone
        return from_itv(Itv::of(a.itv.lo / d, a.itv.hi / d), ty);
      }
      case Op::BitAnd: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
        if (!a.itv.lo_inf && a.itv.lo >= 0 && !a.itv.hi_inf) {
          if (!b.itv.lo_inf && b.itv.lo >= 0 && !b.itv.hi_inf) return from_itv(Itv::of(0, std::min(a.itv.hi, b.itv.hi)), ty);
          return from_itv(Itv::of(0, a.itv.hi), ty);
        }
        if (!b.itv.lo_inf && b.itv.lo >= 0 && !b.itv.hi_inf) return from_itv(Itv::of(0, b.itv.hi), ty);
        return unknown(ty);
      }
      case Op::LShr: case Op::AShr: {
        if (!ty.is_int()) return unknown(ty);
        AVal a = eval(s, t, e->kids[0]);
        if (!a.itv.lo_inf && a.itv.lo >= 0 && !a.itv.hi_inf) return from_itv(Itv::of(0, a.itv.hi), ty);
        return unknown(ty);
      }
      case Op::Ite: {
        AVal a = eval(s, t, e->kids[1]), b = eval(s, t, e->kids[2]);
        const int d = decide(s, t, e->kids[0]);
        if (d == 1) return a;
        if (d == 0) return b;
        return from_itv(hull(a.itv, b.itv), ty);
      }
      case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle:
      case Op::LNot: case Op::LAnd: case Op::LOr: case Op::IntToBool: {
        const int d = decide(s, t, e);
        if (d == 1) return {true, Lin::constant(1), Itv::point(1)};
        if (d == 0) return {true, Lin::constant(0), Itv::point(0)};
        return {false, {}, Itv::of(0, 1)};
      }
      default:
        return unknown(ty);
    }
  }

  /// Bottom test without closing: the states of this analysis are closed or widened iterates of
  /// non-empty states (never empty), so an empty pack is always a closed one.
  static bool qbot(const TgState& s) {
    for (const auto& p : s.packs)
      if (p.is_closed() && p.is_bottom()) return true;
    return false;
  }

  /// 1: the condition holds in every state of `s`, 0: in none, -1: unknown.
  int decide(const TgState& s, ThreadId t, ExprRef c) {
    // Nested decisions (a comparison inside an Ite inside a guard ...) multiply: beyond a small
    // depth the answer is "unknown", which is always sound.
    if (decide_depth_ >= 2) return -1;
    struct Depth {
      unsigned& d;
      explicit Depth(unsigned& x) : d(x) { ++d; }
      ~Depth() { --d; }
    } depth(decide_depth_);
    TgState p = s;
    guard(p, t, c, true);
    if (qbot(p)) return 0;
    TgState n = s;
    guard(n, t, c, false);
    if (qbot(n)) return 1;
    return -1;
  }

  void set_bottom(TgState& s) const {
    for (auto& p : s.packs) p = Octagon::bottom(p.num_vars());
  }

  /// s := s ∧ (l ≤ 0)
  void apply_le(TgState& s, const Lin& l) const {
    if (l.terms.empty()) {
      if (l.c > 0) set_bottom(s);
      return;
    }
    std::set<int> packs;
    for (const auto& [v, k] : l.terms) packs.insert(vars_[v].pack);
    for (int p : packs) {
      std::vector<std::int64_t> coeffs(clusters_[p].vars.size(), 0);
      Itv rest = Itv::point(l.c);
      bool ok = true;
      for (const auto& [v, k] : l.terms) {
        if (vars_[v].pack == p) {
          if (big(k)) ok = false;
          else coeffs[vars_[v].index] = static_cast<std::int64_t>(k);
        } else {
          rest = add(rest, scale(var_itv(s, v), k));
        }
      }
      if (!ok || rest.lo_inf || big(rest.lo)) continue;
      s.packs[p].guard_linear(coeffs, static_cast<std::int64_t>(rest.lo));
      if (s.packs[p].is_bottom()) {
        set_bottom(s);
        return;
      }
    }
  }
  void apply_ne(TgState& s, const Lin& d) const {  // d ≠ 0
    if (d.terms.empty()) {
      if (d.c == 0) set_bottom(s);
      return;
    }
    if (d.terms.size() == 1 && (d.terms[0].second == 1 || d.terms[0].second == -1)) {
      const int v = d.terms[0].first;
      const W c = d.terms[0].second == 1 ? -d.c : d.c;
      if (big(c)) return;
      s.packs[vars_[v].pack].guard_not_equal(vars_[v].index, static_cast<std::int64_t>(c));
      if (s.packs[vars_[v].pack].is_bottom()) set_bottom(s);
    }
  }
  /// The operand as a linear form for a constraint in which it appears with sign `sign` on the
  /// ≤ 0 side: unknown operands are replaced by their worst-case bound (nullopt: none).
  std::optional<Lin> bound_form(const AVal& a, int sign) const {
    if (a.lin_ok) return a.lin;
    if (sign > 0) {
      if (a.itv.lo_inf) return std::nullopt;
      return Lin::constant(a.itv.lo);
    }
    if (a.itv.hi_inf) return std::nullopt;
    return Lin::constant(a.itv.hi);
  }
  /// s := s ∧ (a − b + k ≤ 0)
  void apply_cmp_le(TgState& s, const AVal& a, const AVal& b, W k) const {
    auto la = bound_form(a, +1), lb = bound_form(b, -1);
    if (!la || !lb) return;
    Lin l = lin_add(*la, *lb, -1);
    l.c += k;
    apply_le(s, l);
  }

  void guard(TgState& s, ThreadId t, ExprRef c, bool pos) {
    if (qbot(s)) return;
    switch (c->op) {
      case Op::Const:
        if ((c->value != 0) != pos) set_bottom(s);
        return;
      case Op::LNot:
        return guard(s, t, c->kids[0], !pos);
      case Op::LAnd: case Op::LOr: {
        const bool conj = (c->op == Op::LAnd) == pos;
        if (conj) {
          guard(s, t, c->kids[0], pos);
          guard(s, t, c->kids[1], pos);
          return;
        }
        TgState a = s, b = s;
        guard(a, t, c->kids[0], pos);
        guard(b, t, c->kids[1], pos);
        s = join(a, b);
        return;
      }
      case Op::IntToBool: {
        AVal a = eval(s, t, c->kids[0]);
        const AVal z{true, Lin::constant(0), Itv::point(0)};
        return cmp(s, pos ? Op::Ne : Op::Eq, a, z);
      }
      case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle: {
        const Type ot = c->kids[0]->type;
        if (ot.is_ptr()) return;
        AVal a = eval(s, t, c->kids[0]), b = eval(s, t, c->kids[1]);
        Op op = c->op;
        if ((op == Op::Slt || op == Op::Sle) && ot.is_int() && !ot.is_signed) {
          const W half = W{1} << (ot.width - 1);
          if (a.itv.hi_inf || b.itv.hi_inf || a.itv.hi >= half || b.itv.hi >= half) return;
        }
        if ((op == Op::Ult || op == Op::Ule) && ot.is_int() && ot.is_signed) {
          if (a.itv.lo_inf || b.itv.lo_inf || a.itv.lo < 0 || b.itv.lo < 0) return;
        }
        if (!pos) {
          switch (op) {
            case Op::Eq: op = Op::Ne; break;
            case Op::Ne: op = Op::Eq; break;
            case Op::Ult: case Op::Slt: std::swap(a, b); op = Op::Sle; break;  // ¬(a<b) ⇔ b ≤ a
            case Op::Ule: case Op::Sle: std::swap(a, b); op = Op::Slt; break;  // ¬(a≤b) ⇔ b < a
            default: break;
          }
        }
        return cmp(s, op, a, b);
      }
      default: {
        if (!c->type.is_bool()) return;
        AVal a = eval(s, t, c);
        const AVal v{true, Lin::constant(pos ? 1 : 0), Itv::point(pos ? 1 : 0)};
        return cmp(s, Op::Eq, a, v);
      }
    }
  }
  void cmp(TgState& s, Op op, const AVal& a, const AVal& b) const {
    switch (op) {
      case Op::Ult: case Op::Slt: return apply_cmp_le(s, a, b, 1);
      case Op::Ule: case Op::Sle: return apply_cmp_le(s, a, b, 0);
      case Op::Eq:
        apply_cmp_le(s, a, b, 0);
        apply_cmp_le(s, b, a, 0);
        return;
      case Op::Ne:
        if (a.lin_ok && b.lin_ok) return apply_ne(s, lin_add(a.lin, b.lin, -1));
        if (a.itv.singleton() && b.itv.singleton() && a.itv.lo == b.itv.lo) set_bottom(s);
        return;
      default: return;
    }
  }

  TgState join(const TgState& a, const TgState& b) const {
    if (qbot(a)) return b;
    if (qbot(b)) return a;
    TgState r;
    r.packs.reserve(a.packs.size());
    for (std::size_t i = 0; i < a.packs.size(); ++i) r.packs.push_back(a.packs[i].join(b.packs[i]));
    return r;
  }
  bool leq(const TgState& a, const TgState& b) const {
    if (qbot(a)) return true;
    if (qbot(b)) return false;
    for (std::size_t i = 0; i < a.packs.size(); ++i)
      if (!a.packs[i].leq(b.packs[i])) return false;
    return true;
  }
  /// raw ∇ (closed ⊔ next) where `closed` is the closure of the raw iterate; never closed
  TgState widen(const TgState& raw, const TgState& closed, const TgState& next) const {
    if (qbot(closed)) return next;
    if (qbot(next)) return raw;
    TgState r;
    for (std::size_t i = 0; i < raw.packs.size(); ++i)
      r.packs.push_back(raw.packs[i].widen(closed.packs[i].join(next.packs[i]), thresholds_));
    return r;
  }
  void close(TgState& s) const {
    for (auto& p : s.packs) p.close();
  }

  void assign_var(TgState& s, int v, const AVal& val, Type from) const {
    if (v < 0 || qbot(s)) return;
    const Type to = vars_[v].type;
    AVal x = val;
    if (!(from == to) || !fits(x.itv, to)) {
      if (!fits(x.itv, to)) x = unknown(to);
    }
    Octagon& o = s.packs[vars_[v].pack];
    bool linear = x.lin_ok && !big(x.lin.c);
    if (linear)
      for (const auto& [w, k] : x.lin.terms)
        if (vars_[w].pack != vars_[v].pack || big(k)) linear = false;
    if (linear) {
      std::vector<std::int64_t> coeffs(clusters_[vars_[v].pack].vars.size(), 0);
      for (const auto& [w, k] : x.lin.terms) coeffs[vars_[w].index] = static_cast<std::int64_t>(k);
      o.assign_linear(vars_[v].index, coeffs, static_cast<std::int64_t>(x.lin.c));
      // assign_linear is exact for the mathematical value, which fits the type (checked above)
      return;
    }
    Itv i = x.lin_ok ? lin_itv(s, x.lin) : x.itv;
    if (!fits(i, to)) i = type_range(to);
    o.assign_interval(vars_[v].index, opt_lo(i), opt_hi(i));
  }
  void havoc_var(TgState& s, int v) const {
    if (v < 0 || qbot(s)) return;
    const Itv r = type_range(vars_[v].type);
    s.packs[vars_[v].pack].assign_interval(vars_[v].index, opt_lo(r), opt_hi(r));
  }
  /// A store through a pointer that is not a constant cell address: every tracked cell it may
  /// designate is forgotten (weak update).
  void forget_targets(TgState& s, ExprRef p) const {
    ExprRef base = p;
    while (base && base->op == Op::PtrAdd) base = base->kids[0];
    if (base && base->op == Op::ObjAddr) {
      for (const auto& [k, v] : cell_var_)
        if ((k >> 32) == base->obj) havoc_var(s, v);
      return;
    }
    if (base && base->is_const()) return;  // null / integer pointer: writes nothing valid
    for (const auto& [k, v] : cell_var_)
      if (facts_.escaped(static_cast<ir::ObjectId>(k >> 32))) havoc_var(s, v);
  }
  void store(TgState& s, ThreadId t, ExprRef p, const AVal& val, Type from) const {
    if (!p || (p->is_const())) return;
    if (p->op == Op::ObjAddr) {
      const int v = const_cell(p);
      if (v >= 0) assign_var(s, v, val, from);
      return;
    }
    forget_targets(s, p);
  }

  // ---- transactions --------------------------------------------------------------------
  struct Succ {
    std::int32_t next;  // pc, or kLocFinished / kTerm
    TgState st;
    std::int32_t started = -1;
  };
  static constexpr std::int32_t kTerm = -3;

  void record_slice(std::uint32_t pc, bool branch) {
    if (slices_) slices_->push_back({pc, branch});
  }

  /// Executes instruction `pc` of thread `t` on `s` (closed, not bottom).
  void exec(const std::vector<std::int32_t>& locs, const std::vector<std::uint32_t>& started, ThreadId t,
            std::uint32_t pc, const TgState& s, std::vector<Succ>& out) {
    const auto& th = tm_.threads[t];
    const Instr& in = th.code[pc];
    const std::int32_t next = static_cast<std::int32_t>(pc + 1);
    auto cont = [&](TgState st, std::int32_t n = -100) {
      if (qbot(st)) return;
      out.push_back({n == -100 ? next : n, std::move(st)});
    };
    auto guarded = [&](ExprRef c, bool pos, std::int32_t n) {
      TgState st = s;
      guard(st, t, c, pos);
      if (qbot(st)) {
        if (!c->is_const()) record_slice(pc, pos);
        return;
      }
      out.push_back({n, std::move(st)});
    };
    auto mutex = [&](ExprRef a) { return const_cell(a); };
    switch (in.kind) {
      case InstrKind::Assign: {
        TgState st = s;
        const int v = local_of(t, in.lhs);
        if (v >= 0) assign_var(st, v, eval(st, t, in.a), in.a->type);
        return cont(std::move(st));
      }
      case InstrKind::Havoc: {
        TgState st = s;
        havoc_var(st, local_of(t, in.lhs));
        return cont(std::move(st));
      }
      case InstrKind::Store: {
        TgState st = s;
        store(st, t, in.a, eval(st, t, in.b), in.b->type);
        return cont(std::move(st));
      }
      case InstrKind::Assume: case InstrKind::Assert:
        return guarded(in.a, true, next);
      case InstrKind::Goto: {
        if (in.a->is_const()) {
          if (in.a->value != 0) return cont(s, static_cast<std::int32_t>(in.target));
          return cont(s);
        }
        guarded(in.a, true, static_cast<std::int32_t>(in.target));
        guarded(in.a, false, next);
        return;
      }
      case InstrKind::Abort:
        return cont(s, kTerm);
      case InstrKind::ThreadExit:
        return cont(s, kLocFinished);
      case InstrKind::Lock: case InstrKind::WrLock: {
        const int m = mutex(in.a);
        if (m < 0) {
          TgState st = s;
          forget_targets(st, in.a);
          return cont(std::move(st));
        }
        TgState st = s;
        cmp(st, Op::Eq, {true, Lin::var(m), var_itv(st, m)}, {true, Lin::constant(0), Itv::point(0)});
        if (qbot(st)) {
          record_slice(pc, true);
          return;
        }
        const W val = in.kind == InstrKind::Lock ? W{t} + 1 : W{-1};
        assign_var(st, m, {true, Lin::constant(val), Itv::point(val)}, vars_[m].type);
        return cont(std::move(st));
      }
      case InstrKind::TryLock: {
        const int m = mutex(in.a);
        const int l = local_of(t, in.lhs);
        const Type lt = l >= 0 ? vars_[l].type : Type::integer(32, true);
        if (m < 0) {
          TgState st = s;
          forget_targets(st, in.a);
          assign_var(st, l, {false, {}, Itv::of(0, 16)}, lt);
          return cont(std::move(st));
        }
        TgState a = s, b = s;
        const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
        cmp(a, Op::Eq, mv, zero);
        assign_var(a, m, {true, Lin::constant(W{t} + 1), Itv::point(W{t} + 1)}, vars_[m].type);
        assign_var(a, l, zero, lt);
        cmp(b, Op::Ne, mv, zero);
        assign_var(b, l, {true, Lin::constant(16), Itv::point(16)}, lt);
        cont(std::move(a));
        cont(std::move(b));
        return;
      }
      case InstrKind::Unlock: {
        TgState st = s;
        const int m = mutex(in.a);
        if (m < 0) forget_targets(st, in.a);
        else assign_var(st, m, {true, Lin::constant(0), Itv::point(0)}, vars_[m].type);
        return cont(std::move(st));
      }
      case InstrKind::RdLock: {
        TgState st = s;
        const int m = mutex(in.a);
        if (m < 0) {
          forget_targets(st, in.a);
          return cont(std::move(st));
        }
        const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
        cmp(st, Op::Sle, zero, mv);
        if (qbot(st)) {
          record_slice(pc, true);
          return;
        }
        assign_var(st, m, make(st, lin_add(Lin::var(m), Lin::constant(1)), vars_[m].type), vars_[m].type);
        return cont(std::move(st));
      }
      case InstrKind::RwUnlock: {
        const int m = mutex(in.a);
        if (m < 0) {
          TgState st = s;
          forget_targets(st, in.a);
          return cont(std::move(st));
        }
        TgState a = s, b = s;
        const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
        cmp(a, Op::Slt, mv, zero);
        assign_var(a, m, zero, vars_[m].type);
        cmp(b, Op::Sle, zero, mv);
        if (!qbot(b))
          assign_var(b, m, make(b, lin_add(Lin::var(m), Lin::constant(-1)), vars_[m].type), vars_[m].type);
        cont(std::move(a));
        cont(std::move(b));
        return;
      }
      case InstrKind::ThreadCreate: {
        const int ctr = local_of(t, in.lhs);
        Itv ci = ctr >= 0 ? var_itv(s, ctr) : Itv::of(0, static_cast<W>(in.threads.size()) - 1);
        W lo = ci.lo_inf ? 0 : std::max<W>(0, ci.lo);
        W hi = ci.hi_inf ? static_cast<W>(in.threads.size()) - 1 : std::min<W>(ci.hi, static_cast<W>(in.threads.size()) - 1);
        for (W k = lo; k <= hi; ++k) {
          const std::uint32_t slot = in.threads[static_cast<std::size_t>(k)];
          if (slot >= tm_.threads.size() || locs[slot] != kLocNotStarted ||
              std::find(started.begin(), started.end(), slot) != started.end())
            continue;
          TgState st = s;
          if (ctr >= 0) {
            cmp(st, Op::Eq, {true, Lin::var(ctr), var_itv(st, ctr)}, {true, Lin::constant(k), Itv::point(k)});
            if (qbot(st)) continue;
          }
          store(st, t, in.a, {true, Lin::constant(slot), Itv::point(slot)}, Type::integer(64, false));
          const auto& nt = tm_.threads[slot];
          if (nt.param != ir::kNoLocal && in.b) {
            const int pv = local_of(slot, nt.param);
            if (pv >= 0) assign_var(st, pv, eval(st, t, in.b), in.b->type);
          }
          if (ctr >= 0)
            assign_var(st, ctr, make(st, lin_add(Lin::var(ctr), Lin::constant(1)), vars_[ctr].type), vars_[ctr].type);
          if (qbot(st)) continue;
          out.push_back({next, std::move(st), static_cast<std::int32_t>(slot)});
        }
        return;
      }
      case InstrKind::ThreadJoin: {
        AVal a = eval(s, t, in.a);
        W lo = a.itv.lo_inf ? 0 : std::max<W>(0, a.itv.lo);
        W hi = a.itv.hi_inf ? static_cast<W>(tm_.threads.size()) - 1
                            : std::min<W>(a.itv.hi, static_cast<W>(tm_.threads.size()) - 1);
        W first = -1, last = -1;
        for (W k = lo; k <= hi; ++k)
          if (locs[static_cast<std::size_t>(k)] == kLocFinished) {
            if (first < 0) first = k;
            last = k;
          }
        if (first < 0) return;  // blocked at this node
        TgState st = s;
        if (in.a->type.is_int() && (in.a->type.width < 64 || !in.a->type.is_signed)) {
          const AVal f{true, Lin::constant(first), Itv::point(first)}, l{true, Lin::constant(last), Itv::point(last)};
          cmp(st, Op::Ule, f, a);
          cmp(st, Op::Ule, a, l);
          if (qbot(st)) return;
        }
        if (in.b && !in.b->is_const()) {
          if (in.b->op == Op::ObjAddr) havoc_var(st, const_cell(in.b));
          else forget_targets(st, in.b);
        }
        return cont(std::move(st));
      }
      case InstrKind::Malloc: {
        TgState st = s;
        havoc_var(st, local_of(t, in.lhs));
        return cont(std::move(st));
      }
      default:
        return cont(s);
    }
  }

  /// Runs thread t's transaction from node locs with state s (closed); appends the targets.
  void transaction(const std::vector<std::int32_t>& locs, ThreadId t, const TgState& s0, std::vector<TxOut>& outs,
                   std::vector<std::uint32_t>* executed) {
    const std::uint32_t start = static_cast<std::uint32_t>(locs[t]);
    struct Item {
      TgState st;      // the iterate (unclosed after widening)
      TgState closed;  // its closure
      unsigned visits = 0;
      std::uint32_t pc;
      std::vector<std::uint32_t> started;
      bool queued = false;
    };
    std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::size_t> idx;
    std::vector<Item> items;
    std::deque<std::size_t> work;
    std::map<std::tuple<std::int32_t, bool, std::vector<std::uint32_t>>, std::size_t> out_idx;
    auto emit = [&](std::int32_t loc, bool term, const std::vector<std::uint32_t>& started, TgState st,
                    std::uint32_t last) {
      auto k = std::make_tuple(loc, term, started);
      auto it = out_idx.find(k);
      if (it == out_idx.end()) {
        out_idx.emplace(k, outs.size());
        outs.push_back({loc, term, started, std::move(st), last});
      } else {
        outs[it->second].st = join(outs[it->second].st, st);
      }
    };
    auto arrive = [&](std::uint32_t from, const std::vector<std::uint32_t>& started, Succ&& sc) {
      std::vector<std::uint32_t> st_set = started;
      if (sc.started >= 0) {
        st_set.push_back(static_cast<std::uint32_t>(sc.started));
        std::sort(st_set.begin(), st_set.end());
      }
      if (sc.next == kLocFinished) return emit(kLocFinished, false, st_set, std::move(sc.st), from);
      if (sc.next == kTerm) return emit(static_cast<std::int32_t>(from), true, st_set, std::move(sc.st), from);
      const std::uint32_t pc = static_cast<std::uint32_t>(sc.next);
      if (pc >= tm_.threads[t].code.size()) return;
      if (switch_[t][pc]) return emit(sc.next, false, st_set, std::move(sc.st), from);
      auto k = std::make_pair(pc, st_set);
      auto it = idx.find(k);
      if (it == idx.end()) {
        idx.emplace(k, items.size());
        TgState c = sc.st;
        items.push_back({std::move(sc.st), std::move(c), 1, pc, st_set, true});
        work.push_back(items.size() - 1);
        return;
      }
      Item& item = items[it->second];
      if (leq(sc.st, item.closed)) return;
      ++item.visits;
      if (item.visits > o_.widening_delay) {
        item.st = widen(item.st, item.closed, sc.st);
        item.closed = item.st;
        close(item.closed);
      } else {
        item.st = join(item.closed, sc.st);
        item.closed = item.st;
      }
      if (!item.queued) {
        item.queued = true;
        work.push_back(it->second);
      }
    };
    std::vector<Succ> succ;
    exec(locs, {}, t, start, s0, succ);
    if (executed) executed->push_back((t << 24) | start);
    for (auto& sc : succ) arrive(start, {}, std::move(sc));
    std::size_t steps = 0;
    while (!work.empty()) {
      const std::size_t i = work.front();
      work.pop_front();
      items[i].queued = false;
      TgState st = items[i].closed;
      if (qbot(st)) continue;
      const std::uint32_t pc = items[i].pc;
      const std::vector<std::uint32_t> started = items[i].started;
      if (executed) executed->push_back((t << 24) | pc);
      succ.clear();
      exec(locs, started, t, pc, st, succ);
      for (auto& sc : succ) arrive(pc, started, std::move(sc));
      if (++steps % 256 == 0) check_limits();
      if (!g_.complete) return;
    }
  }

  void check_limits() {
    if (o_.time_limit_seconds > 0 && elapsed() > o_.time_limit_seconds) {
      g_.complete = false;
      g_.incomplete_reason = "time limit";
    }
  }

  // ---- the graph ---------------------------------------------------------------------------
  struct Node {
    std::vector<std::int32_t> locs;
    bool terminated = false;
    TgState inv;
    TgState closed;        // closure of inv when `widened` (inv is closed otherwise)
    bool widened = false;
    unsigned visits = 0;
    bool queued = false;
    const TgState& view() const { return widened ? closed : inv; }
  };

  TgState initial_state() const {
    TgState s;
    for (const auto& c : clusters_) s.packs.push_back(Octagon::top(static_cast<int>(c.vars.size())));
    for (int v = 0; v < static_cast<int>(vars_.size()); ++v) {
      const TgVar& x = vars_[v];
      Itv i = Itv::point(0);
      if (x.kind == TgVar::Cell) {
        const auto& cell = tm_.objects[x.obj].cells[x.cell];
        i = cell.init_nondet ? type_range(x.type) : Itv::point(value_of(x.type, cell.init));
      }
      s.packs[x.pack].assign_interval(x.index, opt_lo(i), opt_hi(i));
    }
    return s;
  }

  std::vector<std::int32_t> target_locs(const std::vector<std::int32_t>& locs, ThreadId t, const TxOut& o) const {
    std::vector<std::int32_t> r = locs;
    r[t] = o.loc;
    for (std::uint32_t j : o.started) r[j] = 0;
    return r;
  }

  std::size_t node_of(std::vector<Node>& nodes, std::unordered_map<std::string, std::size_t>& index,
                      const std::vector<std::int32_t>& locs, bool term, bool& created) {
    const std::string k = node_key(locs, term);
    auto it = index.find(k);
    created = it == index.end();
    if (!created) return it->second;
    index.emplace(k, nodes.size());
    Node n;
    n.locs = locs;
    n.terminated = term;
    n.inv.packs.reserve(clusters_.size());
    for (const auto& c : clusters_) n.inv.packs.push_back(Octagon::bottom(static_cast<int>(c.vars.size())));
    nodes.push_back(std::move(n));
    return nodes.size() - 1;
  }

  /// Every transaction out of node n (under its invariant).
  void successors(const Node& n, std::vector<std::pair<ThreadId, std::vector<TxOut>>>& res,
                  std::vector<std::uint32_t>* executed) {
    res.clear();
    if (n.terminated) return;
    const TgState& s = n.view();
    if (qbot(s)) return;
    for (ThreadId t = 0; t < n.locs.size(); ++t) {
      if (n.locs[t] < 0) continue;
      res.push_back({t, {}});
      transaction(n.locs, t, s, res.back().second, executed);
    }
  }

  void build_graph() {
    std::vector<Node> nodes;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::int32_t> init(tm_.threads.size(), kLocNotStarted);
    init[0] = 0;
    bool created = false;
    node_of(nodes, index, init, false, created);
    nodes[0].inv = initial_state();
    std::deque<std::size_t> work{0};
    nodes[0].queued = true;
    std::vector<std::pair<ThreadId, std::vector<TxOut>>> res;
    while (!work.empty() && g_.complete) {
      const std::size_t i = work.front();
      work.pop_front();
      nodes[i].queued = false;
      successors(nodes[i], res, nullptr);
      for (auto& [t, outs] : res)
        for (TxOut& o : outs) {
          const auto locs = target_locs(nodes[i].locs, t, o);
          const std::size_t j = node_of(nodes, index, locs, o.terminated, created);
          Node& d = nodes[j];
          if (!created && leq(o.st, d.view())) continue;
          if (created) {
            d.inv = std::move(o.st);
          } else {
            ++d.visits;
            if (d.visits > o_.widening_delay) {
              d.inv = widen(d.inv, d.view(), o.st);
              d.closed = d.inv;
              close(d.closed);
              d.widened = true;
            } else {
              d.inv = join(d.view(), o.st);
              d.widened = false;
              d.closed = TgState{};
            }
          }
          if (!d.queued) {
            d.queued = true;
            work.push_back(j);
          }
        }
      if (nodes.size() > o_.max_nodes || nodes.size() * state_bytes_ > o_.max_state_bytes) {
        g_.complete = false;
        g_.incomplete_reason = "node limit (" + std::to_string(nodes.size()) + " nodes)";
      }
      check_limits();
    }
    if (!g_.complete) {
      publish(nodes, {}, {}, {});
      return;
    }
    // Descending iterations: each node's invariant is recomputed from its predecessors' (sound
    // because the current invariants over-approximate every concrete state).
    for (unsigned d = 0; d < o_.descending_rounds; ++d) {
      std::vector<TgState> next(nodes.size());
      for (auto& n : next)
        for (const auto& c : clusters_) n.packs.push_back(Octagon::bottom(static_cast<int>(c.vars.size())));
      next[0] = initial_state();
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        successors(nodes[i], res, nullptr);
        for (auto& [t, outs] : res)
          for (TxOut& o : outs) {
            auto j = index.find(node_key(target_locs(nodes[i].locs, t, o), o.terminated));
            if (j == index.end()) continue;  // cannot happen (the invariants only shrink)
            next[j->second] = join(next[j->second], o.st);
          }
        check_limits();
        if (!g_.complete) break;
      }
      if (!g_.complete) break;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        // keep the smaller of the two (both sound)
        if (leq(next[i], nodes[i].view())) {
          nodes[i].inv = std::move(next[i]);
          nodes[i].widened = false;
          nodes[i].closed = TgState{};
        }
      }
    }
    // Final pass: edges, sliced edges, executed instructions.
    std::vector<TgEdge> edges, sliced;
    std::vector<std::vector<std::uint32_t>> exec_by_node(nodes.size());
    std::vector<Sliced> sl;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].terminated) continue;
      const TgState s = nodes[i].view();
      if (qbot(s)) continue;
      for (ThreadId t = 0; t < nodes[i].locs.size(); ++t) {
        if (nodes[i].locs[t] < 0) continue;
        std::vector<TxOut> outs;
        sl.clear();
        slices_ = &sl;
        transaction(nodes[i].locs, t, s, outs, &exec_by_node[i]);
        slices_ = nullptr;
        for (TxOut& o : outs) {
          auto j = index.find(node_key(target_locs(nodes[i].locs, t, o), o.terminated));
          if (j == index.end() || qbot(o.st)) continue;
          edges.push_back({i, j->second, t, static_cast<std::uint32_t>(nodes[i].locs[t]), o.last_pc, false, false});
        }
        std::sort(sl.begin(), sl.end(), [](const Sliced& a, const Sliced& b) {
          return std::tie(a.pc, a.branch) < std::tie(b.pc, b.branch);
        });
        sl.erase(std::unique(sl.begin(), sl.end(), [](const Sliced& a, const Sliced& b) {
                   return a.pc == b.pc && a.branch == b.branch;
                 }), sl.end());
        for (const Sliced& x : sl)
          sliced.push_back({i, TgEdge::kNoNode, t, static_cast<std::uint32_t>(nodes[i].locs[t]), x.pc, true, x.branch});
      }
      check_limits();
      if (!g_.complete) break;
    }
    // dedupe edges (same src, dst, thread)
    std::sort(edges.begin(), edges.end(), [](const TgEdge& a, const TgEdge& b) {
      return std::tie(a.src, a.dst, a.thread) < std::tie(b.src, b.dst, b.thread);
    });
    edges.erase(std::unique(edges.begin(), edges.end(), [](const TgEdge& a, const TgEdge& b) {
                  return a.src == b.src && a.dst == b.dst && a.thread == b.thread;
                }), edges.end());
    publish(nodes, edges, sliced, exec_by_node);
  }

  /// Drops unreachable nodes, renumbers, fills g_ and executed_.
  void publish(std::vector<Node>& nodes, std::vector<TgEdge> edges, std::vector<TgEdge> sliced,
               const std::vector<std::vector<std::uint32_t>>& exec_by_node) {
    std::vector<std::size_t> remap(nodes.size(), TgEdge::kNoNode);
    if (g_.complete) {
      std::vector<std::vector<std::size_t>> adj(nodes.size());
      for (const auto& e : edges) adj[e.src].push_back(e.dst);
      std::vector<std::size_t> order{0};
      remap[0] = 0;
      for (std::size_t k = 0; k < order.size(); ++k)
        for (std::size_t j : adj[order[k]])
          if (remap[j] == TgEdge::kNoNode) {
            remap[j] = order.size();
            order.push_back(j);
          }
      g_.nodes.clear();
      g_.index.clear();
      for (std::size_t i : order) {
        g_.index.emplace(node_key(nodes[i].locs, nodes[i].terminated), g_.nodes.size());
        g_.nodes.push_back({nodes[i].locs, nodes[i].terminated,
                            std::move(nodes[i].widened ? nodes[i].closed : nodes[i].inv)});
      }
      g_.edges.clear();
      for (auto& e : edges)
        if (remap[e.src] != TgEdge::kNoNode) {
          e.src = remap[e.src];
          e.dst = remap[e.dst];
          g_.edges.push_back(e);
        }
      g_.sliced_edges = 0;
      for (auto& e : sliced)
        if (remap[e.src] != TgEdge::kNoNode) {
          e.src = remap[e.src];
          g_.edges.push_back(e);
          ++g_.sliced_edges;
        }
      executed_.assign(tm_.threads.size(), {});
      for (std::size_t t = 0; t < tm_.threads.size(); ++t) executed_[t].assign(tm_.threads[t].code.size(), false);
      for (std::size_t i : order)
        for (std::uint32_t x : exec_by_node[i]) executed_[x >> 24][x & 0xffffff] = true;
    } else {
      g_.nodes.clear();
      g_.index.clear();
      // incomplete: the invariants mean nothing; keep the location tuples only (cheap)
      for (auto& n : nodes) g_.nodes.push_back({std::move(n.locs), n.terminated, TgState{}});
      g_.edges.clear();
    }
    g_.shared_objects.clear();
    for (std::size_t o = 1; o < tm_.objects.size(); ++o)
      if (shared_obj_[o]) g_.shared_objects.push_back(tm_.objects[o].name);
  }

  // ---- relevance -------------------------------------------------------------------------
  void compute_relevance() {
    const int n = static_cast<int>(vars_.size());
    const int alias = n;  // pseudo-variable: any cell reached through a pointer
    std::vector<std::vector<int>> rev(n + 1);  // rev[v]: vars whose value flows into v
    std::vector<bool> written(n + 1, false), in_cond(n + 1, false);
    auto flows = [&](ThreadId t, ExprRef e, std::vector<int>& out) {
      vars_in(t, e, out);
      bool ptr_load = false;
      if (e)
        ir::visit_post_order(e, [&](ExprRef x) {
          if (x->op == Op::Load && const_cell(x->kids[0]) < 0) ptr_load = true;
        });
      if (ptr_load) out.push_back(alias);
    };
    auto def = [&](int dst, const std::vector<int>& srcs) {
      if (dst < 0) return;
      for (int s : srcs) rev[dst].push_back(s);
    };
    auto target = [&](ExprRef p) -> int {  // -1: none, alias for a pointer
      if (!p || p->is_const()) return -1;
      if (p->op == Op::ObjAddr) return const_cell(p);
      return alias;
    };
    for (ThreadId t = 0; t < tm_.threads.size(); ++t)
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
        if (!executed_.empty() && !executed_[t][pc]) continue;
        const Instr& in = tm_.threads[t].code[pc];
        std::vector<int> srcs;
        switch (in.kind) {
          case InstrKind::Assign:
            flows(t, in.a, srcs);
            def(local_of(t, in.lhs), srcs);
            break;
          case InstrKind::Store: {
            flows(t, in.b, srcs);
            const int d = target(in.a);
            def(d, srcs);
            if (d >= 0) written[d] = true;
            break;
          }
          case InstrKind::Goto:
            if (in.a->is_const()) break;
            [[fallthrough]];
          case InstrKind::Assume: case InstrKind::Assert: case InstrKind::ThreadJoin:
            flows(t, in.a, srcs);
            for (int v : srcs) in_cond[v] = true;
            break;
          case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::WrLock: case InstrKind::RdLock: {
            const int d = target(in.a);
            if (d >= 0) written[d] = in_cond[d] = true;
            break;
          }
          case InstrKind::Unlock: case InstrKind::RwUnlock: {
            const int d = target(in.a);
            if (d >= 0) written[d] = true;
            break;
          }
          default: break;
        }
      }
    // alias <-> escaped cells
    for (const auto& [k, v] : cell_var_)
      if (facts_.escaped(static_cast<ir::ObjectId>(k >> 32))) {
        rev[v].push_back(alias);
        rev[alias].push_back(v);
        if (written[alias]) written[v] = true;
      }
    std::vector<bool> reaches(n + 1, false);
    std::deque<int> work;
    for (int v = 0; v <= n; ++v)
      if (in_cond[v]) reaches[v] = true, work.push_back(v);
    while (!work.empty()) {
      const int v = work.front();
      work.pop_front();
      for (int s : rev[v])
        if (!reaches[s]) reaches[s] = true, work.push_back(s);
    }
    for (auto& c : g_.clusters) {
      c.relevant.clear();
      for (int v : c.vars)
        if (vars_[v].kind == TgVar::Cell && shared_obj_[vars_[v].obj] && written[v] && reaches[v]) c.relevant.push_back(v);
    }
  }

  const ir::ThreadModel& tm_;
  const TgOptions& o_;
  TransactionGraph& g_;
  Facts facts_;
  std::chrono::steady_clock::time_point start_;
  std::vector<TgVar> vars_;
  std::vector<TgCluster> clusters_;
  std::unordered_map<std::uint64_t, int> cell_var_;
  std::vector<std::vector<int>> local_var_;
  std::vector<std::int64_t> thresholds_;
  std::size_t state_bytes_ = 0;
  std::vector<bool> shared_obj_;
  std::vector<std::vector<bool>> switch_;
  std::vector<std::vector<std::optional<std::set<std::uint64_t>>>> locks_;  // must-locksets [thread][pc]
  std::vector<ir::CreateJoinOrder> order_;                                 // [thread]
  std::vector<std::vector<bool>> executed_;
  std::vector<Sliced>* slices_ = nullptr;
  unsigned decide_depth_ = 0;
};

std::string basename_of(const std::string& f) {
  const auto p = f.find_last_of('/');
  return p == std::string::npos ? f : f.substr(p + 1);
}

}  // namespace

TransactionGraph build_transaction_graph(const ir::ThreadModel& tm, const TgOptions& options) {
  TransactionGraph g;
  g.lockset_transactions = options.lockset_transactions;
  Builder b(tm, options, g);
  b.run();
  return g;
}

std::string node_label(const TransactionGraph& g, const ir::ThreadModel& tm, std::size_t node) {
  const TgNode& n = g.nodes[node];
  std::string out;
  for (std::size_t t = 0; t < n.locs.size(); ++t) {
    if (t) out += ' ';
    out += tm.threads[t].name + ':';
    const std::int32_t pc = n.locs[t];
    if (pc == kLocNotStarted) {
      out += '-';
    } else if (pc == kLocFinished) {
      out += "done";
    } else {
      out += source_label(tm, static_cast<ir::ThreadId>(t), static_cast<std::uint32_t>(pc));
    }
  }
  if (n.terminated) out += " [terminated]";
  return out;
}

std::string source_label(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc) {
  if (pc >= tm.threads[t].code.size()) return "done";
  const auto& loc = tm.threads[t].code[pc].loc;
  return (loc.file < tm.files.size() ? basename_of(tm.files[loc.file]) : std::string("?")) + ':' + std::to_string(loc.line);
}

std::string invariant_string(const TransactionGraph& g, std::size_t node) {
  const TgNode& n = g.nodes[node];
  if (n.inv.packs.size() != g.clusters.size()) return "unknown (incomplete graph)";
  if (n.inv.is_bottom()) return "bottom";
  std::string out;
  for (std::size_t c = 0; c < g.clusters.size(); ++c) {
    std::vector<std::string> names;
    for (int v : g.clusters[c].vars) names.push_back(g.vars[v].name);
    if (n.inv.packs[c].is_top()) continue;
    const std::string s = n.inv.packs[c].to_string(names);
    if (s == "top") continue;
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out.empty() ? "top" : out;
}

std::optional<Interval> interval_of(const TransactionGraph& g, std::size_t node, const std::string& var) {
  if (g.nodes[node].inv.packs.size() != g.clusters.size()) return std::nullopt;
  for (const TgVar& v : g.vars)
    if (v.name == var) return g.nodes[node].inv.packs[v.pack].interval(v.index);
  return std::nullopt;
}

StateCheck check_state(const TransactionGraph& g, const ir::ThreadModel& tm, const ir::State& s, std::string* why) {
  std::vector<std::int32_t> locs(tm.threads.size());
  bool at_switch = true;
  for (std::size_t t = 0; t < tm.threads.size(); ++t) {
    const auto& ts = s.threads[t];
    if (!ts.started) locs[t] = kLocNotStarted;
    else if (ts.finished) locs[t] = kLocFinished;
    else {
      locs[t] = static_cast<std::int32_t>(ts.pc);
      // after Abort main's pc stays on the Abort instruction
      const bool aborted = s.terminated && tm.threads[t].code[ts.pc].kind == ir::InstrKind::Abort;
      if (!aborted && (t >= g.switch_points.size() || !g.switch_points[t][ts.pc])) at_switch = false;
    }
  }
  if (!at_switch) return StateCheck::NotAtNode;
  const auto n = g.find(locs, s.terminated);
  if (!n) {
    if (why) *why = "no node for this location tuple";
    return StateCheck::NoNode;
  }
  const TgNode& node = g.nodes[*n];
  if (node.inv.packs.size() != g.clusters.size()) return StateCheck::NotAtNode;  // incomplete graph: no claim
  for (std::size_t c = 0; c < g.clusters.size(); ++c) {
    Octagon o = node.inv.packs[c];
    std::vector<std::int64_t> point;
    for (int vi : g.clusters[c].vars) {
      const TgVar& v = g.vars[vi];
      const ir::Value val = v.kind == TgVar::Cell ? s.memory[v.obj][v.cell] : s.threads[v.thread].locals[v.local];
      const W x = value_of(v.type, val.bits);
      if (big(x)) {
        o.forget(static_cast<int>(point.size()));
        point.push_back(0);
      } else {
        point.push_back(static_cast<std::int64_t>(x));
      }
    }
    if (!o.contains(point)) {
      if (why) {
        *why = "cluster " + std::to_string(c) + ": ";
        std::vector<std::string> names;
        for (std::size_t k = 0; k < g.clusters[c].vars.size(); ++k) {
          names.push_back(g.vars[g.clusters[c].vars[k]].name);
          *why += names.back() + "=" + std::to_string(point[k]) + " ";
        }
        *why += "not in " + node.inv.packs[c].to_string(names);
      }
      return StateCheck::Violated;
    }
  }
  return StateCheck::Holds;
}

}  // namespace siren::invariants

// MPOR, monotonic partial order reduction (DESIGN.md §B3, Kahlon–Wang–Gupta CAV'09), as
// scheduler constraints over sel^k (reduction/scheduler_constraints.hpp).
//
// Symbolic form: for every thread i, the candidate dependency-chain values C_ji(k) are computed
// as if sel^k = i, the constraint sel^k = i → S_i(C) is returned, and the 2-bit latches DC_pq
// are updated with ITEs on sel^k. Idle frames (sel^k = number of threads) match no thread, so
// they constrain nothing and leave DC and the latched summaries unchanged.
//
// Dependence (DEP_li(k): the step thread i makes in frame k vs. the last step of thread l) is
// the explorer's, from the same static summary ir::accesses(): two steps conflict iff one writes
// a location the other reads or writes. Per thread l the summary of its last step is latched:
//   * static locations (constant cells, started[j], finished[j], alloc[o], atomic, terminated):
//     latched read / write bits per location;
//   * dynamic locations (cells through a non-constant pointer, alloc[obj(p)]): per slot the
//     address term and a valid bit (slots: the k-th such access of an instruction, per kind and
//     direction).
// The current step's summary is a function of pc_i^k and of the state V^k (addresses and
// conditions are evaluated in frame k, i.e. before the step), exactly as the explorer
// evaluates ir::access_locations in the state before the step.
//
// Atomic sections are one transition (DESIGN.md §B1). A thread's steps from an AtomicBegin to
// the AtomicEnd that closes it run in consecutive frames (the owner of `atomic` is the only
// thread that can move), so the reduction treats the block as a single transition that fires
// in the frame of its AtomicEnd: the frames before it accumulate the block's accesses (blk_)
// and neither check S_i nor change DC or the latches; the closing frame checks S_i with the
// whole block's accesses and latches them as the thread's last transition (lpc: the block's
// first location). A block that never closes (the bound, a deadlock, an error) is never
// checked: every execution that ends inside a block is admitted after any admitted prefix.
// Between transitions `atomic` is always 0, so its accesses are no dependence and are left
// out (the explorer's Mazurkiewicz classes use the same transitions, explicit/explorer.cpp).
// Pointer accesses of a block's earlier steps are kept as wildcards (any cell / any object of
// their class): coarser than per-address slots, hence sound.
#include "reduction/mpor.hpp"

#include "ir/access.hpp"
#include "ir/cfg.hpp"

#include <map>
#include <unordered_map>

namespace siren::reduction {
namespace {

using ir::LocKind;
using solvers::Term;

struct StaticKey {
  LocKind kind;
  std::uint64_t index;
  bool operator==(const StaticKey&) const = default;
};
struct StaticKeyHash {
  std::size_t operator()(const StaticKey& k) const {
    return std::hash<std::uint64_t>()(k.index * 8 + static_cast<std::uint64_t>(k.kind));
  }
};

// One access of the static summary, prepared for symbolic evaluation.
struct Prepared {
  bool dynamic = false;
  bool write = false;
  LocKind kind = LocKind::Cell;
  StaticKey key{LocKind::Cell, 0};   // static
  ir::ExprRef addr = nullptr;        // Cell: pointer; Alloc: pointer (dynamic); Finished: handle
  ir::ExprRef cond = nullptr;        // Cell: ValidPtr(addr); Started via create: the counter local
  std::uint32_t slot = 0;            // Started via create: counter value; dynamic: slot index
  bool heap_only = false;            // Alloc read through a pointer: only heap objects
  bool const_cond = true;            // static condition known: `const_value`
  bool const_value = true;
};

// Dynamic slot classes: (kind Cell/Alloc) x (read/write).
int dyn_class(LocKind k, bool write) { return (k == LocKind::Cell ? 0 : 2) + (write ? 1 : 0); }

struct Bits {  // DC value: 1, -1 or 0 (neither)
  Term one;
  Term neg;
};

struct Summary {  // one thread's step (current, as if selected; or latched last step)
  std::unordered_map<StaticKey, std::pair<Term, Term>, StaticKeyHash> st;  // read, write guards
  struct Dyn {
    int cls;
    Term key;
    Term valid;
  };
  std::vector<Dyn> dyn;  // current: every dynamic access; latched: the fixed slots
  Term wild[4] = {nullptr, nullptr, nullptr, nullptr};  // per class: any location (blocks)
};

class Mpor final : public SchedulerConstraints {
 public:
  explicit Mpor(const ir::ThreadModel& tm, ChainFilter filter = {})
      : tm_(tm), n_(tm.threads.size()), filter_(std::move(filter)) {
    // The summary needs a few expressions that are not in the code (ValidPtr of an address,
    // the create counter as an expression).
    ir::ExprManager& em = tm.expr_builder();
    prep_.resize(n_);
    begin_pcs_.resize(n_);
    end_pcs_.resize(n_);
    slots_.assign(n_, std::vector<unsigned>(4, 0));
    for (ir::ThreadId t = 0; t < n_; ++t) {
      const auto& th = tm.threads[t];
      prep_[t].resize(th.code.size());
      for (std::uint32_t pc = 0; pc < th.code.size(); ++pc) {
        unsigned count[4] = {0, 0, 0, 0};
        for (const ir::Access& a : ir::accesses(tm, t, pc)) {
          auto add_dyn = [&](Prepared p) {
            p.dynamic = true;
            p.slot = count[dyn_class(p.kind, p.write)]++;
            prep_[t][pc].push_back(p);
          };
          Prepared p;
          p.kind = a.kind;
          p.write = a.write;
          switch (a.kind) {
            case LocKind::Cell:
              p.addr = a.addr;
              p.cond = em.mk_unary(ir::Op::ValidPtr, a.addr);
              if (a.static_cell()) {
                p.key = {LocKind::Cell, (std::uint64_t{a.addr->obj} << 32) | (a.addr->value & 0xffffffffULL)};
                p.const_cond = false;
                prep_[t][pc].push_back(p);
              } else {
                add_dyn(p);
              }
              break;
            case LocKind::Alloc:
              if (!a.addr || a.addr->op == ir::Op::ObjAddr) {
                const ir::ObjectId o = a.addr ? a.addr->obj : a.obj;
                p.key = {LocKind::Alloc, o};
                p.const_value = !a.addr ? true : a.write ? o != 0 : is_heap(o);
                if (p.const_value) prep_[t][pc].push_back(p);
              } else {
                p.addr = a.addr;
                p.heap_only = !a.write;
                add_dyn(p);
              }
              break;
            case LocKind::Started:
              p.key = {LocKind::Started, a.thread};
              if (a.counter != ir::kNoLocal) {
                p.cond = em.mk_local(th.locals[a.counter].type, a.counter);
                p.slot = a.slot;
                p.const_cond = false;
              }
              prep_[t][pc].push_back(p);
              break;
            case LocKind::Finished:
              if (!a.addr) {
                p.key = {LocKind::Finished, a.thread};
                prep_[t][pc].push_back(p);
              } else {
                for (ir::ThreadId u = 0; u < n_; ++u) {  // one candidate per thread id
                  Prepared q = p;
                  q.key = {LocKind::Finished, u};
                  q.addr = a.addr;
                  q.slot = u;
                  q.const_cond = false;
                  prep_[t][pc].push_back(q);
                }
              }
              break;
            case LocKind::Atomic:  // constant 0 between transitions (atomic blocks)
              break;
            case LocKind::Terminated:
              p.key = {a.kind, 0};
              prep_[t][pc].push_back(p);
              break;
          }
        }
        for (int c = 0; c < 4; ++c) slots_[t][c] = std::max(slots_[t][c], count[c]);
        if (th.code[pc].kind == ir::InstrKind::AtomicBegin) begin_pcs_[t].push_back(pc);
        if (th.code[pc].kind == ir::InstrKind::AtomicEnd) end_pcs_[t].push_back(pc);
      }
    }
    block_slots(tm);
    dc_.assign(n_, std::vector<Bits>(n_, Bits{nullptr, nullptr}));
    last_.resize(n_);
    blk_.resize(n_);
    bpc_.assign(n_, nullptr);
  }

  // The pointer accesses an atomic block can make at a location it runs at most once per block
  // (not on a cycle inside the block) get a slot of their own in blk_/last_ (exact); the
  // others become wildcards.
  void block_slots(const ir::ThreadModel& tm) {
    bslots_.resize(n_);
    for (ir::ThreadId t = 0; t < n_; ++t) {
      const auto& code = tm.threads[t].code;
      const auto n = static_cast<std::uint32_t>(code.size());
      if (begin_pcs_[t].empty()) continue;
      auto succ = [&](std::uint32_t i) {  // a block's region ends at its AtomicEnd
        if (code[i].kind == ir::InstrKind::AtomicEnd) return std::vector<std::uint32_t>{};
        return ir::successors(code, i, {.exit_to_end = false, .taken_goto_falls_through = true, .include_end = false});
      };
      // region: locations an open block can be at (after an AtomicBegin, up to an AtomicEnd)
      std::vector<char> region(n, 0);
      std::vector<std::uint32_t> work;
      for (std::uint32_t b : begin_pcs_[t])
        for (std::uint32_t v : succ(b)) work.push_back(v);
      while (!work.empty()) {
        const std::uint32_t v = work.back();
        work.pop_back();
        if (v >= n || region[v]) continue;
        region[v] = 1;
        for (std::uint32_t w : succ(v)) work.push_back(w);
      }
      for (std::uint32_t pc = 0; pc < n; ++pc) {
        if (!region[pc]) continue;
        bool cyclic = false;  // pc reaches itself inside the region
        std::vector<char> seen(n, 0);
        std::vector<std::uint32_t> w2 = succ(pc);
        while (!w2.empty() && !cyclic) {
          const std::uint32_t v = w2.back();
          w2.pop_back();
          if (v >= n || !region[v] || seen[v]) continue;
          if (v == pc) cyclic = true;
          seen[v] = 1;
          for (std::uint32_t x : succ(v)) w2.push_back(x);
        }
        if (cyclic) continue;
        for (const Prepared& p : prep_[t][pc])
          if (p.dynamic) bslots_[t].push_back({pc, dyn_class(p.kind, p.write), p.slot});
      }
    }
  }

  std::string name() const override { return filter_.name.empty() ? "mpor" : filter_.name; }

  /// Does a frame of thread t that starts at pc run what SIR's pair assumed: anything but a
  /// Lock, or the Lock of a balanced critical section of the frame's transactions?
  bool section_runs(const FrameView& f, std::size_t t, std::uint32_t pc) const {
    if (tm_.threads[t].code[pc].kind != ir::InstrKind::Lock || filter_.test_unbalanced_sections) return true;
    return f.tx && f.tx->balanced(static_cast<ir::ThreadId>(t), pc);
  }

  std::vector<std::pair<std::string, std::uint64_t>> stats() const override {
    std::vector<std::pair<std::string, std::uint64_t>> s{
        {"mpor_dc_vars", dc_vars_}, {"mpor_dep_vars", dep_vars_}, {"mpor_constraints", constraints_}};
    for (const auto& kv : filter_.stats) s.push_back(kv);
    return s;
  }
  std::vector<std::pair<std::string, std::string>> text_stats() const override { return filter_.text_stats; }

  std::vector<Term> add_frame(solvers::TermManager& T, const std::vector<FrameView>& frames) override {
    const FrameView& f = frames.back();
    if (!dc_[0][0].one) {
      for (auto& row : dc_)
        for (Bits& b : row) b = {T.mk_false(), T.mk_false()};
      for (std::size_t l = 0; l < n_; ++l) {
        for (int c = 0; c < 4; ++c)
          for (unsigned s = 0; s < slots_[l][c]; ++s) last_[l].dyn.push_back({c, nullptr, T.mk_false()});
        for (const BlockSlot& b : bslots_[l]) {
          last_[l].dyn.push_back({b.cls, nullptr, T.mk_false()});
          blk_[l].dyn.push_back({b.cls, nullptr, T.mk_false()});
        }
      }
      // Transaction frames: a merged atomic region runs inside the frame of its AtomicBegin,
      // which is then one whole transition (no block stays open across frames): the
      // AtomicBegin opens no block. A transition's accesses are its first step's and those of
      // every step its transaction may carry (a merged region's, protected steps; static ones
      // as they are, pointer accesses as wildcards).
      if (f.tx) {
        region_.assign(n_, {});
        for (std::size_t t = 0; t < n_; ++t) {
          for (const auto& [b, pcs] : f.tx->atomic_regions(static_cast<ir::ThreadId>(t))) std::erase(begin_pcs_[t], b);
          for (const auto& [b, pcs] : f.tx->carried(static_cast<ir::ThreadId>(t))) {
            RegionSummary& r = region_[t][b];
            for (std::uint32_t pc : pcs)
              for (const Prepared& p : prep_[t][pc]) {
                if (p.dynamic) r.wild[dyn_class(p.kind, p.write)] = true;
                else r.st.push_back({p.key, p.write});
              }
          }
        }
      }
      // SIR: one Boolean "lpc_l = c" per location c of l in an insensitive pair (cheaper for
      // the solver than latching l's pc as a bit-vector). Before l has run it is false and
      // never read, since a chain through l needs DC_jl = 1, which needs l to have run.
      if (!filter_.insensitive.empty()) {
        lpc_.resize(n_);
        for (std::size_t l = 0; l < n_; ++l)
          for (std::size_t i = 0; i < n_; ++i)
            for (const auto& cd : filter_.insensitive[l][i]) lpc_[l].try_emplace(cd.first, T.mk_false());
      }
    }
    // Current summaries (as if thread i moves in this frame).
    std::vector<Summary> cur(n_);
    // dynamic accesses per thread, per pc (for latching into slots)
    struct AtPc {
      std::uint32_t pc;
      Term pc_is;
      std::vector<std::pair<Prepared, std::pair<Term, Term>>> dyns;  // access, (key, guard)
    };
    std::vector<std::vector<AtPc>> dyn_at(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      const auto tid = static_cast<ir::ThreadId>(i);
      std::vector<std::uint32_t> pcs;
      if (i < f.reach.size()) pcs = f.reach[i];
      else
        for (std::uint32_t c = 0; c < prep_[i].size(); ++c) pcs.push_back(c);
      for (std::uint32_t c : pcs) {
        if (c >= prep_[i].size()) continue;
        Term pc_is = T.mk_eq(f.pc[i], T.mk_bv(f.pc[i]->sort.width, c));
        if (pc_is == T.mk_false()) continue;
        std::vector<std::pair<Prepared, std::pair<Term, Term>>> dyns;
        for (const Prepared& p : prep_[i][c]) {
          if (!p.dynamic) {
            Term g = pc_is;
            if (!p.const_cond) g = T.mk_and(g, static_cond(T, f, tid, p));
            if (g == T.mk_false()) continue;
            auto& e = cur[i].st.try_emplace(p.key, T.mk_false(), T.mk_false()).first->second;
            (p.write ? e.second : e.first) = T.mk_or(p.write ? e.second : e.first, g);
          } else {
            Term ptr = f.eval(tid, p.addr);
            Term key, valid;
            if (p.kind == LocKind::Cell) {
              key = ptr;
              valid = f.eval(tid, p.cond);
            } else {
              key = obj_of(T, ptr);
              if (p.heap_only) {
                std::vector<Term> hs;
                for (ir::ObjectId o = 1; o < tm_.objects.size(); ++o)
                  if (is_heap(o)) hs.push_back(T.mk_eq(key, T.mk_bv(key->sort.width, o)));
                valid = T.mk_or(hs);
              } else {
                valid = T.mk_not(T.mk_eq(key, T.mk_bv(key->sort.width, 0)));
              }
            }
            Term g = T.mk_and(pc_is, valid);
            if (g == T.mk_false()) continue;
            cur[i].dyn.push_back({dyn_class(p.kind, p.write), key, g});
            dyns.push_back({p, {key, g}});
          }
        }
        dyn_at[i].push_back({c, pc_is, std::move(dyns)});
        if (!region_.empty())
          if (auto r = region_[i].find(c); r != region_[i].end()) {
            for (const auto& [key, write] : r->second.st) {
              auto& e = cur[i].st.try_emplace(key, T.mk_false(), T.mk_false()).first->second;
              (write ? e.second : e.first) = T.mk_or(write ? e.second : e.first, pc_is);
            }
            for (int cls = 0; cls < 4; ++cls)
              if (r->second.wild[cls]) cur[i].wild[cls] = T.mk_or(cur[i].wild[cls] ? cur[i].wild[cls] : T.mk_false(), pc_is);
          }
      }
    }

    // Transitions: a step continues an atomic block when its thread owns `atomic` (cont_i); it
    // fires the transition unless it opens a block (AtomicBegin outside one) or stays inside
    // one (not its AtomicEnd). eff[i]: the accesses of i's transition so far (block + step).
    std::vector<Term> cont(n_), fire(n_), grow(n_), start(n_);
    std::vector<Summary> eff = cur;
    for (std::size_t i = 0; i < n_; ++i) {
      const auto tid = static_cast<ir::ThreadId>(i);
      const Term sel = f.selected(tid);
      start[i] = f.pc[i];
      if (begin_pcs_[i].empty() && end_pcs_[i].empty()) {
        cont[i] = T.mk_false();
        fire[i] = sel;
        grow[i] = T.mk_false();
        continue;
      }
      cont[i] = i < f.holds_atomic.size() ? f.holds_atomic[i] : T.mk_false();
      const Term at_begin = at_any(T, f, i, begin_pcs_[i]), at_end = at_any(T, f, i, end_pcs_[i]);
      const Term ends = T.mk_ite(cont[i], at_end, T.mk_not(at_begin));
      fire[i] = T.mk_and(sel, ends);
      grow[i] = T.mk_and(sel, T.mk_not(ends));
      if (!bpc_[i]) bpc_[i] = T.mk_bv(f.pc[i]->sort.width, 0);
      start[i] = T.mk_ite(cont[i], bpc_[i], f.pc[i]);
      Summary& E = eff[i];
      for (const auto& [key, rw] : blk_[i].st) {
        auto& e = E.st.try_emplace(key, T.mk_false(), T.mk_false()).first->second;
        e = {T.mk_or(e.first, T.mk_and(cont[i], rw.first)), T.mk_or(e.second, T.mk_and(cont[i], rw.second))};
      }
      for (int c = 0; c < 4; ++c)
        if (blk_[i].wild[c])
          E.wild[c] = T.mk_or(E.wild[c] ? E.wild[c] : T.mk_false(), T.mk_and(cont[i], blk_[i].wild[c]));
      for (const Summary::Dyn& d : blk_[i].dyn)
        if (d.key && d.valid != T.mk_false()) E.dyn.push_back({d.cls, d.key, T.mk_and(cont[i], d.valid)});
    }

    // DEP_li: the transition of i in this frame vs. the latched last transition of l.
    std::vector<std::vector<Term>> dep(n_, std::vector<Term>(n_, nullptr));
    for (std::size_t l = 0; l < n_; ++l)
      for (std::size_t i = 0; i < n_; ++i) {
        if (l == i) {
          dep[l][i] = T.mk_true();
          continue;
        }
        dep[l][i] = conflict(T, last_[l], eff[i]);
        // SIR: DEP_li ∧ SS_li, SS_li = ¬⋁_{(c,d) insensitive} (lpc_l = c ∧ start_i = d).
        // A transaction that may run on through a loop's head (ir::Transactions::passable)
        // spans more than the transaction graph's transition from c or d: no pair for it.
        if (!filter_.insensitive.empty() && !filter_.insensitive[l][i].empty() && dep[l][i] != T.mk_false()) {
          std::vector<Term> ins;
          for (const auto& [c, d] : filter_.insensitive[l][i]) {
            if (f.tx && (f.tx->unwinds_from(static_cast<ir::ThreadId>(l), c) ||
                         f.tx->unwinds_from(static_cast<ir::ThreadId>(i), d)))
              continue;
            // A pair of a balanced critical section (a Lock, §B9.3) holds for frames that run
            // the whole section: transaction frames whose own transactions make it one.
            if (!section_runs(f, l, c) || !section_runs(f, i, d)) continue;
            ins.push_back(T.mk_and(lpc_[l].at(c), T.mk_eq(start[i], T.mk_bv(start[i]->sort.width, d))));
          }
          if (!ins.empty()) dep[l][i] = T.mk_and(dep[l][i], T.mk_not(T.mk_or(ins)));
        }
        ++dep_vars_;
      }

    // Candidates C_ji (as if i's transition fires) and the constraints fire_i → S_i.
    std::vector<Term> out;
    std::vector<std::vector<Bits>> cand(n_, std::vector<Bits>(n_, Bits{nullptr, nullptr}));
    for (std::size_t i = 0; i < n_; ++i) {
      std::vector<Term> s_i;
      for (std::size_t j = 0; j < n_; ++j) {
        if (j == i) continue;
        const Term ran_j = dc_[j][j].one;  // DC_jj != 0
        std::vector<Term> chain;
        for (std::size_t l = 0; l < n_; ++l) chain.push_back(T.mk_and(dc_[j][l].one, dep[l][i]));
        const Term ch = T.mk_or(chain);
        cand[j][i] = {T.mk_and(ran_j, ch), T.mk_and(ran_j, T.mk_not(ch))};
        if (j > i) {
          std::vector<Term> ok{T.mk_not(cand[j][i].neg)};
          for (std::size_t l = 0; l < i; ++l) ok.push_back(dc_[j][l].one);
          s_i.push_back(T.mk_or(ok));
        }
      }
      Term c = T.mk_implies(fire[i], T.mk_and(s_i));
      if (c != T.mk_true()) {
        out.push_back(c);
        ++constraints_;
      }
    }

    // DC update (only when a transition fires).
    std::vector<std::vector<Bits>> next = dc_;
    for (std::size_t p = 0; p < n_; ++p) {
      const Term sp = fire[p];
      for (std::size_t q = 0; q < n_; ++q) {
        const Bits& prev = dc_[p][q];
        if (p == q) {
          next[p][q] = {T.mk_or(sp, prev.one), T.mk_and(T.mk_not(sp), prev.neg)};
        } else {
          const Term sq = fire[q];
          next[p][q] = {T.mk_ite(sp, T.mk_false(), T.mk_ite(sq, cand[p][q].one, prev.one)),
                        T.mk_ite(sp, T.mk_true(), T.mk_ite(sq, cand[p][q].neg, prev.neg))};
        }
        dc_vars_ += 2;
      }
    }
    dc_ = std::move(next);

    // Latch lpc_l = c (SIR only): l's last transition started at c.
    for (std::size_t l = 0; l < lpc_.size(); ++l)
      for (auto& [c, is_c] : lpc_[l])
        is_c = T.mk_ite(fire[l], T.mk_eq(start[l], T.mk_bv(start[l]->sort.width, c)), is_c);

    std::vector<std::vector<Summary::Dyn>> blk_before(n_);
    for (std::size_t l = 0; l < n_; ++l) blk_before[l] = blk_[l].dyn;
    for (std::size_t l = 0; l < n_; ++l) {
      // The open block: its first location and its accesses so far.
      if (bpc_[l]) bpc_[l] = T.mk_ite(T.mk_and(f.selected(static_cast<ir::ThreadId>(l)), T.mk_not(cont[l])), f.pc[l], bpc_[l]);
      if (grow[l] != T.mk_false()) {
        Summary& B = blk_[l];
        latch_static(T, B, eff[l], grow[l]);
        // block slots: this step's access at the slot's location, or the block's earlier one
        for (std::size_t b = 0; b < bslots_[l].size(); ++b) {
          const BlockSlot& bs = bslots_[l][b];
          Summary::Dyn& d = B.dyn[b];
          Term now_key = nullptr, now_g = T.mk_false();
          for (auto& [pc, pc_is, dyns] : dyn_at[l])
            if (pc == bs.pc)
              for (auto& [p, kv] : dyns)
                if (dyn_class(p.kind, p.write) == bs.cls && p.slot == bs.slot) now_key = kv.first, now_g = kv.second;
          if (now_key) d.key = d.key ? T.mk_ite(T.mk_and(grow[l], now_g), now_key, d.key) : now_key;
          d.valid = T.mk_ite(grow[l], T.mk_or(T.mk_and(cont[l], d.valid), now_g), d.valid);
        }
        for (int c = 0; c < 4; ++c) {
          std::vector<Term> any{eff[l].wild[c] ? eff[l].wild[c] : T.mk_false()};
          for (auto& [pc, pc_is, dyns] : dyn_at[l])  // this step's pointer accesses without a slot
            for (auto& [p, kv] : dyns)
              if (dyn_class(p.kind, p.write) == c && !has_bslot(l, pc, c, p.slot)) any.push_back(kv.second);
          const Term w = T.mk_or(any);
          const Term old = B.wild[c] ? B.wild[c] : T.mk_false();
          B.wild[c] = T.mk_ite(grow[l], w, old);
          if (B.wild[c] == T.mk_false()) B.wild[c] = nullptr;
        }
      }

      // Latch the summary of the transition that fires.
      const Term sl = fire[l];
      Summary& L = last_[l];
      latch_static(T, L, eff[l], sl);
      for (int c = 0; c < 4; ++c) {
        if (!eff[l].wild[c] && !L.wild[c]) continue;
        L.wild[c] = T.mk_ite(sl, eff[l].wild[c] ? eff[l].wild[c] : T.mk_false(), L.wild[c] ? L.wild[c] : T.mk_false());
      }
      // dynamic slots: per class, slot s = the s-th access of that class of the instruction at pc
      std::size_t base = 0;
      for (int c = 0; c < 4; ++c) {
        for (unsigned s = 0; s < slots_[l][c]; ++s) {
          Summary::Dyn& d = L.dyn[base + s];
          Term key = nullptr, valid = T.mk_false();
          for (auto& [pc, pc_is, dyns] : dyn_at[l])
            for (auto& [p, kv] : dyns)
              if (dyn_class(p.kind, p.write) == c && p.slot == s) {
                key = key ? T.mk_ite(pc_is, kv.first, key) : kv.first;
                valid = T.mk_or(valid, kv.second);
              }
          if (!key) key = d.key;
          if (!d.key && key) d.key = T.mk_bv(key->sort.width, 0);
          if (key) d.key = T.mk_ite(sl, key, d.key);
          d.valid = T.mk_ite(sl, valid, d.valid);
        }
        base += slots_[l][c];
      }
      // block slots: the closing transition's earlier pointer accesses
      for (std::size_t b = 0; b < bslots_[l].size(); ++b) {
        Summary::Dyn& d = L.dyn[base + b];
        const Summary::Dyn& e = blk_before[l][b];
        if (!e.key) continue;
        if (!d.key) d.key = T.mk_bv(e.key->sort.width, 0);
        d.key = T.mk_ite(sl, e.key, d.key);
        d.valid = T.mk_ite(sl, T.mk_and(cont[l], e.valid), d.valid);
      }
    }
    return out;
  }

 private:
  bool is_heap(ir::ObjectId o) const {
    return o != 0 && o < tm_.objects.size() && tm_.objects[o].kind == ir::ObjectKind::Heap;
  }

  // into.st := when ? from.st : into.st, over the keys of either side.
  static void latch_static(solvers::TermManager& T, Summary& into, const Summary& from, Term when) {
    for (auto& [key, rw] : from.st) into.st.try_emplace(key, T.mk_false(), T.mk_false());
    for (auto& [key, rw] : into.st) {
      auto it = from.st.find(key);
      const Term r = it == from.st.end() ? T.mk_false() : it->second.first;
      const Term w = it == from.st.end() ? T.mk_false() : it->second.second;
      rw = {T.mk_ite(when, r, rw.first), T.mk_ite(when, w, rw.second)};
    }
  }

  // pc_i^k is one of `pcs`.
  static Term at_any(solvers::TermManager& T, const FrameView& f, std::size_t i, const std::vector<std::uint32_t>& pcs) {
    std::vector<Term> any;
    for (std::uint32_t c : pcs) any.push_back(T.mk_eq(f.pc[i], T.mk_bv(f.pc[i]->sort.width, c)));
    return T.mk_or(any);
  }

  static Term obj_of(solvers::TermManager& T, Term ptr) {
    return T.mk_extract(ptr, ptr->sort.width - 1, 32);
  }

  Term static_cond(solvers::TermManager& T, const FrameView& f, ir::ThreadId t, const Prepared& p) const {
    switch (p.kind) {
      case LocKind::Cell: return f.eval(t, p.cond);
      case LocKind::Started: {  // create counter == slot
        Term c = f.eval(t, p.cond);
        if (c->sort.is_bool()) return p.slot == 0 ? T.mk_not(c) : p.slot == 1 ? c : T.mk_false();
        if (c->sort.width < 64 && (p.slot >> c->sort.width) != 0) return T.mk_false();
        return T.mk_eq(c, T.mk_bv(c->sort.width, p.slot));
      }
      case LocKind::Finished: {  // handle == thread id (the explorer reads the value's bits)
        Term h = f.eval(t, p.addr);
        const ir::Type ht = p.addr->type;
        if (ht.is_ptr()) h = T.mk_extract(h, 31, 0);
        if (h->sort.is_bool()) return p.slot == 0 ? T.mk_not(h) : p.slot == 1 ? h : T.mk_false();
        if (h->sort.width < 64 && (std::uint64_t{p.slot} >> h->sort.width) != 0) return T.mk_false();
        return T.mk_eq(h, T.mk_bv(h->sort.width, p.slot));
      }
      default: return T.mk_true();
    }
  }

  static Term key_const(solvers::TermManager& T, const StaticKey& k, Term like) {
    return T.mk_bv(like->sort.width, k.index);
  }

  // The latched last step of l vs. the current step of i.
  Term conflict(solvers::TermManager& T, const Summary& last, const Summary& cur) const {
    std::vector<Term> any;
    // static vs static
    for (const auto& [key, rw] : cur.st) {
      auto it = last.st.find(key);
      if (it == last.st.end()) continue;
      const auto& [lr, lw] = it->second;
      any.push_back(T.mk_and(lw, T.mk_or(rw.first, rw.second)));
      any.push_back(T.mk_and(lr, rw.second));
    }
    auto kind_of = [](int cls) { return cls < 2 ? LocKind::Cell : LocKind::Alloc; };
    // latched dynamic slot vs current static / dynamic
    for (const Summary::Dyn& d : last.dyn) {
      if (!d.key || d.valid == T.mk_false()) continue;
      const bool w = d.cls & 1;
      for (const auto& [key, rw] : cur.st) {
        if (key.kind != kind_of(d.cls)) continue;
        const Term acc = w ? T.mk_or(rw.first, rw.second) : rw.second;
        if (acc == T.mk_false()) continue;
        any.push_back(T.mk_and(T.mk_and(d.valid, acc), T.mk_eq(d.key, key_const(T, key, d.key))));
      }
      for (const Summary::Dyn& e : cur.dyn) {
        if (kind_of(e.cls) != kind_of(d.cls) || !(w || (e.cls & 1))) continue;
        any.push_back(T.mk_and(T.mk_and(d.valid, e.valid), T.mk_eq(d.key, e.key)));
      }
    }
    // latched static vs current dynamic
    for (const Summary::Dyn& e : cur.dyn) {
      const bool w = e.cls & 1;
      for (const auto& [key, rw] : last.st) {
        if (key.kind != kind_of(e.cls)) continue;
        const Term acc = w ? T.mk_or(rw.first, rw.second) : rw.second;
        if (acc == T.mk_false()) continue;
        any.push_back(T.mk_and(T.mk_and(e.valid, acc), T.mk_eq(e.key, key_const(T, key, e.key))));
      }
    }
    // wildcards (pointer accesses of an atomic block's earlier steps) vs everything of their kind
    auto wild_vs = [&](Term wild, int cls, const Summary& other) {
      if (!wild) return;
      const bool w = cls & 1;
      std::vector<Term> acc;
      for (const auto& [key, rw] : other.st)
        if (key.kind == kind_of(cls)) acc.push_back(w ? T.mk_or(rw.first, rw.second) : rw.second);
      for (const Summary::Dyn& e : other.dyn)
        if (kind_of(e.cls) == kind_of(cls) && (w || (e.cls & 1))) acc.push_back(e.valid);
      for (int c = 0; c < 4; ++c)
        if (other.wild[c] && kind_of(c) == kind_of(cls) && (w || (c & 1))) acc.push_back(other.wild[c]);
      any.push_back(T.mk_and(wild, T.mk_or(acc)));
    };
    for (int c = 0; c < 4; ++c) {
      wild_vs(last.wild[c], c, cur);
      if (cur.wild[c]) {  // cur's wildcards vs last's accesses (last's wildcards were done above)
        Summary last_nowild = last;
        for (Term& t : last_nowild.wild) t = nullptr;
        wild_vs(cur.wild[c], c, last_nowild);
      }
    }
    return T.mk_or(any);
  }

  const ir::ThreadModel& tm_;
  std::size_t n_;
  std::vector<std::vector<std::vector<Prepared>>> prep_;  // [thread][pc]
  std::vector<std::vector<unsigned>> slots_;              // [thread][class]
  std::vector<std::vector<Bits>> dc_;                     // [p][q] after the previous frame
  std::vector<Summary> last_;                             // [thread] latched last transition
  std::vector<Summary> blk_;                              // [thread] open atomic block so far
  struct RegionSummary {
    std::vector<std::pair<StaticKey, bool>> st;  // (location, write)
    bool wild[4] = {false, false, false, false};
  };
  std::vector<std::map<std::uint32_t, RegionSummary>> region_;  // [thread] what a transaction carries, at its start
  std::vector<Term> bpc_;                                 // [thread] first location of the open block
  std::vector<std::vector<std::uint32_t>> begin_pcs_, end_pcs_;  // [thread] AtomicBegin / AtomicEnd pcs
  struct BlockSlot {
    std::uint32_t pc;
    int cls;
    std::uint32_t slot;
  };
  std::vector<std::vector<BlockSlot>> bslots_;  // [thread] pointer accesses with a block slot
  bool has_bslot(std::size_t t, std::uint32_t pc, int cls, std::uint32_t slot) const {
    for (const BlockSlot& b : bslots_[t])
      if (b.pc == pc && b.cls == cls && b.slot == slot) return true;
    return false;
  }
  ChainFilter filter_;                                    // SIR: pairs that extend no chain
  std::vector<std::map<std::uint32_t, Term>> lpc_;        // [thread][c]: its last transition started at c (SIR)
  std::uint64_t dc_vars_ = 0, dep_vars_ = 0, constraints_ = 0;
};

}  // namespace

std::unique_ptr<SchedulerConstraints> make_mpor(const ir::ThreadModel& tm) { return std::make_unique<Mpor>(tm); }

std::unique_ptr<SchedulerConstraints> make_mpor_filtered(const ir::ThreadModel& tm, ChainFilter filter) {
  return std::make_unique<Mpor>(tm, std::move(filter));
}

}  // namespace siren::reduction

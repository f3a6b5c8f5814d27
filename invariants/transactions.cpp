// Transactions of the transaction graph (DESIGN.md §B5 step 1, "POR with synchronization
// constraints"; Lipton-style movers): the switch points, the instructions that end a transaction
// (visible ones: synchronisation, thread operations, accesses through pointers, accesses of
// shared objects that a conflicting access of another thread can run beside; never inside an
// atomic section), and the run of one transaction: a fixpoint, with widening, over the
// instructions of one thread from a node location to the switch points it reaches.
#include "invariants/builder.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

namespace siren::invariants::detail {

// ---- switch points ---------------------------------------------------------------------
void Builder::compute_switch_points(const std::vector<std::vector<bool>>& reach) {
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
    if (locks_.empty()) {
      for (std::size_t t = 0; t < tm_.threads.size(); ++t) {  // locks through pointers (&dev->lock)
        locks_.push_back(ir::must_locksets(tm_, static_cast<ThreadId>(t), &points_to()));
        order_.push_back(ir::create_join_order(tm_, static_cast<ThreadId>(t)));
      }
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

// ---- transactions --------------------------------------------------------------------
/// Runs thread t's transaction from node locs with state s (closed); appends the targets.
void Builder::transaction(const std::vector<std::int32_t>& locs, ThreadId t, const TgState& s0, std::vector<TxOut>& outs,
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

}  // namespace siren::invariants::detail

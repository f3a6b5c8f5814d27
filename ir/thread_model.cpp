// The thread model (docs/semantics.md, "Threads"): inlining, create-site slots, lowering.
#include "ir/thread_model.hpp"

#include "ir/cfg.hpp"
#include "ir/printer.hpp"

#include <algorithm>
#include <cassert>
#include <deque>
#include <map>
#include <sstream>
#include <unordered_map>

namespace siren::ir {

ThreadModel::ThreadModel() : exprs_(std::make_unique<ExprManager>()) {}
ThreadModel::ThreadModel(ThreadModel&&) noexcept = default;
ThreadModel& ThreadModel::operator=(ThreadModel&&) noexcept = default;
ThreadModel::~ThreadModel() = default;

std::string ThreadModel::where(const SourceLoc& loc) const {
  std::string file = loc.file < files.size() ? files[loc.file] : std::string("?");
  return file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

namespace {
// The most instructions one thread's code may have before a further call is not inlined (a
// Limit assertion in its place; docs/semantics.md "Calls").
constexpr std::size_t kMaxThreadInstructions = 200000;


struct Activation {
  const Function* fn = nullptr;
  std::vector<LocalId> local_map;
  std::unordered_map<ObjectId, ObjectId> obj_map;  // frame objects of this activation
  const Activation* parent = nullptr;
  std::unordered_map<ExprRef, ExprRef> memo;
  LocalId discarded = kNoLocal;  // `f::return#k`: a returned value nobody uses that loads
};

// A copied object's pointer cells initialised to an address (`int *p = &g;`) name program
// objects: they must name the thread model's copies (only Null/Global/Hidden objects can be
// such targets, since they are the only objects with a fixed address).
void remap_init_objects(Object& o, const std::vector<ObjectId>& global_map) {
  for (Cell& c : o.cells)
    if (c.init_obj != 0) {
      assert(c.init_obj < global_map.size() && global_map[c.init_obj] != ~0u);
      c.init_obj = global_map[c.init_obj];
    }
}

struct Shared {
  const Program& prog;
  ThreadModel& tm;
  const ThreadModelOptions& opts;
  std::vector<ObjectId> global_map;  // program object -> tm object (Null/Global/Hidden)
  std::unordered_map<FunctionId, unsigned> activations;  // per-function activation counter
};

class ThreadBuilder {
 public:
  ThreadBuilder(Shared& sh, ThreadCode& tc) : sh_(sh), tc_(tc) {}

  void build(FunctionId start, bool is_main) {
    is_main_ = is_main;
    stack_.push_back(start);
    inline_fn(start, nullptr, true, kNoLocal, {});
    stack_.pop_back();
    if (tc_.code.empty() ||
        (tc_.code.back().kind != InstrKind::ThreadExit && tc_.code.back().kind != InstrKind::Abort)) {
      Instr end;
      end.kind = is_main ? InstrKind::Abort : InstrKind::ThreadExit;
      if (!is_main) end.a = tm().exprs().mk_null();
      tc_.code.push_back(end);
    }
  }

  std::vector<std::size_t> create_sites;

 private:
  ThreadModel& tm() { return sh_.tm; }
  ExprManager& em() { return sh_.tm.exprs(); }

  ObjectId map_object(const Activation* act, ObjectId o) {
    for (const Activation* a = act; a; a = a->parent)
      if (auto it = a->obj_map.find(o); it != a->obj_map.end()) return it->second;
    if (o < sh_.global_map.size() && sh_.global_map[o] != kNoObject) return sh_.global_map[o];
    if (sh_.prog.objects[o].thread_local_storage) {  // this thread instance's copy
      auto [it, fresh] = tls_.try_emplace(o, 0);
      if (fresh) {
        it->second = copy_object(o, "@" + tc_.name);
        Object& copy = tm().objects[it->second];
        if (copy.thread_self && !copy.cells.empty())  // this instance's id + 1 (Object::thread_self)
          copy.cells[0].init = normalize(copy.cells[0].type, tc_.id + 1);
      }
      return it->second;
    }
    // A Local/Heap object referenced outside of its activation: give it a private copy.
    return copy_object(o, "?");
  }

  static constexpr ObjectId kNoObject = ~0u;
  std::unordered_map<ObjectId, ObjectId> tls_;  // thread-local program object -> this thread's copy

  ObjectId copy_object(ObjectId o, const std::string& suffix) {
    Object copy = sh_.prog.objects[o];
    copy.name += suffix;
    copy.id = static_cast<ObjectId>(tm().objects.size());
    remap_init_objects(copy, sh_.global_map);
    tm().objects.push_back(std::move(copy));
    return tm().objects.back().id;
  }

  ExprRef tr(Activation& act, ExprRef e) {
    if (!e) return nullptr;
    if (auto it = act.memo.find(e); it != act.memo.end()) return it->second;
    ExprRef r = nullptr;
    switch (e->op) {
      case Op::Const: r = em().mk_const(e->type, e->value); break;
      case Op::Local:
        r = em().mk_local(e->type, e->value < act.local_map.size() ? act.local_map[e->value] : kNoLocal);
        break;
      case Op::ObjAddr: r = em().mk_obj_addr(map_object(&act, e->obj), e->offset()); break;
      default: {
        std::vector<ExprRef> kids;
        kids.reserve(e->kids.size());
        for (ExprRef k : e->kids) kids.push_back(tr(act, k));
        r = em().rebuild(e, kids);
      }
    }
    act.memo.emplace(e, r);
    return r;
  }

  void emit(Instr in) { tc_.code.push_back(std::move(in)); }

  Instr base(const Instr& src) {
    Instr in;
    in.loc = src.loc;
    in.text = src.text;
    return in;
  }

  void inline_fn(FunctionId fid, const Activation* parent, bool top, LocalId ret_lhs,
                 const std::vector<ExprRef>& args) {
    const Function& fn = sh_.prog.functions[fid];
    const unsigned k = ++sh_.activations[fid];
    const std::string sfx = "#" + std::to_string(k);
    Activation act;
    act.fn = &fn;
    act.parent = parent;
    for (const LocalVar& lv : fn.locals) {
      act.local_map.push_back(static_cast<LocalId>(tc_.locals.size()));
      tc_.locals.push_back({fn.name + "::" + lv.name + sfx, lv.type});
    }
    for (ObjectId o : fn.frame_objects) act.obj_map[o] = copy_object(o, sfx);
    if (top && !is_main_ && fn.num_params > 0) tc_.param = act.local_map[0];
    if (!top) {
      for (std::size_t i = 0; i < args.size() && i < fn.num_params; ++i) {
        Instr in;
        in.kind = InstrKind::Assign;
        in.loc = fn.loc;
        in.text = fn.name + ": parameter " + fn.locals[i].name;
        in.lhs = act.local_map[i];
        in.a = args[i]->type == fn.locals[i].type ? args[i] : em().mk_convert(fn.locals[i].type, args[i]);
        emit(std::move(in));
      }
    }
    std::vector<std::uint32_t> index_map(fn.body.size() + 1, 0);
    std::vector<std::pair<std::size_t, std::uint32_t>> goto_fixups;
    std::vector<std::size_t> return_gotos;
    auto lhs_of = [&](LocalId l) { return l == kNoLocal || l >= act.local_map.size() ? kNoLocal : act.local_map[l]; };

    for (std::size_t i = 0; i < fn.body.size(); ++i) {
      const Instr& src = fn.body[i];
      index_map[i] = static_cast<std::uint32_t>(tc_.code.size());
      switch (src.kind) {
        case InstrKind::Skip: break;
        case InstrKind::Goto: {
          Instr in = base(src);
          in.kind = InstrKind::Goto;
          in.a = src.a ? tr(act, src.a) : em().mk_true();
          goto_fixups.push_back({tc_.code.size(), src.target});
          emit(std::move(in));
          break;
        }
        case InstrKind::Call: {
          const Function* callee = src.callee < sh_.prog.functions.size() ? &sh_.prog.functions[src.callee] : nullptr;
          if (!callee || !callee->has_body) {
            Instr in = base(src);
            in.kind = InstrKind::Assert;
            in.assert_kind = AssertKind::Limit;
            in.a = em().mk_false();
            in.message = "call to a function without body" + (callee ? ": " + callee->name : std::string());
            tm().limited = true;
            emit(std::move(in));
            break;
          }
          if (tc_.code.size() > kMaxThreadInstructions) {
            // Inlining every call of a driver's call graph can grow without bound in practice
            // (r8169: helpers that poll through condition functions, nested 90 deep); past
            // this size a call is a modelling limit, as a call without a body is.
            Instr in = base(src);
            in.kind = InstrKind::Assert;
            in.assert_kind = AssertKind::Limit;
            in.a = em().mk_false();
            in.message = "thread code of more than " + std::to_string(kMaxThreadInstructions) +
                         " instructions after inlining; call to " + callee->name + " not inlined";
            tm().limited = true;
            emit(std::move(in));
            break;
          }
          const auto depth = std::count(stack_.begin(), stack_.end(), src.callee);
          if (depth > static_cast<long>(sh_.opts.max_recursion)) {
            Instr in = base(src);
            in.kind = InstrKind::Assert;
            in.assert_kind = AssertKind::Limit;
            in.a = em().mk_false();
            in.message = "recursion bound " + std::to_string(sh_.opts.max_recursion) +
                         " exceeded in call to " + callee->name;
            tm().limited = true;
            emit(std::move(in));
            break;
          }
          std::vector<ExprRef> targs;
          for (ExprRef a : src.args) targs.push_back(tr(act, a));
          const bool wrap = callee->is_atomic && !in_atomic_;
          if (wrap) {
            Instr in = base(src);
            in.kind = InstrKind::AtomicBegin;
            emit(std::move(in));
            in_atomic_ = true;
          }
          stack_.push_back(src.callee);
          inline_fn(src.callee, &act, false, lhs_of(src.lhs), targs);
          stack_.pop_back();
          if (wrap) {
            in_atomic_ = false;
            Instr in = base(src);
            in.kind = InstrKind::AtomicEnd;
            emit(std::move(in));
          }
          break;
        }
        case InstrKind::Return: {
          // A returned value nobody uses is still evaluated when it loads (its loads are
          // accesses: races, dependences).
          auto discard = [&] {
            if (!src.a || loads_in(src.a).empty()) return kNoLocal;
            if (act.discarded == kNoLocal) {
              act.discarded = static_cast<LocalId>(tc_.locals.size());
              tc_.locals.push_back({fn.name + "::return" + sfx, src.a->type});
            }
            return act.discarded;
          };
          if (top) {
            Instr in = base(src);
            if (is_main_) {
              if (const LocalId d = discard(); d != kNoLocal) {
                Instr as = base(src);
                as.kind = InstrKind::Assign;
                as.lhs = d;
                as.a = tr(act, src.a);
                emit(std::move(as));
              }
              in.kind = InstrKind::Abort;
            } else {
              in.kind = InstrKind::ThreadExit;
              ExprRef v = src.a ? tr(act, src.a) : em().mk_null();
              in.a = v->type.is_ptr() ? v : em().mk_convert(Type::pointer(), v);
            }
            emit(std::move(in));
          } else {
            if (const LocalId lhs = ret_lhs != kNoLocal ? ret_lhs : discard(); src.a && lhs != kNoLocal) {
              Instr in = base(src);
              in.kind = InstrKind::Assign;
              in.lhs = lhs;
              ExprRef v = tr(act, src.a);
              const Type lt = tc_.locals[lhs].type;
              in.a = v->type == lt ? v : em().mk_convert(lt, v);
              emit(std::move(in));
            }
            if (i + 1 != fn.body.size()) {
              Instr in = base(src);
              in.kind = InstrKind::Goto;
              in.a = em().mk_true();
              return_gotos.push_back(tc_.code.size());
              emit(std::move(in));
            }
          }
          break;
        }
        case InstrKind::CondWait: {
          Instr un = base(src);
          un.kind = InstrKind::Unlock;
          un.a = tr(act, src.b);
          Instr lk = un;
          lk.kind = InstrKind::Lock;
          emit(std::move(un));
          emit(std::move(lk));
          break;
        }
        case InstrKind::Malloc: {
          Instr in = src;
          in.lhs = lhs_of(src.lhs);
          in.obj = copy_object(src.obj, "@" + tc_.name + sfx);
          emit(std::move(in));
          break;
        }
        case InstrKind::ThreadCreate: {
          Instr in = src;
          in.a = tr(act, src.a);
          in.b = tr(act, src.b);
          in.lhs = kNoLocal;  // set by the slot pass
          in.threads.clear();
          create_sites.push_back(tc_.code.size());
          emit(std::move(in));
          break;
        }
        default: {
          Instr in = src;
          in.lhs = lhs_of(src.lhs);
          in.a = tr(act, src.a);
          in.b = tr(act, src.b);
          for (auto& a : in.args) a = tr(act, a);
          emit(std::move(in));
          break;
        }
      }
    }
    index_map[fn.body.size()] = static_cast<std::uint32_t>(tc_.code.size());
    for (auto [at, target] : goto_fixups)
      tc_.code[at].target = index_map[std::min<std::size_t>(target, fn.body.size())];
    for (std::size_t at : return_gotos) tc_.code[at].target = static_cast<std::uint32_t>(tc_.code.size());
  }

  Shared& sh_;
  ThreadCode& tc_;
  bool is_main_ = false;
  bool in_atomic_ = false;
  std::vector<FunctionId> stack_;
};

// Dead-code pruning: what can run after each instruction (nothing after ThreadExit or a
// failing assert, no fall-through after an always-taken goto).
std::vector<std::vector<std::uint32_t>> live_successors(const std::vector<Instr>& code) {
  std::vector<std::vector<std::uint32_t>> succ(code.size());
  for (std::uint32_t i = 0; i < code.size(); ++i)
    succ[i] = ir::successors(code, i, {.exit_to_end = false, .include_end = false, .failing_assert_ends = true});
  return succ;
}

bool on_cycle(const std::vector<std::vector<std::uint32_t>>& succ, std::uint32_t site) {
  std::vector<char> seen(succ.size(), 0);
  std::vector<std::uint32_t> work(succ[site].begin(), succ[site].end());
  while (!work.empty()) {
    auto n = work.back();
    work.pop_back();
    if (n == site) return true;
    if (seen[n]) continue;
    seen[n] = 1;
    for (auto s : succ[n]) work.push_back(s);
  }
  return false;
}

// Dead-havoc elimination (docs/semantics.md, "Decisions made by the thread model"): a
// `Havoc x` after which no path reads x before writing it is removed. Backward liveness over
// the thread's own locals, restricted to the locals some Havoc writes (64 per round, one
// bit each). Reads: every Local node in `a`, `b`, `args`, and `lhs` of every instruction that
// does not simply overwrite it (ThreadCreate's counter). Writes (kills): `lhs` of Assign,
// Havoc, TryLock and Malloc. ThreadCreate also writes the started thread's parameter local,
// which belongs to another thread's code and does not matter here. Removing a Havoc changes
// no read and no other instruction, so one round suffices.
void drop_dead_havocs(ThreadCode& tc) {
  const std::size_t n = tc.code.size();
  const std::size_t nl = tc.locals.size();
  constexpr std::uint32_t kNone = ~0u;
  std::vector<std::uint32_t> cand_of(nl, kNone);  // local -> candidate index
  std::uint32_t ncand = 0;
  for (const Instr& in : tc.code)
    if (in.kind == InstrKind::Havoc && in.lhs < nl && cand_of[in.lhs] == kNone) cand_of[in.lhs] = ncand++;
  if (ncand == 0) return;

  // Candidate locals read and killed by each instruction.
  std::vector<std::vector<std::uint32_t>> reads(n), kills(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Instr& in = tc.code[i];
    auto read_expr = [&](ExprRef e) {
      if (!e) return;
      visit_post_order(e, [&](ExprRef x) {
        if (x->op == Op::Local && x->value < nl && cand_of[x->value] != kNone)
          reads[i].push_back(cand_of[x->value]);
      });
    };
    read_expr(in.a);
    read_expr(in.b);
    for (ExprRef e : in.args) read_expr(e);
    if (in.lhs < nl && cand_of[in.lhs] != kNone) {
      switch (in.kind) {
        case InstrKind::Assign:
        case InstrKind::Havoc:
        case InstrKind::TryLock:
        case InstrKind::Malloc: kills[i].push_back(cand_of[in.lhs]); break;
        default: reads[i].push_back(cand_of[in.lhs]); break;  // ThreadCreate counter, unknown uses
      }
    }
  }

  const auto succ = live_successors(tc.code);
  std::vector<char> dead(n, 0);
  std::size_t ndead = 0;
  std::vector<std::uint64_t> gen(n), kill(n), live_in(n);
  for (std::uint32_t base = 0; base < ncand; base += 64) {
    auto bits = [&](const std::vector<std::uint32_t>& cs) {
      std::uint64_t m = 0;
      for (std::uint32_t c : cs)
        if (c >= base && c - base < 64) m |= std::uint64_t{1} << (c - base);
      return m;
    };
    for (std::size_t i = 0; i < n; ++i) {
      gen[i] = bits(reads[i]);
      kill[i] = bits(kills[i]);
      live_in[i] = 0;
    }
    auto live_out = [&](std::size_t i) {
      std::uint64_t m = 0;
      for (std::uint32_t s : succ[i]) m |= live_in[s];
      return m;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = n; i-- > 0;) {
        const std::uint64_t in = gen[i] | (live_out(i) & ~kill[i]);
        if (in != live_in[i]) {
          live_in[i] = in;
          changed = true;
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Instr& in = tc.code[i];
      if (in.kind != InstrKind::Havoc || in.lhs >= nl || i + 1 == n) continue;
      const std::uint32_t c = cand_of[in.lhs];
      if (c < base || c - base >= 64) continue;
      if (!(live_out(i) & (std::uint64_t{1} << (c - base)))) {
        dead[i] = 1;
        ++ndead;
      }
    }
  }
  if (ndead == 0) return;

  // Remove: a goto to a removed Havoc goes to the next kept instruction (there is one: the
  // last instruction is never removed).
  std::vector<Instr> out;
  out.reserve(n - ndead);
  std::vector<std::uint32_t> newpos(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    newpos[i] = static_cast<std::uint32_t>(out.size());
    if (!dead[i]) out.push_back(std::move(tc.code[i]));
  }
  newpos[n] = static_cast<std::uint32_t>(out.size());
  for (Instr& in : out)
    if (in.kind == InstrKind::Goto) in.target = newpos[std::min<std::size_t>(in.target, n)];
  tc.code = std::move(out);
}

}  // namespace

ThreadModel build_thread_model(const Program& program, const ThreadModelOptions& options) {
  ThreadModel tm;
  tm.files = program.files;
  Shared sh{program, tm, options, {}, {}};
  sh.global_map.assign(program.objects.size(), ~0u);
  for (const Object& o : program.objects) {
    if (o.id == 0) {
      tm.objects.push_back(o);
      sh.global_map[0] = 0;
      continue;
    }
    if ((o.kind == ObjectKind::Global || o.kind == ObjectKind::Hidden) && !o.thread_local_storage) {
      Object c = o;
      c.id = static_cast<ObjectId>(tm.objects.size());
      sh.global_map[o.id] = c.id;
      tm.objects.push_back(std::move(c));
    }
  }
  for (Object& o : tm.objects) remap_init_objects(o, sh.global_map);  // every target is copied now
  if (program.entry == kNoFunction) return tm;

  const unsigned max_threads = std::max(1u, options.max_threads);
  unsigned remaining = max_threads - 1;
  tm.threads.push_back({});
  tm.threads[0].id = 0;
  tm.threads[0].name = "main";
  tm.threads[0].start = program.entry;
  std::deque<ThreadId> queue{0};
  while (!queue.empty()) {
    const ThreadId tid = queue.front();
    queue.pop_front();
    ThreadCode tc = std::move(tm.threads[tid]);
    ThreadBuilder b(sh, tc);
    b.build(tc.start, tid == 0);

    // Slots for the create sites of this thread (code order): one per site first, then the
    // remaining budget round-robin over the sites on a CFG cycle.
    const auto succ = live_successors(tc.code);
    const std::size_t nsites = b.create_sites.size();
    std::vector<unsigned> slots(nsites, 0);
    std::vector<bool> cyclic(nsites, false);
    for (std::size_t i = 0; i < nsites; ++i) {
      cyclic[i] = on_cycle(succ, static_cast<std::uint32_t>(b.create_sites[i]));
      if (remaining > 0) {
        slots[i] = 1;
        --remaining;
      }
    }
    bool any_cyclic = std::find(cyclic.begin(), cyclic.end(), true) != cyclic.end();
    while (any_cyclic && remaining > 0) {
      for (std::size_t i = 0; i < nsites && remaining > 0; ++i)
        if (cyclic[i]) {
          ++slots[i];
          --remaining;
        }
    }
    // Rewrite: counters initialised first, Limit asserts before create sites that can run out.
    std::vector<Instr> out;
    std::vector<std::uint32_t> newpos(tc.code.size() + 1, 0);
    std::unordered_map<std::size_t, std::size_t> site_index;
    std::vector<char> final_target;  // [out index] a Goto whose target is already final
    // A new u32 local, set to 0 at the thread's start.
    auto zero_counter = [&](std::string name, const char* text) {
      const LocalId counter = static_cast<LocalId>(tc.locals.size());
      tc.locals.push_back({std::move(name), Type::integer(32, false)});
      Instr init;
      init.kind = InstrKind::Assign;
      init.loc = tc.code.empty() ? SourceLoc{} : tc.code[0].loc;
      init.text = text;
      init.lhs = counter;
      init.a = tm.exprs().mk_int(Type::integer(32, false), 0);
      out.push_back(std::move(init));
      return counter;
    };
    // Malloc sites on a cycle, with more than one heap slot: a counter each.
    std::map<std::size_t, LocalId> heap_counter;
    if (options.heap_slots > 1)
      for (std::size_t i = 0; i < tc.code.size(); ++i)
        if (tc.code[i].kind == InstrKind::Malloc && on_cycle(succ, static_cast<std::uint32_t>(i)))
          heap_counter[i] = zero_counter("malloc#" + std::to_string(heap_counter.size() + 1), "malloc site counter");
    for (std::size_t i = 0; i < nsites; ++i) {
      site_index[b.create_sites[i]] = i;
      const LocalId counter = zero_counter("create#" + std::to_string(i + 1), "create site counter");
      Instr& site = tc.code[b.create_sites[i]];
      site.lhs = counter;
      for (unsigned s = 0; s < slots[i]; ++s) {
        const ThreadId nt = static_cast<ThreadId>(tm.threads.size());
        ThreadCode child;
        child.id = nt;
        child.start = site.callee;
        child.name = (site.callee < program.functions.size() ? program.functions[site.callee].name
                                                              : std::string("thread")) +
                     "#" + std::to_string(nt);
        site.threads.push_back(nt);
        tm.threads.push_back(std::move(child));
        queue.push_back(nt);
      }
    }
    for (std::size_t i = 0; i < tc.code.size(); ++i) {
      newpos[i] = static_cast<std::uint32_t>(out.size());
      if (auto it = site_index.find(i); it != site_index.end()) {
        const std::size_t si = it->second;
        if (cyclic[si] || slots[si] == 0) {
          const Instr& site = tc.code[i];
          Instr as;
          as.loc = site.loc;
          as.text = site.text;
          const Type u32 = Type::integer(32, false);
          as.a = tm.exprs().mk_binary(Op::Ult, tm.exprs().mk_local(u32, site.lhs),
                                      tm.exprs().mk_int(u32, slots[si]));
          if (options.block_at_thread_limit) {
            // the execution stops here: it would need more than max_threads threads
            as.kind = InstrKind::Assume;
            as.assert_kind = AssertKind::Limit;  // marks the cut (is_thread_bound_cut)
            as.text = "thread bound (--threads " + std::to_string(max_threads) + "): " + site.text;
            tm.thread_bound = max_threads;
          } else {
            as.kind = InstrKind::Assert;
            as.assert_kind = AssertKind::Limit;
            as.message = "threads: pthread_create site executed more than " + std::to_string(slots[si]) +
                         " time(s) (--threads " + std::to_string(max_threads) + ")";
            as.limit = LimitKind::Threads;
            tm.limited = true;
          }
          out.push_back(std::move(as));
        }
      }
      if (auto it = heap_counter.find(i); it != heap_counter.end()) {
        // The site's n-th execution allocates its n-th object: per slot, a test of the counter,
        // the Malloc of that slot's copy and a jump to the increment; after the last, the Limit.
        const Instr& site = tc.code[i];
        Instr plain = site;  // the site's location and text, no operands
        plain.a = plain.b = nullptr;
        plain.args.clear();
        plain.obj = 0;
        const Type u32 = Type::integer(32, false);
        const ExprRef cnt = tm.exprs().mk_local(u32, it->second);
        const std::size_t start = out.size(), n = options.heap_slots;
        const auto end = static_cast<std::uint32_t>(start + 3 * n + 1);
        for (std::size_t k = 0; k < n; ++k) {
          Instr test = plain;
          test.kind = InstrKind::Goto;
          test.lhs = kNoLocal;
          test.a = tm.exprs().mk_binary(Op::Ne, cnt, tm.exprs().mk_int(u32, k));
          test.target = static_cast<std::uint32_t>(start + 3 * (k + 1));
          out.push_back(std::move(test));
          Instr alloc = site;
          if (k > 0) {
            Object copy = tm.objects[site.obj];
            copy.name += "#" + std::to_string(k + 1);
            copy.id = static_cast<ObjectId>(tm.objects.size());
            tm.objects.push_back(std::move(copy));
            alloc.obj = tm.objects.back().id;
          }
          out.push_back(std::move(alloc));
          Instr jump = plain;
          jump.kind = InstrKind::Goto;
          jump.lhs = kNoLocal;
          jump.a = tm.exprs().mk_true();
          jump.target = end;
          out.push_back(std::move(jump));
        }
        Instr limit = plain;
        limit.kind = InstrKind::Assert;
        limit.lhs = kNoLocal;
        limit.assert_kind = AssertKind::Limit;
        limit.a = tm.exprs().mk_false();
        limit.message = "heap: malloc site executed more than " + std::to_string(n) + " times";
        limit.limit = LimitKind::HeapSlots;
        out.push_back(std::move(limit));
        Instr inc = plain;
        inc.kind = InstrKind::Assign;
        inc.lhs = it->second;
        inc.a = tm.exprs().mk_binary(Op::Add, cnt, tm.exprs().mk_int(u32, 1));
        inc.text = "malloc site counter";
        out.push_back(std::move(inc));
        final_target.resize(out.size(), 0);
        for (std::size_t k = 0; k < n; ++k) final_target[start + 3 * k] = final_target[start + 3 * k + 2] = 1;
        tm.limited = true;
        continue;
      }
      out.push_back(tc.code[i]);
    }
    newpos[tc.code.size()] = static_cast<std::uint32_t>(out.size());
    final_target.resize(out.size(), 0);
    for (std::size_t j = 0; j < out.size(); ++j)
      if (out[j].kind == InstrKind::Goto && !final_target[j])
        out[j].target = newpos[std::min<std::size_t>(out[j].target, tc.code.size())];
    tc.code = std::move(out);
    drop_dead_havocs(tc);
    tm.threads[tid] = std::move(tc);
  }
  return tm;
}

std::string print_thread_model(const ThreadModel& tm) {
  std::ostringstream os;
  os << "objects:\n";
  for (const Object& o : tm.objects) {
    if (o.id == 0) continue;
    os << "  @" << o.id << ' ' << o.name << " (" << o.cells.size() << " cell"
       << (o.cells.size() == 1 ? "" : "s") << ")\n";
  }
  if (tm.limited) os << "limited: yes\n";
  if (tm.thread_bound) os << "thread bound: " << tm.thread_bound << "\n";
  for (const ThreadCode& tc : tm.threads) {
    os << "thread " << tc.id << ' ' << tc.name << ":\n";
    for (std::size_t i = 0; i < tc.code.size(); ++i) {
      os << "  " << format_instr(tm.objects, tc.locals, tc.code[i], static_cast<std::uint32_t>(i));
      if (tc.code[i].loc.line) os << "    ; " << tm.where(tc.code[i].loc);
      os << '\n';
    }
  }
  return os.str();
}

}  // namespace siren::ir

// Guided interpretation of a failing native run (confirm/native_confirm.hpp).
//
// The native run is a sequence of scheduling points ("events": shared accesses, pthread
// calls, atomic sections) of numbered threads, each with a code address, plus the values its
// __VERIFIER_nondet_* calls returned. Siren's thread model is a list of instructions per
// thread instance. The two meet at source lines only:
//  * an event of native thread n at line L moves n's siren thread until it executes an
//    instruction at L that can give such an event (a read loads memory, a write stores, a lock
//    is a Lock, a pthread_create a ThreadCreate, ...); the steps before it (locals, branches,
//    accesses the compiler's instrumentation does not see) have no event of their own. When
//    the native address lies in a global (the symbol table says), the instruction that
//    accesses that global is preferred;
//  * the accesses siren makes that no event has claimed yet (the rest of one step that reads
//    and writes, or accesses of a statement C lets the two compilers order differently) are
//    owed: a later event of the thread at the same line claims one instead of moving it;
//  * reading a pthread call's argument (the mutex pointer) is absorbed without stepping: the
//    call's instruction executes at the call's own event, when the lock is really taken;
//  * steps without native events (the rest of a finished thread, the end of an atomic
//    section) run when another thread needs them (a join, the atomic flag);
//  * siren gives an instruction its statement's line, the compiler each access its own: an
//    access that matches nothing at its own line matches the first instruction on the
//    kLineSpan lines before it (a statement written over several lines);
//  * a Havoc of a __VERIFIER_nondet_* call takes the value its thread's native call at the
//    same line returned (siren drops havocs whose value is never read: skipped values are
//    those); main's argc is 1;
//  * natively __VERIFIER_assume(0) stops its thread for good and leaves its atomic section;
//    siren's thread waits with the section held. If the section has written nothing, the
//    thread goes back to the section's entry and never moves again.
// A violation is confirmed when the failing thread fails a Property assertion at the native
// failure's line after the last event; a data race when the two threads come to accesses at
// their racy lines (or owe one there) that touch one data cell, one of them a write. Nothing
// is forced: an event siren's thread does not reach within kStepCap steps, a thread siren
// blocks, or a violation siren reaches elsewhere or earlier is a disagreement.
#include "confirm/native_confirm.hpp"

#include "frontend/frontend.hpp"
#include "ir/interpreter.hpp"
#include "ir/validator.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace siren::confirm {

const char* confirm_result_name(ConfirmResult r) {
  switch (r) {
    case ConfirmResult::Confirmed: return "confirmed";
    case ConfirmResult::NotConfirmed: return "not confirmed";
    case ConfirmResult::NotChecked: return "not checked";
  }
  return "?";
}

namespace {

constexpr std::size_t kStepCap = 10'000;  // interpreter steps per native event
constexpr unsigned kLineSpan = 30;        // lines of a statement before an access's own (advance_to)
constexpr std::size_t kOwedEvents = 8;    // a thread's events an unclaimed access waits (Guide::Owed)

std::string basename_of(const std::string& p) { return std::filesystem::path(p).filename().string(); }

/// The native events one instruction can stand for.
struct Shape {
  unsigned reads = 0, writes = 0;
  char sync = 0;  // L lock, U unlock, T trylock, C create, J join, A atomic section begins
};

Shape shape_of(const ir::Instr& in) {
  Shape s;
  for (ir::ExprRef e : {in.a, in.b})
    if (e) s.reads += static_cast<unsigned>(ir::loads_in(e).size());
  for (ir::ExprRef e : in.args)
    if (e) s.reads += static_cast<unsigned>(ir::loads_in(e).size());
  using K = ir::InstrKind;
  switch (in.kind) {
    case K::Store: s.writes = 1; break;
    case K::Lock: case K::WrLock: case K::RdLock: s.sync = 'L'; break;
    case K::Unlock: case K::RwUnlock: s.sync = 'U'; break;
    case K::TryLock: s.sync = 'T'; break;
    case K::ThreadCreate: s.sync = 'C'; break;
    case K::ThreadJoin: s.sync = 'J'; break;
    case K::AtomicBegin: s.sync = 'A'; break;
    default: break;
  }
  return s;
}

/// What a native event asks of siren's thread: R read, W write, M atomic read-modify-write,
/// D any data access (a race's access), or a Shape::sync letter; 0: nothing (thread start
/// and exit, yield, nondet values, the failing call).
char want_of(const native::Event& e) {
  switch (e.kind) {
    case 'R': case 'W': case 'M': case 'L': case 'U': case 'C': case 'J': case 'A': return e.kind;
    case 'Y': return e.addr ? 'T' : 0;  // pthread_mutex_trylock; else sched_yield / sleep
    default: return 0;
  }
}

bool matches(const Shape& s, char want) {
  switch (want) {
    case 'R': return s.reads > 0;
    case 'W': return s.writes > 0;
    case 'M': return s.reads > 0 || s.writes > 0 || s.sync == 'A';
    case 'D': return (s.reads > 0 || s.writes > 0) && !s.sync;
    default: return s.sync == want;
  }
}

const char* want_name(char want) {
  switch (want) {
    case 'R': return "a read";
    case 'W': return "a write";
    case 'M': return "an atomic read-modify-write";
    case 'D': return "a data access";
    case 'L': return "a lock";
    case 'U': return "an unlock";
    case 'T': return "a trylock";
    case 'C': return "a pthread_create";
    case 'J': return "a pthread_join";
    case 'A': return "an atomic section";
  }
  return "an event";
}

class Guide {
 public:
  Guide(const ir::ThreadModel& tm, const native::Binary& b, const native::Run& r)
      : tm_(tm), b_(b), r_(r), in_(tm), rows_(native::trace_lines(b, r)) {
    siren_of_[0] = 0;
    p_.s = in_.initial_state();
    p_.queue.resize(tm.threads.size());
    p_.owed.resize(tm.threads.size());
    p_.events.resize(tm.threads.size());
    // The program's globals by address, under the names siren gives them (a static local
    // `s` of f is `f.s` to nm and `s` to siren).
    std::set<std::string> siren_globals;
    for (const auto& o : tm.objects)
      if (o.kind == ir::ObjectKind::Global) siren_globals.insert(o.name);
    for (const auto& [sym, place] : b.variables) {
      std::string n = sym;
      if (const auto dot = n.find('.'); dot != std::string::npos) n = n.substr(dot + 1, n.find('.', dot + 1) - dot - 1);
      if (!siren_globals.count(n) || place.second == 0) continue;
      globals_.emplace(place.first, std::make_pair(place.first + place.second, n));
      known_globals_.insert(n);
    }
  }

  Confirmation run() {
    for (std::size_t i = 0; i < r_.events.size() && !stopped(); ++i) {
      const native::Event& e = r_.events[i];
      if (e.kind == 'V') break;  // the failing call: the end
      event_ = i;
      follow(e);
    }
    if (p_.error) return judge_error();
    if (!p_.failure.empty()) return done(ConfirmResult::NotConfirmed, p_.failure + ", following " + describe(event_));
    event_ = r_.events.size();
    if (r_.outcome == native::Outcome::Race) return judge_race();
    // The violation: the failing thread runs to its failing assertion.
    const auto f = thread_of(r_.thread);
    if (!f) return done(ConfirmResult::NotConfirmed, "the failing native thread " + std::to_string(r_.thread) +
                                                         " has no siren counterpart");
    for (std::size_t n = 0; n < kStepCap && !stopped(); ++n)
      if (!step_thread(*f, 0)) break;
    if (p_.error) return judge_error();
    if (!p_.failure.empty()) return done(ConfirmResult::NotConfirmed, p_.failure + ", after the last native event");
    return done(ConfirmResult::NotConfirmed, "siren's " + name(*f) + " does not fail within " +
                                                 std::to_string(kStepCap) + " steps after the last native event (it is at " +
                                                 at(*f) + ")");
  }

 private:
  struct Error {
    ir::ThreadId thread = 0;
    ir::StepResult result;
    std::size_t event = 0;  // the native event being followed (events.size(): after the last)
  };
  /// A memory access of an instruction, evaluated where the thread stands: R or W, the cell
  /// (object << 32 | offset) and, when the object is a global the native program has too, its
  /// name (what a native address can be compared with), else "".
  struct Access {
    char kind = 'R';
    std::uint64_t cell = 0;
    std::string global;
  };
  /// An access siren's thread made that no native event has claimed yet: the rest of an
  /// instruction matched to one of several accesses (one step that reads and writes), or an
  /// instruction stepped over on the way to the match (C leaves the order of a statement's
  /// accesses unspecified: clang may read `*p = f() + 1`'s p after f's accesses, siren
  /// before).
  struct Owed {
    std::string file;
    unsigned line = 0;
    char kind = 'R';
    std::string global;
    std::uint64_t cell = 0;
    std::size_t born = 0;  // the thread's event count then: unclaimed for kOwedEvents, dropped
  };

  bool stopped() const { return p_.error.has_value() || !p_.failure.empty(); }

  Confirmation done(ConfirmResult res, std::string why) const { return {res, std::move(why), p_.steps}; }

  std::optional<ir::ThreadId> thread_of(int native_thread) const {
    auto it = siren_of_.find(native_thread);
    if (it == siren_of_.end()) return std::nullopt;
    return it->second;
  }

  std::string name(ir::ThreadId t) const { return "thread " + tm_.threads[t].name; }

  std::string file_of(const ir::SourceLoc& l) const {
    return l.file < tm_.files.size() ? basename_of(tm_.files[l.file]) : std::string("?");
  }
  std::string where(const ir::SourceLoc& l) const { return file_of(l) + ":" + std::to_string(l.line); }

  /// Where thread t stands (the instruction it executes next).
  std::string at(ir::ThreadId t) const {
    const auto& ts = p_.s.threads[t];
    const auto& code = tm_.threads[t].code;
    if (ts.finished || ts.pc >= code.size()) return "its end";
    const ir::Instr& in = code[ts.pc];
    return where(in.loc) + " `" + (in.text.empty() ? ir::instr_kind_name(in.kind) : in.text) + "`";
  }

  std::string describe(std::size_t i) const {
    if (i >= r_.events.size() || i >= rows_.size()) return "the native run's end";
    const auto& row = rows_[i];
    return "native event " + std::to_string(i + 1) + " (" + row.thread_name + " " + row.file + ":" +
           std::to_string(row.line) + ": " + row.what + ")";
  }

  bool fail(std::string why) {
    if (p_.failure.empty()) p_.failure = std::move(why);
    return false;
  }

  /// The global (as siren names it) a native address lies in, or "".
  std::string global_at(std::uint64_t addr) const {
    auto it = globals_.upper_bound(addr);
    if (it == globals_.begin()) return "";
    --it;
    return addr < it->second.first ? it->second.second : "";
  }

  const ir::Instr* instr_of(ir::ThreadId t) const {
    const auto& ts = p_.s.threads[t];
    const auto& code = tm_.threads[t].code;
    return ts.finished || ts.pc >= code.size() ? nullptr : &code[ts.pc];
  }

  /// The memory accesses of the instruction thread t executes next, in the current state.
  std::vector<Access> accesses(ir::ThreadId t) const {
    std::vector<Access> out;
    const ir::Instr* in = instr_of(t);
    if (!in) return out;
    auto add = [&](const ir::Value& p, char kind) {
      if (!in_.valid_ptr(p_.s, p)) return;
      const ir::Object& o = tm_.objects[p.obj];
      const bool named = o.kind == ir::ObjectKind::Global && known_globals_.count(o.name);
      out.push_back({kind, (std::uint64_t{p.obj} << 32) | (p.bits & 0xffffffffULL), named ? o.name : ""});
    };
    std::vector<ir::ExprRef> ops = {in->a, in->b};
    ops.insert(ops.end(), in->args.begin(), in->args.end());
    for (ir::ExprRef e : ops)
      if (e)
        for (ir::ExprRef l : ir::loads_in(e)) add(in_.eval(p_.s, t, l->kids[0]), 'R');
    if (in->kind == ir::InstrKind::Store) add(in_.eval(p_.s, t, in->a), 'W');
    return out;
  }

  /// The next native nondet value of thread t's call at `in`'s line (earlier values of other
  /// lines belong to calls siren dropped as dead), converted to the havocked local's type.
  ir::Value nondet_for(ir::ThreadId t, const ir::Instr& in) {
    auto& q = p_.queue[t];
    const std::string file = file_of(in.loc);
    auto it = std::find_if(q.begin(), q.end(), [&](const auto& v) { return v.first == std::make_pair(file, in.loc.line); });
    if (it == q.end() && !q.empty()) it = q.begin();  // a call whose line the two disagree on
    std::int64_t v = 0;
    if (it != q.end()) {
      v = it->second;
      q.erase(q.begin(), it + 1);
    }
    const auto& locals = tm_.threads[t].locals;
    const ir::Type ty = in.lhs < locals.size() ? locals[in.lhs].type : ir::Type::integer(64, true);
    if (ty.is_ptr()) return {};
    return {ir::normalize(ty, static_cast<std::uint64_t>(v)), 0};
  }

  /// One step of thread t (which may first need others to move: see unblock). True also when
  /// t was stopped instead (see unblock): it never moves again.
  bool step_thread(ir::ThreadId t, unsigned depth) {
    if (p_.stopped.count(t))
      return fail("siren's " + name(t) + " must move, but the native thread stopped for good at " +
                  "__VERIFIER_assume(0) inside an atomic section");
    // Each unblock removes one reason (the atomic flag, then an unfinished joined thread).
    for (std::size_t tries = 0; !in_.enabled(p_.s, t); ++tries) {
      if (tries > tm_.threads.size() || !unblock(t, depth)) return fail("siren's " + name(t) + " cannot move at " + at(t));
      if (p_.stopped.count(t)) return true;
    }
    const ir::Instr& in = tm_.threads[t].code[p_.s.threads[t].pc];
    if (in.kind == ir::InstrKind::AtomicBegin) p_.section_entry[t] = p_.s;
    ir::Step st{t, {}};
    if (ir::is_nondet_call(in))
      st.nondet.push_back(nondet_for(t, in));
    else if (in.kind == ir::InstrKind::Havoc && t == 0 && in.text == "main's arguments")
      st.nondet.push_back({1, 0});  // argc: siren test runs the program without arguments
    const ir::StepResult res = in_.step(p_.s, st);
    ++p_.steps;
    if (res.outcome == ir::StepOutcome::Error) {
      p_.error = Error{t, res, event_};
      return false;
    }
    return res.outcome == ir::StepOutcome::Ok || fail("siren's " + name(t) + " cannot move at " + at(t));
  }

  /// The thread a ThreadJoin `in` of thread t joins now (as the interpreter reads the handle).
  std::uint64_t joined_id(ir::ThreadId t, const ir::Instr& in) const {
    const ir::Value h = in_.eval(p_.s, t, in.a);
    return in.a->type.is_int() && in.a->type.width < 64 ? h.bits & ((1ULL << in.a->type.width) - 1) : h.bits;
  }

  /// Thread t cannot move: let the threads it waits for (and whose remaining steps have no
  /// native event) move, or say why siren blocks it where the native run did not.
  bool unblock(ir::ThreadId t, unsigned depth) {
    if (depth > tm_.threads.size()) return fail("siren's threads wait for each other");
    if (p_.s.terminated) return fail("siren's program has already ended (main returned, or exit/abort was called)");
    const auto& ts = p_.s.threads[t];
    if (!ts.started) return fail("siren's " + name(t) + " has not been started");
    if (ts.finished) return fail("siren's " + name(t) + " has already finished");
    if (p_.s.atomic != 0 && p_.s.atomic != t + 1) {  // another thread is still in its atomic section
      const ir::ThreadId w = p_.s.atomic - 1;
      for (std::size_t n = 0; n < kStepCap && p_.s.atomic == w + 1; ++n)
        if (!step_thread(w, depth + 1)) return false;
      return p_.s.atomic != w + 1 || fail("siren's " + name(w) + " does not leave its atomic section");
    }
    const ir::Instr& in = tm_.threads[t].code[ts.pc];
    switch (in.kind) {
      case ir::InstrKind::ThreadJoin: {  // the joined thread's last steps have no native event
        const std::uint64_t id = joined_id(t, in);
        if (id >= p_.s.threads.size()) return fail("siren's " + name(t) + " joins no thread at " + at(t));
        for (std::size_t n = 0; n < kStepCap && !p_.s.threads[id].finished; ++n)
          if (!step_thread(static_cast<ir::ThreadId>(id), depth + 1)) return false;
        return p_.s.threads[id].finished || fail("siren's " + name(static_cast<ir::ThreadId>(id)) + " does not finish");
      }
      case ir::InstrKind::Lock:
      case ir::InstrKind::WrLock:
      case ir::InstrKind::RdLock:
        return fail("siren's " + name(t) + " waits for a lock the native thread got, at " + at(t));
      case ir::InstrKind::Assume: {
        // Natively, __VERIFIER_assume(0) stops the thread for good and leaves its atomic
        // section; in siren the thread waits with the section held, so no thread moves. When
        // the section has changed no memory yet, the native run is siren's execution in which
        // the thread never entered it: go back to its entry and never move the thread again.
        auto it = p_.section_entry.find(t);
        if (p_.s.atomic == t + 1 && it != p_.section_entry.end() && it->second.memory == p_.s.memory &&
            it->second.live == p_.s.live && it->second.allocated == p_.s.allocated) {
          p_.s = it->second;
          p_.stopped.insert(t);
          return true;
        }
        return fail("siren's " + name(t) + " blocks at an assumption, at " + at(t) +
                    (p_.s.atomic == t + 1 ? ", inside an atomic section that has written memory" : ""));
      }
      default: return fail("siren's " + name(t) + " cannot move at " + at(t));
    }
  }

  /// Does the instruction thread t executes next match `want` at a line lo..hi (and, when
  /// `global` is given, access that global the way `want` says)?
  bool at_match(ir::ThreadId t, char want, const std::string& global, const std::string& file, unsigned lo,
                unsigned hi) const {
    const ir::Instr* in = instr_of(t);
    if (!in || in->loc.line < lo || in->loc.line > hi || file_of(in->loc) != file || !matches(shape_of(*in), want))
      return false;
    if (global.empty()) return true;
    for (const Access& a : accesses(t))
      if (a.global == global && (want == 'M' || a.kind == want)) return true;
    return false;
  }

  /// Moves thread t until the instruction it executes next matches (at_match). The accesses
  /// it steps over are owed to later events. Looking for a global, it stays in the statement:
  /// it neither jumps back nor passes a synchronisation.
  bool seek(ir::ThreadId t, char want, const std::string& global, const std::string& file, unsigned lo, unsigned hi) {
    for (std::size_t n = 0; n <= kStepCap; ++n) {
      const ir::Instr* in = instr_of(t);
      if (!in)
        return fail("siren's " + name(t) + " finished without " + want_name(want) + " at " + file + ":" +
                    std::to_string(hi));
      if (at_match(t, want, global, file, lo, hi)) return true;
      if (n == kStepCap) break;
      if (!global.empty() && (shape_of(*in).sync || in->kind == ir::InstrKind::AtomicEnd))
        return fail("siren's " + name(t) + " comes to a synchronisation before " + want_name(want) + " of " + global);
      for (const Access& a : accesses(t)) owe(t, *in, a);
      const std::uint32_t pc = p_.s.threads[t].pc;
      if (!step_thread(t, 0)) return false;
      if (!global.empty() && p_.s.threads[t].pc <= pc && !p_.s.threads[t].finished)
        return fail("siren's " + name(t) + " loops before " + want_name(want) + " of " + global);
    }
    return fail("siren's " + name(t) + " does not come to " + want_name(want) + " at " + file + ":" +
                std::to_string(hi) + " within " + std::to_string(kStepCap) + " steps (it is at " + at(t) + ")");
  }

  /// Moves thread t to the instruction a native event of kind `want` at file:line (an access
  /// of `global`, when it names one) stands for. Tried in turn: that global's access at the
  /// line, any such access at the line, and the same on the kLineSpan lines before it (siren
  /// gives an instruction its statement's line, the compiler each access its own). A failure
  /// is reported as the plain search at the line saw it.
  bool advance_to(ir::ThreadId t, char want, const std::string& global, const std::string& file, unsigned line) {
    struct Try {
      unsigned lo;
      bool by_global;
    };
    std::vector<Try> tries;
    auto add = [&](unsigned lo) {
      if (!global.empty()) tries.push_back({lo, true});
      tries.push_back({lo, false});
    };
    add(line);
    if (line > 1) add(line > kLineSpan ? line - kLineSpan : 1);
    const Try& first = tries.front();
    if (at_match(t, want, first.by_global ? global : "", file, first.lo, line)) return true;  // no copy
    const Progress start = p_;
    std::optional<Progress> plain;
    for (std::size_t i = 0; i < tries.size(); ++i) {
      if (i > 0) p_ = start;
      if (seek(t, want, tries[i].by_global ? global : "", file, tries[i].lo, line)) return true;
      if (!tries[i].by_global && tries[i].lo == line) plain = std::move(p_);
    }
    p_ = std::move(*plain);
    return false;
  }

  void owe(ir::ThreadId t, const ir::Instr& in, const Access& a) {
    p_.owed[t].push_back({file_of(in.loc), in.loc.line, a.kind, a.global, a.cell, p_.events[t]});
  }

  /// An access event claims what thread t owes at its line (or, for a global, on the lines
  /// before it) instead of moving the thread.
  bool claim(ir::ThreadId t, char want, const std::string& global, const std::string& file, unsigned line) {
    auto& owed = p_.owed[t];
    auto find = [&](char kind, bool span) {
      return std::find_if(owed.begin(), owed.end(), [&](const Owed& o) {
        return o.kind == kind && o.global == global && o.file == file &&
               (o.line == line || (span && o.line < line && o.line + kLineSpan >= line));
      });
    };
    for (const bool span : {false, true}) {
      if (span && global.empty()) break;
      if (want == 'M') {  // a read-modify-write: a read and a write
        auto r = find('R', span);
        if (r == owed.end()) continue;
        owed.erase(r);
        if (auto w = find('W', span); w != owed.end()) owed.erase(w);
        return true;
      }
      if (auto it = find(want, span); it != owed.end()) {
        owed.erase(it);
        return true;
      }
    }
    return false;
  }

  void follow(const native::Event& e) {
    if (e.kind == 'N') {  // a nondet value, for the Havoc of this call
      if (const auto t = thread_of(e.thread)) {
        const auto [file, line] = b_.where(e.pc);
        p_.queue[*t].push_back({{file, line}, static_cast<std::int64_t>(e.addr)});
      }
      return;
    }
    const char want = want_of(e);
    if (!want) return;  // thread start and exit, yield: no instruction of siren's
    const auto [file, line] = b_.where(e.pc);
    if (line == 0) return;  // code without a line: the runtime's (an atomic start routine's entry)
    const auto t = thread_of(e.thread);
    if (!t) {
      fail("native thread " + std::to_string(e.thread) + " has no siren counterpart (no pthread_create of "
           "siren's started it)");
      return;
    }
    const bool access = want == 'R' || want == 'W' || want == 'M';
    auto& owed = p_.owed[*t];
    ++p_.events[*t];
    std::erase_if(owed, [&](const Owed& o) { return p_.events[*t] - o.born > kOwedEvents; });
    const std::string global = access ? global_at(e.addr) : "";
    if (access && claim(*t, want, global, file, line)) return;
    if (!advance_to(*t, want, global, file, line)) return;
    const ir::Instr& in = tm_.threads[*t].code[p_.s.threads[*t].pc];
    const Shape sh = shape_of(in);
    if (want == 'R' && sh.sync) return;  // the pointer argument of a pthread call: at its own event
    if (want == 'J') {  // the same thread joined (native: its index in addr)
      const auto joined = thread_of(static_cast<int>(e.addr));
      if (const std::uint64_t id = joined_id(*t, in); joined && id != *joined)
        return void(fail("siren's " + name(*t) + " joins " +
                         (id < tm_.threads.size() ? name(static_cast<ir::ThreadId>(id)) : "no thread") + " at " +
                         at(*t) + ", the native one joins siren's " + name(*joined)));
    }
    std::vector<Access> acc = accesses(*t);
    std::vector<bool> started_before;
    for (const auto& ts : p_.s.threads) started_before.push_back(ts.started);
    if (!step_thread(*t, 0)) return;
    if (want == 'C') {  // native threads are numbered in creation order
      ++created_;
      for (std::size_t u = 0; u < p_.s.threads.size(); ++u)
        if (p_.s.threads[u].started && !started_before[u]) siren_of_[static_cast<int>(created_)] = static_cast<ir::ThreadId>(u);
    }
    if (want == 'M' && sh.sync == 'A') {  // one native event for siren's whole atomic block
      for (std::size_t n = 0; n < kStepCap && p_.s.atomic == *t + 1; ++n)
        if (!step_thread(*t, 0)) return;
      return;
    }
    // The instruction's other accesses are owed to the thread's next events.
    for (const char kind : {'R', 'W'}) {
      if (want != kind && want != 'M') continue;
      auto it = std::find_if(acc.begin(), acc.end(), [&](const Access& a) { return a.kind == kind && a.global == global; });
      if (it == acc.end()) it = std::find_if(acc.begin(), acc.end(), [&](const Access& a) { return a.kind == kind; });
      if (it != acc.end()) acc.erase(it);
    }
    for (const Access& a : acc) owe(*t, in, a);
  }

  /// Does native thread `n` have an event after `from` that would move its siren thread?
  bool moves_after(int n, std::size_t from) const {
    for (std::size_t j = from + 1; j < r_.events.size(); ++j)
      if (r_.events[j].thread == n && want_of(r_.events[j]) && b_.where(r_.events[j].pc).second != 0) return true;
    return false;
  }

  Confirmation judge_error() const {
    const Error& e = *p_.error;
    const std::string what = "siren's " + name(e.thread) + ": " + e.result.error_message + " at " + where(e.result.loc);
    switch (e.result.error_kind) {
      case ir::AssertKind::Limit:
        return done(ConfirmResult::NotChecked, "siren's thread model reaches a modelling limit: " + what);
      case ir::AssertKind::MemSafety:
        return done(ConfirmResult::NotConfirmed, what + ", following " + describe(e.event));
      case ir::AssertKind::Property: break;
    }
    if (r_.outcome != native::Outcome::Violation)
      return done(ConfirmResult::NotConfirmed,
                  what + ", following " + describe(e.event) + ", where the native run has a data race");
    const auto f = thread_of(r_.thread);
    if (!f || *f != e.thread || (e.event < r_.events.size() && moves_after(r_.thread, e.event)))
      return done(ConfirmResult::NotConfirmed,
                  what + ", following " + describe(e.event) + ", before the native run fails");
    const auto [file, line] = b_.where(r_.pc);
    if (file != file_of(e.result.loc) || line != e.result.loc.line)
      return done(ConfirmResult::NotConfirmed, what + ", where the native run fails at " + file + ":" +
                                                   std::to_string(line));
    return done(ConfirmResult::Confirmed, what);
  }

  /// The cell of an access key (object << 32 | byte offset of a cell start, see accesses()).
  const ir::Cell& cell_of_key(std::uint64_t c) const {
    const auto& o = tm_.objects[c >> 32];
    return o.cells[o.cell_at(static_cast<std::int64_t>(c & 0xffffffffULL)).value()];
  }

  std::string cell_name(std::uint64_t c) const {
    const auto& cell = cell_of_key(c);
    return cell.name.empty() ? tm_.objects[c >> 32].name : cell.name;
  }

  /// Moves thread t (or, with `step_first`, steps it once first) to its next data access at
  /// file:line. The other racy thread may stand in an atomic section: natively t reached its
  /// access before the other entered it, and t's steps to it have no event, so the section's
  /// flag is put aside for them.
  bool to_racy_access(ir::ThreadId t, const std::string& file, unsigned line, bool step_first) {
    const std::uint32_t held = p_.s.atomic;
    const bool aside = held != 0 && held != t + 1;
    if (aside) p_.s.atomic = 0;
    bool ok = (!step_first || step_thread(t, 0)) && seek(t, 'D', "", file, line, line);
    if (aside) {
      if (p_.s.atomic != 0) ok = fail("siren's " + name(t) + " enters an atomic section before its racy access");
      p_.s.atomic = held;
    }
    return ok;
  }

  /// A race: both threads come, from where the last event left them, to accesses at their
  /// racy lines that touch one data cell, one of them writing. Siren may read a statement's
  /// pointers more often than the compiler, or earlier (owed accesses), so a thread's
  /// candidates are its owed accesses at the line and its next kRaceAccesses accesses there.
  Confirmation judge_race() {
    const auto a = thread_of(r_.thread), c = thread_of(r_.thread2);
    if (!a || !c || *a == *c) return done(ConfirmResult::NotConfirmed, "the racing native threads have no siren counterparts");
    const auto [fa, la] = b_.where(r_.pc);
    const auto [fc, lc] = b_.where(r_.pc2);
    const Progress base = p_;
    std::optional<Progress> failed;
    auto candidates = [&](ir::ThreadId t, const std::string& file, unsigned line) {
      constexpr int kRaceAccesses = 8;
      std::vector<Access> out;
      for (const Owed& o : base.owed[t])
        if (o.file == file && o.line == line) out.push_back({o.kind, o.cell, o.global});
      p_ = base;
      for (int i = 0; i < kRaceAccesses; ++i) {
        if (!to_racy_access(t, file, line, i > 0)) {
          if (i == 0 && out.empty() && !failed) failed = p_;
          break;
        }
        for (const Access& x : accesses(t)) out.push_back(x);
      }
      return out;
    };
    const std::vector<Access> xs = candidates(*a, fa, la), ys = candidates(*c, fc, lc);
    p_ = base;
    for (const Access& x : xs)
      for (const Access& y : ys)
        if (x.cell == y.cell && (x.kind == 'W' || y.kind == 'W') &&
            cell_of_key(x.cell).kind == ir::CellKind::Data)
          return done(ConfirmResult::Confirmed, "data race on " + cell_name(x.cell) + ": siren's " + name(*a) + " at " +
                                                    fa + ":" + std::to_string(la) + ", " + name(*c) + " at " + fc + ":" +
                                                    std::to_string(lc));
    if (failed) {
      p_ = std::move(*failed);
      if (p_.error) return judge_error();
      return done(ConfirmResult::NotConfirmed, p_.failure + ", coming to the data race after the last native event");
    }
    return done(ConfirmResult::NotConfirmed, "no access of siren's " + name(*a) + " at " + fa + ":" + std::to_string(la) +
                                                 " and of " + name(*c) + " at " + fc + ":" + std::to_string(lc) +
                                                 " touches a cell the other one touches, one of them writing (the native "
                                                 "data race)");
  }

  const ir::ThreadModel& tm_;
  const native::Binary& b_;
  const native::Run& r_;
  ir::Interpreter in_;
  std::vector<native::TraceLine> rows_;  // the events as siren test prints them
  std::map<std::uint64_t, std::pair<std::uint64_t, std::string>> globals_;  // native address -> end, siren name
  std::set<std::string> known_globals_;   // siren's globals the native program has
  std::map<int, ir::ThreadId> siren_of_;  // native thread index -> siren thread
  std::size_t created_ = 0;               // native pthread_create calls followed
  std::size_t event_ = 0;                 // the native event being followed
  /// Everything stepping changes: a search that fails is undone by restoring it.
  struct Progress {
    ir::State s;
    std::size_t steps = 0;
    std::vector<std::deque<std::pair<std::pair<std::string, unsigned>, std::int64_t>>> queue;  // nondet values
    std::vector<std::vector<Owed>> owed;
    std::vector<std::size_t> events;  // per thread: its native events followed
    std::map<ir::ThreadId, ir::State> section_entry;  // the state before a thread's last AtomicBegin
    std::set<ir::ThreadId> stopped;                   // stopped by an assumption in an atomic section
    std::optional<Error> error;
    std::string failure;
  } p_;
};

}  // namespace

Confirmation confirm_run(const ir::ThreadModel& tm, const native::Binary& b, const native::Run& r) {
  if (r.outcome != native::Outcome::Violation && r.outcome != native::Outcome::Race)
    return {ConfirmResult::NotChecked, "the native run found no violation", 0};
  if (tm.threads.empty()) return {ConfirmResult::NotChecked, "siren's thread model has no threads", 0};
  return Guide(tm, b, r).run();
}

Confirmation confirm_native_failure(const std::string& file, const ConfirmOptions& o, const native::Binary& b,
                                    const native::Run& r) {
  frontend::FrontendOptions fo;
  fo.extra_args = o.clang_args;
  fo.test_drop_pointer_initialisers = o.test_drop_pointer_initialisers;
  frontend::FrontendResult fr = frontend::translate_file(file, fo);
  if (fr.status != frontend::FrontendStatus::Ok || !fr.program)
    return {ConfirmResult::NotChecked,
            fr.diagnostics.empty() ? "siren's front end cannot translate the file" : fr.diagnostics.front().str(), 0};
  if (const auto problems = ir::validate(*fr.program); !problems.empty())
    return {ConfirmResult::NotConfirmed, "internal error: the front end produced an invalid program: " + problems.front(), 0};
  // Enough thread instances for the run (create sites on loops share them round robin), and
  // more when the run needs them (the check command grows them the same way).
  ir::ThreadModelOptions tmo;
  tmo.max_threads = std::max(8u, 2 * r.threads);
  Confirmation c;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const ir::ThreadModel tm = ir::build_thread_model(*fr.program, tmo);
    c = confirm_run(tm, b, r);
    if (c.result != ConfirmResult::NotChecked) break;
    if (c.why.find(": threads: ") != std::string::npos) tmo.max_threads *= 4;  // the Limit messages
    else if (c.why.find(": recursion bound ") != std::string::npos) tmo.max_recursion *= 8;
    else break;
  }
  return c;
}

}  // namespace siren::confirm

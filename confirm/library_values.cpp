// Native confirmation of counterexamples that use body-less functions' values
// (confirm/library_values.hpp).
#include "confirm/library_values.hpp"

#include "frontend/frontend.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

namespace siren::confirm {

namespace {

std::string quoted_list(const std::vector<std::string>& fs) {
  std::string out;
  for (std::size_t i = 0; i < fs.size(); ++i)
    out += (i == 0 ? "" : i + 1 == fs.size() ? " and " : ", ") +
           ("'" + fs[i] + (fs[i].find(" (") == std::string::npos ? "()'" : "'"));  // "f (what it writes)"
  return out;
}

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

}  // namespace

namespace {

// The distinct non-empty values of one TraceRow field over the trace, sorted.
std::vector<std::string> distinct(const std::vector<ir::TraceRow>& rows, std::string ir::TraceRow::*field) {
  std::set<std::string> fs;
  for (const auto& r : rows)
    if (!(r.*field).empty()) fs.insert(r.*field);
  return {fs.begin(), fs.end()};
}

}  // namespace

std::vector<std::string> bodyless_values(const std::vector<ir::TraceRow>& rows) {
  return distinct(rows, &ir::TraceRow::nondet_from);
}

LibraryValues confirm_library_values(const std::string& file, const std::vector<ir::TraceRow>& rows,
                                     const std::vector<native::TraceRaceEnd>& race, const LibraryValueOptions& o) {
  LibraryValues lv;
  lv.functions = bodyless_values(rows);
  lv.needed = !lv.functions.empty();
  lv.objects = distinct(rows, &ir::TraceRow::object_from);
  if (!lv.needed && !o.always && lv.objects.empty()) return lv;
  lv.attempted = true;
  const std::string uses = "counterexample uses values returned by " + quoted_list(lv.functions) +
                           (lv.functions.size() == 1 ? ", which has no body," : ", which have no body,");
  if (o.test_skip) {
    lv.native = "not replayed (--test-skip-native-confirmation: the arbitrary values are trusted)";
    return lv;
  }
  // Without library values, only a replay that runs and disagrees withholds the trace.
  lv.confirmed = !lv.needed;
  char tmpl[] = "/tmp/siren-libvalues-XXXXXX";
  const char* tmp = ::mkdtemp(tmpl);
  if (!tmp) {
    lv.native = "no temporary directory";
    lv.reason = uses + " and it could not be confirmed natively (no temporary directory)";
    return lv;
  }
  const std::string dir = tmp;
  struct Cleanup {
    std::string d;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  } cleanup{dir};
  const frontend::CompatibleFile source = frontend::gcc_compatible_file(file, dir);
  std::vector<std::string> cargs = o.clang_args;
  cargs.insert(cargs.end(), source.extra_args.begin(), source.extra_args.end());
  const native::Binary bin = native::compile(source.path, cargs, dir);
  if (!bin.ok) {
    lv.native = "not compiled: " + first_line(bin.error);
    lv.reason = uses + " and the program could not be compiled natively to confirm it (" + first_line(bin.error) + ")";
    return lv;
  }
  lv.stubbed.assign(bin.stubbed.begin(), bin.stubbed.end());
  // A pointer result siren chose among objects (frontend/external_objects.cpp) is the stated
  // assumption about a function no library defines; no native stub can return it.
  if (!lv.objects.empty()) {
    std::vector<std::string> defined;
    for (const std::string& f : lv.objects)
      if (!bin.stubbed.count(f)) defined.push_back(f);
    const std::string objs = quoted_list(lv.objects);
    if (!defined.empty()) {
      lv.confirmed = false;
      lv.native = "not replayed: " + quoted_list(defined) + " defined by a library";
      lv.reason = "counterexample assumes that " + quoted_list(defined) +
                  " returns a pointer to an object of its type that another call or a global variable shares, "
                  "and a library defines it: not confirmed";
      return lv;
    }
    if (lv.needed) {
      lv.confirmed = false;
      lv.native = "not replayed: " + objs + " returns a pointer";
      lv.reason = uses + " and it cannot be replayed natively, where " + objs + " would have to return a pointer";
      return lv;
    }
    lv.confirmed = true;
    lv.native = "not replayed natively: " + objs + " returns a pointer to an object siren chooses, which no "
                "native stub can return (no library defines it); the interpreter's replay stands";
    return lv;
  }
  // Natively, a function the real library defines runs and consumes no nondet value; only the
  // stubs of functions no library defines take the trace's values.
  std::vector<native::TraceStep> steps;
  for (const auto& r : rows) {
    native::TraceStep t;
    t.thread = r.thread;
    t.line = r.line;
    t.started = r.started;
    if (r.nondet && bin.takes_nondet(r.nondet_from)) t.nondet = r.nondet;
    t.access = r.access;
    steps.push_back(std::move(t));
  }
  const native::Summary s = native::replay(bin, native::schedule_of(steps, race), o.race, o.run_ms);
  if (!s.ok) {
    lv.native = "replay failed: " + first_line(s.error);
    lv.reason = uses + " and the native replay failed (" + first_line(s.error) + ")";
    return lv;
  }
  lv.replayed = true;
  const native::Outcome want = o.race ? native::Outcome::Race : native::Outcome::Violation;
  // Where the native failure happened: "F:L" (a race: "F:L / F2:L2").
  const bool failed = s.failure && s.failure->outcome == want;
  const auto [f1, l1] = failed ? bin.where(s.failure->pc) : std::pair<std::string, unsigned>{};
  const auto [f2, l2] = failed && o.race ? bin.where(s.failure->pc2) : std::pair<std::string, unsigned>{};
  const std::string at = f1 + ":" + std::to_string(l1) + (o.race ? " / " + f2 + ":" + std::to_string(l2) : "");
  // A race confirms this one only at its two lines (either order): another race of the same
  // variable on the schedule's way is a different warning.
  const bool elsewhere = failed && o.race && race.size() == 2 && race[0].line && race[1].line &&
                         !((l1 == race[0].line && l2 == race[1].line) || (l1 == race[1].line && l2 == race[0].line));
  if (failed && !elsewhere) {
    lv.confirmed = true;
    lv.native = std::string(o.race ? "data race" : "violation") + " at " + at;
    return lv;
  }
  std::string mix;
  for (const auto& [oc, n] : s.counts) mix += (mix.empty() ? "" : ", ") + std::string(native::outcome_name(oc));
  if (elsewhere)
    mix = "a data race at " + at + ", not at lines " + std::to_string(race[0].line) + " / " + std::to_string(race[1].line);
  lv.native = "no " + std::string(o.race ? "data race" : "violation") + " (" + (mix.empty() ? "no run" : mix) + ")";
  lv.confirmed = false;
  lv.reason = lv.needed ? uses + " and " + (o.race ? "the data race" : "the violation") +
                              " did not happen natively with the real library (" + (mix.empty() ? "no run" : mix) + ")"
                        : std::string("the native replay of the ") + (o.race ? "data race" : "violation") +
                              "'s schedule did not show it (" + (mix.empty() ? "no run" : mix) + ")";
  return lv;
}

}  // namespace siren::confirm

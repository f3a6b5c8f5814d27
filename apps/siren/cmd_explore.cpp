// `siren explore FILE.c`: explicit-state exploration of the thread model with the concrete
// interpreter (explicit/explorer.hpp), independent of the encoder and the solvers. Prints the
// verdict, the number of reachable global states, the reachable control states, the number of
// complete schedules and of Mazurkiewicz classes; --json prints one object.
#include "apps/siren/commands.hpp"
#include "apps/siren/model_options.hpp"
#include "explicit/explorer.hpp"
#include "ir/thread_model.hpp"

#include <cstdio>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace siren::app {
namespace {

struct ExploreArgs {
  std::string file;
  std::size_t bound = 0;
  std::string nondet_range = "-2..2";
  FrontArgs front;
  std::size_t max_states = 2'000'000;
  std::size_t max_paths = 200'000;
  bool no_count = false;
  bool json = false;
  bool list_states = true;
};

bool parse_range(const std::string& s, std::int64_t& lo, std::int64_t& hi) {
  const auto dots = s.find("..");
  if (dots == std::string::npos) return false;
  try {
    std::size_t n1 = 0, n2 = 0;
    lo = std::stoll(s.substr(0, dots), &n1);
    hi = std::stoll(s.substr(dots + 2), &n2);
    return n1 == dots && n2 == s.size() - dots - 2 && lo <= hi && hi - lo <= 1000;
  } catch (...) {
    return false;
  }
}

int exit_code_of(explicit_state::ExploreVerdict v) {
  switch (v) {
    case explicit_state::ExploreVerdict::Unsafe: return kExitUnsafe;
    case explicit_state::ExploreVerdict::Safe:
    case explicit_state::ExploreVerdict::SafeUpToBound: return kExitSafe;
    case explicit_state::ExploreVerdict::Unknown: return kExitUnknown;
  }
  return kExitInternal;
}

const char* kind_name(ir::AssertKind k) {
  switch (k) {
    case ir::AssertKind::Property: return "property";
    case ir::AssertKind::MemSafety: return "memsafety";
    case ir::AssertKind::Limit: return "limit";
  }
  return "?";
}

struct TraceLine {
  std::size_t index;
  std::string thread, where, text, nondet;
};

std::vector<TraceLine> trace_lines(const ir::ThreadModel& tm, const explicit_state::ExploreResult& r) {
  std::vector<TraceLine> out;
  ir::Interpreter in(tm);
  ir::State s = in.initial_state(r.error_initial_nondet);
  for (std::size_t i = 0; i < r.error_trace.size(); ++i) {
    const ir::Step& st = r.error_trace[i];
    TraceLine l;
    l.index = i + 1;
    l.thread = st.thread < tm.threads.size() ? tm.threads[st.thread].name : "?";
    if (st.thread < tm.threads.size() && s.threads[st.thread].pc < tm.threads[st.thread].code.size()) {
      const ir::Instr& instr = tm.threads[st.thread].code[s.threads[st.thread].pc];
      l.where = tm.where(instr.loc);
      l.text = instr.text.empty() ? ir::instr_kind_name(instr.kind) : instr.text;
      if (instr.kind == ir::InstrKind::Havoc && instr.lhs < tm.threads[st.thread].locals.size() && !st.nondet.empty())
        l.nondet = in.format_value(st.nondet[0], tm.threads[st.thread].locals[instr.lhs].type);
    }
    for (std::size_t k = 0; k < st.nondet.size() && l.nondet.empty(); ++k)
      l.nondet += (k ? "," : "") + std::to_string(static_cast<std::int64_t>(st.nondet[k].bits));
    out.push_back(std::move(l));
    if (in.step(s, st).outcome != ir::StepOutcome::Ok) break;
  }
  return out;
}

int run_explore(const ExploreArgs& a) {
  explicit_state::ExploreOptions eo;
  if (!parse_range(a.nondet_range, eo.nondet_min, eo.nondet_max)) {
    std::fprintf(stderr, "siren: --nondet-range expects LO..HI with at most 1001 values, got '%s'\n", a.nondet_range.c_str());
    return kExitUsage;
  }
  eo.bound = a.bound;
  eo.max_states = a.max_states;
  eo.max_paths = a.max_paths;
  eo.count_schedules = !a.no_count;
  const LoadedModel lm = load_model(a.file, a.front);
  if (lm.input_error) return lm.input_error;
  if (lm.internal_error) {
    std::fprintf(stderr, "siren: %s\n", lm.unknown->c_str());
    return kExitInternal;
  }
  if (!lm.tm) {
    const std::string reason = lm.unknown.value_or(a.file + ": unsupported construct");
    if (a.json) std::printf("%s\n", nlohmann::json{{"verdict", "UNKNOWN"}, {"reason", reason}}.dump(2).c_str());
    else std::printf("VERIFICATION RESULT: UNKNOWN: %s\n", reason.c_str());
    return kExitUnknown;
  }
  const ir::ThreadModel& tm = *lm.tm;
  const explicit_state::ExploreResult r = explicit_state::explore(tm, eo);

  // Printed as thread:file:line: distinct pc tuples may print alike; the list is deduplicated,
  // the count is of pc tuples.
  std::vector<std::string> controls;
  {
    std::set<std::string> seen;
    for (const auto& cs : r.control_states) {
      std::string line = explicit_state::format_control_state(tm, cs);
      if (seen.insert(line).second) controls.push_back(std::move(line));
    }
  }
  const auto trace = r.error_kind ? trace_lines(tm, r) : std::vector<TraceLine>{};

  if (a.json) {
    nlohmann::json j;
    j["verdict"] = explicit_state::explore_verdict_name(r.verdict);
    if (!r.reason.empty()) j["reason"] = r.reason;
    j["bound"] = a.bound;
    j["states"] = r.states;
    j["max_depth"] = r.max_depth;
    j["control_states"] = controls;
    j["num_control_states"] = r.control_states.size();
    j["schedules"] = r.schedules ? nlohmann::json(*r.schedules) : nlohmann::json(nullptr);
    j["mazurkiewicz_classes"] = r.mazurkiewicz_classes ? nlohmann::json(*r.mazurkiewicz_classes) : nlohmann::json(nullptr);
    if (!r.counting_note.empty()) j["counting_note"] = r.counting_note;
    j["has_nondet"] = r.has_nondet;
    j["nondet_restricted"] = r.nondet_restricted;
    j["threads"] = tm.threads.size();
    if (r.error_kind) {
      nlohmann::json e;
      e["kind"] = kind_name(*r.error_kind);
      e["message"] = r.error_message;
      e["location"] = tm.where(r.error_loc);
      e["thread"] = r.error_thread < tm.threads.size() ? tm.threads[r.error_thread].name : "?";
      nlohmann::json steps = nlohmann::json::array();
      for (std::size_t i = 0; i < r.error_trace.size(); ++i) {
        nlohmann::json s;
        s["thread"] = r.error_trace[i].thread;
        std::vector<std::int64_t> nd;
        for (const auto& v : r.error_trace[i].nondet) nd.push_back(static_cast<std::int64_t>(v.bits));
        s["nondet"] = nd;
        if (i < trace.size()) {
          s["thread_name"] = trace[i].thread;
          s["location"] = trace[i].where;
          s["text"] = trace[i].text;
        }
        steps.push_back(s);
      }
      e["trace"] = steps;
      std::vector<std::int64_t> init;
      for (const auto& v : r.error_initial_nondet) init.push_back(static_cast<std::int64_t>(v.bits));
      e["initial_nondet"] = init;
      j["error"] = e;
    }
    std::printf("%s\n", j.dump(2).c_str());
    return exit_code_of(r.verdict);
  }

  switch (r.verdict) {
    case explicit_state::ExploreVerdict::Unsafe: std::printf("VERIFICATION RESULT: UNSAFE\n"); break;
    case explicit_state::ExploreVerdict::Safe: std::printf("VERIFICATION RESULT: SAFE\n"); break;
    case explicit_state::ExploreVerdict::SafeUpToBound:
      std::printf("VERIFICATION RESULT: SAFE up to bound %zu (not a proof)\n", a.bound);
      break;
    case explicit_state::ExploreVerdict::Unknown: std::printf("VERIFICATION RESULT: UNKNOWN: %s\n", r.reason.c_str()); break;
  }
  if (r.error_kind) {
    std::printf("error (%s): %s at %s\n", kind_name(*r.error_kind), r.error_message.c_str(), tm.where(r.error_loc).c_str());
    std::printf("trace (%zu steps):\n", r.error_trace.size());
    for (const auto& l : trace)
      std::printf("  %3zu  %-12s %-20s %s%s\n", l.index, l.thread.c_str(), l.where.c_str(), l.text.c_str(),
                  l.nondet.empty() ? "" : ("  [nondet " + l.nondet + "]").c_str());
  }
  std::printf("states: %zu\n", r.states);
  std::printf("schedules: %s\n", r.schedules ? std::to_string(*r.schedules).c_str() : ("- (" + r.counting_note + ")").c_str());
  std::printf("mazurkiewicz classes: %s\n",
              r.mazurkiewicz_classes ? std::to_string(*r.mazurkiewicz_classes).c_str() : "-");
  std::printf("control states: %zu (%zu distinct source lines)\n", r.control_states.size(), controls.size());
  if (a.list_states)
    for (const auto& c : controls) std::printf("  %s\n", c.c_str());
  return exit_code_of(r.verdict);
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExploreArgs>();
  auto* cmd = app.add_subcommand(
      "explore",
      "Explicit-state exploration of every interleaving with the concrete interpreter (a test oracle, "
      "independent of the encoder)");
  cmd->add_option("file", args->file, "C source file")->required();
  cmd->add_option("--bound,-k", args->bound, "Maximum number of steps per execution (default 0: unbounded)");
  cmd->add_option("--nondet-range", args->nondet_range,
                  "Values tried for every nondet choice, LO..HI (default -2..2); a SAFE result that "
                  "depends on this restriction is reported UNKNOWN");
  cmd->add_option("--max-states", args->max_states, "Give up (UNKNOWN) beyond this many states (default 2000000)");
  cmd->add_option("--max-paths", args->max_paths,
                  "Count schedules / Mazurkiewicz classes only up to this many complete executions (default 200000)");
  cmd->add_flag("--no-count", args->no_count, "Do not count schedules and Mazurkiewicz classes");
  cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
  add_front_options(cmd, args->front);
  cmd->callback([args, &exit_code] { exit_code = run_explore(*args); });
}

}  // namespace siren::app

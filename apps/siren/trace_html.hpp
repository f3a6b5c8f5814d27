// `--trace-html FILE` of check and race: a replayed schedule drawn as one self-contained HTML
// page (inline CSS, inline SVG, a few lines of inline script, nothing fetched). One swim lane
// per thread in order of appearance, time downwards, one box per trace row with its source
// line and statement; shared reads and writes highlighted, changed values in small print;
// thread creation and joins drawn as arrows; the failing assertion (check) or the two racing
// next accesses (race) marked in red. Other verdicts give a page that states the verdict and
// that there is no counterexample to draw.
#pragma once

#include "ir/trace.hpp"
#include "race/race.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace siren::app {

struct TracePage {
  std::string command;  // "check" or "race"
  std::string program;  // the C file
  std::string verdict;  // the verdict as the text output states it, without "VERIFICATION RESULT: "
  std::vector<ir::TraceRow> rows;  // the rows to draw, in order (statement-level by default)
  bool last_row_fails = false;     // check: the last row is the failing statement
  /// race: the two racing accesses, the next steps of their threads in the state the rows end in.
  std::vector<race::RaceEnd> racing;
};

/// The page, with these stable hooks for tests: one `<g class="lane" data-thread=NAME>` per
/// thread, one `class="step ..."` element per box (`failing` / `racing` on the marked ones,
/// `data-step`, `data-thread`, `data-line`), and `data-lanes="N"` on <html>, set by the page's
/// script once it has run.
std::string trace_html(const TracePage& page);

/// Writes trace_html(page) to `path` (replaced atomically); false, with a message on stderr,
/// when it cannot.
bool write_trace_html(const std::string& path, const TracePage& page);

/// `s` with &, <, >, " and ' as HTML character references (for text and attribute values).
std::string html_escape(std::string_view s);

/// --trace-html FILE.
void add_trace_html_option(CLI::App* cmd, std::string& path);

}  // namespace siren::app

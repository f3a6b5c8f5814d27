// `siren triage --report DIR` (issue 24, item 4): DIR/index.html, one self-contained page with
// the verdict counts of every program and a row per RACE that links its trace page
// DIR/races/NAME.html (trace_html.hpp), written when the race is answered (in the worker that
// answers it, locally or in a Slurm task).
#pragma once

#include "race/race.hpp"

#include <map>
#include <string>
#include <vector>

namespace siren::app {

/// A file name for result `id` (letters, digits, '-', '.'; anything else '_'): the base name of
/// its trace page and its witnesses.
std::string result_file_name(const std::string& id);

/// Creates DIR and DIR/races; false (with a one-line message) when it cannot.
bool prepare_report_dir(const std::string& dir);

/// DIR/races/NAME.html for the race answering result `id` of `program`; `native` (if not
/// empty) says what its native replay showed (confirm::LibraryValues::native).
bool write_race_page(const std::string& dir, const std::string& id, const std::string& program,
                     const race::RaceAnswer& race, const std::string& native = "");

struct ReportRace {
  std::string id;
  std::string text;  // "x: thr1#1 write line 4 / thr2#2 read line 9"
};

struct ReportProgram {
  std::string program;
  std::map<std::string, unsigned> counts;  // verdict -> warnings
  std::vector<ReportRace> races;
};

/// DIR/index.html: a table of `columns` (verdicts) per program and the races with their links
/// (a race whose page is missing is listed without one).
bool write_report(const std::string& dir, const std::string& title, const std::vector<ReportProgram>& programs,
                  const std::vector<std::string>& columns);

}  // namespace siren::app

// Shared by `siren race` and `siren triage` (cmd_race.cpp, cmd_triage.cpp): the JSON form of a
// race. (Their SARIF logs: sarif_output.hpp.)
#pragma once

#include "race/race.hpp"
#include "apps/siren/model_options.hpp"
#include "apps/siren/trace_output.hpp"
#include "ir/thread_model.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace siren::app {

nlohmann::ordered_json race_end_json(const race::RaceEnd& e);

}  // namespace siren::app

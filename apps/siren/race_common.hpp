// Shared by `siren race` and `siren triage` (cmd_race.cpp, cmd_triage.cpp): the JSON form of a race, SARIF 2.1.0 results and the SV-COMP GraphML
// violation witness for data races.
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

/// One SARIF result for a race (ruleId "data-race"); `message` is its text.
nlohmann::ordered_json sarif_result(const std::string& level, const std::string& message,
                                    const std::string& file1, unsigned line1, unsigned col1,
                                    const std::optional<std::tuple<std::string, unsigned, unsigned>>& second,
                                    const nlohmann::ordered_json& properties);
/// A SARIF 2.1.0 log with one run of siren and these results.
nlohmann::ordered_json sarif_log(const nlohmann::ordered_json& results);

/// SV-COMP GraphML 1.0 violation witness for a data race (LTL(G ! data-race)).
std::string race_witness_graphml(const std::string& program_file, const race::RaceAnswer& a);

}  // namespace siren::app

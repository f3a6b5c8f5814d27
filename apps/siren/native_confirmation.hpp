// `siren check`, `race` and `triage`: how they call the native confirmation of counterexamples
// that use values of functions without a body (confirm/library_values.hpp) and how --json
// records it ("native_confirmation").
#pragma once

#include "apps/siren/model_options.hpp"
#include "confirm/library_values.hpp"
#include "race/race.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace siren::app {

/// The clang arguments of `front` (-D, -I, after --), a race or a violation, and the TEST ONLY
/// switch --test-skip-native-confirmation.
confirm::LibraryValueOptions library_value_options(const FrontArgs& front, bool race, bool test_skip);

/// `siren race` and `siren triage`: a data race `r` (verdict Unsafe) that uses values of
/// functions without a body is confirmed natively (with `always`, as triage asks: every race,
/// where the program compiles); when it is not, `r` becomes UNKNOWN with the reason (and no
/// trace). Returns what was done (nullopt: `r` is no race).
std::optional<confirm::LibraryValues> confirm_race(const std::string& file, const FrontArgs& front, race::RaceAnswer& r,
                                                   bool test_skip, bool always = false);

/// {"functions": [...], "replayed": bool, "confirmed": bool, "native": "...", "stubbed": [...]}
nlohmann::ordered_json library_values_json(const confirm::LibraryValues& lv);

}  // namespace siren::app

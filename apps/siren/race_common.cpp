// Helpers shared by `siren race` and `siren triage` (race_common.hpp).
#include "apps/siren/race_common.hpp"

namespace siren::app {

nlohmann::ordered_json race_end_json(const race::RaceEnd& e) {
  return {{"thread", e.thread_name}, {"file", e.file},     {"line", e.line},
          {"column", e.column},      {"variable", e.variable}, {"access", e.write ? "write" : "read"},
          {"stmt", e.stmt}};
}

}  // namespace siren::app

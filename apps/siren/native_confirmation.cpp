// native_confirmation.hpp
#include "apps/siren/native_confirmation.hpp"

namespace siren::app {

confirm::LibraryValueOptions library_value_options(const FrontArgs& front, bool race, bool test_skip) {
  confirm::LibraryValueOptions o;
  for (const auto& d : front.defines) o.clang_args.push_back("-D" + d);
  for (const auto& i : front.includes) o.clang_args.push_back("-I" + i);
  o.clang_args.insert(o.clang_args.end(), front.clang_args.begin(), front.clang_args.end());
  o.race = race;
  o.test_skip = test_skip;
  return o;
}

std::optional<confirm::LibraryValues> confirm_race(const std::string& file, const FrontArgs& front, race::RaceAnswer& r,
                                                   bool test_skip, bool always) {
  if (r.verdict != check::Verdict::Unsafe || r.internal_error || r.trace.empty()) return std::nullopt;
  std::vector<native::TraceRaceEnd> ends;
  for (const race::RaceEnd* e : {&r.first, &r.second}) ends.push_back({e->thread_name, e->line, e->write, e->variable});
  confirm::LibraryValues lv =
      confirm::confirm_library_values(file, r.trace, ends, [&] {
        confirm::LibraryValueOptions o = library_value_options(front, true, test_skip);
        o.always = always;
        return o;
      }());
  if (!lv.confirmed) {
    r.verdict = check::Verdict::Unknown;
    r.reason = lv.reason;
    r.trace.clear();
  }
  return lv;
}

nlohmann::ordered_json library_values_json(const confirm::LibraryValues& lv) {
  return {{"functions", lv.functions}, {"replayed", lv.replayed}, {"confirmed", lv.confirmed},
          {"native", lv.native},       {"stubbed", lv.stubbed}, {"objects", lv.objects}};
}

}  // namespace siren::app

// Shared by the schedule-count tests (mpor_counts_test.cpp, sir_counts_test.cpp): C text or a
// file -> validated thread model, and the number of complete schedules a reduction admits.
#pragma once

#include "encoder/bmc.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

namespace siren::test {

inline std::optional<ir::ThreadModel> model_of_file(const std::string& path) {
  frontend::FrontendResult fr = frontend::translate_file(path);
  if (fr.status != frontend::FrontendStatus::Ok || !fr.program) return std::nullopt;
  if (!ir::validate(*fr.program).empty()) return std::nullopt;
  return ir::build_thread_model(*fr.program, {});
}

/// `tag` keeps the temporary file names of concurrently running test executables apart.
inline std::optional<ir::ThreadModel> model_of_text(const std::string& text, const std::string& tag) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("siren-" + tag + "-" + std::to_string(getpid()) + ".c")).string();
  {
    std::ofstream out(path);
    out << text;
  }
  auto tm = model_of_file(path);
  std::filesystem::remove(path);
  return tm;
}

inline std::optional<std::uint64_t> count_schedules(const ir::ThreadModel& tm,
                                                    const std::string& reduction, unsigned bound) {
  encoder::CheckOptions o;
  o.bound = bound;
  o.reduction = reduction;
  o.count_schedules = true;
  o.max_schedules = 200000;
  return encoder::check(tm, o).schedules;
}

}  // namespace siren::test

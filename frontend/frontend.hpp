// The C front end: Clang 16 LibTooling -> ir::Program. The only part of siren that sees Clang.
#pragma once

#include "ir/program.hpp"

#include <optional>
#include <string>
#include <vector>

namespace siren::frontend {

struct Diagnostic {
  std::string file;
  unsigned line = 0, col = 0;
  std::string message;           // "unsupported: union type 'union U'"
  std::string str() const;       // "file:line:col: message" (file:line: when col is 0)
};

enum class FrontendStatus {
  Ok,           // program is set
  InputError,   // missing/unreadable file, not C, syntax/semantic errors (Clang diagnostics)
  Unsupported,  // valid C the IR cannot represent faithfully: diagnostics say what and where
};

struct FrontendResult {
  FrontendStatus status = FrontendStatus::InputError;
  std::optional<ir::Program> program;   // set iff status == Ok
  std::vector<Diagnostic> diagnostics;  // errors (InputError) or unsupported constructs
};

struct FrontendOptions {
  std::vector<std::string> extra_args;  // passed to clang (-D, -I, ...)
};

FrontendResult translate_file(const std::string& path, const FrontendOptions& options = {});

}  // namespace siren::frontend

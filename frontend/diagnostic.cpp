// Printing of front-end diagnostics (kept apart from the Clang translation unit so that it
// compiles in a second).
#include "frontend/frontend.hpp"

namespace siren::frontend {

std::string Diagnostic::str() const {
  std::string s = file;
  if (line != 0) {
    s += ":" + std::to_string(line);
    if (col != 0) s += ":" + std::to_string(col);
  }
  s += ": " + message;
  return s;
}

}  // namespace siren::frontend

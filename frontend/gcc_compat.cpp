// GCC forms that Clang 16 rejects, rewritten in the source text before Clang reads it
// (frontend.hpp, gcc_compatible). They come from GCC's view of glibc's headers, so they are in
// every `.i` file that GCC (>= 11) preprocessed with glibc >= 2.34, which is how SV-COMP's
// newer tasks are made; `-D` cannot reach them there, since the macros were expanded before.
// Measured with Debian bookworm's GCC 12 and glibc 2.36 over 46 standard headers, `-O0` and
// `-O2 -D_FORTIFY_SOURCE=2` (tests/regression/gcc12_headers_race): these two are all.
//   * `__attribute__ ((__malloc__ (fclose, 1)))`, glibc's `__attr_dealloc` (stdio.h's fopen,
//     stdlib.h, string.h's strdup, wchar.h): GCC 11's deallocator form; Clang knows only the
//     plain `__malloc__`, which this keeps (the deallocator is a hint for GCC's warnings).
//   * `_Float128` (math.h's `__f128` functions, bits/floatn.h): GCC's name of the type Clang
//     calls `__float128`.
// The rewrite keeps every line where it was (blanks, no new lines), so diagnostics and traces
// keep their places; it skips comments, strings and character literals.
#include "frontend/frontend.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace siren::frontend {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Blanks the preprocessor's line markers (`# 12 "f.c" 1 3 4`, `#line 12 "f.c"`): siren's
/// places are the lines of the file it was given (a witness names them), so the native
/// binary's must be too. Returns how many.
std::size_t blank_line_markers(std::string& code) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < code.size();) {
    const std::size_t end = std::min(code.find('\n', i), code.size());
    std::size_t k = i;
    while (k < end && (code[k] == ' ' || code[k] == '\t')) ++k;
    if (k < end && code[k] == '#') {
      ++k;
      while (k < end && (code[k] == ' ' || code[k] == '\t')) ++k;
      if (code.compare(k, 4, "line") == 0) k += 4;
      while (k < end && (code[k] == ' ' || code[k] == '\t')) ++k;
      if (k < end && std::isdigit(static_cast<unsigned char>(code[k]))) {
        std::fill(code.begin() + static_cast<long>(i), code.begin() + static_cast<long>(end), ' ');
        ++count;
      }
    }
    i = end + 1;
  }
  return count;
}

}  // namespace

std::string gcc_compatible(const std::string& code, std::size_t* rewrites) {
  std::string out;
  out.reserve(code.size());
  std::size_t count = 0;
  const std::size_t n = code.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = code[i];
    // comments, strings and character literals: copied as they are
    if (c == '/' && i + 1 < n && (code[i + 1] == '/' || code[i + 1] == '*')) {
      const bool line = code[i + 1] == '/';
      const std::size_t end = line ? code.find('\n', i) : code.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? n : (line ? end : end + 2);
      out.append(code, i, stop - i);
      i = stop;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && code[j] != c && code[j] != '\n') j += code[j] == '\\' ? 2 : 1;
      j = std::min(n, j + 1);
      out.append(code, i, j - i);
      i = j;
      continue;
    }
    if (!ident_char(c) || (i > 0 && ident_char(code[i - 1]))) {
      out.push_back(c);
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && ident_char(code[j])) ++j;
    const std::string_view word(code.data() + i, j - i);
    if (word == "_Float128") {
      out += "__float128";  // one column more on this line; the line stays
      ++count;
      i = j;
      continue;
    }
    if (word == "__malloc__") {
      std::size_t k = j;
      while (k < n && (code[k] == ' ' || code[k] == '\t')) ++k;
      if (k < n && code[k] == '(') {
        // the balanced argument list, blanked (its newlines kept)
        std::size_t depth = 0, e = k;
        for (; e < n; ++e) {
          if (code[e] == '(') ++depth;
          else if (code[e] == ')' && --depth == 0) break;
        }
        if (e < n) {
          out.append(code, i, k - i);
          for (std::size_t p = k; p <= e; ++p) out.push_back(code[p] == '\n' ? '\n' : ' ');
          ++count;
          i = e + 1;
          continue;
        }
      }
    }
    out.append(word);
    i = j;
  }
  if (rewrites) *rewrites = count;
  return out;
}

CompatibleFile gcc_compatible_file(const std::string& path, const std::string& dir) {
  CompatibleFile r{path, {}};
  std::ifstream in(path, std::ios::binary);
  if (!in) return r;
  std::stringstream ss;
  ss << in.rdbuf();
  std::size_t count = 0;
  std::string code = gcc_compatible(ss.str(), &count);
  count += blank_line_markers(code);
  if (count == 0) return r;
  const std::filesystem::path p(path);
  const std::string copy = (std::filesystem::path(dir) / p.filename()).string() + ".compat.c";
  std::ofstream out(copy, std::ios::binary);
  std::string quoted;
  for (char c : path) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  out << "#line 1 \"" << quoted << "\"\n" << code;
  if (!out) return r;
  r.path = copy;
  std::string parent = std::filesystem::absolute(p).parent_path().string();
  r.extra_args = {"-iquote", parent.empty() ? "." : parent};
  return r;
}

}  // namespace siren::frontend

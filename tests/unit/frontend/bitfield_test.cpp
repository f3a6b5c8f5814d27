// Bit-fields (issue 41): for a set of struct layouts and both data models, the front end's cells
// are checked against Clang's own record layout (clang -fdump-record-layouts for the target,
// parsed here), and the values the interpreter computes (every field written with a value wider
// than it, then read back) against C's conversion rules applied to Clang's widths and
// signedness: each field reads back truncated and extended by its type's sign, and each
// bit-field cell holds exactly the fields' bits at Clang's bit offsets. On x86-64 the program
// also runs natively (clang) and must print the same values. A deliberately wrong layout
// (FrontendOptions::test_wrong_bitfield_layout: one bit off) must be caught.
#include "frontend/frontend.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace siren;

namespace {

struct Field {
  std::string type, name;  // name "": unnamed
  int width;               // -1: not a bit-field
};
struct Layout {
  const char* what;
  bool packed;
  std::vector<Field> fields;
};

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> l{
      {"mixed signs, _Bool, zero-width, a new unit, unnamed padding, 40 bits", false,
       {{"char", "c", -1}, {"int", "a", 3}, {"unsigned", "b", 5}, {"_Bool", "f", 1}, {"int", "", 0},
        {"unsigned", "d", 30}, {"int", "e", 7}, {"long", "l", -1}, {"unsigned", "", 4},
        {"signed char", "g", 4}, {"unsigned long long", "big", 40}, {"short", "tail", -1}}},
      {"packed: a run of 4 bytes from byte 1", true,
       {{"char", "x", -1}, {"unsigned", "v", 20}, {"unsigned", "w", 9}, {"char", "y", -1}}},
      {"a 3-byte run before a char: a 3-byte cell", false,
       {{"unsigned", "v", 20}, {"char", "y", -1}, {"int", "z", 2}}},
      {"nine 1-bit unsigned char fields", false,
       {{"unsigned char", "a", 1}, {"unsigned char", "b", 1}, {"unsigned char", "c", 1}, {"unsigned char", "d", 1},
        {"unsigned char", "e", 1}, {"unsigned char", "f", 1}, {"unsigned char", "g", 1}, {"unsigned char", "h", 1},
        {"unsigned char", "i", 1}}},
      {"short fields that do not share a unit, then a char", false,
       {{"short", "s", 9}, {"short", "t", 9}, {"char", "u", -1}, {"unsigned short", "w", 16}}},
      {"long long over 33 bits, signed int fields: 8 bytes", false,
       {{"long long", "x", 33}, {"int", "y", 29}, {"int", "z", 2}, {"signed char", "k", -1}}},
      {"fields separated by an int", false, {{"int", "x", 3}, {"int", "y", -1}, {"int", "z", 3}}},
      {"whole-width fields: one 8-byte run", false,
       {{"unsigned", "u", 32}, {"int", "i", 32}, {"char", "c", -1}, {"_Bool", "b", 1}}},
  };
  return l;
}

std::string struct_text(const Layout& l) {
  std::string s = l.packed ? "struct __attribute__((packed)) T {\n" : "struct T {\n";
  for (const Field& f : l.fields)
    s += "  " + f.type + " " + f.name + (f.width >= 0 ? " : " + std::to_string(f.width) : "") + ";\n";
  return s + "};\n";
}

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("siren_bf_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string run_command(const std::string& cmd) {
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  ::pclose(f);
  return out;
}

// Clang's layout of struct T: per field in declaration order, its first bit (bit-fields: byte
// * 8 + first bit; others: byte * 8); -1 for a zero-width field.
std::vector<long> clang_layout(const std::string& path, unsigned bits) {
  const std::string target = bits == 64 ? "x86_64-linux-gnu" : "i386-linux-gnu";
  const std::string dump = run_command("clang-16 --target=" + target + " -fsyntax-only -w -Xclang -fdump-record-layouts " +
                                       path + " 2>&1");
  std::vector<long> out;
  std::istringstream in(dump.substr(dump.find("| struct T")));
  std::string line;
  std::getline(in, line);
  const std::regex bf(R"(^\s*(\d+):(\d+)-(\d+) \|)"), zero(R"(^\s*(\d+):- \|)"), plain(R"(^\s*(\d+) \|)");
  while (std::getline(in, line) && line.find("[sizeof=") == std::string::npos) {
    std::smatch m;
    if (std::regex_search(line, m, bf)) out.push_back(std::stol(m[1]) * 8 + std::stol(m[2]));
    else if (std::regex_search(line, m, zero)) out.push_back(-1);
    else if (std::regex_search(line, m, plain)) out.push_back(std::stol(m[1]) * 8);
  }
  return out;
}

bool is_signed(const std::string& t) { return t.rfind("unsigned", 0) != 0 && t != "_Bool"; }
unsigned type_bits(const std::string& t, unsigned model) {
  if (t == "_Bool" || t == "char" || t == "signed char" || t == "unsigned char") return 8;
  if (t == "short" || t == "unsigned short") return 16;
  if (t == "long") return model;
  if (t == "long long" || t == "unsigned long long") return 64;
  return 32;
}

std::uint64_t value_for(std::size_t i) { return 0x9E3779B97F4A7C15ULL * (i + 1) ^ 0xA5A5A5A5F0F0F0F0ULL >> i; }

struct Outcome {
  int checked_cells = 0;
  std::vector<std::string> mismatches;
};

// Translates the program of `l` for the data model, runs main in the interpreter and compares
// cells and values with Clang's layout and C's rules.
Outcome check_layout(const Layout& l, unsigned model, bool wrong, std::vector<std::uint64_t>* read_back = nullptr) {
  Outcome o;
  std::string prog = "#ifdef NATIVE\n#include <stdio.h>\n#endif\n" + struct_text(l) + "struct T g;\nlong long out[" +
                     std::to_string(l.fields.size()) + "];\nint main(void) {\n";
  for (std::size_t i = 0; i < l.fields.size(); ++i)
    if (!l.fields[i].name.empty())
      prog += "  g." + l.fields[i].name + " = (" + l.fields[i].type + ")" + std::to_string(value_for(i)) + "ULL;\n";
  for (std::size_t i = 0; i < l.fields.size(); ++i)
    if (!l.fields[i].name.empty()) prog += "  out[" + std::to_string(i) + "] = g." + l.fields[i].name + ";\n";
  prog += "#ifdef NATIVE\n  for (int i = 0; i < (int)(sizeof out / sizeof out[0]); i++) printf(\"%lld\\n\", out[i]);\n#endif\n";
  prog += "  return 0;\n}\n";
  const std::string path = temp_path("bf" + std::to_string(model) + ".c");
  std::ofstream(path) << prog;
  const std::vector<long> clang = clang_layout(path, model);
  REQUIRE(clang.size() == l.fields.size());

  frontend::FrontendOptions fo;
  fo.data_model_bits = model;
  fo.test_wrong_bitfield_layout = wrong;
  auto r = frontend::translate_file(path, fo);
  INFO((r.diagnostics.empty() ? std::string() : r.diagnostics[0].str()));
  REQUIRE(r.status == frontend::FrontendStatus::Ok);
  const ir::Program& p = *r.program;
  ir::ThreadModel tm = ir::build_thread_model(p, {});
  ir::Interpreter in(tm);
  ir::State s = in.initial_state();
  for (int k = 0; k < 100000 && in.step(s, {0, {}}).outcome == ir::StepOutcome::Ok; ++k) {
  }
  auto object = [&](const std::string& name) {
    for (std::size_t k = 0; k < tm.objects.size(); ++k)
      if (tm.objects[k].name == name) return k;
    FAIL("no object " << name);
    return std::size_t{0};
  };
  const std::size_t g = object("g"), out = object("out");
  const ir::Object& go = tm.objects[g];
  std::vector<std::uint64_t> expected_cell(go.cells.size(), 0);
  std::vector<bool> bit_cell(go.cells.size(), false);
  for (std::size_t i = 0; i < l.fields.size(); ++i) {
    const Field& f = l.fields[i];
    if (f.name.empty()) continue;
    const unsigned w = f.width >= 0 ? static_cast<unsigned>(f.width) : type_bits(f.type, model);
    const std::uint64_t mask = w >= 64 ? ~0ULL : (1ULL << w) - 1;
    std::uint64_t v = value_for(i);
    if (f.type == "_Bool") v = v != 0;
    v &= mask;
    const std::uint64_t read = is_signed(f.type) && w < 64 && (v >> (w - 1)) ? v | ~mask : v;
    const std::uint64_t got = s.memory[out][i].bits;
    if (got != read) o.mismatches.push_back(f.name + " reads back " + std::to_string(got) + ", C says " + std::to_string(read));
    if (read_back) read_back->push_back(read);
    // the cell that holds the field's bits: [first, first + w) lies in it
    const long first = clang[i];
    bool found = false;
    for (std::size_t c = 0; c < go.cells.size(); ++c) {
      const ir::Cell& cell = go.cells[c];
      if (static_cast<long>(cell.offset * 8) > first || first + static_cast<long>(w) > static_cast<long>((cell.offset + cell.size) * 8))
        continue;
      found = true;
      if (f.width < 0) {
        if (static_cast<long>(cell.offset * 8) != first || cell.size * 8 != w)
          o.mismatches.push_back(f.name + ": not a cell of its own at Clang's offset");
        break;
      }
      bit_cell[c] = true;
      expected_cell[c] |= v << (first - static_cast<long>(cell.offset * 8));
      break;
    }
    if (!found) o.mismatches.push_back(f.name + ": no cell covers its bits at Clang's offset " + std::to_string(first));
  }
  for (std::size_t c = 0; c < go.cells.size(); ++c) {
    if (!bit_cell[c]) continue;
    ++o.checked_cells;
    const ir::Cell& cell = go.cells[c];
    CHECK(cell.type.is_int());
    CHECK_FALSE(cell.type.is_signed);
    CHECK(cell.type.width == cell.size * 8);
    if (s.memory[g][c].bits != expected_cell[c])
      o.mismatches.push_back("cell " + cell.name + " holds " + std::to_string(s.memory[g][c].bits) + ", Clang's layout " +
                             std::to_string(expected_cell[c]));
  }
  // cells in increasing offsets, not overlapping, inside the object of Clang's size
  for (std::size_t c = 0; c + 1 < go.cells.size(); ++c)
    CHECK(go.cells[c].offset + go.cells[c].size <= go.cells[c + 1].offset);
  CHECK(go.cells.back().offset + go.cells.back().size <= go.size);
  return o;
}

}  // namespace

TEST_CASE("bit-fields: cells and values against Clang's layout, LP64 and ILP32") {
  for (const Layout& l : layouts())
    for (unsigned model : {64u, 32u}) {
      INFO(std::string(l.what) << ", " << model << "-bit data model");
      std::vector<std::uint64_t> read;
      Outcome o = check_layout(l, model, false, &read);
      for (const std::string& m : o.mismatches) INFO(m);
      CHECK(o.mismatches.empty());
      CHECK(o.checked_cells >= 1);
      if (model != 64) continue;
      // Clang's own evaluation: the same program, natively
      const std::string path = temp_path("bf64.c"), exe = temp_path("bf64");
      const std::string printed =
          run_command("clang-16 -w -DNATIVE " + path + " -o " + exe + " 2>&1 && " + exe);
      std::istringstream in(printed);
      std::vector<std::uint64_t> native;
      std::size_t i = 0;
      for (long long v; in >> v; ++i)
        if (!l.fields[i].name.empty()) native.push_back(static_cast<std::uint64_t>(v));
      INFO(printed);
      CHECK(native == read);
    }
}

TEST_CASE("bit-fields: a layout one bit off (test_wrong_bitfield_layout) is caught") {
  int caught = 0;
  for (const Layout& l : layouts())
    for (unsigned model : {64u, 32u}) caught += !check_layout(l, model, true).mismatches.empty();
  CHECK(caught >= 6);
}

TEST_CASE("bit-fields: what is not one cell is reported") {
  struct Case {
    const char* code;
    const char* what;
  } cases[] = {
      {"struct __attribute__((packed)) W { long long a : 60; long long b : 60; } w;\nint main(void) { return w.a; }\n",
       "are one memory location of 15 bytes (more than 8)"},
      {"struct X { long long x : 33; int y : 31; int z : 2; } v;\nint main(void) { return v.z; }\n",
       "bit-fields from 'x' to 'z' are one memory location of 9 bytes (more than 8)"},
      {"union U { unsigned x : 3; int i; } u;\nint main(void) { u.x = 1; return u.i; }\n",
       "member 'i'; bit-field 'x' is a cell of 1 byte(s)"},
  };
  for (const Case& c : cases) {
    const std::string path = temp_path("bfu.c");
    std::ofstream(path) << c.code;
    auto r = frontend::translate_file(path);
    INFO(c.code);
    REQUIRE(r.status == frontend::FrontendStatus::Unsupported);
    INFO(r.diagnostics[0].str());
    CHECK(r.diagnostics[0].str().find(c.what) != std::string::npos);
  }
}

TEST_CASE("bit-fields: a union of a bit-field struct and a same-size integer sees Clang's bits") {
  const std::string path = temp_path("bfunion.c");
  std::ofstream(path) << "union U { struct { unsigned a : 3; unsigned b : 5; } s; unsigned char byte; } u;\n"
                         "struct I { int k : 5; } gi = { -3 };\n"
                         "int main(void) { u.s.b = 1; u.s.a = 2; return 0; }\n";
  for (bool wrong : {false, true}) {
    frontend::FrontendOptions fo;
    fo.test_wrong_bitfield_layout = wrong;
    auto r = frontend::translate_file(path, fo);
    REQUIRE(r.status == frontend::FrontendStatus::Ok);
    ir::ThreadModel tm = ir::build_thread_model(*r.program, {});
    ir::Interpreter in(tm);
    ir::State s = in.initial_state();
    for (int k = 0; k < 1000 && in.step(s, {0, {}}).outcome == ir::StepOutcome::Ok; ++k) {
    }
    for (std::size_t o = 0; o < tm.objects.size(); ++o) {
      if (tm.objects[o].name == "u") {
        REQUIRE(tm.objects[o].cells.size() == 1);
        CHECK((s.memory[o][0].bits == (1u << 3 | 2u)) == !wrong);
      }
      if (tm.objects[o].name == "gi") CHECK((s.memory[o][0].bits == 0x1d) == !wrong);  // -3 in 5 bits
    }
  }
}

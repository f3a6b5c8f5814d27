#include "ir/program.hpp"

#include <algorithm>

namespace siren::ir {

const char* instr_kind_name(InstrKind k) {
  switch (k) {
    case InstrKind::Skip: return "skip";
    case InstrKind::Assign: return "assign";
    case InstrKind::Store: return "store";
    case InstrKind::Havoc: return "havoc";
    case InstrKind::Assume: return "assume";
    case InstrKind::Assert: return "assert";
    case InstrKind::Goto: return "goto";
    case InstrKind::Call: return "call";
    case InstrKind::Return: return "return";
    case InstrKind::Abort: return "abort";
    case InstrKind::Lock: return "lock";
    case InstrKind::TryLock: return "trylock";
    case InstrKind::Unlock: return "unlock";
    case InstrKind::CondWait: return "cond_wait";
    case InstrKind::CondSignal: return "cond_signal";
    case InstrKind::CondBroadcast: return "cond_broadcast";
    case InstrKind::RdLock: return "rdlock";
    case InstrKind::WrLock: return "wrlock";
    case InstrKind::RwUnlock: return "rwunlock";
    case InstrKind::ThreadCreate: return "thread_create";
    case InstrKind::ThreadJoin: return "thread_join";
    case InstrKind::ThreadExit: return "thread_exit";
    case InstrKind::AtomicBegin: return "atomic_begin";
    case InstrKind::AtomicEnd: return "atomic_end";
    case InstrKind::Malloc: return "malloc";
    case InstrKind::Free: return "free";
  }
  return "?";
}

Program::Program() : exprs_(std::make_unique<ExprManager>()) {
  Object null;
  null.id = 0;
  null.kind = ObjectKind::Null;
  null.name = "NULL";
  objects.push_back(std::move(null));
}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

std::optional<std::uint32_t> Object::cell_at(std::int64_t offset) const {
  if (offset < 0 || cells.empty()) return std::nullopt;
  const auto off = static_cast<std::uint64_t>(offset);
  if (off >= size) return std::nullopt;
  // cells of equal size without gaps (arrays of scalars, the unit layout): the proportional
  // guess is the cell; otherwise a binary search
  const std::size_t guess = static_cast<std::size_t>(off * cells.size() / size);
  if (guess < cells.size() && cells[guess].offset == off) return static_cast<std::uint32_t>(guess);
  auto it = std::lower_bound(cells.begin(), cells.end(), off,
                             [](const Cell& c, std::uint64_t o) { return c.offset < o; });
  if (it == cells.end() || it->offset != off) return std::nullopt;
  return static_cast<std::uint32_t>(it - cells.begin());
}

std::uint32_t access_bytes(Type t, std::uint32_t pointer_bytes) {
  switch (t.kind) {
    case TypeKind::Bool: return 1;
    case TypeKind::Int: return (t.width + 7u) / 8u;
    case TypeKind::Ptr: return pointer_bytes;
  }
  return 0;
}

ObjectId Program::add_object(Object o) {
  if (o.size == 0 && !o.cells.empty()) {
    for (std::size_t i = 0; i < o.cells.size(); ++i) {
      o.cells[i].offset = i;
      o.cells[i].size = 1;
    }
    o.size = o.cells.size();
  }
  o.id = static_cast<ObjectId>(objects.size());
  objects.push_back(std::move(o));
  return objects.back().id;
}

FunctionId Program::add_function(Function f) {
  f.id = static_cast<FunctionId>(functions.size());
  functions.push_back(std::move(f));
  return functions.back().id;
}

const Function* Program::find_function(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::string Program::where(const SourceLoc& loc) const {
  std::string file = loc.file < files.size() ? files[loc.file] : std::string("?");
  return file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

}  // namespace siren::ir

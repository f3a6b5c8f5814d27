#include "ir/program.hpp"

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

ObjectId Program::add_object(Object o) {
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

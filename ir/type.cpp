#include "ir/type.hpp"

namespace siren::ir {

std::string Type::str() const {
  switch (kind) {
    case TypeKind::Bool: return "bool";
    case TypeKind::Ptr: return "ptr";
    case TypeKind::Int: return (is_signed ? "i" : "u") + std::to_string(width);
  }
  return "?";
}

std::uint64_t normalize(Type t, std::uint64_t v) {
  switch (t.kind) {
    case TypeKind::Bool: return v != 0 ? 1 : 0;
    case TypeKind::Ptr: return v;
    case TypeKind::Int: break;
  }
  if (t.width >= 64) return v;
  const std::uint64_t mask = (std::uint64_t{1} << t.width) - 1;
  v &= mask;
  if (t.is_signed && (v >> (t.width - 1)) & 1) v |= ~mask;
  return v;
}

std::int64_t as_signed(Type t, std::uint64_t v) { return static_cast<std::int64_t>(normalize(t, v)); }

}  // namespace siren::ir

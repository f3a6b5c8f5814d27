// Scalar types of siren's IR.
//
// Aggregates (arrays, structs) never appear as expression types: the front end flattens every
// memory object into a sequence of scalar *cells* (see ir/program.hpp, docs/semantics.md).
// Expressions are therefore always of a scalar type: bool, a fixed-width two's-complement
// integer (signed or unsigned, any C width), or a pointer (an (object, byte offset) pair).
#pragma once

#include <cstdint>
#include <string>

namespace siren::ir {

enum class TypeKind : std::uint8_t { Bool, Int, Ptr };

struct Type {
  TypeKind kind = TypeKind::Bool;
  std::uint16_t width = 1;  // bits; 1 for Bool, 1..64 for Int, 0 for Ptr (abstract pair)
  bool is_signed = false;   // Int only

  static constexpr Type boolean() { return {TypeKind::Bool, 1, false}; }
  static constexpr Type integer(unsigned w, bool s) {
    return {TypeKind::Int, static_cast<std::uint16_t>(w), s};
  }
  static constexpr Type pointer() { return {TypeKind::Ptr, 0, false}; }

  bool is_bool() const { return kind == TypeKind::Bool; }
  bool is_int() const { return kind == TypeKind::Int; }
  bool is_ptr() const { return kind == TypeKind::Ptr; }

  friend bool operator==(const Type&, const Type&) = default;

  std::string str() const;  // "bool", "i32", "u8", "ptr"
};

/// Masks `v` to `t`'s width and, for signed types, sign-extends to 64 bits. For Bool: 0/1.
std::uint64_t normalize(Type t, std::uint64_t v);
/// `v` (normalized for `t`) as a signed 64-bit number (signed types) or zero-extended.
std::int64_t as_signed(Type t, std::uint64_t v);

}  // namespace siren::ir

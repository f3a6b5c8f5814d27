// Concrete semantics of the IR's integer binary operators (docs/semantics.md "Operators"):
// the one definition used by constant folding (ir/expr.cpp) and the concrete interpreter
// (ir/interpreter.cpp). The encoder gets the same semantics from SMT-LIB bit-vector terms, and
// the solver tests check those against their own reference, so the two stay independent.
#pragma once

#include "ir/expr.hpp"

#include <cstdint>

namespace siren::ir {

/// `a op b` on `width`-bit operands (any bits above the width are ignored). Arithmetic wraps;
/// division and shifts follow SMT-LIB (x/0 = all-ones or ±1, x%0 = x, shift >= width = 0 or
/// sign fill). Comparisons and LAnd/LOr return 0/1. The result is not normalized.
std::uint64_t eval_int_binary(Op op, unsigned width, std::uint64_t a, std::uint64_t b);

}  // namespace siren::ir

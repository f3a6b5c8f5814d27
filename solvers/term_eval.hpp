// Reference semantics of one term node (SMT-LIB QF_BV): the value of a node given the values
// of its children. Shared by constant folding (term.cpp), ground evaluation (evaluate) and the
// bit-blaster's model read-back (bitblast_solver.cpp), so all three agree by construction.
#pragma once

#include "solvers/term.hpp"

#include <cstdint>

namespace siren::solvers {

inline std::uint64_t width_mask(std::uint32_t w) {
  return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}

/// Value of `n` (Bool: 0/1; bit-vector: masked to its width) from its children's values.
/// `n` must not be a Var; a Const returns its value.
std::uint64_t eval_node(const TermNode& n, const std::uint64_t* kid_values);

}  // namespace siren::solvers

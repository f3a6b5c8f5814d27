// TEST ONLY: the deliberately unsound reductions "test-broken" and "test-sir-broken-points-to"
// (tools/fuzz/broken_reduction.cpp).
#pragma once

namespace siren::fuzz {

/// Makes "test-broken" and "test-sir-broken-points-to" names
/// reduction::make_scheduler_constraints accepts (in this process).
void register_broken_reduction();

}  // namespace siren::fuzz

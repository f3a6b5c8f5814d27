// TEST ONLY: the deliberately unsound reduction "test-broken" (tools/fuzz/broken_reduction.cpp).
#pragma once

namespace siren::fuzz {

/// Makes "test-broken" a name reduction::make_scheduler_constraints accepts (in this process).
void register_broken_reduction();

}  // namespace siren::fuzz

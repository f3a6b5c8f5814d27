#pragma once
// Template implementations for ir/expr.hpp.
#include <unordered_set>
#include <utility>
#include <vector>

namespace siren::ir {

template <class F>
void visit_post_order(ExprRef root, F&& f) {
  std::unordered_set<ExprRef> seen;
  std::vector<std::pair<ExprRef, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      f(e);
      continue;
    }
    if (!seen.insert(e).second) continue;
    stack.push_back({e, true});
    for (auto it = e->kids.rbegin(); it != e->kids.rend(); ++it)
      if (!seen.count(*it)) stack.push_back({*it, false});
  }
}

}  // namespace siren::ir

// Shards of a triage's work (race/triage_shards.hpp).
#include "race/triage_shards.hpp"

#include <algorithm>
#include <cctype>

namespace siren::race {

std::optional<ShardSpec> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
  auto num = [](const std::string& s) -> std::optional<unsigned> {
    if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    return static_cast<unsigned>(std::stoul(s));
  };
  const auto i = num(text.substr(0, slash)), n = num(text.substr(slash + 1));
  if (!i || !n || *n == 0 || *i >= *n) return std::nullopt;
  return ShardSpec{*i, *n};
}

std::vector<std::vector<ShardPiece>> plan_shards(const std::vector<std::size_t>& sizes, unsigned count) {
  count = std::max(1u, count);
  std::vector<ShardPiece> units;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] > 0) units.push_back({i, 0, sizes[i]});
  auto size = [](const ShardPiece& p) { return p.end - p.begin; };
  auto order = [&](const ShardPiece& a, const ShardPiece& b) {  // larger first, then item order
    if (size(a) != size(b)) return size(a) > size(b);
    return a.item != b.item ? a.item < b.item : a.begin < b.begin;
  };
  while (units.size() < count) {
    auto big = std::min_element(units.begin(), units.end(), order);
    if (big == units.end() || size(*big) < 2) break;
    const std::size_t mid = big->begin + (size(*big) + 1) / 2;
    const ShardPiece rest{big->item, mid, big->end};
    big->end = mid;
    units.push_back(rest);
  }
  std::sort(units.begin(), units.end(), order);
  std::vector<std::vector<ShardPiece>> shards(count);
  std::vector<std::size_t> load(count, 0);
  for (const auto& u : units) {
    const auto s = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[s] += size(u);
    shards[s].push_back(u);
  }
  for (auto& s : shards)
    std::sort(s.begin(), s.end(), [](const ShardPiece& a, const ShardPiece& b) {
      return a.item != b.item ? a.item < b.item : a.begin < b.begin;
    });
  return shards;
}

}  // namespace siren::race

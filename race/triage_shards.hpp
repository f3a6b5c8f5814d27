// Deterministic shards of a triage's work (`siren triage --shard I/N`, and the Slurm executor
// that runs one array task per shard): by program first, so a shard loads a program once, then
// by size. When there are fewer programs than shards the largest program's warnings are split
// in halves until there are enough pieces; pieces then go, largest first, to the least loaded
// shard (LPT). The same sizes always give the same shards.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace siren::race {

struct ShardSpec {
  unsigned index = 0;  // 0 <= index < count
  unsigned count = 1;
};

/// "I/N" with 0 <= I < N; nullopt when malformed.
std::optional<ShardSpec> parse_shard(const std::string& text);

/// Warnings [begin, end) of item `item` (in the item's order).
struct ShardPiece {
  std::size_t item = 0, begin = 0, end = 0;
  bool operator==(const ShardPiece&) const = default;
};

/// The `count` shards of items with `sizes[i]` warnings each; every shard's pieces are in item
/// order. Shards may be empty (fewer warnings than shards).
std::vector<std::vector<ShardPiece>> plan_shards(const std::vector<std::size_t>& sizes, unsigned count);

}  // namespace siren::race

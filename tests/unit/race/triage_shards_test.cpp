// Shards of a triage's work (race/triage_shards.hpp) and manifests (race/manifest.hpp): every
// warning in exactly one shard, programs kept whole while there are enough of them, balanced
// sizes, the same plan every time; a manifest's bad lines reported by number, the rest kept.
#include "race/manifest.hpp"
#include "race/triage_shards.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace siren::race;

TEST_CASE("parse_shard accepts I/N with 0 <= I < N only") {
  CHECK(parse_shard("0/1")->count == 1);
  CHECK(parse_shard("3/4")->index == 3);
  for (const char* bad : {"4/4", "1/0", "/3", "2/", "a/3", "-1/3", "1", "1/2/3"}) CHECK_FALSE(parse_shard(bad));
}

TEST_CASE("plan_shards covers every warning once, by program first, balanced") {
  const std::vector<std::size_t> sizes = {18, 15, 1, 1, 0, 3, 1};
  for (unsigned n : {1u, 2u, 3u, 5u, 7u, 12u, 100u}) {
    const auto plan = plan_shards(sizes, n);
    REQUIRE(plan.size() == n);
    std::map<std::pair<std::size_t, std::size_t>, int> seen;
    std::size_t biggest = 0;
    for (const auto& shard : plan) {
      std::size_t load = 0;
      for (const auto& p : shard) {
        for (std::size_t k = p.begin; k < p.end; ++k) ++seen[{p.item, k}];
        load += p.end - p.begin;
      }
      biggest = std::max(biggest, load);
    }
    std::size_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) total += sizes[i];
    CHECK(seen.size() == total);
    for (const auto& [k, c] : seen) CHECK(c == 1);
    if (n <= 6) {  // as many programs as shards (6 non-empty): no program is split
      for (const auto& shard : plan)
        for (const auto& p : shard) CHECK(p.end - p.begin == sizes[p.item]);
    }
    if (n >= 12) CHECK(biggest <= 5);  // split into small pieces when there are many shards
    CHECK(plan == plan_shards(sizes, n));
  }
}

TEST_CASE("read_manifest reports bad lines by number and keeps the others") {
  const auto dir = std::filesystem::temp_directory_path() / ("siren-manifest-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.c") << "int main(void) { return 0; }\n";
  std::ofstream(dir / "m.jsonl") << "{\"program\": \"a.c\"}\n"
                                    "\n"
                                    "{\"program\": \"a.c\"\n"
                                    "{\"program\": \"a.c\", \"id\": \"b\", \"bogus\": 1}\n"
                                    "{\"program\": \"missing.c\"}\n"
                                    "{\"program\": \"a.c\"}\n"
                                    "{\"program\": \"a.c\", \"id\": \"c\", \"clang_args\": [\"-DX\"]}\n"
                                    "{\"program\": \"a.c\", \"id\": \"d\", \"clang_args\": \"-DX\"}\n";
  const Manifest m = read_manifest((dir / "m.jsonl").string());
  REQUIRE(m.items.size() == 2);
  CHECK(m.items[0].line == 1);
  CHECK(m.items[0].program == (dir / "a.c").string());
  CHECK(m.items[0].prefix == "a.c");
  CHECK(m.items[1].prefix == "c");
  CHECK(m.items[1].clang_args == std::vector<std::string>{"-DX"});
  std::vector<unsigned> lines;
  for (const auto& e : m.errors) lines.push_back(e.line);
  CHECK(lines == std::vector<unsigned>{3, 4, 5, 6, 8});
  CHECK(manifest_result_id("c", "00ff") == "c/00ff");
  std::filesystem::remove_all(dir);
}

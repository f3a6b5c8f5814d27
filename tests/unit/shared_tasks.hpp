// The input files of the shared SV-COMP tasks (../shared/benchmarks/svcomp/INDEX.tsv), each
// once (several task definitions may share one input), for unit tests that sweep them.
#pragma once

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace siren::test {

struct SharedInput {
  std::string category;  // "pthread", "pthread-atomic", ...
  std::string path;      // the file
};

/// Every distinct input file of INDEX.tsv, in its order; empty if the index cannot be read.
inline std::vector<SharedInput> shared_inputs() {
  const std::string dir = std::string(SIREN_SHARED_DIR) + "/benchmarks/svcomp/";
  std::ifstream index(dir + "INDEX.tsv");
  std::vector<SharedInput> out;
  std::set<std::string> seen;
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::istringstream ls(line);
    std::string category, yml, input;
    std::getline(ls, category, '\t');
    std::getline(ls, yml, '\t');
    std::getline(ls, input, '\t');
    if (input.empty() || !seen.insert(category + "/" + input).second) continue;
    out.push_back({category, dir + category + "/" + input});
  }
  return out;
}

}  // namespace siren::test

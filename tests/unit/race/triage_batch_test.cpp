// The resumable results file of batch triage (race/triage_batch.hpp): complete lines survive,
// a partial, unparseable or duplicate line is dropped (and the file rewritten without it), the
// ids already answered are reported, appends land whole, and a second run on the same file is
// kept out by the lock.
#include "race/triage_batch.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace siren;

namespace {

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("siren-batch-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  std::filesystem::remove(p);
  return p.string();
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("results file: complete lines kept, partial, unparseable and duplicate ones dropped") {
  const std::string path = temp_path("results.jsonl");
  std::ofstream(path, std::ios::binary) << "{\"id\":\"a\",\"verdict\":\"RACE\"}\n"
                                           "not json\n"
                                           "{\"id\":\"a\",\"verdict\":\"NO_RACE\"}\n"
                                           "{\"verdict\":\"RACE\"}\n"
                                           "{\"id\":\"b\",\"verdict\":\"UNKNOWN\"}\n"
                                           "{\"id\":\"c\",\"verd";
  {
    race::ResultsFile f(path);
    CHECK(f.answered() == std::set<std::string>{"a", "b"});
    CHECK(contents(path) == "{\"id\":\"a\",\"verdict\":\"RACE\"}\n{\"id\":\"b\",\"verdict\":\"UNKNOWN\"}\n");
    CHECK(race::append_line(f.fd(), "{\"id\":\"c\",\"verdict\":\"NO_ACCESS\"}\n"));
  }
  const auto lines = race::ResultsFile::read_lines(path);
  REQUIRE(lines.size() == 3);
  CHECK(lines[2] == "{\"id\":\"c\",\"verdict\":\"NO_ACCESS\"}");
  race::ResultsFile again(path);
  CHECK(again.answered().size() == 3);
}

TEST_CASE("results file: a second run on the same file waits for the lock") {
  const std::string path = temp_path("locked.jsonl");
  race::ResultsFile first(path);
  const int fd = ::open((path + ".lock").c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  CHECK(::flock(fd, LOCK_EX | LOCK_NB) != 0);  // held by `first`
  ::close(fd);
}

TEST_CASE("results file: an unwritable place is a ResultsFileError with the reason") {
  CHECK_THROWS_AS(race::ResultsFile("/nonexistent-dir/results.jsonl"), race::ResultsFileError);
}

// `siren triage --driver` (triage_driver.hpp).
#include "apps/siren/triage_driver.hpp"

#include "apps/siren/commands.hpp"
#include "frontend/frontend.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace siren::app {

namespace fs = std::filesystem;

std::string kernel_model_dir() {
  if (const char* e = std::getenv("SIREN_KERNEL_MODEL"); e && *e) return e;
  return SIREN_KERNEL_MODEL_DIR;
}

std::string kernel_fallback_dir() { return (fs::path(kernel_model_dir()).parent_path() / "fallback").string(); }

bool is_kernel_module(const std::string& file) {
  std::ifstream in(file);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  static const std::regex kInit(R"(^[ \t]*module_init[ \t]*\()", std::regex::multiline);
  static const std::regex kMain(R"(\bmain[ \t]*\()");
  return std::regex_search(s, kInit) && !std::regex_search(s, kMain);
}

namespace {
// A file name for the harness of a pair: its index and the two functions.
std::string harness_name(std::size_t i, std::size_t j, const std::string& a, const std::string& b) {
  return fmt::format("pair_{:03}_{:03}_{}__{}.c", i, j, a, b);
}

// A driver's scan, with the -I arguments its harnesses are loaded with.
struct DriverInput {
  std::string driver;  // absolute
  std::string kernel;  // siren's kernel model
  std::vector<std::string> includes;
  frontend::DriverScan scan;
};

// Scans `file` as a driver; 0, or an exit code after printing one line.
int scan_driver_input(const std::string& file, const FrontArgs& front, DriverInput& in) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    std::fprintf(stderr, "siren: %s: no such file\n", file.c_str());
    return kExitInputError;
  }
  in.driver = fs::absolute(file).lexically_normal().string();
  in.kernel = kernel_model_dir();
  if (!fs::is_directory(in.kernel, ec)) {
    std::fprintf(stderr, "siren: the kernel model %s is missing (set SIREN_KERNEL_MODEL)\n", in.kernel.c_str());
    return kExitInputError;
  }
  // -I order: siren's kernel model first (its headers replace a driver model's locking), then
  // the user's directories, then the driver's own, then siren's fallback headers (module.h,
  // fs.h, miscdevice.h, ...: used where no driver model has the header).
  in.includes = {"-I" + in.kernel};
  for (const auto& i : front.includes) in.includes.push_back("-I" + fs::absolute(i).lexically_normal().string());
  in.includes.push_back("-I" + fs::path(in.driver).parent_path().string());
  in.includes.push_back("-I" + kernel_fallback_dir());
  frontend::FrontendOptions fo;
  for (const auto& d : front.defines) fo.extra_args.push_back("-D" + d);
  fo.extra_args.insert(fo.extra_args.end(), in.includes.begin(), in.includes.end());
  fo.extra_args.insert(fo.extra_args.end(), front.clang_args.begin(), front.clang_args.end());
  fo.data_model_bits = front.ilp32 ? 32 : 64;
  in.scan = frontend::scan_driver(in.driver, fo);
  if (!in.scan.errors.empty()) {
    for (const auto& d : in.scan.errors) std::fprintf(stderr, "%s\n", d.str().c_str());
    return kExitInputError;
  }
  return 0;
}

// The readonly list of siren's kernel model, unless --assume-readonly names one.
void kernel_readonly(FrontArgs& front, const std::string& kernel) {
  if (front.readonly_file.empty()) front.readonly_file = (fs::path(kernel).parent_path() / "readonly.txt").string();
}
}  // namespace

int module_harness(const std::string& file, const FrontArgs& front, ModuleHarness& out) {
  DriverInput in;
  if (const int rc = scan_driver_input(file, front, in)) return rc;
  out.init = in.scan.init;
  out.exit = in.scan.exit;
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < in.scan.entries.size(); ++i) {
    const auto& e = in.scan.entries[i];
    if (!e.unsupported.empty()) {
      out.left_out.push_back(e.name + ": unsupported: " + e.unsupported);
      continue;
    }
    all.push_back(i);
    out.entry_points.push_back(e.name);
  }
  if (all.empty()) {
    std::fprintf(stderr, "siren: %s: a kernel module without entry points (no function of it is registered with "
                 "the kernel)\n", file.c_str());
    return kExitInputError;
  }
  char tmpl[] = "/tmp/siren-module-XXXXXX";
  const char* dir = ::mkdtemp(tmpl);
  if (!dir) {
    std::fprintf(stderr, "siren: cannot create a harness directory under /tmp\n");
    return kExitInternal;
  }
  out.path = (fs::path(dir) / "all_entry_points.c").string();
  std::ofstream h(out.path, std::ios::trunc);
  h << frontend::driver_harness_all(in.driver, in.scan, all);
  if (!h.flush()) {
    std::fprintf(stderr, "siren: %s: cannot write the harness\n", out.path.c_str());
    return kExitInternal;
  }
  out.front = front;
  out.front.includes.clear();
  out.front.clang_args.insert(out.front.clang_args.begin(), in.includes.begin(), in.includes.end());
  kernel_readonly(out.front, in.kernel);
  return 0;
}

void remove_module_harness(const ModuleHarness& h) {
  std::error_code ec;
  if (!h.path.empty()) fs::remove_all(fs::path(h.path).parent_path(), ec);
}

int prepare_driver(TriageArgs& a) {
  const auto started = std::chrono::steady_clock::now();
  std::error_code ec;
  DriverInput in;
  if (const int rc = scan_driver_input(a.driver, a.front, in)) return rc;
  const std::string& driver = in.driver;
  const std::string& kernel = in.kernel;
  const std::vector<std::string>& includes = in.includes;
  const frontend::DriverScan& scan = in.scan;

  std::string dir = a.emit_harness;
  if (dir.empty() && !a.out.empty()) dir = a.out + ".harness";
  if (dir.empty()) {
    char tmpl[] = "/tmp/siren-driver-XXXXXX";
    const char* t = ::mkdtemp(tmpl);
    if (!t) {
      std::fprintf(stderr, "siren: cannot create a harness directory under /tmp\n");
      return kExitInternal;
    }
    dir = t;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "siren: %s: cannot create the harness directory: %s\n", dir.c_str(), ec.message().c_str());
    return kExitInputError;
  }

  std::vector<std::size_t> usable;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < scan.entries.size(); ++i) {
    const auto& e = scan.entries[i];
    entries.push_back({{"name", e.name}, {"registered", e.where}});
    if (!e.serial.empty()) entries.back()["not_beside_itself"] = e.serial;
    if (e.rtnl) entries.back()["kernel_holds"] = "rtnl_lock";
    if (e.unsupported.empty()) {
      usable.push_back(i);
    } else {
      entries.back()["left_out"] = e.unsupported;
      std::fprintf(stderr, "siren: %s: entry point %s left out: unsupported: %s\n", a.driver.c_str(), e.name.c_str(),
                   e.unsupported.c_str());
    }
  }
  nlohmann::ordered_json info = {{"driver", driver},
                                 {"init", scan.init},
                                 {"exit", scan.exit},
                                 {"kernel_model", kernel},
                                 {"entry_points", entries}};
  if (!scan.internal.empty()) {  // address taken, but only the driver's own code calls them
    nlohmann::ordered_json internal = nlohmann::ordered_json::array();
    for (const auto& [name, where] : scan.internal) internal.push_back({{"name", name}, {"registered", where}});
    info["internal"] = internal;
  }
  kernel_readonly(a.front, kernel);

  // One harness for every pair at once (driver_harness_all): a driver's pairs share its code,
  // and one translation and one deepening answer them all. An entry point whose code siren
  // cannot model (an unsupported construct in a function it calls) would make that harness
  // UNKNOWN: it is left out of it, found by the call graph from the construct's place, and its
  // pairs get harnesses of their own; where the place is no entry point's (init, exit), every
  // pair gets its own harness.
  std::vector<std::size_t> together = usable;
  // Its frames hold every entry point's code: r8169's 101 (7,200 lines) outgrow 24 GiB in the
  // points-to and lockset analyses. Past this many, every pair gets its own harness.
  constexpr std::size_t kMaxTogether = 40;
  if (together.size() > kMaxTogether) {
    info["no_harness_of_every_pair"] = fmt::format("more than {} entry points", kMaxTogether);
    if (!a.quiet)
      std::fprintf(stderr, "siren: %s: no harness of every pair (each pair gets its own): more than %zu entry points\n",
                   a.driver.c_str(), kMaxTogether);
    together.clear();
  }
  FrontArgs front = a.front;
  front.includes.clear();
  front.clang_args.insert(front.clang_args.end(), includes.begin(), includes.end());
  const std::string all_name = "all_entry_points.c";
  const std::string all_path = (fs::path(dir) / all_name).string();
  while (together.size() > 1) {
    std::ofstream((all_path), std::ios::trunc) << frontend::driver_harness_all(driver, scan, together);
    const LoadedModel lm = load_model(all_path, front);
    if (lm.tm) break;
    std::smatch at;
    static const std::regex kAt("^(.*):([0-9]+):[0-9]+: ");
    std::vector<std::size_t> out;
    if (lm.unknown && std::regex_search(*lm.unknown, at, kAt))
      out = frontend::entries_reaching(scan, at[1].str(), static_cast<unsigned>(std::stoul(at[2].str())));
    std::vector<std::size_t> kept;
    for (std::size_t e : together)
      if (std::find(out.begin(), out.end(), e) == out.end()) kept.push_back(e);
    if (kept.size() == together.size()) {  // not an entry point's code (or an input error): every pair alone
      const std::string why = lm.unknown ? *lm.unknown : std::string("cannot be translated");
      info["no_harness_of_every_pair"] = why;
      if (!a.quiet)
        std::fprintf(stderr, "siren: %s: no harness of every pair (each pair gets its own): %s\n", a.driver.c_str(),
                     why.c_str());
      together.clear();
      break;
    }
    for (std::size_t e : together)
      if (std::find(kept.begin(), kept.end(), e) == kept.end()) {
        for (auto& en : entries)
          if (en["name"] == scan.entries[e].name) en["alone"] = lm.unknown ? *lm.unknown : std::string("unsupported");
        if (!a.quiet)
          std::fprintf(stderr, "siren: %s: entry point %s gets harnesses of its own: %s\n", a.driver.c_str(),
                       scan.entries[e].name.c_str(), lm.unknown ? lm.unknown->c_str() : "unsupported");
      }
    together = std::move(kept);
  }
  if (together.size() <= 1) together.clear();
  info["entry_points"] = entries;  // with the `alone` reasons
  std::error_code rm;
  if (together.empty()) fs::remove(all_path, rm);

  const std::string manifest = (fs::path(dir) / "manifest.jsonl").string();
  std::ofstream m(manifest, std::ios::trunc);
  std::size_t pairs = 0, alone = 0;
  if (!together.empty()) {
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (std::size_t e : together) names.push_back(scan.entries[e].name);
    nlohmann::ordered_json line = {
        {"program", all_name}, {"clang_args", includes}, {"id", "all"}, {"entry_points", names}};
    m << line.dump() << "\n";
    info["together"] = names;
  }
  // Then the pairs with an entry point left out of it, then the others, each in a harness of
  // its own: a pair's harness is smaller, so its search goes deeper in the time left (a race
  // the harness of every pair does not reach in time; docs/drivers.md). Among the others, an
  // entry point beside itself comes first, then pairs with an interrupt handler, timer or work
  // function: the suite's races are of these kinds (two opens, two llseeks on one file, a
  // callback beside an interrupt), and with --total-timeout not every pair gets its turn.
  auto in_together = [&](std::size_t e) { return std::find(together.begin(), together.end(), e) != together.end(); };
  std::vector<std::pair<int, std::pair<std::size_t, std::size_t>>> order;  // (rank, (x, y))
  for (std::size_t x = 0; x < usable.size(); ++x)
    for (std::size_t y = x; y < usable.size(); ++y) {
      const auto& ea = scan.entries[usable[x]];
      const auto& eb = scan.entries[usable[y]];
      if (x == y && !ea.serial.empty()) continue;  // an interrupt handler, timer, work item, tasklet
      const bool both = in_together(usable[x]) && in_together(usable[y]);
      const int rank = !both ? 0 : x == y ? 1 : !ea.serial.empty() || !eb.serial.empty() ? 2 : 3;
      order.push_back({rank, {x, y}});
    }
  std::stable_sort(order.begin(), order.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
  for (const auto& [rank, xy] : order) {
    const auto [x, y] = xy;
    const auto& ea = scan.entries[usable[x]];
    const auto& eb = scan.entries[usable[y]];
    ++pairs;
    alone += rank == 0 ? 1 : 0;
    const std::string name = harness_name(usable[x], usable[y], ea.name, eb.name);
    std::ofstream h((fs::path(dir) / name).string(), std::ios::trunc);
    h << frontend::driver_harness(driver, scan, usable[x], usable[y]);
    nlohmann::ordered_json line = {{"program", name}, {"clang_args", includes}, {"id", ea.name + "|" + eb.name}};
    m << line.dump() << "\n";
  }
  info["pairs"] = pairs;
  info["pairs_alone"] = alone;
  std::ofstream((fs::path(dir) / "driver.json").string(), std::ios::trunc) << info.dump(2) << "\n";
  if (!m) {
    std::fprintf(stderr, "siren: %s: cannot write the manifest\n", manifest.c_str());
    return kExitInputError;
  }
  if (!a.quiet)
    std::fprintf(stderr,
                 "siren: %s: init %s, exit %s, %zu entry points (%zu left out), %zu pairs (%zu in one harness, "
                 "%zu not); harnesses in %s\n",
                 a.driver.c_str(), scan.init.empty() ? "(none)" : scan.init.c_str(),
                 scan.exit.empty() ? "(none)" : scan.exit.c_str(), scan.entries.size(),
                 scan.entries.size() - usable.size(), pairs, pairs - alone, alone, dir.c_str());
  a.manifest = manifest;
  a.driver_dir = dir;
  a.scan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  a.front.includes.clear();  // in the manifest's lines, after the kernel model
  return 0;
}

}  // namespace siren::app

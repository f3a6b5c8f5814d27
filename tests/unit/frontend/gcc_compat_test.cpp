// GCC forms Clang 16 rejects (frontend/gcc_compat.cpp, issue 43):
//  * the rewrite itself: `__malloc__ (dealloc, n)` loses its arguments, `_Float128` becomes
//    `__float128`, nothing in comments, strings or other identifiers changes, every line stays;
//  * the real thing: this machine's GCC preprocesses a race program over 46 standard headers
//    (at -O0, and at -O2 with _FORTIFY_SOURCE, which pulls in the inline wrappers); Clang alone
//    rejects the `.i` file, the front end translates it, and w's increment is at its own line.
#include "frontend/frontend.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace siren;

namespace {

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("gcc_compat: the two forms rewritten, everything else kept, lines kept") {
  std::size_t n = 0;
  const std::string in =
      "extern FILE *tmpfile (void)\n"
      "  __attribute__ ((__malloc__)) __attribute__ ((__malloc__ (fclose, 1))) ;\n"
      "extern void *f (void) __attribute__ ((__malloc__ (g (1), 2\n   )));\n"
      "extern int h (_Float128 x);\n"
      "const char *s = \"__malloc__ (a, 1) _Float128\"; // __malloc__ (b, 1)\n"
      "/* _Float128 __malloc__ (c) */ int my__malloc__ (int), _Float128x;\n"
      "char c = '\\''; int __malloc__x;\n";
  const std::string out = frontend::gcc_compatible(in, &n);
  CHECK(n == 3);
  CHECK(lines(out) == lines(in));
  const std::string blank11(11, ' '), blank9(9, ' '), blank4(4, ' ');
  CHECK(out.find("((__malloc__)) __attribute__ ((__malloc__ " + blank11 + "))") != std::string::npos);
  // nested parentheses, newline kept
  CHECK(out.find("((__malloc__ " + blank9 + "\n" + blank4 + "));") != std::string::npos);
  CHECK(out.find("extern int h (__float128 x);") != std::string::npos);
  CHECK(out.find("\"__malloc__ (a, 1) _Float128\"; // __malloc__ (b, 1)") != std::string::npos);
  CHECK(out.find("/* _Float128 __malloc__ (c) */ int my__malloc__ (int), _Float128x;") != std::string::npos);
  CHECK(out.find("int __malloc__x;") != std::string::npos);
  std::size_t none = 1;
  CHECK(frontend::gcc_compatible("int main(void) { return 0; }\n", &none) == "int main(void) { return 0; }\n");
  CHECK(none == 0);
}

TEST_CASE("gcc_compat: GCC 12's view of glibc's headers gets through the front end") {
  REQUIRE_MESSAGE(std::system("gcc --version > /dev/null 2>&1") == 0, "gcc is installed by scripts/setup (g++)");
  const std::string dir = "/tmp/siren_gcc_compat_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const char* headers[] = {"stdio.h", "stdlib.h", "pthread.h", "math.h", "string.h", "strings.h", "assert.h",
                           "unistd.h", "time.h", "stdatomic.h", "semaphore.h", "signal.h", "stdint.h", "wchar.h",
                           "wctype.h", "ctype.h", "errno.h", "sys/types.h", "stdbool.h", "sys/time.h", "sys/stat.h",
                           "fcntl.h", "sched.h", "limits.h", "stdarg.h", "setjmp.h", "sys/mman.h", "sys/socket.h",
                           "netinet/in.h", "arpa/inet.h", "dirent.h", "locale.h", "inttypes.h", "complex.h",
                           "fenv.h", "threads.h", "malloc.h", "alloca.h", "sys/wait.h", "sys/resource.h", "poll.h",
                           "sys/select.h", "stddef.h", "float.h", "tgmath.h", "search.h"};
  {
    std::ofstream c(dir + "/race.c");
    for (const char* h : headers) c << "#include <" << h << ">\n";
    c << "int g;\n"
         "void *w(void *a) { g++; return 0; }\n"
         "int main(void) {\n"
         "  pthread_t t;\n"
         "  pthread_create(&t, 0, w, 0);\n"
         "  g++;\n"
         "  pthread_join(t, 0);\n"
         "  return 0;\n"
         "}\n";
  }
  for (const std::string flags : {"", "-O2 -D_FORTIFY_SOURCE=2"}) {
    CAPTURE(flags);
    const std::string i = dir + "/race.i";
    REQUIRE(std::system(("gcc -E " + flags + " " + dir + "/race.c -o " + i).c_str()) == 0);
    std::ifstream in(i);
    const std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t n = 0;
    frontend::gcc_compatible(code, &n);
    CHECK(n >= 19);  // 11 `__malloc__ (...)` and 8 `_Float128` with glibc 2.36
    // Clang alone stops at them
    CHECK(std::system(("clang-16 -fsyntax-only -w -std=gnu11 " + i + " > /dev/null 2>&1").c_str()) != 0);
    const frontend::FrontendResult r = frontend::translate_file(i);
    for (const auto& d : r.diagnostics) MESSAGE(d.file << ":" << d.line << ": " << d.message);
    REQUIRE(r.status == frontend::FrontendStatus::Ok);
    // every line stays where it was: w's g++ is at its line of the `.i` file (siren's places
    // are the file's own lines, as witnesses need them, not the line markers')
    const std::size_t at = code.find("void *w(void *a) { g++;");
    REQUIRE(at != std::string::npos);
    const auto line = static_cast<unsigned>(std::count(code.begin(), code.begin() + static_cast<long>(at), '\n') + 1);
    bool found = false;
    for (const auto& f : r.program->functions)
      if (f.name == "w")
        for (const auto& ins : f.body)
          if (ins.loc.line == line && r.program->files[ins.loc.file] == i) found = true;
    CHECK(found);
  }
  std::filesystem::remove_all(dir);
}

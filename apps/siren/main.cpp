// siren: bounded model checker for pthread C programs. Command-line entry point.
#include <cstdio>
int main() { std::puts("siren: under construction"); return 0; }

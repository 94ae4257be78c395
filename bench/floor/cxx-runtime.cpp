// The C++ runtime's share of the one-event floor comparison: a static C++ program that includes
// <iostream> and does nothing else. Linked statically like the tools, it pays what any such
// program pays before and after main (libstdc++'s static constructors, the classic locale, the
// exception pool); bench/floor/one-event --baselines runs it beside the floor and pmuencode.
#include <iostream>

int main() {
  return 0;
}

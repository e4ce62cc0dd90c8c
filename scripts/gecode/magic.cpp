// Magic squares in Gecode, the same model as examples/magic: n² variables
// over 1..n², distinct (value propagation, as our default), every row,
// column and diagonal summing to n(n²+1)/2 (bounds propagation).
// Counts all solutions. Usage: magic N [size|afc|wdeg] [val|dom]
//   g++ -O2 -o magic magic.cpp -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
#include <gecode/int.hh>
#include <gecode/search.hh>
#include <gecode/minimodel.hh>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace Gecode;

class Magic : public Space {
public:
  IntVarArray x;
  Magic(int n, const char* branch, IntPropLevel ipl) : x(*this, n * n, 1, n * n) {
    const int s = n * (n * n + 1) / 2;
    Matrix<IntVarArray> m(x, n, n);
    distinct(*this, x, ipl);
    for (int i = 0; i < n; i++) {
      linear(*this, m.row(i), IRT_EQ, s);
      linear(*this, m.col(i), IRT_EQ, s);
    }
    IntVarArgs d1(n), d2(n);
    for (int i = 0; i < n; i++) {
      d1[i] = m(i, i);
      d2[i] = m(n - 1 - i, i);
    }
    linear(*this, d1, IRT_EQ, s);
    linear(*this, d2, IRT_EQ, s);
    if (!strcmp(branch, "wdeg"))
      branch_wdeg(n);
    else if (!strcmp(branch, "afc"))
      Gecode::branch(*this, x, INT_VAR_AFC_SIZE_MAX(0.99), INT_VAL_MIN());
    else
      Gecode::branch(*this, x, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  }
  void branch_wdeg(int) {
    // dom/wdeg: Gecode's action/CHB are different; failure-weighted degree
    // over size is INT_VAR_AFC_SIZE_MAX without decay.
    Gecode::branch(*this, x, INT_VAR_AFC_SIZE_MAX(1.0), INT_VAL_MIN());
  }
  Magic(Magic& o) : Space(o) { x.update(*this, o.x); }
  Space* copy() override { return new Magic(*this); }
};

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  const char* br = argc > 2 ? argv[2] : "size";
  IntPropLevel ipl = (argc > 3 && !strcmp(argv[3], "dom")) ? IPL_DOM : IPL_VAL;
  auto t0 = std::chrono::steady_clock::now();
  Magic* root = new Magic(n, br, ipl);
  DFS<Magic> e(root);
  delete root;
  long long count = 0;
  while (Space* s = e.next()) {
    count++;
    delete s;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Search::Statistics st = e.statistics();
  std::cout << count << " solutions, " << st.node << " nodes, " << st.fail << " failures, " << ms << " ms\n";
}

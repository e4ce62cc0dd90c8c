// Golomb rulers in Gecode, the same model as examples/golomb: marks in
// increasing order from 0, differences d_ij = m_j - m_i >= (j-i)(j-i+1)/2,
// distinct (value propagation as ours by default; "bnd" for bounds),
// d_01 < d_(n-2)(n-1), branch on the marks in order, smallest value first,
// branch and bound on the last mark.
// With "implied" as a further argument, also d_ij <= m_(n-1) - r(r+1)/2
// for r = n-1-(j-i): the other gaps of the ruler are distinct differences
// too (the implied constraint of Gecode's own Golomb example).
// Usage: golomb N [val|bnd|dom] [implied]
//   g++ -O2 -o golomb golomb.cpp -lgecodeminimodel -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace Gecode;

class Golomb : public IntMinimizeSpace {
public:
  IntVarArray m;
  Golomb(int n, IntPropLevel ipl, bool implied) : m(*this, n, 0, n * n) {
    rel(*this, m[0], IRT_EQ, 0);
    for (int i = 0; i + 1 < n; i++) rel(*this, m[i], IRT_LE, m[i + 1]);
    IntVarArgs d(n * (n - 1) / 2);
    int k = 0;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        int s = (j - i) * (j - i + 1) / 2;
        d[k] = IntVar(*this, s, n * n);
        rel(*this, d[k] == m[j] - m[i]);
        if (implied) {
          int r = n - 1 - (j - i);
          rel(*this, d[k] <= m[n - 1] - r * (r + 1) / 2);
        }
        k++;
      }
    distinct(*this, d, ipl);
    if (n > 2) rel(*this, d[0], IRT_LE, d[k - 1]);
    branch(*this, m, INT_VAR_NONE(), INT_VAL_MIN());
  }
  Golomb(Golomb& o) : IntMinimizeSpace(o) { m.update(*this, o.m); }
  Space* copy() override { return new Golomb(*this); }
  IntVar cost() const override { return m[m.size() - 1]; }
};

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  IntPropLevel ipl = IPL_VAL;
  if (argc > 2 && !strcmp(argv[2], "bnd")) ipl = IPL_BND;
  if (argc > 2 && !strcmp(argv[2], "dom")) ipl = IPL_DOM;
  bool implied = argc > 3 && !strcmp(argv[3], "implied");
  auto t0 = std::chrono::steady_clock::now();
  Golomb* root = new Golomb(n, ipl, implied);
  BAB<Golomb> e(root);
  delete root;
  int best = -1;
  while (Golomb* s = e.next()) {
    best = s->m[n - 1].val();
    delete s;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << n << " marks: optimal " << best << ", " << e.statistics().node << " nodes, " << ms << " ms\n";
}

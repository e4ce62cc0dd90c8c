// Sudoku in Gecode, for the all-different comparison in docs/benchmarks.md.
// One variable per cell, distinct() per row, column and box at the chosen
// propagation level, first-fail (smallest domain, then input order) and
// the smallest value first: the same model and branching as `csp sudoku`.
//
// Build: g++ -O2 -o sudoku-gecode scripts/gecode/sudoku.cpp \
//          -lgecodeminimodel -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
// Run:   sudoku-gecode val|bnd|dom < puzzles.txt   (one 81-character line each)
#include <gecode/int.hh>
#include <gecode/search.hh>
#include <gecode/minimodel.hh>
#include <chrono>
#include <iostream>
#include <string>

using namespace Gecode;

class Sudoku : public Space {
public:
  IntVarArray x;
  Sudoku(const std::string& p, IntPropLevel ipl) : x(*this, 81, 1, 9) {
    for (int i = 0; i < 81; i++)
      if (p[i] >= '1' && p[i] <= '9') rel(*this, x[i], IRT_EQ, p[i] - '0');
    Matrix<IntVarArray> m(x, 9, 9);
    for (int i = 0; i < 9; i++) {
      distinct(*this, m.row(i), ipl);
      distinct(*this, m.col(i), ipl);
    }
    for (int r = 0; r < 9; r += 3)
      for (int c = 0; c < 9; c += 3) distinct(*this, m.slice(c, c + 3, r, r + 3), ipl);
    branch(*this, x, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  }
  Sudoku(Sudoku& s) : Space(s) { x.update(*this, s.x); }
  Space* copy() override { return new Sudoku(*this); }
};

int main(int argc, char** argv) {
  std::string level = argc > 1 ? argv[1] : "dom";
  IntPropLevel ipl = level == "val" ? IPL_VAL : level == "bnd" ? IPL_BND : IPL_DOM;
  std::string line;
  unsigned long nodes = 0, fails = 0, puzzles = 0, solved = 0;
  auto start = std::chrono::steady_clock::now();
  while (std::getline(std::cin, line)) {
    if (line.size() < 81 || line[0] == '#') continue;
    puzzles++;
    Sudoku* s = new Sudoku(line, ipl);
    Search::Options o;
    o.threads = 1;
    DFS<Sudoku> e(s, o);
    delete s;
    if (Sudoku* sol = e.next()) {
      solved++;
      delete sol;
    }
    nodes += e.statistics().node;
    fails += e.statistics().fail;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << level << ": " << puzzles << " puzzles, " << solved << " solved, " << nodes
            << " nodes, " << fails << " failures, " << ms << " ms" << std::endl;
}

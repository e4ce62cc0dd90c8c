// The replay of a recorded search: `csp queens N --format html` and
// `csp sudoku --format html` write this script into the page, with the
// search as JSON in the element #search-data. No libraries, no network:
// read it top to bottom.
//
// The data: `steps[k]` is node k of the search tree, in the order the
// search met it: `parent` (a node id, null at the root), `depth`, the
// decision `var` := `value` (null at the root), `kind` (root, choice,
// failure, solution), `dom` (every variable's domain after propagation, as
// a list of values), `forced` (variables propagation fixed at this node),
// `culprit` (the variable a failure ran dry or clashed with), `unit` (or
// the cells of a row, column or box left without a place for a value) and
// `text`.
"use strict";

const data = JSON.parse(document.getElementById("search-data").textContent);
const steps = data.steps;
const last = steps.length - 1;
let cur = 0; // the step shown
let timer = null; // the play timer; null when paused

const $ = (id) => document.getElementById(id);

// The variables decided on the path from the root to step k.
function decidedAt(k) {
  const decided = new Set();
  for (let s = steps[k]; s !== null; s = s.parent === null ? null : steps[s.parent]) {
    if (s.var !== null) decided.add(s.var);
  }
  return decided;
}

// ---- the board ------------------------------------------------------------

const side = data.side; // n for queens, 9 for a 9x9 Sudoku
const cells = []; // cells[v][k]: the square for value k+1 of variable v (queens)
                  // or cells[v]: the cell of variable v (Sudoku)

function buildBoard() {
  const board = $("board");
  if (data.puzzle === "queens") {
    buildChessBoard(board);
    return;
  }
  board.style.gridTemplateColumns = `repeat(${side}, var(--cell))`;
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      const el = document.createElement("div");
      el.className = "cell";
      // Thick lines between the boxes.
      if (c % data.box === 0 && c > 0) el.classList.add("box-left");
      if (r % data.box === 0 && r > 0) el.classList.add("box-top");
      el.dataset.var = String(r * side + c);
      cells.push(el);
      board.appendChild(el);
    }
  }
}

// The file letters of column c (0-based): a ... z, aa, ab, ... as the
// terminal prints them.
function file(c) {
  let name = "";
  for (let k = c + 1; k > 0; k = Math.floor((k - 1) / 26)) {
    name = String.fromCharCode(97 + ((k - 1) % 26)) + name;
  }
  return name;
}

// Queens: a chess diagram, as the terminal draws it: rank 1 (row 1) at the
// bottom, file a on the left, a1 dark, the ranks on the left and the files
// below.
function buildChessBoard(board) {
  board.style.gridTemplateColumns = `var(--label) repeat(${side}, var(--cell))`;
  const label = (text) => {
    const el = document.createElement("div");
    el.className = "coord";
    el.textContent = text;
    board.appendChild(el);
  };
  for (let r = 0; r < side; r++) cells.push([]);
  for (let r = side - 1; r >= 0; r--) {
    label(String(r + 1));
    for (let c = 0; c < side; c++) {
      const el = document.createElement("div");
      el.className = "cell";
      if ((r + c) % 2 === 0) el.classList.add("dark");
      el.dataset.row = String(r + 1);
      el.dataset.col = String(c + 1);
      el.title = file(c) + String(r + 1);
      cells[r][c] = el;
      board.appendChild(el);
    }
  }
  label("");
  for (let c = 0; c < side; c++) label(file(c));
}

// Queens: a queen where a row's domain is one column (decided: dark, forced
// by propagation: green), a dot on the columns still open to an undecided
// row, nothing on removed columns; a failure's culprit row is red.
function drawQueens(s, decided) {
  for (let r = 0; r < side; r++) {
    const dom = s.dom[r];
    const fixed = dom.length === 1;
    for (let c = 0; c < side; c++) {
      const el = cells[r][c];
      const here = dom.includes(c + 1);
      const queen = here && (fixed || decided.has(r));
      el.classList.toggle("queen", queen);
      el.classList.toggle("decided", queen && decided.has(r));
      el.classList.toggle("forced", queen && !decided.has(r));
      el.classList.toggle("open", here && !queen);
      el.classList.toggle("culprit", s.culprit === r);
      el.textContent = queen ? "\u265B" : "";
    }
  }
}

// Sudoku: givens in black, decisions in blue, cells fixed by propagation in
// green, the candidates of open cells as small digits; a failure's culprit
// cell is red, a row, column or box left without a place for a value yellow.
function drawSudoku(s, decided) {
  const symbol = (v) => (v <= 9 ? String(v) : String.fromCharCode(55 + v)); // 10 = A
  for (let v = 0; v < cells.length; v++) {
    const el = cells[v];
    const dom = s.dom[v];
    const given = data.givens[v] !== 0;
    el.classList.remove("given", "decided", "forced", "candidates");
    el.classList.toggle("culprit", s.culprit === v);
    el.classList.toggle("unit", s.unit.includes(v));
    if (given || dom.length === 1) {
      el.classList.add(given ? "given" : decided.has(v) ? "decided" : "forced");
      el.textContent = dom.length ? symbol(dom[0]) : "";
    } else {
      el.classList.add("candidates");
      el.style.gridTemplateColumns = `repeat(${data.box}, 1fr)`;
      let html = "";
      for (let k = 1; k <= side; k++) {
        html += `<span>${dom.includes(k) ? symbol(k) : ""}</span>`;
      }
      el.innerHTML = html;
    }
  }
}

// The domains of the variables not decided yet: `q3 {2 4}`, a variable
// fixed by propagation `q4 = 2 (forced)`, an empty domain `q5 {}`.
function drawDomains(s, decided) {
  const parts = [];
  s.dom.forEach((dom, v) => {
    if (decided.has(v) || (data.puzzle === "sudoku" && data.givens[v] !== 0)) return;
    const name = data.names[v];
    if (dom.length === 1) parts.push(`${name} = ${dom[0]} (forced)`);
    else parts.push(`${name} {${dom.join(" ")}}`);
  });
  $("domains").textContent = parts.length ? parts.join("  ") : "(every variable is decided)";
}

// ---- the tree -------------------------------------------------------------

// Layout: leaves side by side in the order met, a parent centred over its
// children, one row per depth. Drawn once as SVG; stepping only changes
// the classes of the nodes.
const DX = 18, DY = 34, R = 6, M = 12; // spacing, node radius, margin
const pos = []; // pos[k] = [x, y] of node k

function buildTree() {
  const children = steps.map(() => []);
  steps.forEach((s, k) => { if (s.parent !== null) children[s.parent].push(k); });
  let nextLeaf = 0;
  (function place(k) { // depth first; trees of 2,000 nodes recurse fine
    const kids = children[k];
    kids.forEach(place);
    const x = kids.length ? (pos[kids[0]][0] + pos[kids[kids.length - 1]][0]) / 2 : M + nextLeaf++ * DX;
    pos[k] = [x, M + steps[k].depth * DY];
  })(0);
  const width = 2 * M + (nextLeaf - 1) * DX;
  const height = 2 * M + Math.max(...steps.map((s) => s.depth)) * DY;
  let svg = `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  steps.forEach((s, k) => {
    if (s.parent === null) return;
    const [x1, y1] = pos[s.parent], [x2, y2] = pos[k];
    svg += `<line id="edge-${k}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  });
  steps.forEach((s, k) => {
    const [x, y] = pos[k];
    // Choices are circles, failures squares, solutions diamonds.
    let shape = `<circle cx="${x}" cy="${y}" r="${R}"/>`;
    if (s.kind === "failure") shape = `<rect x="${x - R}" y="${y - R}" width="${2 * R}" height="${2 * R}"/>`;
    if (s.kind === "solution") {
      shape = `<polygon points="${x},${y - R - 2} ${x + R + 2},${y} ${x},${y + R + 2} ${x - R - 2},${y}"/>`;
    }
    const tip = s.text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    svg += `<g id="node-${k}" class="node ${s.kind}" data-id="${k}"><title>${k}: ${tip}</title>${shape}</g>`;
  });
  $("tree").innerHTML = svg + "</svg>";
  $("tree").addEventListener("click", (e) => {
    const g = e.target.closest(".node");
    if (g) { pause(); show(Number(g.dataset.id)); }
  });
}

// Visited nodes solid, later ones faint, the current one ringed. Only the
// nodes between the step drawn before and this one change.
let drawn = -1; // the step drawn before (-1: none yet, every node faint)
function drawTree() {
  const [from, to] = drawn < cur ? [drawn + 1, cur] : [cur + 1, drawn];
  for (let k = from; k <= to; k++) {
    $(`node-${k}`).classList.toggle("visited", k <= cur);
    const edge = $(`edge-${k}`);
    if (edge) edge.classList.toggle("visited", k <= cur);
  }
  if (drawn >= 0) $(`node-${drawn}`).classList.remove("current");
  $(`node-${cur}`).classList.add("current");
  drawn = cur;
  // Keep the current node in view, once per frame: reading the layout
  // at every step would make a run of steps slow.
  if (!scrolling) {
    scrolling = true;
    requestAnimationFrame(scrollToCurrent);
  }
}

let scrolling = false; // a scroll is waiting for the next frame
function scrollToCurrent() {
  scrolling = false;
  const box = $("tree");
  const [x, y] = pos[cur];
  if (x < box.scrollLeft + 20 || x > box.scrollLeft + box.clientWidth - 20) {
    box.scrollLeft = x - box.clientWidth / 2;
  }
  if (y < box.scrollTop + 20 || y > box.scrollTop + box.clientHeight - 20) {
    box.scrollTop = y - box.clientHeight / 2;
  }
}

// ---- showing a step -------------------------------------------------------

function show(k) {
  cur = Math.max(0, Math.min(last, k));
  const s = steps[cur];
  const decided = decidedAt(cur);
  if (data.puzzle === "queens") drawQueens(s, decided);
  else drawSudoku(s, decided);
  drawDomains(s, decided);
  drawTree();
  $("counter").textContent = `step ${cur} / ${last}`;
  $("text").textContent = s.text;
  $("text").className = s.kind;
  $("slider").value = String(cur);
  document.body.dataset.step = String(cur);
}

// ---- the controls ---------------------------------------------------------

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("play").textContent = "\u25B6 play";
}

function play() {
  if (cur === last) show(0);
  $("play").textContent = "\u275A\u275A pause";
  timer = setInterval(() => {
    if (cur >= last) pause();
    else show(cur + 1);
  }, Number($("speed").value));
}

function buildControls() {
  $("first").onclick = () => { pause(); show(0); };
  $("back").onclick = () => { pause(); show(cur - 1); };
  $("next").onclick = () => { pause(); show(cur + 1); };
  $("last").onclick = () => { pause(); show(last); };
  $("play").onclick = () => (timer === null ? play() : pause());
  $("speed").onchange = () => { if (timer !== null) { pause(); play(); } };
  $("slider").max = String(last);
  $("slider").oninput = () => { pause(); show(Number($("slider").value)); };
  // Keys: arrows step, Home and End jump, space plays (except on a focused
  // button, which space presses, and in the slider and the speed menu).
  document.addEventListener("keydown", (e) => {
    const key = { ArrowRight: "next", ArrowLeft: "back", Home: "first", End: "last", " ": "play" }[e.key];
    const own = ["INPUT", "SELECT"].includes(e.target.tagName) ||
      (e.key === " " && e.target.tagName === "BUTTON");
    if (key && !own) {
      e.preventDefault();
      $(key).click();
    }
  });
}

// A scripted replay from the address, for demonstrations and the tests:
// `?step=K` presses "step" K times, `?steps=K&back=J` then "back" J times,
// `?autoplay=1` (or `?play`) plays from the start. The same in the hash
// (`#step=K`) works too.
function scripted() {
  const q = new URLSearchParams(location.search || location.hash.slice(1));
  const forward = Number(q.get("step") ?? q.get("steps") ?? 0);
  const back = Number(q.get("back") ?? 0);
  for (let i = 0; i < forward; i++) $("next").click();
  for (let i = 0; i < back; i++) $("back").click();
  if (q.has("autoplay") || q.has("play")) play();
}

buildBoard();
buildTree();
buildControls();
$("title").textContent = data.title;
$("result").textContent = `Result: ${data.result}.`;
if (data.note) {
  $("note").textContent = data.note;
  $("note").hidden = false;
}
show(0);
scripted();

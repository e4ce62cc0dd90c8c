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
// `text`; optionally `decided` (the rows holding a queen, when not the
// decisions on the path), `line` (two squares [row, column] to join: a
// refused queen and its attacker) and, for a local search (`data.view` is
// "local"), `moved`, `from`, `counts` (the row whose queen moved, its old
// column, the attackers of each square of the row before the move) and
// `pairs`, with `data.chart` the figures charted in place of the tree.
"use strict";

const data = JSON.parse(document.getElementById("search-data").textContent);
const steps = data.steps;
const last = steps.length - 1;
let cur = 0; // the step shown
let timer = null; // the play timer; null when paused

const $ = (id) => document.getElementById(id);

// The variables decided on the path from the root to step k.
function decidedAt(k) {
  if (steps[k].decided) return new Set(steps[k].decided);
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
      el.classList.remove("ray", "attacker", "count", "from", "attacked");
      el.textContent = queen ? "\u265B" : "";
    }
  }
  if (s.line) drawLine(s.line);
  // A local search: every queen under attack ringed.
  if (data.view === "local") {
    attackingPairs(s).flat().forEach(([r, c]) => cells[r][c].classList.add("culprit"));
  }
  // A move of min-conflicts: the attackers of each square of its row.
  if (s.moved !== undefined && s.moved !== null) {
    s.counts.forEach((count, c) => {
      const el = cells[s.moved][c];
      el.classList.toggle("from", c === s.from - 1);
      if (!el.classList.contains("queen")) {
        el.classList.add("count");
        el.textContent = String(count);
      }
    });
  }
}

// The line of attack from a refused queen to the queen that attacks it:
// every square from one to the other, ends included ([row, column], rows
// from 0, columns from 1). Squares not on one line: the two ends only.
function drawLine([[r1, c1], [r2, c2]]) {
  const [dr, dc] = [Math.sign(r2 - r1), Math.sign(c2 - c1)];
  const aligned = r1 === r2 || c1 === c2 || Math.abs(r2 - r1) === Math.abs(c2 - c1);
  for (let r = r1, c = c1; aligned; r += dr, c += dc) {
    cells[r][c - 1].classList.add("ray");
    if (r === r2 && c === c2) break;
  }
  cells[r1][c1 - 1].classList.add("ray");
  cells[r2][c2 - 1].classList.add("ray", "attacker");
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

// The pairs of queens of a local search's step that attack each other,
// as [[row, column], [row, column]] from 0.
function attackingPairs(s) {
  const q = s.dom.map((d, r) => [r, d[0] - 1]);
  const pairs = [];
  q.forEach(([r1, c1], i) => q.slice(i + 1).forEach(([r2, c2]) => {
    if (c1 === c2 || Math.abs(c1 - c2) === r2 - r1) pairs.push([[r1, c1], [r2, c2]]);
  }));
  return pairs;
}

// The domains of the variables not decided yet: `q3 {2 4}`, a variable
// fixed by propagation `q4 = 2 (forced)`, an empty domain `q5 {}`; for a
// local search, the pairs of queens that attack each other.
function drawDomains(s, decided) {
  if (data.view === "local") {
    const name = ([r, c]) => file(c) + (r + 1);
    const pairs = attackingPairs(s).map(([a, b]) => `${name(a)}\u2013${name(b)}`);
    $("domains").textContent = pairs.length ? `attacking pairs: ${pairs.join(" ")}` : "no queen is attacked";
    return;
  }
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

// ---- the chart of a local search ------------------------------------------

// The figures of `data.chart`, one a step, as lines on a linear axis from
// 0, with a marker on the step shown.
const CW = 520, CH = 220, CM = 40; // plot size, margin
let chartX = null; // step -> x

function buildChart() {
  const count = Math.max(2, ...data.chart.map((sr) => sr.values.length));
  const top = Math.max(1, ...data.chart.flatMap((sr) => sr.values));
  chartX = (i) => CM + (CW * i) / (count - 1);
  const y = (v) => CM / 2 + CH * (1 - v / top);
  const width = CW + 2 * CM, height = CH + CM + 20 * data.chart.length + 20;
  let svg = `<svg id="chart" width="100%" viewBox="0 0 ${width} ${height}">`;
  svg += `<rect class="frame" x="${CM}" y="${CM / 2}" width="${CW}" height="${CH}"/>`;
  svg += `<text x="${CM - 4}" y="${y(top) + 4}" text-anchor="end">${top}</text>`;
  svg += `<text x="${CM - 4}" y="${y(0) + 4}" text-anchor="end">0</text>`;
  svg += `<text x="${CM + CW / 2}" y="${CH + CM / 2 + 16}" text-anchor="middle">step</text>`;
  data.chart.forEach((sr, k) => {
    const points = sr.values.map((v, i) => `${chartX(i)},${y(v)}`).join(" ");
    svg += `<polyline class="series series-${k}" points="${points}"><title>${sr.name}</title></polyline>`;
    const ly = CH + CM / 2 + 36 + 20 * k;
    svg += `<line class="series-${k}" x1="${CM}" y1="${ly - 4}" x2="${CM + 24}" y2="${ly - 4}"/>`;
    svg += `<text x="${CM + 30}" y="${ly}">${sr.name}</text>`;
  });
  svg += `<line id="marker" x1="0" y1="${CM / 2}" x2="0" y2="${CM / 2 + CH}"/>`;
  $("tree").innerHTML = svg + "</svg>";
}

function drawChart() {
  const m = $("marker");
  m.setAttribute("x1", String(chartX(cur)));
  m.setAttribute("x2", String(chartX(cur)));
  m.dataset.step = String(cur);
}

// ---- showing a step -------------------------------------------------------

function show(k) {
  if (playing) setPlaying(false);
  cur = Math.max(0, Math.min(last, k));
  const s = steps[cur];
  const decided = decidedAt(cur);
  if (data.puzzle === "queens") drawQueens(s, decided);
  else drawSudoku(s, decided);
  drawDomains(s, decided);
  if (data.view === "local") drawChart();
  else drawTree();
  $("counter").textContent = `step ${cur} / ${last}`;
  $("text").textContent = s.text;
  $("text").className = s.kind;
  $("slider").value = String(cur);
  document.body.dataset.step = String(cur);
}

// ---- play mode (N-queens) -------------------------------------------------

// The student puts and lifts queens by clicking squares (one queen a row:
// a click on another square of the row moves it). The page works out
// itself which squares the queens attack and the columns left to each row;
// "engine's next step" finds the replayed node whose queens are the
// student's and shows the search's next step below it.
let playing = false;
const mine = new Map(); // row -> column (both from 0)

const attacks = (r1, c1, r2, c2) =>
  r1 === r2 || c1 === c2 || Math.abs(r1 - r2) === Math.abs(c1 - c2);

// The columns a queen on row r could still take: none attacked by a
// queen of another row.
function columnsLeft(r) {
  const left = [];
  for (let c = 0; c < side; c++) {
    if ([...mine].every(([r2, c2]) => r2 === r || !attacks(r, c, r2, c2))) left.push(c);
  }
  return left;
}

function drawPlay(message) {
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      const el = cells[r][c];
      const queen = mine.get(r) === c;
      const hit = [...mine].some(([r2, c2]) => (r2 !== r || c2 !== c) && attacks(r, c, r2, c2));
      el.className = (r + c) % 2 === 0 ? "cell dark" : "cell";
      el.classList.toggle("queen", queen);
      el.classList.toggle("decided", queen);
      el.classList.toggle("attacked", hit && !queen);
      el.classList.toggle("culprit", hit && queen);
      el.textContent = queen ? "\u265B" : "";
    }
  }
  const rows = [];
  let stuck = 0;
  for (let r = 0; r < side; r++) {
    if (mine.has(r)) {
      rows.push(`row ${r + 1}: queen on ${file(mine.get(r))}${r + 1}`);
      continue;
    }
    const left = columnsLeft(r);
    if (left.length === 0) stuck++;
    rows.push(`row ${r + 1}: ${left.length ? left.map(file).join(" ") : "no column left"}`);
  }
  $("domains").textContent = rows.join("  ");
  const clashes = [...mine].filter(([r, c]) =>
    [...mine].some(([r2, c2]) => r2 !== r && attacks(r, c, r2, c2))).length;
  let text = message;
  if (!text) {
    const placed = [...mine].sort((a, b) => a[0] - b[0]).map(([r, c]) => file(c) + (r + 1));
    text = `your queens: ${placed.join(" ") || "none"}`;
    if (clashes) text += `; ${clashes} attacked`;
    else if (mine.size === side) text += " — a solution";
    else if (stuck) text += `; ${stuck} ${stuck === 1 ? "row has" : "rows have"} no column left`;
  }
  $("text").textContent = text;
  $("text").className = "";
  $("counter").textContent = `play: ${mine.size} ${mine.size === 1 ? "queen" : "queens"}`;
}

// The decisions of node k as row -> column (from 0).
function positionOf(k) {
  const at = new Map();
  for (const r of decidedAt(k)) at.set(r, steps[k].dom[r][0] - 1);
  return at;
}

const samePosition = (a, b) => a.size === b.size && [...a].every(([r, c]) => b.get(r) === c);

// The search's next step from the student's position, where the replay
// reaches that position: the first child of that node.
function engineStep() {
  const k = steps.findIndex((s, i) => s.kind !== "failure" && samePosition(positionOf(i), mine));
  if (k < 0) {
    drawPlay("the replayed search never reaches these queens: no next step to show");
    return;
  }
  const j = steps.findIndex((s) => s.parent === k);
  if (j < 0) {
    drawPlay(`step ${k} of the replay holds these queens; the search goes no deeper from there`);
    return;
  }
  const s = steps[j];
  if (s.kind !== "failure") {
    mine.clear();
    positionOf(j).forEach((c, r) => mine.set(r, c));
  }
  drawPlay(`engine, step ${j}: ${s.text}`);
  if (s.kind === "failure" && s.line) drawLine(s.line);
  $("text").className = s.kind;
}

function setPlaying(on) {
  playing = on;
  pause();
  document.body.dataset.mode = on ? "play" : "replay";
  $("mode").textContent = on ? "back to the replay" : "play yourself";
  $("engine").hidden = !on;
  mine.clear();
  if (on) drawPlay();
  else show(cur);
}

function buildPlay() {
  if (data.puzzle !== "queens") {
    $("mode").hidden = true;
    return;
  }
  $("mode").onclick = () => setPlaying(!playing);
  $("engine").onclick = engineStep;
  $("board").addEventListener("click", (e) => {
    const el = e.target.closest(".cell");
    if (!playing || !el) return;
    const [r, c] = [Number(el.dataset.row) - 1, Number(el.dataset.col) - 1];
    if (mine.get(r) === c) mine.delete(r);
    else mine.set(r, c);
    drawPlay();
  });
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
  // Play mode: `?mode=play&click=a1,c2&engine=1` clicks those squares, then
  // "engine's next step" so many times.
  if (q.get("mode") === "play") {
    $("mode").click();
    for (const square of (q.get("click") ?? "").split(",").filter(Boolean)) {
      const el = document.querySelector(`#board .cell[title="${square}"]`);
      if (el) el.click();
    }
    for (let i = 0; i < Number(q.get("engine") ?? 0); i++) $("engine").click();
  }
}

buildBoard();
if (data.view === "local") buildChart();
else buildTree();
buildControls();
buildPlay();
$("title").textContent = data.title;
$("result").textContent = `Result: ${data.result}.`;
if (data.note) {
  $("note").textContent = data.note;
  $("note").hidden = false;
}
show(0);
scripted();

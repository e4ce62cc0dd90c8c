// The explanation page: draws position K of the data (the board before
// step K with the step's cells marked), and moves between positions with
// the buttons, the arrow keys, a click on a step of the list, or
// `?step=K` / `#step=K` in the address (`end` for the last position);
// `&press=` and `&keys=` script the buttons and keys.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("explain-data").textContent);
  const rows = data.rows, cols = data.cols, k = data.box, P = data.positions;
  const steps = P.filter((p) => p.kind === "step").length;
  const $ = (id) => document.getElementById(id);
  let at = 0;

  document.getElementById("summary").textContent = data.summary;

  // The cells, once; each redraw sets their classes and content.
  const board = $("board");
  board.style.gridTemplateColumns = "repeat(" + cols + ", var(--cell))";
  const cells = [];
  for (let c = 0; c < rows * cols; c++) {
    const div = document.createElement("div");
    div.dataset.cell = String(c);
    if (data.names[c] !== null) div.title = data.names[c];
    board.appendChild(div);
    cells.push(div);
  }
  // The small grid of an open cell's candidates: k columns for Sudoku,
  // else about a square.
  const side = (c) => k || Math.max(1, Math.ceil(Math.sqrt(data.slots[c].length)));

  // The list of every step's sentence, to jump to one.
  const list = $("steps");
  P.forEach((p, i) => {
    if (p.kind !== "step") return;
    const li = document.createElement("li");
    li.textContent = p.text[0].replace(/^\d+\. /, "");
    li.dataset.position = String(i);
    li.addEventListener("click", () => go(i));
    list.appendChild(li);
  });

  function draw() {
    const p = P[at];
    const placed = new Map(p.placements.map(([c, d]) => [c, d]));
    const gone = new Set(p.eliminations.map(([c, d]) => c * 64 + d));
    const losing = new Set(p.eliminations.map(([c]) => c));
    const pattern = new Set(p.cells);
    const digits = new Set(p.digits);
    for (let c = 0; c < rows * cols; c++) {
      const div = cells[c];
      const r = Math.floor(c / cols), col = c % cols;
      const cls = ["cell"];
      if (k && col > 0 && col % k === 0) cls.push("box-left");
      if (k && r > 0 && r % k === 0) cls.push("box-top");
      div.textContent = "";
      const v = p.values[c];
      const slots = data.slots[c];
      if (data.names[c] === null) {
        cls.push("none");
      } else if (v !== 0) {
        cls.push(data.givens[c] ? "given" : "placed");
        div.textContent = slots[v - 1];
        div.style.gridTemplateColumns = "";
        div.style.gridTemplateRows = "";
      } else {
        cls.push("open");
        const m = side(c);
        div.style.gridTemplateColumns = "repeat(" + m + ", 1fr)";
        div.style.gridTemplateRows = "repeat(" + Math.ceil(slots.length / m) + ", 1fr)";
        for (let d = 1; d <= slots.length; d++) {
          const span = document.createElement("span");
          const sc = ["c"];
          const has = (p.cands[c] >> d) & 1;
          if (has || placed.get(c) === d) {
            span.textContent = slots[d - 1];
            if (placed.get(c) === d) sc.push("place");
            else if (gone.has(c * 64 + d)) sc.push("gone");
            else if (pattern.has(c) && digits.has(d)) sc.push("pattern");
          }
          span.className = sc.join(" ");
          div.appendChild(span);
        }
      }
      if (placed.has(c)) cls.push("concluded");
      else if (losing.has(c)) cls.push("loses");
      if (pattern.has(c)) cls.push("premise");
      div.className = cls.join(" ");
    }
    const t = p.technique;
    $("technique-name").textContent = t ? t.name : "";
    $("technique-code").textContent = t && t.code ? "(" + t.code + ")" : "";
    $("level").textContent = t && t.level ? "level: " + t.level : "";
    const text = $("text");
    text.textContent = "";
    text.className = p.kind;
    p.text.forEach((line, i) => {
      const para = document.createElement("p");
      para.textContent = line;
      if (i > 0) para.className = "line";
      text.appendChild(para);
    });
    $("counter").textContent =
      p.kind === "step" ? "step " + at + " / " + steps
        : p.kind === "start" ? "start (" + steps + " steps)"
          : p.kind === "end" ? "end (" + steps + " steps)" : "verdict";
    $("first").disabled = $("back").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === P.length - 1;
    for (const li of list.children) {
      const cur = Number(li.dataset.position) === at;
      li.className = cur ? "current" : "";
      // Scroll the list only (not the page) to the current step.
      if (cur) list.scrollTop = li.offsetTop - list.clientHeight / 2;
    }
  }

  function go(i) {
    at = Math.max(0, Math.min(P.length - 1, i));
    draw();
    try {
      history.replaceState(null, "", "#step=" + at);
    } catch (e) {
      // A page opened from a file may refuse: the address stays.
    }
  }

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(at - 1));
  $("next").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(P.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(P.length - 1);
    else return;
    e.preventDefault();
  });

  const q = new URLSearchParams(location.search || location.hash.slice(1));
  const want = q.get("step");
  go(want === "end" ? P.length - 1 : Number.parseInt(want || "0", 10) || 0);
  // Scripted use (the tests): `press=next,back,…` clicks those buttons,
  // then `keys=ArrowRight,Home,…` presses those keys, in order.
  for (const id of (q.get("press") || "").split(",").filter(Boolean)) {
    const b = $(id);
    if (b && b.tagName === "BUTTON") b.click();
  }
  for (const key of (q.get("keys") || "").split(",").filter(Boolean)) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: key }));
  }
})();

// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
// Opens notebooks in a running JupyterLab (started with --LabApp.expose_app_in_browser=True) in headless
// Chromium, as a user would: each one must open untrusted and its committed figures must render; then Run All,
// moving each GoNB widget (select, slider) met on the way and waiting for its output to change, then pressing
// its "Done" button; then the kernel must go idle with every code cell run, the executed notebook must pass
// check_outputs.py (no error output, panic, compile error, non-zero exit), and every figure its outputs hold
// must render (img / svg elements of non-zero size), at least MIN_FIGURES[notebook] of them.
// Screenshots and the executed notebooks are written to OUTDIR.
//
// Usage: node lab-check.mjs BASE_URL TOKEN OUTDIR NOTEBOOK.ipynb...
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [base, token, outdir, ...notebooks] = process.argv.slice(2);
if (!base || !token || !outdir || notebooks.length === 0) {
  console.error("usage: node lab-check.mjs BASE_URL TOKEN OUTDIR NOTEBOOK.ipynb...");
  process.exit(2);
}
mkdirSync(outdir, { recursive: true });

// Figures each notebook shows after Run All in quick mode, at least (with the ARC data for 04; without it its
// cells skip themselves, and MIN_FIGURES_NO_DATA applies). 06 has no such minimum: `make jupyter-setup` installs
// scikit-image's sample images into the clone's .venv/, so 06 must draw its figures (issue 46).
const MIN_FIGURES = {
  "00_quickstart.ipynb": 3, "01_lattice_masks.ipynb": 8, "02_mask_experts.ipynb": 10,
  "03_sample_efficiency.ipynb": 6, "04_arc.ipynb": 12, "05_larc.ipynb": 2, "06_registration.ipynb": 3,
};
const MIN_FIGURES_NO_DATA = { "04_arc.ipynb": 2 };
// Figures that must be among the rendered images after Run All (their alt text).
const REQUIRED_ALTS = {
  "01_lattice_masks.ipynb": ["(a) translation (1, 1)", "(b) rotation by 90°", "(c) vertical reflection", "(d) horizontal reflection"],
};
const NOTEBOOK_TIMEOUT_MS = 20 * 60 * 1000;
const WIDGET_TIMEOUT_MS = 5 * 60 * 1000;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"],
});
const failures = [];
const summary = [];

// In the page: the current notebook panel, its code cells' models and their rendered figures.
const pageHelpers = () => {
  window.__lc = {
    panel: () => window.jupyterapp.shell.currentWidget,
    codeCells: () => window.__lc.panel().content.widgets.filter((c) => c.model.type === "code"),
    // Rendered figures: img (loaded, with pixels) and svg elements of non-zero size in the outputs.
    rendered: (root) => [...root.querySelectorAll(".jp-OutputArea-output img, .jp-OutputArea-output svg")]
      .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
        (e.tagName !== "IMG" || (e.complete && e.naturalWidth > 0)); }).length,
    // Figures the saved outputs hold, counted in the MIME type JupyterLab renders (HTML first).
    expected: (cell) => {
      let n = 0;
      for (let i = 0; i < cell.model.outputs.length; i++) {
        const data = cell.model.outputs.get(i).data || {};
        if (typeof data["text/html"] === "string" || Array.isArray(data["text/html"])) {
          const h = [].concat(data["text/html"]).join("");
          n += (h.match(/<img\b/g) || []).length + (h.match(/<svg\b/g) || []).length;
        } else if (data["image/png"] || data["image/jpeg"] || data["image/svg+xml"]) n++;
      }
      return n;
    },
  };
};

for (const nb of notebooks) {
  const name = nb.split("/").pop();
  const t0 = Date.now();
  const fail = (msg) => { failures.push(`${name}: ${msg}`); console.error(`FAIL ${name}: ${msg}`); };
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on("pageerror", (e) => console.log(`  [page error] ${e.message.slice(0, 200)}`));
  const shot = async (suffix, el) => {
    const path = join(outdir, `${name.replace(/\.ipynb$/, "")}-${suffix}.png`);
    if (el) { await el.scrollIntoViewIfNeeded().catch(() => {}); await page.waitForTimeout(300); }
    await page.screenshot({ path });
    return path;
  };
  console.log(`${name}: opening`);
  try {
    await page.goto(`${base}/lab/tree/${nb}?reset&token=${token}`, { waitUntil: "load", timeout: 120000 });
    await page.waitForFunction((nb) => {
      const w = window.jupyterapp?.shell?.currentWidget;
      return w && w.context && w.context.path === nb && w.context.isReady && w.content.widgets.length > 0;
    }, nb, { timeout: 120000 });
    await page.evaluate(pageHelpers);
    // The kernel of the notebook's metadata (gonb), started and connected; its kernel_info answered (GoNB
    // publishes no status around kernel_info, so Lab shows it as "unknown" until the first execution).
    await page.waitForFunction(() => {
      const k = window.__lc.panel().sessionContext.session?.kernel;
      if (k && k.connectionStatus === "connected" && !window.__lc.infoAsked) {
        window.__lc.infoAsked = true;
        k.info.then(() => { window.__lc.info = true; });
      }
      return window.__lc.info === true;
    }, null, { timeout: 180000 });
    const kernelName = await page.evaluate(() => window.__lc.panel().sessionContext.session.kernel.name);
    if (kernelName !== "gonb") fail(`kernel is ${kernelName}, not gonb`);
    await page.waitForTimeout(1500); // let the committed outputs' images load
    // 1. Opened untrusted, and the committed figures render.
    const opened = await page.evaluate(() => {
      const cells = window.__lc.codeCells().filter((c) => c.model.outputs.length > 0);
      return {
        trusted: cells.filter((c) => c.model.trusted).length, withOutputs: cells.length,
        expected: cells.reduce((n, c) => n + window.__lc.expected(c), 0),
        rendered: cells.reduce((n, c) => n + window.__lc.rendered(c.node), 0),
        missing: cells.filter((c) => window.__lc.rendered(c.node) < window.__lc.expected(c))
          .map((c) => c.model.sharedModel.getSource().split("\n").find((l) => l.trim() && !l.startsWith("//")) || ""),
      };
    });
    console.log(`${name}: opened, ${opened.withOutputs} code cells with committed outputs, ${opened.trusted} trusted; ` +
      `committed figures: ${opened.rendered} rendered of ${opened.expected}`);
    if (opened.trusted > 0) fail(`${opened.trusted} cells opened trusted (the check must see what a fresh clone shows)`);
    if (opened.rendered < opened.expected) fail(`committed figures not rendered while untrusted, in cells: ${JSON.stringify(opened.missing)}`);
    // The first committed chart (an <img> with an SVG source), else the first image, as the untrusted notebook shows it.
    await page.evaluate(() => {
      const imgs = [...document.querySelectorAll(".jp-OutputArea-output img")];
      const el = imgs.find((i) => i.src.startsWith("data:image/svg+xml")) || imgs[0];
      if (el) el.scrollIntoView({ block: "center" });
    });
    await page.waitForTimeout(300);
    await shot("0-opened");

    // 2. Run All.
    await page.evaluate(() => {
      window.__lc.runAll = "running";
      window.jupyterapp.commands.execute("notebook:run-all-cells").then(
        (ok) => { window.__lc.runAll = ok === false ? "failed" : "done"; },
        (e) => { window.__lc.runAll = "error: " + e; });
    });
    const handled = new Set();
    const widgets = [];
    let finished = false;
    while (Date.now() - t0 < NOTEBOOK_TIMEOUT_MS) {
      const st = await page.evaluate(() => {
        const cells = window.__lc.codeCells();
        const k = window.__lc.panel().sessionContext.session?.kernel;
        const running = cells.findIndex((c) => c.model.executionState === "running" || c.promptNode?.textContent.includes("*"));
        const w = running >= 0 ? cells[running].node.querySelector(".jp-OutputArea-output select, .jp-OutputArea-output input[type=range]") : null;
        return { runAll: window.__lc.runAll, kernel: k ? k.status : "none", running, widget: w ? w.tagName : null,
                 ran: cells.filter((c) => c.model.executionCount != null).length, total: cells.length };
      });
      if (st.kernel === "dead" || st.kernel === "none") { fail("kernel died"); break; }
      if (st.widget && !handled.has(st.running)) {
        handled.add(st.running);
        widgets.push(await exerciseWidget(page, st.running, st.widget, name, shot, fail));
        continue;
      }
      if (st.runAll !== "running" && (st.kernel === "idle" || st.kernel === "unknown") && st.running < 0) {
        if (st.runAll !== "done") fail(`Run All: ${st.runAll}`);
        if (st.ran < st.total) fail(`${st.total - st.ran} of ${st.total} code cells did not run`);
        finished = true;
        break;
      }
      await page.waitForTimeout(1000);
    }
    if (!finished && !failures.some((f) => f.startsWith(name))) fail(`Run All did not finish in ${NOTEBOOK_TIMEOUT_MS / 60000} minutes`);
    await page.waitForTimeout(1500);

    // 3. The executed notebook: check_outputs.py, and its figures.
    const executed = await page.evaluate(() => JSON.stringify(window.__lc.panel().context.model.toJSON()));
    const executedPath = join(outdir, "executed", name);
    mkdirSync(dirname(executedPath), { recursive: true });
    writeFileSync(executedPath, executed);
    try {
      execFileSync("python3", [join(here, "..", "check_outputs.py"), executedPath], { stdio: "inherit" });
    } catch { fail("check_outputs.py found failed cells (above)"); }
    const after = await page.evaluate(() => {
      const cells = window.__lc.codeCells();
      return {
        expected: cells.reduce((n, c) => n + window.__lc.expected(c), 0),
        rendered: cells.reduce((n, c) => n + window.__lc.rendered(c.node), 0),
        missing: cells.filter((c) => window.__lc.rendered(c.node) < window.__lc.expected(c))
          .map((c) => c.model.sharedModel.getSource().split("\n").find((l) => l.trim() && !l.startsWith("//")) || ""),
        // 04 without the ARC data: cells skip themselves.
        noData: document.body.innerText.includes("ARC data not found"),
        alts: [...document.querySelectorAll(".jp-OutputArea-output img")].filter((i) => i.naturalWidth > 0).map((i) => i.alt),
      };
    });
    const min = (after.noData && MIN_FIGURES_NO_DATA[name]) || MIN_FIGURES[name] || 1;
    if (after.rendered < after.expected) fail(`figures not rendered after Run All, in cells: ${JSON.stringify(after.missing)}`);
    for (const alt of REQUIRED_ALTS[name] || []) if (!after.alts.includes(alt)) fail(`figure missing after Run All: ${alt}`);
    if (after.rendered < min) fail(`${after.rendered} figures rendered after Run All, fewer than ${min}`);
    await page.evaluate(() => { const o = [...document.querySelectorAll(".jp-OutputArea-output")].pop(); if (o) o.scrollIntoView({ block: "end" }); });
    await shot("2-done");
    await page.evaluate(() => { const i = document.querySelector(".jp-OutputArea-output img"); if (i) i.scrollIntoView({ block: "center" }); });
    await page.waitForTimeout(300);
    await shot("3-first-figure");
    const secs = Math.round((Date.now() - t0) / 1000);
    const line = `${name}: Run All done in ${secs} s, ${after.rendered} figures rendered (${after.expected} in the outputs), ` +
      `widgets: ${widgets.length ? widgets.join("; ") : "none"}`;
    console.log(line);
    summary.push(line);
  } catch (e) {
    fail(`${e.message.split("\n")[0]}`);
    await shot("error").catch(() => {});
  }
  await page.close();
}

// Moves the widget of the running cell (the select to its next option, the slider to another value), waits for the
// cell's figures to change, saves a screenshot and presses the cell's "Done" button.
async function exerciseWidget(page, cellIndex, kind, name, shot, fail) {
  const cell = (await page.$$(".jp-Notebook .jp-CodeCell"))[cellIndex];
  // Wait until the widget's program shows its first figure.
  const signature = () => page.evaluate((i) => {
    const c = window.__lc.codeCells()[i];
    return [...c.node.querySelectorAll(".jp-OutputArea-output img")].map((e) => e.src.slice(-200)).join("|") +
      "#" + window.__lc.rendered(c.node);
  }, cellIndex);
  const t0 = Date.now();
  let before = await signature();
  while (before.endsWith("#0") && Date.now() - t0 < WIDGET_TIMEOUT_MS) { await page.waitForTimeout(500); before = await signature(); }
  await page.waitForTimeout(1000);
  before = await signature();
  await page.evaluate((i) => window.__lc.codeCells()[i].node.querySelector(".jp-OutputArea")?.scrollIntoView({ block: "start" }), cellIndex);
  await shot(`1-widget-before`);
  const moved = await page.evaluate(([i, kind]) => {
    const c = window.__lc.codeCells()[i];
    const el = c.node.querySelector(kind === "SELECT" ? ".jp-OutputArea-output select" : ".jp-OutputArea-output input[type=range]");
    let to;
    if (kind === "SELECT") { to = (el.selectedIndex + 1) % el.options.length; el.selectedIndex = to; to = el.options[to].text; }
    else { to = Number(el.value) < Number(el.max) ? Number(el.max) : Number(el.min); el.value = String(to); }
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return String(to);
  }, [cellIndex, kind]);
  let changed = false;
  while (Date.now() - t0 < WIDGET_TIMEOUT_MS) {
    await page.waitForTimeout(1000);
    const now = await signature();
    if (now !== before && !now.endsWith("#0")) { changed = true; break; }
  }
  await page.waitForTimeout(1500);
  // A tall screenshot of the outputs only (code hidden for it), ending at the cell's last output: the widget,
  // what it redrew and the outputs above it.
  await page.setViewportSize({ width: 1280, height: 2000 });
  await page.evaluate(() => window.jupyterapp.commands.execute("notebook:hide-all-cell-code"));
  await page.waitForTimeout(500);
  await page.evaluate((i) => {
    const outs = window.__lc.codeCells()[i].node.querySelectorAll(".jp-OutputArea-output");
    if (outs.length) outs[outs.length - 1].scrollIntoView({ block: "end" });
  }, cellIndex);
  await page.waitForTimeout(500);
  const path = await shot(`1-widget-after`);
  await page.evaluate(() => window.jupyterapp.commands.execute("notebook:show-all-cell-code"));
  await page.setViewportSize({ width: 1280, height: 1000 });
  const desc = `${kind.toLowerCase()} moved to ${moved}: output ${changed ? "changed" : "DID NOT change"} (${path})`;
  console.log(`  ${name}: ${desc}`);
  if (!changed) fail(`the ${kind.toLowerCase()} moved to ${moved} did not change the cell's figures in ${WIDGET_TIMEOUT_MS / 60000} minutes`);
  const done = await page.evaluate((i) => {
    const b = [...window.__lc.codeCells()[i].node.querySelectorAll(".jp-OutputArea-output button")].find((b) => b.textContent.trim() === "Done");
    if (b) b.click();
    return !!b;
  }, cellIndex);
  if (!done) fail(`no "Done" button in the widget cell`);
  return desc;
}

await browser.close();
console.log("\n" + summary.join("\n"));
if (failures.length > 0) {
  console.error(`\nlab-check FAILED (${failures.length}):\n  ` + failures.join("\n  "));
  process.exit(1);
}
console.log(`lab-check OK: ${notebooks.length} notebooks opened untrusted, run, figures rendered, widgets changed their output; screenshots in ${outdir}`);

// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
// Opens a notebook served by a local Jupyter Notebook server in headless Chromium, runs all cells,
// checks that no cell failed and that the Figure 2 mask images are there, and saves a screenshot.
// Usage: node check.mjs URL SCREENSHOT.png
import { chromium } from "playwright-core";

const [url, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"],
});
const fail = async (msg) => {
  console.error("browser-check FAILED: " + msg);
  try { await page.screenshot({ path: shot, fullPage: true }); } catch {}
  await browser.close();
  process.exit(1);
};
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(url, { waitUntil: "load", timeout: 60000 });
// Wait for the notebook app and a connected, idle kernel.
await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
  Jupyter.notebook.kernel.is_connected(), null, { timeout: 120000 }).catch(() => fail("kernel did not connect"));
console.log("kernel connected:", await page.evaluate(() => Jupyter.notebook.kernel.name));
await page.evaluate(() => { Jupyter.notebook.clear_all_output(); Jupyter.notebook.execute_all_cells(); });
// Wait until every code cell has run (numeric prompt) and the kernel is idle.
const done = () => {
  const cells = Jupyter.notebook.get_cells().filter((c) => c.cell_type === "code");
  const ran = cells.every((c) => typeof c.input_prompt_number === "number");
  const idle = document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null;
  return ran && idle;
};
await page.waitForFunction(done, null, { timeout: 600000, polling: 1000 }).catch(() => fail("cells did not finish in 10 minutes"));
const report = await page.evaluate(() => {
  const errors = [...document.querySelectorAll(".output_error, .output_stderr")].map((e) => e.innerText.slice(0, 300));
  const texts = [...document.querySelectorAll(".output_area")].map((e) => e.innerText);
  const kernelErrors = texts.filter((t) => /panic:|failed to run|ERROR:/.test(t)).map((t) => t.slice(0, 300));
  const masks = [...document.querySelectorAll(".output_area img")].filter((i) => i.alt.startsWith("(") && i.naturalWidth > 0);
  const dead = document.querySelector("#kernel_indicator_icon.kernel_dead_icon") !== null;
  return { errors, kernelErrors, maskAlts: masks.map((i) => i.alt), dead, cells: Jupyter.notebook.get_cells().length };
});
console.log(JSON.stringify(report, null, 1));
// Scroll Figure 2 into view for the screenshot.
// (The notebook scrolls inside #site, not the window: center the first mask image in its container.)
await page.evaluate(() => { const img = document.querySelector(".output_area img"); if (img) img.scrollIntoView({ block: "center" }); });
await page.screenshot({ path: shot, fullPage: false });
if (report.dead) await fail("kernel died");
if (report.errors.length > 0 || report.kernelErrors.length > 0) await fail("cell errors: " + JSON.stringify([...report.errors, ...report.kernelErrors]));
const wanted = ["(a) translation (1, 1)", "(b) rotation by 90°", "(c) vertical reflection", "(d) horizontal reflection"];
for (const w of wanted) {
  if (!report.maskAlts.includes(w)) await fail("mask image missing: " + w);
}
console.log("browser-check OK: all cells ran, no errors, " + report.maskAlts.length + " mask images; screenshot " + shot);
await browser.close();

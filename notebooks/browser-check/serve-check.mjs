// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
// Drives the ARC browser (`latformer serve`) in headless Chromium as a person would: open the task list,
// filter to Reflect, open a task, label it (priors and a note), save, reload, see the label; then the
// export shows it next to the definition. Every step is asserted; a screenshot of the labelled task page
// is saved. Exits non-zero on any failure (with a screenshot of the page it failed on).
// Usage: node serve-check.mjs BASE_URL TASK_ID SCREENSHOT.png
import { chromium } from "playwright-core";

const [base, taskID, shot] = process.argv.slice(2);
if (!base || !taskID || !shot) {
  console.error("usage: node serve-check.mjs BASE_URL TASK_ID SCREENSHOT.png");
  process.exit(2);
}
const started = Date.now();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"],
});
const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
const problems = [];
page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
page.on("pageerror", (e) => problems.push("page error: " + e.message));
page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`); });

const fail = async (msg) => {
  console.error("serve-check FAILED: " + msg);
  try { await page.screenshot({ path: shot, fullPage: true }); console.error("screenshot of the failure: " + shot); } catch {}
  await browser.close();
  process.exit(1);
};
const step = (msg) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${msg}`);
const check = async (cond, msg) => { if (!cond) await fail(msg); };
// Every <img> of the page has loaded and has pixels.
const imagesLoaded = () => page.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));

// 1. The task list.
await page.goto(base + "/", { waitUntil: "load" });
const total = await page.locator("#tasks tbody tr[data-task]").count();
await check(total > 0, "the task list is empty");
step(`list: ${total} tasks`);

// 2. Filter to Reflect with the category bar.
const reflectChip = page.locator('nav.chips a[data-category="reflect"]');
const expected = Number(await reflectChip.locator(".n").innerText());
await Promise.all([page.waitForURL(/category=reflect/), reflectChip.click()]);
const cats = await page.locator("#tasks tbody tr[data-task]").evaluateAll((rows) => rows.map((r) => r.dataset.category));
await check(cats.length === expected && cats.length > 0 && cats.length < total,
  `filter Reflect: ${cats.length} rows, the chip says ${expected} (of ${total})`);
await check(cats.every((c) => c === "reflect"), "filter Reflect shows other categories: " + [...new Set(cats)].join(", "));
await check(await page.locator('nav.chips a.active[data-category="reflect"]').count() === 1, "the Reflect chip is not marked active");
await page.waitForLoadState("networkidle");
step(`filter Reflect: ${cats.length} tasks, all reflect`);

// 3. Open the task.
const link = page.locator(`#tasks tr[data-task="${taskID}"] a.task-link`);
await check(await link.count() === 1, `task ${taskID} is not in the Reflect list`);
await Promise.all([page.waitForURL(new RegExp(`/task/${taskID}`)), link.click()]);
await check((await page.locator("h1").innerText()).includes(taskID), "the task page does not name the task");
await check((await page.locator("#category").innerText()).trim() === "reflect", "the task page does not say reflect");
const pairs = await page.locator(".pair").count();
await check(pairs >= 2, `only ${pairs} pairs drawn`);
await check(await imagesLoaded(), "an image of the task page did not load");
const preds = await page.locator("figure.pred").count();
const exact = await page.locator("figure.pred.exact").count();
const masks = await page.locator(".masks img").count();
await check(preds >= 1 && exact >= 1, `prediction: ${preds} shown, ${exact} exact`);
await check(masks >= 1, "no mask picture of the action read from the gates");
await check(await page.locator("text=prediction not recorded").count() >= 1, "the older results file does not say 'prediction not recorded'");
step(`task ${taskID}: ${pairs} pairs, ${preds} predictions (${exact} exact), ${masks} mask pictures, all images loaded`);

// 4. Label it: the reflection prior and a note; save.
const note = `flipped upside down (browser check ${new Date().toISOString()})`;
for (const box of await page.locator('input[name="priors"]').all()) await box.setChecked(false);
await page.locator('input[name="priors"][value="reflection"]').check();
await page.locator("#note").fill(note);
await Promise.all([page.waitForURL(/saved=1/), page.locator("#save").click()]);
await check((await page.locator("#flash").innerText()).includes("Label saved"), "no 'Label saved' message after saving");
step("saved: reflection + note");

// 5. Reload: the label is there.
await page.reload({ waitUntil: "load" });
await check(await page.locator('input[name="priors"][value="reflection"]').isChecked(), "after reload the reflection prior is not checked");
const others = await page.locator('input[name="priors"]:checked').count();
await check(others === 1, `after reload ${others} priors are checked, want 1`);
await check(await page.locator("#note").inputValue() === note, "after reload the note is not the one saved");
await check((await page.locator("#agreement").innerText()).trim() === "agree", "the label (reflection) does not agree with the definition (reflect)");
step("reload: prior checked, note kept, agrees with the definition");

// 6. The export and the list show it.
await page.goto(base + "/export", { waitUntil: "load" });
const row = page.locator(`#agreement-table tr[data-task="${taskID}"]`);
await check(await row.count() === 1 && (await row.getAttribute("data-agree")) === "true", "the export does not list the label as agreeing");
await page.goto(base + "/?category=reflect&label=labelled", { waitUntil: "load" });
await check(await page.locator(`#tasks tr[data-task="${taskID}"]`).count() === 1, "the list filtered to labelled tasks does not show the task");
step("export: agree; list filter 'labelled' shows the task");

// 7. Bad input gets a clear page, not a stack trace.
const bad = await page.goto(base + "/task/..%2F..%2Fetc%2Fpasswd", { waitUntil: "load" });
await check(bad.status() === 400 && (await page.locator("#error-message").innerText()).includes("is not a task id"), `traversal attempt: status ${bad.status()}`);
problems.splice(0); // the 400 above is expected

// The screenshot: the labelled task page, reached through the filter.
await page.goto(`${base}/task/${taskID}?category=reflect`, { waitUntil: "load" });
await check(await imagesLoaded(), "an image of the task page did not load");
await page.screenshot({ path: shot, fullPage: true });
await check(problems.length === 0, "problems while browsing: " + problems.join("; "));
step(`serve-check OK; screenshot ${shot}`);
await browser.close();

// A person's own notebooks, made in the browser, across container restarts
// (docker/ci.sh):
//   create    makes a notebook in each kernel through the UI (File > New),
//             adds and runs cells that draw figures, saves it; the names go
//             to OUTDIR/usernb.json;
//   reopen    after a restart: each notebook opens trusted and draws every
//             figure (SVG), with no "untrusted output" message;
//   untrusted after the signatures were lost: each notebook opens untrusted
//             and still draws every figure (the PNG beside the SVG).
// Screenshots go to OUTDIR. Only 127.0.0.1 is ever contacted.
//
//   node usernb.js URL TOKEN OUTDIR PHASE [CHROMIUM]
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [url, token, outdir, phase, exe = "/usr/bin/chromium"] = process.argv.slice(2);
if (!url || !token || !outdir || !["create", "reopen", "untrusted"].includes(phase)) {
  console.error("usage: node usernb.js URL TOKEN OUTDIR create|reopen|untrusted [CHROMIUM]");
  process.exit(2);
}
const failures = [];
function check(ok, what) {
  console.log(`usernb ${phase}: ${ok ? "ok" : "FAILED"}: ${what}`);
  if (!ok) failures.push(what);
}

const series = 'viz.Lines([]viz.Series{{Name: "mine", X: []float64{1, 2, 3, 4}, Y: []float64{1, 3, 2, 4}}}, viz.Options{Title: "A figure of my own"})';
// The cells a person writes, per kernel, and the figures they draw.
const kernels = [
  {
    name: "credlab-go", display: "Go (credlab)", figures: 2,
    cells: [
      'import "github.com/credlab/credlab/viz"',
      `fig, err := ${series}\nfig`,
      // Figures made in a loop, shown together; a nil one says why.
      `var figs []*viz.Figure\nfor i := 0; i < 2; i++ {\n\tf, _ := ${series}\n\tfigs = append(figs, f)\n}\nviz.Show(append(figs, nil)...)`,
    ],
  },
  {
    name: "credlab-gonb", display: "Go (GoNB)", figures: 2,
    cells: [
      'import (\n\t"github.com/credlab/credlab/viz"\n\t"github.com/janpfeifer/gonb/gonbui"\n\t"github.com/janpfeifer/gonb/gonbui/protocol"\n)',
      // The display helper of the GoNB starter notebook.
      "// show displays figures as SVG with a PNG beside it (shown when the notebook is not trusted).\n" +
      "func show(figs ...*viz.Figure) {\n\tf := viz.Show(figs...)\n\tgonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{\n" +
      "\t\tprotocol.MIMEImageSVG: f.SVG(), protocol.MIMEImagePNG: f.PNG(), protocol.MIMETextPlain: f.String()}})\n}",
      `%%\nfig, err := ${series}\nif err != nil {\n\tpanic(err)\n}\nshow(fig)`,
      `%%\nvar figs []*viz.Figure\nfor i := 0; i < 2; i++ {\n\tf, _ := ${series}\n\tfigs = append(figs, f)\n}\nshow(append(figs, nil)...)`,
    ],
  },
];

// drawn lists the figures in the page's output areas: inline SVG elements
// and images, with their sizes.
const drawnInPage = () =>
  Array.from(document.querySelectorAll(".output_area svg, .output_area img"))
    .filter((e) => !e.parentElement.closest("svg")).map((e) => {
    const r = e.getBoundingClientRect();
    return [e.tagName.toLowerCase(), Math.round(r.width), Math.round(r.height)];
  });

async function shot(page, file) {
  const tall = await page.evaluate(() => document.querySelector("#notebook").scrollHeight + 150);
  await page.setViewportSize({ width: 1280, height: Math.min(tall, 20000) });
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(outdir, file) });
}

async function open(ctx, name) {
  const page = await ctx.newPage();
  const log = [];
  page.on("console", (m) => log.push(m.text()));
  await page.goto(`${url}/notebooks/${encodeURIComponent(name)}?token=${token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  return [page, log];
}

async function create(ctx) {
  const made = [];
  const tree = await ctx.newPage();
  await tree.goto(`${url}/tree?token=${token}`);
  for (const k of kernels) {
    await tree.click("#new-dropdown-button");
    const [page] = await Promise.all([ctx.waitForEvent("page"), tree.click(`#new-menu >> text="${k.display}"`)]);
    await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
      Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected(), null, { timeout: 120000 });
    const name = await page.evaluate(() => Jupyter.notebook.notebook_name);
    for (let i = 0; i < k.cells.length; i++) {
      await page.evaluate(([i, code]) => {
        const nb = Jupyter.notebook;
        if (i >= nb.ncells()) nb.insert_cell_below("code", i - 1);
        nb.select(i);
        nb.get_cell(i).set_text(code);
        nb.get_cell(i).focus_editor();
      }, [i, k.cells[i]]);
      await page.keyboard.press("Control+Enter"); // run the cell, as a person does
      await page.waitForFunction((i) => typeof Jupyter.notebook.get_cell(i).input_prompt_number === "number", i, { timeout: 600000 });
      await page.waitForTimeout(1000); // GoNB may publish just after its reply
      const errors = await page.evaluate((i) => Jupyter.notebook.get_cell(i).output_area.outputs
        .filter((o) => o.output_type === "error").map((o) => o.ename + ": " + o.evalue), i);
      check(errors.length === 0, `${k.name}: cell ${i + 1} runs${errors.length ? ": " + errors.join("; ").slice(0, 500) : ""}`);
    }
    const figs = (await page.evaluate(drawnInPage)).filter(([, w, h]) => w > 0 && h > 0).length;
    check(figs >= k.figures, `${k.name}: ${figs} figures drawn before saving (want ${k.figures})`);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+s");
    await page.waitForFunction(() => !Jupyter.notebook.dirty, null, { timeout: 30000 });
    await shot(page, `usernb-${k.name}-created.png`);
    made.push({ name, kernel: k.name, figures: k.figures });
    await page.close();
  }
  fs.writeFileSync(path.join(outdir, "usernb.json"), JSON.stringify(made, null, 1));
}

async function reopen(ctx) {
  const made = JSON.parse(fs.readFileSync(path.join(outdir, "usernb.json")));
  check(made.length === kernels.length, `${made.length} notebooks made in the browser to reopen`);
  for (const m of made) {
    const [page, log] = await open(ctx, m.name);
    const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
    const drawn = (await page.evaluate(drawnInPage)).filter(([, w, h]) => w > 0 && h > 0);
    const kinds = drawn.map(([t]) => t);
    const untrustedMsgs = log.filter((t) => /untrusted/i.test(t));
    await shot(page, `usernb-${m.kernel}-${phase}.png`);
    if (phase === "reopen") {
      check(trusted, `${m.name} (${m.kernel}): opens trusted after the restart`);
      check(kinds.filter((t) => t === "svg").length >= m.figures,
        `${m.name} (${m.kernel}): ${kinds.length} figures drawn (${kinds.join(" ")}), ${m.figures} of them as SVG wanted`);
      check(untrustedMsgs.length === 0, `${m.name}: no "untrusted output" messages${untrustedMsgs.length ? ": " + untrustedMsgs[0] : ""}`);
    } else {
      check(!trusted, `${m.name} (${m.kernel}): opens untrusted once its signature is gone (the check is meaningful)`);
      check(kinds.filter((t) => t === "img").length >= m.figures,
        `${m.name} (${m.kernel}): still draws its figures untrusted: ${kinds.join(" ") || "none"} (${m.figures} images wanted)`);
    }
    await page.close();
  }
}

(async () => {
  fs.mkdirSync(outdir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: exe,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.route("**/*", (r) => {
    const h = new URL(r.request().url()).hostname;
    return h === "127.0.0.1" || r.request().url().startsWith("data:") ? r.continue() : r.abort();
  });
  if (phase === "create") await create(ctx);
  else await reopen(ctx);
  await browser.close();
  if (failures.length) {
    console.log(`usernb ${phase}: ${failures.length} check(s) failed`);
    process.exit(1);
  }
  console.log(`usernb ${phase}: all checks passed`);
})().catch((e) => {
  console.error("usernb:", e);
  process.exit(1);
});

// Opens every notebook of a running lab server in headless Chromium, as a
// user would, and checks what is on the screen (docker/ci.sh):
//  - the notebook is trusted, and every stored image/svg+xml output is drawn
//    as an SVG element of nonzero size; no raw "<svg" text is visible;
//  - File > Download as > HTML (/nbconvert/html) keeps every SVG figure, and
//    the exported page, opened in the browser, draws them.
// Screenshots go to OUTDIR. Only 127.0.0.1 is ever contacted.
//
//   node check.js URL TOKEN OUTDIR [CHROMIUM]
// (playwright-core must be on NODE_PATH.)
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [url, token, outdir, exe = "/usr/bin/chromium"] = process.argv.slice(2);
if (!url || !token || !outdir) {
  console.error("usage: node check.js URL TOKEN OUTDIR [CHROMIUM]");
  process.exit(2);
}
const failures = [];
function check(ok, what) {
  console.log(`browser: ${ok ? "ok" : "FAILED"}: ${what}`);
  if (!ok) failures.push(what);
}

// figures counts the SVG figures stored in a notebook: image/svg+xml
// outputs, and text/html ones holding an <svg> (GoNB's gonbui.DisplaySVG).
function figures(nb) {
  let n = 0;
  for (const c of nb.cells) {
    for (const o of c.outputs || []) {
      const d = o.data || {};
      const html = [].concat(d["text/html"] || []).join("");
      if (d["image/svg+xml"] || html.includes("<svg")) n++;
    }
  }
  return n;
}

// drawn returns the SVG figures in the page's output areas with their sizes.
const drawnInPage = (sel) =>
  Array.from(document.querySelectorAll(sel)).map((s) => {
    const r = s.getBoundingClientRect();
    return [Math.round(r.width), Math.round(r.height)];
  });

(async () => {
  fs.mkdirSync(outdir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: exe,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Loopback only.
  await ctx.route("**/*", (r) => {
    const h = new URL(r.request().url()).hostname;
    return h === "127.0.0.1" || r.request().url().startsWith("data:") ? r.continue() : r.abort();
  });
  const api = async (p) => {
    const res = await ctx.request.get(`${url}${p}`, { headers: { Authorization: `token ${token}` } });
    if (!res.ok()) throw new Error(`${p}: HTTP ${res.status()}`);
    return res;
  };
  const listing = await (await api("/api/contents")).json();
  const names = listing.content.filter((c) => c.type === "notebook").map((c) => c.name).sort();
  check(names.length > 0, `the server lists ${names.length} notebooks`);
  for (const name of names) {
    const nb = (await (await api(`/api/contents/${encodeURIComponent(name)}`)).json()).content;
    const want = figures(nb);
    const page = await ctx.newPage();
    const console_ = [];
    page.on("console", (m) => console_.push(m.text()));
    await page.goto(`${url}/notebooks/${encodeURIComponent(name)}?token=${token}`);
    await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 60000 });
    await page.waitForTimeout(1500);
    const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
    const sizes = await page.evaluate(drawnInPage, ".output_area svg");
    const visible = sizes.filter(([w, h]) => w > 0 && h > 0).length;
    const raw = await page.evaluate(() => document.querySelector("#notebook").innerText.includes("<svg"));
    // A figure in a scrolled output box is cut off for the reader.
    const scrolled = await page.evaluate(() => document.querySelectorAll(".output_scroll svg").length);
    const untrusted = console_.filter((t) => /untrusted/i.test(t));
    // Tabs (Go's indentation) drawn as arrows: the lab's custom.css turns them off.
    const [tabs, arrows] = await page.evaluate(() => {
      const all = [...document.querySelectorAll("span.cm-tab")];
      return [all.length, all.filter((e) => getComputedStyle(e).backgroundImage !== "none").length];
    });
    // The notebook scrolls inside #site: grow the window to show all of it.
    const tall = await page.evaluate(() => document.querySelector("#notebook").scrollHeight + 150);
    await page.setViewportSize({ width: 1280, height: Math.min(tall, 30000) });
    await page.waitForTimeout(500);
    const shot = path.join(outdir, name.replace(/\.ipynb$/, ".png"));
    await page.screenshot({ path: shot });
    check(trusted, `${name}: opens trusted`);
    check(want > 0 && visible >= want,
      `${name}: ${visible} of ${want} stored figures drawn as SVG of nonzero size (widths ${sizes.map((s) => s[0]).join(" ")}); ${shot}`);
    check(!raw, `${name}: no raw <svg text on the page`);
    check(scrolled === 0, `${name}: no figure in a scrolled output box (${scrolled})`);
    check(tabs > 0 && arrows === 0, `${name}: tabs shown as indentation, not arrows (${tabs} tabs, ${arrows} arrows)`);
    check(untrusted.length === 0, `${name}: no "untrusted output" console messages${untrusted.length ? ": " + untrusted[0] : ""}`);

    // File > Download as > HTML.
    const html = await (await api(`/nbconvert/html/${encodeURIComponent(name)}?download=true`)).text();
    const paths = (html.match(/<path/g) || []).length;
    const svgs = (html.match(/<svg[\s>]/g) || []).length;
    check(svgs >= want && paths > 0, `${name}: the HTML export keeps ${svgs} SVG figures (${paths} paths) of ${want}`);
    if (name === names[0]) {
      const exp = await ctx.newPage();
      await exp.setContent(html, { waitUntil: "load" });
      const esizes = await exp.evaluate(drawnInPage, ".jp-OutputArea-output svg");
      const evisible = esizes.filter(([w, h]) => w > 0 && h > 0).length;
      const eshot = path.join(outdir, name.replace(/\.ipynb$/, ".export.png"));
      await exp.screenshot({ path: eshot, fullPage: true });
      check(evisible >= want, `${name}: the exported page draws ${evisible} of ${want} figures; ${eshot}`);
      await exp.close();
    }
    await page.close();
  }
  await browser.close();
  if (failures.length) {
    console.log(`browser: ${failures.length} check(s) failed`);
    process.exit(1);
  }
  console.log("browser: all checks passed");
})().catch((e) => {
  console.error("browser:", e);
  process.exit(1);
});

// check-page.js PAGE.html SHOT.png...: open each page in headless
// Chromium (playwright-core, /usr/bin/chromium) in a 1280 px wide window,
// with every request that is not the page itself recorded and refused;
// print one JSON object per page, one line each: the console errors, the
// other requests, what the SVG plots hold (per device and side the points,
// bins, heat map and histograms with their data values and pixel sizes,
// per chart its bars) and the layout facts of the rendered page as a
// person sees it (widths, text boxes that overlap or leave their plot,
// legend swatch colours against their marks' colours, the colour of every
// mark of an operation, axis labels and ticks, the scales of the two
// sides of each row); and take two screenshots of each: SHOT.png of the
// window, SHOT-full.png of the whole page.  One browser for all the pages: starting it
// is the costly part.
const { chromium } = require('playwright-core');

(async () => {
  const args = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  for (let a = 0; a + 1 < args.length; a += 2) {
  const [page_path, shot] = [args[a], args[a + 1]];
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [], requests = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  const url = 'file://' + require('path').resolve(page_path);
  await page.route('**/*', r => {
    if (r.request().url() === url) return r.continue();
    requests.push(r.request().url());
    return r.abort();
  });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  const load_ms = Date.now() - t0;
  const data = await page.evaluate(() => {
    const num = (e, a) => Number(e.getAttribute(a));
    const h = e => Number(e.getAttribute('height'));
    const side = e => { const c = e.closest('.cell'); return (c && c.dataset.side) || 'ONE'; };
    // the colour a mark is drawn in: its fill, or its stroke when it
    // has none (lines, outlines)
    const colour = e => {
      const cs = getComputedStyle(e);
      if (e.tagName === 'line' || e.tagName === 'polyline' || cs.fill === 'none')
        return cs.stroke;
      return cs.fill;
    };
    const devs = [];
    for (const s of document.querySelectorAll('section.device')) {
      const sides = {};
      for (const svg of s.querySelectorAll('svg.plot')) {
        if (svg.classList.contains('hist')) continue;
        const k = side(svg);
        const d = sides[k] = sides[k] || { pt: 0, offset_pt: 0, slow_ms: [], read_bins: [],
          write_bins: [], iops_bins: [], iops_read: 0, iops_write: 0, depth_points: 0, heat: [] };
        if (svg.classList.contains('latency')) {
          d.pt = svg.querySelectorAll('circle.pt').length;
          d.slow_ms = [...svg.querySelectorAll('circle.slow')].map(c => num(c, 'data-ms'));
          d.lat_note = svg.nextElementSibling ? svg.nextElementSibling.textContent : '';
        } else if (svg.classList.contains('offset')) {
          d.offset_pt = svg.querySelectorAll('circle.pt').length;
        } else if (svg.classList.contains('throughput')) {
          d.read_bins = [...svg.querySelectorAll('rect.bin.read')].map(r => [num(r, 'data-bytes'), h(r)]);
          d.write_bins = [...svg.querySelectorAll('rect.bin.write')].map(r => [num(r, 'data-bytes'), h(r)]);
          const note = svg.nextElementSibling;
          d.bin_note = note ? note.textContent : '';
        } else if (svg.classList.contains('iops')) {
          d.iops_bins = [...svg.querySelectorAll('rect.bin')].map(r => [num(r, 'data-n'), h(r)]);
          d.iops_read = [...svg.querySelectorAll('rect.bin.read')].reduce((t, r) => t + num(r, 'data-n'), 0);
          d.iops_write = [...svg.querySelectorAll('rect.bin.write')].reduce((t, r) => t + num(r, 'data-n'), 0);
          d.iops_bars = svg.querySelectorAll('rect.bin').length;
        } else if (svg.classList.contains('depth')) {
          d.depth_points = (svg.querySelector('polyline.depth').getAttribute('points').trim().split(/\s+/)).length;
        } else if (svg.classList.contains('heatmap')) {
          d.heat = [...svg.querySelectorAll('rect.hm')].map(r => [num(r, 'data-slot'), num(r, 'data-n')]);
          d.heatmap = true;
        }
      }
      devs.push({
        dev: s.dataset.dev,
        rank: Number(s.dataset.rank),
        lost_ns: Number(s.dataset.lostNs),
        requests: Number(s.dataset.requests),
        sides,
        hists: [...s.querySelectorAll('svg.hist')].map(g => ({
          title: g.querySelector('text.ttl').textContent,
          before: [...g.querySelectorAll('rect.hb:not(.after)')].map(r => [num(r, 'data-slot'), num(r, 'data-n'), h(r)]),
          after: [...g.querySelectorAll('rect.hb.after')].map(r => [num(r, 'data-slot'), num(r, 'data-n'), h(r)]),
        })),
      });
    }
    const bars = {};
    for (const c of ['plost', 'pbytes', 'pfsync', 'pthrottle', 'flost', 'fbytes', 'ffsync', 'wa'])
      bars[c] = [...document.querySelectorAll('svg.' + c)].map(g => ({
        side: side(g),
        bars: [...g.querySelectorAll('g.bar')].map(r => [num(r, 'data-v'),
          [...r.querySelectorAll('rect.bar')].reduce((t, x) => t + num(x, 'width'), 0)]),
        yticks: g.querySelectorAll('text.tick.y').length,
      }));
    // layout: text boxes inside their plot and apart from each other
    const overlaps = [], clipped = [], leaks = [], legend = [], opmarks = [], axes = [];
    const fmt = r => [r.left, r.top, r.right, r.bottom].map(v => Math.round(v));
    const label = svg => (svg.querySelector('text.ttl') || {}).textContent || svg.getAttribute('class');
    for (const svg of document.querySelectorAll('svg.plot')) {
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0);
      for (const [t, r] of texts) {
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
            r.bottom > box.bottom + 0.5)
          clipped.push([label(svg), t.textContent, fmt(r), fmt(box)]);
        const st = getComputedStyle(t).stroke;
        if (st !== 'none' && st !== 'rgba(0, 0, 0, 0)')
          leaks.push([label(svg), t.textContent, st]);
      }
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
          const [ta, a] = texts[i], [tb, b] = texts[j];
          if (ta.contains(tb) || tb.contains(ta)) continue;
          const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (ox > 1 && oy > 1)
            overlaps.push([label(svg), ta.textContent, tb.textContent]);
        }
      // each legend swatch against the marks of its series
      for (const g of svg.querySelectorAll('g.legend')) {
        const sw = g.querySelector('.sw') || g.querySelector('rect, line');
        const cls = [...sw.classList].filter(c => c !== 'sw');
        const sel = cls.map(c => '.' + c).join('');
        const marks = [...svg.querySelectorAll(sel)].filter(m => !m.closest('g.legend'));
        const want = colour(sw);
        const bad = marks.filter(m => colour(m) !== want).map(m => colour(m));
        legend.push([label(svg), g.textContent, want, marks.length, [...new Set(bad)],
                     g.classList.contains('scale')]);
      }
      // every mark of an operation in the operation's colour
      for (const op of ['read', 'write', 'flush', 'discard', 'other'])
        for (const m of svg.querySelectorAll('.' + op))
          if (!m.closest('g.legend'))
            opmarks.push([op, colour(m)]);
      // the axes: their labels and ticks
      for (const ax of ['x', 'y']) {
        const lab = svg.querySelector('text.axis.' + ax);
        const ticks = [...svg.querySelectorAll('text.tick.' + ax)].map(t => t.textContent);
        if (lab || ticks.length)
          axes.push([label(svg), ax, lab ? lab.textContent : null, ticks]);
      }
    }
    // the rows of a pair: both sides on the same scales, side by side
    const rows = [];
    for (const r of document.querySelectorAll('.row[data-metric]')) {
      const cells = [...r.children].filter(c => c.classList.contains('cell'));
      rows.push({
        metric: r.dataset.metric,
        sides: cells.map(c => c.dataset.side),
        tops: cells.map(c => Math.round(c.getBoundingClientRect().top)),
        scales: cells.map(c => [...c.querySelectorAll('svg.plot')].map(s =>
          ['x0', 'x1', 'y0', 'y1'].map(k => s.dataset[k]).join(' '))),
      });
    }
    // the widest element, for a page wider than the window
    let widest = null;
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.right > innerWidth && (!widest || r.right > widest[1]))
        widest = [e.tagName + '.' + e.getAttribute('class'), Math.round(r.right)];
    }
    return { devs, bars, svgs: document.querySelectorAll('svg').length,
             findings: !!document.getElementById('findings'),
             paired: !!document.querySelector('#findings table.changes'),
             // the paired findings: their rows, and where they stand
             changes: [...document.querySelectorAll('#findings table.changes tr[data-rank]')].map(r => ({
               rank: Number(r.dataset.rank), change: r.dataset.change, rule: r.dataset.rule, rule_before: r.dataset.ruleBefore, rule_after: r.dataset.ruleAfter,
               sev_before: r.dataset.sevBefore, sev_after: r.dataset.sevAfter,
               signif: r.dataset.signif, delta_ns: Number(r.dataset.deltaNs),
               cells: [...r.children].map(c => c.innerText.trim()) })),
             first_h2: (document.querySelector('h2') || {}).textContent || '',
             findings_top: (() => { const e = document.getElementById('findings');
               return e ? Math.round(e.getBoundingClientRect().top + scrollY) : -1; })(),
             device_top: (() => { const e = document.querySelector('section.device');
               return e ? Math.round(e.getBoundingClientRect().top + scrollY) : -1; })(),
             h1: (document.querySelector('h1') || {}).textContent || '',
             title: document.title, text_after: /AFTER/.test(document.body.innerText),
             scroll_width: document.documentElement.scrollWidth, inner_width: innerWidth,
             widest, overlaps, clipped, leaks, legend, opmarks, axes, rows,
             pauses: [...document.querySelectorAll('rect.pause')].map(r => [side(r), num(r, 'data-n')]),
             footer: (document.querySelector('body > p.note:last-of-type') || {}).textContent || '' };
  });
  await page.screenshot({ path: shot });
  await page.screenshot({ path: shot.replace(/\.png$/, '-full.png'), fullPage: true });
  // the script: hover one IOPS bin, its value beside the pointer
  const inter = {};
  const bin = page.locator('svg.plot.iops rect.bin').first();
  if (await bin.count()) {
    await bin.hover({ force: true });
    inter.hover = await page.evaluate(() => {
      const t = document.getElementById('tip'), b = document.querySelector('svg.plot.iops rect.bin');
      return { shown: !!t && getComputedStyle(t).display !== 'none', tip: t ? t.textContent : null,
               title: b.querySelector('title').textContent, n: Number(b.dataset.n),
               right: t ? Math.round(t.getBoundingClientRect().right) : 0 };
    });
    await page.mouse.move(0, 0);
  }
  // drag across the first time plot of a row: both sides show that span
  const lat = page.locator('.row[data-metric] svg.plot.latency').first();
  if (await lat.count()) {
    const ticks = () => page.evaluate(() => {
      const svg = document.querySelector('.row[data-metric] svg.plot.latency');
      return [...svg.closest('.row').querySelectorAll('svg.plot.latency')].map(s =>
        [...s.querySelectorAll('text.tick.x')].map(t => t.textContent));
    });
    inter.ticks0 = await ticks();
    await lat.scrollIntoViewIfNeeded();
    const geo = await lat.evaluate(s => { const f = s.querySelector('rect.frame'), r = s.getBoundingClientRect(),
      k = r.width / s.viewBox.baseVal.width; return { y: r.top + r.height / 2,
      a: r.left + (+f.getAttribute('x') + 0.25 * +f.getAttribute('width')) * k,
      b: r.left + (+f.getAttribute('x') + 0.5 * +f.getAttribute('width')) * k,
      x0: +s.dataset.x0, x1: +s.dataset.x1 }; });
    await page.mouse.move(geo.a, geo.y);
    await page.mouse.down();
    await page.mouse.move(geo.b, geo.y, { steps: 4 });
    await page.mouse.up();
    inter.zoom = { from: geo.x0 + 0.25 * (geo.x1 - geo.x0), to: geo.x0 + 0.5 * (geo.x1 - geo.x0),
                   ticks: await ticks(), enlarged: await page.evaluate(() => !!document.querySelector('svg.plot.zoom')) };
    await page.keyboard.press('Escape');
    inter.ticks_reset = await ticks();
  }
  await page.close();
  // the page with scripts off: the same page to read
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const nojs = await ctx.newPage();
  await nojs.route('**/*', r => r.request().url() === url ? r.continue() : r.abort());
  await nojs.goto(url, { waitUntil: 'load' });
  inter.nojs = await nojs.evaluate(() => ({
    scroll_width: document.documentElement.scrollWidth,
    svgs: document.querySelectorAll('svg').length,
    changes: document.querySelectorAll('#findings table.changes tr[data-rank]').length,
    findings: !!document.getElementById('findings'),
    tip: !!document.getElementById('tip'),
    titles: document.querySelectorAll('svg.plot title').length,
  }));
  await ctx.close();
  console.log(JSON.stringify({ errors, requests, load_ms, inter, ...data }));
  }
  await browser.close();
})().catch(e => { console.error(String(e)); process.exit(1); });

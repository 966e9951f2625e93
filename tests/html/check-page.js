// check-page.js PAGE.html SHOT.png...: open each page in headless Chromium
// (playwright-core, /usr/bin/chromium), with every request that is not
// the page itself recorded and refused; print one JSON object: the
// console errors, the other requests, and what the SVG plots hold (per
// device the points and bins, per plot the bars with their data values
// and pixel sizes), one line per page, and take a screenshot of each.
// One browser for all the pages: starting it is the costly part.
const { chromium } = require('playwright-core');

(async () => {
  const args = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  for (let a = 0; a + 1 < args.length; a += 2) {
  const [page_path, shot] = [args[a], args[a + 1]];
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
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
    const devs = [...document.querySelectorAll('section.device')].map(s => ({
      dev: s.dataset.dev,
      requests: Number(s.dataset.requests),
      column: s.closest('div.rec').querySelector('h2').textContent,
      pt: s.querySelectorAll('svg.latency circle.pt').length,
      offset_pt: s.querySelectorAll('svg.offset circle.pt').length,
      slow_ms: [...s.querySelectorAll('svg.latency circle.slow')].map(c => num(c, 'data-ms')),
      read_bins: [...s.querySelectorAll('svg.throughput rect.bin.read')].map(r => [num(r, 'data-bytes'), h(r)]),
      write_bins: [...s.querySelectorAll('svg.throughput rect.bin.write')].map(r => [num(r, 'data-bytes'), h(r)]),
      iops_bins: [...s.querySelectorAll('svg.iops rect.bin')].map(r => [num(r, 'data-n'), h(r)]),
      depth_points: (s.querySelector('svg.depth polyline').getAttribute('points').trim().split(/\s+/)).length,
      hists: [...s.querySelectorAll('svg.hist')].map(g => ({
        title: g.querySelector('text.ttl').textContent,
        before: [...g.querySelectorAll('rect.hb.before')].map(r => [num(r, 'data-slot'), num(r, 'data-n'), h(r)]),
        after: [...g.querySelectorAll('rect.hb.after')].map(r => [num(r, 'data-slot'), num(r, 'data-n'), h(r)]),
      })),
    }));
    const bars = {};
    for (const c of ['pbytes', 'pfsync', 'pthrottle', 'fbytes', 'ffsync', 'wa'])
      bars[c] = [...document.querySelectorAll('svg.' + c)].map(g =>
        [...g.querySelectorAll('rect.bar')].map(r => [num(r, 'data-v'), num(r, 'width')]));
    return { devs, bars, svgs: document.querySelectorAll('svg').length,
             findings: !!document.getElementById('findings') };
  });
  await page.screenshot({ path: shot, fullPage: false });
  await page.close();
  console.log(JSON.stringify({ errors, requests, load_ms, ...data }));
  }
  await browser.close();
})().catch(e => { console.error(String(e)); process.exit(1); });

// A screenshot of the web view once the page says the graph is drawn and fitted
// (body[data-ready="true"]), in headless Debian chromium through playwright-core
// (bash tests/ui_browser/run.sh installs it once):
//
//   node tests/ui_browser/screenshot.mjs 'http://127.0.0.1:8080/ui?token=TOKEN#network=NAME' out.png [1280x760]
//
// A plain `chromium --headless --screenshot` does not wait for the page's fetches,
// and `--virtual-time-budget` never ends while the page's live event stream is open.
// Environment: CHROMIUM (default /usr/bin/chromium).

import { chromium } from 'playwright-core';

const [url, out = 'ui.png', size = '1280x760'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node screenshot.mjs URL [out.png] [WIDTHxHEIGHT]');
  process.exit(2);
}
const [width, height] = size.split('x').map(Number);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
try {
  const page = await browser.newPage({ viewport: { width, height } });
  const started = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  const drawn = await page.locator('#nodes .node').count();
  await page.screenshot({ path: out });
  console.log(`${out}: ${drawn} nodes drawn, ready after ${Date.now() - started} ms`);
} finally {
  await browser.close();
}

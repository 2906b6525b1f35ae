// Browser tests: the built app (dist/) served from a sub-path on loopback,
// driven in Debian's headless Chromium. Prints `N passed, M failed`.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDir } from '../test/browser/static-server.mjs';
import { browserTests as appTests } from '../test/browser/app.browser.mjs';
import { corpusTests } from '../test/browser/corpus.browser.ts';
import { robustnessTests } from '../test/browser/robustness.browser.ts';
import { limitsTests } from '../test/browser/limits.browser.ts';
import { perfTests } from '../test/browser/perf.browser.ts';
import { dsh021Tests } from '../test/browser/dsh021.browser.ts';
import { jobsTests } from '../test/browser/jobs.browser.ts';
import { whatIfTests } from '../test/browser/whatif.browser.ts';
import { otlpTests } from '../test/browser/otlp.browser.ts';
import { notesTests } from '../test/browser/notes.browser.ts';
import { compareTests, compareCorpusTests } from '../test/browser/compare.browser.ts';
import { openCliTests } from '../test/browser/open-cli.browser.ts';
import { issue17Tests } from '../test/browser/issue17.browser.ts';
import { folderTests, folderCorpusTests } from '../test/browser/folder.browser.ts';
import { followTests } from '../test/browser/follow.browser.ts';
import { shareTests, shareCorpusTests } from '../test/browser/share.browser.ts';
import { chartsCorpusTests } from '../test/browser/charts.browser.ts';
import { requestsViewTests } from '../test/browser/requests-view.browser.ts';
import { membershipTests } from '../test/browser/membership.browser.ts';
import { issue19CorpusTests } from '../test/browser/issue19.browser.ts';
import { zstdTests } from '../test/browser/zstd.browser.ts';

// Corpus cases need the real-log corpus beside the repo (CI and developer machines have it).
const corpusDir = path.resolve(process.env.DSH_CORPUS ?? '../shared/corpus', 'dsh');
const haveCorpus = fs.existsSync(corpusDir);
if (!haveCorpus) console.log(`note: ${corpusDir} not found; corpus browser cases skipped`);
const browserTests = { ...appTests, ...(haveCorpus ? corpusTests(corpusDir) : {}), ...robustnessTests, ...zstdTests, ...dsh021Tests, ...jobsTests, ...whatIfTests, ...otlpTests, ...notesTests, ...openCliTests, ...issue17Tests, ...followTests, ...limitsTests, ...compareTests, ...(haveCorpus ? compareCorpusTests(corpusDir) : {}), ...folderTests, ...(haveCorpus ? folderCorpusTests(corpusDir) : {}), ...shareTests, ...(haveCorpus ? shareCorpusTests(corpusDir) : {}), ...(haveCorpus ? chartsCorpusTests(corpusDir) : {}), ...requestsViewTests(haveCorpus ? corpusDir : null), ...membershipTests(haveCorpus ? corpusDir : null), ...(haveCorpus ? issue19CorpusTests(corpusDir) : {}), ...(process.env.SKIP_PERF ? {} : perfTests) };

// DIST_DIR=<folder> tests another build (an older one, to see whether a test catches a regression).
const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`browser tests: ${path.relative('.', dist) || dist}/ is missing; run \`npm run build\` first`);
  process.exit(1);
}
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const publishedLog = fs.readFileSync(path.join(dist, 'demo', 'demo-session-v4.jsonl'));
const server = await serveDir(dist, { prefix: '/some/sub/path/', extra: { '/artifacts/secret-session.jsonl': publishedLog } });
const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
fs.mkdirSync('test-results', { recursive: true });

let passed = 0;
let failed = 0;
// BROWSER_ONLY=<regex> runs the matching cases only (while working on one feature).
const only = process.env.BROWSER_ONLY ? new RegExp(process.env.BROWSER_ONLY) : null;
for (const [name, run] of Object.entries(browserTests)) {
  if (only && !only.test(name)) continue;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const consoleErrors = [];
  const foreignRequests = [];
  // A case that starts its own local server (dsh-devtools open) names its origin.
  const allowedOrigins = [server.url.replace(/\/some.*/, '')];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => {
    if (!allowedOrigins.some((o) => r.url().startsWith(`${o}/`)) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreignRequests.push(r.url());
    // The app only ever GETs its own files (and a ?url= log): no request may carry a body.
    if (r.method() !== 'GET' || r.postData()) foreignRequests.push(`${r.method()} ${r.url()} with a body`);
  });
  try {
    await run({ page, context, baseUrl: server.url, origin: server.url.replace(/\/some.*/, ''), consoleErrors, foreignRequests, allowOrigin: (o) => allowedOrigins.push(o), shot: (n) => page.screenshot({ path: `test-results/${n}.png` }) });
    if (consoleErrors.length) throw new Error(`console errors: ${consoleErrors.join(' | ')}`);
    if (foreignRequests.length) throw new Error(`requests to other origins: ${foreignRequests.join(', ')}`);
    passed++;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err.message}`);
    await page.screenshot({ path: `test-results/FAIL-${name.replace(/\W+/g, '-')}.png` }).catch(() => {});
  }
  await context.close();
}
await browser.close();
await server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

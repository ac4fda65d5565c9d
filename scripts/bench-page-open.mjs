// SPDX-License-Identifier: MIT
// How long headless Chromium takes to open local pages (scripts/bench-big):
//   node bench-page-open.mjs [--reps N] [--timeout SECONDS] PAGE.html...
// For each page, REPS times (default 3) in a new tab of one browser: the
// wall time from the navigation's start until the load event has fired and
// two animation frames have been drawn after it (the page's own scripts run,
// its layout done and painted once: what a person waits for). Prints one
// line per page, "<median ms> <path>", or "timeout <path>" when one opening
// took longer than --timeout (default 300 s). The first page is the one the
// others are compared with (an empty page). Driven like the browser tests
// (scripts/tests/browser-check.mjs): the pinned playwright-core of
// build/browser (PLAYWRIGHT_CORE=dir overrides), Debian's /usr/bin/chromium
// (CHROMIUM=path), a new empty profile, offline.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
let reps = 3, timeout = 300;
while (args.length && args[0].startsWith('--')) {
	const opt = args.shift(), v = Number(args.shift());
	if (opt === '--reps' && v >= 1) reps = v;
	else if (opt === '--timeout' && v > 0) timeout = v;
	else { console.error(`bench-page-open: bad option ${opt}`); process.exit(2); }
}
if (!args.length) { console.error('usage: node bench-page-open.mjs [--reps N] [--timeout S] PAGE...'); process.exit(2); }
const pwDir = process.env.PLAYWRIGHT_CORE ||
	path.join(path.dirname(fileURLToPath(import.meta.url)), '../build/browser/node_modules/playwright-core');
const { chromium } = createRequire(import.meta.url)(path.resolve(pwDir));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hotblocks-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	viewport: { width: 1280, height: 900 },
	offline: true,
});
try {
	for (const p of args) {
		const url = pathToFileURL(path.resolve(p)).href;
		const times = [];
		let timedOut = false;
		for (let i = 0; i < reps && !timedOut; i++) {
			const page = await context.newPage();
			const t0 = performance.now();
			try {
				await page.goto(url, { waitUntil: 'load', timeout: timeout * 1000 });
				await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
				times.push(performance.now() - t0);
			} catch (e) {
				timedOut = true;
			}
			await page.close().catch(() => {});
		}
		if (timedOut) console.log(`timeout ${p}`);
		else console.log(`${times.sort((a, b) => a - b)[(times.length - 1) >> 1].toFixed(0)} ${p}`);
	}
} finally {
	await context.close().catch(() => {});
	fs.rmSync(profile, { recursive: true, force: true });
}

// SPDX-License-Identifier: MIT
// Open one local HTML page in headless Chromium and check it as a person's
// browser would show it:
//   node browser-check.mjs [--screenshot PNG] [--dump JSON] PAGE.html SPEC.json
// It drives the pinned playwright-core that scripts/ensure-deps check puts in
// build/browser (PLAYWRIGHT_CORE=dir overrides), run by a node >= 20 (the
// node 20 of build/test-node); the browser is Debian's /usr/bin/chromium
// (CHROMIUM=path overrides), never one that playwright would download.
//
// Always checked: the page loads from file://; it makes no request whose URL
// is not file: or data: (such requests are aborted before they leave, and each
// is a failure naming its URL; so is any WebSocket); it logs no console error
// and throws no uncaught exception, from loading to the last step.
// SPEC.json is {"steps": [STEP...], "dump": EXPRESSION?}; each STEP is one
// check, optionally after an action, run in order:
//   {"name": "...", "selector": "css", "count": N}        N elements match
//   {"name": "...", "selector": "css", "text": "..."}     the first one's textContent, trimmed
//   {"name": "...", "selector": "css", "attr": "a", "value": "..."}
//   {"name": "...", "eval": "js expression"}              true passes; any other
//                                                          value is shown as the failure
//   {"name": "...", "click": "css", "selector": "css", "hasClass": "c"}
//        the selector's element must lack class c, then have it (within 2 s)
//        after the click: the change itself is what is checked
//   {"name": "...", "press": "Key", ...}                  a key press, then the check
// "dump": the value of an expression in the page after the steps, written as
// JSON to the --dump file (for comparing the page's numbers with other tools).
// Prints "ok - NAME" / "not ok - NAME" (and "# detail" lines) per check and
// exits 1 when any failed, 2 on a bad command line or spec.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

function usage(msg) {
	console.error(`browser-check: ${msg}`);
	console.error('usage: node browser-check.mjs [--screenshot PNG] [--dump JSON] PAGE.html SPEC.json');
	process.exit(2);
}

const args = process.argv.slice(2);
let screenshot = null, dumpFile = null;
while (args.length && args[0].startsWith('--')) {
	const opt = args.shift();
	if (opt === '--screenshot') screenshot = args.shift();
	else if (opt === '--dump') dumpFile = args.shift();
	else usage(`unknown option ${opt}`);
}
if (args.length !== 2) usage('two arguments expected');
const [pagePath, specPath] = args;
const pwDir = process.env.PLAYWRIGHT_CORE ||
	path.join(path.dirname(fileURLToPath(import.meta.url)), '../../build/browser/node_modules/playwright-core');
let spec;
try {
	spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
} catch (e) {
	usage(`${specPath}: ${e.message}`);
}
if (!Array.isArray(spec.steps)) usage(`${specPath}: no "steps" array`);

let chromium;
try {
	({ chromium } = createRequire(import.meta.url)(path.resolve(pwDir)));
} catch (e) {
	usage(`no playwright-core in ${pwDir} (scripts/ensure-deps check installs it): ${e.message}`);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

let failed = 0;
function report(ok, name, detail) {
	console.log(`${ok ? 'ok' : 'not ok'} - ${name}`);
	if (!ok) {
		failed++;
		for (const line of String(detail ?? '').split('\n'))
			if (line) console.log(`# ${line}`);
	}
}

// A new, empty profile each run: nothing from an earlier run (cache, storage)
// can make a page pass.
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hotblocks-chromium-'));
const offending = new Set(), consoleErrors = [];
let context;
try {
	context = await chromium.launchPersistentContext(profile, {
		executablePath,
		headless: true,
		// Root needs --no-sandbox; the rest keep Chromium from reaching out on
		// its own (updates, sync, field trials) and from needing a GPU.
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
		viewport: { width: 1280, height: 900 },
		offline: true,
	});
	await context.route(/.*/, (route) => {
		const url = route.request().url();
		if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
		offending.add(url);
		return route.abort('blockedbyclient');
	});
	const page = context.pages()[0] || await context.newPage();
	page.on('request', (req) => {
		const url = req.url();
		if (!url.startsWith('file:') && !url.startsWith('data:'))
			offending.add(url);
	});
	page.on('websocket', (ws) => offending.add(ws.url()));
	page.on('console', (msg) => {
		if (msg.type() === 'error') {
			const loc = msg.location();
			consoleErrors.push(`console.error: ${msg.text()}${loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
		}
	});
	page.on('pageerror', (err) => consoleErrors.push(`uncaught exception: ${err.message}`));

	const url = pathToFileURL(path.resolve(pagePath)).href;
	const resp = await page.goto(url, { waitUntil: 'load' });
	report(resp !== null && page.url() === url, `the page loads from ${url}`, `ended at ${page.url()}`);

	for (const [i, step] of spec.steps.entries())
		await runStep(page, step, step.name || `step ${i + 1}`);

	if (spec.dump && dumpFile) {
		const value = await page.evaluate(spec.dump);
		fs.writeFileSync(dumpFile, JSON.stringify(value, null, 1) + '\n');
	}
	if (screenshot) {
		fs.mkdirSync(path.dirname(path.resolve(screenshot)), { recursive: true });
		await page.screenshot({ path: screenshot, fullPage: true });
	}
	// Anything still pending (a timer, a late fetch) gets its chance to show.
	await page.waitForTimeout(100);
} catch (e) {
	report(false, 'the browser runs the page', e.stack || e.message);
} finally {
	if (context) await context.close().catch(() => {});
	fs.rmSync(profile, { recursive: true, force: true });
}
report(offending.size === 0, 'no request leaves the page (only file: and data: URLs)',
	Array.from(offending, (u) => `request to ${u}`).join('\n'));
report(consoleErrors.length === 0, 'no console error, no uncaught exception', consoleErrors.join('\n'));
process.exit(failed ? 1 : 0);

async function classes(page, sel) {
	return page.evaluate((s) => {
		const el = document.querySelector(s);
		return el ? Array.from(el.classList) : null;
	}, sel);
}

async function runStep(page, step, name) {
	try {
		if (step.hasClass !== undefined) {
			const before = await classes(page, step.selector);
			if (before === null) return report(false, name, `nothing matches ${step.selector}`);
			if (before.includes(step.hasClass))
				return report(false, name, `${step.selector} has class "${step.hasClass}" before the action`);
		}
		if (step.click !== undefined) await page.click(step.click, { timeout: 2000 });
		if (step.press !== undefined) await page.keyboard.press(step.press);
		if (step.fill !== undefined) await page.fill(step.fill, step.value ?? '', { timeout: 2000 });

		if (step.hasClass !== undefined) {
			const ok = await page.waitForFunction(([s, c]) => {
				const el = document.querySelector(s);
				return el && el.classList.contains(c);
			}, [step.selector, step.hasClass], { timeout: 2000 }).then(() => true, () => false);
			return report(ok, name, `${step.selector} has classes [${(await classes(page, step.selector)) ?? ''}], not "${step.hasClass}"`);
		}
		if (step.eval !== undefined) {
			const v = await page.evaluate(step.eval);
			return report(v === true, name, `${step.eval} gave ${JSON.stringify(v)}`);
		}
		if (step.count !== undefined) {
			const n = await page.locator(step.selector).count();
			return report(n === step.count, name, `${n} elements match ${step.selector}, expected ${step.count}`);
		}
		if (step.text !== undefined) {
			const t = await page.evaluate((s) => {
				const el = document.querySelector(s);
				return el ? el.textContent.trim() : null;
			}, step.selector);
			return report(t === step.text, name, `${step.selector}: ${JSON.stringify(t)}, expected ${JSON.stringify(step.text)}`);
		}
		if (step.attr !== undefined) {
			const v = await page.evaluate(([s, a]) => {
				const el = document.querySelector(s);
				return el ? el.getAttribute(a) : null;
			}, [step.selector, step.attr]);
			return report(v === step.value, name, `${step.selector} ${step.attr}=${JSON.stringify(v)}, expected ${JSON.stringify(step.value)}`);
		}
		report(false, name, `the step checks nothing: ${JSON.stringify(step)}`);
	} catch (e) {
		report(false, name, e.message.replace(/\x1b\[[0-9;]*m/g, ''));
	}
}

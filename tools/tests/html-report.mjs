#!/usr/bin/env node
// memorizer report --html in a real browser: Debian's chromium, headless,
// driven by playwright-core (npm, package-lock.json).
//
//   html-report.mjs MEMORIZER MKSTREAM views|large OUTDIR
//
// views: the page of tools/tests/fixtures/tar.kmap (with System.map and
// the stats fixture): no console error, no request but the file itself;
// every view's rows and cells as many as, and with the figures of, what
// memorizer report --csv says of the same file (and what this script
// counts in the kmap itself); the explorer's search of a known call site
// and address; the capability heatmap's rows, columns and cells as
// memorizer capmap --csv's; screenshots
// OUTDIR/{summary,alloc,capmap,objects,lifetimes}.png
// (and readme.png, 960 x 640, the README's).
// large: a generated binary stream of 100,000 objects in 2,000 call sites;
// the page loads and draws every view in under 5 s; its size is printed.
// Prints "ok - ..." / "not ok - ..." lines; exits 1 when one failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const [memorizerArg, mkstreamArg, which, outdir] = process.argv.slice(2);
const memorizer = memorizerArg && path.resolve(memorizerArg), mkstream = mkstreamArg && path.resolve(mkstreamArg);
if (!outdir || !['views', 'large'].includes(which)) {
	console.error('usage: html-report.mjs MEMORIZER MKSTREAM views|large OUTDIR');
	process.exit(2);
}
fs.mkdirSync(outdir, { recursive: true });
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
	console.error(`html-report: ${CHROMIUM} missing: apt-get install chromium (scripts/packages.txt)`);
	process.exit(1);
}

let failed = 0, passed = 0;
function check(cond, what, detail) {
	if (cond) {
		passed++;
		console.log(`ok - ${what}`);
	} else {
		failed++;
		console.log(`not ok - ${what}${detail !== undefined ? ': ' + detail : ''}`);
	}
	return cond;
}
function equal(got, want, what) {
	return check(JSON.stringify(got) === JSON.stringify(want), what,
		`got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

function run(args, opts) {
	return execFileSync(memorizer, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
}
// memorizer report (or capmap) --csv: rows as objects keyed by the
// header's names.
function csv(args, cmd = 'report') {
	const lines = run([cmd, '--csv', ...args]).trim().split('\n');
	const cols = lines.shift().split(',');
	return lines.map((l) => {
		const f = l.split(','), o = {};
		cols.forEach((c, i) => { o[c] = /^[0-9]+$/.test(f[i]) ? Number(f[i]) : f[i]; });
		return o;
	});
}

async function open(file, hash) {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
	const problems = [];
	page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('request', (r) => { if (!r.url().startsWith('file://')) problems.push(`request: ${r.url()}`); });
	page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
	const t0 = Date.now();
	await page.goto('file://' + path.resolve(file) + (hash ? '#' + hash : ''));
	await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
	return { browser, page, problems, t0 };
}
async function showView(page, id) {
	await page.click(`nav button[data-view="${id}"]`);
	await page.waitForSelector(`section[data-view="${id}"][data-rendered="1"]`, { timeout: 30000 });
	return page.locator(`section[data-view="${id}"]`);
}
// A table's body rows, each as { column label: data-value }.
async function tableRows(scope, name) {
	return scope.locator(`table[data-table="${name}"]`).evaluate((t) => {
		const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent);
		return [...t.querySelectorAll('tbody tr')].map((tr) => {
			const o = {};
			[...tr.children].forEach((td, i) => {
				const v = td.dataset.value;
				o[heads[i]] = /^-?[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : v;
			});
			return o;
		});
	});
}

// Lifetime buckets, as the page draws them: 0, then [2^(b-1), 2^b).
function bucket(life) {
	let b = 0;
	while (life > 0) { b++; life = Math.floor(life / 2); }
	return b;
}

async function views() {
	const fx = path.join(here, 'fixtures');
	const kmap = path.join(fx, 'tar.kmap'), map = path.join(fx, 'System.map'), stats = path.join(fx, 'stats');
	const html = path.join(outdir, 'tar.html');
	run(['report', '--html', '-o', path.resolve(html), '--system-map', 'System.map', '--stats', 'stats', 'tar.kmap'], { cwd: fx });
	console.log(`# ${html}: ${fs.statSync(html).size} bytes`);

	// What the page should show, from the CLI's tables and the files.
	const kinds = csv(['--by', 'kind', kmap]);
	const sites = csv(['--by', 'callsite', '--system-map', map, kmap]);
	const objs = csv(['--by', 'object', '--system-map', map, kmap]);
	const statLines = fs.readFileSync(stats, 'utf8').split('\n').filter((l) => l.trim())
		.map((l) => l.split(' '));
	// Per object (numbered from 1 in the file), its access ips' counts.
	const perObject = [];
	for (const line of fs.readFileSync(kmap, 'utf8').split('\n')) {
		if (!line) continue;
		if (line[0] !== ' ') { perObject.push(new Map()); continue; }
		const [ip, , w, r] = line.trim().split(',');
		const m = perObject[perObject.length - 1], c = m.get(ip) || { reads: 0, writes: 0 };
		c.reads += Number(r);
		c.writes += Number(w);
		m.set(ip, c);
	}
	check(perObject.length === objs.length, 'the kmap holds as many objects as report --by object says');

	const { browser, page, problems } = await open(html);

	// 1. Summary.
	let sec = await showView(page, 'summary');
	const kindRows = await tableRows(sec, 'kinds');
	equal(kindRows.length, kinds.length, 'summary: one row per kind');
	for (const k of kinds) {
		const r = kindRows.find((x) => x.kind === k.kind) || {};
		equal([r.objects, r.live, r.bytes, r.reads, r.writes], [k.objects, k.live, k.bytes, k.reads, k.writes],
			`summary: kind ${k.kind}'s objects, live, bytes, reads, writes`);
	}
	const statRows = await tableRows(sec, 'stats');
	equal(statRows.length, statLines.length, 'summary: one row per --stats line');
	equal(statRows.map((r) => [r.figure, String(r.value)]), statLines, 'summary: the --stats figures');
	const cardObjects = await sec.locator('.card').first().locator('.v').textContent();
	equal(cardObjects, kinds.reduce((a, k) => a + k.objects, 0).toLocaleString('en-US'), 'summary: the objects card');
	await page.screenshot({ path: path.join(outdir, 'summary.png') });

	// 2. Allocations: the icicle and the call sites' table.
	sec = await showView(page, 'alloc');
	const siteRows = await tableRows(sec, 'sites');
	equal(siteRows.length, sites.length, 'allocations: one table row per call site');
	for (const s of sites) {
		const r = siteRows.find((x) => x['call site'] === s.callsite) || {};
		equal([r.objects, r.live, r.bytes, r.reads, r.writes], [s.objects, s.live, s.bytes, s.reads, s.writes],
			`allocations: ${s.callsite}'s objects, live, bytes, reads, writes`);
	}
	// Sortable: a heading sorts by its column, descending, then ascending.
	const readsHead = sec.locator('table[data-table="sites"] thead th', { hasText: /^reads$/ });
	const byReads = sites.map((x) => x.reads).sort((a, b) => b - a);
	await readsHead.click();
	equal((await tableRows(sec, 'sites')).map((r) => r.reads), byReads, 'allocations: sorted by reads, descending');
	await readsHead.click();
	equal((await tableRows(sec, 'sites')).map((r) => r.reads), byReads.slice().reverse(), 'allocations: sorted by reads, ascending');
	for (const by of ['bytes', 'objects']) {
		await sec.locator(`input[name="sizeby"][value="${by}"]`).check();
		const leaves = await sec.locator('svg.icicle g[data-site]').evaluateAll((gs) => gs.map((g) => ({
			name: g.querySelector('text').textContent, width: Number(g.querySelector('rect').getAttribute('width')),
		})));
		const full = await sec.locator('svg.icicle g[data-depth="0"] rect').getAttribute('width');
		equal(leaves.length, sites.length, `allocations by ${by}: one icicle leaf per call site`);
		const total = sites.reduce((a, s) => a + s[by], 0);
		const widths = sites.map((s) => Math.round(s[by] / total * Number(full))).sort((a, b) => b - a);
		equal(leaves.map((l) => Math.round(l.width)).sort((a, b) => b - a), widths,
			`allocations by ${by}: leaves as wide as their ${by}`);
	}
	await sec.locator('input[name="sizeby"][value="bytes"]').check();
	await page.screenshot({ path: path.join(outdir, 'alloc.png') });

	// 3. The capability heatmap: function rows (System.map, no DWARF), call
	// site and kind columns (a text kmap names no cache), as capmap --csv.
	sec = await showView(page, 'capmap');
	equal(await sec.locator('select[data-capmap="rows"] option').evaluateAll((o) => o.map((x) => x.value)), ['function'],
		'capability map: function rows only (no DWARF lines)');
	equal(await sec.locator('select[data-capmap="cols"] option').evaluateAll((o) => o.map((x) => x.value)), ['callsite', 'kind'],
		'capability map: call site and kind columns (no cache in a text kmap)');
	for (const cols of ['callsite', 'kind']) {
		await sec.locator('select[data-capmap="cols"]').selectOption(cols);
		const cells = csv(['--cols', cols, '--system-map', map, kmap], 'capmap');
		const nrows = new Set(cells.map((c) => c.function)).size, ncols = new Set(cells.map((c) => c[cols])).size;
		const svg = sec.locator('svg.capmap');
		equal([await svg.locator('g.row').count(), await svg.locator('text.col').count(), await svg.locator('g.cell').count()],
			[nrows, ncols, cells.length], `capability map by ${cols}: rows, columns and cells as capmap --csv`);
		equal([await svg.getAttribute('data-rows'), await svg.getAttribute('data-cols')], [String(nrows), String(ncols)],
			`capability map by ${cols}: the svg's size`);
		// The busiest cell that both reads and writes.
		const known = cells.filter((c) => c.reads && c.writes).sort((a, b) => (b.reads + b.writes) - (a.reads + a.writes))[0];
		const g = svg.locator(`g.cell[data-row="${known.function}"][data-col="${known[cols]}"]`);
		equal(await g.count(), 1, `capability map by ${cols}: one cell ${known.function} x ${known[cols]}`);
		equal([Number(await g.getAttribute('data-reads')), Number(await g.getAttribute('data-writes')), Number(await g.getAttribute('data-frees'))],
			[known.reads, known.writes, known.frees], `capability map by ${cols}: ${known.function} x ${known[cols]}'s reads, writes, frees`);
		// Reads and writes drawn apart: the cell's two halves.
		const opac = await g.evaluate((n) => ['read', 'write'].map((k) => Number(n.querySelector('rect.' + k).getAttribute('fill-opacity'))));
		check(opac[0] > 0 && opac[1] > 0, `capability map by ${cols}: the known cell shows its reads and its writes`, JSON.stringify(opac));
		const onlyReads = cells.find((c) => c.reads && !c.writes);
		if (onlyReads)
			equal(await svg.locator(`g.cell[data-row="${onlyReads.function}"][data-col="${onlyReads[cols]}"] rect.write`).getAttribute('fill-opacity'),
				'0', `capability map by ${cols}: a cell of reads only shows no write`);
		const tab = await tableRows(sec, 'capmap');
		equal(tab.map((r) => [r.function, r[cols === 'callsite' ? 'call site' : 'kind'], r.reads, r.writes, r.frees, r.objects]).sort(),
			cells.map((c) => [c.function, c[cols], c.reads, c.writes, c.frees, c.objects]).sort(),
			`capability map by ${cols}: the table's cells as capmap --csv`);
		check((await sec.locator('p.shipped').textContent()).includes('Every cell is here.'),
			`capability map by ${cols}: says every cell is here`);
	}
	await sec.locator('select[data-capmap="cols"]').selectOption('callsite');
	await page.screenshot({ path: path.join(outdir, 'capmap.png'), fullPage: true });

	// 4. The explorer: a known call site (the one of most reads), an address.
	sec = await showView(page, 'objects');
	const known = sites.slice().sort((a, b) => b.reads - a.reads)[0];
	await sec.locator('select').selectOption('site');
	await sec.locator('input[type="search"]').fill(known.callsite);
	await sec.locator('input[type="search"]').press('Enter');
	const summaries = sec.locator('.site-summary');
	equal(await summaries.count(), 1, `explorer: ${known.callsite} matches one call site`);
	const figs = await summaries.first().evaluate((d) => Object.fromEntries([...d.querySelectorAll('[data-figure]')]
		.map((s) => [s.dataset.figure, Number(s.textContent.replace(/,/g, ''))])));
	equal([figs.objects, figs.bytes, figs.reads, figs.writes], [known.objects, known.bytes, known.reads, known.writes],
		`explorer: ${known.callsite}'s objects, bytes, reads, writes`);
	const mine = objs.filter((o) => o.callsite === known.callsite);
	const objRows = await tableRows(sec, 'objects');
	equal(objRows.length, Math.min(mine.length, 20), `explorer: ${known.callsite}'s objects listed`);
	equal(objRows.map((r) => [r.object, r.reads, r.writes]).sort(),
		mine.map((o) => [o.object, o.reads, o.writes]).sort(), `explorer: ${known.callsite}'s objects' reads and writes`);
	await sec.locator('table[data-table="objects"] tbody tr').first().click();
	const shownId = Number(await sec.locator('.detail').getAttribute('data-object'));
	const accRows = await tableRows(sec.locator('.detail'), 'accessors');
	const want = perObject[shownId - 1];
	equal(accRows.length, Math.min(want.size, 16), `explorer: object ${shownId}: one row per access ip`);
	// The 16 busiest, ties by ip; the rest summed in a note.
	const ranked = [...want].sort((a, b) => (b[1].reads + b[1].writes) - (a[1].reads + a[1].writes) ||
		(BigInt('0x' + a[0]) < BigInt('0x' + b[0]) ? -1 : 1));
	equal(accRows.map((r) => [r.ip.replace(/.* \(|\)$/g, ''), r.reads, r.writes]),
		ranked.slice(0, 16).map(([ip, c]) => [ip, c.reads, c.writes]), `explorer: object ${shownId}: reads and writes per access ip`);
	if (ranked.length > 16) {
		const rest = ranked.slice(16), sum = (k) => rest.reduce((a, e) => a + e[1][k], 0);
		equal(await sec.locator('.detail .others').textContent(),
			`And ${rest.length} more access ips: ${sum('reads')} reads, ${sum('writes')} writes.`, `explorer: object ${shownId}: the other access ips`);
	}
	await page.screenshot({ path: path.join(outdir, 'objects.png'), fullPage: true });
	// A picture of the explorer at the README's size.
	await page.setViewportSize({ width: 960, height: 640 });
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: path.join(outdir, 'readme.png') });
	await page.setViewportSize({ width: 1280, height: 860 });
	const target = objs[objs.length - 1];
	const inside = (BigInt('0x' + target.addr) + BigInt(Math.floor(target.size / 2))).toString(16);
	await sec.locator('select').selectOption('addr');
	await sec.locator('input[type="search"]').fill(inside);
	await sec.locator('input[type="search"]').press('Enter');
	const addrRows = await tableRows(sec, 'objects');
	equal(addrRows.map((r) => r.object), [target.object], `explorer: address ${inside} is in object ${target.object}`);

	// 5. Lifetimes: the call site of most freed objects, first shown.
	sec = await showView(page, 'lifetimes');
	const freed = new Map();
	for (const o of objs) {
		if (!o.free_jiffies) continue;
		const m = freed.get(o.callsite) || new Map();
		const b = bucket(o.free_jiffies - o.alloc_jiffies);
		m.set(b, (m.get(b) || 0) + 1);
		freed.set(o.callsite, m);
	}
	const [site, hist] = [...freed].sort((a, b) => d3sum(b[1]) - d3sum(a[1]))[0];
	equal(await sec.locator('.sitehead b').textContent(), site, 'lifetimes: the call site of most frees first');
	equal(await sec.locator('svg.hist rect.bar').count(), hist.size, `lifetimes: ${site}: one bar per lifetime bucket`);
	const bucketRows = await tableRows(sec, 'buckets');
	equal(bucketRows.map((r) => r.objects), [...hist].sort((a, b) => a[0] - b[0]).map((e) => e[1]),
		`lifetimes: ${site}: objects per bucket`);
	equal((await tableRows(sec, 'lifetimes')).length, sites.length, 'lifetimes: one table row per call site');
	await page.screenshot({ path: path.join(outdir, 'lifetimes.png') });

	equal(problems, [], 'no console error, no request');
	await browser.close();
	await dwarfViews();
	await compartViews();
	await offsetViews();
	await typeViews();
	await kindViews();
}

// The compartments view (fixtures/compartments.kmap and .calls, named by
// System.map; see golden.sh's compartments cases for the figures by
// hand): a dot per design point of memorizer compartments --csv, at its
// reduction and crossings; the ends: one compartment (reduction 0, no
// crossing) and one per function (reduction 1, every call crosses: the
// fixture's calls are all between different functions); a point's
// compartments, what each may touch and its calls in and out; the
// keyboard; without symbols the view says why it is empty.
async function compartViews() {
	const fx = path.join(here, 'fixtures');
	const html = path.resolve(outdir, 'compartments.html');
	const inputs = ['compartments.kmap', 'compartments.calls'];
	run(['report', '--html', '-o', html, '--system-map', 'System.map', ...inputs], { cwd: fx });
	const want = csv([...inputs.map((f) => path.join(fx, f)), '--system-map', path.join(fx, 'System.map')], 'compartments');
	// Every call of the fixture is between two functions: all cross at the end.
	const calls = fs.readFileSync(path.join(fx, 'compartments.calls'), 'utf8').trim().split('\n')
		.reduce((a, l) => a + Number(l.split(',')[3]), 0);
	equal(calls, 15, 'compartments: the fixture holds 15 calls');
	const { browser, page, problems } = await open(html);
	const sec = await showView(page, 'compartments');
	const dots = await sec.locator('svg.compart g.point').evaluateAll((gs) => gs.map((g) => ({
		compartments: Number(g.dataset.compartments), reduction: Number(g.dataset.reduction), crossings: Number(g.dataset.crossings),
		title: g.querySelector('title').textContent })));
	equal(dots.length, want.length, 'compartments: a dot per design point');
	equal(dots.map((d) => [d.compartments, d.crossings]), want.map((p) => [p.compartments, p.crossings]),
		'compartments: each dot\'s compartments and crossings as memorizer compartments --csv');
	check(dots.every((d, i) => Math.abs(d.reduction - Number(want[i].reduction)) < 1e-9),
		'compartments: each dot\'s reduction as memorizer compartments --csv', JSON.stringify(dots.map((d) => d.reduction)));
	const one = dots.find((d) => d.compartments === 1), all = dots.find((d) => d.compartments === 6);
	equal(one && [one.reduction, one.crossings], [0, 0], 'compartments: one compartment: reduction 0, no crossing');
	equal(all && [all.reduction, all.crossings], [1, calls], 'compartments: one per function (6): reduction 1, every call crosses');
	check(all && all.title.includes('crossings 15 (100.0% of calls)'), 'compartments: a dot\'s title has its figures', all && all.title);
	equal((await tableRows(sec, 'compart-points')).map((r) => [r.compartments, r.crossings, r.shared, r.granted]),
		want.map((p) => [p.compartments, p.crossings, p.shared, p.granted]), 'compartments: the design points\' table');
	// Three compartments: {call_rcu, rb_erase}, {getname_uflags} (calls
	// only), {kfree, xas_load, xas_store}; calls rb_erase -> xas_store 2,
	// kfree -> call_rcu 3, call_rcu -> getname_uflags 4 cross.
	await sec.locator('svg.compart g.point[data-compartments="3"]').click();
	equal(await sec.locator('.detail').getAttribute('data-compartments'), '3', 'compartments: clicking 3 shows its compartments');
	equal((await tableRows(sec, 'compartments')).map((r) => [r.compartment, r.functions, r['call sites'], r['calls in'], r['calls out'],
		r['its functions'], r['may touch (rights r, w, f)']]), [
		['call_rcu', 2, 1, 3, 6, 'call_rcu, rb_erase', 'alloc_vmap_area (rwf)'],
		['getname_uflags', 1, 0, 4, 0, 'getname_uflags', ''],
		['kfree', 3, 2, 2, 3, 'kfree, xas_load, xas_store', 'alloc_vmap_area (-w-), getname_flags (rwf)'],
	], 'compartments: 3 compartments, their functions, call sites, rights and crossing calls');
	equal(await sec.locator('select[data-compart="point"]').inputValue(), String(want.findIndex((p) => p.compartments === 3)),
		'compartments: the picker follows the click');
	await page.screenshot({ path: path.join(outdir, 'compartments.png'), fullPage: true });
	// The keyboard: Tab to a dot, Enter.
	await sec.locator('svg.compart g.point[data-compartments="2"]').focus();
	await page.keyboard.press('Enter');
	equal((await tableRows(sec, 'compartments')).map((r) => [r.compartment, r.functions, r['calls in'], r['calls out']]),
		[['call_rcu', 5, 0, 4], ['getname_uflags', 1, 4, 0]], 'compartments: Enter on the dot of 2 shows its two compartments');
	equal(await sec.locator('svg.compart g.point.selected').getAttribute('data-compartments'), '2', 'compartments: the dot of 2 is marked');
	equal(problems, [], 'compartments: no console error, no request');
	await browser.close();

	// No symbols: no functions to split; the page says so.
	const bare = path.resolve(outdir, 'compartments-bare.html');
	run(['report', '--html', '-o', bare, ...inputs], { cwd: fx });
	const b = await open(bare);
	const bs = await showView(b.page, 'compartments');
	check((await bs.locator('p.skipped').textContent()).includes('no symbols'), 'compartments: without symbols the view says why it is empty');
	equal(await bs.locator('svg.compart').count(), 0, 'compartments: without symbols no chart');
	equal(b.problems, [], 'compartments: no symbols: no console error, no request');
	await b.browser.close();
}

// A kmap_offsets whose object lines name their kinds and caches
// (fixtures/kinds.kmap): the page shows them as it does a stream's: the
// kinds as report --by kind --csv says them, no note that the input names
// no allocator, the heatmap's cache columns as capmap --cols cache --csv,
// the explorer's search by cache and its cache column.
async function kindViews() {
	const fx = path.join(here, 'fixtures');
	const kmap = path.join(fx, 'kinds.kmap'), map = path.join(fx, 'System.map');
	const html = path.resolve(outdir, 'kinds.html');
	run(['report', '--html', '-o', html, '--system-map', 'System.map', 'kinds.kmap'], { cwd: fx });
	const kinds = csv(['--by', 'kind', kmap]);
	const { browser, page, problems } = await open(html);
	let sec = await showView(page, 'summary');
	equal((await tableRows(sec, 'kinds')).map((r) => [r.kind, r.objects, r.live, r.bytes, r.reads, r.writes]).sort(),
		kinds.map((k) => [k.kind, k.objects, k.live, k.bytes, k.reads, k.writes]).sort(),
		'kinds: every kind\'s objects, live, bytes, reads, writes, as report --by kind');
	check(!(await sec.textContent()).includes('names no allocator'), 'kinds: no note that the input names no allocator');
	sec = await showView(page, 'capmap');
	equal(await sec.locator('select[data-capmap="cols"] option').evaluateAll((o) => o.map((x) => x.value)), ['callsite', 'cache', 'kind'],
		'kinds: the heatmap has cache columns');
	await sec.locator('select[data-capmap="cols"]').selectOption('cache');
	const cells = csv(['--cols', 'cache', '--system-map', map, kmap], 'capmap');
	equal((await tableRows(sec, 'capmap')).map((r) => [r.function, r.cache, r.reads, r.writes, r.frees, r.objects]).sort(),
		cells.map((c) => [c.function, c.cache, c.reads, c.writes, c.frees, c.objects]).sort(),
		'kinds: the heatmap\'s cells by cache as capmap --cols cache --csv');
	sec = await showView(page, 'objects');
	await sec.locator('select').selectOption('cache');
	await sec.locator('input[type="search"]').fill('memorizer_kunit?offsets');
	await sec.locator('input[type="search"]').press('Enter');
	equal((await tableRows(sec, 'objects')).map((r) => [r.object, r.cache]), [[3, 'memorizer_kunit?offsets']],
		'kinds: the explorer finds the object of cache memorizer_kunit?offsets');
	await page.screenshot({ path: path.join(outdir, 'kinds.png'), fullPage: true });
	equal(problems, [], 'kinds: no console error, no request');
	await browser.close();
}

// The bytes each access ip touched (a kmap_offsets, fixtures/offsets.kmap):
// per ip, pids united, as memorizer text --offsets gives them; a bar per
// ip over the object's bytes, its read half and its write half as the ip
// read or wrote.
async function offsetViews() {
	const fx = path.join(here, 'fixtures');
	const html = path.resolve(outdir, 'offsets.html');
	run(['report', '--html', '-o', html, 'offsets.kmap'], { cwd: fx });
	const lines = run(['text', '--offsets', 'offsets.kmap'], { cwd: fx }).split('\n');
	const at = lines.findIndex((l) => l.split(',')[2] === 'ffff888000001040');
	const want = [];
	for (let i = at + 1; i < lines.length && lines[i].startsWith('  '); i++) {
		const [ip, , w, r, off, end] = lines[i].trim().split(',');
		want.push({ ip, reads: Number(r), writes: Number(w), bytes: off + '..' + end });
	}
	check(want.length === 2, 'offsets: the fixture\'s object ffff888000001040 has two access ips');
	const { browser, page, problems } = await open(html);
	const sec = await showView(page, 'objects');
	await sec.locator('select').selectOption('addr');
	await sec.locator('input[type="search"]').fill('ffff888000001040');
	await sec.locator('input[type="search"]').press('Enter');
	await sec.locator('table[data-table="objects"] tbody tr').first().click();
	const rows = await tableRows(sec.locator('.detail'), 'accessors');
	equal(rows.map((r) => [r.ip.replace(/.* \(|\)$/g, ''), r.bytes, r.reads, r.writes]).sort(),
		want.map((a) => [a.ip, a.bytes, a.reads, a.writes]).sort(), 'offsets: bytes, reads and writes per access ip');
	const bars = await sec.locator('svg.bytes g.ip').evaluateAll((gs) => gs.map((g) => [g.dataset.range,
		g.querySelectorAll('rect.read').length, g.querySelectorAll('rect.write').length]));
	equal(bars.sort(), want.map((a) => [a.bytes, a.reads ? 1 : 0, a.writes ? 1 : 0]).sort(),
		'offsets: a bar per access ip over its bytes, halves as it read and wrote');
	await page.screenshot({ path: path.join(outdir, 'offsets.png'), fullPage: true });
	equal(problems, [], 'offsets: no console error, no request');
	await browser.close();
}

// Struct types (tools/tests/fixtures/types-sites.desc, with types-prog's
// call sites as golden.sh puts them): the explorer's search by type, an
// object's type and how it was known, and per access ip the member its
// bytes are, as memorizer capmap --fields --cols type names them.
async function typeViews() {
	const dir = path.resolve(outdir, 'types');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const tp = path.join(path.dirname(mkstream), 'types-prog');
	const sites = execFileSync(tp, { encoding: 'utf8' }).trim().split('\n');
	const desc = fs.readFileSync(path.join(here, 'fixtures/types-sites.desc'), 'utf8')
		.replace(/@([1234])@/g, (m, i) => sites[i - 1]);
	fs.writeFileSync(path.join(dir, 'types.desc'), desc);
	execFileSync('sh', ['-c', `"${mkstream}" < types.desc > types.bin`], { cwd: dir });
	const html = path.join(dir, 'types.html');
	run(['report', '--html', '-o', html, '--vmlinux', tp, 'types.bin'], { cwd: dir });
	// capmap's cells by object: ip, object, offset, offset_end, field,
	// reads, writes.
	const cells = run(['capmap', '--csv', '--rows', 'ip', '--cols', 'object', '--fields', '--vmlinux', tp, 'types.bin'], { cwd: dir })
		.trim().split('\n').slice(1).map((l) => l.split(','));
	const { browser, page, problems } = await open(html);
	const sec = await showView(page, 'objects');
	await sec.locator('select').selectOption('type');
	// Objects by type, and how each one's type was known.
	const expect = { outer: { 1: 'by the variable its call site keeps it in', 6: 'the global variable at its address' },
		inner: { 2: 'by its size, the one struct of it in scope at its call site' } };
	for (const [type, objs] of Object.entries(expect)) {
		await sec.locator('input[type="search"]').fill('struct ' + type);
		await sec.locator('input[type="search"]').press('Enter');
		const found = await tableRows(sec, 'objects');
		equal(found.map((o) => [o.object, o.type]).sort(), Object.keys(objs).map((id) => [Number(id), 'struct ' + type]).sort(),
			`types: searching struct ${type} finds objects ${Object.keys(objs).join(', ')}`);
		for (const [id, how] of Object.entries(objs)) {
			await sec.locator('table[data-table="objects"] tbody tr', { has: page.locator(`td:first-child[data-value="${id}"]`) }).first().click();
			const dd = await sec.locator('.detail dt', { hasText: /^type$/ }).locator('xpath=following-sibling::dd[1]').textContent();
			equal(dd, `struct ${type} (${how})`, `types: object ${id}'s type and how it was known`);
			const want = cells.filter((c) => c[1] === id).map((c) => [c[0], c[2] + '..' + c[3], c[4], Number(c[5]), Number(c[6])]);
			const rows = await tableRows(sec.locator('.detail'), 'accessors');
			equal(rows.map((r) => [r.ip.replace(/.* \(|\)$/g, ''), r.bytes, r.field, r.reads, r.writes]).sort(), want.sort(),
				`types: object ${id}'s access ips' bytes and members as capmap --fields names them`);
			equal((await sec.locator('svg.bytes text.field').allTextContents()).sort(), want.map((c) => c[2]).sort(),
				`types: object ${id}'s byte bars name the members`);
		}
	}
	await page.screenshot({ path: path.join(outdir, 'types.png'), fullPage: true });
	await sec.locator('input[type="search"]').fill('cred');
	await sec.locator('input[type="search"]').press('Enter');
	equal(await sec.locator('table[data-table="objects"] tbody tr').count(), 0, 'types: no object of struct cred');
	equal(problems, [], 'types: no console error, no request');
	await browser.close();
}

// The heatmap's file and directory rows: a program built with -g from
// three files in two directories stands in for vmlinux (as in golden.sh),
// a kmap of its functions' addresses; a directory's row drills down to
// its files.
async function dwarfViews() {
	const dir = path.resolve(outdir, 'dw');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(path.join(dir, 'fs'), { recursive: true });
	fs.mkdirSync(path.join(dir, 'mm'));
	fs.writeFileSync(path.join(dir, 'fs/read.c'), 'int fs_read(int x)\n{\n\treturn x + 1;\n}\n');
	fs.writeFileSync(path.join(dir, 'fs/write.c'), 'int fs_write(int x)\n{\n\treturn x + 3;\n}\n');
	fs.writeFileSync(path.join(dir, 'mm/alloc.c'), 'int mm_alloc(int x)\n{\n\treturn x * 2;\n}\nint main(void) { return mm_alloc(1); }\n');
	execFileSync('cc', ['-g', '-O0', '-no-pie', '-o', 'prog', 'fs/read.c', 'fs/write.c', 'mm/alloc.c'], { cwd: dir });
	const addr = Object.fromEntries(execFileSync('nm', ['prog'], { cwd: dir, encoding: 'utf8' }).split('\n')
		.map((l) => l.split(' ')).filter((f) => f.length === 3).map((f) => [f[2], f[0].replace(/^0+/, '')]));
	// Two objects of mm_alloc's: fs_read and fs_write read and write them.
	fs.writeFileSync(path.join(dir, 'dw.kmap'),
		`${addr.mm_alloc},5,ffff888000001000,64,100,0,0,sh\n  ${addr.fs_read},5,1,2\n  ${addr.fs_write},5,4,0\n  ${addr.mm_alloc},5,3,0\n` +
		`${addr.mm_alloc},5,ffff888000002000,64,100,0,0,sh\n  ${addr.fs_read},5,0,7\n`);
	const html = path.join(dir, 'dw.html');
	run(['report', '--html', '-o', html, '--vmlinux', 'prog', 'dw.kmap'], { cwd: dir });
	const { browser, page, problems } = await open(html);
	const sec = await showView(page, 'capmap');
	equal(await sec.locator('select[data-capmap="rows"] option').evaluateAll((o) => o.map((x) => x.value)), ['function', 'dir', 'file', 'file-function'],
		'dwarf: function, directory, file and file-function rows');
	const head = { dir: 'directory', file: 'file', 'file-function': 'function in a file' };
	for (const rows of ['file-function', 'file', 'dir']) {
		await sec.locator('select[data-capmap="rows"]').selectOption(rows);
		const cells = run(['capmap', '--csv', '--rows', rows, '--vmlinux', 'prog', 'dw.kmap'], { cwd: dir }).trim().split('\n').slice(1)
			.map((l) => l.split(',')).map(([s, g, r, w, f, o]) => [s, g, Number(r), Number(w), Number(f), Number(o)]);
		const tab = await tableRows(sec, 'capmap');
		equal(tab.map((r) => [r[head[rows]], r['call site'], r.reads, r.writes, r.frees, r.objects]).sort(), cells.sort(),
			`dwarf: by ${rows}, the table's cells as capmap --csv --rows ${rows}`);
	}
	// dir: fs and mm; click fs: its two files, their cells as capmap's.
	await sec.locator('svg.capmap g.row[data-name="fs"] text').click();
	equal(await sec.locator('.crumbs span').textContent(), 'fs', 'dwarf: clicking fs drills down to it');
	equal(await sec.locator('svg.capmap g.row').evaluateAll((g) => g.map((x) => x.dataset.name).sort()), ['fs/read.c', 'fs/write.c'],
		'dwarf: directory fs shows its files');
	const fsCells = run(['capmap', '--csv', '--rows', 'file', '--vmlinux', 'prog', 'dw.kmap'], { cwd: dir }).trim().split('\n').slice(1)
		.map((l) => l.split(',')).filter((f) => f[0].startsWith('fs/'));
	equal((await tableRows(sec, 'capmap')).map((r) => [r.file, r.reads, r.writes]).sort(),
		fsCells.map((f) => [f[0], Number(f[2]), Number(f[3])]).sort(), 'dwarf: fs\'s files\' reads and writes');
	// fs/read.c: its function, as capmap --rows file-function names it.
	await sec.locator('svg.capmap g.row[data-name="fs/read.c"] text').click();
	equal(await sec.locator('.crumbs').textContent(), 'all directories \u203a fs \u203a fs/read.c', 'dwarf: clicking fs/read.c drills down to it');
	const fnCells = run(['capmap', '--csv', '--rows', 'file-function', '--vmlinux', 'prog', 'dw.kmap'], { cwd: dir }).trim().split('\n').slice(1)
		.map((l) => l.split(',')).filter((f) => f[0].startsWith('fs/read.c:'));
	equal(await sec.locator('svg.capmap g.row text').evaluateAll((t) => t.map((x) => x.textContent)), fnCells.map((f) => f[0].slice('fs/read.c:'.length)),
		'dwarf: fs/read.c shows its functions by name');
	equal((await tableRows(sec, 'capmap')).map((r) => [r['function in a file'], r.reads, r.writes]),
		fnCells.map((f) => [f[0], Number(f[2]), Number(f[3])]), 'dwarf: fs/read.c\'s functions\' reads and writes');
	await page.screenshot({ path: path.join(outdir, 'capmap-dwarf.png'), fullPage: true });
	await sec.locator('.crumbs button', { hasText: /^fs$/ }).click();
	equal(await sec.locator('svg.capmap g.row').count(), 2, 'dwarf: back to fs\'s two files');
	await sec.locator('.crumbs button').first().click();
	equal(await sec.locator('svg.capmap g.row').count(), 2, 'dwarf: back to the two directories');
	equal(problems, [], 'dwarf: no console error, no request');
	await browser.close();
}
function d3sum(m) { return [...m.values()].reduce((a, b) => a + b, 0); }

// A binary stream of n objects in s call sites, kinds 0-4, 1-4 accesses
// each, nine in ten freed: mkstream's description, written to a file.
function generate(file, n, s) {
	const lines = ['header nr_cpus=1 hz=250', 'task cpu=0 ns=1 pid=100 comm=make', 'task cpu=0 ns=2 pid=101 comm=cc1'];
	let ns = 10;
	const caches = ['kmalloc-64', 'kmalloc-256', 'dentry', 'inode_cache', 'buffer_head', 'filp'];
	caches.forEach((c, i) => lines.push(`cache cpu=0 ns=${ns++} id=${i + 1} name=${c}`));
	const api = [0, 1, 0, 2, 3];
	let seed = 1;	/* mulberry32 */
	const rand = (k) => {
		let t = (seed = (seed + 0x6D2B79F5) | 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) % k;
	};
	for (let i = 0; i < n; i++) {
		const site = (i * 7919) % s, kind = site % 5, size = kind === 4 ? 4096 : 16 + (site % 200) * 8;
		const cache = kind === 0 ? 1 + (site % 2) : kind === 1 ? 3 + (site % 4) : 0;
		const addr = (0xffff888100000000n + BigInt(i) * 0x2000n).toString(16);
		const callsite = (0xffffffff81000000n + BigInt(site) * 0x40n).toString(16);
		const j = 1000 + Math.floor(i / 10);
		lines.push(`alloc cpu=0 ns=${ns++} id=${i + 1} addr=0x${addr} call_site=0x${callsite} jiffies=${j} size_req=${size} size_alloc=${size} pid=${100 + (i % 2)} cache_id=${cache} kind=${kind}`);
		const na = 1 + rand(4);
		for (let a = 0; a < na; a++)
			lines.push(`access cpu=0 ns=${ns++} id=${i + 1} ip=0x${(0xffffffff81400000n + BigInt(rand(500)) * 0x10n + BigInt(a)).toString(16)} pid=${100 + (i % 2)} writes=${rand(5)} reads=${1 + rand(50)}`);
		if (rand(10))
			lines.push(`free cpu=0 ns=${ns++} id=${i + 1} call_site=0xffffffff81300000 jiffies=${j + rand(3000)} api=${api[kind]}`);
	}
	fs.writeFileSync(file, lines.join('\n') + '\n');
}

async function large() {
	const n = 100000, s = 2000;
	const desc = path.join(outdir, 'large.desc'), bin = path.join(outdir, 'large.bin');
	const html = path.join(outdir, 'large.html');
	generate(desc, n, s);
	execFileSync('sh', ['-c', `"${mkstream}" < "${desc}" > "${bin}"`]);
	let t = Date.now();
	run(['report', '--html', '-o', html, bin]);
	const made = Date.now() - t;
	const size = fs.statSync(html).size;
	console.log(`# ${html}: ${(size / 1e6).toFixed(1)} MB from a ${(fs.statSync(bin).size / 1e6).toFixed(1)} MB stream of ${n} objects in ${s} call sites, made in ${made} ms`);
	const { browser, page, problems, t0 } = await open(html);
	const ms = {};
	for (const v of ['summary', 'alloc', 'capmap', 'compartments', 'objects', 'lifetimes']) {
		const sec = await showView(page, v);
		ms[v] = Number(await sec.getAttribute('data-render-ms'));
	}
	const loaded = Date.now() - t0;
	console.log(`# loaded and every view drawn in ${loaded} ms (draw: ${JSON.stringify(ms)})`);
	check(loaded < 5000, `large: loads and draws every view in under 5 s (${loaded} ms)`);
	const sec = page.locator('section[data-view="alloc"]');
	equal(await sec.locator('table[data-table="sites"]').getAttribute('data-rows'), String(s), 'large: every call site in the table');
	equal(await page.locator('table[data-table="objects"]').getAttribute('data-rows'), '20000', 'large: 20,000 objects in the explorer');
	check((await page.locator('section[data-view="objects"] .note').first().textContent()).includes('20,000 of the 100,000'),
		'large: the explorer says how many objects it holds');
	// The heatmap holds the 60 rows and 40 columns of most traffic: without
	// symbols a function is its ip in hex, as capmap --rows ip names it.
	const cells = csv(['--rows', 'ip', bin], 'capmap');
	const top = (key, max) => {
		const t = new Map();
		cells.forEach((c) => t.set(c[key], (t.get(c[key]) || 0) + c.reads + c.writes + c.frees));
		return [...t].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map((e) => e[0]);
	};
	const rows = new Set(top('ip', 60)), cols = new Set(top('callsite', 40));
	const shown = cells.filter((c) => rows.has(c.ip) && cols.has(c.callsite)), out = cells.filter((c) => !shown.includes(c));
	const cm = page.locator('section[data-view="capmap"]');
	equal([await cm.locator('svg.capmap g.row').count(), await cm.locator('svg.capmap text.col').count(), await cm.locator('svg.capmap g.cell').count()],
		[rows.size, new Set(shown.map((c) => c.callsite)).size, shown.length], 'large: the heatmap\'s rows, columns and cells, the busiest');
	const sum = (k) => out.reduce((a, c) => a + c[k], 0).toLocaleString('en-US');
	check((await cm.locator('p.shipped').textContent()).includes(`${out.length.toLocaleString('en-US')} cells with ${sum('reads')} reads, ${sum('writes')} writes and ${sum('frees')} frees`),
		'large: the heatmap says what it left out', await cm.locator('p.shipped').textContent());
	await showView(page, 'capmap');
	await page.screenshot({ path: path.join(outdir, 'large-capmap.png'), fullPage: true });
	await showView(page, 'lifetimes');
	await page.screenshot({ path: path.join(outdir, 'large.png') });
	equal(problems, [], 'large: no console error, no request');
	await browser.close();
	fs.rmSync(desc);
}

try {
	await (which === 'views' ? views() : large());
} catch (e) {
	check(false, 'the test ran to its end', e.stack || e);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

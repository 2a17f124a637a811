/*
 * memorizer report --html: the page's code. The data is the JSON that
 * report-html.c wrote into #report-data; d3's modules are inlined before
 * this script. Every view is one entry of VIEWS: the data section it needs
 * and a render function, called once, the first time its tab is shown. A
 * new view is one more section in report-html.c and one more entry here.
 *
 * Each rendered view marks its section data-rendered="1"; tables carry
 * their raw figures in data-value, for the browser test and for copying.
 */
'use strict';
(function () {
	const DATA = JSON.parse(document.getElementById('report-data').textContent);
	const META = DATA.meta;
	const BINARY = META.format === 'binary';
	/* Every object names its kind and cache: a stream, or a kmap_offsets of 10-field object lines. */
	const KINDS_NAMED = META.kinds_named;

	/* Okabe and Ito's palette: told apart with any colour vision. */
	const KIND_COLOURS = {
		kmalloc: '#0072B2', kmem_cache: '#E69F00', kmalloc_large: '#009E73',
		vmalloc: '#CC79A7', pages: '#56B4E9', global: '#D55E00',
		percpu: '#F0E442', stack: '#999933', unknown: '#8c8c8c',
	};
	const FN_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999933'];
	/* Whether a fill wants white text (its relative luminance). */
	function dark(hex) {
		const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
			.map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
		return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] < 0.18;
	}

	/* ---------------------------------------------------------------- */
	/* Rows out of columns, and formats.                                */

	function records(table) {
		const cols = table.columns;
		return table.rows.map((r, i) => {
			const o = { index: i };
			cols.forEach((c, j) => { o[c] = r[j]; });
			return o;
		});
	}
	const sites = records(DATA.sites);
	const sitesOther = records(DATA.sites_other);
	const objects = records(DATA.objects);
	const ips = DATA.ips;
	sites.forEach((s) => {
		s.accesses = s.reads + s.writes;
		s.avg_life = s.freed ? s.life_sum / s.freed : null;
		s.shown = [];
	});
	objects.forEach((o) => {
		o.site_row = sites[o.site];
		o.site_row.shown.push(o);
		o.accesses = o.reads + o.writes;
		o.life = o.free_jiffies === null ? null : o.free_jiffies - o.alloc_jiffies;
	});

	const fmtInt = (n) => (n === null || n === undefined) ? '-' : Number(n).toLocaleString('en-US');
	function human(bytes) {
		const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
		let v = bytes, u = 0;
		while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
		return u ? v.toFixed(v < 10 ? 2 : 1) + ' ' + units[u] : v + ' B';
	}
	function jiffies(j) {
		if (j === null || j === undefined) return '-';
		const t = j.toLocaleString('en-US', { maximumFractionDigits: 2 });
		return META.hz ? t + ' (' + ms(j) + ')' : t;
	}
	function ms(j) {
		const v = j * 1000 / META.hz;
		return v >= 1000 ? (v / 1000).toFixed(2) + ' s' : v.toFixed(v < 10 ? 1 : 0) + ' ms';
	}
	function el(tag, attrs, ...kids) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (v === null || v === undefined) continue;
			if (k === 'text') e.textContent = v;
			else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
			else e.setAttribute(k, v);
		}
		for (const k of kids) if (k !== null && k !== undefined) e.append(k);
		return e;
	}
	const tip = document.getElementById('tip');
	function showTip(ev, text) {
		tip.textContent = text;
		tip.hidden = false;
		const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
		tip.style.left = x + 'px';
		tip.style.top = (ev.clientY + 14) + 'px';
	}
	const hideTip = () => { tip.hidden = true; };

	/* ---------------------------------------------------------------- */
	/* Sortable tables: click a heading to sort, again to turn it over.  */

	/*
	 * cols: { key, label, type ('num', 'bytes', 'text', 'code'), value
	 * (row => raw figure), show (row => text or node) }. opts: sort (a
	 * key), desc, limit (rows drawn before "show all"), onRow, name.
	 */
	function sortableTable(parent, cols, rows, opts) {
		opts = opts || {};
		const value = (c, r) => c.value ? c.value(r) : r[c.key];
		let sortCol = cols.find((c) => c.key === opts.sort) || null;
		let desc = opts.desc !== undefined ? opts.desc : true;
		let limit = opts.limit || 500;
		let selected = null;
		const wrap = el('div', { class: 'tablewrap' });
		const table = el('table', { 'data-table': opts.name || null });
		const thead = el('thead'), tbody = el('tbody'), more = el('div', { class: 'more' });
		const tr = el('tr'), ths = [];
		cols.forEach((c) => {
			const th = el('th', { class: c.type === 'num' || c.type === 'bytes' ? 'num' : null,
				scope: 'col', title: c.title || null, text: c.label });
			th.addEventListener('click', () => {
				if (sortCol === c) desc = !desc;
				else { sortCol = c; desc = c.type === 'num' || c.type === 'bytes'; }
				draw();
			});
			ths.push(th);
			tr.append(th);
		});
		thead.append(tr);
		table.append(thead, tbody);
		wrap.append(table);
		parent.append(wrap, more);

		function cmp(a, b) {
			const x = value(sortCol, a), y = value(sortCol, b);
			if (x === y) return 0;
			if (x === null || x === undefined) return 1;
			if (y === null || y === undefined) return -1;
			const r = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
			return desc ? -r : r;
		}
		function cell(c, r) {
			const v = value(c, r);
			const td = el('td', { class: c.type === 'num' || c.type === 'bytes' ? 'num' :
				c.type === 'code' ? 'code' : c.type === 'list' ? 'code list' : null });
			td.dataset.value = v === null || v === undefined ? '' : String(v);
			if (c.show) td.append(c.show(r));
			else if (v === null || v === undefined) td.textContent = '-';
			else if (c.type === 'num') td.textContent = fmtInt(v);
			else if (c.type === 'bytes') {
				td.textContent = fmtInt(v);
				if (v >= 1024) td.append(' ', el('span', { class: 'u', text: '(' + human(v) + ')' }));
			} else td.textContent = String(v);
			return td;
		}
		function draw() {
			const sorted = sortCol ? rows.slice().sort(cmp) : rows;
			cols.forEach((c, i) => {
				if (c === sortCol) ths[i].setAttribute('aria-sort', desc ? 'descending' : 'ascending');
				else ths[i].removeAttribute('aria-sort');
			});
			const frag = document.createDocumentFragment();
			sorted.slice(0, limit).forEach((r) => {
				const row = el('tr', { class: opts.onRow ? 'clickable' : null });
				if (r === selected) row.classList.add('selected');
				cols.forEach((c) => row.append(cell(c, r)));
				if (opts.onRow) row.addEventListener('click', () => {
					selected = r;
					tbody.querySelectorAll('tr.selected').forEach((x) => x.classList.remove('selected'));
					row.classList.add('selected');
					opts.onRow(r);
				});
				frag.append(row);
			});
			tbody.replaceChildren(frag);
			more.replaceChildren();
			if (sorted.length > limit)
				more.append(fmtInt(limit) + ' of ' + fmtInt(sorted.length) + ' rows shown. ',
					el('button', { class: 'link', text: 'Show all', onclick: () => { limit = Infinity; draw(); } }));
			table.dataset.rows = String(rows.length);
		}
		draw();
		return { table, redraw: draw, select(r) { selected = r; draw(); } };
	}

	/* The figures of a group of objects (a kind, a call site), as columns. */
	const FIGURE_COLS = [
		{ key: 'objects', label: 'objects', type: 'num' },
		{ key: 'live', label: 'live', type: 'num' },
		{ key: 'bytes', label: 'bytes', type: 'bytes' },
		BINARY ? { key: 'bytes_alloc', label: 'bytes allocated', type: 'bytes' } : null,
		{ key: 'reads', label: 'reads', type: 'num' },
		{ key: 'writes', label: 'writes', type: 'num' },
	];
	const siteCell = (s) => el('span', { title: s.where ? s.callsite + ' at ' + s.where : s.callsite + ' (' + s.ip + ')',
		text: s.callsite });

	/* ---------------------------------------------------------------- */
	/* View 1: summary.                                                  */

	function renderSummary(sec) {
		const t = DATA.summary;
		const stat = new Map((DATA.stats || []).map(([k, v]) => [k, v]));
		const cards = el('div', { class: 'cards' });
		function card(k, v, s) {
			cards.append(el('div', { class: 'card' }, el('div', { class: 'k', text: k }),
				el('div', { class: 'v', text: v }), s ? el('div', { class: 's', text: s }) : null));
		}
		card('objects', fmtInt(t.objects), fmtInt(t.live) + ' live');
		card('bytes requested', human(t.bytes), BINARY ? human(t.bytes_alloc) + ' allocated' : fmtInt(t.bytes) + ' B');
		card('reads', fmtInt(t.reads), (t.bytes ? (t.reads / t.bytes).toFixed(2) : '0') + ' per byte');
		card('writes', fmtInt(t.writes), (t.bytes ? (t.writes / t.bytes).toFixed(2) : '0') + ' per byte');
		card('access lines', fmtInt(t.access_lines), '(ip, pid) counters');
		card('average lifetime', t.avg_lifetime === null ? 'none freed' : jiffies(t.avg_lifetime), 'jiffies, freed objects');
		card('never read / written', fmtInt(t.never_read) + ' / ' + fmtInt(t.never_written), 'objects');
		card('missed frees', fmtInt(t.missed_free));
		if (BINARY) {
			card('lost records', fmtInt(t.lost_records), 'stream records the kernel dropped');
			card('cross-CPU / mismatched frees', fmtInt(t.cross_cpu) + ' / ' + fmtInt(t.mismatched_free));
			card('allocated before the stream', fmtInt(t.allocated_before_stream), 'objects');
		}
		for (const k of ['objects_dropped', 'accesses_dropped', 'accesses_untracked'])
			if (stat.has(k)) card(k.replace('_', ' '), fmtInt(stat.get(k)), 'collection (--stats)');
		sec.append(el('h2', { text: 'Totals' }), cards);

		sec.append(el('h2', { text: 'Per allocator kind' }));
		if (!KINDS_NAMED)
			sec.append(el('p', { class: 'note', text: 'A text kmap names no allocator: only globals, per-CPU objects and IRQ stacks are told apart; the rest is "unknown". Binary streams (memorizer stream) and a kmap_offsets whose object lines carry kind and cache name every kind and cache.' }));
		const swatch = (k) => el('span', {}, el('i', { style: 'display:inline-block;width:10px;height:10px;margin-right:5px;background:' + (KIND_COLOURS[k.kind] || '#8c8c8c') }), k.kind);
		sortableTable(sec, [
			{ key: 'kind', label: 'kind', type: 'text', show: swatch },
			{ key: 'sites', label: 'call sites', type: 'num' },
			...FIGURE_COLS,
		].filter(Boolean), records(DATA.kinds), { sort: 'bytes', name: 'kinds' });

		sec.append(el('h2', { text: 'Collection' }));
		if (DATA.stats) {
			sec.append(el('p', { class: 'note', text: 'The figures Memorizer kept while collecting (debugfs memorizer/stats, given with --stats).' }));
			sortableTable(sec, [
				{ key: 0, label: 'figure', type: 'code' },
				{ key: 1, label: 'value', type: 'num' },
			], DATA.stats, { name: 'stats', limit: 1000 });
		} else {
			sec.append(el('p', { class: 'note', text: 'No collection figures: give memorizer report --stats FILE (a copy of debugfs memorizer/stats) to show them here.' }));
		}
	}

	/* ---------------------------------------------------------------- */
	/* View 2: the allocations, an icicle.                               */

	function renderAlloc(sec) {
		let sizeBy = 'bytes';
		const controls = el('div', { class: 'controls' });
		const radios = ['bytes', 'objects'].map((k) => {
			const r = el('input', { type: 'radio', name: 'sizeby', value: k, id: 'sizeby-' + k });
			if (k === sizeBy) r.checked = true;
			r.addEventListener('change', () => { sizeBy = k; draw(focusPath); });
			return el('label', { for: 'sizeby-' + k }, r, ' ' + k);
		});
		controls.append(el('span', { text: 'Size by:' }), ...radios);
		sec.append(el('p', { class: 'note', text: 'Allocations by allocator kind' + (KINDS_NAMED ? ', cache' : '') +
			', function and call site: each box is as wide as its bytes or objects. Click a box to zoom in, the top one to zoom out.' +
			(META.sites_shipped < META.sites_total ? ' This page holds the ' + fmtInt(META.sites_shipped) + ' call sites of most bytes of ' +
				fmtInt(META.sites_total) + '; the others are summed per kind.' : '') }), controls);
		const crumbs = el('div', { class: 'crumbs' });
		const legend = el('div', { class: 'legend' });
		const box = el('div', { class: 'icicle-box' });
		sec.append(legend, crumbs, box);
		const kindsSeen = [...new Set(sites.map((s) => s.kind))];
		kindsSeen.forEach((k) => legend.append(el('span', {}, el('i', { style: 'background:' + (KIND_COLOURS[k] || '#8c8c8c') }), k)));

		/* The tree: root, kind, cache (when the input names kinds and caches), function, site. */
		function tree() {
			const root = { name: 'all', children: new Map() };
			sites.forEach((s) => {
				const path = [s.kind];
				if (KINDS_NAMED) path.push(s.cache === null ? '(no cache)' : s.cache);
				path.push(s.function);
				let n = root;
				path.forEach((p, i) => {
					if (!n.children.has(p)) n.children.set(p, { name: p, kind: s.kind, fn: i === path.length - 1 ? p : undefined, children: new Map() });
					n = n.children.get(p);
				});
				n.children.set(s.ip + '/' + s.index, { name: s.callsite, kind: s.kind, site: s, fn: s.function });
			});
			sitesOther.forEach((o) => {
				if (!root.children.has(o.kind)) root.children.set(o.kind, { name: o.kind, kind: o.kind, children: new Map() });
				root.children.get(o.kind).children.set('\u0000others', { name: '(' + fmtInt(o.sites) + ' more call sites)', kind: o.kind, other: o });
			});
			const arr = (n) => n.children ? Object.assign({}, n, { children: [...n.children.values()].map(arr) }) : n;
			return arr(root);
		}
		const data = tree();
		let focusPath = [];
		/*
		 * Colour: the allocator kind; where every call site is of one
		 * kind (a text kmap's), the function, its order by bytes.
		 */
		const oneKind = kindsSeen.length === 1;
		const fnColour = new Map();
		if (oneKind) {
			const byFn = d3.rollup(sites, (v) => d3.sum(v, (s) => s.bytes), (s) => s.function);
			[...byFn].sort((a, b) => b[1] - a[1]).forEach(([f], i) => fnColour.set(f, FN_COLOURS[i % FN_COLOURS.length]));
			legend.replaceChildren(el('span', { text: 'Colour: the function (every call site is of kind ' + kindsSeen[0] + ').' }));
		}
		function colour(d) {
			if (d.depth === 0 && !focusPath.length) return '#c8ccd2';
			if (oneKind) return d.data.fn ? fnColour.get(d.data.fn) : '#b4b9c0';
			return KIND_COLOURS[d.data.kind] || '#8c8c8c';
		}

		function draw(path) {
			focusPath = path;
			const width = Math.max(600, box.clientWidth || 1000);
			let node = data;
			for (const p of path) node = node.children.find((c) => c.name === p) || node;
			const h = d3.hierarchy(node).sum((d) => d.site ? d.site[sizeBy] : d.other ? d.other[sizeBy] : 0)
				.sort((a, b) => b.value - a.value || String(a.data.name).localeCompare(String(b.data.name)));
			const rowH = 26;
			const height = (h.height + 1) * rowH;
			d3.partition().size([width, height]).padding(0)(h);
			const svg = d3.select(box).selectAll('svg').data([0]).join('svg')
				.attr('class', 'icicle').attr('width', width).attr('height', height)
				.attr('role', 'img').attr('aria-label', 'Icicle of allocations by ' + sizeBy);
			const total = h.value || 1;
			const g = svg.selectAll('g.node').data(h.descendants(), (d) => d.ancestors().map((a) => a.data.name).join('\u0001'))
				.join((enter) => {
					const e = enter.append('g').attr('class', 'node');
					e.append('rect');
					e.append('text');
					return e;
				});
			g.attr('transform', (d) => `translate(${d.x0},${d.y0})`)
				.attr('data-site', (d) => d.data.site ? d.data.site.index : null)
				.attr('data-depth', (d) => d.depth);
			g.select('rect')
				.attr('width', (d) => Math.max(0, d.x1 - d.x0))
				.attr('stroke-width', (d) => d.x1 - d.x0 > 4 ? 1 : 0)
				.attr('height', (d) => d.y1 - d.y0)
				.attr('fill', (d) => colour(d))
				.attr('fill-opacity', (d) => d.data.site || d.data.other ? 1 : 0.55 + 0.15 * Math.min(d.depth, 3));
			g.select('text')
				.attr('x', 4).attr('y', rowH / 2 + 4)
				.attr('class', (d) => (d.data.site || d.data.other) && dark(colour(d)) ? 'on-dark' : null)
				.text((d) => {
					const w = d.x1 - d.x0, label = d.depth === 0 ? (path.length ? '\u2191 ' + d.data.name : 'all') : String(d.data.name);
					const room = Math.floor((w - 8) / 6.6);
					if (room < 3) return '';
					return label.length > room ? label.slice(0, room - 1) + '\u2026' : label;
				});
			g.on('mousemove', (ev, d) => {
				const s = d.data.site;
				const lines = [d.data.other ? d.data.name + ' of kind ' + d.data.kind + ', not on this page: ' + fmtInt(d.data.other.objects) + ' objects' : s ? s.callsite + (s.where ? ' at ' + s.where : '') : String(d.data.name),
					(sizeBy === 'bytes' ? human(d.value) + ' (' + fmtInt(d.value) + ' bytes)' : fmtInt(d.value) + ' objects') +
					', ' + (100 * d.value / total).toFixed(1) + '% of this view'];
				if (s) lines.push(fmtInt(s.objects) + ' objects, ' + fmtInt(s.live) + ' live, ' + human(s.bytes) +
					'; reads ' + fmtInt(s.reads) + ', writes ' + fmtInt(s.writes) + (s.cache ? '; cache ' + s.cache : ''));
				showTip(ev, lines.join('\n'));
			}).on('mouseleave', hideTip)
				.on('click', (ev, d) => {
					hideTip();
					if (d.depth === 0) draw(path.slice(0, -1));
					else if (d.children) draw(path.concat(d.ancestors().reverse().slice(1).map((a) => a.data.name)));
				});
			crumbs.replaceChildren(el('button', { class: 'link', text: 'all', onclick: () => draw([]) }));
			path.forEach((p, i) => crumbs.append(' \u203a ', el('button', { class: 'link', text: p, onclick: () => draw(path.slice(0, i + 1)) })));
		}
		draw([]);
		window.addEventListener('resize', () => { if (!sec.hidden) draw(focusPath); });

		sec.append(el('h2', { text: 'Call sites' }));
		sortableTable(sec, [
			{ key: 'callsite', label: 'call site', type: 'code', show: siteCell },
			{ key: 'kind', label: 'kind', type: 'text' },
			KINDS_NAMED ? { key: 'cache', label: 'cache', type: 'text' } : null,
			...FIGURE_COLS,
			{ key: 'never_read', label: 'never read', type: 'num' },
			{ key: 'avg_life', label: 'avg lifetime', type: 'num', show: (s) => document.createTextNode(jiffies(s.avg_life)) },
		].filter(Boolean), sites, { sort: 'bytes', name: 'sites' });
	}

	/* ---------------------------------------------------------------- */
	/* View 3: the capability heatmap.                                   */

	const TYPE_WAYS = { cache: 'by its slab cache', result: 'by the variable its call site keeps it in', size: 'by its size, the one struct of it in scope at its call site', global: 'the global variable at its address' };
	const SUBJECT_NAMES = { function: ['function', 'functions'], dir: ['directory', 'directories'], file: ['file', 'files'],
		'file-function': ['function in a file', 'functions in files'] };
	const GROUP_NAMES = { callsite: ['call site', 'call sites'], cache: ['cache', 'caches'], kind: ['kind', 'kinds'] };
	/* What a row of a kind drills down to: a directory's files, a file's functions. */
	const CHILD = { dir: 'file', file: 'file-function' };
	const plural = (names, n) => names[n === 1 ? 0 : 1];

	function renderCapmap(sec) {
		const CM = DATA.capmap;
		const maps = new Map(CM.maps.map((m) => [m.subject + '/' + m.group, m]));
		const subjects = ['function', 'dir', 'file', 'file-function'].filter((k) => CM.maps.some((m) => m.subject === k));
		const groups = ['callsite', 'cache', 'kind'].filter((k) => CM.maps.some((m) => m.group === k));
		let subject = subjects[0], group = groups[0];
		/* The drill-down: [] at the top, else [{ kind, name }, ...] (a directory, its file). */
		let path = [];

		sec.append(el('p', { class: 'note', text: 'The capability map: which code (rows) reads, writes and frees which objects (columns). ' +
			'Rows are the functions of the accessing instructions' + (subjects.includes('file') ? ', or their source directories, files, or a file\u2019s code per function (DWARF lines)' :
				META.symbols ? ' (directories and files need a vmlinux with DWARF lines: --vmlinux)' : ' (no symbols: the instructions\u2019 addresses; give --system-map or --vmlinux)') +
			'; columns group the objects by the function that allocated them (call site), their allocator kind' + (groups.includes('cache') ? ' or their slab cache.' : ' (caches: binary streams, and a kmap_offsets whose object lines carry kind and cache).') +
			(subjects.includes('file') ? ' Click a directory for its files, a file for its functions.' : '') +
			' The table under the map has the exact figures; memorizer capmap prints every cell.' }));
		const rowSel = el('select', { 'aria-label': 'Rows', 'data-capmap': 'rows' });
		subjects.forEach((k) => rowSel.append(el('option', { value: k, text: SUBJECT_NAMES[k][1] })));
		const colSel = el('select', { 'aria-label': 'Columns', 'data-capmap': 'cols' });
		groups.forEach((k) => colSel.append(el('option', { value: k, text: GROUP_NAMES[k][1] })));
		rowSel.addEventListener('change', () => { subject = rowSel.value; path = []; draw(); });
		colSel.addEventListener('change', () => { group = colSel.value; draw(); });
		sec.append(el('div', { class: 'controls' }, el('label', {}, 'Rows ', rowSel), el('label', {}, 'Columns ', colSel)));
		const legend = el('div', { class: 'legend capmap-legend' });
		const crumbs = el('div', { class: 'crumbs' });
		const shipped = el('p', { class: 'note shipped' });
		const box = el('div', { class: 'heatmap-box' });
		const tableBox = el('div');
		sec.append(legend, crumbs, shipped, box, el('h2', { text: 'Cells' }), tableBox);

		/*
		 * The map drawn: its rows (the top ones, or the shipped children
		 * of the row drilled into), their columns and cells.
		 */
		function current() {
			const top = path.length ? path[path.length - 1] : null;
			const rowKind = top ? CHILD[top.kind] : subject;
			const m = maps.get(rowKind + '/' + group);
			let rows = m.rows.map((r, i) => ({ i, name: r[0], reads: r[1], writes: r[2], frees: r[3], parent: r[4] }));
			rows = top ? rows.filter((r) => r.parent === top.name) : rows.slice(0, m.top);
			rows.forEach((r) => { r.label = top && rowKind === 'file-function' ? r.name.slice(top.name.length + 1) : r.name; });
			const keep = new Map(rows.map((r, j) => [r.i, j]));
			const cells = m.cells.filter((c) => keep.has(c[0]));
			const usedCols = new Set(cells.map((c) => c[1]));
			const cols = m.cols.map((c, i) => ({ i, name: c[0], reads: c[1], writes: c[2], frees: c[3] })).filter((c) => usedCols.has(c.i));
			cols.forEach((c) => { c.label = c.name; });
			const colAt = new Map(cols.map((c, j) => [c.i, j]));
			/* Cells: most reads, writes and frees first (as memorizer capmap). */
			const list = cells.map((c) => ({ row: rows[keep.get(c[0])], col: cols[colAt.get(c[1])], r: keep.get(c[0]), c: colAt.get(c[1]),
				reads: c[2], writes: c[3], frees: c[4], objects: c[5], traffic: c[2] + c[3] + c[4] }))
				.sort((a, b) => b.traffic - a.traffic || a.row.name.localeCompare(b.row.name) || a.col.name.localeCompare(b.col.name));
			return { m, top, rowKind, rows, cols, cells: list };
		}

		function draw() {
			const v = current(), m = v.m;
			const rn = SUBJECT_NAMES[v.rowKind], gn = GROUP_NAMES[group];
			crumbs.replaceChildren();
			if (path.length) {
				crumbs.append(el('button', { class: 'link', text: 'all ' + SUBJECT_NAMES[subject][1], onclick: () => { path = []; draw(); } }));
				path.forEach((p, i) => crumbs.append(' \u203a ', i === path.length - 1 ? el('span', { text: p.name }) :
					el('button', { class: 'link', text: p.name, onclick: () => { path = path.slice(0, i + 1); draw(); } })));
			}
			/* What is on the page, what is not. */
			const lo = m.left_out, sm = m.summary;
			let text = 'This map: ' + fmtInt(sm.subjects) + ' ' + plural(rn, sm.subjects) + ' by ' + fmtInt(sm.groups_touched) + ' ' +
				plural(gn, sm.groups_touched) + ', ' + fmtInt(sm.cells) + ' cells; ' + fmtInt(sm.reads) + ' reads, ' + fmtInt(sm.writes) +
				' writes, ' + fmtInt(sm.frees) + ' frees' + (sm.frees_unattributed ? ' (and ' + fmtInt(sm.frees_unattributed) + ' frees without a free ip, in no cell)' : '') + '. ';
			if (v.top) {
				const pm = maps.get(v.top.kind + '/' + group), p = pm.rows.find((r) => r[0] === v.top.name);
				const sum = (k) => v.rows.reduce((a, r) => a + r[k], 0);
				const miss = p ? [p[1] - sum('reads'), p[2] - sum('writes'), p[3] - sum('frees')] : [0, 0, 0];
				text += SUBJECT_NAMES[v.top.kind][0].replace(/^./, (c) => c.toUpperCase()) + ' ' + v.top.name + ': ' + fmtInt(v.rows.length) + ' ' +
					plural(SUBJECT_NAMES[v.rowKind === 'file-function' ? 'function' : v.rowKind], v.rows.length) + ' here (the ' + CM.children_max + ' busiest at most)' +
					(miss.some((x) => x > 0) ? '; its others, not on this page, hold ' + fmtInt(miss[0]) + ' reads, ' + fmtInt(miss[1]) + ' writes, ' + fmtInt(miss[2]) + ' frees.' : '.');
			} else if (lo.rows || lo.cols) {
				text += 'The page shows the ' + fmtInt(v.rows.length) + ' ' + plural(rn, v.rows.length) + ' and the ' + fmtInt(m.cols.length) + ' ' +
					plural(gn, m.cols.length) + ' with the most reads, writes and frees (at most ' + CM.rows_max + ' by ' + CM.cols_max + '); left out: ' +
					fmtInt(lo.rows) + ' ' + plural(rn, lo.rows) + ', ' + fmtInt(lo.cols) + ' ' + plural(gn, lo.cols) + ', ' + fmtInt(lo.cells) + ' cells with ' +
					fmtInt(lo.reads) + ' reads, ' + fmtInt(lo.writes) + ' writes and ' + fmtInt(lo.frees) + ' frees.';
			} else {
				text += 'Every cell is here.';
			}
			shipped.textContent = text;
			heatmap(v);
			tableBox.replaceChildren();
			sortableTable(tableBox, [
				{ key: 'subject', label: rn[0], type: 'code', value: (c) => c.row.name },
				{ key: 'group', label: gn[0], type: 'code', value: (c) => c.col.name },
				{ key: 'reads', label: 'reads', type: 'num' },
				{ key: 'writes', label: 'writes', type: 'num' },
				{ key: 'frees', label: 'frees', type: 'num' },
				{ key: 'objects', label: 'objects', type: 'num', title: 'distinct objects read, written or freed' },
			], v.cells, { name: 'capmap' });
		}

		/*
		 * Each cell in two halves: reads on the left in blue, writes on
		 * the right in orange, the deeper the more (one log scale for
		 * both); a vermilion dot where the row frees objects of the column.
		 */
		function heatmap(v) {
			const ch = 20, longest = (a) => d3.max(a, (x) => x.name.length) || 0;
			const left = Math.min(300, 14 + 6.6 * longest(v.rows.map((r) => ({ name: r.label })))), top = Math.min(170, 16 + 4.8 * longest(v.cols));
			/* Columns as wide as the page allows, 22 to 56 pixels; the labels lean right. */
			const cw = Math.max(22, Math.min(56, Math.floor((Math.max(600, box.clientWidth || 1000) - left - top) / Math.max(1, v.cols.length))));
			const width = left + v.cols.length * cw + top * 0.7 + 10, height = top + v.rows.length * ch + 4;
			const max = d3.max(v.cells, (c) => Math.max(c.reads, c.writes)) || 1;
			const depth = (n) => n > 0 ? 0.15 + 0.85 * Math.log1p(n) / Math.log1p(max) : 0;
			const cut = (s, room) => s.length > room ? s.slice(0, room - 1) + '\u2026' : s;
			const svg = d3.create('svg').attr('class', 'capmap').attr('width', width).attr('height', height)
				.attr('role', 'img').attr('aria-label', 'Capability heatmap: ' + v.rows.length + ' rows by ' + v.cols.length + ' columns')
				.attr('data-rows', v.rows.length).attr('data-cols', v.cols.length);
			const rowG = svg.append('g').selectAll('g').data(v.rows).join('g').attr('class', 'row')
				.attr('data-name', (r) => r.name).attr('transform', (r, i) => `translate(0,${top + i * ch})`);
			const drill = CHILD[v.rowKind] && maps.has(CHILD[v.rowKind] + '/' + group);
			rowG.append('text').attr('x', left - 6).attr('y', ch / 2 + 4).attr('text-anchor', 'end')
				.attr('class', drill ? 'drill' : null).text((r) => cut(r.label, Math.floor((left - 10) / 6.6)))
				.on('mousemove', (ev, r) => showTip(ev, r.name + '\n' + fmtInt(r.reads) + ' reads, ' + fmtInt(r.writes) + ' writes, ' +
					fmtInt(r.frees) + ' frees in all' + (drill ? '\nClick: its ' + SUBJECT_NAMES[CHILD[v.rowKind]][1] : '')))
				.on('mouseleave', hideTip)
				.on('click', (ev, r) => { if (drill) { hideTip(); path = path.concat([{ kind: v.rowKind, name: r.name }]); draw(); } });
			svg.append('g').selectAll('text').data(v.cols).join('text').attr('class', 'col')
				.attr('transform', (c, j) => `translate(${left + j * cw + cw / 2},${top - 6}) rotate(-50)`)
				.text((c) => cut(c.name, Math.floor((top - 10) / 4.8)))
				.on('mousemove', (ev, c) => showTip(ev, c.name + '\n' + fmtInt(c.reads) + ' reads, ' + fmtInt(c.writes) + ' writes, ' +
					fmtInt(c.frees) + ' frees in all'))
				.on('mouseleave', hideTip);
			svg.append('g').selectAll('rect').data(v.rows).join('rect').attr('class', 'grid')
				.attr('x', left).attr('y', (r, i) => top + i * ch).attr('width', v.cols.length * cw).attr('height', ch);
			const cell = svg.append('g').selectAll('g').data(v.cells).join('g').attr('class', 'cell')
				.attr('transform', (c) => `translate(${left + c.c * cw},${top + c.r * ch})`)
				.attr('data-row', (c) => c.row.name).attr('data-col', (c) => c.col.name)
				.attr('data-reads', (c) => c.reads).attr('data-writes', (c) => c.writes).attr('data-frees', (c) => c.frees);
			cell.append('rect').attr('class', 'bg').attr('x', 1).attr('y', 1).attr('width', cw - 2).attr('height', ch - 2);
			cell.append('rect').attr('class', 'read').attr('x', 1).attr('y', 1).attr('width', cw / 2 - 1).attr('height', ch - 2)
				.attr('fill-opacity', (c) => depth(c.reads));
			cell.append('rect').attr('class', 'write').attr('x', cw / 2).attr('y', 1).attr('width', cw / 2 - 1).attr('height', ch - 2)
				.attr('fill-opacity', (c) => depth(c.writes));
			cell.filter((c) => c.frees > 0).append('circle').attr('class', 'free').attr('cx', cw - 5).attr('cy', 5).attr('r', 3);
			cell.on('mousemove', (ev, c) => showTip(ev, c.row.name + ' \u2192 ' + c.col.name + '\n' + fmtInt(c.reads) + ' reads, ' +
				fmtInt(c.writes) + ' writes, ' + fmtInt(c.frees) + ' frees; ' + fmtInt(c.objects) + ' objects'))
				.on('mouseleave', hideTip);
			box.replaceChildren(svg.node());
			if (!v.cells.length) box.append(el('p', { class: 'note', text: 'No access or free to show.' }));

			/* The legend: the two channels' scales and the frees' mark. */
			const ramp = (cls, what) => {
				const steps = [1, Math.round(Math.sqrt(max)), max].filter((x, i, a) => a.indexOf(x) === i);
				const s = el('span', { class: 'ramp' }, what + ': ');
				steps.forEach((n) => s.append(el('i', { class: cls, style: 'opacity:' + depth(n).toFixed(2) }), fmtInt(n) + ' '));
				return s;
			};
			legend.replaceChildren(el('span', { text: 'Each cell: left half reads, right half writes, deeper the more (log scale).' }),
				ramp('read', 'reads'), ramp('write', 'writes'),
				el('span', {}, el('i', { class: 'free' }), 'the row frees objects of the column'));
		}
		draw();
	}

	/* ---------------------------------------------------------------- */
	/* View: compartments, memorizer compartments --sweep's design points. */

	function renderCompartments(sec) {
		const C = DATA.compartments;
		sec.append(el('p', { class: 'note', text: 'How well the code splits into compartments, as memorizer compartments --sweep scores it: ' +
			'code units are the functions, data units the call sites (the objects by the function that allocated them). ' +
			'Reduction: how much less the compartments may touch than one compartment of all the code may (0 for one compartment, 1 for one per function); ' +
			'crossings: the calls between functions of different compartments, which a split makes costly. ' +
			'Each design point merges the two compartments that share the most data and calls, from one compartment per function down to one.' }));
		if (C.skipped) {
			sec.append(el('p', { class: 'note skipped', text: 'No compartments here: ' + C.skipped + '.' }));
			return;
		}
		const sm = C.summary;
		const points = records(C);
		points.forEach((p) => { p.detail = C.details[p.index]; });
		sec.append(el('p', { class: 'note summary', text: fmtInt(sm.code_units) + ' ' + (sm.code_units === 1 ? 'function' : 'functions') + ', ' +
			fmtInt(sm.data_units) + ' ' + (sm.data_units === 1 ? 'call site' : 'call sites') + ', ' + fmtInt(sm.calls) + ' calls (' +
			fmtInt(C.call_edges) + ' call edges); each function may touch ' + fmtInt(sm.least) + ' (function, call site) pairs in all, one compartment grants ' +
			fmtInt(sm.monolithic) + '.' + (C.call_edges ? '' : ' No call edges: no call crosses. Give function_calls files after the input (debugfs memorizer/function_calls), or a stream with CALL records.') }));
		sec.append(el('p', { class: 'note shipped', text: 'This page holds ' + fmtInt(points.length) + ' design points (at most ' + C.points_max +
			', evenly spaced on a log scale of the number of compartments, both ends always; memorizer compartments --points N for others), and the compartments of those of at most ' +
			C.detail_max + ' compartments, each with its first ' + C.units_max + ' functions and ' + C.data_max + ' call sites by name.' }));

		const pick = el('select', { 'aria-label': 'Design point', 'data-compart': 'point' });
		points.forEach((p) => pick.append(el('option', { value: p.index, text: fmtInt(p.compartments) + ' compartments: reduction ' +
			p.reduction.toFixed(2) + ', ' + fmtInt(p.crossings) + ' crossings' + (p.detail ? '' : ' (not listed)') })));
		pick.addEventListener('change', () => select(points[Number(pick.value)]));
		sec.append(el('div', { class: 'controls' }, el('label', {}, 'Design point ', pick)));
		const chart = el('div', { class: 'compart-box' });
		const detail = el('div');
		sec.append(chart, detail);

		const metrics = (p) => fmtInt(p.compartments) + (p.compartments === 1 ? ' compartment' : ' compartments') +
			'\nreduction ' + p.reduction.toFixed(3) + ' (bytes ' + p.reduction_bytes.toFixed(3) + ')' +
			'\ncrossings ' + fmtInt(p.crossings) + ' (' + (100 * p.crossing_share).toFixed(1) + '% of calls)' +
			'\nshared ' + fmtInt(p.shared) + (p.shared === 1 ? ' call site' : ' call sites') + ' written by one compartment, touched by another' +
			'\ngranted ' + fmtInt(p.granted) + ' (' + fmtInt(p.granted_bytes) + ' bytes)';

		/* Reduction (up) against crossings (right): a dot per design point, the curve through them. */
		const width = 760, height = 340, m = { l: 60, r: 30, t: 16, b: 44 };
		const x = d3.scaleLinear().domain([0, d3.max(points, (p) => p.crossings) || 1]).nice().range([m.l, width - m.r]);
		const y = d3.scaleLinear().domain([0, 1]).range([height - m.b, m.t]);
		const svg = d3.create('svg').attr('class', 'compart').attr('width', width).attr('height', height)
			.attr('role', 'img').attr('aria-label', 'Design points: reduction against crossings, ' + points.length + ' points')
			.attr('data-points', points.length);
		svg.append('g').attr('transform', `translate(0,${height - m.b})`).call(d3.axisBottom(x).ticks(8).tickFormat(d3.format('~s')));
		svg.append('g').attr('transform', `translate(${m.l},0)`).call(d3.axisLeft(y).ticks(5));
		svg.append('text').attr('x', (m.l + width - m.r) / 2).attr('y', height - 6).attr('text-anchor', 'middle').text('crossings (calls between compartments)');
		svg.append('text').attr('transform', `translate(14,${(m.t + height - m.b) / 2}) rotate(-90)`).attr('text-anchor', 'middle').text('reduction');
		svg.append('path').attr('class', 'curve')
			.attr('d', points.map((p, i) => (i ? 'L' : 'M') + x(p.crossings) + ',' + y(p.reduction)).join(''));
		/* One label per place: points that score alike share it. */
		const places = d3.groups(points, (p) => x(p.crossings) + ',' + y(p.reduction));
		svg.append('g').selectAll('text').data(places).join('text').attr('class', 'label')
			.attr('x', ([, ps]) => x(ps[0].crossings) + 7).attr('y', ([, ps]) => y(ps[0].reduction) - 7)
			.text(([, ps]) => ps.map((p) => p.compartments).join(', '));
		const dots = svg.append('g').selectAll('g').data(points).join('g').attr('class', 'point')
			.attr('transform', (p) => `translate(${x(p.crossings)},${y(p.reduction)})`)
			.attr('data-compartments', (p) => p.compartments).attr('data-reduction', (p) => p.reduction)
			.attr('data-crossings', (p) => p.crossings)
			.attr('tabindex', 0).attr('role', 'button').attr('aria-label', (p) => metrics(p).replace(/\n/g, '; '));
		dots.append('title').text(metrics);
		dots.append('circle').attr('r', 5);
		dots.on('mousemove', (ev, p) => showTip(ev, metrics(p) + (p.detail ? '\nClick: its compartments' : '')))
			.on('mouseleave', hideTip)
			.on('click', (ev, p) => { hideTip(); select(p); })
			.on('keydown', (ev, p) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); select(p); } });
		chart.append(svg.node());

		sec.append(el('h2', { text: 'Design points' }));
		const pointTable = sortableTable(sec, [
			{ key: 'compartments', label: 'compartments', type: 'num' },
			{ key: 'reduction', label: 'reduction', type: 'num', show: (p) => document.createTextNode(p.reduction.toFixed(3)) },
			{ key: 'reduction_bytes', label: 'reduction (bytes)', type: 'num', show: (p) => document.createTextNode(p.reduction_bytes.toFixed(3)) },
			{ key: 'crossings', label: 'crossings', type: 'num' },
			{ key: 'crossing_share', label: 'crossing share', type: 'num', show: (p) => document.createTextNode((100 * p.crossing_share).toFixed(1) + '%') },
			{ key: 'shared', label: 'shared', type: 'num', title: 'call sites one compartment writes and another reads or writes' },
			{ key: 'granted', label: 'granted', type: 'num', title: 'the sum over compartments of its functions times the call sites it may touch' },
		], points, { sort: 'compartments', desc: false, name: 'compart-points', onRow: (p) => select(p) });

		const listed = (names, n, what) => {
			const t = names.join(', ');
			return n > names.length ? t + ' \u2026 and ' + fmtInt(n - names.length) + ' more ' + what : t;
		};
		function select(p) {
			pick.value = String(p.index);
			dots.classed('selected', (q) => q === p).attr('aria-pressed', (q) => String(q === p));
			pointTable.select(p);
			const d = el('div', { class: 'detail', 'data-compartments': p.compartments });
			d.append(el('h2', { text: fmtInt(p.compartments) + (p.compartments === 1 ? ' compartment' : ' compartments') }),
				el('p', { class: 'note', text: metrics(p).replace(/\n/g, '; ') + '.' }));
			if (!p.detail) {
				d.append(el('p', { class: 'note', text: 'Not listed: this page holds the compartments of the design points of at most ' +
					C.detail_max + ' compartments.' }));
			} else {
				const rows = p.detail.map(([name, units, data, callsIn, callsOut, code, touch]) => ({ name, units, data, callsIn, callsOut,
					code: listed(code, units, 'functions'), touch: listed(touch.map(([n, r]) => n + ' (' + r + ')'), data, 'call sites') }));
				sortableTable(d, [
					{ key: 'name', label: 'compartment', type: 'code', title: 'named by its first function by name' },
					{ key: 'units', label: 'functions', type: 'num' },
					{ key: 'data', label: 'call sites', type: 'num', title: 'the call sites whose objects it may touch' },
					{ key: 'callsIn', label: 'calls in', type: 'num', title: 'calls from other compartments into it' },
					{ key: 'callsOut', label: 'calls out', type: 'num', title: 'calls from it into other compartments' },
					{ key: 'code', label: 'its functions', type: 'list' },
					{ key: 'touch', label: 'may touch (rights r, w, f)', type: 'list', title: 'call sites, with the rights its functions used: read, write, free' },
				], rows, { sort: 'name', desc: false, name: 'compartments' });
			}
			detail.replaceChildren(d);
		}
		/* First shown: the listed point nearest to 4 compartments. */
		const listedPoints = points.filter((p) => p.detail);
		if (listedPoints.length)
			select(listedPoints.slice().sort((a, b) => Math.abs(Math.log(a.compartments / 4)) - Math.abs(Math.log(b.compartments / 4)) ||
				a.compartments - b.compartments)[0]);
	}

	/* ---------------------------------------------------------------- */
	/* View 4: the object explorer.                                      */

	function renderExplorer(sec) {
		const shippedAll = objects.length === META.objects_total;
		sec.append(el('p', { class: 'note', text: (shippedAll ? 'All ' + fmtInt(META.objects_total) + ' objects are here.' :
			'This page holds ' + fmtInt(objects.length) + ' of the ' + fmtInt(META.objects_total) + ' objects: per call site the ' +
			fmtInt(META.per_site) + ' with the most accesses (' + fmtInt(META.objects_max) + ' in all at most; memorizer report --html --objects N for more), ' +
			'and every call site\u2019s figures. Every object: memorizer report --by object FILE.') +
			' Per object, its ' + fmtInt(META.accessors_max) + ' busiest access ips (their pids summed).' }));
		const field = el('select', { 'aria-label': 'Search in' },
			el('option', { value: 'site', text: 'call site' }), el('option', { value: 'cache', text: 'cache' }),
			el('option', { value: 'type', text: 'struct type' }),
			el('option', { value: 'addr', text: 'address' }), el('option', { value: 'comm', text: 'pid or command' }));
		const input = el('input', { type: 'search', placeholder: 'function, function+0x12, hex ip\u2026', 'aria-label': 'Search' });
		if (!KINDS_NAMED) field.querySelector('option[value="cache"]').disabled = true;
		/* Types come from a vmlinux's DWARF (report --html --vmlinux). */
		const typed = objects.some((o) => o.type !== null);
		if (!typed) field.querySelector('option[value="type"]').disabled = true;
		const controls = el('div', { class: 'controls' }, el('label', {}, 'Search ', field), input);
		const head = el('div', { class: 'sitehead' });
		const results = el('div');
		const detail = el('div');
		sec.append(controls, head, results, detail);
		const hints = { site: 'function, function+0x12, hex ip\u2026', cache: 'cache name\u2026', type: 'struct name, as file or cred\u2026',
			addr: 'hex address, as ffff8880012345c0', comm: 'pid or command\u2026' };
		field.addEventListener('change', () => { input.placeholder = hints[field.value]; search(); });
		let timer = null;
		input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(search, 150); });
		input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { clearTimeout(timer); search(); } });

		function matchSites(q) {
			const hex = q.replace(/^0x/, '');
			return sites.filter((s) => s.callsite.toLowerCase().includes(q) || s.function.toLowerCase() === q ||
				(/^[0-9a-f]+$/.test(hex) && s.ip === hex));
		}
		function search() {
			const q = input.value.trim().toLowerCase();
			let list, matched = null;
			head.replaceChildren();
			detail.replaceChildren();
			if (!q) {
				list = objects.slice().sort((a, b) => b.accesses - a.accesses);
				head.append('The busiest objects here; search to narrow.');
			} else if (field.value === 'site') {
				matched = matchSites(q);
				const set = new Set(matched);
				list = objects.filter((o) => set.has(o.site_row));
			} else if (field.value === 'cache') {
				matched = sites.filter((s) => s.cache !== null && s.cache.toLowerCase().includes(q));
				const set = new Set(matched);
				list = objects.filter((o) => set.has(o.site_row));
			} else if (field.value === 'type') {
				const name = q.replace(/^struct\s+/, '');
				list = objects.filter((o) => o.type !== null && o.type.toLowerCase().includes(name));
				if (!list.length) head.append('No object here has a struct type that matches.');
			} else if (field.value === 'addr') {
				let a = null;
				try { a = BigInt('0x' + q.replace(/^0x/, '')); } catch (e) { a = null; }
				list = a === null ? [] : objects.filter((o) => {
					const lo = BigInt('0x' + o.addr);
					return lo <= a && a < lo + BigInt(Math.max(1, o.size));
				});
				if (a === null) head.append('Not a hexadecimal address.');
				else if (!list.length) head.append('No object here holds this address' + (shippedAll ? '.' : ' (the page holds some objects only; see above).'));
			} else {
				list = objects.filter((o) => String(o.pid) === q || o.comm.toLowerCase().includes(q));
			}
			if (matched) {
				if (!matched.length) head.append('No ' + field.selectedOptions[0].text + ' matches.');
				matched.slice(0, 20).forEach((s) => head.append(el('div', { class: 'site-summary', 'data-site': s.index },
					el('b', { text: s.callsite }), s.cache ? ' (' + s.cache + ')' : '', ': ',
					el('span', { 'data-figure': 'objects', text: fmtInt(s.objects) }), ' objects (',
					el('span', { 'data-figure': 'shipped', text: fmtInt(s.shipped) }), ' here), ',
					el('span', { 'data-figure': 'bytes', text: fmtInt(s.bytes) }), ' bytes, ',
					el('span', { 'data-figure': 'reads', text: fmtInt(s.reads) }), ' reads, ',
					el('span', { 'data-figure': 'writes', text: fmtInt(s.writes) }), ' writes')));
				if (matched.length > 20) head.append(el('div', { text: '\u2026 and ' + (matched.length - 20) + ' more call sites.' }));
			}
			results.replaceChildren();
			sortableTable(results, [
				{ key: 'id', label: 'object', type: 'num' },
				{ key: 'addr', label: 'address', type: 'code' },
				{ key: 'size', label: 'size', type: 'bytes' },
				{ key: 'callsite', label: 'call site', type: 'code', value: (o) => o.site_row.callsite, show: (o) => siteCell(o.site_row) },
				KINDS_NAMED ? { key: 'cache', label: 'cache', type: 'text', value: (o) => o.site_row.cache } : null,
				typed ? { key: 'type', label: 'type', type: 'code', value: (o) => o.type === null ? '' : 'struct ' + o.type } : null,
				{ key: 'pid', label: 'pid', type: 'num' },
				{ key: 'comm', label: 'command', type: 'text' },
				{ key: 'life', label: 'lifetime', type: 'num', show: (o) => document.createTextNode(o.life === null ? 'live' : jiffies(o.life)) },
				{ key: 'reads', label: 'reads', type: 'num' },
				{ key: 'writes', label: 'writes', type: 'num' },
			].filter(Boolean), list, { sort: 'accesses', limit: 200, name: 'objects', onRow: showObject });
		}

		function showObject(o) {
			const s = o.site_row;
			const d = el('div', { class: 'detail', 'data-object': o.id });
			const dl = el('dl');
			const item = (k, v) => dl.append(el('dt', { text: k }), el('dd', { text: v }));
			item('object', fmtInt(o.id) + ' at ' + o.addr + ', ' + fmtInt(o.size) + ' bytes');
			item('allocated by', s.callsite + (s.where ? ' at ' + s.where : '') + ' (kind ' + s.kind + (s.cache ? ', cache ' + s.cache : '') + ')');
			if (o.type !== null) item('type', 'struct ' + o.type + ' (' + TYPE_WAYS[o.type_way] + ')');
			item('task', o.pid + ' ' + o.comm);
			item('allocated', 'jiffies ' + o.alloc_jiffies);
			item('freed', o.free_jiffies === null ? 'live' : 'jiffies ' + o.free_jiffies + ': lifetime ' + jiffies(o.life));
			item('accesses', fmtInt(o.reads) + ' reads, ' + fmtInt(o.writes) + ' writes');
			d.append(el('h2', { text: 'Object ' + o.id }), dl);
			const accs = o.accessors.map(([i, r, w, off, end, member]) => ({ label: ips[i][0], function: ips[i][1], where: ips[i][2], ip: ips[i][3], reads: r, writes: w, total: r + w,
				offset: off, offset_end: end, bytes: end === null ? null : off + '..' + end, field: member }));
			if (o.others) d.append(el('p', { class: 'note others', text: 'And ' + fmtInt(o.others[0]) + ' more access ips: ' + fmtInt(o.others[1]) + ' reads, ' + fmtInt(o.others[2]) + ' writes.' }));
			if (accs.length) d.append(accessBars(accs));
			else d.append(el('p', { class: 'note', text: 'No access was recorded on this object.' }));
			const ranged = accs.filter((a) => a.offset_end !== null);
			if (ranged.length) d.append(el('h3', { text: 'Bytes touched' }), byteBars(o, ranged));
			sortableTable(d, [
				{ key: 'function', label: 'function', type: 'code' },
				{ key: 'label', label: 'ip', type: 'code', title: 'function+offset/size (address)', value: (a) => a.label + ' (' + a.ip + ')' },
				{ key: 'where', label: 'file:line', type: 'code' },
				{ key: 'bytes', label: 'bytes', type: 'code', title: 'offset..end: the bytes of the object the ip touched (a kmap_offsets or a version 5 stream)' },
				o.type !== null ? { key: 'field', label: 'field', type: 'code', title: 'the member of struct ' + o.type + ' those bytes are' } : null,
				{ key: 'reads', label: 'reads', type: 'num' },
				{ key: 'writes', label: 'writes', type: 'num' },
			].filter(Boolean), accs, { sort: 'total', name: 'accessors' });
			detail.replaceChildren(d);
			d.scrollIntoView({ block: 'nearest' });
		}

		/*
		 * Which bytes of the object each access ip touched: a row per ip
		 * over the object's bytes, its range's upper half drawn if it
		 * read, the lower half if it wrote.
		 */
		function byteBars(o, accs) {
			const rowH = 18, left = 260, width = 720;
			const size = Math.max(o.size, d3.max(accs, (a) => a.offset_end)) || 1;
			const x = d3.scaleLinear().domain([0, size]).range([left, width - 20]);
			const fields = accs.some((a) => a.field) ? 200 : 0;
			const svg = d3.create('svg').attr('class', 'bytes').attr('width', width + fields).attr('height', accs.length * rowH + 44)
				.attr('role', 'img').attr('aria-label', 'Bytes of the object each access ip touched');
			const g = svg.selectAll('g.ip').data(accs).join('g').attr('class', 'ip').attr('data-range', (a) => a.offset + '..' + a.offset_end)
				.attr('transform', (a, i) => `translate(0,${i * rowH})`);
			g.append('text').attr('x', left - 6).attr('y', 13).attr('text-anchor', 'end')
				.text((a) => a.label.length > 40 ? a.label.slice(0, 39) + '\u2026' : a.label);
			g.append('rect').attr('class', 'extent').attr('x', left).attr('y', 2).attr('height', rowH - 4).attr('width', x(size) - left);
			const w = (a) => Math.max(1, x(a.offset_end) - x(a.offset));
			g.filter((a) => a.reads > 0).append('rect').attr('class', 'read').attr('x', (a) => x(a.offset)).attr('y', 3).attr('height', (rowH - 6) / 2).attr('width', w);
			g.filter((a) => a.writes > 0).append('rect').attr('class', 'write').attr('x', (a) => x(a.offset)).attr('y', 3 + (rowH - 6) / 2).attr('height', (rowH - 6) / 2).attr('width', w);
			/* The member, where the type is known: a column after the bars. */
			g.filter((a) => a.field).append('text').attr('class', 'field').attr('x', width + 6).attr('y', 13)
				.text((a) => a.field.length > 28 ? a.field.slice(0, 27) + '\u2026' : a.field);
			g.on('mousemove', (ev, a) => showTip(ev, a.label + '\nbytes ' + a.offset + '..' + a.offset_end + ' of ' + fmtInt(o.size) +
				(a.field ? ' (' + a.field + ')' : '') + ': ' + fmtInt(a.reads) + ' reads, ' + fmtInt(a.writes) + ' writes'))
				.on('mouseleave', hideTip);
			svg.append('g').attr('transform', `translate(0,${accs.length * rowH + 4})`)
				.call(d3.axisBottom(x).ticks(Math.min(8, size)).tickFormat(d3.format('d')));
			svg.append('text').attr('x', left).attr('y', accs.length * rowH + 40).text('byte offset (reads above, writes below)');
			return svg.node();
		}

		/* Reads and writes per access ip: stacked horizontal bars. */
		function accessBars(accs) {
			const rowH = 18, left = 260, width = 720;
			const x = d3.scaleLinear().domain([0, d3.max(accs, (a) => a.total) || 1]).range([0, width - left - 60]);
			const svg = d3.create('svg').attr('class', 'bars').attr('width', width).attr('height', accs.length * rowH + 28)
				.attr('role', 'img').attr('aria-label', 'Reads and writes per access ip');
			const g = svg.selectAll('g').data(accs).join('g').attr('transform', (a, i) => `translate(0,${i * rowH})`);
			g.append('text').attr('x', left - 6).attr('y', 13).attr('text-anchor', 'end')
				.text((a) => a.label.length > 40 ? a.label.slice(0, 39) + '\u2026' : a.label);
			g.append('rect').attr('class', 'read').attr('x', left).attr('y', 3).attr('height', rowH - 6).attr('width', (a) => x(a.reads));
			g.append('rect').attr('class', 'write').attr('x', (a) => left + x(a.reads)).attr('y', 3).attr('height', rowH - 6).attr('width', (a) => x(a.writes));
			g.append('text').attr('x', (a) => left + x(a.total) + 4).attr('y', 13).text((a) => fmtInt(a.reads) + ' / ' + fmtInt(a.writes));
			g.on('mousemove', (ev, a) => showTip(ev, a.label + (a.where ? ' at ' + a.where : '') + '\n' + fmtInt(a.reads) + ' reads, ' + fmtInt(a.writes) + ' writes'))
				.on('mouseleave', hideTip);
			const lg = svg.append('g').attr('transform', `translate(${left},${accs.length * rowH + 8})`);
			lg.append('rect').attr('class', 'read').attr('width', 10).attr('height', 10);
			lg.append('text').attr('x', 14).attr('y', 9).text('reads');
			lg.append('rect').attr('class', 'write').attr('x', 70).attr('width', 10).attr('height', 10);
			lg.append('text').attr('x', 84).attr('y', 9).text('writes (reads / writes at the right of each bar)');
			return svg.node();
		}
		search();
	}

	/* ---------------------------------------------------------------- */
	/* View 5: lifetimes per call site.                                  */

	/* Bucket 0 holds lifetimes of 0 jiffies, bucket b [2^(b-1), 2^b). */
	function bucketRange(b) {
		if (b === 0) return [0, 0];
		return [2 ** (b - 1), 2 ** b - 1];
	}
	function bucketLabel(b) {
		const [lo, hi] = bucketRange(b);
		return lo === hi ? String(lo) : lo + '\u2013' + hi;
	}

	function renderLifetimes(sec) {
		sec.append(el('p', { class: 'note', text: 'How long the objects of a call site lived, in jiffies (from allocation to free' +
			(META.hz ? '; ' + META.hz + ' Hz' : '') + '), in powers of two; live objects have no lifetime yet. Pick a call site in the list or in the table below.' }));
		const withFreed = sites.filter((s) => s.freed > 0).sort((a, b) => b.freed - a.freed || a.index - b.index);
		const pick = el('select', { 'aria-label': 'Call site' });
		withFreed.forEach((s) => pick.append(el('option', { value: s.index, text: s.callsite + (s.cache ? ' (' + s.cache + ')' : '') + ': ' + fmtInt(s.freed) + ' freed' })));
		sec.append(el('div', { class: 'controls' }, el('label', {}, 'Call site ', pick)));
		const chart = el('div', { class: 'hist-box' });
		const buckets = el('div');
		sec.append(chart, buckets);
		if (!withFreed.length) {
			chart.append(el('p', { class: 'note', text: 'No object was freed: no lifetime to show.' }));
		}
		pick.addEventListener('change', () => show(sites[Number(pick.value)]));

		function show(s) {
			pick.value = String(s.index);
			const rows = s.life_hist.map((n, b) => ({ bucket: b, range: bucketLabel(b), lo: bucketRange(b)[0], objects: n, share: n / s.freed }));
			const width = 760, height = 240, m = { l: 60, r: 10, t: 10, b: 40 };
			const x = d3.scaleBand().domain(rows.map((r) => r.range)).range([m.l, width - m.r]).padding(0.1);
			const y = d3.scaleLinear().domain([0, d3.max(rows, (r) => r.objects) || 1]).nice().range([height - m.b, m.t]);
			const svg = d3.create('svg').attr('class', 'hist').attr('width', width).attr('height', height)
				.attr('role', 'img').attr('aria-label', 'Lifetime histogram of ' + s.callsite);
			svg.append('g').attr('transform', `translate(0,${height - m.b})`).call(d3.axisBottom(x));
			svg.append('g').attr('transform', `translate(${m.l},0)`).call(d3.axisLeft(y).ticks(5, 'd'));
			svg.append('text').attr('x', (m.l + width) / 2).attr('y', height - 6).attr('text-anchor', 'middle').text('lifetime, jiffies');
			svg.append('g').selectAll('rect').data(rows.filter((r) => r.objects > 0)).join('rect')
				.attr('class', 'bar').attr('data-bucket', (r) => r.bucket)
				.attr('x', (r) => x(r.range)).attr('width', x.bandwidth())
				.attr('y', (r) => y(r.objects)).attr('height', (r) => y(0) - y(r.objects))
				.on('mousemove', (ev, r) => showTip(ev, fmtInt(r.objects) + ' objects lived ' + r.range + ' jiffies' +
					(META.hz ? ' (' + ms(r.lo) + ' and up)' : '')))
				.on('mouseleave', hideTip);
			chart.replaceChildren(el('div', { class: 'sitehead' }, el('b', { text: s.callsite }), ': ' + fmtInt(s.freed) +
				' freed, ' + fmtInt(s.live) + ' live; lifetime min ' + jiffies(s.life_min) + ', mean ' + jiffies(s.avg_life) +
				', max ' + jiffies(s.life_max)), svg.node());
			buckets.replaceChildren();
			sortableTable(buckets, [
				{ key: 'lo', label: 'lifetime (jiffies)', type: 'num', show: (r) => document.createTextNode(r.range) },
				{ key: 'objects', label: 'objects', type: 'num' },
				{ key: 'share', label: 'share', type: 'num', show: (r) => document.createTextNode((100 * r.share).toFixed(1) + '%') },
			], rows.filter((r) => r.objects > 0), { sort: 'lo', desc: false, name: 'buckets' });
		}
		sec.append(el('h2', { text: 'Lifetimes per call site' }));
		const table = sortableTable(sec, [
			{ key: 'callsite', label: 'call site', type: 'code', show: siteCell },
			KINDS_NAMED ? { key: 'cache', label: 'cache', type: 'text' } : null,
			{ key: 'freed', label: 'freed', type: 'num' },
			{ key: 'live', label: 'live', type: 'num' },
			{ key: 'life_min', label: 'min', type: 'num' },
			{ key: 'avg_life', label: 'mean', type: 'num', show: (s) => document.createTextNode(s.avg_life === null ? '-' : s.avg_life.toFixed(2)) },
			{ key: 'life_max', label: 'max', type: 'num' },
		].filter(Boolean), sites, { sort: 'freed', name: 'lifetimes', onRow: (s) => { if (s.freed) show(s); } });
		if (withFreed.length) show(withFreed[0]);
		void table;
	}

	/* ---------------------------------------------------------------- */
	/* The views and their tabs.                                         */

	const VIEWS = [
		{ id: 'summary', title: 'Summary', needs: 'summary', render: renderSummary },
		{ id: 'alloc', title: 'Allocations', needs: 'sites', render: renderAlloc },
		{ id: 'capmap', title: 'Capability map', needs: 'capmap', render: renderCapmap },
		{ id: 'compartments', title: 'Compartments', needs: 'compartments', render: renderCompartments },
		{ id: 'objects', title: 'Objects', needs: 'objects', render: renderExplorer },
		{ id: 'lifetimes', title: 'Lifetimes', needs: 'sites', render: renderLifetimes },
	].filter((v) => DATA[v.needs]);

	document.getElementById('input').textContent = META.input;
	document.title = 'Memorizer report: ' + META.input;
	document.getElementById('meta').textContent = [
		META.format === 'text' ? 'text kmap' : 'binary stream' + (META.hz ? ' (' + META.hz + ' Hz)' : ''),
		fmtInt(DATA.summary.objects) + ' objects in ' + fmtInt(META.sites_total) + (META.sites_total === 1 ? ' call site' : ' call sites'),
		META.symbols ? 'symbols from ' + META.symbols : 'no symbols (give --vmlinux or --system-map)',
		META.generator,
	].join(' \u00b7 ');
	const tabs = document.getElementById('tabs'), main = document.getElementById('views');
	const sections = new Map();
	VIEWS.forEach((v) => {
		const b = el('button', { role: 'tab', id: 'tab-' + v.id, 'aria-controls': 'view-' + v.id, 'data-view': v.id, text: v.title });
		b.addEventListener('click', () => { location.hash = v.id; });
		tabs.append(b);
		const sec = el('section', { id: 'view-' + v.id, role: 'tabpanel', 'aria-labelledby': 'tab-' + v.id, 'data-view': v.id });
		sec.hidden = true;
		main.append(sec);
		sections.set(v.id, { view: v, sec, button: b });
	});
	function show(id) {
		const cur = sections.get(id) || sections.get(VIEWS[0].id);
		sections.forEach((s) => {
			s.sec.hidden = s !== cur;
			s.button.setAttribute('aria-selected', String(s === cur));
		});
		if (!cur.sec.dataset.rendered) {
			const t0 = performance.now();
			cur.view.render(cur.sec);
			cur.sec.dataset.rendered = '1';
			cur.sec.dataset.renderMs = String(Math.round(performance.now() - t0));
		}
	}
	window.addEventListener('hashchange', () => show(location.hash.slice(1)));
	show(location.hash.slice(1));
	document.body.dataset.ready = '1';
})();

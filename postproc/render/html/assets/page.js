// hotblocks report page (postproc/html-page.h says which markup this works on).
// Clicking a box of a control-flow graph marks it and the blocks it stands
// for in the listing; clicking a block (or a link to one) marks it and its
// box. The filter hides functions whose names do not hold its text; n and p
// walk the hot blocks by rank. A function opens at its hottest block. On a
// page of every function, each listing and graph comes as data and is built
// here when its function first comes into view (or is asked for).
'use strict';
(function () {
	const all = (sel, root) => Array.from((root || document).querySelectorAll(sel));
	const byId = (id) => (id ? document.getElementById(id) : null);
	let marked = [];

	// --- functions built from their data (html-listing.h, html_listing__data) ---
	const SVG = 'http://www.w3.org/2000/svg';
	const hex = (n) => n.toString(16);
	const plural = (n) => (n === 1 ? '' : 's');
	const rgb = (n) => '#' + n.toString(16).padStart(6, '0');
	const fixed = (x) => x.toFixed(1);
	// An element with attributes and children (strings are text).
	function make(ns, tag, attrs, ...kids) {
		const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {}))
			if (v !== undefined && v !== null) e.setAttribute(k, v);
		for (const k of kids)
			if (k !== undefined && k !== null) e.append(k);
		return e;
	}
	const h = (tag, attrs, ...kids) => make(null, tag, attrs, ...kids);
	const s = (tag, attrs, ...kids) => make(SVG, tag, attrs, ...kids);

	// graph__write_svg's drawing of graph__write_json's data.
	function drawGraph(box, g) {
		const svg = s('svg', { id: g.id, class: 'cfg', width: g.w, height: g.h,
			viewBox: `0 0 ${fixed(g.vw)} ${fixed(g.vh)}`, 'font-family': 'monospace',
			'font-size': '10', 'dominant-baseline': 'central' });
		svg.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
		for (const [from, to, kind, back, count, colour, width, dashed, pts, arrow] of g.e) {
			let d = `M${fixed(pts[0])},${fixed(pts[1])}`;
			for (let i = 2; i + 5 < pts.length; i += 6)
				d += `C${fixed(pts[i])},${fixed(pts[i + 1])} ${fixed(pts[i + 2])},${fixed(pts[i + 3])} ` +
					`${fixed(pts[i + 4])},${fixed(pts[i + 5])}`;
			const e = s('g', { class: `edge ${kind}${back ? ' back' : ''}`, 'data-from': from, 'data-to': to,
				color: rgb(colour) }, count > 1 ? s('title', null, `${count} edges`) : null,
				s('path', { fill: 'none', stroke: 'currentColor', 'stroke-width': width !== 1 ? String(width) : null,
					'stroke-dasharray': dashed ? '5 3' : null, d }));
			if (arrow)
				e.append(s('path', { fill: 'currentColor', d: `M${fixed(arrow[0])},${fixed(arrow[1])}L` +
					`${fixed(arrow[2])},${fixed(arrow[3])}L${fixed(arrow[4])},${fixed(arrow[5])}z` }));
			svg.append(e);
		}
		for (const [id, flags, members, x, y, w, hh, fill, ink, href, tip, lines] of g.n) {
			const cold = flags & 1, em = flags & 2, mark = flags & 4, run = flags & 8, region = flags & 16;
			const rect = s('rect', { x: fixed(x), y: fixed(y), width: fixed(w), height: fixed(hh), fill: rgb(fill) });
			if (em) rect.setAttribute('stroke', '#000000'), rect.setAttribute('stroke-width', '2');
			else if (run) rect.setAttribute('stroke', '#777777'), rect.setAttribute('stroke-dasharray', '4 2');
			else rect.setAttribute('stroke', cold ? '#999999' : '#333333');
			if (mark && !rect.hasAttribute('stroke-dasharray')) rect.setAttribute('stroke-dasharray', '6 3');
			const text = lines.length ? s('text', { fill: rgb(ink) }) : null;
			for (let i = 0; i < lines.length; i += 3)
				text.append(s('tspan', { x: fixed(lines[i]), y: fixed(lines[i + 1]) }, lines[i + 2]));
			const inner = [tip !== null ? s('title', null, tip) : null, rect, text];
			svg.append(s('g', { class: 'node' + (region ? ' region' : run ? ' run' : cold ? ' cold' : '') +
				(em ? ' em' : '') + (mark ? ' mark' : ''), id, 'data-members': members > 1 ? members : null },
				...(href !== null ? [s('a', { href }, ...inner)] : inner)));
		}
		box.append(svg);
	}

	// html_listing__write's rows of one block (or the trailing data).
	function rows(d, tbody, list, at) {
		const ncols = d.n;
		for (const r of list) {
			const [size, text, what = 0] = r;
			let k = 3, target, samples, share, width, colour, cells, line;
			if (what & 2) target = r[k++];
			if (what & 4) [samples, share, width, colour] = r.slice(k, k += 4);
			if (what & 8) cells = r[k++];
			if (what & 16) line = r[k++];
			if (line)
				tbody.append(h('tr', { class: 'line' }, h('td', { colspan: 3 }),
					h('td', { colspan: ncols - 3 }, `${line[0]}:${line[1]}: `, h('code', null, line[2]))));
			const tr = h('tr', { class: what & 1 ? 'data' : null, 'data-samples': samples });
			if (samples)
				tr.append(h('td', null, width ? h('i', { class: 'bar', style: `width:${width}%;background:${rgb(colour)}` }) : null),
					h('td', { title: `${samples} sample${plural(samples)}` }, `${share}%`));
			else
				tr.append(h('td'), h('td'));
			tr.append(h('td', null, hex(at)));
			const asm = h('td');
			if (target !== undefined) {
				const t = '0x' + hex(target), href = `#${d.p}-l${hex(target)}`, n = text.length - t.length;
				if (n > 0 && text.endsWith(t) && (text[n - 1] === ' ' || text[n - 1] === ','))
					asm.append(text.slice(0, n), h('a', { href }, t));
				else
					asm.append(text, ' ', h('a', { class: 'to', href }, `\u2192\u00a0${t}`));
			} else {
				asm.append(text);
			}
			tr.append(asm);
			if (cells)
				d.c.forEach((c, i) => tr.append(cells[i] === null ? h('td', { class: `${c} none` }) :
					cells[i] === 0 ? h('td', { class: `${c} same` }) : h('td', { class: c }, cells[i])));
			tbody.append(tr);
			at += size;
		}
		return at;
	}

	function buildListing(table, d) {
		let at = 0;
		for (const [start, end, samples, share, rank, shown, box, members, list] of d.b) {
			const drawn = box >= 0 ? box : start;
			const tb = h('tbody', { class: shown ? 'blk shown' : 'blk', id: `${d.p}-l${hex(start)}`,
				'data-box': `${d.p}-b${hex(drawn)}`, 'data-start': start, 'data-end': end,
				'data-samples': samples, 'data-rank': rank || null });
			let facts = (samples ? `${samples} sample${plural(samples)} \u00b7 ${share}% \u00b7 ` : '') +
				`${list.length} insn${plural(list.length)}`;
			if (rank) facts += ` \u00b7 #${rank}`;
			if (shown) facts += ' \u00b7 shown';
			if (box >= 0 && box !== start) facts += ` \u00b7 in the box of 0x${hex(box)} (${members} blocks)`;
			const name = `block 0x${hex(start)}`;
			tb.append(h('tr', { class: 'bh' }, h('th', { colspan: d.n },
				box >= 0 ? h('a', { href: `#${d.p}-b${hex(drawn)}` }, name) : name, ' ',
				h('span', { class: 'facts' }, facts))));
			at = rows(d, tb, list, at);
			table.append(tb);
		}
		if (d.t) {
			const tb = h('tbody', { class: 'trail' },
				h('tr', { class: 'bh' }, h('th', { colspan: d.n }, 'data after the code')));
			rows(d, tb, d.t, at);
			table.append(tb);
		}
	}

	// A section's data, read once (null: built already, or none).
	const pending = new Map();
	function dataOf(sec) {
		if (pending.has(sec)) return pending.get(sec);
		const script = sec.querySelector('script.fdata');
		const d = script ? JSON.parse(script.textContent) : null;
		if (script) script.remove();
		pending.set(sec, d);
		return d;
	}
	// Build sec's graph and listing from its data, if it has not been.
	function build(sec) {
		const d = sec && dataOf(sec);
		if (!d) return;
		pending.set(sec, null);
		if (d.g) drawGraph(sec.querySelector('.cfg-box'), d.g);
		buildListing(sec.querySelector('table.listing'), d);
	}
	// The element of id, its function built first when it has not been.
	function find(id) {
		if (!id) return null;
		const m = /^(f[0-9]+)-/.exec(id);
		if (m && !byId(id)) build(byId(m[1]));
		return byId(id);
	}

	function unmark() {
		for (const el of marked) el.classList.remove('hl');
		marked = [];
	}
	function mark(el) {
		if (el) {
			el.classList.add('hl');
			marked.push(el);
		}
	}

	// Scroll a box into the middle of its graph's pane, leaving the page where it is.
	function reveal(box) {
		const pane = box && box.closest('.cfg-box');
		if (!pane) return;
		const r = box.getBoundingClientRect(), p = pane.getBoundingClientRect();
		if (r.top < p.top || r.bottom > p.bottom)
			pane.scrollTop += r.top - p.top - (p.height - r.height) / 2;
		if (r.left < p.left || r.right > p.right)
			pane.scrollLeft += r.left - p.left - (p.width - r.width) / 2;
	}

	function remember(id) {
		try {
			history.replaceState(null, '', '#' + id);
		} catch (e) {
			// a page opened from some sandboxes may not change its URL: no matter
		}
	}

	// On a comparison, a block has a partner on the other side (data-pair)
	// and rows in the table of pairs: they are marked with it, the partner
	// with its box.
	function markKin(tb) {
		const partner = byId(tb.dataset.pair);
		if (partner) {
			mark(partner);
			mark(byId(partner.dataset.box));
			reveal(byId(partner.dataset.box));
		}
		for (const id of [tb.id, partner && partner.id])
			if (id) all(`tr[data-goto="${id}"]`).forEach(mark);
	}

	// A block's listing: mark it and its box (and its kin); scroll the
	// listing to it unless the click was in it.
	function selectBlock(tb, scroll) {
		const box = byId(tb.dataset.box);
		unmark();
		mark(tb);
		mark(box);
		markKin(tb);
		if (scroll) tb.scrollIntoView({ block: 'center' });
		reveal(box);
		remember(tb.id);
	}

	// A box: mark it and every block drawn in it (a folded box holds several).
	function selectBox(box, scroll) {
		const blocks = all('tbody.blk').filter((tb) => tb.dataset.box === box.id);
		unmark();
		mark(box);
		blocks.forEach(mark);
		blocks.forEach(markKin);
		if (scroll && blocks.length) blocks[0].scrollIntoView({ block: 'center' });
		reveal(box);
		remember(blocks.length ? blocks[0].id : box.id);
	}

	function select(el, scroll) {
		if (!el) return false;
		if (el.matches('tbody.blk')) selectBlock(el, scroll);
		else if (el.matches('svg.cfg g.node')) selectBox(el, scroll);
		else return false;
		return true;
	}

	document.addEventListener('click', (ev) => {
		if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
		const t = ev.target;
		const zoom = t.closest('button[data-zoom]');
		if (zoom) return void zoomGraph(zoom);
		const node = t.closest('svg.cfg g.node');
		if (node) {
			ev.preventDefault();
			return void selectBox(node, true);
		}
		// a row of a table that stands for a block (a comparison's pairs)
		const row = t.closest('tr[data-goto]');
		const goto = row && byId(row.dataset.goto);
		if (goto && goto.matches('tbody.blk')) {
			ev.preventDefault();
			return void selectBlock(goto, true);
		}
		const link = t.closest('a[href^="#"]');
		const tb = t.closest('tbody.blk');
		if (link && link.closest('td')) {
			// a jump target: go to its block
			const to = find(decodeURIComponent(link.getAttribute('href').slice(1)));
			if (to && to.matches('tbody.blk')) {
				ev.preventDefault();
				return void selectBlock(to, true);
			}
		}
		if (tb) {
			if (link) ev.preventDefault();
			selectBlock(tb, false);
		}
	});

	// --- zoom ----------------------------------------------------------------
	function setZoom(svg, z) {
		const w0 = Number(svg.dataset.w || svg.getAttribute('width'));
		const h0 = Number(svg.dataset.h || svg.getAttribute('height'));
		svg.dataset.w = w0;
		svg.dataset.h = h0;
		z = Math.max(0.05, Math.min(z, 8));
		svg.dataset.zoom = z;
		svg.setAttribute('width', Math.round(w0 * z));
		svg.setAttribute('height', Math.round(h0 * z));
	}
	// The scale at which svg fits its pane (at most 1).
	function fitScale(svg) {
		const box = svg.closest('.cfg-box');
		const w0 = Number(svg.dataset.w || svg.getAttribute('width'));
		const h0 = Number(svg.dataset.h || svg.getAttribute('height'));
		return Math.min((box.clientWidth - 8) / w0, (box.clientHeight - 8) / h0, 1);
	}
	function zoomGraph(button) {
		const pane = button.closest('.cfg-pane');
		const svg = pane && pane.querySelector('svg.cfg');
		if (!svg) return;
		const z = Number(svg.dataset.zoom || 1);
		if (button.dataset.zoom === 'in') setZoom(svg, z * 1.25);
		else if (button.dataset.zoom === 'out') setZoom(svg, z / 1.25);
		else setZoom(svg, z === 1 ? fitScale(svg) : 1);
	}

	// --- filter --------------------------------------------------------------
	const filter = byId('filter'), matches = byId('matches');
	const funcs = all('section.func');
	function applyFilter() {
		const q = filter.value.trim().toLowerCase();
		let shown = 0;
		for (const sec of funcs) {
			const hit = !q || (sec.dataset.name || '').toLowerCase().includes(q);
			sec.hidden = !hit;
			const row = document.querySelector(`#ftable tr[data-func="${sec.id}"]`);
			if (row) row.hidden = !hit;
			shown += hit;
		}
		// the rows of functions without a section, by their names; the
		// collapsed tails while filtering
		for (const row of all('#ftable tbody tr:not([data-func])')) {
			const name = row.classList.contains('more') ? null : row.cells[1].firstChild;
			row.hidden = !!q && !(name && name.textContent.toLowerCase().includes(q));
		}
		matches.textContent = q ? `${shown} of ${funcs.length} functions` : '';
	}
	if (filter) filter.addEventListener('input', applyFilter);

	// --- keys ----------------------------------------------------------------
	// The ranked blocks of the functions shown: those built, and from the
	// data of those not yet (built when one is stepped to).
	function ranked() {
		const v = [];
		for (const sec of funcs) {
			if (sec.hidden) continue;
			const d = dataOf(sec);
			if (d)
				for (const b of d.b) if (b[4]) v.push([b[4], `${d.p}-l${hex(b[0])}`]);
			if (!d)
				for (const tb of all('tbody.blk[data-rank]', sec)) v.push([Number(tb.dataset.rank), tb.id]);
		}
		return v.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
	}
	let at = -1;
	function step(dir) {
		const visible = ranked();
		if (!visible.length) return;
		const cur = marked.find((el) => el.matches('tbody.blk'));
		let i = cur ? visible.indexOf(cur.id) : -1;
		if (i < 0) i = Math.min(at, visible.length - 1);
		i = dir > 0 ? (i + 1) % visible.length : (i <= 0 ? visible.length - 1 : i - 1);
		at = i;
		selectBlock(find(visible[i]), true);
	}
	document.addEventListener('keydown', (ev) => {
		if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
		if (ev.target === filter) {
			if (ev.key === 'Escape') {
				filter.value = '';
				applyFilter();
				filter.blur();
			} else if (ev.key === 'Enter') {
				filter.blur();
			}
			return;
		}
		if (ev.target.closest && ev.target.closest('input, textarea, select, button')) return;
		if (ev.key === '/') {
			ev.preventDefault();
			filter.focus();
			filter.select();
		} else if (ev.key === 'n' || ev.key === 'j') {
			step(1);
		} else if (ev.key === 'p' || ev.key === 'k') {
			step(-1);
		} else if (ev.key === 'Escape') {
			unmark();
		}
	});

	// A function coming into view for the first time: built, if it comes
	// as data; its graph, a little too wide for its pane, made to fit; and
	// opened at its hottest block (data-hot): its box shown in the graph,
	// and a listing that scrolls in a box of its own (a long one) scrolled
	// to it. Done as each comes into view, not all at once: a page of
	// every function would have the browser lay out all of them at opening.
	function firstLook(sec) {
		build(sec);
		const svg = sec.querySelector('svg.cfg');
		if (svg) {
			const box = svg.closest('.cfg-box');
			const w0 = Number(svg.getAttribute('width'));
			if (w0 > box.clientWidth - 8) {
				const z = (box.clientWidth - 8) / w0;
				if (z >= 0.6) setZoom(svg, z);
			}
		}
		const hot = byId(sec.dataset.hot);
		if (!hot || marked.length) return;
		if (svg) reveal(byId(hot.dataset.box));
		const pane = hot.closest('.panes.tall .listing-pane');
		if (pane) {
			const head = pane.querySelector('thead');
			pane.scrollTop += hot.getBoundingClientRect().top - pane.getBoundingClientRect().top -
				(head ? head.offsetHeight : 0);
		}
	}
	if ('IntersectionObserver' in window) {
		const seen = new IntersectionObserver((entries) => {
			for (const e of entries)
				if (e.isIntersecting) {
					seen.unobserve(e.target);
					firstLook(e.target);
				}
		});
		funcs.forEach((sec) => seen.observe(sec));
	}

	// A link to a block or a box (the URL's fragment) marks it on opening.
	const target = location.hash.length > 1 && find(decodeURIComponent(location.hash.slice(1)));
	if (target) select(target, true);
})();

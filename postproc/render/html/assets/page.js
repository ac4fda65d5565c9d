// hotblocks report page (postproc/html-page.h says which markup this works on).
// Clicking a box of a control-flow graph marks it and the blocks it stands
// for in the listing; clicking a block (or a link to one) marks it and its
// box. The filter hides functions whose names do not hold its text; n and p
// walk the hot blocks by rank.
'use strict';
(function () {
	const all = (sel, root) => Array.from((root || document).querySelectorAll(sel));
	const byId = (id) => (id ? document.getElementById(id) : null);
	let marked = [];

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
			const to = byId(decodeURIComponent(link.getAttribute('href').slice(1)));
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
		matches.textContent = q ? `${shown} of ${funcs.length} functions` : '';
	}
	if (filter) filter.addEventListener('input', applyFilter);

	// --- keys ----------------------------------------------------------------
	const ranked = all('tbody.blk[data-rank]').sort((a, b) => a.dataset.rank - b.dataset.rank);
	let at = -1;
	function step(dir) {
		const visible = ranked.filter((tb) => !tb.closest('section.func').hidden);
		if (!visible.length) return;
		const cur = marked.find((el) => el.matches('tbody.blk'));
		let i = cur ? visible.indexOf(cur) : -1;
		if (i < 0) i = Math.min(at, visible.length - 1);
		i = dir > 0 ? (i + 1) % visible.length : (i <= 0 ? visible.length - 1 : i - 1);
		at = i;
		selectBlock(visible[i], true);
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

	// A graph coming into view for the first time: a little too wide for
	// its pane, it is made to fit; bigger, it shows its hottest box. Done
	// as each comes into view, not all at once: a page of every function
	// would have the browser lay out all of them at opening.
	function firstLook(sec) {
		const svg = sec.querySelector('svg.cfg');
		if (!svg) return;
		const box = svg.closest('.cfg-box');
		const w0 = Number(svg.getAttribute('width'));
		if (w0 > box.clientWidth - 8) {
			const z = (box.clientWidth - 8) / w0;
			if (z >= 0.6) setZoom(svg, z);
		}
		const hot = all('tbody.blk[data-rank]', sec).sort((a, b) => a.dataset.rank - b.dataset.rank)[0];
		if (hot && !marked.length) reveal(byId(hot.dataset.box));
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
	const target = location.hash.length > 1 && byId(decodeURIComponent(location.hash.slice(1)));
	if (target) select(target, true);
})();

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The independent check of postproc/diff/diff-significance.c: scipy and statsmodels.

  diff-significance-ref.py values     the reference values of
                                      postproc/tests/diff/test-diff-significance.c,
                                      as C initializers (computed once and
                                      pasted there; make check needs no Python)
  diff-significance-ref.py simulate   the false-positive rate and power of the
                                      test on data drawn with and without a
                                      change (numpy's generator, an
                                      implementation of the test of its own)
  diff-significance-ref.py check FILE a `hotblocks diff --json` document's
                                      tests against the libraries: every
                                      pair's interval, p and q (recomputed
                                      from its samples, the sides' totals or
                                      runs and the noise the document says),
                                      its significance; prints the largest
                                      relative differences, exits 1 beyond
                                      the document's rounding

Needs scipy and statsmodels from PyPI, e.g. in a venv under build/:
  python3 -m venv build/stats-venv && build/stats-venv/bin/pip install scipy statsmodels
  build/stats-venv/bin/python scripts/tools/diff-significance-ref.py values

What is computed here with the libraries, and how it is tied to the C code:
  - the 95% interval on NEW - BASE: statsmodels' confint_proportions_2indep
    (method="newcomb") for shares, confint_poisson_2indep (method="mover",
    method_mover="score") for counts per run; the dispersion phi enters as
    effective samples (counts and totals divided by phi);
  - the p-value: the alpha at which that library interval's near end is 0,
    found with scipy's brentq (the C code bisects its own interval);
    with phi measured, the same critical value read on Student's t;
  - Student's t quantiles (scipy.stats.t.ppf), Pearson's chi-square of a
    runs x categories table (scipy.stats.chi2_contingency, no continuity
    correction), the Poisson dispersion (scipy.stats.chisquare per column),
    Benjamini-Hochberg (scipy.stats.false_discovery_control);
  - the least detectable change: brute force over the library interval.
"""
import sys

import numpy as np
from scipy import optimize, stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint
from statsmodels.stats.rates import confint_poisson, confint_poisson_2indep

ALPHA = 0.05


def mover(ea, la, ua, eb, lb, ub):
    """Newcombe's MOVER interval on NEW - BASE from each side's interval."""
    d = eb - ea
    return d - np.hypot(eb - lb, ua - ea), d + np.hypot(ub - eb, ea - la)


def share_ci(a, A, b, B, alpha=ALPHA, tau2=0.0, ma=None, mb=None):
    """Each side's Wilson interval (statsmodels proportion_confint) of its
    effective samples n / phi, phi = 1 + tau2 m p (1 - p); then MOVER."""
    sides = []
    for x, n, m in ((a, A, ma or A), (b, B, mb or B)):
        p = x / n
        phi = 1 + tau2 * m * p * (1 - p)
        lo, hi = proportion_confint(x / phi, n / phi, alpha=alpha, method="wilson")
        sides.append((p, float(lo), float(hi)))
    return mover(*sides[0], *sides[1])


def count_ci(a, ka, b, kb, alpha=ALPHA, tau2=0.0, ma=None, mb=None):
    """Each side's Poisson score interval (statsmodels confint_poisson) of
    x / phi over its runs, phi = 1 + tau2 x / runs, scaled back; then MOVER."""
    sides = []
    for x, k in ((a, ka), (b, kb)):
        phi = 1 + tau2 * x / k
        lo, hi = confint_poisson(x / phi, k, method="score", alpha=alpha)
        sides.append((x / k, float(lo) * phi, float(hi) * phi))
    return mover(*sides[0], *sides[1])


def p_value(ci, a, na, b, nb, tau2=0.0, df=0.0, ma=None, mb=None):
    """The alpha where the interval's end nearest 0 reaches 0 (normal); with
    df, the same critical value's tail on Student's t."""
    d = b / nb - a / na
    if d == 0:
        return 1.0
    end = (lambda al: ci(a, na, b, nb, al, tau2, ma, mb)[0]) if d > 0 else \
        (lambda al: -ci(a, na, b, nb, al, tau2, ma, mb)[1])
    lo = 1e-300
    if end(lo) > 0:
        return 0.0
    if end(1 - 1e-15) <= 0:
        return 1.0
    alpha = optimize.brentq(end, lo, 1 - 1e-15, xtol=1e-300, rtol=1e-14, maxiter=500)
    if not df:
        return alpha
    c = stats.norm.isf(alpha / 2)
    return 2 * stats.t.sf(c, df)


def libraries_agree():
    """Without run-to-run spread, the MOVER above is the libraries' own
    two-sample interval: confint_proportions_2indep(newcomb) and
    confint_poisson_2indep(mover, score)."""
    for a, A, b, B in ((0, 2000, 6, 2000), (197, 2196, 552, 2219), (70, 1000, 90, 1000)):
        ref = confint_proportions_2indep(b, B, a, A, method="newcomb", compare="diff")
        assert np.allclose(share_ci(a, A, b, B), ref, rtol=1e-12, atol=0), (a, A, b, B)
    for a, ka, b, kb in ((3, 1, 10, 1), (1500, 3, 1300, 3), (12, 2, 3, 1)):
        ref = confint_poisson_2indep(b, kb, a, ka, method="mover", compare="diff",
                                     method_mover="score")
        assert np.allclose(count_ci(a, ka, b, kb), ref, rtol=1e-12, atol=0), (a, ka, b, kb)


def crit(df):
    return stats.norm.isf(ALPHA / 2) if not df else stats.t.isf(ALPHA / 2, df)


def reference_values():
    libraries_agree()
    out = []
    # shares: a of A (runs of ma samples), b of B (mb), tau2, df
    cases = [
        (0, 2000, 2000, 6, 2000, 2000, 0, 0), (0, 2000, 2000, 5, 2000, 2000, 0, 0),
        (3, 1000, 1000, 0, 1200, 1200, 0, 0),
        (197, 2196, 2196, 552, 2219, 2219, 0, 0),   # mix 0x49, test-data/diff v8-base -> v8-changed
        (1457, 1864, 1864, 1383, 1848, 1848, 0, 0),  # hash, wasmtime-O2 -> wasmtime-O2-2
        (524, 2219, 2219, 558, 2228, 2228, 0, 0),   # mix 0x7f, v8-changed -> v8-changed-2
        (70, 1000, 1000, 90, 1000, 1000, 0, 0), (120000, 242000, 242000, 121500, 241000, 241000, 0, 0),
        (1, 10, 10, 9, 10, 10, 0, 0), (2000, 2000, 2000, 1990, 2000, 2000, 0, 0),
        # hash, wasmtime-O2-3..5 (runs of 1901, 1919, 1900 samples) -> wasmtime-O2-6
        (3789, 5720, (1901 ** 2 + 1919 ** 2 + 1900 ** 2) / 5720, 1273, 1877, 1877, 0.0014, 6),
        (70, 1000, 1000, 90, 1000, 1000, 0.004, 12), (0, 5000, 2500, 40, 6000, 3000, 0.01, 2),
        (300, 6000, 2000, 420, 6000, 2000, 0.0, 8),
    ]
    out.append("/* {a, A, run_a, b, B, run_b, tau2, df, lo, hi, p}: each side statsmodels 0.15.0")
    out.append(" * proportion_confint(wilson) of x / phi of n / phi, phi = 1 + tau2 run p (1 - p),")
    out.append(" * combined (MOVER); the p-value by brentq on its alpha (scipy 1.17.1) */")
    out.append("static const struct ref share_refs[] = {")
    for a, A, ma, b, B, mb, tau2, df in cases:
        lo, hi = share_ci(a, A, b, B, 2 * stats.norm.sf(crit(df)), tau2, ma, mb)
        p = p_value(share_ci, a, A, b, B, tau2, df, ma, mb)
        out.append("\t{ %d, %d, %.17g, %d, %d, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g }," %
                   (a, A, ma, b, B, mb, tau2, df, lo, hi, p))
    out.append("};")
    # counts: a over ka runs, b over kb runs
    cases = [(3, 1, 10, 1, 0, 0), (0, 1, 7, 1, 0, 0), (1500, 3, 1300, 3, 0, 0),
             (3759, 3, 3689, 3, 0.0005, 4), (12, 2, 3, 1, 0, 0), (400, 1, 460, 1, 0, 0),
             (400, 1, 460, 1, 0.002, 9)]
    out.append("/* {a, runs_a, -, b, runs_b, -, tau2, df, lo, hi, p}: each side statsmodels")
    out.append(" * confint_poisson(score) of x / phi over its runs, phi = 1 + tau2 x / runs,")
    out.append(" * scaled back, combined (MOVER) */")
    out.append("static const struct ref count_refs[] = {")
    for a, ka, b, kb, tau2, df in cases:
        lo, hi = count_ci(a, ka, b, kb, 2 * stats.norm.sf(crit(df)), tau2)
        p = p_value(count_ci, a, ka, b, kb, tau2, df)
        out.append("\t{ %d, %d, 0, %d, %d, 0, %.17g, %.17g, %.17g, %.17g, %.17g }," %
                   (a, ka, b, kb, tau2, df, lo, hi, p))
    out.append("};")
    out.append("/* {df, t quantile 0.975}: scipy.stats.t.isf(0.025, df); df 0: the normal's */")
    out.append("static const double t_refs[][2] = {")
    for df in (0, 1, 2, 4, 6.5, 30, 1000):
        out.append("\t{ %.17g, %.17g }," % (df, crit(df)))
    out.append("};")
    # spread of shares: runs x categories
    tables = [
        # test-data/diff wasmtime-O2-3..6: hash, mix, everything else (per run total)
        [[1291, 567, 1901 - 1291 - 567], [1225, 635, 1919 - 1225 - 635],
         [1273, 595, 1900 - 1273 - 595], [1273, 578, 1877 - 1273 - 578]],
        [[600, 300, 100], [640, 280, 80], [610, 290, 100]],
    ]
    out.append("/* {x2, df, p, excess, weight, samples, run_size, tau2_df}: x2, df and p of")
    out.append(" * scipy.stats.chi2_contingency(correction=False); tau2's moments by their")
    out.append(" * formula (diff-significance.h), written again here with numpy */")
    for i, t in enumerate(tables):
        t = np.array(t, float)
        r = stats.chi2_contingency(t, correction=False)
        rows, tot = t.sum(axis=1), t.sum()
        share = t.sum(axis=0) / tot
        e = np.outer(rows, share)
        own = ((t - e) ** 2 / (e * (1 - share))).sum(axis=0)
        k = t.shape[0]
        excess = (own - (k - 1)).sum()
        weight = (share * (1 - share)).sum() * (tot - (rows ** 2).sum() / tot)
        w = share * (1 - share) * (tot - (rows ** 2).sum() / tot)
        tau2_df = (k - 1) * (w.sum() ** 2 / (w ** 2).sum() - 1)
        out.append("static const struct spread_ref spread_ref_%d = { %.17g, %d, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g };" %
                   (i, r.statistic, r.dof, r.pvalue, excess, weight, tot, (rows ** 2).sum() / tot, tau2_df))
    # counts: Poisson dispersion, each column against its mean
    t = np.array([[1247, 589, 160], [1287, 556, 153], [1225, 641, 153]], float)
    x2 = sum(stats.chisquare(t[:, j]).statistic for j in range(t.shape[1]))
    k = t.shape[0]
    df = t.shape[1] * (k - 1)
    excess = x2 - t.shape[1] * (k - 1)
    weight = (k - 1) * t.mean(axis=0).sum()
    out.append("/* Poisson dispersion: scipy.stats.chisquare per column, summed; the moments as above */")
    w = (k - 1) * t.mean(axis=0)
    out.append("static const struct spread_ref spread_ref_counts = { %.17g, %d, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g };" %
               (x2, df, stats.chi2.sf(x2, df), excess, weight, t.sum(),
                (t.sum(axis=1) ** 2).sum() / t.sum(), (k - 1) * w.sum() ** 2 / (w ** 2).sum()))
    p = [0.01, 0.04, 0.03, 0.5, 0.001, 0.04, 0.2, 0.0499]
    q = stats.false_discovery_control(p)
    out.append("/* Benjamini-Hochberg: scipy.stats.false_discovery_control */")
    out.append("static const double bh_p[] = { %s };" % ", ".join("%.17g" % v for v in p))
    out.append("static const double bh_q[] = { %s };" % ", ".join("%.17g" % v for v in q))
    # least detectable: brute force over the library's interval
    out.append("/* {A, B, tau2 * 1e6, least b alone, least a alone}: the interval above at 95%")
    out.append(" * (normal quantile), one run a side, brute force */")
    out.append("static const uint64_t least_refs[][5] = {")
    for A, B, tau2 in ((2000, 2000, 0), (1864, 1848, 0), (500, 20000, 0), (6000, 6000, 0.002)):
        def least_alone(new):
            for k in range(1, 20000):
                lo, hi = share_ci(0 if new else k, A, k if new else 0, B, tau2=tau2)
                if lo > 0 or hi < 0:
                    return k
        out.append("\t{ %d, %d, %d, %d, %d }," % (A, B, round(tau2 * 1e6), least_alone(True), least_alone(False)))
    out.append("};")
    print("\n".join(out))


# The simulation: an implementation of the test of its own, vectorized.

def wilson(x, n, c):
    p = x / n
    q = 1 - p
    root = c * np.sqrt(p * q / n + c * c / (4 * n * n))
    return p, p * p / (p + c * c / (2 * n) + root), 1 - q * q / (q + c * c / (2 * n) + root)


def newcombe_p(a, A, b, B, tau2=0.0, ma=None, mb=None, df=0.0):
    """Vectorized p-values: bisection of the critical value. tau2: a scalar
    or one per row; ma, mb: run sizes (default: one run a side)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    tau2 = np.asarray(tau2, float)
    if tau2.ndim == 1:
        tau2 = tau2[:, None]
    ma = A if ma is None else ma
    mb = B if mb is None else mb
    pa, pb = a / A, b / B
    ea = A / (1 + tau2 * ma * pa * (1 - pa))
    eb = B / (1 + tau2 * mb * pb * (1 - pb))
    d = pb - pa
    lo = np.zeros(np.broadcast(a, b, ea).shape)
    hi = np.full(lo.shape, 64.0)
    for _ in range(70):
        mid = (lo + hi) / 2
        _, la, ua = wilson(pa * ea, ea, mid)
        _, lb, ub = wilson(pb * eb, eb, mid)
        L = d - np.hypot(pb - lb, ua - pa)
        U = d + np.hypot(ub - pb, pa - la)
        ex = (L > 0) | (U < 0)
        lo = np.where(ex, mid, lo)
        hi = np.where(ex, hi, mid)
    c = (lo + hi) / 2
    df = np.asarray(df, float)
    if df.ndim == 1:
        df = df[:, None]
    p = 2 * np.where(df > 0, stats.t.sf(c, np.maximum(df, 1)), stats.norm.sf(c))
    return np.where(d == 0, 1.0, np.minimum(p, 1.0))


def bh_any(p, fdr=0.05):
    """Per row of p: whether BH rejects anything."""
    m = p.shape[1]
    s = np.sort(p, axis=1)
    return (s <= fdr * np.arange(1, m + 1) / m).any(axis=1)


def spread_tau2(tables):
    """tables: sims x runs x categories of one side (every category big).
    The moments of tau2 (diff-significance.h): excess, weight; and its df."""
    rows = tables.sum(axis=2, keepdims=True)
    tot = rows.sum(axis=1, keepdims=True)
    share = tables.sum(axis=1, keepdims=True) / tot
    e = rows * share
    own = ((tables - e) ** 2 / (e * (1 - share))).sum(axis=1)
    k = tables.shape[1]
    excess = (own - (k - 1)).sum(axis=1)
    w = share[:, 0, :] * (1 - share[:, 0, :]) * \
        (tot[:, 0, 0] - (rows[:, :, 0] ** 2).sum(axis=1) / tot[:, 0, 0])[:, None]
    weight = w.sum(axis=1)
    return excess, weight, (k - 1) * (weight ** 2 / (w ** 2).sum(axis=1) - 1)


def simulate():
    rng = np.random.default_rng(20261201)
    shares = np.array([0.40, 0.25, 0.15, 0.10, 0.05, 0.03, 0.015, 0.005])
    print("Null: one run per side, no change; 8 blocks (shares %s)" % shares.tolist())
    print("%8s %8s %12s %12s %12s" % ("N", "sims", "pair p<.05", "any (BH 5%)", "Fisher p<.05"))
    for N, sims in ((200, 20000), (2000, 20000), (20000, 20000)):
        a = rng.multinomial(N, shares, size=sims)
        b = rng.multinomial(N, shares, size=sims)
        p = newcombe_p(a, N, b, N)
        fis = np.array([stats.fisher_exact([[x, N - x], [y, N - y]]).pvalue
                        for x, y in zip(a[:2000].ravel(), b[:2000].ravel())])
        print("%8d %8d %12.4f %12.4f %12.4f" % (N, sims, (p < 0.05).mean(), bh_any(p).mean(),
                                                 (fis < 0.05).mean()))
    # many small blocks: Zipf-like shares over 200 blocks
    z = 1.0 / np.arange(1, 201) ** 1.2
    z /= z.sum()
    N, sims = 2000, 5000
    a = rng.multinomial(N, z, size=sims)
    b = rng.multinomial(N, z, size=sims)
    p = newcombe_p(a, N, b, N)
    print("Null, 200 Zipf blocks (top %.1f%%), N %d, %d sims: pair p<.05 %.4f, any (BH 5%%) %.4f" %
          (100 * z[0], N, sims, (p < 0.05).mean(), bh_any(p).mean()))

    print("\nNull with run-to-run spread: each run's shares jittered (log-normal, sd sigma,")
    print("summing to 1 again), 3 runs per side of N each; the test with tau2 measured from")
    print("both sides' runs (t with its df), and the same test ignoring the runs (sampling only)")
    print("%6s %6s %8s %10s %14s %14s" % ("sigma", "N", "sims", "mean tau2", "any, tau2", "any, sampling"))
    for sigma, N, sims in ((0.0, 2000, 10000), (0.03, 2000, 10000), (0.06, 2000, 10000),
                           (0.06, 20000, 10000), (0.15, 2000, 10000)):
        def side():
            w = shares * np.exp(sigma * rng.standard_normal((sims, 3, shares.size)))
            w /= w.sum(axis=2, keepdims=True)
            return rng.multinomial(N, w)
        ta, tb = side(), side()
        xa, wa, dfa = spread_tau2(ta)
        xb, wb, dfb = spread_tau2(tb)
        tau2 = np.maximum(0.0, (xa + xb) / (wa + wb))
        a, b = ta.sum(axis=1), tb.sum(axis=1)
        p_tau = newcombe_p(a, 3 * N, b, 3 * N, tau2, N, N, dfa + dfb)
        p_no = newcombe_p(a, 3 * N, b, 3 * N)
        print("%6.2f %6d %8d %10.5f %14.4f %14.4f" % (sigma, N, sims, tau2.mean(), bh_any(p_tau).mean(),
                                                        bh_any(p_no).mean()))

    print("\nPower: block 3 goes from 10% to 13% (the others scaled), one run per side")
    for N in (1000, 2000, 5000):
        sims = 5000
        new = shares.copy()
        new[3] = 0.13
        new[np.arange(8) != 3] *= (1 - 0.13) / (1 - 0.10)
        a = rng.multinomial(N, shares, size=sims)
        b = rng.multinomial(N, new, size=sims)
        p = newcombe_p(a, N, b, N)
        m = p.shape[1]
        s = np.sort(p, axis=1)
        ok = s <= 0.05 * np.arange(1, m + 1) / m
        k = np.where(ok.any(axis=1), m - np.argmax(ok[:, ::-1], axis=1), 0)
        thr = np.where(k > 0, s[np.arange(sims), np.maximum(k - 1, 0)], -1)
        print("  N %5d: block 3 significant in %.4f of %d sims" % (N, (p[:, 3] <= thr).mean(), sims))


def check(path):
    """A hotblocks diff --json document against the libraries (see the top)."""
    import json
    d = json.load(open(path))
    n, counts = d["noise"], d["selection"]["counts"]
    sp = n["spread"]
    tau2 = sp["tau"] ** 2
    df = sp["df"] if sp["measured"] else 0.0
    sides = [d["sides"][s] for s in ("base", "new")]
    if counts:
        k = [max(len(s["runs"]), 1) for s in sides]
        ci = lambda a, b, al: count_ci(a, k[0], b, k[1], al, tau2)
        pv = lambda a, b: p_value(count_ci, a, k[0], b, k[1], tau2, df)
        unit = 1.0
    else:
        # a run's samples: sum of squares over sum, of the runs with samples
        run = []
        for s in sides:
            t = [r["total_samples"] for r in s["runs"] if r["total_samples"]] or [s["total_samples"]]
            run.append(sum(x * x for x in t) / max(sum(t), 1))
        T = [s["total_samples"] for s in sides]
        ci = lambda a, b, al: share_ci(a, T[0], b, T[1], al, tau2, run[0], run[1])
        pv = lambda a, b: p_value(share_ci, a, T[0], b, T[1], tau2, df, run[0], run[1])
        unit = 100.0
    alpha = 2 * stats.norm.sf(crit(df))
    worst = {"interval": 0.0, "p": 0.0, "q": 0.0}
    fams = {"functions": [], "blocks": []}
    for f in d["functions"]:
        fams["functions"].append(((f["base"] or {}).get("samples", 0), (f["new"] or {}).get("samples", 0), f))
        for b in f["blocks"]:
            fams["blocks"].append(((b["base"] or {}).get("samples", 0), (b["new"] or {}).get("samples", 0), b))
    bad = 0
    for fam, pairs in fams.items():
        tested = [(a, b, x) for a, b, x in pairs if a + b >= n["min_samples"]]
        ps = [pv(a, b) for a, b, _ in tested]
        unseen = n["tests"]["blocks_unseen"] if fam == "blocks" else 0
        qs = stats.false_discovery_control(ps + [1.0] * unseen) if ps else []
        for (a, b, x), p, q in zip(tested, ps, qs):
            lo, hi = ci(a, b, alpha)
            for key, want, got in (("interval", lo * unit, x["interval"][0]),
                                   ("interval", hi * unit, x["interval"][1]),
                                   ("p", p, x["p"]), ("q", min(q, 1.0), x["q"])):
                # the document rounds: 4 decimals (intervals), 4 digits (p,
                # q), 6 digits tau and df (which the recomputation starts from)
                tol = 1e-4 if key == "interval" else 5e-4 * abs(want) + 1e-300
                err = abs(want - got)
                worst[key] = max(worst[key], err / max(abs(want), 0.01 if key == "interval" else 1e-300))
                if err > tol and err > 1e-6 * abs(want):
                    print("%s: %s %r (a %d, b %d): %.6g, document %.6g" % (fam, key, x.get("base"), a, b, want, got))
                    bad += 1
            if x["significant"] != bool(q <= n["fdr"]):
                print("%s: significance of (a %d, b %d) q %.4g" % (fam, a, b, q))
                bad += 1
        for a, b, x in pairs:
            if a + b < n["min_samples"] and (x["significant"] or x["q"] is not None):
                print("%s: (a %d, b %d) below min_samples is tested" % (fam, a, b))
                bad += 1
        if len(tested) != n["tests"][fam]:
            print("%s: %d tested here, %d in the document" % (fam, len(tested), n["tests"][fam]))
            bad += 1
    print("largest relative differences: interval %.2g, p %.2g, q %.2g; %d mismatches" %
          (worst["interval"], worst["p"], worst["q"], bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "values"
    if cmd == "check":
        check(sys.argv[2])
    else:
        {"values": reference_values, "simulate": simulate}[cmd]()

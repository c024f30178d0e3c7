import numpy as np, scipy.stats as ss, sys, time
from sciax import stats
from tests.stats.distcases import CONTINUOUS
names = sys.argv[1:]
Q = np.array([1e-6, 0.02, 0.3, 0.77, 0.98])
for n in names:
    d, r = getattr(stats, n), getattr(ss, n)
    p = CONTINUOUS[n][1]
    x = r.ppf(Q, *p)
    res = [n]
    t = time.time()
    for m in ['logpdf', 'cdf', 'sf']:
        res.append(m + '%.0e' % np.max(np.abs(np.asarray(getattr(d, m)(x, *p)) / getattr(r, m)(x, *p) - 1)))
    for m in ['ppf', 'isf']:
        res.append(m + '%.0e' % np.max(np.abs(np.asarray(getattr(d, m)(Q, *p)) / getattr(r, m)(Q, *p) - 1)))
    a = np.asarray(d.stats(*p, moments='mvsk'), float); b = np.asarray(r.stats(*p, moments='mvsk'), float)
    res.append('st%.0e' % np.max(np.abs(a - b) / (np.abs(b) + 1e-12)))
    res.append('H%.0e' % abs(float(d.entropy(*p)) / r.entropy(*p) - 1))
    res.append('%.0fs' % (time.time() - t))
    print(*res, flush=True)

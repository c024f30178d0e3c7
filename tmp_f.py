import numpy as np, scipy.stats as ss
from sciax import stats
rng = np.random.default_rng(0)
a = rng.normal(size=(20, 3)); b = rng.normal(size=(20,3)) + 0.3*a
def cmp(name, x, y):
    x = np.asarray(x, float); y = np.asarray(y, float); print(name, np.max(np.abs(x - y)/(np.abs(y)+1e-300)))
cmp('moment', stats.moment(a, 3), ss.moment(a, 3))
cmp('skew', stats.skew(a), ss.skew(a)); cmp('skewu', stats.skew(a, bias=False), ss.skew(a, bias=False))
cmp('kurt', stats.kurtosis(a), ss.kurtosis(a)); cmp('kurtu', stats.kurtosis(a, bias=False, fisher=False), ss.kurtosis(a, bias=False, fisher=False))
d1 = stats.describe(a); d2 = ss.describe(a)
cmp('describe', np.concatenate([np.ravel(v) for v in [d1.mean, d1.variance, d1.skewness, d1.kurtosis, d1.minmax[0]]]), np.concatenate([np.ravel(v) for v in [d2.mean, d2.variance, d2.skewness, d2.kurtosis, d2.minmax[0]]]))
cmp('zscore', stats.zscore(a), ss.zscore(a)); cmp('sem', stats.sem(a), ss.sem(a))
p = np.abs(a)+0.1; w = rng.uniform(size=20)
cmp('gmean', stats.gmean(p), ss.gmean(p)); cmp('hmean', stats.hmean(p), ss.hmean(p)); cmp('pmean', stats.pmean(p, 1.7), ss.pmean(p, 1.7))
cmp('gmeanw', stats.gmean(p[:,0], weights=w), ss.gmean(p[:,0], weights=w))
cmp('trim', stats.trim_mean(a, 0.1), ss.trim_mean(a, 0.1)); cmp('iqr', stats.iqr(a, axis=0), ss.iqr(a, axis=0)); cmp('iqrn', stats.iqr(a, scale='normal'), ss.iqr(a, scale='normal'))
x = np.array([3., 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
for m in ['average','min','max','dense','ordinal']: cmp('rank '+m, stats.rankdata(x, m), ss.rankdata(x, m))
cmp('rank2d', stats.rankdata(np.round(a*2), axis=0), ss.rankdata(np.round(a*2), axis=0))
pk = np.array([0.1, 0.2, 0.7]); qk = np.array([0.3, 0.3, 0.4])
cmp('entropy', [stats.entropy(pk), stats.entropy(pk, qk, base=2)], [ss.entropy(pk), ss.entropy(pk, qk, base=2)])
cmp('pearson r', stats.pearsonr(a[:,0], b[:,0]).statistic, ss.pearsonr(a[:,0], b[:,0]).statistic)
cmp('spearman', stats.spearmanr(a[:,0], b[:,0]).statistic, ss.spearmanr(a[:,0], b[:,0]).statistic)
l1 = stats.linregress(a[:,0], b[:,0]); l2 = ss.linregress(a[:,0], b[:,0])
cmp('linreg', [l1.slope, l1.intercept, l1.rvalue, l1.stderr, l1.intercept_stderr], [l2.slope, l2.intercept, l2.rvalue, l2.stderr, l2.intercept_stderr])
cmp('t1', stats.ttest_1samp.__wrapped__ if False else 0, 0)
for lam in ['pearson', 'log-likelihood', 'freeman-tukey', 'mod-log-likelihood', 'neyman', 'cressie-read']:
    o = np.array([16., 18, 16, 14, 12, 12])
    try: r = stats.power_divergence(o, lambda_=lam).statistic
    except NotImplementedError: r = 'NI'
    print(lam, r, ss.power_divergence(o, lambda_=lam).statistic)

# Reference values for TestNogueiraMatchesReference: the estimator, variance, 95%
# interval and two-sample test of Nogueira, Sechidis and Brown (JMLR 2018, Definition 4,
# Theorem 7, Corollary 9, Theorem 10) written out in numpy/scipy from the paper, on two
# fixed binary selection matrices (6 selections of 10 features). Run:
#   /usr/bin/python3 compute/stability/testdata/nogueira_reference.py
import numpy as np
from scipy.stats import norm

A = np.array([[1,1,1,0,0,0,0,0,0,0],
              [1,1,0,1,0,0,0,0,0,0],
              [1,1,1,0,0,0,0,0,0,0],
              [1,0,1,0,1,0,0,0,0,0],
              [1,1,1,0,0,0,0,0,0,1],
              [0,1,1,1,0,0,0,0,0,0]])
B = np.array([[1,0,0,0,0,1,0,1,0,0],
              [0,1,0,0,1,0,0,0,1,0],
              [0,0,1,1,0,0,0,0,0,1],
              [1,0,0,0,0,0,1,0,1,0],
              [0,0,0,1,0,1,0,0,0,1],
              [0,1,1,0,0,0,1,0,0,0]])

def estimate(Z):
    M, d = Z.shape
    q = Z.mean(0)
    k = Z.sum(1)
    kbar = k.mean()
    denom = kbar / d * (1 - kbar / d)
    phi = 1 - M / (M - 1) * np.mean(q * (1 - q)) / denom
    parts = [(np.mean(Z[i] * q) - k[i] * kbar / d**2 + phi / 2 * (2 * k[i] * kbar / d**2 - k[i] / d - kbar / d + 1)) / denom for i in range(M)]
    var = 4 / M**2 * np.sum((np.array(parts) - np.mean(parts))**2)
    return phi, var

for name, Z in (('A', A), ('B', B)):
    phi, var = estimate(Z)
    z = norm.ppf(0.975)
    print('%s phi %.15g var %.15g lo %.15g hi %.15g' % (name, phi, var, phi - z * np.sqrt(var), phi + z * np.sqrt(var)))
(pa, va), (pb, vb) = estimate(A), estimate(B)
T = (pb - pa) / np.sqrt(va + vb)
print('T %.15g p %.15g' % (T, 2 * (1 - norm.cdf(abs(T)))))

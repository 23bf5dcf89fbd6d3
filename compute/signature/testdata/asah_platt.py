import csv, numpy as np
from scipy.optimize import minimize
from scipy.special import expit, xlogy
from sklearn.calibration import _sigmoid_calibration
rows = list(csv.DictReader(open('asah.csv')))
F = np.array([float(r['s100b']) for r in rows]); y = np.array([1 if r['outcome']=='Poor' else 0 for r in rows])
print("sklearn 1.2.1 _sigmoid_calibration:", repr(_sigmoid_calibration(F, y)))
F2 = np.array([float(r['ndka']) for r in rows])
print("sklearn ndka:", repr(_sigmoid_calibration(F2, y)))
prior0 = float(np.sum(y<=0)); prior1 = len(y)-prior0
T = np.where(y>0, (prior1+1)/(prior1+2), 1/(prior0+2))
for FF in (F, F2):
    obj = lambda AB: -(xlogy(T, expit(-(AB[0]*FF+AB[1]))) + xlogy(1-T, 1-expit(-(AB[0]*FF+AB[1])))).sum()
    def grad(AB):
        P = expit(-(AB[0]*FF+AB[1])); d = T-P
        return np.array([np.dot(d, FF), d.sum()])
    r = minimize(obj, np.array([0.0, np.log((prior0+1)/(prior1+1))]), jac=grad, method='BFGS', options={'gtol':1e-12})
    print("tight BFGS: %.15g %.15g grad %s" % (r.x[0], r.x[1], grad(r.x)))

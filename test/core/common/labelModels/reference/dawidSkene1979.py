"""Reference figures for the anaesthesia test: Dawid & Skene's EM (their eqs. 2.3-2.5, start 3.1), plain maximum
likelihood, written independently with numpy. Run: python3 dawidSkene1979.py > dawidSkene1979.out.json"""
import json, os
import numpy as np

data = json.load(open(os.path.join(os.path.dirname(__file__), 'anaesthesia.json')))['patients']
I, J, K = len(data), 5, 4
n = np.zeros((I, J, K))
for i, patient in enumerate(data):
    for j, ratings in enumerate(patient):
        for r in ratings:
            n[i, j, r - 1] += 1
T = n.sum(1) / n.sum((1, 2))[:, None]  # eq. 3.1: the vote shares
previous = -np.inf
for it in range(10000):
    p = T.mean(0)                                               # eq. 2.4
    pi = np.einsum('iz,ijl->jzl', T, n)                         # eq. 2.3
    pi /= pi.sum(2, keepdims=True)
    with np.errstate(divide='ignore'):
        log_pi = np.log(pi)
    log_pi[np.isneginf(log_pi)] = -1e300
    logT = np.log(p)[None, :] + np.einsum('ijl,jzl->iz', n, log_pi)
    m = logT.max(1, keepdims=True)
    evidence = m[:, 0] + np.log(np.exp(logT - m).sum(1))
    T = np.exp(logT - m); T /= T.sum(1, keepdims=True)          # eq. 2.5
    ll = evidence.sum()
    if ll - previous < 1e-12:
        break
    previous = ll
print(json.dumps({'iterations': it + 1, 'log_likelihood': ll, 'prior': p.tolist(), 'posterior': T.tolist(), 'confusion': pi.tolist()}, indent=1))

"""solve_ivp with a complex state: against the closed form ``expm(-i H t) y0`` of
a Schroedinger-type system with a small Hermitian ``H``, and against SciPy's
solve_ivp (which supports complex y0 for RK23, RK45, DOP853 and BDF).

The solvers integrate the real and imaginary parts as a real system, and the
error norm is taken over those 2n parts (SciPy's over the n moduli), so steps
and nfev differ slightly from SciPy's: values are compared with the closed
form at a bound derived from the tolerances, and the nfev with SciPy's within
a factor of 1.5.  With rtol=1e-8, atol=1e-10 over t in [0, 3] (|y| <= 1, ||H||
about 1.3), the global error of every method observed here is <= 4e-7; the
bound used is 2e-6.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si
import scipy.linalg as sl

import sciax
import sciax.numpy as snp
from sciax.integrate import odeint, solve_ivp

H = np.array([[1.0, 0.5 - 0.2j, 0.1],
              [0.5 + 0.2j, -0.3, 0.4j],
              [0.1, -0.4j, 0.7]])
H1 = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.3j], [0.0, -0.3j, 0.5]])
Y0 = np.array([1.0, 0.5j, 0.2 - 0.1j])
TE = np.linspace(0.0, 3.0, 7)
TOL = dict(rtol=1e-8, atol=1e-10)
BOUND = 2e-6


def schrod(t, y):
    return -1j * (snp.asarray(H) @ y)


def exact(t, y0=Y0, h=H):
    return sl.expm(-1j * h * t) @ y0


def exact_cols(ts, y0=Y0, h=H):
    return np.stack([exact(t, y0, h) for t in ts], axis=1)


def test_hermitian_fixture():
    assert np.allclose(H, H.conj().T) and np.allclose(H1, H1.conj().T)


@pytest.mark.parametrize("method", ["RK45", "DOP853"])
def test_explicit_against_expm_and_scipy(method):
    res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), method=method, t_eval=TE,
                    **TOL)
    ref = si.solve_ivp(lambda t, y: -1j * H @ y, (0.0, 3.0), Y0, method=method,
                       t_eval=TE, **TOL)
    y = np.asarray(res.y)
    assert res.success and y.dtype == np.complex128 and y.shape == (3, 7)
    np.testing.assert_allclose(y, exact_cols(TE), rtol=0, atol=BOUND)
    np.testing.assert_allclose(y, ref.y, rtol=0, atol=2 * BOUND)
    assert ref.nfev / 1.5 <= int(res.nfev) <= 1.5 * ref.nfev


@pytest.mark.slow  # compiles an implicit solver (~5 s)
@pytest.mark.parametrize("method", ["BDF", "Radau", "Kvaerno5"])
def test_implicit_against_expm(method):
    res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), method=method, t_eval=TE,
                    **TOL)
    assert res.success
    np.testing.assert_allclose(np.asarray(res.y), exact_cols(TE), rtol=0,
                               atol=BOUND)
    if method == "BDF":  # SciPy's Radau rejects complex y0
        ref = si.solve_ivp(lambda t, y: -1j * H @ y, (0.0, 3.0), Y0, method=method,
                           t_eval=TE, **TOL)
        np.testing.assert_allclose(np.asarray(res.y), ref.y, rtol=0,
                                   atol=2 * BOUND)
        assert ref.nfev / 1.5 <= int(res.nfev) <= 1.5 * ref.nfev


@pytest.mark.slow  # three implicit solves (~8 s)
@pytest.mark.parametrize("method", ["BDF", "Radau"])
def test_complex_jac_constant_and_callable(method):
    # jac of a holomorphic f: the complex n x n matrix, as SciPy takes it.  It
    # is the autodiff Jacobian's real form exactly, so the solves agree closely
    # (Radau's Jacobian-reuse rules differ for a given jac: not bitwise).
    base = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), method=method,
                     t_eval=TE, **TOL)
    J = -1j * H
    for jac in (J, lambda t, y: snp.asarray(J)):
        res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), method=method,
                        t_eval=TE, jac=jac, **TOL)
        assert res.success and abs(int(res.nfev) - int(base.nfev)) <= 0.05 * int(
            base.nfev)
        np.testing.assert_allclose(np.asarray(res.y), np.asarray(base.y),
                                   rtol=0, atol=BOUND)
        np.testing.assert_allclose(np.asarray(res.y), exact_cols(TE), rtol=0,
                                   atol=BOUND)


def test_jac_shape_checked_in_user_size():
    with pytest.raises(ValueError, match=r"shape \(3, 3\)"):
        solve_ivp(schrod, (0.0, 1.0), snp.asarray(Y0), method="BDF",
                  jac=np.eye(6))


def test_pytree_mixing_real_and_complex_leaves():
    # psi' = -i H psi, x' = |psi_0|^2 (a real leaf driven by the complex one),
    # and a real 2x1 leaf decaying: the state keeps its leaves' dtypes.
    def f(t, s):
        return {"psi": -1j * (snp.asarray(H) @ s["psi"]),
                "x": snp.abs(s["psi"][0]) ** 2,
                "z": -s["z"]}

    y0 = {"psi": snp.asarray(Y0), "x": snp.asarray(0.0),
          "z": snp.array([[1.0], [2.0]])}
    res = solve_ivp(f, (0.0, 3.0), y0, t_eval=TE, **TOL)
    assert res.y["psi"].dtype == np.complex128 and res.y["x"].dtype == np.float64
    assert res.y["psi"].shape == (3, 7) and res.y["z"].shape == (2, 1, 7)
    np.testing.assert_allclose(np.asarray(res.y["psi"]), exact_cols(TE), rtol=0,
                               atol=BOUND)
    np.testing.assert_allclose(np.asarray(res.y["z"])[:, 0],
                               np.array([[1.0], [2.0]]) * np.exp(-TE), atol=1e-8)
    # x against SciPy on the same system written as one complex vector.
    ref = si.solve_ivp(
        lambda t, y: np.concatenate([-1j * H @ y[:3], [abs(y[0]) ** 2]]),
        (0.0, 3.0), np.concatenate([Y0, [0.0]]), t_eval=TE, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(res.y["x"]), ref.y[3].real, atol=1e-6)


def test_per_element_atol_in_user_size():
    # atol/rtol arrays have the user's 3 entries (not the 6 real parts).
    res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), t_eval=TE, rtol=1e-8,
                    atol=np.array([1e-10, 1e-10, 1e-10]))
    same = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), t_eval=TE, **TOL)
    assert int(res.nfev) == int(same.nfev)
    np.testing.assert_allclose(np.asarray(res.y), np.asarray(same.y), atol=1e-14)
    with pytest.raises(ValueError, match=r"\(3,\)"):
        solve_ivp(schrod, (0.0, 1.0), snp.asarray(Y0), atol=np.ones(6) * 1e-6)


@pytest.mark.slow  # dense output's evaluation compiles (~4-8 s under load)
def test_dense_output_and_t_eval_free_output():
    res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), dense_output=True, **TOL)
    assert res.success
    ts = np.array([0.0, 0.37, 1.5, 2.9])
    v = np.asarray(res.sol(snp.asarray(ts)))
    assert v.dtype == np.complex128 and v.shape == (3, 4)
    # The interpolant is of lower order than the steps: a looser bound.
    np.testing.assert_allclose(v, exact_cols(ts), rtol=0, atol=1e-5)
    np.testing.assert_allclose(np.asarray(res.sol(1.5)), exact(1.5), atol=1e-5)
    np.testing.assert_allclose(np.asarray(res.y), exact_cols(np.asarray(res.t)),
                               atol=BOUND)


@pytest.mark.slow  # 3.5 s: compiles an event solve
def test_events_on_a_complex_state():
    # y = exp(-i w t): Re y crosses zero downwards at t = pi / (2 w).
    w = 1.3

    def ev(t, y):
        return snp.real(y[0])
    ev.terminal = True
    ev.direction = -1.0
    res = solve_ivp(lambda t, y: -1j * w * y, (0.0, 10.0), snp.array([1.0 + 0j]),
                    events=ev, **TOL)
    ref = si.solve_ivp(lambda t, y: -1j * w * y, (0.0, 10.0), np.array([1.0 + 0j]),
                       events=lambda t, y: y[0].real, **TOL)
    assert int(res.status) == 1
    np.testing.assert_allclose(float(res.t_events[0][0]), np.pi / (2 * w),
                               rtol=1e-7)
    np.testing.assert_allclose(float(res.t_events[0][0]), ref.t_events[0][0],
                               rtol=1e-7)
    ye = np.asarray(res.y_events[0])
    assert ye.dtype == np.complex128 and ye.shape == (1, 1)
    np.testing.assert_allclose(ye[0, 0], -1j, atol=1e-7)


def test_event_returning_complex_rejected():
    with pytest.raises(TypeError, match="real scalar"):
        solve_ivp(schrod, (0.0, 1.0), snp.asarray(Y0), events=lambda t, y: y[0])


def _hp(p):
    return snp.asarray(H) + p * snp.asarray(H1)


@pytest.mark.slow  # ~3 s
def test_vmap_over_real_parameter():
    ps = np.array([0.0, 0.4, -0.7])

    def y_at(p):
        return solve_ivp(lambda t, y, p: -1j * (_hp(p) @ y), (0.0, 2.0),
                         snp.asarray(Y0), args=(p,), t_eval=snp.array([2.0]),
                         **TOL).y[:, 0]

    got = np.asarray(sciax.vmap(y_at)(snp.asarray(ps)))
    want = np.stack([exact(2.0, h=H + p * H1) for p in ps])
    np.testing.assert_allclose(got, want, rtol=0, atol=BOUND)


def _population(p, adjoint="direct"):
    res = solve_ivp(lambda t, y, p: -1j * (_hp(p) @ y), (0.0, 2.0),
                    snp.asarray(Y0), args=(p,), t_eval=snp.array([1.0, 2.0]),
                    rtol=1e-10, atol=1e-12, adjoint=adjoint)
    return snp.abs(res.y[0, 1]) ** 2 + 0.5 * snp.abs(res.y[2, 0]) ** 2


def _population_grad_exact(p):
    # d/dp |(expm(A) y0)_k|^2 with A = -i t (H + p H1): the Frechet derivative
    # of expm in the direction -i t H1.
    g = 0.0
    for t, k, wgt in ((2.0, 0, 1.0), (1.0, 2, 0.5)):
        a = -1j * t * (H + p * H1)
        e, de = sl.expm_frechet(a, -1j * t * H1)
        y, dy = e @ Y0, de @ Y0
        g += wgt * 2 * np.real(np.conj(y[k]) * dy[k])
    return g


@pytest.mark.slow  # three solves and a derivative program (~6 s)
def test_grad_real_parameter_vs_closed_form_and_fd():
    p = 0.3
    g = float(sciax.grad(_population)(p))
    np.testing.assert_allclose(g, _population_grad_exact(p), rtol=1e-7)
    # Central differences of the solve itself (h = 1e-4: truncation ~h^2,
    # solver noise ~1e-11 / h).
    h = 1e-4
    fd = (float(_population(p + h)) - float(_population(p - h))) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6)


@pytest.mark.slow  # compiles the backward adjoint solve (~4 s)
def test_grad_backsolve_adjoint():
    p = 0.3
    g = float(sciax.grad(lambda p: _population(p, "backsolve"))(p))
    np.testing.assert_allclose(g, _population_grad_exact(p), rtol=1e-6)


@pytest.mark.slow  # ~3 s
def test_grad_wrt_complex_y0_follows_sciax_convention():
    # L = |y(1)_0|^2 with y(1) = U y0, U = expm(-i H): the gradient is
    # dL/d(Re y0) - i dL/d(Im y0), each part from the chain rule through U.
    def loss(y0):
        return snp.abs(solve_ivp(schrod, (0.0, 1.0), y0, t_eval=snp.array([1.0]),
                                 rtol=1e-10, atol=1e-12).y[0, 0]) ** 2

    g = np.asarray(sciax.grad(loss)(snp.asarray(Y0)))
    U = sl.expm(-1j * H)
    y1 = U @ Y0
    dre = 2 * np.real(np.conj(y1[0]) * U[0])        # d/d Re y0_j
    dim = 2 * np.real(np.conj(y1[0]) * 1j * U[0])   # d/d Im y0_j
    np.testing.assert_allclose(g, dre - 1j * dim, atol=1e-8)


@pytest.mark.slow  # compiles Radau with a mass matrix (~4 s)
def test_complex_mass_matrix_radau():
    # M y' = -i H y with M = diag(2, 1+1j, 1): y = expm(-i M^-1 H t) y0.
    M = np.diag([2.0, 1.0 + 1.0j, 1.0])
    res = solve_ivp(schrod, (0.0, 3.0), snp.asarray(Y0), method="Radau",
                    t_eval=TE, mass=M, **TOL)
    assert res.success
    np.testing.assert_allclose(np.asarray(res.y),
                               exact_cols(TE, h=np.linalg.solve(M, H)), atol=BOUND)


def test_lsoda_rejects_complex_like_scipy():
    with pytest.raises(ValueError, match="does not support integration in a "
                                         "complex domain"):
        solve_ivp(schrod, (0.0, 1.0), snp.asarray(Y0), method="LSODA")
    with pytest.raises(ValueError, match="complex domain"):
        si.solve_ivp(lambda t, y: -1j * H @ y, (0.0, 1.0), Y0, method="LSODA")


def test_odeint_rejects_complex():
    with pytest.raises(TypeError, match="odeint does not support complex"):
        odeint(lambda y, t: -1j * y, snp.array([1.0 + 0j]), snp.array([0.0, 1.0]))


def test_complex_output_for_real_state_still_rejected():
    with pytest.raises(TypeError, match="complex values .* for a real state"):
        solve_ivp(lambda t, y: -1j * y, (0.0, 1.0), snp.array([1.0]))
    with pytest.raises(TypeError, match="complex"):
        solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method="BDF",
                  jac=np.array([[-1j]]))


def test_jit_shapes_complex():
    @sciax.jit
    def go(y0):
        return solve_ivp(schrod, (0.0, 3.0), y0, t_eval=snp.asarray(TE), **TOL).y

    y = np.asarray(go(snp.asarray(Y0)))
    assert y.dtype == np.complex128
    np.testing.assert_allclose(y, exact_cols(TE), atol=BOUND)


def _population_h(hm, adjoint="direct"):
    # The complex Hamiltonian passed through args (a traced complex input).
    res = solve_ivp(lambda t, y, hm: -1j * (hm @ y), (0.0, 2.0), snp.asarray(Y0),
                    args=(hm,), t_eval=snp.array([1.0, 2.0]), rtol=1e-10,
                    atol=1e-12, adjoint=adjoint)
    return snp.abs(res.y[0, 1]) ** 2 + 0.5 * snp.abs(res.y[2, 0]) ** 2


@pytest.mark.slow  # four derivative programs (~35 s on two loaded cores)
def test_grad_through_complex_args():
    # d/dp of the solve with args=(H + p H1,): H has 9 complex = 18 real
    # entries, above the forward-Jacobian bound (16), so 'direct' replays the
    # steps; a 2x2 block keeps it on the forward-Jacobian path, where a complex
    # input must take two real directions (not one).
    p = 0.3
    want = _population_grad_exact(p)
    for adjoint in ("direct", "backsolve"):
        g = sciax.grad(lambda p: _population_h(
            snp.asarray(H) + p * snp.asarray(H1), adjoint))(p)
        np.testing.assert_allclose(float(g), want, rtol=1e-6)
    # Gradient w.r.t. the complex arg itself: dL/dRe - i dL/dIm, both adjoints.
    h2, y2 = H[:2, :2], Y0[:2]

    def loss(hm, adjoint):
        res = solve_ivp(lambda t, y, hm: -1j * (hm @ y), (0.0, 2.0),
                        snp.asarray(y2), args=(hm,), t_eval=snp.array([2.0]),
                        rtol=1e-10, atol=1e-12, adjoint=adjoint)
        return snp.abs(res.y[0, 0]) ** 2

    def loss_exact(hm):
        return abs((sl.expm(-2j * hm) @ y2)[0]) ** 2

    want = np.zeros((2, 2), complex)
    for i in range(2):
        for j in range(2):
            e = np.zeros((2, 2))
            e[i, j] = 1e-6
            d_re = (loss_exact(h2 + e) - loss_exact(h2 - e)) / 2e-6
            d_im = (loss_exact(h2 + 1j * e) - loss_exact(h2 - 1j * e)) / 2e-6
            want[i, j] = d_re - 1j * d_im
    for adjoint in ("direct", "backsolve"):
        g = np.asarray(sciax.grad(loss)(snp.asarray(h2), adjoint))
        np.testing.assert_allclose(g, want, atol=1e-7)

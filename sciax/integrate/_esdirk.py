"""ESDIRK methods: Kvaerno's stiffly accurate singly diagonally implicit RK pairs.

Every stage after the explicit first one solves ``z = base + h gamma f(t_i, z)``
by simplified Newton with one LU of ``I - h gamma J`` per attempted step (all
stages share the diagonal ``gamma``).  The Jacobian is kept across steps and
recomputed only when Newton fails with an old one (then the step is retried at
the same size; a failure with a fresh Jacobian halves the step).  The error is
the difference of the last two stages (the methods are stiffly accurate, the
embedded solution is the second-to-last stage), with SciPy's RMS norm and an
integral controller; the dense output is the cubic Hermite interpolant.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _implicit as im

NEWTON_MAXITER = 10


class ESDIRKTableau:
    """``a`` (s x s, lower triangular with diagonal ``gamma`` after the first
    stage).  By default stiffly accurate: ``b`` is the last row of ``a`` and
    the error weights ``e = b - b_hat`` take ``b_hat`` as the second-to-last
    row.  An additive (IMEX) pair adds ``a_expl`` (strictly lower, same nodes)
    and gives its shared ``b`` and ``e``."""

    def __init__(self, a: Any, a_expl: Any = None, b: Any = None, e: Any = None):
        self.a = np.asarray(a, float)
        self.gamma = float(self.a[1, 1])
        self.c = self.a.sum(axis=1)
        self.b = self.a[-1] if b is None else np.asarray(b, float)
        self.e = self.a[-1] - self.a[-2] if e is None else np.asarray(e, float)
        self.a_expl = None if a_expl is None else np.asarray(a_expl, float)
        self.stiffly_accurate = a_expl is None and b is None


def _lower(rows: list, gamma: float) -> np.ndarray:
    s = len(rows) + 1
    a = np.zeros((s, s))
    for i, r in enumerate(rows, start=1):
        a[i, :len(r)] = r
        a[i, i] = gamma
    return a


# A. Kvaerno, "Singly diagonally implicit Runge-Kutta methods with an explicit
# first stage", BIT 44 (2004) 489-502 (the 3(2), 4(3) and 5(4) pairs; the
# coefficients as tabulated there, also used by diffrax and OrdinaryDiffEq).
def _kvaerno3() -> ESDIRKTableau:
    g = 0.43586652150
    a31 = (-4 * g ** 2 + 6 * g - 1) / (4 * g)
    a32 = (-2 * g + 1) / (4 * g)
    a41 = (6 * g - 1) / (12 * g)
    a42 = -1 / ((24 * g - 12) * g)
    a43 = (-6 * g ** 2 + 6 * g - 1) / (6 * g - 3)
    return ESDIRKTableau(_lower([[g], [a31, a32], [a41, a42, a43]], g))


def _kvaerno4() -> ESDIRKTableau:
    g = 0.5728160625

    def p(*c):
        return np.polyval(c, g)
    a31 = p(144, -180, 81, -15, 1) * g / p(12, -6, 1) ** 2
    a32 = p(-36, 39, -15, 2) * g / p(12, -6, 1) ** 2
    a41 = p(-144, 396, -330, 117, -18, 1) / (12 * g ** 2 * p(12, -9, 2))
    a42 = p(72, -126, 69, -15, 1) / (12 * g ** 2 * p(3, -1))
    a43 = (p(-6, 6, -1) * p(12, -6, 1) ** 2) / (12 * g ** 2 * p(12, -9, 2) * p(3, -1))
    a51 = p(288, -312, 120, -18, 1) / (48 * g ** 2 * p(12, -9, 2))
    a52 = p(24, -12, 1) / (48 * g ** 2 * p(3, -1))
    a53 = -(p(12, -6, 1) ** 3) / (48 * g ** 2 * p(3, -1) * p(12, -9, 2) * p(6, -6, 1))
    a54 = p(-24, 36, -12, 1) / p(24, -24, 4)
    return ESDIRKTableau(_lower([[g], [a31, a32], [a41, a42, a43],
                                 [a51, a52, a53, a54]], g))


def _kvaerno5() -> ESDIRKTableau:
    g = 0.26
    return ESDIRKTableau(_lower([
        [g],
        [0.13, 0.84033320996790809],
        [0.22371961478320505, 0.47675532319799699, -0.06470895363112615],
        [0.16648564323248321, 0.10450018841591720, 0.03631482272098715,
         -0.13090704451073998],
        [0.13855640231268224, 0.0, -0.04245337201752043, 0.02446657898003141,
         0.61943039072480676],
        [0.13659751177640291, 0.0, -0.05496908796538376, -0.04118626728321046,
         0.62993304899016403, 0.06962479448202728]], g))


class AbstractESDIRK(im.AbstractImplicitSolver):
    """A stiffly accurate ESDIRK pair given by its :class:`ESDIRKTableau`."""

    tableau: ESDIRKTableau
    dense_rows = 3

    @property
    def n_stages(self) -> int:  # type: ignore[override]
        return len(self.tableau.c)

    def init(self, prob, t0, y0, f0, h_abs, direction, rtol, atol):
        zero = snp.asarray(0)
        return dict(h_abs=h_abs, J=im.jacobian(prob, t0, y0),
                    current_jac=snp.asarray(True), rejected=snp.asarray(False),
                    last_fail=zero, nfev=zero,
                    njev=snp.asarray(0 if prob.jac_constant else 1), nlu=zero)

    def attempt(self, prob, t, y, f, state, t1, direction, rtol, atol, max_step,
                bounded):
        s = dict(state)
        tb = self.tableau
        # An IMEX split (f_explicit, f_implicit): only the second is solved for.
        f_ex, fun = prob.split if prob.split is not None else (None, prob.fun)
        n, ns = y.shape[0], len(tb.c)
        h_min = im.min_step(t, direction)
        h_abs = snp.minimum(s["h_abs"], max_step)
        too_small = s["rejected"] & (h_abs < h_min)
        h_abs = snp.where(s["rejected"], h_abs, snp.maximum(h_abs, h_min))
        t_new = t + direction * h_abs
        t_new = snp.where(direction * (t_new - t1) > 0, t1, t_new)
        h = t_new - t
        J = s["J"]
        lu, piv, singular = im.lu_factor(snp.eye(n, dtype=y.dtype)
                                         - lax.stop_gradient(h) * tb.gamma * J)
        s = im.counters(s, nlu=1)
        scale = atol + snp.abs(y) * rtol
        tol = im.newton_tol(rtol)
        a, c = snp.asarray(tb.a), snp.asarray(tb.c)
        a_ex = snp.asarray(tb.a_expl if tb.a_expl is not None else np.zeros_like(tb.a))
        hg = h * tb.gamma
        sg = lax.stop_gradient

        def stage(i, carry):
            K, KE, ok, nfev = carry
            ti = t + c[i] * h
            earlier = snp.arange(ns) < i
            base = y + h * im.wsum(snp.where(earlier, a[i], 0.0), K)
            if f_ex is not None:
                base = base + h * im.wsum(snp.where(earlier, a_ex[i], 0.0), KE)
            z0 = base + hg * K[i - 1]

            def body(st):
                k, z, norm_old, _, _ = st
                # (cut: fun's closed-over parameters carry tangents)
                fz = sg(fun(sg(ti), z))
                dz = im.lu_solve(lu, piv, sg(base) + sg(hg) * fz - z)
                norm = im.rms(dz / sg(scale))
                norm = snp.where(snp.all(snp.isfinite(fz)), norm, snp.nan)
                div, conv, _ = im.newton_rate_test(k, norm, norm_old, NEWTON_MAXITER,
                                                   tol)
                return k + 1, snp.where(div, z, z + dz), norm, conv, div | conv

            def keep_going(st):
                return ~st[-1] & (st[0] < NEWTON_MAXITER)

            init = (snp.asarray(0), sg(z0), snp.asarray(1.0, y.dtype),
                    snp.asarray(False), snp.asarray(False))
            k, z, _, conv, _ = im.iterate(keep_going, body, init, NEWTON_MAXITER,
                                          bounded)
            if bounded:
                z = im.ift_refine(lambda v: base + hg * fun(ti, v) - v, z)
            K = im.set_row(K, i, (z - base) / hg)
            if f_ex is not None:
                KE = im.set_row(KE, i, f_ex(ti, z))
            return K, KE, ok & conv, nfev + k

        if f_ex is None:
            K0, KE0 = im.set_row(snp.zeros((ns, n), y.dtype), 0, f), None
        else:
            K0 = im.set_row(snp.zeros((ns, n), y.dtype), 0, fun(t, y))
            KE0 = im.set_row(snp.zeros((ns, n), y.dtype), 0, f_ex(t, y))
        K, KE, conv, nfev = lax.fori_loop(1, ns, stage, (K0, KE0, snp.asarray(True),
                                                         snp.asarray(0)))
        conv = conv & ~singular & ~too_small
        s = im.counters(s, nfev=snp.where(too_small, 0, nfev))
        K_all = K if f_ex is None else K + KE
        y_new = y + h * im.wsum(tb.b, K_all)
        # Step-size decisions take no derivative: cut before computing them.
        err_vec = sg(h * im.wsum(tb.e, K_all))
        scale_new = atol + snp.maximum(snp.abs(sg(y)), snp.abs(sg(y_new))) * rtol
        err = im.rms(err_vec / scale_new)
        good = conv & (err < 1)
        reject = conv & ~good
        grow, shrink = im.step_factors(err, s["rejected"], snp.isfinite(err),
                                       self.error_estimator_order)
        refresh = ~conv & ~s["current_jac"] & ~too_small
        halve = ~conv & s["current_jac"] & ~too_small
        J = lax.cond(refresh, lambda: im.jacobian(prob, t, y), lambda: J)
        s = im.counters(s, njev=refresh)
        if tb.stiffly_accurate and f_ex is None:
            f_new = K[ns - 1]  # the last stage is the new point
        else:
            f_new = prob.fun(t_new, y_new)
            s = im.counters(s, nfev=good.astype(np.int32) + (f_ex is not None))

        out = dict(s)
        out["J"] = J
        out["h_abs"] = lax.stop_gradient(snp.where(
            good, h_abs * grow, snp.where(reject, h_abs * shrink,
                                          snp.where(halve, 0.5 * h_abs, h_abs))))
        out["current_jac"] = snp.where(good, prob.jac_constant,
                                       s["current_jac"] | refresh)
        out["rejected"] = ~good
        last = snp.where(~conv, snp.where(singular, im.FAIL_SINGULAR, im.FAIL_NEWTON),
                         snp.where(reject, im.FAIL_ERROR, im.FAIL_NONE))
        out["last_fail"] = snp.where(too_small, s["last_fail"], last)
        dy = y_new - y
        coeffs = snp.stack([h * f, 3 * dy - 2 * h * f - h * f_new,
                            h * f + h * f_new - 2 * dy])
        return dict(state=out, accept=good, t_new=t_new, y_new=y_new, f_new=f_new,
                    coeffs=coeffs, fail=snp.where(too_small, s["last_fail"], -1))

    def dense_eval(self, coeffs, y_old, h, theta):
        powers = theta ** snp.arange(1, 4, dtype=coeffs.dtype)
        return y_old + im.wsum(powers, coeffs)


class Kvaerno3(AbstractESDIRK):
    """Kvaerno's L-stable, stiffly accurate ESDIRK 3(2) pair (4 stages).

    References
    ----------
    A. Kvaerno, "Singly diagonally implicit Runge-Kutta methods with an
    explicit first stage", BIT 44 (2004) 489-502.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> def f(t, y):
    ...     return snp.stack([-1000.0 * (y[0] - snp.cos(t)), -y[1]])
    >>> r = solve_ivp(f, (0.0, 1.0), snp.array([0.0, 1.0]), method="Kvaerno3",
    ...               rtol=1e-6)
    >>> print(np.round(np.asarray(r.y[:, -1]), 3), bool(r.success))
    [0.541 0.368] True
    """

    tableau = _kvaerno3()
    order = 3
    error_estimator_order = 2


class Kvaerno4(AbstractESDIRK):
    """Kvaerno's L-stable, stiffly accurate ESDIRK 4(3) pair (5 stages).

    References
    ----------
    A. Kvaerno, BIT 44 (2004) 489-502.

    Examples
    --------
    A strongly damped pendulum:

    >>> from sciax.integrate import solve_ivp, Kvaerno4
    >>> def pendulum(t, y):
    ...     return snp.stack([y[1], -100.0 * snp.sin(y[0]) - 20.0 * y[1]])
    >>> r = solve_ivp(pendulum, (0.0, 1.0), snp.array([1.0, 0.0]), method=Kvaerno4(),
    ...               rtol=1e-8, atol=1e-10)
    >>> print(np.round(np.asarray(r.y[:, -1]), 4))
    [ 0.0007 -0.0062]
    """

    tableau = _kvaerno4()
    order = 4
    error_estimator_order = 3


class Kvaerno5(AbstractESDIRK):
    """Kvaerno's L-stable, stiffly accurate ESDIRK 5(4) pair (7 stages).

    References
    ----------
    A. Kvaerno, BIT 44 (2004) 489-502.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> r = solve_ivp(lambda t, y: -50.0 * (y - snp.sin(t)), (0.0, 1.0),
    ...               snp.array([0.0]), method="Kvaerno5", rtol=1e-6)
    >>> print(round(float(r.y[0, -1]), 3))
    0.83
    """

    tableau = _kvaerno5()
    order = 5
    error_estimator_order = 4


# C. A. Kennedy and M. H. Carpenter, "Additive Runge-Kutta schemes for
# convection-diffusion-reaction equations", Appl. Numer. Math. 44 (2003)
# 139-181: ARK3(2)4L[2]SA, ARK4(3)6L[2]SA and ARK5(4)8L[2]SA (their rational
# coefficients in double precision; order conditions to order 4 checked to
# ~1e-12 when these were transcribed).  Rows after the first: a_I without its
# diagonal gamma, a_E; the shared b and the error weights b - b_hat.
def _kencarp(gamma: float, a_impl: list, a_expl: list, b: list, e: list
             ) -> ESDIRKTableau:
    ai, ae = _lower(a_impl, gamma), _lower(a_expl, 0.0)
    return ESDIRKTableau(ai, a_expl=ae, b=b, e=e)


_KC3 = _kencarp(
    0.435866521508459,
    [[0.435866521508459], [0.2576482460664272, -0.09351476757488625],
     [0.18764102434672383, -0.595297473576955, 0.9717899277217721]],
    [[0.871733043016918], [0.5275890119763004, 0.0724109880236996],
     [0.3990960076760701, -0.4375576546135194, 1.0384616469374492]],
    [0.18764102434672383, -0.595297473576955, 0.9717899277217721, 0.435866521508459],
    [-0.02709926187666531, -0.11013520969201585, 0.10306492520138455,
     0.03416954636729658])

_KC4 = _kencarp(
    0.25,
    [[0.25], [0.137776, -0.055776],
     [0.14463686602698217, -0.22393190761334475, 0.4492950415863626],
     [0.09825878328356477, -0.5915442428196704, 0.8101210538282996, 0.283164405707806],
     [0.15791629516167136, 0.0, 0.18675894052400077, 0.6805652953093346,
      -0.27524053099500667]],
    [[0.5], [0.221776, 0.110224],
     [-0.04884659515311858, -0.177720652326401, 0.8465672474795196],
     [-0.15541685842491548, -0.3567050098221991, 1.0587258798684427,
      0.30339598837867193],
     [0.20142435067267633, 0.008742057842904185, 0.15993995707168115,
      0.4038290605220775, 0.22606457389066084]],
    [0.15791629516167136, 0.0, 0.18675894052400077, 0.6805652953093346,
     -0.27524053099500667, 0.25],
    [0.0032044943984591845, 0.0, -0.002446251136679456, -0.021480075919587227,
     0.04394686806857245, -0.02322503541076487])

_KC5 = _kencarp(
    0.205,
    [[0.205], [0.1025, -0.047570415551619845],
     [0.07389944079200692, 0.0, -0.08074895409950329],
     [0.299218118308015, 0.0, 2.4638206661140414, -2.0480387844220567],
     [0.14689238442881303, 0.0, 0.11740332879881549, -0.221701968002454,
      -0.007593745225174481],
     [0.17845729560319554, 0.0, 1.0197467452199207, -0.22154535039396367,
      -0.03612491620526532, -0.5455337742259782],
     [-0.09554858675139874, 0.0, 0.0, 2.3386928037652464, -0.14043175608247527,
      -2.070587707956559, 0.7628752470251866]],
    [[0.41], [0.17753520777580992, 0.08239437667257023],
     [0.12262307902976895, 0.0, 0.07552740766273468],
     [2.2901776494938124, 0.0, 11.244925765143737, -12.615103414637549],
     [0.4029445178347679, 0.0, 1.3540123800181454, -1.4857008988406062,
      -0.031255999012307065],
     [1.4641384430844078, 0.0, 7.230468679858015, -7.844607122942423, -0.125, -0.125],
     [-1.6748080049977643, 0.0, -6.389438645559299, 14.692200676518024,
      0.0946662343256827, -7.21115732765286, 1.4885370673662177]],
    [-0.09554858675139874, 0.0, 0.0, 2.3386928037652464, -0.14043175608247527,
     -2.070587707956559, 0.7628752470251866, 0.205],
    [0.004028378053609991, 0.0, 0.0, -0.0684700762345285, 0.019716427003038328,
     0.07364888848796758, -0.016690375399811663, -0.01223324191027586])


class _KenCarp(AbstractESDIRK):
    imex = True


class KenCarp3(_KenCarp):
    """Kennedy and Carpenter's additive (IMEX) ESDIRK 3(2) pair, ARK3(2)4L[2]SA.

    With ``fun=(f_explicit, f_implicit)`` only the stiff ``f_implicit`` is
    solved for (Newton on its Jacobian); ``f_explicit`` is treated by the
    paired explicit method.  With a single ``fun`` it is an ESDIRK method.

    References
    ----------
    C. A. Kennedy and M. H. Carpenter, "Additive Runge-Kutta schemes for
    convection-diffusion-reaction equations", Appl. Numer. Math. 44 (2003)
    139-181.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> stiff = lambda t, y: -1000.0 * (y - snp.cos(t))
    >>> slow = lambda t, y: -0.1 * y
    >>> r = solve_ivp((slow, stiff), (0.0, 1.0), snp.array([0.0]), method="KenCarp3",
    ...               rtol=1e-6)
    >>> print(round(float(r.y[0, -1]), 3), bool(r.success))
    0.541 True
    """

    tableau = _KC3
    order = 3
    error_estimator_order = 2


class KenCarp4(_KenCarp):
    """Kennedy and Carpenter's additive (IMEX) ESDIRK 4(3) pair, ARK4(3)6L[2]SA.

    Six stages, L-stable implicit part; the split ``fun=(f_explicit,
    f_implicit)`` and the reference are as for :class:`KenCarp3`.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> r = solve_ivp((lambda t, y: -0.1 * y, lambda t, y: -1000.0 * (y - snp.cos(t))),
    ...               (0.0, 1.0), snp.array([0.0]), method="KenCarp4", rtol=1e-6)
    >>> print(round(float(r.y[0, -1]), 3))
    0.541
    """

    tableau = _KC4
    order = 4
    error_estimator_order = 3


class KenCarp5(_KenCarp):
    """Kennedy and Carpenter's additive (IMEX) ESDIRK 5(4) pair, ARK5(4)8L[2]SA.

    Eight stages; for tight tolerances (see :class:`KenCarp3` for the split).

    References
    ----------
    C. A. Kennedy and M. H. Carpenter, "Additive Runge-Kutta schemes for
    convection-diffusion-reaction equations", Appl. Numer. Math. 44 (2003).

    Examples
    --------
    Diffusion (stiff, implicit) with a forcing term (explicit):

    >>> from sciax.integrate import solve_ivp, KenCarp5
    >>> lap = 100.0 * snp.array([[-2.0, 1, 0], [1, -2, 1], [0, 1, -2]])
    >>> forcing = lambda t, y: snp.sin(t) * snp.ones(3)
    >>> r = solve_ivp((forcing, lambda t, y: lap @ y), (0.0, 2.0), snp.ones(3),
    ...               method=KenCarp5(), rtol=1e-8, atol=1e-10)
    >>> print(np.round(np.asarray(r.y[:, -1]), 4))
    [0.0137 0.0183 0.0137]
    """

    tableau = _KC5
    order = 5
    error_estimator_order = 4

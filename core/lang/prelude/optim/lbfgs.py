# torch.optim.LBFGS: limited-memory BFGS over all parameters as one flat vector, with PyTorch's
# step rule (first step scaled by min(1, 1/|g|_1)), its two-loop recursion over at most
# history_size curvature pairs, and its strong-Wolfe line search (bracketing, then cubic zoom).
# Quantities that PyTorch keeps as 0-dim tensors (ys, H_diag, ro, gtd, and t after the first
# step) stay tensors here too, so the float32 arithmetic matches its numbers.

import torch
import torch.optim as optim


# The minimizer of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, kept inside
# bounds (default: between x1 and x2); the bounds' midpoint when the cubic has no minimum.
def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    if bounds is not None:
        lo, hi = bounds
    elif x1 <= x2:
        lo, hi = x1, x2
    else:
        lo, hi = x2, x1
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, lo), hi)
    return (lo + hi) / 2.0


class _Bracket:
    # The interval the zoom phase narrows: step sizes with their losses, gradients and slopes.
    def __init__(self, ts, fs, gs, gtds):
        self.t = ts
        self.f = fs
        self.g = gs
        self.gtd = gtds

    def set(self, i, t, f, g, gtd):
        self.t[i] = t
        self.f[i] = f
        self.g[i] = g
        self.gtd[i] = gtd


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket = None
    # Phase 1: grow t until an interval holding a point with the Wolfe conditions is found.
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new])
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = _Bracket([t], [f_new], [g_new], [gtd_new])
            done = True
            break
        if gtd_new >= 0:
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new])
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        old_t = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev = old_t
        f_prev = f_new
        g_prev = g_new.clone()
        gtd_prev = gtd_new
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], None)
    return _zoom(obj_func, x, d, f, gtd, bracket, done, ls_iter, evals, d_norm, c1, c2, tolerance_change, max_ls)


# Phase 2: shrink the bracket by cubic interpolation until a point meets the Wolfe conditions.
def _zoom(obj_func, x, d, f, gtd, br, done, ls_iter, evals, d_norm, c1, c2, tolerance_change, max_ls):
    insuf_progress = False
    low, high = (0, 1) if br.f[0] <= br.f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(br.t[1] - br.t[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(br.t[0], br.f[0], br.gtd[0], br.t[1], br.f[1], br.gtd[1])
        # Too close to an end of the bracket twice in a row (or outside it): move in by 10%.
        top = max(br.t)
        bottom = min(br.t)
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:
            if insuf_progress or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= br.f[low]:
            br.set(high, t, f_new, g_new.clone(), gtd_new)
            low, high = (0, 1) if br.f[0] <= br.f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (br.t[high] - br.t[low]) >= 0:
                br.set(high, br.t[low], br.f[low], br.g[low], br.gtd[low])
            br.set(low, t, f_new, g_new.clone(), gtd_new)
    return br.f[low], br.g[low], br.t[low], evals


class LBFGS(optim.Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None, maximize=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError('Invalid learning rate: {}'.format(lr))
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {'lr': lr, 'max_iter': max_iter, 'max_eval': max_eval, 'tolerance_grad': tolerance_grad,
                    'tolerance_change': tolerance_change, 'history_size': history_size,
                    'line_search_fn': line_search_fn, 'maximize': maximize}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]['params']
        self._numel_cache = None

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum(p.numel() for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self):
        views = []
        for p in self._params:
            if p.grad is None:
                views.append(p.new_zeros(p.numel()))
            else:
                views.append(p.grad.reshape(-1))
        flat = torch.cat(views, 0)
        if self.param_groups[0]['maximize']:
            flat.neg_()
        return flat

    # params += step_size * update, the flat update split back over the parameters.
    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(update[offset:offset + n].view_as(p), alpha=step_size)
            offset += n

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        with torch.enable_grad():
            loss = float(closure())
        if self.param_groups[0]['maximize']:
            loss = -loss
        flat_grad = self._gather_flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    def _evaluate(self, closure):
        with torch.enable_grad():
            loss = closure()
        return loss

    def step(self, closure):
        with torch.no_grad():
            return self._step(closure)

    def _state(self):
        # As PyTorch's: all of LBFGS's state lives under its first parameter.
        state = self._group_states[0][0]
        self.state[self._params[0]] = state
        return state

    def _step(self, closure):
        if len(self._params) == 0:
            return self._evaluate(closure)
        group = self.param_groups[0]
        lr = group['lr']
        max_iter = group['max_iter']
        max_eval = group['max_eval']
        tolerance_grad = group['tolerance_grad']
        tolerance_change = group['tolerance_change']
        maximize = group['maximize']
        state = self._state()
        state.setdefault('func_evals', 0)
        state.setdefault('n_iter', 0)

        orig_loss = self._evaluate(closure)
        loss = -float(orig_loss) if maximize else float(orig_loss)
        current_evals = 1
        state['func_evals'] += 1
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss

        d = state.get('d')
        t = state.get('t')
        old_dirs = state.get('old_dirs')
        old_stps = state.get('old_stps')
        ro = state.get('ro')
        H_diag = state.get('H_diag')
        prev_flat_grad = state.get('prev_flat_grad')
        prev_loss = state.get('prev_loss')

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state['n_iter'] += 1
            if state['n_iter'] == 1:
                d = flat_grad.neg()
                old_dirs = []
                old_stps = []
                ro = []
                H_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    # A usable curvature pair: remember it, dropping the oldest when full.
                    if len(old_dirs) == group['history_size']:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                d = self._two_loop(state, flat_grad, old_dirs, old_stps, ro, H_diag, group['history_size'])

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if state['n_iter'] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break  # not a descent direction

            ls_func_evals = 0
            if group['line_search_fn'] is not None:
                if group['line_search_fn'] != 'strong_wolfe':
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p.clone() for p in self._params]

                def obj_func(x, t, d):
                    return self._directional_evaluate(closure, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd,
                                                                  max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    # A fixed step: re-evaluate unless this was the last iteration.
                    loss = self._evaluate(closure)
                    loss = -float(loss) if maximize else float(loss)
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state['func_evals'] += ls_func_evals

            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state['d'] = d
        state['t'] = t
        state['old_dirs'] = old_dirs
        state['old_stps'] = old_stps
        state['ro'] = ro
        state['H_diag'] = H_diag
        state['prev_flat_grad'] = prev_flat_grad
        state['prev_loss'] = prev_loss
        return orig_loss

    # The direction -H g by the two-loop recursion, H the inverse Hessian estimate of the pairs
    # (H_diag times the identity to start from); state['al'] holds the first loop's coefficients.
    def _two_loop(self, state, flat_grad, old_dirs, old_stps, ro, H_diag, history_size):
        num_old = len(old_dirs)
        if 'al' not in state:
            state['al'] = [None] * history_size
        al = state['al']
        q = flat_grad.neg()
        for i in range(num_old - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-al[i])
        r = torch.mul(q, H_diag)
        for i in range(num_old):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=al[i] - be_i)
        return r


optim.LBFGS = LBFGS

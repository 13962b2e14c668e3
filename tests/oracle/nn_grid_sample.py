# F.affine_grid and 2-D F.grid_sample: bilinear, nearest and bicubic, the three
# padding modes, align_corners, and gradients to the input and the grid.
import torch
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
theta = torch.tensor([[[0.9, -0.3, 0.2], [0.4, 1.1, -0.1]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
for ac in [False, True]:
    g = F.affine_grid(theta, (2, 1, 2, 3), align_corners=ac)
    g.backward(torch.arange(24.0).view(2, 2, 3, 2))
    print('affine', ac, tuple(g.shape), g.grad_fn.name(), r(g[0]))
    print(r(theta.grad))
    theta.grad = None
print(r(F.affine_grid(theta, [2, 3, 1, 2], align_corners=True)))
print(r(F.affine_grid(theta.double(), torch.Size([2, 1, 2, 1]), align_corners=False)),
      F.affine_grid(theta.double(), (2, 1, 1, 1)).dtype)

inp = torch.randn(2, 2, 3, 4, requires_grad=True)
# Points inside, on the border, outside and far outside (for reflection's repeated flips).
grid = torch.tensor([[[[-1.0, -1.0], [1.0, 1.0], [0.1, -0.3]], [[1.3, 0.2], [-1.7, 0.9], [3.6, -2.9]]],
                     [[[0.5, 0.5], [-0.25, 0.75], [0.0, 0.0]], [[-1.05, 1.2], [0.33, -0.66], [-5.2, 4.1]]]],
                    requires_grad=True)
gout = torch.linspace(-1.0, 1.0, 24).view(2, 2, 2, 3)
for mode in ['bilinear', 'nearest', 'bicubic']:
    for pad in ['zeros', 'border', 'reflection']:
        for ac in [False, True]:
            out = F.grid_sample(inp, grid, mode=mode, padding_mode=pad, align_corners=ac)
            inp.grad = None
            grid.grad = None
            out.backward(gout)
            print(mode, pad, ac, out.grad_fn.name())
            print(' out', r(out[0]))
            print(' out', r(out[1]))
            print(' d_inp', r(inp.grad[0]))
            # Bicubic's grid gradient sums taps that cancel where they read one
            # border pixel: a zero whose sign depends on the order of the sum.
            print(' d_grid', [v + 0.0 for v in r(grid.grad)] if mode == 'bicubic' else r(grid.grad))

# A spatial transformer: affine_grid then grid_sample, gradients back to theta.
th = torch.tensor([[[0.8, 0.1, 0.05], [-0.2, 0.9, 0.1]]], requires_grad=True)
img = torch.arange(16.0).view(1, 1, 4, 4)
out = F.grid_sample(img, F.affine_grid(th, (1, 1, 3, 3), align_corners=False), align_corners=False)
out.sum().backward()
print(r(out), r(th.grad))
one = torch.randn(1, 1, 1, 1)
print(r(F.grid_sample(one, grid[:1], padding_mode='reflection', align_corners=True)))
print(r(F.grid_sample(inp.double(), grid.double(), padding_mode='border')),
      F.grid_sample(inp.double(), grid.double()).dtype)
print(tuple(F.grid_sample(inp[:, :0], grid).shape), F.grid_sample(inp.detach(), grid.detach()).requires_grad)

g = F.affine_grid(theta, (2, 1, 2, 3), align_corners=False)
for f in [lambda: F.affine_grid(theta.long(), (2, 1, 2, 2)), lambda: F.affine_grid(theta, (2, 1, 2)),
          lambda: F.affine_grid(theta, (2, 1, 2, 2, 2)), lambda: F.affine_grid(theta[0], (1, 1, 2, 2)),
          lambda: F.affine_grid(theta, (2, 1, 0, 2), False),
          lambda: F.grid_sample(inp, g, mode='x'), lambda: F.grid_sample(inp, g, padding_mode='x'),
          lambda: F.grid_sample(inp, g.double()), lambda: F.grid_sample(inp, g[..., :1]),
          lambda: F.grid_sample(inp[0], g[0]), lambda: F.grid_sample(inp, torch.zeros(3, 2, 2, 2)),
          lambda: F.grid_sample(inp, g[:, 0]), lambda: F.grid_sample(inp.long(), g.long()),
          lambda: F.grid_sample(inp[:, :, :0], g)]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)

# torch.fft transforms against PyTorch: norm modes, odd/even n, dims, a gradient.
import torch


def show(name, t):
    if torch.is_complex(t):
        t = torch.view_as_real(t)
    # + 0.0: rounding noise around zero prints as 0.0 whatever its sign
    print(name, list(t.shape), [round(v, 4) + 0.0 for v in t.flatten().tolist()])


x6 = torch.tensor([0.5, -1.0, 2.0, 3.5, 0.0, 1.25])
x5 = torch.tensor([1.0, 2.0, -3.0, 0.5, 4.0])
for norm in [None, 'backward', 'forward', 'ortho']:
    show('fft6 ' + str(norm), torch.fft.fft(x6, norm=norm))
    show('rfft5 ' + str(norm), torch.fft.rfft(x5, norm=norm))
    show('irfft6 ' + str(norm), torch.fft.irfft(torch.fft.rfft(x6, norm=norm), n=6, norm=norm))
    show('ifft5 ' + str(norm), torch.fft.ifft(torch.fft.fft(x5, norm=norm), norm=norm))
show('rfft n=4', torch.fft.rfft(x6, n=4))
show('rfft n=8', torch.fft.rfft(x6, n=8))
show('fft n=7', torch.fft.fft(x5, n=7))
spec = torch.fft.rfft(x6)
show('irfft default', torch.fft.irfft(spec))
show('irfft n=5', torch.fft.irfft(spec, n=5))
show('irfft n=7', torch.fft.irfft(spec, n=7))
print(torch.fft.rfft(x6).dtype, torch.fft.fft(x6.double()).dtype, torch.fft.fft(torch.arange(4)).dtype,
      torch.fft.irfft(spec).dtype)

m = torch.arange(12.0).reshape(3, 4) * 0.5 - 1.0
show('fft dim0', torch.fft.fft(m, dim=0))
show('rfft dim=-1', torch.fft.rfft(m))
show('fft2', torch.fft.fft2(m))
show('rfft2', torch.fft.rfft2(m))
show('ifft2', torch.fft.ifft2(torch.fft.fft2(m)))
show('irfft2', torch.fft.irfft2(torch.fft.rfft2(m), s=(3, 4)))
cz = torch.complex(m, m.flip(1))
show('fft complex', torch.fft.fft(cz))
show('ifft complex', torch.fft.ifft(cz, dim=0, norm='ortho'))

print(torch.fft.fftfreq(5), torch.fft.fftfreq(6))
print(torch.fft.rfftfreq(6, d=0.5), torch.fft.rfftfreq(7))
print(torch.fft.fftfreq(4, dtype=torch.float64).dtype, torch.fft.fftfreq(4, dtype=torch.float64).tolist())
print(torch.fft.fftshift(torch.arange(5)), torch.fft.ifftshift(torch.arange(5)))
print(torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(6)))
print(torch.fft.fftshift(torch.arange(6).reshape(2, 3)), torch.fft.fftshift(torch.arange(6).reshape(2, 3), dim=1))
show('fftshift complex', torch.fft.fftshift(torch.fft.fft(x5)))

# gradients: a spectral filter and a power spectrum
w = torch.tensor([0.3, -0.2, 1.1, 0.7, -0.4, 0.9, 0.05, 1.5], requires_grad=True)
filt = torch.tensor([1.0, 0.8, 0.5, 0.2, 0.0])
y = torch.fft.irfft(torch.fft.rfft(w) * filt, n=8)
loss = (y * torch.arange(8.0)).sum() + torch.fft.rfft(w, norm='ortho').abs().pow(2).sum()
loss.backward()
print(round(loss.item(), 4), [round(v, 4) for v in w.grad.tolist()])
v = torch.tensor([0.5, 1.0, -2.0, 0.25, 3.0], requires_grad=True)
torch.view_as_real(torch.fft.fft(v, norm='forward')).pow(2).sum().backward()
print([round(t, 4) for t in v.grad.tolist()])
s = torch.complex(torch.tensor([1.0, 2.0, -1.0, 0.5]), torch.tensor([0.0, 1.0, 2.0, 0.0])).requires_grad_()
torch.fft.irfft(s, n=6).pow(2).sum().backward()
show('irfft grad', s.grad)

def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

err(lambda: torch.fft.fft(x6, norm='bad'))
err(lambda: torch.fft.rfft(cz))
err(lambda: torch.fft.fft(x6, n=0))

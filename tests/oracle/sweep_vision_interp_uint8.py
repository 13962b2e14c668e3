# uint8 images through interpolate: nearest modes exactly, bilinear (both
# corner conventions) with a rounded integer result after each pass; the
# result stays uint8 (it used to come back as zeros).
import torch
import torch.nn.functional as F

torch.manual_seed(0)
img = (torch.rand(1, 3, 5, 6) * 255).to(torch.uint8)
for mode, kw in [('nearest', {}), ('nearest-exact', {}), ('bilinear', {}), ('bilinear', dict(align_corners=True)),
                 ('bicubic', dict(antialias=True))]:
    y = F.interpolate(img, size=(3, 4), mode=mode, **kw)
    print(mode, kw, y.dtype, y[0, 0].tolist())
big = F.interpolate(img, scale_factor=2, mode='nearest')
print(big.shape, big.dtype, big[0, 1, 0].tolist())

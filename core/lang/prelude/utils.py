# torch.utils: only its data submodule (utils/data.py).

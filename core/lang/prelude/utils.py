# torch.utils: its data and checkpoint submodules (utils/data.py, utils/checkpoint.py).

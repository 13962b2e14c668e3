# Recurrent layers: nn.RNN, nn.LSTM, nn.GRU and their cells, with PyTorch's
# parameters (names, shapes, registration order, uniform(-1/sqrt(hidden),
# 1/sqrt(hidden)) init over parameters()) and ATen's CPU arithmetic: the input
# projection of a whole sequence in one matmul, then per step the hidden
# projection added to it and the gates in ATen's order (LSTM: input, forget,
# cell, output; GRU: reset, update, new). Registered into torch.nn at start-up.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._C import Parameter
from torch.nn.utils.rnn import PackedSequence


def _lstm_step(gates, c):
    i, f, g, o = gates.chunk(4, 1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


def _gru_step(x_gates, h_gates, h):
    i_r, i_z, i_n = x_gates.chunk(3, 1)
    h_r, h_z, h_n = h_gates.chunk(3, 1)
    r = torch.sigmoid(h_r + i_r)
    z = torch.sigmoid(h_z + i_z)
    n = torch.tanh(i_n + h_n * r)
    return (h - n) * z + n


def _simple_step(gates, nonlinearity):
    return torch.tanh(gates) if nonlinearity == 'tanh' else torch.relu(gates)


class RNNBase(nn.Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or dropout < 0 or dropout > 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size != 0 and mode != 'LSTM':
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        gate_size = {'LSTM': 4, 'GRU': 3}.get(mode, 1) * hidden_size
        directions = 2 if bidirectional else 1
        # With a projection the hidden state (what the next layer and step see) has proj_size
        # features; the cell state keeps hidden_size.
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden * directions
                suffix = '_reverse' if direction == 1 else ''
                shapes = [('weight_ih', (gate_size, layer_input)), ('weight_hh', (gate_size, real_hidden))]
                if bias:
                    shapes += [('bias_ih', (gate_size,)), ('bias_hh', (gate_size,))]
                if proj_size > 0:
                    shapes.append(('weight_hr', (proj_size, hidden_size)))
                for name, shape in shapes:
                    full = f'{name}_l{layer}{suffix}'
                    setattr(self, full, Parameter(torch.empty(shape)))
                    self._flat_weights_names.append(full)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            nn.init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    def flatten_parameters(self):
        pass

    def extra_repr(self):
        s = '{}, {}'.format(self.input_size, self.hidden_size)
        if self.proj_size != 0:
            s += ', proj_size={}'.format(self.proj_size)
        if self.num_layers != 1:
            s += ', num_layers={}'.format(self.num_layers)
        if self.bias is not True:
            s += ', bias={}'.format(self.bias)
        if self.batch_first is not False:
            s += ', batch_first={}'.format(self.batch_first)
        if self.dropout != 0:
            s += ', dropout={}'.format(self.dropout)
        if self.bidirectional is not False:
            s += ', bidirectional={}'.format(self.bidirectional)
        return s

    def _check_input(self, input):
        if isinstance(input, PackedSequence):
            input = input.data
            if input.dim() != 2:
                raise RuntimeError(f"input must have 2 dimensions, got {input.dim()}")
        elif not isinstance(input, torch.Tensor):
            raise TypeError(f"{type(self).__name__}: expected a Tensor or a PackedSequence as input, "
                            f"got {type(input).__name__}")
        elif input.dim() not in (2, 3):
            raise ValueError(f"{self.mode}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def _check_hidden(self, hx, batch, what, size=None):
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, batch, size or self.hidden_size)
        if tuple(hx.shape) != expected:
            raise RuntimeError(f"Expected {what} size {expected}, got {list(hx.shape)}")

    def _params(self, layer, direction):
        suffix = '_reverse' if direction == 1 else ''
        w_ih = getattr(self, f'weight_ih_l{layer}{suffix}')
        w_hh = getattr(self, f'weight_hh_l{layer}{suffix}')
        b_ih = getattr(self, f'bias_ih_l{layer}{suffix}') if self.bias else None
        b_hh = getattr(self, f'bias_hh_l{layer}{suffix}') if self.bias else None
        return w_ih, w_hh, b_ih, b_hh

    def _proj_weight(self, layer, direction):
        if self.proj_size == 0:
            return None
        return getattr(self, f'weight_hr_l{layer}' + ('_reverse' if direction == 1 else ''))

    # The size of the hidden state h (the projection's when there is one).
    def _real_hidden(self):
        return self.proj_size if self.proj_size > 0 else self.hidden_size

    # One step of the cell: x_gates is the input projection of this step's rows; w_hr
    # (LSTM's proj_size) maps the new hidden state down, as ATen's h @ w_hr^T.
    def _step(self, x_gates, h, c, w_hh, b_hh, w_hr=None):
        h_gates = F.linear(h, w_hh, b_hh)
        if self.mode == 'LSTM':
            h, c = _lstm_step(h_gates + x_gates, c)
            return (h if w_hr is None else torch.matmul(h, w_hr.t())), c
        if self.mode == 'GRU':
            return _gru_step(x_gates, h_gates, h), c
        return _simple_step(h_gates + x_gates, 'tanh' if self.mode == 'RNN_TANH' else 'relu'), c

    # One direction of one layer over the sequence x [L, N, in]: the outputs
    # [L, N, hidden] and the final state.
    def _run_direction(self, x, h, c, layer, direction):
        w_ih, w_hh, b_ih, b_hh = self._params(layer, direction)
        w_hr = self._proj_weight(layer, direction)
        fused = self.mode in ('LSTM', 'GRU') and x.device.type == 'cpu' and x.numel() > 0 and w_hr is None
        if fused and x.dtype in (torch.float32, torch.float64):
            # The steps as one op whose backward takes the weight gradient over
            # all steps in one product (core/ops/rnn.cpp).
            last = 0 if direction == 1 else -1
            x_gates = F.linear(x, w_ih, b_ih)
            if self.mode == 'GRU':
                out, _ = torch._kiln_gru_layer(x_gates, h, w_hh, b_hh, direction == 1)
                c = None
            else:
                out, cells, _ = torch._kiln_lstm_layer(x_gates, h, c, w_hh, b_hh, direction == 1)
                c = cells[last]
            # ATen stacks its steps' outputs: the node PyTorch shows.
            out = torch._C._set_grad_fn_name(out, 'StackBackward0')
            return out, out[last], c
        # One unbind, not a select per step: each select's gradient would be a
        # zero-filled copy of the whole sequence, summed over the steps.
        x_steps = F.linear(x, w_ih, b_ih).unbind(0)
        steps = x.size(0)
        outs = [None] * steps
        order = range(steps - 1, -1, -1) if direction == 1 else range(steps)
        for t in order:
            h, c = self._step(x_steps[t], h, c, w_hh, b_hh, w_hr)
            outs[t] = h
        return torch.stack(outs, 0), h, c

    # The same over a packed sequence x [sum(sizes), in]: step t runs the first
    # sizes[t] rows of the state; the others keep the state their sequence
    # ended with (forward), or have not started yet (reverse: they join with
    # their initial state when their sequence's last step comes).
    def _run_direction_packed(self, x, sizes, h, c, layer, direction):
        w_ih, w_hh, b_ih, b_hh = self._params(layer, direction)
        w_hr = self._proj_weight(layer, direction)
        x_steps = F.linear(x, w_ih, b_ih).split(list(sizes), 0)  # one split: see _run_direction
        lstm = self.mode == 'LSTM'
        outs = [None] * len(sizes)
        if direction == 0:
            for t, n in enumerate(sizes):
                hn, cn = self._step(x_steps[t], h[:n], c[:n] if lstm else None, w_hh, b_hh, w_hr)
                outs[t] = hn
                h = torch.cat([hn, h[n:]], 0) if n < h.size(0) else hn
                if lstm:
                    c = torch.cat([cn, c[n:]], 0) if n < c.size(0) else cn
            return torch.cat(outs, 0), h, c
        h0, c0 = h, c
        rows = sizes[-1]
        h, c = h0[:rows], (c0[:rows] if lstm else None)
        for t in range(len(sizes) - 1, -1, -1):
            n = sizes[t]
            if n > rows:
                h = torch.cat([h, h0[rows:n]], 0)
                if lstm:
                    c = torch.cat([c, c0[rows:n]], 0)
                rows = n
            h, c = self._step(x_steps[t], h, c, w_hh, b_hh, w_hr)
            outs[t] = h
        return torch.cat(outs, 0), h, c

    def _run(self, x, h0, c0, sizes=None):
        directions = 2 if self.bidirectional else 1
        h_n = []
        c_n = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                k = layer * directions + direction
                c = c0[k] if c0 is not None else None
                if sizes is None:
                    out, h, c = self._run_direction(x, h0[k], c, layer, direction)
                else:
                    out, h, c = self._run_direction_packed(x, sizes, h0[k], c, layer, direction)
                outs.append(out)
                h_n.append(h)
                c_n.append(c)
            x = outs[0] if directions == 1 else torch.cat(outs, -1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        return x, torch.stack(h_n, 0), (torch.stack(c_n, 0) if c0 is not None else None)

    def forward(self, input, hx=None):
        self._check_input(input)
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        batch = input.size(1)
        directions = 2 if self.bidirectional else 1
        zeros = torch.zeros(self.num_layers * directions, batch, self.hidden_size, dtype=input.dtype,
                            device=input.device)
        if self.mode == 'LSTM':
            if hx is None:
                h0, c0 = self._proj_zeros(zeros), zeros
            else:
                self._check_state_dims(batched, hx[0], hx[1])
                h0, c0 = hx
                if not batched:
                    h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
                self._check_hidden(h0, batch, 'hidden[0]', self._real_hidden())
                self._check_hidden(c0, batch, 'hidden[1]')
        else:
            c0 = None
            if hx is None:
                h0 = zeros
            else:
                self._check_state_dims(batched, hx)
                h0 = hx.unsqueeze(1) if not batched else hx
                self._check_hidden(h0, batch, 'hidden')
        output, h_n, c_n = self._run(input, h0, c0)
        if self.mode == 'LSTM' and not self.bidirectional and input.dtype == torch.float32 and self.proj_size == 0:
            # PyTorch runs these LSTMs on oneDNN: the output's node is that kernel's.
            output = torch._C._set_grad_fn_name(output, 'MkldnnRnnLayerBackward0')
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if c_n is not None else None
        elif self.batch_first:
            output = output.transpose(0, 1)
            if self.mode != 'LSTM':  # ATen transposes its RNN and GRU results in place
                output = torch._C._set_grad_fn_name(output, 'TransposeBackward1')
        if self.mode == 'LSTM':
            return output, (h_n, c_n)
        return output, h_n

    # The initial state must be 3-D for a batched (3-D) input, 2-D for an unbatched one.
    def _check_state_dims(self, batched, h, c=None):
        want = 3 if batched else 2
        kind = 'batched 3-D' if batched else 'unbatched 2-D'
        if c is None and h.dim() != want:
            raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {h.dim()}-D tensor")
        if c is not None and (h.dim() != want or c.dim() != want):
            raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                               f"({h.dim()}-D, {c.dim()}-D) tensors")

    # The zero initial hidden state, narrowed to proj_size features when projecting.
    def _proj_zeros(self, zeros):
        return zeros if self.proj_size == 0 else zeros[..., :self.proj_size].contiguous()

    # A packed input gives a packed output; hx and the final states are in the
    # caller's batch order, the packed rows in sorted order.
    def _forward_packed(self, input, hx):
        data, batch_sizes, sorted_indices, unsorted_indices = input
        sizes = batch_sizes.tolist()
        batch = sizes[0]
        directions = 2 if self.bidirectional else 1
        zeros = torch.zeros(self.num_layers * directions, batch, self.hidden_size, dtype=data.dtype,
                            device=data.device)
        def sort(state):
            return state if sorted_indices is None else state.index_select(1, sorted_indices)
        def unsort(state):
            return state if unsorted_indices is None else state.index_select(1, unsorted_indices)
        if self.mode == 'LSTM':
            h0, c0 = (self._proj_zeros(zeros), zeros) if hx is None else (sort(hx[0]), sort(hx[1]))
            self._check_hidden(h0, batch, 'hidden[0]', self._real_hidden())
            self._check_hidden(c0, batch, 'hidden[1]')
        else:
            h0, c0 = (zeros if hx is None else sort(hx)), None
            self._check_hidden(h0, batch, 'hidden')
        output, h_n, c_n = self._run(data, h0, c0, sizes)
        packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        if self.mode == 'LSTM':
            return packed, (unsort(h_n), unsort(c_n))
        return packed, unsort(h_n)


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None, proj_size=0):
        if nonlinearity not in ('tanh', 'relu'):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__('RNN_TANH' if nonlinearity == 'tanh' else 'RNN_RELU', input_size, hidden_size,
                         num_layers, bias, batch_first, dropout, bidirectional, proj_size)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__('LSTM', input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None, proj_size=0):
        super().__init__('GRU', input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size)


# ---- cells ---------------------------------------------------------------------------------

class RNNCellBase(nn.Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty(num_chunks * hidden_size, input_size))
        self.weight_hh = Parameter(torch.empty(num_chunks * hidden_size, hidden_size))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size))
        else:
            self.register_parameter('bias_ih', None)
            self.register_parameter('bias_hh', None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            nn.init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = '{}, {}'.format(self.input_size, self.hidden_size)
        if self.bias is not True:
            s += ', bias={}'.format(self.bias)
        if getattr(self, 'nonlinearity', 'tanh') != 'tanh':
            s += ', nonlinearity={}'.format(self.nonlinearity)
        return s

    # The input as a batch (a 1-d input is a batch of one) and the initial state.
    def _prepare(self, input, hx, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(-1)} expected {self.input_size}")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        elif not batched:
            hx = hx.unsqueeze(0)
        return input, hx, batched

    def _gates(self, input, hx):
        return F.linear(input, self.weight_ih, self.bias_ih), F.linear(hx, self.weight_hh, self.bias_hh)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None):
        if nonlinearity not in ('tanh', 'relu'):
            raise RuntimeError(f"Unknown nonlinearity: {nonlinearity}")
        super().__init__(input_size, hidden_size, bias, 1)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, batched = self._prepare(input, hx, 'RNNCell')
        x_gates, h_gates = self._gates(input, hx)
        h = _simple_step(h_gates + x_gates, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        h0, c0 = (None, None) if hx is None else hx
        input_b, h, batched = self._prepare(input, h0, 'LSTMCell')
        if c0 is None:
            c = torch.zeros_like(h)
        else:
            c = c0 if batched else c0.unsqueeze(0)
        x_gates, h_gates = self._gates(input_b, h)
        h, c = _lstm_step(h_gates + x_gates, c)
        if not batched:
            return h.squeeze(0), c.squeeze(0)
        return h, c


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3)

    def forward(self, input, hx=None):
        input, hx, batched = self._prepare(input, hx, 'GRUCell')
        x_gates, h_gates = self._gates(input, hx)
        h = _gru_step(x_gates, h_gates, hx)
        return h if batched else h.squeeze(0)


for _cls in (RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell):
    setattr(nn, _cls.__name__, _cls)

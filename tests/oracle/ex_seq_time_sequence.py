# time_sequence_prediction in the style of pytorch/examples: sine waves with
# random phase, two stacked LSTMCells in double precision trained with LBFGS
# through a closure, then predicting future points.
import torch
import torch.nn as nn
import torch.optim as optim

# generate_sine_wave.py, but small, in memory and with torch instead of numpy
torch.manual_seed(2)
T = 20
L = 30
N = 8
x = torch.empty((N, L), dtype=torch.int64)
x[:] = torch.tensor(range(L)) + torch.randint(-4 * T, 4 * T, (N,)).reshape(N, 1)
data = torch.sin(x / 1.0 / T).to(torch.float64)
print('data', tuple(data.shape), data.dtype, round(float(data[0, 0]), 6), round(float(data.sum()), 6))

class Sequence(nn.Module):
    def __init__(self, hidden=12):
        super(Sequence, self).__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs

torch.manual_seed(0)
input = data[3:, :-1]
target = data[3:, 1:]
test_input = data[:3, :-1]
test_target = data[:3, 1:]
print('input', input.dtype, tuple(input.shape), tuple(test_target.shape))
seq = Sequence()
seq.double()
print('param dtypes', sorted(set(str(p.dtype) for p in seq.parameters())))
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
for i in range(2):
    print('STEP: ', i)
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print('loss:', round(loss.item(), 6))
        loss.backward()
        return loss
    ret = optimizer.step(closure)
    print('step returned', round(ret.item(), 6))
    with torch.no_grad():
        future = 10
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', round(loss.item(), 6))
        y = pred.detach()
    print('pred', tuple(y.shape), [round(float(v), 4) for v in y[0, -future::3]])
st = optimizer.state[optimizer._params[0]]
print('lbfgs state', st['func_evals'], st['n_iter'], len(st['old_dirs']))

x = 1
priidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

model = MLP(4, 16, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X = torch.randn(64, 4)
y = (X[:, 0] > 0).long()
for step in range(100):
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")

# A small GPT-style character language model (token and position embeddings,
# two blocks of causal self-attention and a GELU MLP, LayerNorm), trained with
# AdamW on a short story and then sampled with torch.multinomial.
# Kiln scripts cannot read files, so the training text is embedded below; it
# is the same text as samples/data/tiny.txt (written for this project).
# Run it with `kiln run samples/train_gpt.py`.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = """The Potter of the Hill Road

At the top of the hill road there was a small workshop with a kiln behind it, and in the workshop lived a potter named Ada. Every morning she opened the shutters, swept the floor, and wet the clay that waited under a damp cloth. The clay was grey and heavy, and it smelled of rain and river stones. Ada liked that smell more than the smell of bread.

She made bowls and cups and tall jars for oil. She made plates for the inn at the bottom of the hill, and little pots for the herbs that the baker grew on his window sill. When people asked her how she knew the shape of a good bowl, she said that the clay told her, and that her hands only had to listen.

The kiln was older than the workshop. It was built of yellow brick, and its door was a slab of iron with a ring for a handle. Ada fed it with wood from the forest and watched the fire through a small hole in the wall. A kiln, she said, is a patient animal. If you hurry it, it cracks your pots. If you leave it, it goes cold and sulks. You have to stay with it through the night, and you have to learn its moods.

One autumn a boy named Tom came up the hill road with a letter from his aunt. The letter asked Ada to take the boy as an apprentice. He was twelve years old, he was quick with numbers, and he could not sit still. Ada read the letter twice, looked at the boy, and gave him a broom.

For the first week Tom swept the floor and carried wood. For the second week he wedged clay, pressing and folding it until the air was gone and the clay was smooth all the way through. He asked many questions. Why do you fold it this way? Why does the wheel turn to the left? Why do you count when the fire is burning? Ada answered the questions she could answer, and for the others she said, watch, and you will see.

In the third week Tom sat at the wheel for the first time. The clay would not stay in the middle. It wobbled and leaned and flew off the wheel onto the wall. Tom laughed, and then he was angry, and then he laughed again. Ada showed him how to brace his arm against his knee, how to lean his weight into the clay, how to let the wheel do the work. Center it first, she said. Nothing good is made on a crooked start.

By winter Tom could center the clay and pull a small cylinder. His cylinders were thick at the bottom and thin at the top, and many of them collapsed, but each one was a little better than the one before. Ada kept a shelf of his failures. When he asked why, she said that a shelf of failures is a map. It shows you where you have been, and it points to where you are going.

The baker came up the hill one cold morning with a basket of rolls. He looked at the shelf and asked whether the boy was any good. Ada said that the boy was learning, which was better than being good. The baker did not understand, but he ate a roll and warmed his hands by the kiln and went home happy.

In the spring they fired the kiln together. They loaded it in the evening, stacking the pots on shelves of fired clay, with small gaps so that the heat could move between them. Ada closed the iron door and Tom lit the fire. All night they fed the kiln, a little wood at a time, and watched the color of the flame change from red to orange to a bright yellow that hurt the eyes. Tom counted the minutes between each load of wood and wrote the numbers in a notebook. He drew a line that climbed slowly across the page, like a road up a hill.

Why do you write it down, Ada asked him. Because then I can see what the fire is doing, he said. If it climbs too fast, I can slow it. If it stops, I can feed it. The numbers tell me what my eyes cannot.

Ada thought about this for a long time. She had always fired the kiln by feel, by the color of the flame and the sound of the draft. She had learned it from her own teacher, who had learned it from his. But she saw that the boy's line was a kind of listening too, a way of hearing the fire with a pencil.

At dawn they let the fire die and waited. A kiln must cool as slowly as it heats, or the pots will crack from the shock. They waited all day. Tom could not sit still, so Ada sent him to gather wood, and then to sweep, and then to walk down to the river and back. In the evening they opened the door. The heat rolled out like a breath. Inside, the pots had changed. The grey clay had turned the color of sand and honey, and the glazes had melted into glass, green and blue and a deep brown like strong tea.

Tom lifted out his own small bowl. It was crooked, and the glaze had run down one side, but it was whole. He held it up to the light and turned it in his hands. Ada said nothing, because there was nothing that needed to be said.

Over the years the workshop grew. Tom built a second wheel, and then a second kiln, smaller and faster, for testing glazes. He kept his notebooks on a shelf beside the shelf of failures, and the notebooks grew into a long row of lines and numbers. He learned to mix glazes from ash and stone and to predict their colors before the firing. When a firing went wrong, he opened the notebooks and looked for the place where the line had bent. Usually he found it.

Ada grew older. Her hands were still strong, but her back was tired, and she spent more time at the window and less time at the wheel. She liked to watch Tom work. He was still quick, and he still asked questions, but now he asked them of the clay and the fire instead of her. Sometimes, late at night, she heard him talking to the kiln, telling it to be patient.

One day a girl came up the hill road with a letter from her mother. The letter asked whether the workshop might take her as an apprentice. Tom read the letter twice and looked at the girl. Then he looked at Ada, and Ada smiled. Tom went to the corner of the room and came back with a broom.

The girl swept the floor and carried wood. She wedged clay and asked questions. Why do you write the numbers down? Why does the line climb so slowly? Why do you keep a shelf of broken pots? Tom answered the questions he could answer, and for the others he said, watch, and you will see.

On the hill road the seasons turned. The river ran high in spring and low in autumn. The baker grew his herbs in little pots with a green glaze, and the inn served soup in bowls the color of honey. People who passed the workshop at night saw the glow of the kiln through the small hole in the wall, and they said that the potter was listening to the fire again.

A note on making things

Every craft has a loop in it. You make something, you look at it, you learn from what you see, and you make the next thing a little better. The loop is slow at first, because you do not yet know what to look for. Later it gets faster, and the things you make get better, and you begin to see mistakes before you make them.

Clay teaches this loop well because it is honest. A bowl that is too thin will collapse on the wheel. A glaze that is too thick will run in the fire. A kiln that is heated too quickly will crack the work inside it. The material does not lie, and it does not flatter. It simply shows you what you did.

Learning to program a computer is much the same. You write a few lines, you run them, and the machine tells you exactly what you asked for, which is often not what you meant. You read the error, you change a line, and you run it again. Each run is a small firing. Some runs crack, and some come out whole. The ones that crack are a map.

A good tool shortens the loop. A wheel that turns smoothly lets the potter feel the clay. A kiln with a window lets her see the flame. A program that runs quickly lets the programmer try an idea, see the result, and try the next idea while the first is still fresh in mind. The faster the loop, the more you learn, and the more you learn, the better the things you make.

But speed is not everything. Ada fired her kiln slowly on purpose, because the clay needed time. Some things cannot be hurried. The skill is in knowing which parts of the work to make fast and which parts to leave slow, and that skill, like centering clay, comes only from practice.
"""


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.n_head = n_head
        self.n_embd = n_embd
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        mask = torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size)
        self.register_buffer("mask", mask)

    def forward(self, x):
        B, T, C = x.shape
        hs = C // self.n_head
        q, k, v = self.qkv(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, hs).transpose(1, 2)
        k = k.view(B, T, self.n_head, hs).transpose(1, 2)
        v = v.view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.fc = nn.Linear(n_embd, 4 * n_embd)
        self.act = nn.GELU()
        self.proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.proj(self.act(self.fc(x)))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.ln2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size, n_embd, n_head, n_layer, block_size):
        super().__init__()
        self.block_size = block_size
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        pos = torch.arange(T)
        x = self.tok_emb(idx) + self.pos_emb(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))
        return logits, loss

    def generate(self, idx, n_new):
        for _ in range(n_new):
            logits, _ = self(idx[:, -self.block_size:])
            probs = F.softmax(logits[:, -1, :], dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            idx = torch.cat([idx, nxt], dim=1)
        return idx


# Character-level tokenizer: every distinct character of the text is a token.
chars = sorted(set(TEXT))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
data = torch.tensor([stoi[ch] for ch in TEXT], dtype=torch.int64)
n_train = int(0.9 * len(data))
train_data = data[:n_train]
val_data = data[n_train:]

block_size = 32
batch_size = 8
n_embd = 32
n_head = 4
n_layer = 2
steps = 200


def get_batch(source):
    starts = torch.randint(0, len(source) - block_size - 1, (batch_size,)).tolist()
    x = torch.stack([source[s:s + block_size] for s in starts])
    y = torch.stack([source[s + 1:s + block_size + 1] for s in starts])
    return x, y


torch.manual_seed(1337)
model = GPT(len(chars), n_embd, n_head, n_layer, block_size)
print(f"text: {len(TEXT)} characters, vocabulary: {len(chars)} tokens")
print(f"model: {sum(p.numel() for p in model.parameters())} parameters")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)

for step in range(steps):
    xb, yb = get_batch(train_data)
    _, loss = model(xb, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == steps - 1:
        print(f"step {step:3d}  loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    xv, yv = get_batch(val_data)
    _, val_loss = model(xv, yv)
    print(f"validation loss {val_loss.item():.4f}")
    torch.manual_seed(42)
    start = torch.tensor([[stoi["T"]]])
    out = model.generate(start, 120)
print("sample:")
print("".join([itos[i] for i in out[0].tolist()]))

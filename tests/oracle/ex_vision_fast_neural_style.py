# pytorch/examples fast_neural_style, shrunk: the TransformerNet (reflection
# padded convs, InstanceNorm2d(affine=True), residual blocks, nearest upsample),
# gram matrices via bmm, content + style MSE losses and the example's log line.
import re
import torch
from torch.optim import Adam


class TransformerNet(torch.nn.Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        # Initial convolution layers
        self.conv1 = ConvLayer(3, 8, kernel_size=9, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(8, affine=True)
        self.conv2 = ConvLayer(8, 16, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(16, affine=True)
        # Residual layers
        self.res1 = ResidualBlock(16)
        self.res2 = ResidualBlock(16)
        # Upsampling Layers
        self.deconv1 = UpsampleConvLayer(16, 8, kernel_size=3, stride=1, upsample=2)
        self.in4 = torch.nn.InstanceNorm2d(8, affine=True)
        self.deconv3 = ConvLayer(8, 3, kernel_size=9, stride=1)
        # Non-linearities
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.res2(y)
        y = self.relu(self.in4(self.deconv1(y)))
        y = self.deconv3(y)
        return y


class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(torch.nn.Module):
    """ResidualBlock
    introduced in: https://arxiv.org/abs/1512.03385
    """

    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(torch.nn.Module):
    """UpsampleConvLayer
    Upsamples the input and then does a convolution. This method gives better results
    compared to ConvTranspose2d.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = torch.nn.functional.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out


class TinyFeatures(torch.nn.Module):
    """A stand-in for the example's frozen VGG16: returns features at two depths
    as a namedtuple, as Vgg16 does."""

    def __init__(self):
        super(TinyFeatures, self).__init__()
        self.slice1 = torch.nn.Sequential(torch.nn.Conv2d(3, 6, 3, padding=1), torch.nn.ReLU(inplace=True))
        self.slice2 = torch.nn.Sequential(torch.nn.MaxPool2d(kernel_size=2, stride=2),
                                          torch.nn.Conv2d(6, 8, 3, padding=1), torch.nn.ReLU(inplace=True))
        for param in self.parameters():
            param.requires_grad = False

    def forward(self, X):
        h = self.slice1(X)
        h_relu1_2 = h
        h = self.slice2(h)
        h_relu2_2 = h
        from collections import namedtuple
        vgg_outputs = namedtuple("VggOutputs", ['relu1_2', 'relu2_2'])
        out = vgg_outputs(h_relu1_2, h_relu2_2)
        return out


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def normalize_batch(batch):
    # normalize using imagenet mean and std
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


torch.manual_seed(42)
batch_size = 2
content_weight = 1e5
style_weight = 1e10
log_interval = 2
transformer = TransformerNet()
optimizer = Adam(transformer.parameters(), 1e-3)
mse_loss = torch.nn.MSELoss()
vgg = TinyFeatures()
print(sum(p.numel() for p in transformer.parameters()), vgg.slice1[0].weight.requires_grad)

style = torch.rand(1, 3, 16, 16) * 255
style = style.repeat(batch_size, 1, 1, 1)
features_style = vgg(normalize_batch(style))
gram_style = [gram_matrix(y) for y in features_style]
print('gram', [tuple(g.shape) for g in gram_style], round(gram_style[0].sum().item(), 4))

images = torch.rand(6, 3, 16, 16) * 255
for e in range(1):
    transformer.train()
    agg_content_loss = 0.
    agg_style_loss = 0.
    count = 0
    for batch_id in range(3):
        x = images[batch_id * batch_size:(batch_id + 1) * batch_size].clone()
        n_batch = len(x)
        count += n_batch
        optimizer.zero_grad()

        y = transformer(x)

        y = normalize_batch(y)
        x = normalize_batch(x)

        features_y = vgg(y)
        features_x = vgg(x)

        content_loss = content_weight * mse_loss(features_y.relu2_2, features_x.relu2_2)

        style_loss = 0.
        for ft_y, gm_s in zip(features_y, gram_style):
            gm_y = gram_matrix(ft_y)
            style_loss += mse_loss(gm_y, gm_s[:n_batch, :, :])
        style_loss *= style_weight

        total_loss = content_loss + style_loss
        total_loss.backward()
        optimizer.step()

        agg_content_loss += content_loss.item()
        agg_style_loss += style_loss.item()

        if (batch_id + 1) % log_interval == 0:
            mesg = "{}\tEpoch {}:\t[{}/{}]\tcontent: {:.6f}\tstyle: {:.6f}\ttotal: {:.6f}".format(
                "<time>", e + 1, count, len(images),
                agg_content_loss / (batch_id + 1),
                agg_style_loss / (batch_id + 1),
                (agg_content_loss + agg_style_loss) / (batch_id + 1)
            )
            print(mesg)

# stylize(): reload the weights, dropping the running stats that old
# checkpoints of InstanceNorm carried.
state_dict = transformer.state_dict()
state_dict['in1.running_mean'] = torch.zeros(8)
state_dict['res1.in2.running_var'] = torch.ones(16)
for k in list(state_dict.keys()):
    if re.search(r'in\d+\.running_(mean|var)$', k):
        del state_dict[k]
style_model = TransformerNet()
print(style_model.load_state_dict(state_dict), len(state_dict))
transformer = style_model
transformer.eval()
with torch.no_grad():
    output = transformer(images[:1]).clamp(0, 255)
img = output[0].clone().clamp(0, 255).numpy() if False else output[0]
img = img.transpose(0, 1).transpose(1, 2).to(torch.uint8)
print(tuple(img.shape), img.dtype, img[0, :4, 0].tolist())
print('in1', [round(v, 4) for v in transformer.in1.weight[:3].tolist()], transformer.in1)

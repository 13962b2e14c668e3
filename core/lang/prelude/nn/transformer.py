# Attention and transformer layers: nn.MultiheadAttention, the encoder and
# decoder layers and stacks, and nn.Transformer, with PyTorch's parameters,
# init order (so a seeded script gets PyTorch's weights) and the arithmetic of
# F.multi_head_attention_forward: the weights path (scaled q, baddbmm with the
# mask, softmax, bmm) when need_weights, scaled_dot_product_attention
# otherwise. Registered into torch.nn at start-up.
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._C import Parameter


class NonDynamicallyQuantizableLinear(nn.Linear):
    pass


# A bool mask becomes an additive float mask (-inf where True), as
# F._canonical_mask does; a float mask is used as is.
def _canonical_mask(mask, name, dtype):
    if mask is None:
        return None
    if mask.dtype == torch.bool:
        return torch.zeros_like(mask, dtype=dtype).masked_fill_(mask, float('-inf'))
    if not torch.is_floating_point(mask):
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


def _in_projection_packed(q, k, v, w, b):
    e = q.size(-1)
    if k is v:
        if q is k:
            proj = F.linear(q, w, b)
            proj = proj.unflatten(-1, (3, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        q_proj = F.linear(q, w_q, b_q)
        kv_proj = F.linear(k, w_kv, b_kv).unflatten(-1, (2, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return q_proj, kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty(embed_dim, embed_dim))
            self.k_proj_weight = Parameter(torch.empty(embed_dim, self.kdim))
            self.v_proj_weight = Parameter(torch.empty(embed_dim, self.vdim))
            self.register_parameter('in_proj_weight', None)
        else:
            self.in_proj_weight = Parameter(torch.empty(3 * embed_dim, embed_dim))
            self.register_parameter('q_proj_weight', None)
            self.register_parameter('k_proj_weight', None)
            self.register_parameter('v_proj_weight', None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim))
        else:
            self.register_parameter('in_proj_bias', None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty(1, 1, embed_dim))
            self.bias_v = Parameter(torch.empty(1, 1, embed_dim))
        else:
            self.bias_k = None
            self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            nn.init.xavier_uniform_(self.in_proj_weight)
        else:
            nn.init.xavier_uniform_(self.q_proj_weight)
            nn.init.xavier_uniform_(self.k_proj_weight)
            nn.init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            nn.init.constant_(self.in_proj_bias, 0.0)
            nn.init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            nn.init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            nn.init.xavier_normal_(self.bias_v)

    def _project(self, query, key, value):
        if self._qkv_same_embed_dim:
            return _in_projection_packed(query, key, value, self.in_proj_weight, self.in_proj_bias)
        e = self.embed_dim
        b = self.in_proj_bias
        b_q, b_k, b_v = (None, None, None) if b is None else (b[0:e], b[e:2 * e], b[2 * e:])
        return (F.linear(query, self.q_proj_weight, b_q), F.linear(key, self.k_proj_weight, b_k),
                F.linear(value, self.v_proj_weight, b_v))

    # The attention mask as [bsz * heads, tgt, src] (or [1, tgt, src]), both
    # masks additive floats.
    def _shaped_masks(self, attn_mask, key_padding_mask, bsz, tgt_len, src_len, dtype):
        attn_mask = _canonical_mask(attn_mask, 'attn_mask', dtype)
        key_padding_mask = _canonical_mask(key_padding_mask, 'key_padding_mask', dtype)
        if attn_mask is not None:
            if attn_mask.dim() == 2:
                if tuple(attn_mask.shape) != (tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                       f"{(tgt_len, src_len)}.")
                attn_mask = attn_mask.unsqueeze(0)
            elif attn_mask.dim() == 3:
                if tuple(attn_mask.shape) != (bsz * self.num_heads, tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                       f"{(bsz * self.num_heads, tgt_len, src_len)}.")
            else:
                raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
        return attn_mask, key_padding_mask

    # add_bias_kv and add_zero_attn each append one key/value column that no
    # mask hides. k and v are [bsz * heads, src, head_dim] here.
    def _extend_kv(self, k, v, attn_mask, key_padding_mask, bsz):
        def pad(m):
            return None if m is None else F.pad(m, (0, 1))
        if self.bias_k is not None:
            bk = self.bias_k.repeat(1, bsz, 1).view(1, bsz * self.num_heads, self.head_dim).transpose(0, 1)
            bv = self.bias_v.repeat(1, bsz, 1).view(1, bsz * self.num_heads, self.head_dim).transpose(0, 1)
            k, v = torch.cat([k, bk], dim=1), torch.cat([v, bv], dim=1)
            attn_mask, key_padding_mask = pad(attn_mask), pad(key_padding_mask)
        if self.add_zero_attn:
            shape = (bsz * self.num_heads, 1, self.head_dim)
            k = torch.cat([k, torch.zeros(shape, dtype=k.dtype)], dim=1)
            v = torch.cat([v, torch.zeros(shape, dtype=v.dtype)], dim=1)
            attn_mask, key_padding_mask = pad(attn_mask), pad(key_padding_mask)
        return k, v, attn_mask, key_padding_mask

    # The key padding mask merged into the attention mask.
    def _merged_mask(self, attn_mask, key_padding_mask, bsz, src_len):
        if key_padding_mask is not None:
            for d, want in ((0, bsz), (1, src_len)):
                if key_padding_mask.shape[d] != want:
                    raise AssertionError(f"Expected key_padded_mask.shape[{d}] to be {want}, but got "
                                         f"{key_padding_mask.shape[d]}")
            key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, self.num_heads, -1, -1)
            key_padding_mask = key_padding_mask.reshape(bsz * self.num_heads, 1, src_len)
            attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
        return attn_mask

    # Whether PyTorch takes its fast path (torch._native_multi_head_attention):
    # batched self-attention in eval mode with nothing needing grad. Its
    # softmax, unlike scaled_dot_product_attention's, leaves NaN in a row
    # whose keys are all masked out.
    def _fast_path(self, query, key, value):
        if query.dim() != 3 or query is not key or key is not value or self.training:
            return False
        if self.num_heads % 2 != 0 or not self.batch_first or self.bias_k is not None or self.bias_v is not None:
            return False
        if self.add_zero_attn or not self._qkv_same_embed_dim or self.in_proj_bias is None:
            return False
        if torch.is_autocast_enabled() or query.dtype != self.in_proj_weight.dtype:
            return False
        args = (query, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight, self.out_proj.bias)
        return not (torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in args))

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        fast = self._fast_path(query, key, value)
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer "
                               "module method `generate_square_subsequent_mask` to create this mask.")
        batched = query.dim() == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = query.transpose(1, 0), key.transpose(1, 0)
                    value = key
            else:
                query, key, value = query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)
        tgt_len, bsz, embed_dim = query.shape
        src_len = key.shape[0]
        if embed_dim != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {embed_dim}")
        q, k, v = self._project(query, key, value)
        attn_mask, key_padding_mask = self._shaped_masks(attn_mask, key_padding_mask, bsz, tgt_len, src_len,
                                                         q.dtype)
        heads = self.num_heads
        q = q.view(tgt_len, bsz * heads, self.head_dim).transpose(0, 1)
        k = k.view(src_len, bsz * heads, self.head_dim).transpose(0, 1)
        v = v.view(src_len, bsz * heads, self.head_dim).transpose(0, 1)
        k, v, attn_mask, key_padding_mask = self._extend_kv(k, v, attn_mask, key_padding_mask, bsz)
        src_len = k.size(1)
        attn_mask = self._merged_mask(attn_mask, key_padding_mask, bsz, src_len)
        dropout_p = self.dropout if self.training else 0.0
        if need_weights or fast:
            q_scaled = q * math.sqrt(1.0 / float(self.head_dim))
            if attn_mask is not None:
                weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
            else:
                weights = torch.bmm(q_scaled, k.transpose(-2, -1))
            weights = F.softmax(weights, dim=-1)
            if dropout_p > 0.0:
                weights = F.dropout(weights, p=dropout_p)
            out = torch.bmm(weights, v)
            out = out.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
            out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(tgt_len, bsz, embed_dim)
            weights = weights.view(bsz, heads, tgt_len, src_len)
            if average_attn_weights:
                weights = weights.mean(dim=1)
            if not batched:
                out = out.squeeze(1)
                weights = weights.squeeze(0)
            if not need_weights:
                weights = None
        else:
            if attn_mask is not None:
                if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
                    attn_mask = attn_mask.unsqueeze(0)
                else:
                    attn_mask = attn_mask.view(bsz, heads, -1, src_len)
            q = q.view(bsz, heads, tgt_len, self.head_dim)
            k = k.view(bsz, heads, src_len, self.head_dim)
            v = v.view(bsz, heads, src_len, self.head_dim)
            out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p)
            out = out.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
            out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(tgt_len, bsz, embed_dim)
            weights = None
            if not batched:
                out = out.squeeze(1)
        if self.batch_first and batched:
            out = out.transpose(1, 0)
        return out, weights


def _activation(activation):
    if activation == 'relu':
        return F.relu
    if activation == 'gelu':
        return F.gelu
    if isinstance(activation, str):
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return activation


# The feed-forward block, norms and dropouts of an encoder (n = 2) or
# decoder (n = 3) layer, registered in PyTorch's order.
def _add_feedforward(layer, d_model, dim_feedforward, dropout, activation, eps, norm_first, bias, n):
    layer.linear1 = nn.Linear(d_model, dim_feedforward, bias=bias)
    layer.dropout = nn.Dropout(dropout)
    layer.linear2 = nn.Linear(dim_feedforward, d_model, bias=bias)
    layer.norm_first = norm_first
    for i in range(1, n + 1):
        setattr(layer, f'norm{i}', nn.LayerNorm(d_model, eps=eps, bias=bias))
    for i in range(1, n + 1):
        setattr(layer, f'dropout{i}', nn.Dropout(dropout))
    layer.activation = _activation(activation)


class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu', layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first)
        _add_feedforward(self, d_model, dim_feedforward, dropout, activation, layer_norm_eps, norm_first, bias, 2)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu', layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                 batch_first=batch_first)
        _add_feedforward(self, d_model, dim_feedforward, dropout, activation, layer_norm_eps, norm_first, bias, 3)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _get_clones(module, n):
    return nn.ModuleList([copy.deepcopy(module) for i in range(n)])


# Whether PyTorch's encoder layer can take its fused ("sparsity") path, which
# runs the batch as a nested tensor without the padded positions.
def _layer_allows_nested(layer):
    if not isinstance(layer, TransformerEncoderLayer) or layer.norm_first:
        return False
    attn = layer.self_attn
    if not attn.batch_first or not attn._qkv_same_embed_dim or attn.in_proj_bias is None:
        return False
    act = layer.activation
    relu_or_gelu = act is F.relu or act is F.gelu or isinstance(act, (nn.ReLU, nn.GELU))
    return relu_or_gelu and layer.norm1.eps == layer.norm2.eps and attn.num_heads % 2 == 0


# True where each row of `keep` is a run of True followed by False only.
def _left_aligned(keep):
    counts = keep.sum(dim=-1, keepdim=True)
    return bool((keep == (torch.arange(keep.size(-1)) < counts)).all())


class TransformerEncoder(nn.Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor and _layer_allows_nested(encoder_layer)
        self.mask_check = mask_check

    # PyTorch runs an eval-mode, no-grad batch with a padding mask as a nested
    # tensor and pads it back with zeros: the padded positions come out 0
    # (before the final norm). The other positions are unchanged.
    def _nested_padding(self, src, mask, padding):
        first = self.layers[0]
        if not self.use_nested_tensor or first.training or src.dim() != 3 or padding is None or mask is not None:
            return None
        pad = padding if padding.dtype == torch.bool else padding != 0
        if self.mask_check and not _left_aligned(pad.logical_not()):
            return None
        if torch.is_grad_enabled() and (src.requires_grad or any(p.requires_grad for p in first.parameters())):
            return None
        return pad

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=bool(is_causal), src_key_padding_mask=src_key_padding_mask)
        pad = self._nested_padding(src, mask, src_key_padding_mask)
        if pad is not None:
            output = output.masked_fill(pad.unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(nn.Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=bool(tgt_is_causal),
                         memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(nn.Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation='relu', custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, bias)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, bias)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        return torch.triu(torch.full((sz, sz), float('-inf'), dtype=dtype), diagonal=1)


for _cls in (NonDynamicallyQuantizableLinear, MultiheadAttention, TransformerEncoderLayer, TransformerDecoderLayer,
             TransformerEncoder, TransformerDecoder, Transformer):
    setattr(nn, _cls.__name__, _cls)

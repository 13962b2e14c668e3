#include "core/device.h"

#include <cstring>
#include <functional>
#include <map>

#include "core/ops.h"

#include "traces/recorder.h"

namespace kiln {

namespace {

DeviceBackend* g_cuda = nullptr;

[[noreturn]] void mixed_devices(Device a, Device b) {
  throw Error("Expected all tensors to be on the same device, but found at least two devices, " + a.str() + " and " +
              b.str() + "!");
}

// A host tensor with t's metadata over `storage` (a host copy of t's storage).
Tensor host_alias(const Tensor& t, std::shared_ptr<Storage> storage) {
  Tensor h = storage_view(std::move(storage), t.sizes(), t.strides(), t.offset(), t.dtype());
  h.impl()->is_wrapped_number = t.impl()->is_wrapped_number;
  return h;
}

// Host copies of device storages, made once per storage: views of one
// storage stay views of one host storage, so in-place kernels see aliasing.
class HostMirror {
 public:
  explicit HostMirror(DeviceBackend& b) : b_(b) {}
  Tensor operator()(const Tensor& t) {
    if (!t.defined() || t.device().type == DeviceType::CPU) return t;
    (void)t.raw_data();  // runs the pending graph that writes it, if any
    Storage* s = t.storage().get();
    auto [it, fresh] = host_.try_emplace(s);
    if (fresh) {
      it->second = std::make_shared<Storage>(s->nbytes);
      if (s->nbytes) b_.copy(it->second->data, {}, s->data, s->device, s->nbytes);
    }
    return host_alias(t, it->second);
  }
  // Copies the host storage behind `device_tensor` back to the device.
  void write_back(const Tensor& device_tensor) {
    Storage* s = device_tensor.storage().get();
    auto it = host_.find(s);
    if (it != host_.end() && s->nbytes) b_.copy(s->data, s->device, it->second->data, {}, s->nbytes);
  }

 private:
  DeviceBackend& b_;
  std::map<Storage*, std::shared_ptr<Storage>> host_;
};

std::vector<Value> map_tensors(const Args& args, const std::function<Tensor(const Tensor&)>& f) {
  std::vector<Value> out(args.begin(), args.end());
  for (Value& v : out) {
    if (v.is_tensor() && v.tensor().defined()) v = Value(f(v.tensor()));
    else if (v.is_tensor_list()) {
      std::vector<Tensor> list = v.tensor_list();
      for (Tensor& t : list) t = f(t);
      v = Value(std::move(list));
    }
  }
  return out;
}

// The CPU kernel over host copies: for ops without a device kernel.
void cpu_fallback(DeviceBackend& b, const OpDef& op, const Args& args, std::vector<Tensor>& outs) {
  static trace::InternedName kFallback("cpu fallback");
  trace::SpanScope span(trace::Category::gpu, kFallback);
  DeviceScope on_host(Device{});  // what the CPU kernel creates stays on the host
  HostMirror mirror(b);
  std::vector<Value> host_args = map_tensors(args, [&](const Tensor& t) { return mirror(t); });
  std::vector<Tensor> host_outs;
  for (const Tensor& o : outs) host_outs.push_back(mirror(o));
  op.kernel(host_args, host_outs);
  for (const Tensor& o : outs) mirror.write_back(o);
}

// The device a kernel runs on: its tensors' and its outputs' (a factory's
// outputs may be on a device while it has no tensor inputs but scalars).
Device kernel_device(const OpDef& op, const Args& args, const std::vector<Tensor>& outs) {
  Device dev = common_device(op, args);
  for (const Tensor& o : outs) {
    if (!o.defined() || o.device() == dev) continue;
    bool only_scalars = true;
    for_each_tensor(args, [&](const Tensor& t) {
      only_scalars = only_scalars && t.dim() == 0 && t.device().type == DeviceType::CPU;
    });
    if (dev.type != DeviceType::CPU || !only_scalars) mixed_devices(o.device(), dev);
    dev = o.device();
  }
  return dev;
}

}  // namespace

thread_local Device t_default_device;

Device default_device() { return t_default_device; }
DeviceScope::DeviceScope(Device d) : saved_(t_default_device) { t_default_device = d; }
DeviceScope::~DeviceScope() { t_default_device = saved_; }

Device output_device(const OpDef& op, const Args& args) {
  if (op.device) return op.device(args);
  bool any = false;
  for_each_tensor(args, [&](const Tensor&) { any = true; });
  return any ? common_device(op, args) : default_device();
}

void set_cuda_backend(DeviceBackend* backend) { g_cuda = backend; }
DeviceBackend* cuda_backend_if_any() { return g_cuda; }

DeviceBackend& cuda_backend() {
  KILN_CHECK(g_cuda, Assertion, "Torch not compiled with CUDA enabled");
  KILN_CHECK(g_cuda->available(), Runtime, g_cuda->unavailable_reason());
  return *g_cuda;
}

Device common_device(const OpDef&, const Args& args) {
  Device dev;
  bool cuda = false, cpu_dims = false;
  for_each_tensor(args, [&](const Tensor& t) {
    Device d = t.device();
    if (d.type == DeviceType::CPU) {
      cpu_dims = cpu_dims || t.dim() > 0;
      return;
    }
    if (cuda && d != dev) mixed_devices(dev, d);
    dev = d;
    cuda = true;
  });
  if (cuda && cpu_dims) mixed_devices(dev, Device{});
  return dev;
}

void run_op_kernel(const OpDef& op, const Args& args, std::vector<Tensor>& outs) {
  if (op.device) return op.kernel(args, outs);  // a transfer moves its own data
  Device dev = kernel_device(op, args, outs);
  if (dev.type == DeviceType::CPU) return op.kernel(args, outs);
  if (op.kind == OpKind::View) return op.kernel(args, outs);  // metadata only
  DeviceBackend& b = cuda_backend();
  std::vector<Value> moved = map_tensors(args, [&](const Tensor& t) { return copy_to_device(t, dev); });
  if (!b.run(op, moved, outs)) cpu_fallback(b, op, moved, outs);
}

void run_op_check(const OpDef& op, const Args& args) {
  if (common_device(op, args).type == DeviceType::CPU) return op.check(args);
  HostMirror mirror(cuda_backend());
  std::vector<Value> host = map_tensors(args, [&](const Tensor& t) { return mirror(t); });
  op.check(host);
}

Tensor copy_to_device(const Tensor& t, Device d) {
  if (!t.defined() || t.device() == d) return t;
  Tensor dst = empty_tensor(t.sizes(), t.dtype(), d);
  dst.impl()->is_wrapped_number = t.impl()->is_wrapped_number;
  copy_across_devices(dst, t);
  return dst;
}

void copy_across_devices(const Tensor& dst, const Tensor& src) {
  Tensor from = src;
  if (!src.is_contiguous()) {  // gather on its own device first: copies move flat bytes
    std::vector<Tensor> outs{empty_tensor(src.sizes(), src.dtype(), src.device())};
    std::vector<Value> args{Value(src)};
    run_op_kernel(op_table().get("clone"), args, outs);
    from = outs[0];
  }
  size_t bytes = size_t(from.numel()) * from.element_size();
  if (!bytes) return;
  if (dst.device().type == DeviceType::CPU && from.device().type == DeviceType::CPU)
    std::memcpy(dst.raw_data(), from.raw_data(), bytes);
  else
    cuda_backend().copy(dst.raw_data(), dst.device(), from.raw_data(), from.device(), bytes);
}

Tensor move_to(const Tensor& t, Device d) {
  if (!t.defined() || t.device() == d) return t;
  return invoke("_to_device", {t, device_code(d), device_code(t.device())});
}

int64_t device_code(Device d) { return d.type == DeviceType::CPU ? -1 : d.index; }
Device device_of_code(int64_t code) {
  return code < 0 ? Device{} : Device{DeviceType::CUDA, int(code)};
}

Device parse_device(const std::string& spec) {
  std::string type = spec.substr(0, spec.find(':'));
  KILN_CHECK(type == "cpu" || type == "cuda", Runtime,
             "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
             "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: ", spec);
  Device d{type == "cpu" ? DeviceType::CPU : DeviceType::CUDA, 0};
  if (type.size() < spec.size()) {
    const std::string idx = spec.substr(type.size() + 1);
    KILN_CHECK(!idx.empty() && idx.find_first_not_of("0123456789") == std::string::npos, Runtime,
               "Invalid device string: '", spec, "'");
    d.index = std::stoi(idx);
  }
  return d;
}

}  // namespace kiln

// Autocast (torch.autocast): per-thread mixed-precision state and PyTorch's
// CPU op lists. dispatch() consults it before running an op, so the casts it
// inserts are ordinary _to_copy ops: autograd flows back through them and
// the JIT's captured graphs (and so their guards) contain them.
#pragma once

#include <string_view>
#include <vector>

#include "core/value.h"

namespace kiln {
struct OpDef;

// bfloat16 and float16, the autocast dtypes: their CPU matmul kernels sum in
// float32 and round once.
inline bool is_reduced_float(DType d) { return d == DType::Float16 || d == DType::BFloat16; }

namespace autocast {

// What autocast does to an op's floating-point CPU tensor inputs (never to
// float64 ones, as in PyTorch).
enum class Policy : uint8_t {
  None,     // not listed: runs in its inputs' dtypes, and ops it runs may be cast
  Lower,    // cast to the autocast dtype (matmuls, convolutions)
  Fp32,     // cast to float32 (losses, reductions and solvers sensitive to rounding)
  Promote,  // cast to the widest input type (cat, stack, index_copy)
  Native,   // a Kiln composite for what PyTorch runs as one kernel: nothing it runs is cast
};

// The policy for an op named `name` (an overload name's base counts).
Policy policy_of(std::string_view name);
Policy policy_of(const OpDef& op);

// The state torch.set_autocast_enabled / set_autocast_dtype set. Devices:
// 0 cpu, 1 cuda.
bool enabled(int device);
void set_enabled(int device, bool on);
DType dtype(int device);
void set_dtype(int device, DType d);
// True when CPU autocast is on and no listed op or backward pass excludes it.
bool armed();

// Casts args in place as `policy` asks (Promote may throw PyTorch's
// prioritize error).
void cast_args(Policy policy, std::vector<Value>& args);
// One tensor as `policy` casts it.
Tensor cast(Policy policy, const Tensor& t);

// Turns autocast off for its scope: inside a listed op and during backward,
// as PyTorch's autocast dispatch key is excluded there.
class ExcludeGuard {
 public:
  ExcludeGuard();
  ~ExcludeGuard();
  ExcludeGuard(const ExcludeGuard&) = delete;
  ExcludeGuard& operator=(const ExcludeGuard&) = delete;

 private:
  bool saved_;
};

}  // namespace autocast
}  // namespace kiln

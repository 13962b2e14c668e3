// The trace IR: an SSA graph of op-table nodes, built from the ops a region
// deferred (core/lazy.h). Values are typed (dtype, sizes, strides, with
// dynamic dims marked); tensors the graph did not produce are its inputs,
// Python numbers passed where a schema takes a Scalar are scalar inputs (so a
// changing learning rate or step counter never recompiles), every other
// argument (int[], int, bool, dtype, str, None) is a constant. In-place ops are
// functionalized: `add_(x, y)` defines a new version of x that later uses
// read, and the graph's mutations list says which input ends as which value.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/lazy.h"

namespace kiln::jit {

using ValueId = int32_t;

struct IrValue {
  enum class Kind : uint8_t { TensorInput, ScalarInput, NodeOutput };
  Kind kind = Kind::NodeOutput;
  // Tensors: dtype, sizes, strides. Scalars: dtype Float64, Int64 or Bool, no sizes.
  DType dtype = DType::Float32;
  Shape sizes, strides;
  // Bit d: dim d is symbolic, printed s<input>_<dim>. Tensor inputs: from
  // DynamicDims. Node outputs: best effort (shape functions are not symbolic:
  // an output dim whose size equals a dynamic dim of one of its node's tensor
  // arguments carries that symbol), for reading only; guards and
  // structural_hash use the inputs' masks alone.
  uint64_t dynamic_dims = 0;
  bool requires_grad = false;
  int32_t node = -1;       // NodeOutput: producing node index
  int32_t out_index = 0;   // NodeOutput: which output of that node
  int32_t input_index = -1;  // TensorInput/ScalarInput: position in tensor_inputs/scalar_inputs
  ValueId version_of = -1;   // set on the output of an in-place op: the value it overwrote
  // TensorInput: where the pending ops first pass it (node, argument, list
  // element or -1), so executors find its tensor in later runs' ops.
  int32_t use_node = -1, use_arg = -1, use_elem = -1;
};

// One argument of a node, in schema order.
struct NodeArg {
  enum class Kind : uint8_t { Tensor, TensorList, Scalar, Const };
  Kind kind = Kind::Const;
  ValueId value = -1;            // Tensor (-1: undefined tensor, or None in a Tensor slot), Scalar
  std::vector<ValueId> list;     // TensorList (-1: an undefined element)
  Value constant;                // Const: for a dynamic one, the example run's value
  // Const int or int[] whose value each run reads from its own op (automatic
  // dynamic shapes: a size passed on as a Python int). Printed `?`.
  bool dynamic = false;
};

struct Node {
  const OpDef* op = nullptr;
  std::vector<NodeArg> args;
  std::vector<ValueId> outs;
  uint32_t site = 0;  // PendingOp::site
  // Set by graph passes (jit/passes/): the node need not run. Nodes are never
  // removed, so node i stays the i-th pending op the executor binds tensors from.
  bool dead = false;
  // Set by graph passes that rewrote this node's tensor arguments: its
  // pending op's own arguments are stale and the executor rebinds them.
  bool rewritten = false;
  // Set by mark_stealable_copies on a clone whose source dies unread with the
  // graph: the executor may move the source's buffer into the output.
  bool steal_source = false;
  // Some int argument is dynamic (NodeArg::dynamic): passes neither rewrite
  // the node nor reason through it, and fusion leaves it to its eager kernel,
  // which reads the values of each run.
  bool dynamic_ints = false;
};

struct Graph {
  std::vector<IrValue> values;
  std::vector<ValueId> tensor_inputs;
  std::vector<ValueId> scalar_inputs;
  std::vector<Node> nodes;
  // Inputs an in-place op overwrote, and the value each holds at the end:
  // the executor writes these back (input value id, final value id).
  std::vector<std::pair<ValueId, ValueId>> mutations;
};

// Builds the graph of `ops`. `dynamic(i)` for tensor input i (in order of first
// use) gives its dynamic-dims mask; null: none dynamic.
struct DynamicDims {
  virtual ~DynamicDims() = default;
  virtual uint64_t mask(size_t tensor_input) const = 0;
  // Whether int / int[] argument `arg` of node `node` is dynamic.
  virtual bool int_arg(size_t /*node*/, size_t /*arg*/) const { return false; }
};
Graph build_graph(std::span<const lazy::PendingOp> ops, const DynamicDims* dynamic = nullptr);

// The same inputs, in the same order, for executing a graph built from ops
// with this structure: tensor inputs (by first use) and scalar inputs.
struct GraphInputs {
  std::vector<Tensor> tensors;
  std::vector<Value> scalars;
};
// Defined in guards.cpp beside make_signature: both run at every flush and
// share one allocation-free tensor index.
GraphInputs collect_inputs(std::span<const lazy::PendingOp> ops);

// Site names for the text form: site id -> "model.py:12"; "" when unknown.
struct SiteNames {
  virtual ~SiteNames() = default;
  virtual std::string name(uint32_t site) const = 0;
};

// Readable text, one node a line, like an FX graph / LuaJIT -jdump:
//   graph(%0: f32[s0_0, 10], %1: f32[10, 10], %2: f32[10], %s0: f64, %s1: f64):
//     %3: f32[s0_0, 10] = mm(%0, %1)                      # model.py:12
//     %4: f32[s0_0, 10] = add(%3, %2, alpha=%s0)          # model.py:13
//     %5: f32[10, 10] = add_(%1, %1, alpha=%s1) !mutates %1  # model.py:14
//     return (%4), mutated (%1 <- %5)
// Tensor inputs are %0.. in input order, node outputs follow, scalar inputs
// are %s0..; tensor arguments are positional, the rest name=value; a
// non-contiguous static value adds " strides=[..]". Dynamic dims print as
// s<input>_<dim>, dynamic int arguments as ? (`end=?`, `size=[?, ?]`). `return` lists the outputs no later node reads (the graph
// does not know which tensors the script keeps). Deterministic: same
// structure, same text.
std::string to_text(const Graph& g, const SiteNames* sites = nullptr);

// Whether a value's example strides are row-major dense (size-1 dims aside).
bool contiguous(const IrValue& v);

// A stable structural hash (ops, arg kinds, constants (a dynamic one by kind
// and length only), dtypes, tensor inputs'
// static sizes, strides and requires_grad, dynamic masks; not scalar input
// values, not sites, not node outputs' sizes, which follow from the rest, so a
// dynamic graph hashes the same whatever example sizes built it). Equal graphs
// hash equal across runs and processes (FNV-1a over op names, no pointers).
uint64_t structural_hash(const Graph& g);

}  // namespace kiln::jit

// Graph passes on the trace IR (jit/graph.h), run on a copy of a cached graph
// before fusion (jit/fusion.h), once per pattern of live values. Each pass is
// its own file with one entry point and tests showing the IR before and after
// (tests/jit_ir/passes_test.cpp).
//
// The rules every pass keeps, because graphs are executed by binding node i
// to the i-th pending op of each later run:
//  - nodes are never removed or reordered: a pass sets Node::dead, or rewrites
//    a node's tensor arguments (and sets Node::rewritten);
//  - a value with live[v] (observable after the graph: a Python variable,
//    autograd, a mutated input) is still produced by its node;
//  - in-place nodes (op->is_inplace()) and the nodes producing a mutated
//    input's versions are never dead and their self argument is never rewritten;
//  - Python numbers are graph inputs (ScalarInput), so no pass may assume
//    their values; only NodeArg::Kind::Const arguments are known.
#pragma once

#include <vector>

#include "jit/graph.h"

namespace kiln::jit {

// All passes, in order.
void optimize(Graph& g, const std::vector<bool>& live);

// The passes, in the order optimize runs them (`live` as in fusion.h).
void forward_copies(Graph& g);                                                    // functionalize.cpp
void simplify_algebra(Graph& g);                                                  // simplify.cpp
void eliminate_common_subexpressions(Graph& g, const std::vector<bool>& live);  // cse.cpp
void fold_constants(Graph& g, const std::vector<bool>& live);                   // constant_fold.cpp
void eliminate_dead_code(Graph& g, const std::vector<bool>& live);              // dce.cpp
void mark_stealable_copies(Graph& g, const std::vector<bool>& live);           // steal_copies.cpp

}  // namespace kiln::jit

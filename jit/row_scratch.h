// The row buffer of generated Row kernels: where a reduction's loop leaves an
// expensive element expression (softmax's exp(x - max)) for the later loops
// of the same row to read back instead of recomputing it (jit/llvm_codegen.cpp).
#pragma once

#include <cstdint>

extern "C" {
// At least `bytes` of 64-byte-aligned memory owned by the calling thread,
// valid until its next call on this thread. Kernels call it once per
// invocation; pool threads keep their buffer, so steady state allocates
// nothing. Never returns null (it aborts with a message if memory runs out,
// which a row that fits in memory twice over cannot cause).
void* kiln_row_scratch(int64_t bytes) noexcept;
}
